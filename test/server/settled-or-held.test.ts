import { Effect } from "effect"
import { expect, it } from "vitest"
import { Db } from "../../src/server/Db"
import { describeOnStores, receivedSwap } from "./stores"

describeOnStores(
  (store) => `the watcher's one read of a page's deposits on ${store}`,
  ({ run }) => {
    it("names the final and the live-claimed, not the unknown, the unclaimed or the expired", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          yield* db.insertReceived(receivedSwap("txid_done"))
          yield* db.transition("txid_done", "received", "failed", { message: "x" })
          yield* db.transition("txid_done", "failed", "refunded", { finalized_ms: 1 })
          yield* db.insertReceived(receivedSwap("txid_live"), { token: "r1#1", untilMs: 2_000 })
          yield* db.insertReceived(receivedSwap("txid_expired"), { token: "r2#1", untilMs: 999 })
          yield* db.insertReceived(receivedSwap("txid_free"))
          const now = 1_000
          const held = yield* db.settledOrHeld(
            ["txid_done", "txid_live", "txid_expired", "txid_free", "txid_unknown"],
            now
          )
          expect([...held].sort()).toEqual(["txid_done", "txid_live"])
          // Once the live claim has expired, its swap is the watcher's to take over.
          expect([...(yield* db.settledOrHeld(["txid_live"], 2_001))]).toEqual([])
          expect((yield* db.settledOrHeld([], now)).size).toBe(0)
        })
      )
    })

    it("reads a page of a hundred hashes at once", async () => {
      await run(
        Effect.gen(function* () {
          const db = yield* Db
          const hashes = Array.from({ length: 100 }, (_, i) => `txid_page${i}`)
          for (const h of hashes.slice(0, 50)) yield* db.insertReceived(receivedSwap(h), { token: "r#1", untilMs: 10 })
          expect((yield* db.settledOrHeld(hashes, 5)).size).toBe(50)
        })
      )
    })
  }
)
