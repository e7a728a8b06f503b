import { BigDecimal, Cause, Effect, Exit, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Db } from "../../src/server/Db"
import { formatPlain } from "../../src/lib/decimalText"
import { type FreshStore, STORES } from "./stores"

const { hUSDC } = DevnetAddresses.resources

/** A completed swap whose stored `usd_in` is `usdIn`. */
const completed = (txIn: string, usdIn: string) =>
  Effect.gen(function* () {
    const db = yield* Db
    yield* db.insertReceived({
      tx_in: txIn,
      sender: DevnetAddresses.users[0] ?? "",
      resource_in: hUSDC,
      symbol_in: "hUSDC",
      amount_in: "10",
      route_text: "hUSDC -> hETH",
      state_version_in: 1,
      quote_id: null,
      committed_ms: 0
    })
    yield* db.transition(txIn, "received", "completed", { usd_in: usdIn })
  })

for (const kind of STORES) {
  describe.skipIf(kind.skipped !== undefined)(`stored amounts on ${kind.name}`, () => {
    let store: FreshStore | undefined
    beforeAll(async () => {
      store = await kind.fresh()
    })
    afterAll(async () => {
      await store?.remove()
    })
    const run = <A, E>(effect: Effect.Effect<A, E, Db>) =>
      Effect.runPromiseExit(Effect.provide(effect, Layer.fresh(store?.db() ?? Layer.die("no store"))))

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
  })
}
