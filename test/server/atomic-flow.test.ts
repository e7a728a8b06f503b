import { it } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, Option, TestClock } from "effect"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { LAPSE_GRACE_MS, AtomicLedger, AtomicSwaps, type SubmitResult } from "../../src/server/atomic/AtomicSwaps"
import { atomicSubintentManifest } from "../../src/exchange/atomicManifest"
import { makeServerConfig, ServerConfig, type TokenSpec } from "../../src/server/config"
import { Db } from "../../src/server/Db"
import { Quotes, quotedTerms } from "../../src/server/Quotes"
import { ClaimsLive } from "../../src/server/settlement/claimsLive"
import { SettlementUnavailable } from "../../src/server/settlement/errors"
import { type LedgerOutcome, Payouts } from "../../src/server/settlement/Payouts"
import { makeSigner, Signer } from "../../src/server/Signer"
import { parseLooseDecimal } from "../../src/lib/decimalText"
import { decodeNotarizedTransactionV2, fromHex, subintentId, toHex, verifyNotarizedTransactionV2 } from "../../src/txv2"
import { exchangeAccount, header, HETH, HUSDC, operator, signed, userAccount } from "./atomic-support"
import { type FreshStore, STORES } from "./stores"

const token = (symbol: string, resourceAddress: string, decimals: number): TokenSpec => ({
  symbol,
  name: symbol,
  resourceAddress,
  decimals,
  referenceUsd: "1",
  volatilityBp: 1,
  logoUrl: ""
})

const config = makeServerConfig({
  networkId: 240,
  exchangeAccount,
  tokens: [token("hUSDC", HUSDC, 6), token("hETH", HETH, 18)],
  quoteSecret: "atomic-test-secret"
})

const TERMS = {
  symbolIn: "hUSDC",
  symbolOut: "hETH",
  rate: "0.0003315",
  feeOut: "0.0000315",
  minIn: "1",
  maxIn: "200",
  priceIn: "1",
  priceOut: "3000"
}
const quotedFor100 = quotedTerms("100", { rate: TERMS.rate, fee_out: TERMS.feeOut }, 18)?.quoted ?? ""

/** What the fake ledger saw and decides. */
interface Script {
  /** Outcomes of successive sends; the last one repeats. */
  readonly outcomes: ReadonlyArray<LedgerOutcome>
  readonly submitted: Array<string>
  readonly committedSubintents: Map<string, string>
  readonly balance: string
  /** How many more balance reads fail as the gateway being unavailable (Infinity: every one). */
  balanceFailures: number
  balanceReads: number
}

const script = (outcomes: ReadonlyArray<LedgerOutcome>, balance = "10", balanceFailures = 0): Script => ({
  outcomes,
  submitted: [],
  committedSubintents: new Map(),
  balance,
  balanceFailures,
  balanceReads: 0
})

/** The exchange's balance as the script has it: unavailable while failures remain, then the scripted figure. */
const balanceRead = (s: Script) =>
  Effect.suspend(() => {
    s.balanceReads += 1
    if (s.balanceFailures > 0) {
      s.balanceFailures -= 1
      return Effect.fail(new SettlementUnavailable({ reason: "entity details: the gateway answered 503" }))
    }
    return Effect.succeed(Option.getOrUndefined(parseLooseDecimal(s.balance)))
  })

