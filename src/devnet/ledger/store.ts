/**
 * The devnet ledger's storage: SQLite tables (transactions, the entities each touched, vault balances with their
 * history, resources, metadata), in-memory caches of the current state for execution, the genesis commit, and the
 * reads at a state version. A commit is applied atomically in one SQL transaction, then to the caches. It knows
 * nothing of transaction formats: what to commit is decided by the validators and executors.
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { BigDecimal, Clock, Effect, Option, Schema } from "effect"
import { formatPlain } from "../../lib/decimalText"
import { DEVNET_NETWORK_NAME, vaultAddress } from "./address"
import { LedgerDecimalText, parseLedgerDecimal, ZERO } from "./amount"
import type { BalanceChange } from "./execute"
import { type Genesis, makeGenesis } from "./genesis"
import type { SubintentRecord } from "./payload"
import type { GatewayMessage } from "./transaction"
import {
  type CommittedTransaction,
  LedgerConfig,
  type LedgerState,
  type MetadataEntry,
  type ResourceHolder,
  type ResourceInfo,
  type StreamQuery,
  type TransactionKind,
  type TransactionPage,
  type VaultBalance
} from "./types"

// ---------------------------------------------------------------------------------------------------------------
// Rows

const TxRow = Schema.Struct({
  state_version: Schema.Number,
  epoch: Schema.Number,
  round: Schema.Number,
  round_timestamp: Schema.String,
  kind: Schema.Literal("User", "Genesis", "System", "RoundUpdate"),
  status: Schema.Literal("CommittedSuccess", "CommittedFailure"),
  intent_hash: Schema.NullOr(Schema.String),
  payload_hash: Schema.NullOr(Schema.String),
  fee_paid: Schema.String,
  error_message: Schema.NullOr(Schema.String),
  manifest: Schema.NullOr(Schema.String),
  message_json: Schema.NullOr(Schema.String),
  raw_hex: Schema.NullOr(Schema.String),
  details_json: Schema.String
})
type TxRow = typeof TxRow.Type

const TxDetails = Schema.Struct({
  fee: Schema.Array(Schema.Struct({ entity: Schema.String, resource: Schema.String, change: Schema.String })),
  changes: Schema.Array(Schema.Struct({ entity: Schema.String, resource: Schema.String, change: Schema.String })),
  affected: Schema.Array(Schema.String),
  classes: Schema.Array(Schema.Literal("General", "Transfer")),
  next_epoch: Schema.optional(Schema.Number),
  outputs: Schema.optional(Schema.Array(Schema.String)),
  subintents: Schema.optional(
    Schema.Array(
      Schema.Struct({
        hash: Schema.String,
        manifest: Schema.String,
        message: Schema.optional(Schema.Unknown),
        children: Schema.Array(Schema.String)
      })
    )
  ),
  children: Schema.optional(Schema.Array(Schema.String))
})

const MessageJson = Schema.parseJson(
  Schema.Union(
    Schema.Struct({
      type: Schema.Literal("Plaintext"),
      mime_type: Schema.String,
      content: Schema.Struct({ type: Schema.Literal("String"), value: Schema.String })
    }),
    Schema.Struct({
      type: Schema.Literal("Plaintext"),
      mime_type: Schema.String,
      content: Schema.Struct({ type: Schema.Literal("Binary"), value_hex: Schema.String })
    }),
    Schema.Struct({ type: Schema.Literal("Encrypted"), encrypted_hex: Schema.String })
  )
)

const VaultRow = Schema.Struct({
  account: Schema.String,
  resource: Schema.String,
  amount: LedgerDecimalText,
  state_version: Schema.Number
})

const ResourceRow = Schema.Struct({
  address: Schema.String,
  symbol: Schema.String,
  name: Schema.String,
  description: Schema.String,
  icon_url: Schema.String,
  divisibility: Schema.Number,
  total_supply: Schema.String,
  created_state_version: Schema.Number
})

const MetadataRow = Schema.Struct({
  key: Schema.String,
  type: Schema.Literal("String", "Url", "U8"),
  value: Schema.String,
  state_version: Schema.Number
})

const HolderRow = Schema.Struct({
  account: Schema.String,
  amount: LedgerDecimalText,
  state_version: Schema.Number,
  first_seen: Schema.Number
})

const MetaRow = Schema.Struct({ key: Schema.String, value: Schema.String })

const VersionRow = Schema.Struct({ v: Schema.NullOr(Schema.Number) })
const ClockRow = Schema.Struct({ epoch: Schema.Number, round: Schema.Number, round_timestamp: Schema.String })
const SubintentRow = Schema.Struct({ subintent_hash: Schema.String })
const IntentRow = Schema.Struct({ state_version: Schema.Number, intent_hash: Schema.String })

/**
 * A row decoder per row Schema, built once: a Schema made inside a call is a new AST every time, and `effect` then
 * compiles its parser again on every read (it memoises parsers by AST), which cost the devnet about a millisecond a
 * swap.
 */
