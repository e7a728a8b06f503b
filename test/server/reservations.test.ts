import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { BigDecimal, Effect, Option, Redacted, Schema, TestClock, TestContext } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Db } from "../../src/server/Db"
import { BALANCE_REUSE, type Reserving } from "../../src/server/db/reservations"
import { describeOnStores, type FreshStore, postgresStore, receivedSwap } from "./stores"

const { hETH, hBTC } = DevnetAddresses.resources
const dec = BigDecimal.unsafeFromString
const balance = (text: string | undefined) => Effect.succeed(text === undefined ? undefined : dec(text))

describeOnStores(
  (store) => `liquidity reservations on ${store}`,
  ({ run }) => {
    it("reserves what the balance minus the others' reservations covers, keeps a key's own, frees on release", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          expect(yield* db.reserve("a", hETH, dec("6"), balance("10"))).toBe(true)
          expect(yield* db.reserve("b", hETH, dec("5"), balance("10"))).toBe(false)
          expect(yield* db.reserve("b", hETH, dec("4"), balance("10"))).toBe(true)
          // A key that holds a reservation keeps it, whatever the balance says now, and is not counted twice.
          expect(yield* db.reserve("a", hETH, dec("6"), balance("0"))).toBe(true)
          expect((yield* db.reservations).filter((r) => r.tx_in === "a")).toEqual([{ tx_in: "a", amount: "6" }])
          // Another resource is counted apart; no vault at all is a balance of zero.
          expect(yield* db.reserve("c", hBTC, dec("0.5"), balance("0.5"))).toBe(true)
          expect(yield* db.reserve("d", hBTC, dec("0.000001"), balance(undefined))).toBe(false)
          yield* db.release("a")
          yield* db.release("a")
          // a's payout committed: the balance is 4 now, b still holds 4.
          expect(yield* db.reserve("e", hETH, dec("0.1"), balance("4"))).toBe(false)
          expect(yield* db.reserve("e", hETH, dec("0.1"), balance("4.1"))).toBe(true)
          yield* db.release("b")
          yield* db.release("c")
          yield* db.release("e")
          expect(yield* db.reservations).toEqual([])
        })
      )
    })

    it("a payout released while the balance is read (the read from before its commit) is still counted", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          expect(yield* db.reserve("p", hETH, dec("6"), balance("10"))).toBe(true)
          // p's payout commits and its reservation goes while q's balance read is on its way: the read still shows
          // the 10 from before the commit. Only 4 are free, so 5 cannot be reserved.
          const staleRead = Effect.zipRight(db.release("p"), balance("10"))
          expect(yield* db.reserve("q", hETH, dec("5"), staleRead)).toBe(false)
          expect(yield* db.reserve("q", hETH, dec("4"), balance("4"))).toBe(true)
          yield* db.release("q")
        })
      )
    })

    it("reserves and moves a swap in one write: short moves nothing, a held key keeps its own, a moved swap keeps it", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          for (const tx of ["m1", "m2", "m3"]) yield* db.insertReceived(receivedSwap(tx), { token: tx, untilMs: 1e15 })
          const toPaying = (tx: string, claim: string) => (reserving: Reserving | undefined) =>
            db.transition(
              tx,
              "received",
              "paying",
              { amount_out: "6", resource_out: hETH },
              "pay",
              claim,
              false,
              reserving
            )
          const state = (tx: string) =>
            Effect.map(
              db.get(tx),
              Option.map((r) => r.state)
            )

          // 6 of 5: nothing reserved, the swap stays received (and a fresh read is made before saying so).
          expect(yield* db.reserveThen("m1", hETH, dec("6"), balance("5"), toPaying("m1", "m1"))).toBe("short")
          expect(yield* state("m1")).toEqual(Option.some("received"))
          expect(yield* db.reservations).toEqual([])
          // Covered: the reservation and the move, together.
          const moved = yield* db.reserveThen("m1", hETH, dec("6"), balance("10"), toPaying("m1", "m1"))
          expect(moved !== "short" && Option.map(moved, (r) => r.state)).toEqual(Option.some("paying"))
          expect(yield* db.reservations).toEqual([{ tx_in: "m1", amount: "6" }])
          // m2 holds a reservation from before (a replica stopped between SQLite's two writes): it moves on it,
          // whatever the balance says now, and is not counted twice.
          expect(yield* db.reserve("m2", hETH, dec("4"), balance("10"))).toBe(true)
          const kept = yield* db.reserveThen("m2", hETH, dec("4"), balance("0"), toPaying("m2", "m2"))
          expect(kept !== "short" && Option.map(kept, (r) => r.state)).toEqual(Option.some("paying"))
          expect((yield* db.reservations).filter((r) => r.tx_in === "m2")).toEqual([{ tx_in: "m2", amount: "4" }])
          // m3 was taken over by another claim: not moved; the reservation it took stays with the key, for the
          // claim that holds the swap now (as a separate reserve would leave it).
          const lost = yield* db.reserveThen("m3", hETH, dec("1"), balance("20"), toPaying("m3", "not-the-holder"))
          expect(lost).toEqual(Option.none())
          expect(yield* state("m3")).toEqual(Option.some("received"))
          expect((yield* db.reservations).map((r) => r.tx_in).sort()).toEqual(["m1", "m2", "m3"])
          for (const tx of ["m1", "m2", "m3"]) yield* db.release(tx)
          const events = yield* db.events("m1")
          expect(events.map((e) => e.state)).toEqual(["received", "paying"])
        })
      )
    })

    it("twenty payouts at once over a balance of ten: exactly ten are reserved", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          const answers = yield* Effect.all(
            Array.from({ length: 20 }, (_, i) => db.reserve(`k${i}`, hBTC, dec("1"), balance("10"))),
            { concurrency: "unbounded" }
          )
          expect(answers.filter((ok) => ok)).toHaveLength(10)
          expect(yield* db.reservations).toHaveLength(10)
          for (let i = 0; i < 20; i++) yield* db.release(`k${i}`)
          expect(yield* db.reservations).toEqual([])
        })
      )
    })
  }
)

