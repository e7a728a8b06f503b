/**
 * The `Db` service on its two stores: SQLite (`@effect/sql-sqlite-node`) and PostgreSQL (`@effect/sql-pg`). Building
 * it brings the schema up to date, then puts the repositories side by side.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect, Layer, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Db, isPostgresUrl } from "../Db"
import { DbDialect, pgDialect, pgTypes, sqliteDialect } from "./dialect"
import { makeAtomicSwaps } from "./atomicSwaps"
import { makeKv } from "./kv"
import { makeLeases } from "./leases"
import { migrate } from "./migrations"
import { makeQuotes } from "./quotes"
import { makeReservations } from "./reservations"
import { makeSwapEvents } from "./swapEvents"
import { makeSwaps } from "./swaps"

export const makeDb = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const dialect = yield* DbDialect
  yield* migrate(sql, dialect)
  return Db.make({
    ...makeSwaps(sql, dialect),
    ...makeSwapEvents(sql),
    ...makeKv(sql),
    ...makeQuotes(sql),
    ...makeReservations(sql, dialect),
    ...makeLeases(sql),
    ...makeAtomicSwaps(sql),
    dialect: dialect.name
  })
})

const layer = Layer.effect(Db, makeDb)

export const DbLive = {
  /** SQLite at `filename` (":memory:" for a throwaway database); the directory is created when missing. */
  sqlite: (filename: string): Layer.Layer<Db> => {
    const client = Layer.unwrapEffect(
      Effect.sync(() => {
        if (filename !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(filename)), { recursive: true })
        return SqliteClient.layer({ filename })
      })
    ).pipe(Layer.orDie)
    return layer.pipe(Layer.provide(Layer.merge(client, Layer.sync(DbDialect, sqliteDialect))))
  },

  /** PostgreSQL at `url` (`postgres://user@host:port/database`), shared by every replica. */
  postgres: (url: string, options: { readonly maxConnections?: number } = {}): Layer.Layer<Db> => {
    const client = PgClient.layer({
      url: Redacted.make(url),
      maxConnections: options.maxConnections ?? 10,
      applicationName: "hswap-exchange",
      types: pgTypes
    }).pipe(Layer.orDie)
    return layer.pipe(Layer.provide(Layer.merge(client, Layer.sync(DbDialect, pgDialect))))
  },

  /** The store a database setting names: a `postgres://` (or `postgresql://`) URL, else a SQLite file. */
  fromSetting: (setting: string): Layer.Layer<Db> =>
    isPostgresUrl(setting) ? DbLive.postgres(setting) : DbLive.sqlite(setting)
} as const
