import { BigDecimal, Effect, Option } from "effect"
import { expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Db } from "../../src/server/Db"
import { describeOnStores, receivedSwap } from "./stores"

const { hETH } = DevnetAddresses.resources

/** A swap in `paying` holding a reservation of 2 hETH (the balance read says 10). */
const paying = (txIn: string) =>
  Effect.gen(function* () {
    const db = yield* Db
    yield* db.insertReceived(receivedSwap(txIn))
    yield* db.transition(txIn, "received", "paying", { resource_out: hETH, symbol_out: "hETH", amount_out: "2" })
    const reserved = yield* db.reserve(
      txIn,
      hETH,
      BigDecimal.unsafeFromString("2"),
      Effect.succeed(BigDecimal.unsafeFromString("10"))
    )
    expect(reserved).toBe(true)
  })

const reservedBy = (txIn: string) =>
  Effect.map(
    Effect.flatMap(Db, (db) => db.reservations),
    (rows) => rows.filter((r) => r.tx_in === txIn)
  )

describeOnStores(
  (store) => `a payout's last move drops its reservation on ${store}`,
  ({ run }) => {
    it("paying -> completed with releaseReservation: one write moves the swap, logs it and drops the reservation", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          yield* paying("txid_done")
          expect(yield* reservedBy("txid_done")).toHaveLength(1)
          const moved = yield* db.transition(
            "txid_done",
            "paying",
            "completed",
            { finalized_ms: 5 },
            "payout",
            null,
            true
          )
          expect(Option.map(moved, (r) => r.state)).toEqual(Option.some("completed"))
          expect(yield* reservedBy("txid_done")).toEqual([])
          const events = yield* db.events("txid_done")
          expect(events.map((e) => e.state)).toEqual(["received", "paying", "completed"])
        })
      )
    })

    it("the reservation goes even when another writer moved the swap first (its outcome is known either way)", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          yield* paying("txid_raced")
          const moved = yield* db.transition("txid_raced", "received", "failed", {}, null, null, true)
          expect(Option.isNone(moved)).toBe(true)
          expect(yield* reservedBy("txid_raced")).toEqual([])
          expect(Option.map(yield* db.get("txid_raced"), (r) => r.state)).toEqual(Option.some("paying"))
        })
      )
    })

    it("a move without it keeps the reservation (the payout is still in flight)", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          yield* paying("txid_kept")
          yield* db.transition("txid_kept", "paying", "paying", { payout_intent: "txid_x", payout_hex: "00" })
          expect(yield* reservedBy("txid_kept")).toHaveLength(1)
        })
      )
    })
  }
)
