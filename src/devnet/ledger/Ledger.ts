/**
 * The devnet ledger: a local Radix ledger for network 240 that accepts real notarized transactions.
 *
 * State (vault balances with history, resources, metadata, committed transactions) lives in SQLite; the
 * current balances are also cached in memory for execution. Submissions are decoded and statically validated
 * with the Radix Engine Toolkit, executed by `execute.ts`, and applied atomically in one SQL transaction.
 * Epoch and round follow the Clock.
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { SqliteClient } from "@effect/sql-sqlite-node"
import type { Instruction } from "@radixdlt/radix-engine-toolkit"
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  CONSENSUS_MANAGER,
  DEVNET_NETWORK_NAME,
  blake2b256,
  addressKind,
  derivedResourceAddress,
  isAccountAddress,
  isFungibleResourceAddress,
  vaultAddress
} from "./address.js"
import { formatDecimal, parseDecimal } from "./decimal.js"
import { type BalanceChange, type ExecutionOutcome, execute } from "./execute.js"
import { DEFAULT_DEVNET_SEED, type Genesis, makeGenesis } from "./genesis.js"
import {
  type DecodedTransaction,
  type GatewayMessage,
  TransactionRejected,
  decodeNotarizedTransaction
} from "./transaction.js"

export { TransactionRejected } from "./transaction.js"

// ---------------------------------------------------------------------------------------------------------------
// Public types

export interface LedgerState {
  readonly network: string
  readonly state_version: number
  readonly proposer_round_timestamp: string
  readonly epoch: number
  readonly round: number
}

/**
 * `RoundUpdate`: the consensus round changed. On the real ledger every round change is a committed transaction
 * (`RoundUpdateV1`, a ledger transaction with its own state version; the Gateway's `/stream/transactions` lists it
 * with `kind_filter: "All"`, and with `"EpochChange"` when it ends an epoch). The devnet commits one when it sees
 * the Clock's round has moved on since the last commit, so a round jump of several rounds is one transaction.
 */
export type TransactionKind = "User" | "Genesis" | "System" | "RoundUpdate"

export interface CommittedTransaction {
  readonly stateVersion: number
  readonly epoch: number
  readonly round: number
  readonly roundTimestamp: string
  readonly kind: TransactionKind
  readonly status: "CommittedSuccess" | "CommittedFailure"
  readonly intentHash: string | undefined
  readonly payloadHash: string | undefined
  readonly feePaid: string
  readonly errorMessage: string | undefined
  readonly manifest: string | undefined
  readonly message: GatewayMessage | undefined
  readonly rawHex: string | undefined
  readonly feeBalanceChanges: ReadonlyArray<{ entity: string; resource: string; change: string }>
  readonly balanceChanges: ReadonlyArray<{ entity: string; resource: string; change: string }>
  readonly affectedGlobalEntities: ReadonlyArray<string>
  readonly manifestClasses: ReadonlyArray<"General" | "Transfer">
  /** For a round update that ended an epoch: the epoch that began (the receipt's `next_epoch`). */
  readonly nextEpoch: number | undefined
  /** Per manifest instruction, the SBOR hex of its output (the Core API receipt's `output[].hex`). */
  readonly outputs: ReadonlyArray<string>
}

export interface VaultBalance {
  readonly account: string
  readonly resource: string
  readonly vaultAddress: string
  readonly amount: string
  readonly lastUpdatedAtStateVersion: number
}

export interface ResourceInfo {
  readonly address: string
  readonly symbol: string
  readonly name: string
  readonly description: string
  readonly iconUrl: string
  readonly divisibility: number
  readonly totalSupply: string
  readonly createdAtStateVersion: number
}

export interface MetadataEntry {
  readonly key: string
  readonly type: "String" | "Url" | "U8"
  readonly value: string
  readonly lastUpdatedAtStateVersion: number
}

/**
 * What the Gateway knows of a submitted payload (its `pending_transactions` row), as babylon-gateway v1.10.1 keeps
 * it: `PendingTransaction.cs` (statuses, resubmission schedule, retirement), `NodeSubmissionResult` in
 * `TransactionSubmitter.cs` (how a node's answer maps to a payload and an intent status).
 */
export type PayloadLedgerStatus =
  | "Committed"
  | "CommitPending"
  | "ClashingCommit"
  | "PermanentlyRejected"
  | "TransientlyRejected"
export type IntentLedgerStatus = "Committed" | "CommitPending" | "PermanentRejection" | "LikelyButNotCertainRejection"

export interface TrackedPayload {
  readonly payloadHash: string
  readonly intentHash: string
  readonly endEpochExclusive: number
  readonly payloadStatus: PayloadLedgerStatus
  readonly intentStatus: IntentLedgerStatus
  readonly initialRejectionReason: string | undefined
  readonly latestRejectionReason: string | undefined
  /** When the Gateway submits it to the node again; undefined once it has stopped (handling status `Concluded`). */
  readonly resubmitFromMs: number | undefined
  readonly handlingStatusReason: string
  readonly submissionCount: number
  readonly firstSubmittedMs: number
}

