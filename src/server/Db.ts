/**
 * `Db`: the exchange server's records through `@effect/sql`, on one of two stores with one interface:
 *
 * - SQLite (`Db.sqlite(file)`, `@effect/sql-sqlite-node`): the embedded default, one server process per file;
 * - PostgreSQL (`Db.postgres(url)`, `@effect/sql-pg`): the shared store of several replicas.
 *
 * One set of numbered migrations and one set of queries serve both; what differs between the two dialects (column
 * types, the insertion order, locks) is in `Dialect` below and nowhere else. It holds the swaps and their settlement
 * state, an append-only log of every state change, and small key/values (the watcher's position).
 *
 * Every state change is a compare-and-set (`UPDATE … WHERE state = expected … RETURNING`), so two fibers (or two
 * processes on one database) can never both move a swap forward from the same state. A change and its log entry are
 * one round trip on PostgreSQL (`Dialect.logged`), and each returns the row it wrote, so settling a swap reads a row
 * again only when another writer got there first.
 *
 * Coordination between replicas lives here too (migration 3):
 * - a swap is worked on under a claim: `claimed_by` (a token unique to one claim) and `claimed_until` (epoch ms), set
 *   by a compare-and-set that succeeds only when the swap is not final and unclaimed or its claim expired (or by the
 *   insertion of a deposit seen for the first time). Transitions made under a claim carry its token and fail once
 *   another replica took the swap over (fencing); the transition to a final state clears the claim;
 * - liquidity reserved by payouts in flight is rows of `reservations`, added under a per-resource lock
 *   (`pg_advisory_xact_lock` on PostgreSQL, an in-process semaphore on SQLite) and deleted when the payout's outcome
 *   is known, so a replica that dies keeps its reservation until the swap is resumed;
 * - named leases (`leases`: the watcher's) with an expiry, taken and renewed by an upsert compare-and-set.
 *
 * It also holds the binding quotes of `GET /api/liveprice` (`quotes`, migration 2): their terms, and the deposit that
 * claimed each one (`used_by`, set once by a compare-and-set).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import type { Row } from "@effect/sql/SqlConnection"
import type { Fragment, Statement } from "@effect/sql/Statement"
import * as Migrator from "@effect/sql/Migrator"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import {
  type Decimal,
  ZERO,
  addDecimal,
  compareDecimal,
  decimalToString,
  parseLooseDecimal,
  subDecimal
} from "../exchange/decimal"
import * as fs from "node:fs"
import * as path from "node:path"

/** received → paying → completed | failed → refunding → refunded (issue 6 §2). */
export const SwapState = Schema.Literal("received", "paying", "completed", "failed", "refunding", "refunded")
export type SwapState = typeof SwapState.Type

export const TERMINAL_STATES: ReadonlySet<SwapState> = new Set(["completed", "refunded"])

export const SwapRow = Schema.Struct({
  tx_in: Schema.String,
  sender: Schema.String,
  resource_in: Schema.String,
  symbol_in: Schema.String,
  amount_in: Schema.String,
  resource_out: Schema.NullOr(Schema.String),
  symbol_out: Schema.NullOr(Schema.String),
  amount_out: Schema.NullOr(Schema.String),
  rate: Schema.NullOr(Schema.String),
  usd_in: Schema.NullOr(Schema.String),
  state: SwapState,
  payout_intent: Schema.NullOr(Schema.String),
  payout_hex: Schema.NullOr(Schema.String),
  refund_intent: Schema.NullOr(Schema.String),
  refund_hex: Schema.NullOr(Schema.String),
  refund_attempts: Schema.Number,
  message: Schema.NullOr(Schema.String),
  route_text: Schema.NullOr(Schema.String),
  state_version_in: Schema.NullOr(Schema.Number),
  created_ms: Schema.Number,
  updated_ms: Schema.Number,
  finalized_ms: Schema.NullOr(Schema.Number),
  /** The quote reference the deposit's message named, as written (length capped), or null. */
  quote_id: Schema.NullOr(Schema.String),
  /** What the quote promised for this deposit, in to-token units, once settlement read the quote. */
  quoted_out: Schema.NullOr(Schema.String),
  /** 99% of `quoted_out`: the least an expired quote may pay. */
  min_received: Schema.NullOr(Schema.String),
  /** When the ledger committed the deposit (epoch ms), which decides whether the quote was still binding. */
  committed_ms: Schema.NullOr(Schema.Number)
})
export type SwapRow = typeof SwapRow.Type

