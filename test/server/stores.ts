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
import { Effect, type Exit, Layer, Redacted } from "effect"
import { afterAll, beforeAll, describe } from "vitest"
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { type Db, DbLive, type ExchangeServerOptions } from "../../src/server/index"
import type { NewSwap } from "../../src/server/Db"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
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

/** A deposit of 10 hUSDC for hETH from the first devnet user, as settlement records it when first seen. */
export const receivedSwap = (txIn: string, quoteId: string | null = null): NewSwap => ({
  tx_in: txIn,
  sender: DevnetAddresses.users[0] ?? "",
  resource_in: DevnetAddresses.resources.hUSDC,
  symbol_in: "hUSDC",
  amount_in: "10",
  route_text: "hUSDC -> hETH",
  state_version_in: 1,
  quote_id: quoteId,
  committed_ms: 0
})

/** Runs effects that need `Db` on one suite's store: `run` fails as the effect does, `exit` answers its Exit. */
export interface OnStore {
  readonly run: <A, E>(effect: Effect.Effect<A, E, Db>) => Promise<A>
  readonly exit: <A, E>(effect: Effect.Effect<A, E, Db>) => Promise<Exit.Exit<A, E>>
}

/** One `describe` per store (PostgreSQL's skipped when it cannot be reached), each on a fresh store of its own. */
export const describeOnStores = (title: (store: string) => string, body: (on: OnStore) => void): void => {
  for (const kind of STORES) {
    describe.skipIf(kind.skipped !== undefined)(title(kind.name), () => {
      let store: FreshStore | undefined
      beforeAll(async () => {
        store = await kind.fresh()
      })
      afterAll(async () => {
        await store?.remove()
      })
      const provided = <A, E>(effect: Effect.Effect<A, E, Db>) =>
        Effect.provide(effect, Layer.fresh(store?.db() ?? Layer.die("no store")))
      body({
        run: (effect) => Effect.runPromise(provided(effect)),
        exit: (effect) => Effect.runPromiseExit(provided(effect))
      })
    })
  }
}
