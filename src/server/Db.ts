/**
 * `Db`: the exchange server's records in SQLite through `@effect/sql` (`@effect/sql-sqlite-node` in production),
 * with numbered migrations. It holds the swaps and their settlement state, an append-only log of every state
 * change, and small key/values (the watcher's position).
 *
 * Every state change is a compare-and-set (`UPDATE … WHERE state = expected … RETURNING`), so two fibers (or two
 * processes on one file) can never both move a swap forward from the same state.
 *
 * It also holds the binding quotes of `GET /api/liveprice` (`quotes`, migration 2): their terms, and the deposit that
 * claimed each one (`used_by`, set once by a compare-and-set).
 */
import { SqlClient, type SqlError } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Clock, Effect, Layer, Option, Schema } from "effect"
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

const migrations = Migrator.fromRecord({
  "1_swaps": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
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
      state_version_in INTEGER,
      created_ms INTEGER NOT NULL,
      updated_ms INTEGER NOT NULL,
      finalized_ms INTEGER
    )`
    yield* sql`CREATE INDEX swaps_sender ON swaps (sender, created_ms)`
    yield* sql`CREATE INDEX swaps_state ON swaps (state)`
    yield* sql`CREATE INDEX swaps_finalized ON swaps (finalized_ms)`
    yield* sql`CREATE TABLE swap_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      tx_in TEXT NOT NULL,
      state TEXT NOT NULL,
      at_ms INTEGER NOT NULL,
      detail TEXT
    )`
    yield* sql`CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)`
  }),
  "2_quotes": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
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
      issued_ms INTEGER NOT NULL,
      expires_ms INTEGER NOT NULL,
      used_by TEXT
    )`
    // Only unclaimed quotes are ever pruned: the index holds just those, so a prune never walks the claimed ones.
    yield* sql`CREATE INDEX quotes_unused_expires ON quotes (expires_ms) WHERE used_by IS NULL`
    yield* sql`ALTER TABLE swaps ADD COLUMN quote_id TEXT`
    yield* sql`ALTER TABLE swaps ADD COLUMN quoted_out TEXT`
    yield* sql`ALTER TABLE swaps ADD COLUMN min_received TEXT`
    yield* sql`ALTER TABLE swaps ADD COLUMN committed_ms INTEGER`
    yield* sql`CREATE INDEX swaps_quote ON swaps (quote_id)`
  })
})