/** A binding quote as stored: the terms `GET /api/liveprice` returned, and the deposit that claimed it. */
export const QuoteRow = Schema.Struct({
  id: Schema.String,
  symbol_in: Schema.String,
  symbol_out: Schema.String,
  /** `effective_rate`, exactly the string returned. */
  rate: Schema.String,
  /** The 0.10 USD fee in to-token units, rounded up to the to-token's decimals. */
  fee_out: Schema.String,
  min_in: Schema.String,
  max_in: Schema.String,
  price_in: Schema.String,
  price_out: Schema.String,
  issued_ms: Schema.Number,
  expires_ms: Schema.Number,
  used_by: Schema.NullOr(Schema.String)
})
export type QuoteRow = typeof QuoteRow.Type

export interface NewSwap {
  readonly tx_in: string
  readonly sender: string
  readonly resource_in: string
  readonly symbol_in: string
  readonly amount_in: string
  readonly route_text: string | null
  readonly state_version_in: number
  readonly quote_id: string | null
  readonly committed_ms: number | null
}

/** Fields a transition may set alongside the new state. */
export interface SwapChanges {
  readonly resource_out?: string
  readonly symbol_out?: string
  readonly amount_out?: string
  readonly rate?: string
  readonly usd_in?: string
  readonly payout_intent?: string | null
  readonly payout_hex?: string | null
  readonly refund_intent?: string | null
  readonly refund_hex?: string | null
  readonly refund_attempts?: number
  readonly message?: string | null
  readonly finalized_ms?: number
  readonly quoted_out?: string
  readonly min_received?: string
}

export const MIGRATIONS_TABLE = "hswap_migrations"

/**
 * Everything that differs between SQLite and PostgreSQL, in one place. Fragments are raw SQL (never user input).
 */