/** Everything known of an intent: its commit, if any, and every payload of it submitted through the Gateway. */
export interface IntentStatusInfo {
  readonly committed: CommittedTransaction | undefined
  readonly payloads: ReadonlyArray<TrackedPayload>
}

export type TransactionStatusInfo =
  | { readonly _tag: "Committed"; readonly transaction: CommittedTransaction }
  | {
      readonly _tag: "Rejected"
      readonly reason: string
      readonly payloadHash: string | undefined
      readonly permanentlyRejectsAtEpoch: number | undefined
    }
  | { readonly _tag: "Unknown" }

export interface SubmitResult {
  /** The Gateway already tracked this very payload (keyed by payload hash, not intent). */
  readonly duplicate: boolean
  readonly intentHash: string
  readonly payloadHash: string
  /** The commit of this intent; undefined when another payload of the intent committed (a clashing commit). */
  readonly transaction: CommittedTransaction | undefined
}

export interface StreamQuery {
  readonly fromStateVersion?: number
  readonly atStateVersion?: number
  readonly order: "Asc" | "Desc"
  readonly kind: "User" | "EpochChange" | "All"
  readonly status: "Success" | "Failure" | "All"
  readonly withdrawnFrom: ReadonlyArray<string>
  readonly depositedInto: ReadonlyArray<string>
  readonly affected: ReadonlyArray<string>
  readonly resources: ReadonlyArray<string>
  /** Exclusive continuation point from a cursor. */
  readonly after?: number
  readonly limit: number
}

export interface NewFungibleResource {
  readonly symbol: string
  readonly name: string
  readonly divisibility: number
  readonly initialSupply: string
  readonly to: string
  readonly iconUrl?: string
  readonly description?: string
}

/** A dry run of a manifest on the current state (the Gateway's `/transaction/preview`). */
export interface PreviewRequest {
  readonly instructions: ReadonlyArray<Instruction>
  /** Accounts whose owner key is among the signers (or is the notary-as-signatory). */
  readonly signerAccounts: ReadonlyArray<string>
  /** Every account's owner role is satisfied (`assume_all_signature_proofs`, `disable_auth_checks`). */
  readonly assumeAllSignatureProofs: boolean
  /** `use_free_credit`: see `ExecutionEnv.freeCredit` for what it charges. */
  readonly useFreeCredit: boolean
  /** The intent's epoch window, checked against the current epoch; `undefined` skips the check (`skip_epoch_check`). */
  readonly epochWindow: { readonly startEpochInclusive: number; readonly endEpochExclusive: number } | undefined
}

export interface PreviewResult {
  /** The state the manifest ran on top of; a preview never changes it. */
  readonly ledgerState: LedgerState
  readonly outcome: ExecutionOutcome
}

export class LedgerError extends Schema.TaggedError<LedgerError>()("LedgerError", { message: Schema.String }) {}

// ---------------------------------------------------------------------------------------------------------------
// Configuration

export interface LedgerOptions {
  /** Directory for `ledger.sqlite`; `undefined` keeps the ledger in memory. */
  readonly dataDir: string | undefined
  readonly seed: string
  /** Start afresh: delete the data directory's ledger first. */
  readonly reset: boolean
  /** How long an epoch lasts on the Clock (default 5 minutes, as on the real network). */
  readonly epochDurationMs: number
  /** How long a consensus round lasts on the Clock (default 1 s). */
  readonly roundDurationMs: number
}

export class LedgerConfig extends Context.Tag("devnet/LedgerConfig")<LedgerConfig, LedgerOptions>() {}

export const DEFAULT_DATA_DIR = ".devnet"
export const LEDGER_FILE = "ledger.sqlite"

const defaults: LedgerOptions = {
  dataDir: DEFAULT_DATA_DIR,
  seed: DEFAULT_DEVNET_SEED,
  reset: false,
  epochDurationMs: 5 * 60_000,
  roundDurationMs: 1_000
}

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
  outputs: Schema.optional(Schema.Array(Schema.String))
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
  amount: Schema.String,
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

const MetaRow = Schema.Struct({ key: Schema.String, value: Schema.String })

const decodeRows =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<A>> =>
    Schema.decodeUnknown(Schema.Array(schema))(rows).pipe(Effect.orDie)