/** Payouts over the real reservations, with a ledger that answers from the script. */
const fakePayouts = (s: Script) =>
  Layer.effect(
    Payouts,
    Effect.map(Db, (db) =>
      Payouts.of({
        status: () => Effect.succeed("Unknown"),
        awaitCommit: () => Effect.succeed("Unknown"),
        submit: () => Effect.succeed("Submitted"),
        settleStored: () => Effect.succeed("Rejected"),
        send: (t) =>
          Effect.gen(function* () {
            const built = yield* t.build(100)
            const stored = yield* t.store(built)
            if (stored !== true) return { outcome: stored === "short" ? "Short" : "Moved", intent: null } as const
            s.submitted.push(built.notarizedTransactionHex)
            const outcome = s.outcomes[Math.min(s.submitted.length - 1, s.outcomes.length - 1)] ?? "Rejected"
            if (outcome === "CommittedSuccess") {
              const tx = Either.getOrThrow(
                decodeNotarizedTransactionV2(fromHex(built.notarizedTransactionHex) ?? new Uint8Array())
              )
              const verified = Either.getOrThrow(verifyNotarizedTransactionV2(tx))
              expect(verified.nonRootSigners.length).toBe(1)
              const child = tx.signedTransactionIntent.transactionIntent.rootIntentCore.children[0] ?? new Uint8Array()
              s.committedSubintents.set(subintentId(child, 240), built.intentHash)
            }
            return { outcome, intent: built.intentHash } as const
          }),
        transfer: () => () => Effect.die("transfers are not part of the atomic flow"),
        reserve: (key, resource, amount) => db.reserve(key, resource, amount, balanceRead(s)),
        reserveThen: (key, resource, amount, move) => db.reserveThen(key, resource, amount, balanceRead(s), move),
        release: db.release
      })
    )
  )

const fakeLedger = (s: Script) =>
  Layer.succeed(AtomicLedger, {
    currentEpoch: Effect.succeed(100n),
    subintentCommittedBy: (id) => Effect.succeed(Option.fromNullable(s.committedSubintents.get(id)))
  })

const signerLayer = Layer.succeed(
  Signer,
  makeSigner({
    networkId: 240,
    account: exchangeAccount,
    privateKeyHex: Buffer.from(operator.secretKey).toString("hex"),
    feeLockXrd: config.feeLockXrd,
    epochWindow: config.payoutEpochWindow
  })
)

/** The flow over `db` with the scripted ledger. */
const flow = (db: Layer.Layer<Db>, s: Script, replicaId = "replica-a") => {
  const base = Layer.mergeAll(ServerConfig.layer({ ...config, replicaId }), db)
  const services = Layer.mergeAll(Quotes.Default, ClaimsLive, fakePayouts(s), signerLayer, fakeLedger(s)).pipe(
    Layer.provideMerge(base)
  )
  return AtomicSwaps.layer.pipe(Layer.provideMerge(services))
}

/** A pre-authorisation of 100 hUSDC for the quoted hETH, valid until the quote expires (the test clock starts at 0). */
const preAuth = (discriminator = 42n, amountIn = "100", quotedOut = quotedFor100) =>
  signed({
    manifest: atomicSubintentManifest({ fromResource: HUSDC, toResource: HETH, amountIn, quotedOut }, userAccount),
    header: header({
      startEpochInclusive: 100n,
      endEpochExclusive: 110n,
      maxProposerTimestampExclusive: 120n,
      intentDiscriminator: discriminator
    })
  })

const recorded = (r: SubmitResult) => {
  if (r._tag !== "Recorded") throw new Error(`refused: ${r.reason}: ${r.message}`)
  return r.swap
}

/** Advances the test clock while `fiber` runs, letting the store's I/O complete between steps. */
const drive = <A, E>(fiber: Fiber.RuntimeFiber<A, E>) =>
  Effect.gen(function* () {
    for (let i = 0; i < 2000; i++) {
      if (Option.isSome(yield* Fiber.poll(fiber))) break
      yield* TestClock.adjust("500 millis")
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
    }
    return yield* Fiber.join(fiber)
  })