export interface Dialect {
  readonly name: "sqlite" | "pg"
  /** A 64-bit integer column (epoch milliseconds): INTEGER in SQLite (always 64-bit), BIGINT in PostgreSQL. */
  readonly bigint: string
  /** An auto-incremented primary key. */
  readonly autoId: string
  /** Extra columns of `swaps` in migration 1: PostgreSQL has no rowid, so it gets an explicit insertion sequence. */
  readonly swapsSeqColumn: string
  /** The column that orders swaps by insertion (the tie-break of equal `created_ms`). */
  readonly insertionOrder: string
  /** Runs before the migrations (SQLite: write-ahead log). */
  readonly prepare: (sql: SqlClient.SqlClient) => Effect.Effect<void>
  /** Runs the migrations so that replicas starting together do not race. */
  readonly serializeMigrations: <A, E, R>(
    sql: SqlClient.SqlClient,
    run: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /**
   * Runs `change` (an INSERT or UPDATE of `swaps` … RETURNING *) and, in the same atomic step, appends one
   * `swap_events` row (`event`) per swap it returned; the returned rows. PostgreSQL: one statement, one round trip (a
   * data-modifying WITH); SQLite, which has no such WITH: a transaction of the two statements (in process, no trip).
   */
  readonly logged: (
    sql: SqlClient.SqlClient,
    change: Statement<Row>,
    event: { readonly state: string; readonly at: number; readonly detail: string | null }
  ) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
  /**
   * Runs `effect` alone among everyone reserving liquidity of `resource` on this database: PostgreSQL, in a
   * transaction holding `pg_advisory_xact_lock` (across replicas); SQLite, under an in-process semaphore (one process
   * per file).
   */
  readonly withResourceLock: (
    sql: SqlClient.SqlClient
  ) => (resource: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError.SqlError, R>
}

/** Advisory-lock keys are derived in SQL (`hashtext`) from these names. */
const MIGRATION_LOCK = "hswap:migrations"
const liquidityLockName = (resource: string) => `hswap:liquidity:${resource}`

export const sqliteDialect = (): Dialect => {
  const semaphore = Effect.unsafeMakeSemaphore(1)
  return {
    name: "sqlite",
    bigint: "INTEGER",
    autoId: "INTEGER PRIMARY KEY AUTOINCREMENT",
    swapsSeqColumn: "",
    insertionOrder: "rowid",
    prepare: (sql) =>
      sql`PRAGMA journal_mode = WAL`.pipe(
        Effect.asVoid,
        Effect.catchAll((e) => Effect.logWarning("SQLite: WAL mode not set", e))
      ),
    serializeMigrations: (_sql, run) => run,
    logged: (sql, change, event) =>
      sql.withTransaction(
        Effect.gen(function* () {
          const rows = yield* change
          for (const row of rows) {
            yield* sql`INSERT INTO swap_events ${sql.insert({ tx_in: String(row["tx_in"]), state: event.state, at_ms: event.at, detail: event.detail })}`
          }
          return rows
        })
      ),
    withResourceLock: () => () => (effect) => semaphore.withPermits(1)(effect)
  }
}

export const pgDialect = (): Dialect => ({
  name: "pg",
  bigint: "BIGINT",
  autoId: "BIGSERIAL PRIMARY KEY",
  swapsSeqColumn: ", seq BIGSERIAL NOT NULL",
  insertionOrder: "seq",
  prepare: () => Effect.void,
  // The migrator serializes its runs by locking its table, but creates that table unguarded when it is missing:
  // replicas starting together on a new database create it here first, one at a time (same definition).
  serializeMigrations: (sql, run) =>
    Effect.zipRight(
      sql.withTransaction(
        Effect.zipRight(
          sql`SELECT pg_advisory_xact_lock(hashtext(${MIGRATION_LOCK}))`,
          sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
            migration_id integer primary key,
            created_at timestamp with time zone not null default now(),
            name text not null
          )`
        )
      ),
      run
    ),
  logged: (sql, change, event) =>
    sql<Row>`WITH changed AS (${change}), logged AS (
      INSERT INTO swap_events (tx_in, state, at_ms, detail)
      SELECT tx_in, ${event.state}::text, ${event.at}::bigint, ${event.detail}::text FROM changed
    ) SELECT * FROM changed`,
  // One fiber per replica and resource queues for the advisory lock (the others wait in process, holding no
  // connection), so reservations never tie up the pool that claims and lease renewals need.
  withResourceLock: (sql) => {
    const local = new Map<string, Effect.Semaphore>()
    return (resource) => (effect) => {
      let semaphore = local.get(resource)
      if (semaphore === undefined) {
        semaphore = Effect.unsafeMakeSemaphore(1)
        local.set(resource, semaphore)
      }
      return semaphore.withPermits(1)(
        sql.withTransaction(
          Effect.zipRight(sql`SELECT pg_advisory_xact_lock(hashtext(${liquidityLockName(resource)}))`, effect)
        )
      )
    }
  }
})

export class DbDialect extends Context.Tag("hswap/server/DbDialect")<DbDialect, Dialect>() {}

const migrations = (d: Dialect) => {
  const raw = (sql: SqlClient.SqlClient, text: string): Fragment => sql.literal(text)
  return Migrator.fromRecord({
    "1_swaps": Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const big = raw(sql, d.bigint)
      yield* sql`CREATE TABLE swaps (
        tx_in TEXT PRIMARY KEY,
        sender TEXT NOT NULL,
        resource_in TEXT NOT NULL,
        symbol_in TEXT NOT NULL,
        amount_in TEXT NOT NULL,
        resource_out TEXT,
        symbol_out TEXT,
        amount_out TEXT,
        rate TEXT,
        usd_in TEXT,
        state TEXT NOT NULL CHECK (state IN ('received','paying','completed','failed','refunding','refunded')),
        payout_intent TEXT UNIQUE,
        payout_hex TEXT,
        refund_intent TEXT UNIQUE,
        refund_hex TEXT,
        refund_attempts INTEGER NOT NULL DEFAULT 0,
        message TEXT,
        route_text TEXT,
        state_version_in ${big},
        created_ms ${big} NOT NULL,
        updated_ms ${big} NOT NULL,
        finalized_ms ${big}${raw(sql, d.swapsSeqColumn)}
      )`
      yield* sql`CREATE INDEX swaps_sender ON swaps (sender, created_ms)`
      yield* sql`CREATE INDEX swaps_state ON swaps (state)`
      yield* sql`CREATE INDEX swaps_finalized ON swaps (finalized_ms)`
      yield* sql`CREATE TABLE swap_events (
        id ${raw(sql, d.autoId)},
        tx_in TEXT NOT NULL,
        state TEXT NOT NULL,
        at_ms ${big} NOT NULL,
        detail TEXT
      )`
      yield* sql`CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)`
    }),
    "2_quotes": Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const big = raw(sql, d.bigint)
      yield* sql`CREATE TABLE quotes (
        id TEXT PRIMARY KEY,
        symbol_in TEXT NOT NULL,
        symbol_out TEXT NOT NULL,
        rate TEXT NOT NULL,
        fee_out TEXT NOT NULL,
        min_in TEXT NOT NULL,
        max_in TEXT NOT NULL,
        price_in TEXT NOT NULL,
        price_out TEXT NOT NULL,
        issued_ms ${big} NOT NULL,
        expires_ms ${big} NOT NULL,
        used_by TEXT
      )`
      // Only unclaimed quotes are ever pruned: the index holds just those, so a prune never walks the claimed ones.
      yield* sql`CREATE INDEX quotes_unused_expires ON quotes (expires_ms) WHERE used_by IS NULL`
      yield* sql`ALTER TABLE swaps ADD COLUMN quote_id TEXT`
      yield* sql`ALTER TABLE swaps ADD COLUMN quoted_out TEXT`
      yield* sql`ALTER TABLE swaps ADD COLUMN min_received TEXT`
      yield* sql`ALTER TABLE swaps ADD COLUMN committed_ms ${big}`
      yield* sql`CREATE INDEX swaps_quote ON swaps (quote_id)`
    }),
    "3_coordination": Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const big = raw(sql, d.bigint)
      yield* sql`ALTER TABLE swaps ADD COLUMN claimed_by TEXT`
      yield* sql`ALTER TABLE swaps ADD COLUMN claimed_until ${big}`
      yield* sql`CREATE TABLE reservations (
        tx_in TEXT PRIMARY KEY,
        resource TEXT NOT NULL,
        amount TEXT NOT NULL,
        created_ms ${big} NOT NULL
      )`
      yield* sql`CREATE INDEX reservations_resource ON reservations (resource)`
      yield* sql`CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until_ms ${big} NOT NULL)`
    })
  })
}

const decodeRows = Schema.decodeUnknown(Schema.Array(SwapRow))

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const dialect = yield* DbDialect
  yield* dialect.prepare(sql)
  yield* dialect
    .serializeMigrations(sql, Migrator.make({})({ loader: migrations(dialect), table: MIGRATIONS_TABLE }))
    .pipe(Effect.orDie)
  const insertionOrder = sql.literal(dialect.insertionOrder)
  const resourceLock = dialect.withResourceLock(sql)

  const rows = (q: Effect.Effect<ReadonlyArray<unknown>, unknown>) => q.pipe(Effect.flatMap(decodeRows), Effect.orDie)

  const get = Effect.fn("Db.get")(function* (txIn: string) {
    const found = yield* rows(sql`SELECT * FROM swaps WHERE tx_in = ${txIn}`)
    return Option.fromNullable(found[0])
  })

  /**
   * Inserts a received swap unless the hash is known; the stored row either way, and whether this call inserted it.
   * With `claim`, a swap it inserts is claimed at once by that token (one write instead of two).
   */
  const insertReceived = Effect.fn("Db.insertReceived")(function* (
    swap: NewSwap,
    claim?: { readonly token: string; readonly untilMs: number }
  ) {
    const now = yield* Clock.currentTimeMillis
    const inserted = yield* dialect
      .logged(
        sql,
        sql<Row>`INSERT INTO swaps ${sql.insert({
          ...swap,
          state: "received",
          refund_attempts: 0,
          created_ms: now,
          updated_ms: now,
          ...(claim === undefined ? {} : { claimed_by: claim.token, claimed_until: claim.untilMs })
        })} ON CONFLICT DO NOTHING RETURNING *`,
        { state: "received", at: now, detail: null }
      )
      .pipe(Effect.flatMap(decodeRows), Effect.orDie)
    const row = inserted[0]
    if (row !== undefined) return { row, inserted: true } as const
    return { row: Option.getOrThrow(yield* get(swap.tx_in)), inserted: false } as const
  })

  /**
   * Moves a swap from `from` to `to` with `changes`, only if it is still in `from` and, when `claim` is given, still
   * held under that claim. Returns the new row, or none when another writer got there first.
   */
  const transition = Effect.fn("Db.transition")(function* (
    txIn: string,
    from: SwapState,
    to: SwapState,
    changes: SwapChanges = {},
    detail: string | null = null,
    claim: string | null = null
  ) {
    const now = yield* Clock.currentTimeMillis
    const set: Record<string, string | number | null> = { state: to, updated_ms: now }
    for (const [k, v] of Object.entries(changes)) if (v !== undefined) set[k] = v
    // A final swap is nobody's to work on: its claim goes with the same write.
    if (TERMINAL_STATES.has(to)) Object.assign(set, { claimed_by: null, claimed_until: null })
    const fence = claim === null ? sql`` : sql` AND claimed_by = ${claim}`
    const updated = yield* dialect
      .logged(
        sql,
        sql<Row>`UPDATE swaps SET ${sql.update(set)} WHERE tx_in = ${txIn} AND state = ${from}${fence} RETURNING *`,
        { state: to, at: now, detail }
      )
      .pipe(Effect.flatMap(decodeRows), Effect.orDie)
    return Option.fromNullable(updated[0])
  })

  // --- claims ----------------------------------------------------------------------------------------------------

  /**
   * Claims swap `txIn` for `token` until `untilMs`: succeeds when it is not final and unclaimed, its claim expired
   * before `nowMs`, or `token` already holds it. The swap as it stands once claimed, or none.
   */
  const claim = Effect.fn("Db.claim")(function* (txIn: string, token: string, nowMs: number, untilMs: number) {
    const r = yield* rows(sql`UPDATE swaps SET claimed_by = ${token}, claimed_until = ${untilMs}
      WHERE tx_in = ${txIn} AND state NOT IN ('completed', 'refunded')
        AND (claimed_by IS NULL OR claimed_by = ${token} OR claimed_until < ${nowMs})
      RETURNING *`)
    return Option.fromNullable(r[0])
  })

  /** Extends a claim `token` still holds; false when it was lost. */
  const renewClaim = Effect.fn("Db.renewClaim")(function* (txIn: string, token: string, untilMs: number) {
    const r =
      yield* sql`UPDATE swaps SET claimed_until = ${untilMs} WHERE tx_in = ${txIn} AND claimed_by = ${token} RETURNING tx_in`.pipe(
        Effect.orDie
      )
    return r.length > 0
  })

  /** Gives a claim up (only the holder's own). */
  const releaseClaim = Effect.fn("Db.releaseClaim")(function* (txIn: string, token: string) {
    yield* sql`UPDATE swaps SET claimed_by = NULL, claimed_until = NULL WHERE tx_in = ${txIn} AND claimed_by = ${token}`.pipe(
      Effect.orDie
    )
  })

  // --- liquidity reservations ------------------------------------------------------------------------------------

  const Reservation = Schema.Array(Schema.Struct({ tx_in: Schema.String, amount: Schema.String }))

  /**
   * Reserves `amount` of `resource` for the payout of `txIn` if the exchange's balance minus every other reservation
   * covers it (a swap that already holds a reservation keeps it). The reservations are summed before the balance is
   * read, under the resource's lock: a payout releases its reservation only after it committed, so a committed
   * payout is never counted as both spent and free.
   */
  const reserve = <E, R>(
    txIn: string,
    resource: string,
    amount: Decimal,
    balance: Effect.Effect<Decimal | undefined, E, R>
  ): Effect.Effect<boolean, E, R> =>
    resourceLock(resource)(
      Effect.gen(function* () {
        const held = yield* sql`SELECT tx_in, amount FROM reservations WHERE resource = ${resource}`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Reservation)),
          Effect.orDie
        )
        if (held.some((r) => r.tx_in === txIn)) return true
        const reserved = held.reduce(
          (sum, r) =>
            addDecimal(
              sum,
              Option.getOrElse(parseLooseDecimal(r.amount), () => ZERO)
            ),
          ZERO
        )
        const free = subDecimal((yield* balance) ?? ZERO, reserved)
        if (compareDecimal(free, amount) < 0) return false
        const now = yield* Clock.currentTimeMillis
        yield* sql`INSERT INTO reservations ${sql.insert({ tx_in: txIn, resource, amount: decimalToString(amount), created_ms: now })}`
        return true
      })
    ).pipe(
      Effect.catchTag("SqlError", (e) => Effect.die(e)),
      Effect.withSpan("Db.reserve")
    )

  /** Drops the reservation of `txIn`, if any. */
  const release = Effect.fn("Db.release")(function* (txIn: string) {
    yield* sql`DELETE FROM reservations WHERE tx_in = ${txIn}`.pipe(Effect.orDie)
  })

  const reservations = sql`SELECT tx_in, amount FROM reservations`.pipe(
    Effect.flatMap(Schema.decodeUnknown(Reservation)),
    Effect.orDie,
    Effect.withSpan("Db.reservations")
  )

  // --- leases ------------------------------------------------------------------------------------------------------

  /**
   * Takes or renews the lease `name` for `holder` until `untilMs`: succeeds when nobody holds it, `holder` does, or
   * the holder's lease ran out before `nowMs`.
   */
  const acquireLease = Effect.fn("Db.acquireLease")(function* (
    name: string,
    holder: string,
    nowMs: number,
    untilMs: number
  ) {
    const r = yield* sql`INSERT INTO leases ${sql.insert({ name, holder, until_ms: untilMs })}
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
      WHERE leases.holder = excluded.holder OR leases.until_ms < ${nowMs}
      RETURNING holder`.pipe(Effect.orDie)
    return r.length > 0
  })

  /** Gives the lease up if `holder` has it. */
  const releaseLease = Effect.fn("Db.releaseLease")(function* (name: string, holder: string) {
    yield* sql`DELETE FROM leases WHERE name = ${name} AND holder = ${holder}`.pipe(Effect.orDie)
  })

  const byAccount = Effect.fn("Db.byAccount")(function* (account: string, limit: number) {
    return yield* rows(
      sql`SELECT * FROM swaps WHERE sender = ${account} ORDER BY created_ms DESC, ${insertionOrder} DESC LIMIT ${limit}`
    )
  })

  const latest = Effect.fn("Db.latest")(function* (limit: number) {
    return yield* rows(sql`SELECT * FROM swaps ORDER BY created_ms DESC, ${insertionOrder} DESC LIMIT ${limit}`)
  })

  /** Swaps not final, oldest first, leaving out those another claim still holds at `nowMs`. */
  const unfinished = (nowMs: number) =>
    rows(
      sql`SELECT * FROM swaps WHERE state NOT IN ('completed', 'refunded')
        AND (claimed_by IS NULL OR claimed_until < ${nowMs}) ORDER BY created_ms`
    ).pipe(Effect.withSpan("Db.unfinished"))

  const Totals = Schema.Struct({ n: Schema.Number, users: Schema.Number })
  const totals = Effect.gen(function* () {
    const r =
      yield* sql`SELECT COUNT(*) AS n, COUNT(DISTINCT sender) AS users FROM swaps WHERE state = 'completed'`.pipe(
        Effect.flatMap(Schema.decodeUnknown(Schema.Array(Totals))),
        Effect.orDie
      )
    const volumes = yield* sql`SELECT usd_in FROM swaps WHERE state = 'completed'`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Schema.Array(Schema.Struct({ usd_in: Schema.NullOr(Schema.String) })))),
      Effect.orDie
    )
    return {
      count: r[0]?.n ?? 0,
      users: r[0]?.users ?? 0,
      volumes: volumes.flatMap((v) => (v.usd_in === null ? [] : [v.usd_in]))
    }
  }).pipe(Effect.withSpan("Db.totals"))

  const Events = Schema.Array(
    Schema.Struct({ state: Schema.String, at_ms: Schema.Number, detail: Schema.NullOr(Schema.String) })
  )
  const events = Effect.fn("Db.events")(function* (txIn: string) {
    return yield* sql`SELECT state, at_ms, detail FROM swap_events WHERE tx_in = ${txIn} ORDER BY id`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Events)),
      Effect.orDie
    )
  })

  const KvRow = Schema.Array(Schema.Struct({ value: Schema.String }))
  const getKv = Effect.fn("Db.getKv")(function* (key: string) {
    const r = yield* sql`SELECT value FROM kv WHERE key = ${key}`.pipe(
      Effect.flatMap(Schema.decodeUnknown(KvRow)),
      Effect.orDie
    )
    return Option.fromNullable(r[0]?.value)
  })
  const setKv = Effect.fn("Db.setKv")(function* (key: string, value: string) {
    yield* sql`INSERT INTO kv ${sql.insert({ key, value })} ON CONFLICT (key) DO UPDATE SET value = excluded.value`.pipe(
      Effect.orDie
    )
  })

  /** Sets `key` to `value` unless it already has one; the stored value either way (every process agrees on it). */
  const initKv = Effect.fn("Db.initKv")(function* (key: string, value: string) {
    yield* sql`INSERT INTO kv ${sql.insert({ key, value })} ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
    return yield* getKv(key).pipe(Effect.map(Option.getOrElse(() => value)))
  })

  // --- quotes ----------------------------------------------------------------------------------------------------

  /** Stores a freshly issued quote: one INSERT, on the price path. Fails (not dies) so the caller can answer 503. */
  const insertQuote = (quote: Omit<QuoteRow, "used_by">): Effect.Effect<void, SqlError.SqlError> =>
    sql`INSERT INTO quotes ${sql.insert(quote)}`.pipe(Effect.asVoid, Effect.withSpan("Db.insertQuote"))

  const decodeQuotes = Schema.decodeUnknown(Schema.Array(QuoteRow))
  const getQuote = Effect.fn("Db.getQuote")(function* (id: string) {
    const found = yield* sql`SELECT * FROM quotes WHERE id = ${id}`.pipe(Effect.flatMap(decodeQuotes), Effect.orDie)
    return Option.fromNullable(found[0])
  })

  /**
   * Claims quote `id` for the deposit `txIn`: a compare-and-set that succeeds when the quote is unclaimed or already
   * claimed by this very deposit (a resumed settlement keeps its claim). False when another deposit holds it, or
   * when no such quote exists.
   */
  const claimQuote = Effect.fn("Db.claimQuote")(function* (id: string, txIn: string) {
    const r =
      yield* sql`UPDATE quotes SET used_by = ${txIn} WHERE id = ${id} AND (used_by IS NULL OR used_by = ${txIn}) RETURNING id`.pipe(
        Effect.orDie
      )
    return r.length > 0
  })

  /**
   * Deletes at most `limit` quotes that expired before `expiredBefore` (epoch ms), were never claimed, and no stored
   * swap names. Returns how many went.
   */
  const pruneQuotes = Effect.fn("Db.pruneQuotes")(function* (expiredBefore: number, limit: number) {
    const r = yield* sql`DELETE FROM quotes WHERE id IN (
      SELECT q.id FROM quotes q
      WHERE q.expires_ms < ${expiredBefore} AND q.used_by IS NULL
        AND NOT EXISTS (SELECT 1 FROM swaps s WHERE s.quote_id = q.id)
      LIMIT ${limit}
    ) RETURNING id`.pipe(Effect.orDie)
    return r.length
  })

  return {
    get,
    insertReceived,
    transition,
    byAccount,
    latest,
    unfinished,
    totals,
    events,
    getKv,
    setKv,
    initKv,
    insertQuote,
    getQuote,
    claimQuote,
    pruneQuotes,
    claim,
    renewClaim,
    releaseClaim,
    reserve,
    release,
    reservations,
    acquireLease,
    releaseLease,
    dialect: dialect.name
  } as const
})

