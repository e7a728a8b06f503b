import { BigDecimal, Cause, Effect, Exit } from "effect"
import { expect, it } from "vitest"
import { Db } from "../../src/server/Db"
import { formatPlain } from "../../src/lib/decimalText"
import { describeOnStores, receivedSwap } from "./stores"

/** A completed swap whose stored `usd_in` is `usdIn`. */
const completed = (txIn: string, usdIn: string) =>
  Effect.gen(function* () {
    const db = yield* Db
    yield* db.insertReceived(receivedSwap(txIn))
    yield* db.transition(txIn, "received", "completed", { usd_in: usdIn })
  })

describeOnStores(
  (store) => `stored amounts on ${store}`,
  ({ exit: run }) => {
    it("the volume reads back exactly; a stored usd_in that is not a decimal is a defect, never a zero", async () => {
      const good = await run(
        Effect.zipRight(
          completed("txid_good", "12.5"),
          Effect.flatMap(Db, (db) => db.totals)
        )
      )
      expect(Exit.isSuccess(good) && good.value.volumes.map(formatPlain)).toEqual(["12.5"])
      expect(Exit.isSuccess(good) && BigDecimal.isBigDecimal(good.value.volumes[0])).toBe(true)

      const corrupt = await run(
        Effect.zipRight(
          completed("txid_corrupt", "twelve"),
          Effect.flatMap(Db, (db) => db.totals)
        )
      )
      expect(Exit.isFailure(corrupt) && Cause.isDie(corrupt.cause)).toBe(true)
    })
  }
)
