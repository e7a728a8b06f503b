/**
 * The numbered migrations, one set for both stores (the column types come from the dialect), and `migrate`, which runs
 * them so that replicas starting together on one database do not race.
 *
 * 1. swaps, their append-only log of state changes (`swap_events`), and small key/values (`kv`);
 * 2. binding quotes (`quotes`) and the quote columns of swaps;
 * 3. coordination between replicas: claims on swaps (`claimed_by`, `claimed_until`), liquidity reservations
 *    (`reservations`) and named leases (`leases`);
 * 4. atomic swaps (`atomic_swaps`): one row per pre-authorisation, keyed by its subintent hash, with its claim columns;
 * 5. PostgreSQL only: the running count of liquidity per resource (`liquidity`: reserved now, released ever), started
 *    from the reservations already held (see `reservations.ts`; SQLite sums its reservations instead).
 */
import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import * as Migrator from "@effect/sql/Migrator"
import { Effect } from "effect"
import { type Dialect, MIGRATIONS_TABLE } from "./dialect"

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
    }),
    "4_atomic": Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const big = raw(sql, d.bigint)
      yield* sql`CREATE TABLE atomic_swaps (
        subintent_hash TEXT PRIMARY KEY,
        subintent_id TEXT NOT NULL,
        quote_id TEXT NOT NULL,
        account TEXT NOT NULL,
        resource_in TEXT NOT NULL,
        symbol_in TEXT NOT NULL,
        amount_in TEXT NOT NULL,
        resource_out TEXT NOT NULL,
        symbol_out TEXT NOT NULL,
        quoted_out TEXT NOT NULL,
        amount_out TEXT,
        partial_hex TEXT NOT NULL,
        window_end_ms ${big} NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('submitting','committed','lapsed','refused')),
        tx_intent TEXT UNIQUE,
        tx_hex TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        message TEXT,
        claimed_by TEXT,
        claimed_until ${big},
        created_ms ${big} NOT NULL,
        updated_ms ${big} NOT NULL,
        finalized_ms ${big}
      )`
      yield* sql`CREATE INDEX atomic_swaps_account ON atomic_swaps (account, created_ms)`
      yield* sql`CREATE INDEX atomic_swaps_quote ON atomic_swaps (quote_id)`
    }),
    "5_liquidity": Effect.gen(function* () {
      if (d.reservations !== "counted") return
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE liquidity (
        resource TEXT PRIMARY KEY,
        reserved NUMERIC NOT NULL,
        released NUMERIC NOT NULL
      )`
      yield* sql`INSERT INTO liquidity (resource, reserved, released)
        SELECT resource, SUM(amount::numeric), 0 FROM reservations GROUP BY resource`
    })
  })
}

/** Prepares the store and brings its schema up to date (a failure here is fatal: the server cannot start). */
export const migrate = (sql: SqlClient.SqlClient, dialect: Dialect): Effect.Effect<void, never, SqlClient.SqlClient> =>
  Effect.zipRight(
    dialect.prepare(sql),
    dialect
      .serializeMigrations(sql, Migrator.make({})({ loader: migrations(dialect), table: MIGRATIONS_TABLE }))
      .pipe(Effect.asVoid, Effect.orDie)
  )