describe.skipIf(postgresStore.skipped !== undefined)("PostgreSQL's running count of liquidity", () => {
  let store: FreshStore | undefined
  beforeAll(async () => {
    store = await postgresStore.fresh()
  })
  afterAll(async () => {
    await store?.remove()
  })

  it("always equals the reservations held, through reserves and releases, to the last decimal", async () => {
    const layer = store?.db()
    const url = store?.options.databaseUrl
    if (layer === undefined || url === undefined) throw new Error("no store")
    const counts = () =>
      Effect.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) =>
            sql`SELECT resource, reserved::text AS reserved, released::text AS released FROM liquidity ORDER BY resource`
        ).pipe(
          Effect.flatMap(
            Schema.decodeUnknown(
              Schema.Array(Schema.Struct({ resource: Schema.String, reserved: Schema.String, released: Schema.String }))
            )
          ),
          Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
          Effect.scoped
        )
      )
    const onDb = <A>(effect: Effect.Effect<A, never, Db>) => Effect.runPromise(Effect.provide(effect, layer))
    await onDb(
      Effect.gen(function* () {
        const db = yield* Db
        yield* db.reserve("x", hETH, dec("1.25"), balance("10"))
        yield* db.reserve("y", hETH, dec("0.000000000000000001"), balance("10"))
        yield* db.reserve("z", hETH, dec("100"), balance("10"))
      })
    )
    expect(await counts()).toEqual([{ resource: hETH, reserved: "1.250000000000000001", released: "0" }])
    await onDb(
      Effect.gen(function* () {
        const db = yield* Db
        yield* db.release("x")
        yield* db.release("nobody")
      })
    )
    expect(await counts()).toEqual([{ resource: hETH, reserved: "0.000000000000000001", released: "1.25" }])
    // A payout's last move drops its reservation in the same write, and gives it back to the count.
    await onDb(
      Effect.gen(function* () {
        const db = yield* Db
        yield* db.insertReceived(receivedSwap("txid_paid"))
        yield* db.transition("txid_paid", "received", "paying", { amount_out: "2", resource_out: hETH })
        expect(yield* db.reserve("txid_paid", hETH, dec("2"), balance("10"))).toBe(true)
        yield* db.transition("txid_paid", "paying", "completed", { finalized_ms: 1 }, null, null, true)
      })
    )
    expect(await counts()).toEqual([{ resource: hETH, reserved: "0.000000000000000001", released: "3.25" }])
  })

  it("reuses a balance read for BALANCE_REUSE, and reads afresh when it is older or does not cover a payout", async () => {
    const layer = store?.db()
    if (layer === undefined) throw new Error("no store")
    let reads = 0
    const balanceOf = (text: string) => Effect.sync(() => (reads++, dec(text)))
    await Effect.runPromise(
      Effect.gen(function* () {
        const db = yield* Db
        expect(yield* db.reserve("r1", hBTC, dec("1"), balanceOf("10"))).toBe(true)
        expect(yield* db.reserve("r2", hBTC, dec("1"), balanceOf("10"))).toBe(true)
        expect(reads).toBe(1)
        yield* TestClock.adjust(BALANCE_REUSE)
        expect(yield* db.reserve("r3", hBTC, dec("1"), balanceOf("10"))).toBe(true)
        expect(reads).toBe(2)
        // The read says 10 and 3 are reserved: 7 fit without a read; 8 do not, and a fresh read is made at once
        // (deposits came in: 11).
        expect(yield* db.reserve("r4", hBTC, dec("7"), balanceOf("10"))).toBe(true)
        expect(reads).toBe(2)
        // r4's payout is given up (nothing left the account); what it released is counted against the kept read.
        yield* db.release("r4")
        expect(yield* db.reserve("r5", hBTC, dec("8"), balanceOf("11"))).toBe(true)
        expect(reads).toBe(3)
        // r5's payout commits and its reservation goes: the kept read (11, from before the payout) still counts it,
        // so nothing fits in that read; the fresh one says 3 (11 - 8), of which 3 are reserved.
        yield* db.release("r5")
        expect(yield* db.reserve("r6", hBTC, dec("0.5"), balanceOf("3"))).toBe(false)
        expect(reads).toBe(4)
        // 0.5 deposited since: the kept read of 3 does not cover it, a fresh one does.
        expect(yield* db.reserve("r6", hBTC, dec("0.5"), balanceOf("3.5"))).toBe(true)
        expect(reads).toBe(5)
      }).pipe(Effect.provide(layer), Effect.provide(TestContext.TestContext))
    )
  })
})