const toTransaction = (row: TxRow): Effect.Effect<CommittedTransaction> =>
  Effect.gen(function* () {
    const details = yield* Schema.decodeUnknown(Schema.parseJson(TxDetails))(row.details_json).pipe(Effect.orDie)
    const message =
      row.message_json === null
        ? undefined
        : yield* Schema.decodeUnknown(MessageJson)(row.message_json).pipe(Effect.orDie)
    return {
      stateVersion: row.state_version,
      epoch: row.epoch,
      round: row.round,
      roundTimestamp: row.round_timestamp,
      kind: row.kind,
      status: row.status,
      intentHash: row.intent_hash ?? undefined,
      payloadHash: row.payload_hash ?? undefined,
      feePaid: row.fee_paid,
      errorMessage: row.error_message ?? undefined,
      manifest: row.manifest ?? undefined,
      message,
      rawHex: row.raw_hex ?? undefined,
      feeBalanceChanges: details.fee,
      balanceChanges: details.changes,
      affectedGlobalEntities: details.affected,
      manifestClasses: details.classes,
      nextEpoch: details.next_epoch,
      outputs: details.outputs ?? []
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
  `CREATE TABLE IF NOT EXISTS tx_entities (state_version INTEGER NOT NULL, address TEXT NOT NULL, role TEXT NOT NULL,
     PRIMARY KEY (address, role, state_version))`
] as const

// ---------------------------------------------------------------------------------------------------------------
// The service

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const options = yield* LedgerConfig
  const genesis: Genesis = makeGenesis(options.seed)
  const xrd = genesis.resources[0]?.address ?? ""

  for (const statement of SCHEMA_SQL) yield* sql.unsafe(statement).pipe(Effect.orDie)

  // --- in-memory caches of the current state ---
  const balances = new Map<string, bigint>() // `${account} ${resource}` -> atto
  const balanceKey = (account: string, resource: string) => `${account} ${resource}`
  const resources = new Map<string, ResourceInfo>()
  let stateVersion = 0
  /** The epoch, round and round timestamp of the last committed transaction: what `ledger_state` reports. */
  let tip = { epoch: 1, round: 1, timestamp: "" }
  /** Payloads submitted through the Gateway, by payload hash (the Gateway's `pending_transactions`). */
  const payloads = new Map<string, PayloadRecord>()
  const semaphore = yield* Effect.makeSemaphore(1)

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

  // --- writing ---

  interface Commit {
    readonly kind: TransactionKind
    readonly success: boolean
    readonly intentHash: string | undefined
    readonly payloadHash: string | undefined
    readonly fee: bigint
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
  }

  /** Applies a commit atomically (SQL transaction) and then updates the caches. */
  const commit = (c: Commit): Effect.Effect<CommittedTransaction, SqlError> =>
    Effect.gen(function* () {
      const clock = c.at ?? tip
      const version = stateVersion + 1
      const netChanges = new Map<string, bigint>()
      for (const ch of [...c.feeChanges, ...c.changes]) {
        const k = balanceKey(ch.entity, ch.resource)
        netChanges.set(k, (netChanges.get(k) ?? 0n) + ch.change)
      }
      const newBalances = new Map<string, bigint>()
      for (const [k, ch] of netChanges) newBalances.set(k, (balances.get(k) ?? 0n) + ch)
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
        chs.map((x) => ({ entity: x.entity, resource: x.resource, change: formatDecimal(x.change) }))
      const details = {
        fee: fmt(c.feeChanges),
        changes: fmt(c.changes),
        affected,
        classes: c.classes,
        ...(c.nextEpoch === undefined ? {} : { next_epoch: c.nextEpoch }),
        ...(c.outputs === undefined || c.outputs.length === 0 ? {} : { outputs: c.outputs })
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
        fee_paid: formatDecimal(c.fee),
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
        return { account, resource, state_version: version, amount: formatDecimal(amount) }
      })
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO transactions ${sql.insert(row)}`
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
    Effect.flatMap(decodeRows(Schema.Struct({ v: Schema.NullOr(Schema.Number) }))),
    Effect.orDie
  )
  const lastVersion = loaded[0]?.v ?? null
  if (lastVersion === null) {
    tip = yield* clockState
    const supply = new Map<string, bigint>()
    const changes: Array<BalanceChange> = []
    for (const account of genesis.accounts) {
      for (const [symbol, amountText] of Object.entries(account.balances)) {
        const resource = genesis.resources.find((r) => r.symbol === symbol)
        const amount = parseDecimal(amountText)
        if (resource === undefined || amount === undefined) continue
        changes.push({ entity: account.address, resource: resource.address, change: amount })
        supply.set(resource.address, (supply.get(resource.address) ?? 0n) + amount)
      }
    }
    const newResources = genesis.resources.map((r) => ({
      address: r.address,
      symbol: r.symbol,
      name: r.name,
      description: r.description,
      iconUrl: r.iconUrl,
      divisibility: r.divisibility,
      totalSupply: formatDecimal(supply.get(r.address) ?? 0n)
    }))
    const accountMetadata = genesis.accounts.flatMap((a) =>
      Object.entries(a.metadata).map(([key, value]) => ({ address: a.address, key, type: "String" as const, value }))
    )
    yield* commit({
      kind: "Genesis",
      success: true,
      intentHash: undefined,
      payloadHash: undefined,
      fee: 0n,
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
    const tipRow = yield* sql`SELECT epoch, round, round_timestamp FROM transactions WHERE state_version = ${lastVersion}`.pipe(
      Effect.flatMap(decodeRows(Schema.Struct({ epoch: Schema.Number, round: Schema.Number, round_timestamp: Schema.String }))),
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
    for (const v of vaultRows) balances.set(balanceKey(v.account, v.resource), parseDecimal(v.amount) ?? 0n)
  }

  // --- submission ---

  const transactionByIntent = (intentHash: string): Effect.Effect<Option.Option<CommittedTransaction>> =>
    sql`SELECT * FROM transactions WHERE intent_hash = ${intentHash}`.pipe(
      Effect.flatMap(decodeRows(TxRow)),
      Effect.flatMap((rows) =>
        rows[0] === undefined ? Effect.succeed(Option.none()) : Effect.map(toTransaction(rows[0]), Option.some)
      ),
      Effect.orDie
    )

  /** Why an intent valid in `[start, end)` is rejected at `epoch`, if it is (the engine's epoch check). */
  const epochRejection = (epoch: number, start: number, end: number) =>
    epoch < start
      ? {
          reason: `TransactionEpochNotYetValid { valid_from: Epoch(${start}), current_epoch: Epoch(${epoch}) }`,
          permanent: false
        }
      : epoch >= end
        ? {
            reason: `TransactionEpochNoLongerValid { valid_until: Epoch(${end - 1}), current_epoch: Epoch(${epoch}) }`,
            permanent: true
          }
        : undefined

  const executionEnv = (signerAccounts: ReadonlyArray<string>) => ({
    xrd,
    signerAccounts: new Set(signerAccounts),
    divisibility: (resource: string) => resources.get(resource)?.divisibility,
    balance: (account: string, resource: string) => balances.get(balanceKey(account, resource)) ?? 0n
  })

  /**
   * The SBOR hex of each instruction's output, as a Core API receipt's `output[].hex`: a method or take that yields
   * a bucket returns it (`Own`, a transient node id), everything else returns unit (`5c2100`, as in the v1.10.1
   * spec's committed-details example).
   */
  const instructionOutputs = (tx: DecodedTransaction): ReadonlyArray<string> =>
    tx.instructions.map((instruction, index) => {
      const yieldsBucket =
        (instruction.kind === "CallMethod" && instruction.methodName === "withdraw") ||
        instruction.kind === "TakeFromWorktop" ||
        instruction.kind === "TakeAllFromWorktop"
      if (!yieldsBucket) return "5c2100"
      const id = blake2b256(new TextEncoder().encode(`${tx.payloadHash}/bucket/${index}`)).slice(0, 29)
      return `5c90f8${Buffer.from(id).toString("hex")}`
    })

  // --- rounds ---

  /**
   * Brings the ledger to the Clock's round: when the Clock's epoch or round differs from the tip's, one round update
   * is committed (caller holds the permit). On the real ledger each round change is a committed `RoundUpdateV1`
   * transaction (babylon-gateway v1.10.1 `LedgerTransactionType.RoundUpdate`; `/stream/transactions` with
   * `kind_filter: "EpochChange"` lists the ones that end an epoch, `TransactionQuerier.cs`).
   */
  const catchUpRounds = Effect.gen(function* () {
    const clock = yield* clockState
    if (clock.epoch === tip.epoch && clock.round === tip.round) return
    const epochChange = clock.epoch !== tip.epoch
    yield* commit({
      kind: "RoundUpdate",
      success: true,
      intentHash: undefined,
      payloadHash: undefined,
      fee: 0n,
      errorMessage: undefined,
      manifest: undefined,
      message: undefined,
      rawHex: undefined,
      feeChanges: [],
      changes: [],
      withdrawnFrom: [],
      depositedInto: [],
      resources: [],
      classes: [],
      at: clock,
      affected: [CONSENSUS_MANAGER],
      ...(epochChange ? { nextEpoch: clock.epoch } : {})
    }).pipe(Effect.orDie)
  })

  // --- submission: the Gateway's payload tracking and the node's answer ---

  interface PayloadRecord {
    payloadHash: string
    intentHash: string
    endEpochExclusive: number
    payloadStatus: PayloadLedgerStatus
    intentStatus: IntentLedgerStatus
    initialRejectionReason: string | undefined
    latestRejectionReason: string | undefined
    resubmitFromMs: number | undefined
    handlingStatusReason: string
    submissionCount: number
    firstSubmittedMs: number
    /** The node caches a temporary rejection until then (ms, or an epoch for TransactionEpochNotYetValid). */
    nodeRetryFromMs: number
    nodeRetryFromEpoch: number
    readonly decoded: DecodedTransaction
    /** Submission order, for a stable `known_payloads` order. */
    readonly ordinal: number
  }
  let payloadOrdinal = 0

  /** What the node answers for a payload: committed (or already), or rejected, temporarily or for good. */
  type NodeAnswer =
    | { readonly _tag: "Committed"; readonly transaction: CommittedTransaction }
    | { readonly _tag: "IntentAlreadyCommitted"; readonly transaction: CommittedTransaction }
    | {
        readonly _tag: "Rejected"
        readonly reason: string
        readonly permanentForIntent: boolean
        readonly retryFromEpoch?: number
      }

  /**
   * The node's answer to a payload (caller holds the permit). Which rejections are temporary is the node's rule,
   * radixdlt/babylon-node `core-rust/state-manager/src/mempool/pending_transaction_result_cache.rs`,
   * `MempoolRejectionReason::permanence`: `SuccessButFeeLoanNotRepaid` and `ErrorBeforeLoanAndDeferredCostsRepaid`
   * (a fee lock above the balance, a fee lock by a signer who is not the owner) are `default_temporary` (retry after
   * 2 minutes), `TransactionEpochNotYetValid` is temporary until its start epoch, `TransactionEpochNoLongerValid` and
   * an intent already committed are permanent for the intent.
   */
  const nodeAnswer = (tx: DecodedTransaction): Effect.Effect<NodeAnswer> =>
    Effect.gen(function* () {
      const existing = yield* transactionByIntent(tx.intentHash)
      if (Option.isSome(existing)) {
        return existing.value.payloadHash === tx.payloadHash
          ? { _tag: "Committed", transaction: existing.value }
          : { _tag: "IntentAlreadyCommitted", transaction: existing.value }
      }
      const outOfWindow = epochRejection(tip.epoch, tx.startEpochInclusive, tx.endEpochExclusive)
      if (outOfWindow !== undefined) {
        return {
          _tag: "Rejected",
          reason: outOfWindow.reason,
          permanentForIntent: outOfWindow.permanent,
          ...(outOfWindow.permanent ? {} : { retryFromEpoch: tx.startEpochInclusive })
        }
      }
      const outcome: ExecutionOutcome = execute(tx.instructions, executionEnv(tx.signerAccounts))
      if (outcome._tag === "Rejected") return { _tag: "Rejected", reason: outcome.reason, permanentForIntent: false }
      const transaction = yield* commit({
        kind: "User",
        success: outcome.success,
        intentHash: tx.intentHash,
        payloadHash: tx.payloadHash,
        fee: outcome.fee,
        errorMessage: outcome.errorMessage,
        manifest: tx.manifest,
        message: tx.message,
        rawHex: tx.rawHex,
        feeChanges: outcome.feePayments,
        changes: outcome.changes,
        withdrawnFrom: outcome.withdrawnFrom,
        depositedInto: outcome.depositedInto,
        resources: outcome.resources,
        classes: outcome.isTransfer ? ["Transfer", "General"] : ["General"],
        outputs: instructionOutputs(tx)
      }).pipe(Effect.orDie)
      return { _tag: "Committed", transaction }
    })

  /** babylon-gateway v1.10.1 `CoreApiIntegrationOptions` defaults: resubmission schedule and retirement. */
  const BASE_DELAY_BETWEEN_RESUBMISSIONS_MS = 10_000
  const RESUBMISSION_DELAY_BACKOFF_EXPONENT = 2
  const MAX_SUBMISSION_ATTEMPTS = 5
  const STOP_RESUBMITTING_AFTER_MS = 5 * 60_000
  /** The node's `RejectionPermanence::default_temporary()`: a temporary rejection is cached for 2 minutes. */
  const NODE_TEMPORARY_REJECTION_RETRY_MS = 2 * 60_000

  /** `PendingTransactionGatewayHandling.HandleNodeSubmissionPending`: next resubmission at base × exponent^count. */
  const scheduleSubmission = (r: PayloadRecord, now: number) => {
    r.resubmitFromMs =
      now + BASE_DELAY_BETWEEN_RESUBMISSIONS_MS * Math.pow(RESUBMISSION_DELAY_BACKOFF_EXPONENT, r.submissionCount)
    r.submissionCount += 1
  }

  const conclude = (r: PayloadRecord, reason: string) => {
    r.resubmitFromMs = undefined
    r.handlingStatusReason = reason
  }

  /** `PendingTransaction.RetireIfNecessary`; true when the Gateway stops submitting the payload. */
  const retireIfNecessary = (r: PayloadRecord, now: number): boolean => {
    if (r.payloadStatus !== "TransientlyRejected") {
      conclude(r, `Concluded due to PayloadLedgerStatus of ${r.payloadStatus}`)
      return true
    }
    if (tip.epoch >= r.endEpochExclusive) {
      conclude(r, "Concluded due to its end epoch being reached")
      return true
    }
    if (r.submissionCount >= MAX_SUBMISSION_ATTEMPTS) {
      conclude(r, "Concluded due to exceeding max submission to node count")
      return true
    }
    if (now > r.firstSubmittedMs + STOP_RESUBMITTING_AFTER_MS) {
      conclude(r, "Concluded due to exceeding max time since submission to the Gateway")
      return true
    }
    return false
  }

  /** `PendingTransactionLedgerDetails.HandleSubmissionResult` with `NodeSubmissionResult`'s status mapping. */
  const applyNodeAnswer = (r: PayloadRecord, answer: NodeAnswer, now: number) => {
    switch (answer._tag) {
      case "Committed":
        r.payloadStatus = "Committed"
        r.intentStatus = "Committed"
        conclude(r, "Concluded as committed")
        return
      case "IntentAlreadyCommitted":
        r.payloadStatus = "ClashingCommit"
        r.intentStatus = "CommitPending"
        conclude(r, `Concluded due to PayloadLedgerStatus of ${r.payloadStatus}`)
        return
      case "Rejected":
        r.payloadStatus = answer.permanentForIntent ? "PermanentlyRejected" : "TransientlyRejected"
        r.intentStatus = answer.permanentForIntent ? "PermanentRejection" : "LikelyButNotCertainRejection"
        r.initialRejectionReason ??= answer.reason
        r.latestRejectionReason = answer.reason
        r.nodeRetryFromMs = now + NODE_TEMPORARY_REJECTION_RETRY_MS
        r.nodeRetryFromEpoch = answer.retryFromEpoch ?? 0
        if (answer.permanentForIntent) conclude(r, "Concluded due to seeing permanent rejection.")
        else retireIfNecessary(r, now)
        return
    }
  }

  /**
   * The Gateway's resubmission worker (`PendingTransactionResubmissionService`), run lazily: whenever the ledger is
   * read or written, every tracked payload whose resubmission time has come is retired or submitted again. The node
   * answers from its cached rejection until that rejection's retry time (the Gateway does not force a
   * recalculation), then executes the payload afresh, so a fee lock that failed for want of XRD commits once the
   * account is topped up, as on the network.
   */
  const resubmitDue = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const due = [...payloads.values()]
      .filter((r) => r.resubmitFromMs !== undefined && r.resubmitFromMs <= now)
      .sort((a, b) => a.ordinal - b.ordinal)
    for (const r of due) {
      if (retireIfNecessary(r, now)) continue
      scheduleSubmission(r, now)
      const nodeStillCaches = r.nodeRetryFromEpoch > 0 ? tip.epoch < r.nodeRetryFromEpoch : now < r.nodeRetryFromMs
      if (nodeStillCaches) continue
      applyNodeAnswer(r, yield* nodeAnswer(r.decoded), now)
    }
  })

  /** Rounds, then due resubmissions (caller holds the permit). */
  const tick = Effect.zipRight(catchUpRounds, resubmitDue)

  const state: Effect.Effect<LedgerState> = semaphore.withPermits(1)(Effect.zipRight(tick, Effect.sync(tipState)))

  const trackedView = (r: PayloadRecord): TrackedPayload => ({
    payloadHash: r.payloadHash,
    intentHash: r.intentHash,
    endEpochExclusive: r.endEpochExclusive,
    payloadStatus: r.payloadStatus,
    intentStatus: r.intentStatus,
    initialRejectionReason: r.initialRejectionReason,
    latestRejectionReason: r.latestRejectionReason,
    resubmitFromMs: r.resubmitFromMs,
    handlingStatusReason: r.handlingStatusReason,
    submissionCount: r.submissionCount,
    firstSubmittedMs: r.firstSubmittedMs
  })

  const rejectedBy = (tx: DecodedTransaction, reason: string, permanence: "Static" | "Temporary" | "Permanent") =>
    new TransactionRejected({ reason, intentHash: tx.intentHash, payloadHash: tx.payloadHash, permanence })

  /**
   * Submits a notarized transaction as the Gateway's `/transaction/submit` does (babylon-gateway v1.10.1
   * `SubmissionService.HandleSubmitRequest` and `SubmissionTrackingService`):
   * - a payload that does not decode or validate statically, or whose epoch window is refused by the Gateway's own
   *   check (`CheckPendingTransactionEpochValidity`: start epoch beyond the current epoch + 1, or end epoch reached)
   *   fails with a `Static` rejection and is not tracked, so its status stays `Unknown`;
   * - a payload already tracked (same payload hash) is a duplicate: `duplicate: true`, or a `Permanent` rejection
   *   when that payload was permanently rejected;
   * - otherwise the payload is tracked and given to the node: it commits, clashes with another payload of an
   *   intent already committed (success, `duplicate: false`), or is rejected — `Temporary` (the Gateway answers
   *   200 and keeps resubmitting it) or `Permanent`.
   */
  const submit = Effect.fn("Ledger.submit")(function* (notarizedTransactionHex: string) {
    const tx = yield* decodeNotarizedTransaction(notarizedTransactionHex).pipe(
      Effect.mapError(
        (e) =>
          new TransactionRejected({
            reason: e.reason,
            ...(e.intentHash === undefined ? {} : { intentHash: e.intentHash }),
            ...(e.payloadHash === undefined ? {} : { payloadHash: e.payloadHash }),
            permanence: "Static"
          })
      )
    )
    return yield* semaphore.withPermits(1)(
      Effect.gen(function* () {
        yield* tick
        const epoch = tip.epoch
        if (tx.startEpochInclusive > epoch + 1) {
          return yield* rejectedBy(
            tx,
            `Transaction start epoch ${tx.startEpochInclusive} is not yet close enough to current epoch ${epoch}`,
            "Static"
          )
        }
        if (tx.endEpochExclusive <= epoch) {
          return yield* rejectedBy(
            tx,
            `Transaction is no longer valid from epoch ${tx.endEpochExclusive} but it is now epoch ${epoch}`,
            "Static"
          )
        }
        const known = payloads.get(tx.payloadHash)
        const committedAs = yield* transactionByIntent(tx.intentHash)
        const committed = Option.getOrUndefined(committedAs)
        if (known !== undefined || committed?.payloadHash === tx.payloadHash) {
          if (known?.payloadStatus === "PermanentlyRejected") {
            return yield* rejectedBy(tx, known.latestRejectionReason ?? "Permanently rejected", "Permanent")
          }
          return {
            duplicate: true,
            intentHash: tx.intentHash,
            payloadHash: tx.payloadHash,
            transaction: committed
          } satisfies SubmitResult
        }
        const now = yield* Clock.currentTimeMillis
        const record: PayloadRecord = {
          payloadHash: tx.payloadHash,
          intentHash: tx.intentHash,
          endEpochExclusive: tx.endEpochExclusive,
          payloadStatus: "TransientlyRejected",
          intentStatus: "LikelyButNotCertainRejection",
          initialRejectionReason: undefined,
          latestRejectionReason: undefined,
          resubmitFromMs: undefined,
          handlingStatusReason: "Submitting to the network due to being submitted to Gateway",
          submissionCount: 0,
          firstSubmittedMs: now,
          nodeRetryFromMs: 0,
          nodeRetryFromEpoch: 0,
          decoded: tx,
          ordinal: payloadOrdinal++
        }
        scheduleSubmission(record, now)
        payloads.set(tx.payloadHash, record)
        const answer = yield* nodeAnswer(tx)
        applyNodeAnswer(record, answer, now)
        if (answer._tag === "Rejected") {
          return yield* rejectedBy(tx, answer.reason, answer.permanentForIntent ? "Permanent" : "Temporary")
        }
        return {
          duplicate: false,
          intentHash: tx.intentHash,
          payloadHash: tx.payloadHash,
          transaction: answer._tag === "Committed" ? answer.transaction : undefined
        } satisfies SubmitResult
      })
    )
  })

  /**
   * Runs a manifest on the current state without committing anything: no state version, balance, transaction or
   * rejection is recorded. It holds the submission permit while it runs, so it sees the state between two commits.
   */
  const preview = Effect.fn("Ledger.preview")(function* (request: PreviewRequest) {
    return yield* semaphore.withPermits(1)(
      Effect.gen(function* () {
        yield* tick
        const ledgerState = tipState()
        const window = request.epochWindow
        const outOfWindow =
          window === undefined
            ? undefined
            : epochRejection(ledgerState.epoch, window.startEpochInclusive, window.endEpochExclusive)
        const outcome: ExecutionOutcome =
          outOfWindow !== undefined
            ? { _tag: "Rejected", reason: outOfWindow.reason }
            : execute(request.instructions, {
                ...executionEnv(request.signerAccounts),
                assumeAllSignatureProofs: request.assumeAllSignatureProofs,
                freeCredit: request.useFreeCredit
              })
        return { ledgerState, outcome } satisfies PreviewResult
      })
    )
  })

  /** The commit and the tracked payloads of an intent, after bringing rounds and resubmissions up to date. */
  const intentStatus = Effect.fn("Ledger.intentStatus")(function* (intentHash: string) {
    return yield* semaphore.withPermits(1)(
      Effect.gen(function* () {
        yield* tick
        const committed = Option.getOrUndefined(yield* transactionByIntent(intentHash))
        const tracked = [...payloads.values()]
          .filter((r) => r.intentHash === intentHash)
          .sort((a, b) => a.ordinal - b.ordinal)
          .map(trackedView)
        return { committed, payloads: tracked } satisfies IntentStatusInfo
      })
    )
  })

  /**
   * A short form for the devnet dashboard and tests: committed, rejected (the latest rejection of any tracked
   * payload, temporary or permanent), or unknown.
   */
  const transactionStatus = Effect.fn("Ledger.transactionStatus")(function* (intentHash: string) {
    const info = yield* intentStatus(intentHash)
    if (info.committed !== undefined)
      return { _tag: "Committed", transaction: info.committed } satisfies TransactionStatusInfo
    const rejected = info.payloads.filter((p) => p.latestRejectionReason !== undefined)
    const last = rejected[rejected.length - 1]
    if (last !== undefined) {
      return {
        _tag: "Rejected",
        reason: last.latestRejectionReason ?? "",
        payloadHash: last.payloadHash,
        permanentlyRejectsAtEpoch: last.endEpochExclusive
      } satisfies TransactionStatusInfo
    }
    return { _tag: "Unknown" } satisfies TransactionStatusInfo
  })

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
        amount: r.amount,
        lastUpdatedAtStateVersion: r.state_version
      }))
  })

  /** The current balance of `resource` in `account` ("0" when it has no vault). */
  const balance = (account: string, resource: string): Effect.Effect<string> =>
    Effect.sync(() => formatDecimal(balances.get(balanceKey(account, resource)) ?? 0n))

  /** Finds the account and resource of a vault address. */
  const vaultOwner = (address: string): Effect.Effect<Option.Option<{ account: string; resource: string }>> =>
    Effect.sync(() => {
      for (const k of balances.keys()) {
        const [account = "", resource = ""] = k.split(" ")
        if (vaultAddress(account, resource) === address) return Option.some({ account, resource })
      }
      return Option.none()
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
    return { items, next: rows.length > q.limit && last !== undefined ? last.state_version : undefined }
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
    const V = Schema.Struct({ v: Schema.NullOr(Schema.Number) })
    const one = (q: Effect.Effect<ReadonlyArray<unknown>, SqlError>) =>
      q.pipe(
        Effect.flatMap(decodeRows(V)),
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

  /** Devnet administration: creates a fungible resource and mints its initial supply into an account. */
  const createFungibleResource = Effect.fn("Ledger.createFungibleResource")(function* (spec: NewFungibleResource) {
    const supply = parseDecimal(spec.initialSupply)
    if (supply === undefined || supply < 0n)
      return yield* new LedgerError({ message: `Invalid initial supply ${spec.initialSupply}` })
    if (!isAccountAddress(spec.to)) return yield* new LedgerError({ message: `Not an account address: ${spec.to}` })
    if (!Number.isInteger(spec.divisibility) || spec.divisibility < 0 || spec.divisibility > 18) {
      return yield* new LedgerError({ message: `Invalid divisibility ${spec.divisibility}` })
    }
    return yield* semaphore.withPermits(1)(
      Effect.gen(function* () {
        const address = derivedResourceAddress(options.seed, `${spec.symbol}#${stateVersion + 1}`)
        const info = {
          address,
          symbol: spec.symbol,
          name: spec.name,
          description: spec.description ?? `${spec.name} on the hSwap devnet`,
          iconUrl: spec.iconUrl ?? "",
          divisibility: spec.divisibility,
          totalSupply: formatDecimal(supply)
        }
        yield* commit({
          kind: "System",
          success: true,
          intentHash: undefined,
          payloadHash: undefined,
          fee: 0n,
          errorMessage: undefined,
          manifest: undefined,
          message: undefined,
          rawHex: undefined,
          feeChanges: [],
          changes: supply > 0n ? [{ entity: spec.to, resource: address, change: supply }] : [],
          withdrawnFrom: [],
          depositedInto: [spec.to],
          resources: [address],
          classes: ["General"],
          newResources: [info],
          metadata: metadataFor(info).filter((m) => m.key !== "icon_url" || m.value !== "")
        }).pipe(Effect.orDie)
        return address
      })
    )
  })

  return {
    genesis,
    xrd,
    state,
    submit,
    preview,
    transactionStatus,
    intentStatus,
    committedTransaction: transactionByIntent,
    transactions,
    accountVaults,
    balance,
    vaultOwner,
    resource,
    resources: Effect.sync(() => [...resources.values()]),
    metadata,
    ledgerStateAt,
    stateVersionAt,
    currentStateVersion: Effect.sync(() => stateVersion),
    createFungibleResource,
    entityKind: (address: string) => addressKind(address),
    isFungibleResource: isFungibleResourceAddress
  } as const
})

