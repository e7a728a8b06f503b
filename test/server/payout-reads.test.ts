/**
 * A new payout's status reads follow how fast the ledger commits: the first read waits for most of the time the
 * last payouts took, so a ledger that commits in seconds is read once or twice a payout instead of every 500 ms from
 * the submit, and a ledger that commits as it is submitted (the devnet) is read once, at once. On the TestClock.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Fiber, Layer, TestClock } from "effect"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Gateway } from "../../src/gateway/index"
import type { GatewayService } from "../../src/gateway/service"
import { makeServerConfig, ServerConfig } from "../../src/server/config"
import { Db, type DbShape } from "../../src/server/Db"
import { Signer, type SignerShape } from "../../src/server/Signer"
import { FIRST_READ_MAX, makePayouts, STATUS_POLL } from "../../src/server/settlement/payoutsLive"

/**
 * A ledger that commits each transaction `commitMs()` after its submit (read when the transaction is submitted).
 * Every status read is recorded with its time after the submit.
 */
const ledger = (commitMs: () => number) => {
  const submitted = new Map<string, { readonly at: number; readonly commitsAfter: number }>()
  const reads: Array<{ readonly intent: string; readonly after: number }> = []
  const gateway = {
    transaction: {
      construction: () => Effect.succeed({ ledger_state: { epoch: 7 } }),
      submit: (hex: string) =>
        Effect.map(Clock.currentTimeMillis, (at) => {
          submitted.set(hex, { at, commitsAfter: commitMs() })
          return { duplicate: false }
        }),
      status: (intent: string) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const tx = submitted.get(intent)
          if (tx === undefined) return { intent_status: "Unknown" }
          const after = now - tx.at
          reads.push({ intent, after })
          return { intent_status: after >= tx.commitsAfter ? "CommittedSuccess" : "Pending" }
        })
    }
  } as unknown as GatewayService
  return { gateway, reads }
}

const layerOver = (gateway: GatewayService) =>
  Layer.mergeAll(
    ServerConfig.layer(makeServerConfig({ networkId: 240, exchangeAccount: DevnetAddresses.exchangeAccount })),
    Layer.succeed(Gateway, gateway),
    // Payouts reads neither the store nor the signer on this path: the transaction is built and stored below.
    Layer.succeed(Db, {} as DbShape),
    Layer.succeed(Signer, {} as SignerShape)
  )

/** Sends payouts `from` to `from + count - 1` one after another, each to its end; their outcomes. */
const sendAll = (payouts: Effect.Effect.Success<typeof makePayouts>, count: number, from = 0) =>
  Effect.gen(function* () {
    const outcomes: Array<string> = []
    for (let i = from; i < from + count; i++) {
      const intent = `txid_payout_${i}`
      const fiber = yield* Effect.fork(
        payouts.send({
          build: () => Effect.succeed({ intentHash: intent, notarizedTransactionHex: intent }),
          store: () => Effect.succeed(true)
        })
      )
      yield* TestClock.adjust("40 seconds")
      outcomes.push((yield* Fiber.join(fiber)).outcome)
    }
    return outcomes
  })

const readsOf = (reads: ReadonlyArray<{ readonly intent: string; readonly after: number }>, i: number) =>
  reads.filter((r) => r.intent === `txid_payout_${i}`).map((r) => r.after)

describe("a payout's status reads", () => {
  it.effect(
    "a ledger that commits in 2 s: every 500 ms at first, then a read or two a payout, the first after most of the 2 s",
    () => {
      const { gateway, reads } = ledger(() => 2_000)
      return Effect.gen(function* () {
        const outcomes = yield* sendAll(yield* makePayouts, 12)
        expect(outcomes).toEqual(Array.from({ length: 12 }, () => "CommittedSuccess"))
        expect(readsOf(reads, 0)).toEqual([0, 500, 1_000, 1_500, 2_000])
        for (let i = 7; i < 12; i++) {
          const mine = readsOf(reads, i)
          expect(mine).toHaveLength(2)
          // The first read comes a little before the ledger's 2 s, the next one finds the payout committed.
          expect(mine[0]).toBeGreaterThanOrEqual(1_400)
          expect(mine[0]).toBeLessThan(2_000)
          expect(mine[1]).toBe((mine[0] ?? 0) + Duration.toMillis(STATUS_POLL))
        }
        // 12 payouts read every 500 ms from the submit would have taken 60 reads.
        expect(reads.length).toBeLessThanOrEqual(40)
      }).pipe(Effect.provide(layerOver(gateway)))
    }
  )

  it.effect("a ledger that commits as it is submitted: one read a payout, at once", () => {
    const { gateway, reads } = ledger(() => 0)
    return Effect.gen(function* () {
      yield* sendAll(yield* makePayouts, 20)
      expect(reads.map((r) => r.after)).toEqual(Array.from({ length: 20 }, () => 0))
    }).pipe(Effect.provide(layerOver(gateway)))
  })

  it.effect(
    "a ledger that becomes fast again: the first read comes earlier with each payout, until it is at once",
    () => {
      let commit = 2_000
      const { gateway, reads } = ledger(() => commit)
      return Effect.gen(function* () {
        const payouts = yield* makePayouts
        yield* sendAll(payouts, 10)
        commit = 0
        const before = reads.length
        yield* sendAll(payouts, 80, 10)
        const fast = reads.slice(before).map((r) => r.after)
        // One read each (found committed at once), each no later than the one before, and at once in the end.
        expect(fast).toHaveLength(80)
        for (let i = 1; i < fast.length; i++) expect(fast[i]).toBeLessThanOrEqual(fast[i - 1] ?? 0)
        expect(fast[0]).toBeGreaterThan(1_000)
        expect(fast.slice(-5)).toEqual([0, 0, 0, 0, 0])
      }).pipe(Effect.provide(layerOver(gateway)))
    }
  )

  it.effect("a ledger that takes 20 s: the first read never waits more than FIRST_READ_MAX", () => {
    const { gateway, reads } = ledger(() => 20_000)
    return Effect.gen(function* () {
      const outcomes = yield* sendAll(yield* makePayouts, 15)
      expect(outcomes).toEqual(Array.from({ length: 15 }, () => "CommittedSuccess"))
      const firsts = Array.from({ length: 15 }, (_, i) => readsOf(reads, i)[0] ?? NaN)
      expect(firsts[0]).toBe(0)
      expect(Math.max(...firsts)).toBe(Duration.toMillis(FIRST_READ_MAX))
    }).pipe(Effect.provide(layerOver(gateway)))
  })
})