/**
 * Numbers from PostgreSQL: every integer column here (BIGINT epoch milliseconds, INTEGER counters, COUNT(*)) reads
 * as a JavaScript number (all stay far below 2^53); booleans as booleans; everything else as the text PostgreSQL
 * sent (the schema keeps amounts as TEXT).
 */
const PG_INT_OIDS = new Set([20, 21, 23])
const PG_BOOL_OID = 16
const pgTypes = {
  getTypeParser: (oid: number) =>
    PG_INT_OIDS.has(oid)
      ? (text: string) => Number(text)
      : oid === PG_BOOL_OID
        ? (text: string) => text === "t" || text === "true"
        : (text: string) => text
}

export class Db extends Effect.Service<Db>()("hswap/server/Db", { effect: make }) {
  /** SQLite at `filename` (":memory:" for a throwaway database); the directory is created when missing. */
  static readonly sqlite = (filename: string): Layer.Layer<Db> => {
    const client = Layer.unwrapEffect(
      Effect.sync(() => {
        if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true })
        return SqliteClient.layer({ filename })
      })
    ).pipe(Layer.orDie)
    return Db.Default.pipe(Layer.provide(Layer.merge(client, Layer.sync(DbDialect, sqliteDialect))))
  }

  /** PostgreSQL at `url` (`postgres://user@host:port/database`), shared by every replica. */
  static readonly postgres = (url: string, options: { readonly maxConnections?: number } = {}): Layer.Layer<Db> => {
    const client = PgClient.layer({
      url: Redacted.make(url),
      maxConnections: options.maxConnections ?? 10,
      applicationName: "hswap-exchange",
      types: pgTypes
    }).pipe(Layer.orDie)
    return Db.Default.pipe(Layer.provide(Layer.merge(client, Layer.sync(DbDialect, pgDialect))))
  }

  /** The store a database setting names: a `postgres://` (or `postgresql://`) URL, else a SQLite file. */
  static readonly fromSetting = (setting: string): Layer.Layer<Db> =>
    isPostgresUrl(setting) ? Db.postgres(setting) : Db.sqlite(setting)
}

export const isPostgresUrl = (s: string): boolean => /^postgres(ql)?:\/\//i.test(s)