export class Ledger extends Effect.Service<Ledger>()("devnet/Ledger", { effect: make }) {
  /**
   * The ledger over SQLite: `dataDir/ledger.sqlite`, or in memory when `dataDir` is undefined. `reset` deletes
   * the stored ledger first.
   */
  static readonly layer = (options: Partial<LedgerOptions> = {}): Layer.Layer<Ledger> => {
    const resolved: LedgerOptions = { ...defaults, ...options }
    const sqlite = Layer.unwrapEffect(
      Effect.sync(() => {
        if (resolved.dataDir === undefined) return SqliteClient.layer({ filename: ":memory:" })
        fs.mkdirSync(resolved.dataDir, { recursive: true })
        const file = path.join(resolved.dataDir, LEDGER_FILE)
        if (resolved.reset) {
          for (const suffix of ["", "-wal", "-shm", "-journal"]) fs.rmSync(`${file}${suffix}`, { force: true })
        }
        return SqliteClient.layer({ filename: file })
      })
    ).pipe(Layer.orDie)
    return Ledger.Default.pipe(Layer.provide(sqlite), Layer.provide(Layer.succeed(LedgerConfig, resolved)))
  }

  /** An in-memory ledger (tests). */
  static readonly memory = (options: Partial<Omit<LedgerOptions, "dataDir">> = {}): Layer.Layer<Ledger> =>
    Ledger.layer({ ...options, dataDir: undefined })
}
