import { Effect, Fiber, Layer, TestClock, TestContext } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { ServerConfig, makeServerConfig } from "../../src/server/config"
import { Db } from "../../src/server/Db"
import { MAINTENANCE_KEY, MAINTENANCE_REFRESH, Maintenance } from "../../src/server/Limits"
import { type FreshStore, postgresStore } from "./stores"

describe.skipIf(postgresStore.skipped !== undefined)("the shared maintenance flag on PostgreSQL", () => {
  let store: FreshStore | undefined
  beforeAll(async () => {
    store = await postgresStore.fresh()
  })
  afterAll(async () => {
    await store?.remove()
  })

  /** Maintenance over the store, counting the flag's reads; `other` is a second replica's view of the same store. */
  const run = <A>(body: (reads: () => number) => Effect.Effect<A, never, Maintenance | Db>) =>
    Effect.gen(function* () {
      let reads = 0
      const counted = Layer.effect(
        Db,
        Effect.map(Db, (db) =>
          Db.make({
            ...db,
            getKv: (key) =>
              Effect.zipRight(
                Effect.sync(() => void reads++),
                db.getKv(key)
              )
          })
        )
      ).pipe(Layer.provide(Layer.fresh(store?.db() ?? Layer.die("no store"))))
      const config = ServerConfig.layer(
        makeServerConfig({ networkId: 240, exchangeAccount: DevnetAddresses.exchangeAccount })
      )
      return yield* body(() => reads).pipe(
        Effect.provide(Maintenance.Default.pipe(Layer.provideMerge(counted), Layer.provide(config)))
      )
    }).pipe(Effect.provide(TestContext.TestContext), Effect.runPromise)

  it("requests asking at once share one read; the next comes after MAINTENANCE_REFRESH", async () => {
    await run((reads) =>
      Effect.gen(function* () {
        const maintenance = yield* Maintenance
        const answers = yield* Effect.all(
          Array.from({ length: 50 }, () => maintenance.enabled),
          {
            concurrency: "unbounded"
          }
        )
        expect(answers.every((on) => !on)).toBe(true)
        expect(reads()).toBe(1)
        // Another replica turns maintenance on: seen here once the refresh time has passed, not before.
        const db = yield* Db
        yield* db.setKv(MAINTENANCE_KEY, "1")
        expect(yield* maintenance.enabled).toBe(false)
        yield* TestClock.adjust(MAINTENANCE_REFRESH)
        const later = yield* Effect.fork(
          Effect.all(
            Array.from({ length: 20 }, () => maintenance.enabled),
            { concurrency: "unbounded" }
          )
        )
        expect((yield* Fiber.join(later)).every((on) => on)).toBe(true)
        expect(reads()).toBe(2)
        // This replica's own toggle holds at once.
        yield* maintenance.set(false)
        expect(yield* maintenance.enabled).toBe(false)
      })
    )
  })
})