for (const kind of STORES) {
  describe.skipIf(kind.skipped !== undefined)(`the atomic swap flow on ${kind.name}`, () => {
    let store: FreshStore | undefined
    beforeAll(async () => {
      store = await kind.fresh()
    })
    afterAll(async () => {
      await store?.remove()
    })
    const dbLayer = () => (store === undefined ? Layer.die("no store") : store.db())

    it.effect(
      "commits once: one transaction, paying exactly the quoted output; the same subintent again submits nothing",
      () => {
        const s = script(["CommittedSuccess"])
        return Effect.gen(function* () {
          const quotes = yield* Quotes
          const atomic = yield* AtomicSwaps
          const db = yield* Db
          const q = yield* quotes.issue(TERMS)
          const p = preAuth(1n)
          const [first, second] = yield* Effect.all(
            [
              atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: p.hex }),
              atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: p.hex })
            ],
            { concurrency: 2 }
          )
          const swap = recorded(first)
          // The second answers the record: while the swap is under way, or, once it is over, as it then stands.
          expect(second._tag === "Recorded" ? second.swap.subintent_id : second.reason).toBe(swap.subintent_id)
          expect(s.submitted.length).toBe(1)
          expect(swap.state).toBe("committed")
          expect(swap.subintent_id).toBe(p.subintentId)
          expect([swap.amount_in, swap.quoted_out, swap.amount_out]).toEqual(["100", quotedFor100, quotedFor100])
          expect(swap.tx_intent).toBe(s.committedSubintents.get(p.subintentId))
          expect(swap.claimed_by).toBeNull()
          // The parent pays exactly the quoted output and wraps the user's subintent.
          const tx = Either.getOrThrow(decodeNotarizedTransactionV2(fromHex(s.submitted[0] ?? "") ?? new Uint8Array()))
          const root = tx.signedTransactionIntent.transactionIntent.rootIntentCore
          expect(root.instructions.map((i) => i.kind)).toEqual([
            "CallMethod",
            "YieldToChild",
            "CallMethod",
            "TakeFromWorktop",
            "YieldToChild",
            "CallMethod"
          ])
          const take = root.instructions[3]
          expect(take?.kind === "TakeFromWorktop" ? take.amount : "").toBe(quotedFor100)
          expect(subintentId(root.children[0] ?? new Uint8Array(), 240)).toBe(p.subintentId)
          expect(yield* db.reservations).toEqual([])
          expect(Option.map(yield* db.getQuote(q.id), (r) => r.used_by)).toEqual(Option.some(p.subintentId))
          // The very same submission again later (a client that lost the answer): the committed record, never a
          // refusal (its tokens moved); nothing sent.
          const again = yield* atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: p.hex })
          expect(again).toEqual({ _tag: "Recorded", swap })
          expect(s.submitted.length).toBe(1)
        }).pipe(Effect.provide(flow(dbLayer(), s)))
      }
    )

    it.effect("a quote already used by another swap is refused, nothing sent", () => {
      const s = script(["CommittedSuccess"])
      return Effect.gen(function* () {
        const quotes = yield* Quotes
        const atomic = yield* AtomicSwaps
        const q = yield* quotes.issue(TERMS)
        recorded(yield* atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: preAuth(2n).hex }))
        const other = yield* atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: preAuth(3n).hex })
        expect(other._tag === "AtomicRefusal" && other.reason).toBe("quote_used")
        // A quote a deposit claimed is refused too (the compare-and-set inside the claim).
        const q2 = yield* quotes.issue(TERMS)
        expect(yield* quotes.claim(q2.id, "txid_deposit")).toBe(true)
        const p = preAuth(4n)
        const r = yield* atomic.submit({ quoteId: q2.id, amount: "100", signedPartialHex: p.hex })
        expect(r._tag === "AtomicRefusal" && r.reason).toBe("quote_used")
        expect(s.submitted.length).toBe(1)
      }).pipe(Effect.provide(flow(dbLayer(), s)))
    })

    it.effect(
      "refusals of the check, an unknown quote and another amount answer before anything is stored or sent",
      () => {
        const s = script(["CommittedSuccess"])
        return Effect.gen(function* () {
          const quotes = yield* Quotes
          const atomic = yield* AtomicSwaps
          const db = yield* Db
          const q = yield* quotes.issue(TERMS)
          const cheap = preAuth(5n, "100", "0.01")
          const r1 = yield* atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: cheap.hex })
          expect(r1._tag === "AtomicRefusal" && r1.reason).toBe("wrong_assertion")
          const r2 = yield* atomic.submit({
            quoteId: `${q.id.slice(0, -2)}xx`,
            amount: "100",
            signedPartialHex: preAuth(6n).hex
          })
          expect(r2._tag === "AtomicRefusal" && r2.reason).toBe("quote_unknown")
          const r3 = yield* atomic.submit({ quoteId: q.id, amount: "500", signedPartialHex: preAuth(7n, "500").hex })
          expect(r3._tag === "AtomicRefusal" && r3.reason).toBe("quote_amount")
          const r4 = yield* atomic.submit({ quoteId: q.id, amount: "99", signedPartialHex: preAuth(8n).hex })
          expect(r4._tag === "AtomicRefusal" && r4.reason).toBe("wrong_withdrawal")
          expect(Option.isNone(yield* db.getAtomic(cheap.subintentId))).toBe(true)
          expect(Option.map(yield* db.getQuote(q.id), (r) => r.used_by)).toEqual(Option.some(null))
          expect(s.submitted.length).toBe(0)
        }).pipe(Effect.provide(flow(dbLayer(), s)))
      }
    )

    it.effect("low liquidity refuses without sending", () => {
      const s = script(["CommittedSuccess"], "0.001")
      return Effect.gen(function* () {
        const quotes = yield* Quotes
        const atomic = yield* AtomicSwaps
        const q = yield* quotes.issue(TERMS)
        const swap = recorded(yield* atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: preAuth(9n).hex }))
        expect(swap.state).toBe("refused")
        expect(swap.message).toBe("Swap unavailable due to low liquidity. Please wait for rebalancing.")
        expect(s.submitted.length).toBe(0)
      }).pipe(Effect.provide(flow(dbLayer(), s)))
    })

    it.effect("a balance that cannot be read for a moment delays the swap, never refuses it", () => {
      const s = script(["CommittedSuccess"], "10", 3)
      return Effect.gen(function* () {
        const quotes = yield* Quotes
        const atomic = yield* AtomicSwaps
        const db = yield* Db
        const q = yield* quotes.issue(TERMS)
        const p = preAuth(13n)
        const fiber = yield* Effect.fork(atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: p.hex }))
        const swap = recorded(yield* drive(fiber))
        expect(s.balanceReads).toBe(4)
        expect(swap.state).toBe("committed")
        expect(swap.amount_out).toBe(quotedFor100)
        expect(s.submitted.length).toBe(1)
        expect(yield* db.reservations).toEqual([])
      }).pipe(Effect.provide(flow(dbLayer(), s)))
    })

    it.effect("a balance unreadable until the window closes lapses the swap: nothing sent, nothing reserved", () => {
      const s = script(["CommittedSuccess"], "10", Infinity)
      return Effect.gen(function* () {
        const quotes = yield* Quotes
        const atomic = yield* AtomicSwaps
        const db = yield* Db
        const q = yield* quotes.issue(TERMS)
        const p = preAuth(14n)
        const fiber = yield* Effect.fork(atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: p.hex }))
        const swap = recorded(yield* drive(fiber))
        expect(swap.state).toBe("lapsed")
        expect(swap.message).toBe("The pre-authorisation expired before the swap could commit: nothing moved.")
        expect(swap.finalized_ms ?? 0).toBeGreaterThanOrEqual(120_000 + LAPSE_GRACE_MS)
        expect(s.balanceReads).toBeGreaterThan(10)
        expect(s.submitted.length).toBe(0)
        expect(yield* db.reservations).toEqual([])
      }).pipe(Effect.provide(flow(dbLayer(), s)))
    })

    it.effect(
      "a rejected parent is rebuilt with a new discriminator until the window closes, then the swap lapses: nothing paid",
      () => {
        const s = script(["Rejected"])
        return Effect.gen(function* () {
          const quotes = yield* Quotes
          const atomic = yield* AtomicSwaps
          const db = yield* Db
          const q = yield* quotes.issue(TERMS)
          const p = preAuth(10n)
          const fiber = yield* Effect.fork(atomic.submit({ quoteId: q.id, amount: "100", signedPartialHex: p.hex }))
          const swap = recorded(yield* drive(fiber))
          expect(swap.state).toBe("lapsed")
          expect(swap.amount_out).toBeNull()
          expect(swap.message).toBe("The pre-authorisation expired before the swap could commit: nothing moved.")
          expect(swap.finalized_ms ?? 0).toBeGreaterThanOrEqual(120_000 + LAPSE_GRACE_MS)
          expect(s.submitted.length).toBeGreaterThan(10)
          expect(new Set(s.submitted).size).toBe(s.submitted.length)
          expect(swap.attempts).toBe(s.submitted.length)
          expect(s.committedSubintents.size).toBe(0)
          expect(yield* db.reservations).toEqual([])
        }).pipe(Effect.provide(flow(dbLayer(), s)))
      }
    )

    it.effect("a swap whose replica stopped mid-way (its claim expired) is taken over by the next resume", () => {
      const s = script(["CommittedSuccess"])
      return Effect.gen(function* () {
        const quotes = yield* Quotes
        const atomic = yield* AtomicSwaps
        const db = yield* Db
        const q = yield* quotes.issue(TERMS)
        const p = preAuth(12n)
        const key = toHex(p.subintentHash)
        // What a replica that died right after recording the swap leaves: the record under a claim now expired.
        yield* db.insertAtomic(
          {
            subintent_hash: key,
            subintent_id: p.subintentId,
            quote_id: q.id,
            account: userAccount,
            resource_in: HUSDC,
            symbol_in: "hUSDC",
            amount_in: "100",
            resource_out: HETH,
            symbol_out: "hETH",
            quoted_out: quotedFor100,
            partial_hex: p.hex,
            window_end_ms: 120_000
          },
          { token: "replica-gone#1", untilMs: -1 }
        )
        expect(yield* atomic.resumeUnfinished).toBe(1)
        let row = yield* db.getAtomic(key)
        for (let i = 0; i < 200 && Option.exists(row, (r) => r.state === "submitting"); i++) {
          yield* TestClock.adjust("100 millis")
          yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
          row = yield* db.getAtomic(key)
        }
        expect(Option.map(row, (r) => [r.state, r.amount_out, r.claimed_by])).toEqual(
          Option.some(["committed", quotedFor100, null])
        )
        expect(s.submitted.length).toBe(1)
        // Nothing left to take over.
        expect(yield* atomic.resumeUnfinished).toBe(0)
      }).pipe(Effect.provide(flow(dbLayer(), s)))
    })

    it.effect("two replicas given the same pre-authorisation at once submit it once", () => {
      const s = script(["CommittedSuccess"])
      return Effect.gen(function* () {
        const q = yield* Effect.flatMap(Quotes, (quotes) => quotes.issue(TERMS)).pipe(
          Effect.provide(flow(dbLayer(), s))
        )
        const p = preAuth(11n)
        const one = Effect.flatMap(AtomicSwaps, (a) =>
          a.submit({ quoteId: q.id, amount: "100", signedPartialHex: p.hex })
        )
        const results = yield* Effect.all(
          [
            one.pipe(Effect.provide(flow(dbLayer(), s, "replica-a"))),
            one.pipe(Effect.provide(flow(dbLayer(), s, "replica-b")))
          ],
          { concurrency: 2 }
        )
        expect(s.submitted.length).toBe(1)
        // The replica that lost the claim answers the record as it stood (committed, or still submitting), also when
        // it came after the swap was over.
        const states = results.map((r) => (r._tag === "Recorded" ? r.swap.state : r.reason))
        expect(states.includes("committed")).toBe(true)
        expect(states.every((x) => x === "committed" || x === "submitting")).toBe(true)
      })
    })
  })
}
