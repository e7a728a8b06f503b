/**
 * The `Db` service on its two stores: SQLite (`@effect/sql-sqlite-node`) and PostgreSQL (`@effect/sql-pg`). Building
 * it brings the schema up to date, then puts the repositories side by side.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Cause, Duration, Effect, Exit, Fiber, Layer, Option, Redacted } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Db, type DbShape, isPostgresUrl } from "../Db"
import { DbDialect, pgDialect, pgTypes, sqliteDialect } from "./dialect"
import { makeAtomicSwaps } from "./atomicSwaps"
import { makeKv } from "./kv"
import { makeLeases } from "./leases"
import { migrate } from "./migrations"
import { makeQuotes } from "./quotes"
import { makeReservations } from "./reservations"
import { makeSwapEvents } from "./swapEvents"
import { makeSwaps } from "./swaps"

/** How long an interrupted caller waits for its call of the store to end before it stops anyway. */
export const CALL_GRACE = Duration.seconds(5)

/**
 * Each call of the store runs to its end once it has started, and an interrupted caller waits for that end (a
 * statement takes milliseconds; `CALL_GRACE` at most, say on a database gone silent, after which the call is left to
 * end by itself). Interrupting a statement in flight would make @effect/sql-pg cancel it with `pg_cancel_backend`,
 * which names the connection and not the statement: when the statement has just ended and its connection gone back
 * to the pool, the cancel stops whatever another fiber runs on that connection next ("canceling statement due to user
 * request"), and an unrelated request failed with it. A call runs in a fiber of its own, which the caller's
 * interruption does not reach (interruptible within, so that the timeouts of what it runs, such as a reservation's
 * balance read, still work).
 */
export const wholeCalls = (shape: DbShape): DbShape => {
  const whole: Record<string, unknown> = {}
  const run = (call: Effect.Effect<unknown, unknown>) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(Effect.forkDaemon(Effect.interruptible(call)), (fiber) =>
        restore(Fiber.join(fiber)).pipe(
          Effect.onInterrupt(() =>
            // The wait is made interruptible for the timeout to end it: a finalizer runs uninterruptibly. What the
            // call ends with has no caller left to take it: a failure, or a call still running, is logged.
            Effect.timeoutOption(Effect.interruptible(Fiber.await(fiber)), CALL_GRACE).pipe(
              Effect.flatMap(
                Option.match({
                  onNone: () =>
                    Effect.logWarning(
                      `a call of the store still runs ${Duration.format(CALL_GRACE)} after its caller was interrupted; the caller stops`
                    ),
                  onSome: (exit) =>
                    Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)
                      ? Effect.logWarning("a call of the store whose caller was interrupted failed", exit.cause)
                      : Effect.void
                })
              )
            )
          )
        )
      )
    )
  for (const [name, member] of Object.entries(shape)) {
    whole[name] =
      typeof member === "function"
        ? (...args: Array<unknown>) =>
            run(Effect.suspend(() => (member as (...a: Array<unknown>) => Effect.Effect<unknown, unknown>)(...args)))
        : Effect.isEffect(member)
          ? run(member as Effect.Effect<unknown, unknown>)
          : member
  }
  return whole as unknown as DbShape
}

export const makeDb = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const dialect = yield* DbDialect
  yield* migrate(sql, dialect)
  return wholeCalls({
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
      // A connection that cannot be made fails the call in time, rather than holding it (and a stop) for good.
      connectTimeout: Duration.seconds(5),
      types: pgTypes
    }).pipe(Layer.orDie)
    return layer.pipe(Layer.provide(Layer.merge(client, Layer.sync(DbDialect, pgDialect))))
  },

  /** The store a database setting names: a `postgres://` (or `postgresql://`) URL, else a SQLite file. */
  fromSetting: (setting: string): Layer.Layer<Db> =>
    isPostgresUrl(setting) ? DbLive.postgres(setting) : DbLive.sqlite(setting)
} as const