const decodeRows = Schema.decodeUnknown(Schema.Array(SwapRow))

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`PRAGMA journal_mode = WAL`.pipe(Effect.ignore)
  yield* Migrator.make({})({ loader: migrations, table: MIGRATIONS_TABLE }).pipe(Effect.orDie)

  const rows = (q: Effect.Effect<ReadonlyArray<unknown>, unknown>) => q.pipe(Effect.flatMap(decodeRows), Effect.orDie)

  const get = Effect.fn("Db.get")(function* (txIn: string) {
    const found = yield* rows(sql`SELECT * FROM swaps WHERE tx_in = ${txIn}`)
    return Option.fromNullable(found[0])
  })

  const logEvent = (txIn: string, state: string, at: number, detail: string | null) =>
    sql`INSERT INTO swap_events ${sql.insert({ tx_in: txIn, state, at_ms: at, detail })}`

  /** Inserts a received swap unless the hash is known; the stored row either way. */
  const insertReceived = Effect.fn("Db.insertReceived")(function* (swap: NewSwap) {
    const now = yield* Clock.currentTimeMillis
    yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const inserted = yield* sql`INSERT OR IGNORE INTO swaps ${sql.insert({
            ...swap,
            state: "received",
            refund_attempts: 0,
            created_ms: now,
            updated_ms: now
          })} RETURNING tx_in`
          if (inserted.length > 0) yield* logEvent(swap.tx_in, "received", now, null)
        })
      )
      .pipe(Effect.orDie)
    return Option.getOrThrow(yield* get(swap.tx_in))
  })

  /**
   * Moves a swap from `from` to `to` with `changes`, only if it is still in `from` (and, when given, its
   * payout/refund intent is still `expectIntent`). Returns the new row, or none when another writer got there first.
   */
  const transition = Effect.fn("Db.transition")(function* (
    txIn: string,
    from: SwapState,
    to: SwapState,
    changes: SwapChanges = {},
    detail: string | null = null
  ) {
    const now = yield* Clock.currentTimeMillis
    const set: Record<string, string | number | null> = { state: to, updated_ms: now }
    for (const [k, v] of Object.entries(changes)) if (v !== undefined) set[k] = v
    const updated = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const r = yield* sql`UPDATE swaps SET ${sql.update(set)} WHERE tx_in = ${txIn} AND state = ${from} RETURNING *`
          if (r.length > 0) yield* logEvent(txIn, to, now, detail)
          return r
        })
      )
      .pipe(Effect.flatMap(decodeRows), Effect.orDie)
    return Option.fromNullable(updated[0])
  })

  const byAccount = Effect.fn("Db.byAccount")(function* (account: string, limit: number) {
    return yield* rows(sql`SELECT * FROM swaps WHERE sender = ${account} ORDER BY created_ms DESC, rowid DESC LIMIT ${limit}`)
  })

  const latest = Effect.fn("Db.latest")(function* (limit: number) {
    return yield* rows(sql`SELECT * FROM swaps ORDER BY created_ms DESC, rowid DESC LIMIT ${limit}`)
  })

  const unfinished = rows(
    sql`SELECT * FROM swaps WHERE state NOT IN ('completed', 'refunded') ORDER BY created_ms`
  ).pipe(Effect.withSpan("Db.unfinished"))

  const Totals = Schema.Struct({ n: Schema.Number, users: Schema.Number })
  const totals = Effect.gen(function* () {
    const r = yield* sql`SELECT COUNT(*) AS n, COUNT(DISTINCT sender) AS users FROM swaps WHERE state = 'completed'`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Schema.Array(Totals))),
      Effect.orDie
    )
    const volumes = yield* sql`SELECT usd_in FROM swaps WHERE state = 'completed'`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Schema.Array(Schema.Struct({ usd_in: Schema.NullOr(Schema.String) })))),
      Effect.orDie
    )
    return { count: r[0]?.n ?? 0, users: r[0]?.users ?? 0, volumes: volumes.flatMap((v) => (v.usd_in === null ? [] : [v.usd_in])) }
  }).pipe(Effect.withSpan("Db.totals"))

  const Events = Schema.Array(Schema.Struct({ state: Schema.String, at_ms: Schema.Number, detail: Schema.NullOr(Schema.String) }))
  const events = Effect.fn("Db.events")(function* (txIn: string) {
    return yield* sql`SELECT state, at_ms, detail FROM swap_events WHERE tx_in = ${txIn} ORDER BY id`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Events)),
      Effect.orDie
    )
  })

  const KvRow = Schema.Array(Schema.Struct({ value: Schema.String }))
  const getKv = Effect.fn("Db.getKv")(function* (key: string) {
    const r = yield* sql`SELECT value FROM kv WHERE key = ${key}`.pipe(Effect.flatMap(Schema.decodeUnknown(KvRow)), Effect.orDie)
    return Option.fromNullable(r[0]?.value)
  })
  const setKv = Effect.fn("Db.setKv")(function* (key: string, value: string) {
    yield* sql`INSERT OR REPLACE INTO kv ${sql.insert({ key, value })}`.pipe(Effect.orDie)
  })

  /** Sets `key` to `value` unless it already has one; the stored value either way (every process agrees on it). */
  const initKv = Effect.fn("Db.initKv")(function* (key: string, value: string) {
    yield* sql`INSERT OR IGNORE INTO kv ${sql.insert({ key, value })}`.pipe(Effect.orDie)
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
    const r = yield* sql`UPDATE quotes SET used_by = ${txIn} WHERE id = ${id} AND (used_by IS NULL OR used_by = ${txIn}) RETURNING id`.pipe(
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
    pruneQuotes
  } as const
})

export class Db extends Effect.Service<Db>()("hswap/server/Db", { effect: make }) {
  /** SQLite at `filename` (":memory:" for a throwaway database); the directory is created when missing. */
  static readonly sqlite = (filename: string): Layer.Layer<Db> => {
    const client = Layer.unwrapEffect(
      Effect.sync(() => {
        if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true })
        return SqliteClient.layer({ filename })
      })
    ).pipe(Layer.orDie)
    return Db.Default.pipe(Layer.provide(client))
  }
}
