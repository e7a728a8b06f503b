/**
 * The two stores the server suites run on: SQLite (always) and PostgreSQL (when reachable). Each test gets a store
 * of its own: a temporary SQLite file, or a fresh PostgreSQL database with a random name, dropped afterwards, so
 * parallel runs and CI never share one.
 *
 * PostgreSQL is at `HSWAP_TEST_POSTGRES_URL` (default postgres://postgres@127.0.0.1:5432/test, the project machines'
 * server); fresh databases are created through it. When it cannot be reached the PostgreSQL cases are skipped and
 * this module says so loudly on stderr (`npm test` says it too, with the reason).
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, type Layer, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { type Db, DbLive, type ExchangeServerOptions } from "../../src/server/index"
import { tempDir } from "./harness"

export const POSTGRES_ADMIN_URL = process.env["HSWAP_TEST_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const admin = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, f).pipe(
      Effect.provide(
        PgClient.layer({ url: Redacted.make(POSTGRES_ADMIN_URL), connectTimeout: "3 seconds", maxConnections: 1 })
      ),
      Effect.scoped
    )
  )

/** Why PostgreSQL cannot be used, or undefined when it can. */
const probe = async (): Promise<string | undefined> => {
  try {
    await admin((sql) => sql`SELECT 1`)
    return undefined
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
}

export const postgresUnavailable: string | undefined = await probe()
if (postgresUnavailable !== undefined) {
  process.stderr.write(
    `\n!!! PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable (${postgresUnavailable}): the PostgreSQL cases of the exchange-server suites are SKIPPED.\n\n`
  )
}

/** A fresh PostgreSQL database; `drop` removes it (forcing out any connection left). */
export const freshPostgres = async (): Promise<{ readonly url: string; readonly drop: () => Promise<void> }> => {
  const name = `hswap_test_${randomBytes(6).toString("hex")}`
  await admin((sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined)
  }
}

export interface FreshStore {
  /** Options that point `startExchangeServer` at this store. */
  readonly options: Pick<ExchangeServerOptions, "databasePath"> & Partial<Pick<ExchangeServerOptions, "databaseUrl">>
  /** A `Db` layer on this store (a new connection each time it is built). */
  readonly db: () => Layer.Layer<Db>
  readonly remove: () => Promise<void>
}

export interface Store {
  readonly name: "sqlite" | "postgres"
  /** Why this store is skipped, if it is. */
  readonly skipped: string | undefined
  readonly fresh: () => Promise<FreshStore>
}

export const sqliteStore: Store = {
  name: "sqlite",
  skipped: undefined,
  fresh: () => {
    const tmp = tempDir()
    const file = join(tmp.dir, "exchange.sqlite")
    return Promise.resolve({
      options: { databasePath: file },
      db: () => DbLive.sqlite(file),
      remove: () => Promise.resolve(tmp.remove())
    })
  }
}

export const postgresStore: Store = {
  name: "postgres",
  skipped: postgresUnavailable,
  fresh: async () => {
    const database = await freshPostgres()
    return {
      options: { databasePath: ":memory:", databaseUrl: database.url },
      db: () => DbLive.postgres(database.url, { maxConnections: 4 }),
      remove: database.drop
    }
  }
}

export const STORES: ReadonlyArray<Store> = [sqliteStore, postgresStore]