const rowDecoders = new WeakMap<object, (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<unknown>>>()
const decodeRows = <A, I>(
  schema: Schema.Schema<A, I>
): ((rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>>) => {
  const known = rowDecoders.get(schema)
  if (known !== undefined) return known as (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>>
  const decode = Schema.decodeUnknown(Schema.Array(schema))
  const made = (rows: ReadonlyArray<unknown>) => decode(rows).pipe(Effect.orDie)
  rowDecoders.set(schema, made)
  return made
}

const decodeTxDetails = Schema.decodeUnknown(Schema.parseJson(TxDetails))
const decodeFee = Schema.decodeUnknown(LedgerDecimalText)
const decodeMessage = Schema.decodeUnknown(MessageJson)

const toTransaction = (row: TxRow): Effect.Effect<CommittedTransaction> =>
  Effect.gen(function* () {
    const details = yield* decodeTxDetails(row.details_json).pipe(Effect.orDie)
    const feePaid = yield* decodeFee(row.fee_paid).pipe(Effect.orDie)
    const message = row.message_json === null ? undefined : yield* decodeMessage(row.message_json).pipe(Effect.orDie)
    return {
      stateVersion: row.state_version,
      epoch: row.epoch,
      round: row.round,
      roundTimestamp: row.round_timestamp,
      kind: row.kind,
      status: row.status,
      intentHash: row.intent_hash ?? undefined,
      payloadHash: row.payload_hash ?? undefined,
      feePaid,
      errorMessage: row.error_message ?? undefined,
      manifest: row.manifest ?? undefined,
      message,
      rawHex: row.raw_hex ?? undefined,
      feeBalanceChanges: details.fee,
      balanceChanges: details.changes,
      affectedGlobalEntities: details.affected,
      manifestClasses: details.classes,
      nextEpoch: details.next_epoch,
      outputs: details.outputs ?? [],
      ...(details.subintents === undefined
        ? {}
        : {
            subintentDetails: details.subintents.map((d) => ({
              subintentHash: d.hash,
              manifest: d.manifest,
              message: d.message,
              childSubintentHashes: d.children
            }))
          }),
      ...(details.children === undefined ? {} : { childSubintentHashes: details.children })
    }
  })

const SCHEMA_SQL = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS resources (address TEXT PRIMARY KEY, symbol TEXT NOT NULL, name TEXT NOT NULL,
     description TEXT NOT NULL, icon_url TEXT NOT NULL, divisibility INTEGER NOT NULL, total_supply TEXT NOT NULL,
     created_state_version INTEGER NOT NULL, ordinal INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS metadata (address TEXT NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL,
     value TEXT NOT NULL, state_version INTEGER NOT NULL, PRIMARY KEY (address, key))`,
  `CREATE TABLE IF NOT EXISTS vault_history (account TEXT NOT NULL, resource TEXT NOT NULL,
     state_version INTEGER NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (account, resource, state_version))`,
  `CREATE INDEX IF NOT EXISTS vault_history_account ON vault_history (account, state_version)`,
  `CREATE TABLE IF NOT EXISTS transactions (state_version INTEGER PRIMARY KEY, epoch INTEGER NOT NULL,
     round INTEGER NOT NULL, round_timestamp TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
     intent_hash TEXT UNIQUE, payload_hash TEXT, fee_paid TEXT NOT NULL, error_message TEXT, manifest TEXT,
     message_json TEXT, raw_hex TEXT, details_json TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS finalized_subintents (subintent_hash TEXT PRIMARY KEY,
     state_version INTEGER NOT NULL, intent_hash TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS tx_entities (state_version INTEGER NOT NULL, address TEXT NOT NULL, role TEXT NOT NULL,
     PRIMARY KEY (address, role, state_version))`
] as const

// ---------------------------------------------------------------------------------------------------------------
// The service

/** The epoch, round and round timestamp of a commit. */
export interface Tip {
  readonly epoch: number
  readonly round: number
  readonly timestamp: string
}

/** Everything one committed ledger transaction writes. */
export interface Commit {
  readonly kind: TransactionKind
  readonly success: boolean
  readonly intentHash: string | undefined
  readonly payloadHash: string | undefined
  readonly fee: BigDecimal.BigDecimal
  readonly errorMessage: string | undefined
  readonly manifest: string | undefined
  readonly message: GatewayMessage | undefined
  readonly rawHex: string | undefined
  readonly feeChanges: ReadonlyArray<BalanceChange>
  readonly changes: ReadonlyArray<BalanceChange>
  readonly withdrawnFrom: ReadonlyArray<string>
  readonly depositedInto: ReadonlyArray<string>
  readonly resources: ReadonlyArray<string>
  readonly classes: ReadonlyArray<"General" | "Transfer">
  readonly newResources?: ReadonlyArray<Omit<ResourceInfo, "createdAtStateVersion">>
  readonly metadata?: ReadonlyArray<{ address: string; key: string; type: MetadataEntry["type"]; value: string }>
  readonly outputs?: ReadonlyArray<string>
  /** Where a round update puts the ledger; other commits happen in the tip's round. */
  readonly at?: { readonly epoch: number; readonly round: number; readonly timestamp: string }
  readonly nextEpoch?: number
  readonly affected?: ReadonlyArray<string>
  /** A V2 transaction's subintents: marked finalized in the same SQL transaction, only for a success. */
  readonly subintents?: ReadonlyArray<SubintentRecord>
  readonly childSubintentHashes?: ReadonlyArray<string>
}

export const makeLedgerStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const options = yield* LedgerConfig
  const genesis: Genesis = makeGenesis(options.seed)
  const xrd = genesis.resources[0]?.address ?? ""

  for (const statement of SCHEMA_SQL) yield* sql.unsafe(statement).pipe(Effect.orDie)

  // --- in-memory caches of the current state ---
  const balances = new Map<string, BigDecimal.BigDecimal>() // `${account} ${resource}` -> amount
  const balanceKey = (account: string, resource: string) => `${account} ${resource}`
  const resources = new Map<string, ResourceInfo>()
  /** Subintents (`subtxid_…`) finalized by a successful commit: never executable again. */
  const finalizedSubintents = new Set<string>()
  let stateVersion = 0
  /** The epoch, round and round timestamp of the last committed transaction: what `ledger_state` reports. */
  let tip: Tip = { epoch: 1, round: 1, timestamp: "" }

  const metaRows = yield* sql`SELECT key, value FROM meta`.pipe(Effect.flatMap(decodeRows(MetaRow)), Effect.orDie)
  const meta = new Map(metaRows.map((r) => [r.key, r.value]))
  const storedSeed = meta.get("seed")
  if (storedSeed !== undefined && storedSeed !== options.seed) {
    return yield* Effect.dieMessage(
      `The devnet data directory holds a ledger made from another seed; start it with reset to use seed "${options.seed}"`
    )
  }
  const genesisMs = meta.has("genesis_ms") ? Number(meta.get("genesis_ms")) : yield* Clock.currentTimeMillis

  const clockState = Effect.map(Clock.currentTimeMillis, (now) => {
    const elapsed = Math.max(0, now - genesisMs)
    const epochIndex = Math.floor(elapsed / options.epochDurationMs)
    const roundIndex = Math.floor((elapsed % options.epochDurationMs) / options.roundDurationMs)
    // The proposer's round timestamp is the start of the current round.
    const roundStart = genesisMs + epochIndex * options.epochDurationMs + roundIndex * options.roundDurationMs
    return { epoch: 1 + epochIndex, round: 1 + roundIndex, timestamp: new Date(roundStart).toISOString() }
  })

  /** The ledger state at the tip: the state version of the last commit, with that commit's epoch and round. */
  const tipState = (): LedgerState => ({
    network: DEVNET_NETWORK_NAME,
    state_version: stateVersion,
    proposer_round_timestamp: tip.timestamp,
    epoch: tip.epoch,
    round: tip.round
  })

  /** Applies a commit atomically (SQL transaction) and then updates the caches. */
  const commit = (c: Commit): Effect.Effect<CommittedTransaction, SqlError> =>
    Effect.gen(function* () {
      const clock = c.at ?? tip
      const version = stateVersion + 1
      const netChanges = new Map<string, BigDecimal.BigDecimal>()
      for (const ch of [...c.feeChanges, ...c.changes]) {
        const k = balanceKey(ch.entity, ch.resource)
        netChanges.set(k, BigDecimal.sum(netChanges.get(k) ?? ZERO, ch.change))
      }
      // Normalised once here, so the cached balances stay small however many commits add to them.
      const newBalances = new Map<string, BigDecimal.BigDecimal>()
      for (const [k, ch] of netChanges)
        newBalances.set(k, BigDecimal.normalize(BigDecimal.sum(balances.get(k) ?? ZERO, ch)))
      const affected = [
        ...new Set([
          ...c.feeChanges.map((f) => f.entity),
          ...c.withdrawnFrom,
          ...c.depositedInto,
          ...c.changes.map((f) => f.entity),
          ...c.resources,
          ...(c.feeChanges.length > 0 ? [xrd] : []),
          ...(c.newResources ?? []).map((r) => r.address),
          ...(c.affected ?? [])
        ])
      ]
      const fmt = (chs: ReadonlyArray<BalanceChange>) =>
        chs.map((x) => ({ entity: x.entity, resource: x.resource, change: formatPlain(x.change) }))
      const details = {
        fee: fmt(c.feeChanges),
        changes: fmt(c.changes),
        affected,
        classes: c.classes,
        ...(c.nextEpoch === undefined ? {} : { next_epoch: c.nextEpoch }),
        ...(c.outputs === undefined || c.outputs.length === 0 ? {} : { outputs: c.outputs }),
        ...(c.subintents === undefined
          ? {}
          : {
              subintents: c.subintents.map((d) => ({
                hash: d.subintentHash,
                manifest: d.manifest,
                ...(d.message === undefined ? {} : { message: d.message }),
                children: d.childSubintentHashes
              }))
            }),
        ...(c.childSubintentHashes === undefined ? {} : { children: c.childSubintentHashes })
      }
      const row = {
        state_version: version,
        epoch: clock.epoch,
        round: clock.round,
        round_timestamp: clock.timestamp,
        kind: c.kind,
        status: c.success ? ("CommittedSuccess" as const) : ("CommittedFailure" as const),
        intent_hash: c.intentHash ?? null,
        payload_hash: c.payloadHash ?? null,
        fee_paid: formatPlain(c.fee),
        error_message: c.errorMessage ?? null,
        manifest: c.manifest ?? null,
        message_json: c.message === undefined ? null : JSON.stringify(c.message),
        raw_hex: c.rawHex ?? null,
        details_json: JSON.stringify(details)
      }
      const entityRows = [
        ...affected.map((address) => ({ state_version: version, address, role: "affected" })),
        ...c.withdrawnFrom.map((address) => ({ state_version: version, address, role: "withdrawn" })),
        ...c.depositedInto.map((address) => ({ state_version: version, address, role: "deposited" })),
        ...c.resources.map((address) => ({ state_version: version, address, role: "resource" }))
      ]
      const vaultRows = [...newBalances].map(([k, amount]) => {
        const [account = "", resource = ""] = k.split(" ")
        return { account, resource, state_version: version, amount: formatPlain(amount) }
      })
      const finalized =
        c.success && c.intentHash !== undefined
          ? (c.subintents ?? []).map((d) => ({
              subintent_hash: d.subintentHash,
              state_version: version,
              intent_hash: c.intentHash ?? ""
            }))
          : []
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO transactions ${sql.insert(row)}`
          if (finalized.length > 0) yield* sql`INSERT INTO finalized_subintents ${sql.insert(finalized)}`
          if (entityRows.length > 0) yield* sql`INSERT OR IGNORE INTO tx_entities ${sql.insert(entityRows)}`
          if (vaultRows.length > 0) yield* sql`INSERT INTO vault_history ${sql.insert(vaultRows)}`
          for (const [i, r] of (c.newResources ?? []).entries()) {
            yield* sql`INSERT INTO resources ${sql.insert({
              address: r.address,
              symbol: r.symbol,
              name: r.name,
              description: r.description,
              icon_url: r.iconUrl,
              divisibility: r.divisibility,
              total_supply: r.totalSupply,
              created_state_version: version,
              ordinal: resources.size + i
            })}`
          }
          for (const m of c.metadata ?? []) {
            yield* sql`INSERT OR REPLACE INTO metadata ${sql.insert({ ...m, state_version: version })}`
          }
          if (c.kind === "Genesis") {
            yield* sql`INSERT OR REPLACE INTO meta ${sql.insert([
              { key: "seed", value: options.seed },
              { key: "genesis_ms", value: String(genesisMs) }
            ])}`
          }
        })
      )
      // The SQL transaction committed: update the caches.
      stateVersion = version
      tip = { epoch: clock.epoch, round: clock.round, timestamp: clock.timestamp }
      for (const [k, amount] of newBalances) balances.set(k, amount)
      for (const f of finalized) finalizedSubintents.add(f.subintent_hash)
      for (const r of c.newResources ?? []) resources.set(r.address, { ...r, createdAtStateVersion: version })
      return yield* toTransaction(row)
    })

  const metadataFor = (r: Omit<ResourceInfo, "createdAtStateVersion">) => [
    { address: r.address, key: "name", type: "String" as const, value: r.name },
    { address: r.address, key: "symbol", type: "String" as const, value: r.symbol },
    { address: r.address, key: "description", type: "String" as const, value: r.description },
    { address: r.address, key: "icon_url", type: "Url" as const, value: r.iconUrl },
    { address: r.address, key: "divisibility", type: "U8" as const, value: String(r.divisibility) }
  ]

  // --- load or create genesis ---
  const loaded = yield* sql`SELECT MAX(state_version) AS v FROM transactions`.pipe(
    Effect.flatMap(decodeRows(VersionRow)),
    Effect.orDie
  )
  const lastVersion = loaded[0]?.v ?? null
  if (lastVersion === null) {
    tip = yield* clockState
    const supply = new Map<string, BigDecimal.BigDecimal>()
    const changes: Array<BalanceChange> = []
    for (const account of genesis.accounts) {
      for (const [symbol, amountText] of Object.entries(account.balances)) {
        const resource = genesis.resources.find((r) => r.symbol === symbol)
        if (resource === undefined) continue
        const amount = parseLedgerDecimal(amountText)
        if (Option.isNone(amount)) {
          return yield* Effect.dieMessage(
            `The genesis balance ${JSON.stringify(amountText)} ${symbol} of ${account.address} is not a Decimal`
          )
        }
        changes.push({ entity: account.address, resource: resource.address, change: amount.value })
        supply.set(resource.address, BigDecimal.sum(supply.get(resource.address) ?? ZERO, amount.value))
      }
    }
    const newResources = genesis.resources.map((r) => ({
      address: r.address,
      symbol: r.symbol,
      name: r.name,
      description: r.description,
      iconUrl: r.iconUrl,
      divisibility: r.divisibility,
      totalSupply: formatPlain(supply.get(r.address) ?? ZERO)
    }))
    const accountMetadata = genesis.accounts.flatMap((a) =>
      Object.entries(a.metadata).map(([key, value]) => ({ address: a.address, key, type: "String" as const, value }))
    )
    yield* commit({
      kind: "Genesis",
      success: true,
      intentHash: undefined,
      payloadHash: undefined,
      fee: ZERO,
      errorMessage: undefined,
      manifest: undefined,
      message: undefined,
      rawHex: undefined,
      feeChanges: [],
      changes,
      withdrawnFrom: [],
      depositedInto: [...new Set(changes.map((c) => c.entity))],
      resources: newResources.map((r) => r.address),
      classes: ["General"],
      newResources,
      metadata: [...newResources.flatMap(metadataFor), ...accountMetadata]
    }).pipe(Effect.orDie)
  } else {
    stateVersion = lastVersion
    const tipRow =
      yield* sql`SELECT epoch, round, round_timestamp FROM transactions WHERE state_version = ${lastVersion}`.pipe(
        Effect.flatMap(decodeRows(ClockRow)),
        Effect.orDie
      )
    const last = tipRow[0]
    if (last !== undefined) tip = { epoch: last.epoch, round: last.round, timestamp: last.round_timestamp }
    const resourceRows = yield* sql`SELECT * FROM resources ORDER BY ordinal`.pipe(
      Effect.flatMap(decodeRows(ResourceRow)),
      Effect.orDie
    )
    for (const r of resourceRows) {
      resources.set(r.address, {
        address: r.address,
        symbol: r.symbol,
        name: r.name,
        description: r.description,
        iconUrl: r.icon_url,
        divisibility: r.divisibility,
        totalSupply: r.total_supply,
        createdAtStateVersion: r.created_state_version
      })
    }
    const vaultRows = yield* sql`
      SELECT v.account, v.resource, v.amount, v.state_version FROM vault_history v
      WHERE v.state_version = (SELECT MAX(h.state_version) FROM vault_history h
                               WHERE h.account = v.account AND h.resource = v.resource)`.pipe(
      Effect.flatMap(decodeRows(VaultRow)),
      Effect.orDie
    )
    for (const v of vaultRows) balances.set(balanceKey(v.account, v.resource), v.amount)
    const finalizedRows = yield* sql`SELECT subintent_hash FROM finalized_subintents`.pipe(
      Effect.flatMap(decodeRows(SubintentRow)),
      Effect.orDie
    )
    for (const f of finalizedRows) finalizedSubintents.add(f.subintent_hash)
  }

  /** Where a subintent was finalized (a successful commit), if it was. */
  const subintentStatus = (
    subintentHash: string
  ): Effect.Effect<Option.Option<{ readonly stateVersion: number; readonly intentHash: string }>> =>
    sql`SELECT state_version, intent_hash FROM finalized_subintents WHERE subintent_hash = ${subintentHash}`.pipe(
      Effect.flatMap(decodeRows(IntentRow)),
      Effect.map((rows) =>
        Option.map(Option.fromNullable(rows[0]), (r) => ({ stateVersion: r.state_version, intentHash: r.intent_hash }))
      ),
      Effect.orDie
    )

  const transactionByIntent = (intentHash: string): Effect.Effect<Option.Option<CommittedTransaction>> =>
    sql`SELECT * FROM transactions WHERE intent_hash = ${intentHash}`.pipe(
      Effect.flatMap(decodeRows(TxRow)),
      Effect.flatMap((rows) =>
        rows[0] === undefined ? Effect.succeed(Option.none()) : Effect.map(toTransaction(rows[0]), Option.some)
      ),
      Effect.orDie
    )

  // --- reading ---

  const versionOrCurrent = (at: number | undefined) => at ?? stateVersion

  /** Every vault of `account` at a state version (default: now), in resource order. */
  const accountVaults = Effect.fn("Ledger.accountVaults")(function* (account: string, at?: number) {
    const version = versionOrCurrent(at)
    const rows = yield* sql`
      SELECT v.account, v.resource, v.amount, v.state_version FROM vault_history v
      WHERE v.account = ${account} AND v.state_version = (
        SELECT MAX(h.state_version) FROM vault_history h
        WHERE h.account = v.account AND h.resource = v.resource AND h.state_version <= ${version})`.pipe(
      Effect.flatMap(decodeRows(VaultRow)),
      Effect.orDie
    )
    const order = [...resources.keys()]
    return [...rows]
      .sort((a, b) => order.indexOf(a.resource) - order.indexOf(b.resource))
      .map((r): VaultBalance => ({
        account: r.account,
        resource: r.resource,
        vaultAddress: vaultAddress(r.account, r.resource),
        amount: formatPlain(r.amount),
        lastUpdatedAtStateVersion: r.state_version
      }))
  })

  /** The current balance of `resource` in `account` ("0" when it has no vault). */
  const balance = (account: string, resource: string): Effect.Effect<string> =>
    Effect.sync(() => formatPlain(balances.get(balanceKey(account, resource)) ?? ZERO))

  /** The owner of each vault address, for every vault in `balances` (filled in by `vaultOwner` as vaults appear). */
  const vaultOwners = new Map<string, { readonly account: string; readonly resource: string }>()
  /** Finds the account and resource of a vault address. */
  const vaultOwner = (address: string): Effect.Effect<Option.Option<{ account: string; resource: string }>> =>
    Effect.sync(() => {
      // Vaults are never removed, so fewer owners than balances means some vault is new since the last look.
      if (!vaultOwners.has(address) && vaultOwners.size < balances.size) {
        for (const k of balances.keys()) {
          const [account = "", resource = ""] = k.split(" ")
          vaultOwners.set(vaultAddress(account, resource), { account, resource })
        }
      }
      return Option.fromNullable(vaultOwners.get(address))
    })

  const resource = (address: string): Effect.Effect<Option.Option<ResourceInfo>> =>
    Effect.sync(() => Option.fromNullable(resources.get(address)))

  const metadata = Effect.fn("Ledger.metadata")(function* (address: string, at?: number) {
    const version = versionOrCurrent(at)
    const rows = yield* sql`SELECT key, type, value, state_version FROM metadata
      WHERE address = ${address} AND state_version <= ${version} ORDER BY key`.pipe(
      Effect.flatMap(decodeRows(MetadataRow)),
      Effect.orDie
    )
    return rows.map((r): MetadataEntry => ({
      key: r.key,
      type: r.type,
      value: r.value,
      lastUpdatedAtStateVersion: r.state_version
    }))
  })

  const transactions = Effect.fn("Ledger.transactions")(function* (q: StreamQuery) {
    const at = versionOrCurrent(q.atStateVersion)
    const conditions = [sql`t.state_version <= ${at}`]
    if (q.fromStateVersion !== undefined) conditions.push(sql`t.state_version >= ${q.fromStateVersion}`)
    if (q.after !== undefined) {
      conditions.push(q.order === "Asc" ? sql`t.state_version > ${q.after}` : sql`t.state_version < ${q.after}`)
    }
    if (q.kind === "User") conditions.push(sql`t.kind = 'User'`)
    if (q.kind === "EpochChange") conditions.push(sql`0 = 1`)
    if (q.status === "Success") conditions.push(sql`t.status = 'CommittedSuccess'`)
    if (q.status === "Failure") conditions.push(sql`t.status = 'CommittedFailure'`)
    const roleFilter = (role: string, addresses: ReadonlyArray<string>) => {
      for (const address of addresses) {
        conditions.push(
          sql`EXISTS (SELECT 1 FROM tx_entities e WHERE e.state_version = t.state_version AND e.role = ${role} AND e.address = ${address})`
        )
      }
    }
    roleFilter("withdrawn", q.withdrawnFrom)
    roleFilter("deposited", q.depositedInto)
    roleFilter("affected", q.affected)
    roleFilter("resource", q.resources)
    const order = q.order === "Asc" ? sql.literal("ASC") : sql.literal("DESC")
    const rows = yield* sql`SELECT * FROM transactions t WHERE ${sql.and(conditions)}
      ORDER BY t.state_version ${order} LIMIT ${q.limit + 1}`.pipe(Effect.flatMap(decodeRows(TxRow)), Effect.orDie)
    const page = rows.slice(0, q.limit)
    const items = yield* Effect.forEach(page, toTransaction)
    const last = page[page.length - 1]
    return {
      items,
      next: rows.length > q.limit && last !== undefined ? last.state_version : undefined
    } satisfies TransactionPage
  })

  /**
   * Every account holding `resource` now, most first; equal balances in the order the accounts first held anything
   * (the Gateway's `ORDER BY balance DESC, entity_id ASC`, its entity ids being in order of first appearance).
   * Emptied vaults are left out.
   */
  const resourceHolders = Effect.fn("Ledger.resourceHolders")(function* (resource: string) {
    const rows = yield* sql`
      SELECT v.account, v.amount, v.state_version,
        (SELECT MIN(f.state_version) FROM vault_history f WHERE f.account = v.account) AS first_seen
      FROM vault_history v
      WHERE v.resource = ${resource} AND v.state_version = (
        SELECT MAX(h.state_version) FROM vault_history h WHERE h.account = v.account AND h.resource = v.resource)`.pipe(
      Effect.flatMap(decodeRows(HolderRow)),
      Effect.orDie
    )
    return rows
      .filter((r) => BigDecimal.isPositive(r.amount))
      .sort(
        (a, b) =>
          BigDecimal.Order(b.amount, a.amount) ||
          a.first_seen - b.first_seen ||
          (a.account < b.account ? -1 : a.account > b.account ? 1 : 0)
      )
      .map((r): ResourceHolder => ({
        account: r.account,
        amount: formatPlain(r.amount),
        lastUpdatedAtStateVersion: r.state_version
      }))
  })

  const StateRow = Schema.Struct({
    state_version: Schema.Number,
    epoch: Schema.Number,
    round: Schema.Number,
    round_timestamp: Schema.String
  })

  /** The ledger state as of a committed state version (none when it is not committed yet). */
  const ledgerStateAt = Effect.fn("Ledger.ledgerStateAt")(function* (version: number) {
    const rows = yield* sql`SELECT state_version, epoch, round, round_timestamp FROM transactions
      WHERE state_version = ${version}`.pipe(Effect.flatMap(decodeRows(StateRow)), Effect.orDie)
    const row = rows[0]
    return row === undefined
      ? Option.none<LedgerState>()
      : Option.some<LedgerState>({
          network: DEVNET_NETWORK_NAME,
          state_version: row.state_version,
          proposer_round_timestamp: row.round_timestamp,
          epoch: row.epoch,
          round: row.round
        })
  })

  /**
   * Resolves a Gateway ledger state selector to a state version: a timestamp gives the last version at or
   * before it; an epoch gives its first version (or the last one before it); epoch + round the last at or before.
   */
  const stateVersionAt = Effect.fn("Ledger.stateVersionAt")(function* (selector: {
    readonly timestamp?: string | undefined
    readonly epoch?: number | undefined
    readonly round?: number | undefined
  }) {
    const one = (q: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      q.pipe(
        Effect.flatMap(decodeRows(VersionRow)),
        Effect.orDie,
        Effect.map((rows) => Option.fromNullable(rows[0]?.v))
      )
    if (selector.timestamp !== undefined) {
      const ts = new Date(selector.timestamp).toISOString()
      return yield* one(sql`SELECT MAX(state_version) AS v FROM transactions WHERE round_timestamp <= ${ts}`)
    }
    if (selector.epoch !== undefined) {
      const epoch = selector.epoch
      if (selector.round !== undefined) {
        return yield* one(sql`SELECT MAX(state_version) AS v FROM transactions
          WHERE epoch < ${epoch} OR (epoch = ${epoch} AND round <= ${selector.round})`)
      }
      const first = yield* one(sql`SELECT MIN(state_version) AS v FROM transactions WHERE epoch = ${epoch}`)
      if (Option.isSome(first)) return first
      return yield* one(sql`SELECT MAX(state_version) AS v FROM transactions WHERE epoch < ${epoch}`)
    }
    return Option.some(stateVersion)
  })

  return {
    genesis,
    xrd,
    options,
    genesisMs,
    clockState,
    tip: (): Tip => tip,
    stateVersion: (): number => stateVersion,
    tipState,
    commit,
    metadataFor,
    /** The current balance, for execution (zero when the account has no vault of the resource). */
    balanceOf: (account: string, resource: string): BigDecimal.BigDecimal =>
      balances.get(balanceKey(account, resource)) ?? ZERO,
    divisibility: (resource: string): number | undefined => resources.get(resource)?.divisibility,
    transactionByIntent,
    subintentFinalized: (subintentHash: string): boolean => finalizedSubintents.has(subintentHash),
    subintentStatus,
    accountVaults,
    balance,
    vaultOwner,
    resource,
    resources: Effect.sync((): ReadonlyArray<ResourceInfo> => [...resources.values()]),
    metadata,
    transactions,
    resourceHolders,
    ledgerStateAt,
    stateVersionAt
  } as const
})

export type LedgerStore = Effect.Effect.Success<typeof makeLedgerStore>
