/**
 * An interrupted call of the store runs to its end: on PostgreSQL no `pg_cancel_backend` is sent for it, since that
 * names a connection and may land on the next statement another fiber runs there (CI saw a registration answer 500
 * "canceling statement due to user request" while three replicas settled 200 deposits).
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import {
  Deferred,
  Duration,
  Effect,
  Fiber,
  Layer,
  Logger,
  Option,
  Redacted,
  Schema,
  TestClock,
  TestContext
} from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Db } from "../../src/server/Db"
import { CALL_GRACE, wholeCalls } from "../../src/server/db/store"
import { type FreshStore, postgresStore } from "./stores"

const Waiting = Schema.Array(Schema.Struct({ n: Schema.Number }))

describe.skipIf(postgresStore.skipped !== undefined)("an interrupted call of the store on PostgreSQL", () => {
  let store: FreshStore | undefined
  beforeAll(async () => {
    store = await postgresStore.fresh()
  })
  afterAll(async () => {
    await store?.remove()
  })

  it("finishes its statement, which is not cancelled, before the caller stops; the next statements all succeed", async () => {
    const url = store?.options.databaseUrl ?? ""
    const other = PgClient.layer({ url: Redacted.make(url), maxConnections: 2, applicationName: "hswap-test-lock" })
    await Effect.runPromise(
      Effect.gen(function* () {
        const db = yield* Db
        const sql = yield* SqlClient.SqlClient
        // Another session inserts the key and keeps its transaction open: the store's insert of the same key waits.
        const inserted = yield* Deferred.make<void>()
        const end = yield* Deferred.make<void>()
        const holder = yield* Effect.fork(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO kv (key, value) VALUES ('contended', 'other')`
              yield* Deferred.succeed(inserted, undefined)
              yield* Deferred.await(end)
              // Rolled back: the waiting insert goes ahead once this session ends.
              return yield* Effect.fail("rolled back" as const)
            })
          )
        )
        yield* Deferred.await(inserted)
        const writer = yield* Effect.fork(db.initKv("contended", "store"))
        // How many of the store's statements are on the server, waiting for a lock.
        const waiting = sql`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE application_name = 'hswap-exchange' AND wait_event_type = 'Lock'`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Waiting)),
          Effect.map((rows) => rows[0]?.n ?? 0)
        )
        yield* Effect.repeat(waiting, { until: (n) => n > 0 })
        const interrupting = yield* Effect.fork(Fiber.interrupt(writer))
        // Cancelled, the statement would end within milliseconds, and the interrupt with it. Run to its end, it is
        // still waiting for the lock a second later (a bound on a round trip, not a timing under test).
        expect(yield* Effect.timeoutOption(Fiber.await(interrupting), "1 second")).toEqual(Option.none())
        expect(yield* waiting).toBe(1)
        yield* Deferred.succeed(end, undefined)
        expect(yield* Effect.either(Fiber.join(holder))).toMatchObject({ _tag: "Left", left: "rolled back" })
        const exit = yield* Fiber.join(interrupting)
        expect(exit._tag).toBe("Failure")
        // The statement ran to its end: the store's value is there. Cancelled, the key would hold nothing.
        expect(yield* db.getKv("contended")).toEqual(Option.some("store"))
        // The connection it ran on serves the next statements without a stray cancel.
        for (let i = 0; i < 50; i++) yield* db.getKv("contended")
      }).pipe(Effect.provide(Layer.merge(Layer.fresh(store?.db() ?? Layer.die("no store")), other)), Effect.scoped)
    )
  }, 30_000)
})

describe("the store's calls", () => {
  /** Runs `effect` with the warnings it logs kept, and returns both. */
  const withWarnings = <A>(effect: Effect.Effect<A>) => {
    const warnings: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      if (logLevel._tag === "Warning") warnings.push(String(Array.isArray(message) ? message[0] : message))
    })
    return Effect.map(Effect.provide(effect, Logger.replace(Logger.defaultLogger, logger)), (a) => ({ a, warnings }))
  }
  const shapeOf = (getKv: () => Effect.Effect<unknown>) =>
    wholeCalls({ dialect: "sqlite", getKv } as unknown as Parameters<typeof wholeCalls>[0])

  it("an interrupted caller waits for its call to end", async () => {
    const finished = await Effect.runPromise(
      Effect.gen(function* () {
        const reached = yield* Deferred.make<void>()
        const gate = yield* Deferred.make<void>()
        let done = false
        const shape = shapeOf(() =>
          Effect.zipRight(
            Deferred.succeed(reached, undefined),
            Effect.zipRight(
              Deferred.await(gate),
              Effect.sync(() => void (done = true))
            )
          )
        )
        const call = yield* Effect.fork(shape.getKv("k"))
        yield* Deferred.await(reached)
        const interrupting = yield* Effect.fork(Fiber.interrupt(call))
        yield* Deferred.succeed(gate, undefined)
        const exit = yield* Fiber.join(interrupting)
        return { done, interrupted: exit._tag }
      })
    )
    expect(finished).toEqual({ done: true, interrupted: "Failure" })
  })

  it("a call that fails after its caller was interrupted says so in a warning", async () => {
    const { warnings } = await Effect.runPromise(
      withWarnings(
        Effect.gen(function* () {
          const reached = yield* Deferred.make<void>()
          const gate = yield* Deferred.make<void>()
          const shape = shapeOf(() =>
            Effect.zipRight(
              Deferred.succeed(reached, undefined),
              Effect.zipRight(Deferred.await(gate), Effect.dieMessage("the store broke"))
            )
          )
          const call = yield* Effect.fork(shape.getKv("k"))
          yield* Deferred.await(reached)
          const interrupting = yield* Effect.fork(Fiber.interrupt(call))
          yield* Deferred.succeed(gate, undefined)
          yield* Fiber.join(interrupting)
        })
      )
    )
    expect(warnings).toEqual(["a call of the store whose caller was interrupted failed"])
  })

  it("a call that does not end holds an interrupted caller for CALL_GRACE, no longer, and says so", async () => {
    const { a: seen, warnings } = await Effect.runPromise(
      withWarnings(
        Effect.gen(function* () {
          const reached = yield* Deferred.make<void>()
          const shape = shapeOf(() => Effect.zipRight(Deferred.succeed(reached, undefined), Effect.never))
          const call = yield* Effect.fork(shape.getKv("k"))
          yield* Deferred.await(reached)
          const interrupting = yield* Effect.fork(Fiber.interrupt(call))
          // The caller has begun to wait for the grace.
          while ((yield* TestClock.sleeps()).length === 0) yield* Effect.yieldNow()
          yield* TestClock.adjust(Duration.millis(Duration.toMillis(CALL_GRACE) - 1))
          const before = yield* Fiber.poll(interrupting)
          yield* TestClock.adjust(Duration.millis(1))
          const after = yield* Fiber.join(interrupting)
          return { before: Option.isSome(before), after: after._tag }
        }).pipe(Effect.provide(TestContext.TestContext))
      )
    )
    expect(seen).toEqual({ before: false, after: "Failure" })
    expect(warnings).toEqual(["a call of the store still runs 5s after its caller was interrupted; the caller stops"])
  })
})
