/**
 * What differs between SQLite and PostgreSQL, in one place: column types, the insertion order, how a change and its
 * log entry are written together, the lock that serializes migrations, how liquidity is reserved, and how PostgreSQL's
 * values are read. The migrations and every repository are written once against `Dialect`.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import type { Row } from "@effect/sql/SqlConnection"
import type { Statement } from "@effect/sql/Statement"
import { Context, Effect } from "effect"

/** The migrator's own table. */
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
   * data-modifying WITH); SQLite, which has no such WITH: a transaction of the statements (in process, no trip).
   * With `releaseOf`, the reservation of that key is dropped in the same atomic step too, whether or not `change`
   * matched. `items` (PostgreSQL only: SQLite refuses them) are WITH items written before `change`, which may refer
   * to them (a reservation taken in the same statement, `db/reservations.ts`).
   */
  readonly logged: (
    sql: SqlClient.SqlClient,
    change: Statement<Row>,
    event: { readonly state: string; readonly at: number; readonly detail: string | null },
    releaseOf?: string,
    items?: Statement<Row>
  ) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
  /**
   * How a reservation is checked against the balance (`db/reservations.ts`): "summed" (SQLite: the reservations
   * summed under an in-process semaphore, one process per file) or "counted" (PostgreSQL: a running count per
   * resource in `liquidity`, kept by the same statements that add and drop reservations).
   */
  readonly reservations: "summed" | "counted"
  /** Drops the reservation of `key`, if any (and, "counted", gives its amount back to the resource's count). */
  readonly release: (sql: SqlClient.SqlClient, key: string) => Effect.Effect<unknown, SqlError.SqlError>
}

/** The advisory-lock key of migrations is derived in SQL (`hashtext`) from this name. */
const MIGRATION_LOCK = "hswap:migrations"

export const sqliteDialect = (): Dialect => {
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
    logged: (sql, change, event, releaseOf, items) =>
      items !== undefined
        ? Effect.dieMessage("WITH items in a logged change are PostgreSQL's only")
        : sql.withTransaction(
            Effect.gen(function* () {
              if (releaseOf !== undefined) yield* sql`DELETE FROM reservations WHERE tx_in = ${releaseOf}`
              const rows = yield* change
              for (const row of rows) {
                yield* sql`INSERT INTO swap_events ${sql.insert({ tx_in: String(row["tx_in"]), state: event.state, at_ms: event.at, detail: event.detail })}`
              }
              return rows
            })
          ),
    reservations: "summed",
    release: (sql, key) => sql`DELETE FROM reservations WHERE tx_in = ${key}`
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
  logged: (sql, change, event, releaseOf, items) =>
    sql<Row>`WITH ${releaseOf === undefined ? sql`` : sql`${pgReleasing(sql, releaseOf)}, `}${items === undefined ? sql`` : sql`${items}, `}changed AS (${change}), logged AS (
      INSERT INTO swap_events (tx_in, state, at_ms, detail)
      SELECT tx_in, ${event.state}::text, ${event.at}::bigint, ${event.detail}::text FROM changed
    ) SELECT * FROM changed`,
  reservations: "counted",
  release: (sql, key) => sql`WITH ${pgReleasing(sql, key)} SELECT 1`
})

/**
 * PostgreSQL's `WITH` items that drop the reservation of `key` and give its amount back to its resource's count:
 * less reserved now, more released ever (see `db/reservations.ts`).
 */
const pgReleasing = (sql: SqlClient.SqlClient, key: string) =>
  sql`gone AS (DELETE FROM reservations WHERE tx_in = ${key} RETURNING resource, amount),
    freed AS (
      UPDATE liquidity l SET reserved = l.reserved - g.amount::numeric, released = l.released + g.amount::numeric
      FROM gone g WHERE l.resource = g.resource
    )`

export class DbDialect extends Context.Tag("hswap/server/DbDialect")<DbDialect, Dialect>() {}

/**
 * Numbers from PostgreSQL: every integer column here (BIGINT epoch milliseconds, INTEGER counters, COUNT(*)) reads
 * as a JavaScript number (all stay far below 2^53); booleans as booleans; everything else as the text PostgreSQL
 * sent (the schema keeps amounts as TEXT).
 */
const PG_INT_OIDS = new Set([20, 21, 23])
const PG_BOOL_OID = 16
// The driver asks for a parser per column of every result: the same three functions, made once.
const parseInteger = (text: string) => Number(text)
const parseBoolean = (text: string) => text === "t" || text === "true"
const asText = (text: string) => text
export const pgTypes = {
  getTypeParser: (oid: number) => (PG_INT_OIDS.has(oid) ? parseInteger : oid === PG_BOOL_OID ? parseBoolean : asText)
}
