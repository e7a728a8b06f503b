/**
 * `AtomicSwaps`: the atomic swap's server flow. The user pre-authorises "take exactly X of my FROM; I must get back at
 * least the quoted Y of TO" (a signed subintent, see `check.ts` for the one shape accepted); the exchange adds its leg
 * in a parent transaction and the ledger commits both or neither.
 *
 * `submit({ quoteId, amount, signedPartialHex })`:
 * 0. the very payload of a swap already over (the same bytes, the same quote: a client that lost the answer) gets
 *    that swap's record as it stands, before any other check;
 * 1. the quote is ours, known, for a listed pair, and `amount` lies within its limits; its terms give the quoted
 *    output (`quotedTerms`, rounded down to the TO divisibility);
 * 2. `checkPreAuthorization` against those terms, the current epoch and now (a refusal: nothing stored, nothing sent);
 *    another submission of a subintent whose swap is already over (committed, lapsed or refused here), or one that
 *    the ledger already committed in another transaction, is refused as `subintent_used`;
 * 3. the swap's record is keyed by the subintent hash and worked on exactly once across replicas (`Claims.run`): a
 *    second submission of the same subintent while its swap is under way answers the existing record;
 * 4. under the claim: the quote is claimed for this subintent (compare-and-set; held by another swap or deposit:
 *    refused), liquidity for the quoted output is reserved (`Payouts.reserve`, keyed by the subintent hash; a balance
 *    that cannot be read is tried again while the window is open, too little liquidity refuses);
 * 5. the parent intent is built and notarized by the operator (`Signer.notarizeV2`): lock the fee on the exchange
 *    account, YIELD_TO_CHILD (the child withdraws and yields its bucket back), withdraw exactly the quoted output of
 *    TO, YIELD_TO_CHILD with that bucket (the child asserts it and deposits it), deposit the worktop (the user's FROM)
 *    into the exchange account. It is stored, then submitted and followed (`Payouts.send`), and the subintent's own
 *    status (`/transaction/subintent-status`) is asked before every attempt: whichever transaction committed it;
 * 6. a rejected or failed parent is rebuilt with a new intent discriminator while the subintent's window is open;
 *    once it closed (plus `LAPSE_GRACE_MS` for the ledger's clock) and the subintent is not committed, the swap
 *    lapses: the user's tokens never moved, the reservation is dropped, the quote stays spent.
 *
 * The record: one transaction (`tx_intent`), what was quoted (`quoted_out`) and paid (`amount_out`, equal once
 * committed), states submitting → committed | lapsed | refused.
 *
 * `submit` works in the caller's fiber to the end; `submitAndWait` (the endpoint's) runs the work in the service's
 * scope, so it goes on when the caller leaves, and answers after at most `atomicWait` with the record as it then
 * stands. `resumeUnfinished` (the watcher's pass) takes over swaps whose replica stopped or died mid-way, once their
 * claim has expired; `stop` interrupts the work in progress, which releases its claims for another replica.
 * `get(subintentHash)` reads one record.
 */
import {
  Clock,
  Context,
  Deferred,
  Duration,
  Effect,
  Either,
  ExecutionStrategy,
  Exit,
  Fiber,
  Layer,
  Option,
  Scope
} from "effect"
import { randomBytes } from "node:crypto"
import { parseLooseDecimal } from "../../lib/decimalText"
import { Gateway } from "../../gateway/index"
import {
  compileManifest,
  DECIMAL,
  decodeSignedPartialTransactionV2,
  fromHex,
  parseFixed,
  toHex
} from "../../txv2/index"
import { ServerConfig } from "../config"
import { Db } from "../Db"
import { type AtomicSwapRow, ATOMIC_FINAL_STATES, type AtomicChanges, type NewAtomicSwap } from "../db/atomicSwaps"
import { Quotes, quotedTerms } from "../Quotes"
import { Claims, type ClaimTable } from "../settlement/Claims"
import { LOW_LIQUIDITY, type SettlementUnavailable, unavailable } from "../settlement/errors"
import { Payouts } from "../settlement/Payouts"
import { Signer, type SignedTransaction } from "../Signer"
import {
  type AtomicAccepted,
  type AtomicRefusal,
  checkPreAuthorization,
  payloadSubintent,
  type RefusalReason
} from "./check"

/** After the window's end, the ledger's clock is given this long before the swap is called lapsed. */
export const LAPSE_GRACE_MS = 10_000

/** Pause between attempts (after a transient failure or an outcome not known yet). */
export const RETRY_PAUSE = Duration.seconds(1)

export const ATOMIC_QUOTE_UNKNOWN = "The quote is not valid: it was altered, or not issued by this exchange."
export const ATOMIC_QUOTE_USED = "The quote was already used by another swap; a quote binds one swap only."
export const ATOMIC_LAPSED = "The pre-authorisation expired before the swap could commit: nothing moved."
export const ATOMIC_COMMITTED_ELSEWHERE =
  "The pre-authorisation was already used: the ledger committed it in another transaction. Nothing more moves; sign a new one for another swap."

/** Why a subintent whose swap is over here cannot be submitted again: what became of it. */
export const atomicReplayed = (row: Pick<AtomicSwapRow, "state" | "tx_intent" | "message">): string => {
  switch (row.state) {
    case "committed":
      return `The pre-authorisation was already used: its swap committed in ${row.tx_intent ?? "a transaction"}. Sign a new one for another swap.`
    case "lapsed":
      return "The pre-authorisation already lapsed: its window closed and nothing moved. Get a fresh quote and sign again."
    default:
      return `The pre-authorisation was already refused${row.message === null ? "" : `: ${row.message}`} Get a fresh quote and sign again.`
  }
}

/** How long an epoch read is reused for the checks (an epoch lasts minutes; a refusal on it reads it afresh). */
export const CHECK_EPOCH_REUSE = Duration.seconds(10)

/** The ledger reads the flow needs beyond `Payouts`: the current epoch and a subintent's status. */
export interface AtomicLedgerShape {
  readonly currentEpoch: Effect.Effect<bigint, SettlementUnavailable>
  /** The transaction (`txid_…`) that committed the subintent (`subtxid_…`), or none while it is not committed. */
  readonly subintentCommittedBy: (subintentId: string) => Effect.Effect<Option.Option<string>, SettlementUnavailable>
}

export class AtomicLedger extends Context.Tag("hswap/server/AtomicLedger")<AtomicLedger, AtomicLedgerShape>() {
  /** Over the Gateway client (`/transaction/construction`, `/transaction/subintent-status`). */
  static readonly live: Layer.Layer<AtomicLedger, never, Gateway> = Layer.effect(
    AtomicLedger,
    Effect.map(Gateway, (gateway) => ({
      currentEpoch: gateway.transaction.construction().pipe(
        Effect.map((r) => BigInt(r.ledger_state.epoch)),
        Effect.mapError(unavailable("construction"))
      ),
      subintentCommittedBy: (id: string) =>
        gateway.transaction.subintentStatus(id).pipe(
          Effect.map((r) =>
            r.subintent_status === "CommittedSuccess"
              ? Option.some(r.finalized_at_transaction_intent_hash ?? "")
              : Option.none()
          ),
          Effect.mapError(unavailable("subintent status"))
        )
    }))
  )
}

export interface SubmitInput {
  readonly quoteId: string
  /** The quoted input amount the user chose (FROM units). */
  readonly amount: string
  readonly signedPartialHex: string
}

export type SubmitResult = AtomicRefusal | { readonly _tag: "Recorded"; readonly swap: AtomicSwapRow }

/** A submission that passed every check: what is recorded for it, and whether its record already exists. */
interface Prepared {
  readonly _tag: "Prepared"
  readonly accepted: AtomicAccepted
  readonly record: NewAtomicSwap
}

/** The very submission of a swap already over: its record, as it stands. */
interface Replayed {
  readonly _tag: "Replayed"
  readonly swap: AtomicSwapRow
}

const refused = (reason: RefusalReason, message: string): AtomicRefusal => ({ _tag: "AtomicRefusal", reason, message })

/** The parent intent's manifest text over the child `subintentId`. */
export const parentManifest = (p: {
  readonly exchangeAccount: string
  readonly subintentId: string
  readonly feeLockXrd: string
  readonly resourceOut: string
  readonly amountOut: string
}): string =>
  [
    `USE_CHILD NamedIntent("swap") Intent("${p.subintentId}");`,
    `CALL_METHOD Address("${p.exchangeAccount}") "lock_fee" Decimal("${p.feeLockXrd}");`,
    `YIELD_TO_CHILD NamedIntent("swap");`,
    `CALL_METHOD Address("${p.exchangeAccount}") "withdraw" Address("${p.resourceOut}") Decimal("${p.amountOut}");`,
    `TAKE_FROM_WORKTOP Address("${p.resourceOut}") Decimal("${p.amountOut}") Bucket("bought");`,
    `YIELD_TO_CHILD NamedIntent("swap") Bucket("bought");`,
    `CALL_METHOD Address("${p.exchangeAccount}") "deposit_batch" Expression("ENTIRE_WORKTOP");`
  ].join("\n")

/** What was recorded for a swap when it was submitted (its record's columns less the work's). */
const recordOf = (row: AtomicSwapRow): NewAtomicSwap => ({
  subintent_hash: row.subintent_hash,
  subintent_id: row.subintent_id,
  quote_id: row.quote_id,
  account: row.account,
  resource_in: row.resource_in,
  symbol_in: row.symbol_in,
  amount_in: row.amount_in,
  resource_out: row.resource_out,
  symbol_out: row.symbol_out,
  quoted_out: row.quoted_out,
  partial_hex: row.partial_hex,
  window_end_ms: row.window_end_ms
})

const randomDiscriminator = () => Buffer.from(randomBytes(8)).readBigUInt64BE()

const compareFixed = (a: string, b: string): number | undefined => {
  const x = parseFixed(a, DECIMAL)
  const y = parseFixed(b, DECIMAL)
  return typeof x === "bigint" && typeof y === "bigint" ? (x < y ? -1 : x > y ? 1 : 0) : undefined
}

export const makeAtomicSwaps = Effect.gen(function* () {
  const config = yield* ServerConfig
  const db = yield* Db
  const quotes = yield* Quotes
  const claims = yield* Claims
  const payouts = yield* Payouts
  const signer = yield* Signer
  const ledger = yield* AtomicLedger
  /** Where the swaps are worked on: closed by `stop`, which interrupts them and so releases their claims. */
  const workScope = yield* Scope.fork(yield* Effect.scope, ExecutionStrategy.parallel)
  let stopping = false

  /** The ledger's epoch for the checks, reused for `CHECK_EPOCH_REUSE` unless `fresh`. */
  let epochRead: { readonly epoch: bigint; readonly at: number } | undefined
  const epochNow = (fresh: boolean) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (!fresh && epochRead !== undefined && now - epochRead.at < Duration.toMillis(CHECK_EPOCH_REUSE))
        return epochRead.epoch
      const epoch = yield* ledger.currentEpoch
      epochRead = { epoch, at: now }
      return epoch
    })

  const table: ClaimTable<AtomicSwapRow> = {
    claim: db.claimAtomic,
    renew: db.renewAtomicClaim,
    release: db.releaseAtomicClaim
  }
  const isFinal = (row: AtomicSwapRow) => ATOMIC_FINAL_STATES.has(row.state)

  /** Builds and notarizes the parent transaction for `row`, valid from `epoch`. */
  const buildParent = (row: AtomicSwapRow) => (epoch: number) =>
    Effect.gen(function* () {
      const notarize = signer.notarizeV2
      if (notarize === undefined)
        return yield* unavailable("signing the atomic swap")({ message: "this signer cannot build V2 transactions" })
      const bytes = fromHex(row.partial_hex)
      const partial = bytes === undefined ? undefined : Either.getOrUndefined(decodeSignedPartialTransactionV2(bytes))
      const compiled = compileManifest(
        parentManifest({
          exchangeAccount: config.exchangeAccount,
          subintentId: row.subintent_id,
          feeLockXrd: config.feeLockXrd,
          resourceOut: row.resource_out,
          amountOut: row.quoted_out
        }),
        config.networkId
      )
      if (partial === undefined || Either.isLeft(compiled))
        return yield* unavailable("building the atomic swap")({
          message: "the stored pre-authorisation or the parent manifest does not read"
        })
      const built = yield* notarize({
        header: {
          networkId: config.networkId,
          startEpochInclusive: BigInt(epoch),
          endEpochExclusive: BigInt(epoch + config.payoutEpochWindow),
          minProposerTimestampInclusive: null,
          maxProposerTimestampExclusive: BigInt(Math.ceil(row.window_end_ms / 1000)),
          intentDiscriminator: randomDiscriminator()
        },
        instructions: compiled.right.instructions,
        children: [partial]
      }).pipe(Effect.mapError(unavailable("signing the atomic swap")))
      return {
        intentHash: built.ids.transactionIntent,
        notarizedTransactionHex: toHex(built.payload)
      } satisfies SignedTransaction
    })

  /** The work on a claimed record: claim the quote, reserve, then attempt until committed or lapsed. */
  const work = (claimed: AtomicSwapRow) =>
    Effect.gen(function* () {
      const token = (yield* claims.current) ?? ""
      const key = claimed.subintent_hash
      let row = claimed
      const update = (changes: AtomicChanges) =>
        Effect.gen(function* () {
          const next = yield* db.updateAtomic(key, token, changes)
          if (Option.isSome(next)) row = next.value
          return next
        })
      const finish = (changes: AtomicChanges) =>
        Effect.gen(function* () {
          const done = yield* update(changes)
          if (changes.state !== "refused") yield* payouts.release(key)
          return Option.isSome(done) ? row : Option.getOrElse(yield* db.getAtomic(key), () => row)
        })

      if (!(yield* quotes.claim(row.quote_id, row.subintent_id)))
        return yield* finish({ state: "refused", message: ATOMIC_QUOTE_USED })
      const out = parseLooseDecimal(row.quoted_out)
      if (Option.isNone(out))
        return yield* finish({ state: "refused", message: "The quote's terms could not be read." })
      // Liquidity is reserved before any parent is built. A balance that cannot be read now (the gateway is slow or
      // down for a moment) is not a refusal: the user's pre-authorisation is still good while its window is open, so
      // the reservation is tried again until it succeeds or the window closes (the swap then lapses). Only too little
      // liquidity refuses.
      for (;;) {
        const reserved = yield* payouts.reserve(key, row.resource_out, out.value).pipe(Effect.either)
        if (Either.isRight(reserved)) {
          if (reserved.right) break
          yield* payouts.release(key)
          return yield* finish({ state: "refused", message: LOW_LIQUIDITY })
        }
        yield* Effect.logWarning(`atomic ${row.subintent_id}: liquidity not reserved yet: ${reserved.left.reason}`)
        const now = yield* Clock.currentTimeMillis
        if (now >= row.window_end_ms + LAPSE_GRACE_MS) return yield* finish({ state: "lapsed", message: ATOMIC_LAPSED })
        yield* Effect.sleep(RETRY_PAUSE)
      }

      for (;;) {
        const committedBy = yield* ledger.subintentCommittedBy(row.subintent_id).pipe(Effect.either)
        if (Either.isRight(committedBy) && Option.isSome(committedBy.right)) {
          // Committed before this exchange ever stored a parent for it: another transaction used it, not ours.
          if (row.attempts === 0) {
            yield* payouts.release(key)
            return yield* finish({ state: "refused", message: ATOMIC_COMMITTED_ELSEWHERE })
          }
          const intent = committedBy.right.value
          return yield* finish({
            state: "committed",
            amount_out: row.quoted_out,
            tx_intent: intent === "" ? row.tx_intent : intent,
            message: null
          })
        }
        const now = yield* Clock.currentTimeMillis
        if (now >= row.window_end_ms + LAPSE_GRACE_MS) return yield* finish({ state: "lapsed", message: ATOMIC_LAPSED })

        const attempt: Effect.Effect<"Committed" | "Retry" | "Moved", SettlementUnavailable> = Effect.gen(function* () {
          if (row.tx_intent !== null && row.tx_hex !== null) {
            const outcome = yield* payouts.settleStored(row.tx_intent, row.tx_hex)
            if (outcome === "CommittedSuccess") return "Committed" as const
            if (outcome === "Rejected" || outcome === "CommittedFailure") {
              // That parent can never commit the subintent: the next attempt builds a new one.
              yield* update({ tx_intent: null, tx_hex: null })
            }
            return "Retry" as const
          }
          if (now >= row.window_end_ms) return "Retry" as const
          const sent = yield* payouts.send({
            build: buildParent(row),
            store: (signed) =>
              Effect.map(
                update({
                  tx_intent: signed.intentHash,
                  tx_hex: signed.notarizedTransactionHex,
                  attempts: row.attempts + 1
                }),
                Option.isSome
              )
          })
          if (sent.outcome === "Moved") return "Moved" as const
          if (sent.outcome === "CommittedSuccess") return "Committed" as const
          if (sent.outcome === "Rejected" || sent.outcome === "CommittedFailure")
            yield* update({ tx_intent: null, tx_hex: null })
          return "Retry" as const
        })
        const result = yield* attempt.pipe(
          Effect.catchAll((e) =>
            Effect.as(Effect.logWarning(`atomic ${row.subintent_id}: ${e.reason}`), "Retry" as const)
          )
        )
        if (result === "Moved") return Option.getOrElse(yield* db.getAtomic(key), () => row)
        if (result === "Committed")
          return yield* finish({ state: "committed", amount_out: row.quoted_out, message: null })
        yield* Effect.sleep(RETRY_PAUSE)
      }
    })

  /**
   * The checks of a submission (nothing stored, nothing sent): a refusal, or what to record; or, for the very payload
   * of a swap already over, that swap's record. A client that lost the answer and sends the same pre-authorisation
   * again is told what became of it (committed: its tokens moved), whatever its quote has become since, never that it
   * was refused; the same subintent in other bytes, or under other terms, is still `subintent_used`.
   */
  const prepare = (input: SubmitInput): Effect.Effect<AtomicRefusal | Prepared | Replayed, SettlementUnavailable> =>
    Effect.gen(function* () {
      const sent = payloadSubintent(input.signedPartialHex)
      /** A swap over whose submission was this very one (the same payload bytes, under the same quote). */
      const replayOf = (row: AtomicSwapRow): Replayed | undefined =>
        isFinal(row) && sent !== undefined && row.partial_hex === sent.payloadHex && row.quote_id === input.quoteId
          ? { _tag: "Replayed", swap: row }
          : undefined
      if (sent !== undefined) {
        const earlier = yield* db.getAtomic(sent.subintentHash)
        const replayed = Option.isSome(earlier) ? replayOf(earlier.value) : undefined
        if (replayed !== undefined) return replayed
      }
      const found = yield* quotes.lookup(typeof input.quoteId === "string" ? input.quoteId : "")
      if (found._tag !== "Found") return refused("quote_unknown", ATOMIC_QUOTE_UNKNOWN)
      const quote = found.quote
      const tokenIn = config.tokens.find((t) => t.symbol === quote.symbol_in)
      const tokenOut = config.tokens.find((t) => t.symbol === quote.symbol_out)
      if (tokenIn === undefined || tokenOut === undefined)
        return refused("bad_terms", `The exchange no longer swaps ${quote.symbol_in} to ${quote.symbol_out}.`)
      const amount = typeof input.amount === "string" ? input.amount : ""
      const places = amount.split(".")[1]?.length ?? 0
      const low = compareFixed(amount, quote.min_in)
      const high = compareFixed(amount, quote.max_in)
      if (low === undefined || high === undefined || low < 0 || high > 0 || places > tokenIn.decimals)
        return refused(
          "quote_amount",
          `The amount must be a number from ${quote.min_in} to ${quote.max_in} ${quote.symbol_in}, with at most ${tokenIn.decimals} decimals.`
        )
      const terms = quotedTerms(amount, quote, tokenOut.decimals)
      if (terms === undefined) return refused("bad_terms", "The quote's terms could not be read.")

      const checkAt = (epoch: bigint, now: number) =>
        checkPreAuthorization({
          signedPartialHex: input.signedPartialHex,
          networkId: config.networkId,
          terms: {
            fromResource: tokenIn.resourceAddress,
            toResource: tokenOut.resourceAddress,
            amountIn: amount,
            quotedOut: terms.quoted,
            expiresMs: quote.expires_ms
          },
          exchangeAccount: config.exchangeAccount,
          nowMs: now,
          currentEpoch: epoch
        })
      const now = yield* Clock.currentTimeMillis
      let checked = checkAt(yield* epochNow(false), now)
      // The epoch reused may be one behind a subintent signed in the new one: judged on a fresh read before refusing.
      if (Either.isLeft(checked) && checked.left.reason === "epoch_window")
        checked = checkAt(yield* epochNow(true), now)
      if (Either.isLeft(checked)) return checked.left
      const a = checked.right

      const existing = yield* db.getAtomic(a.subintentHash)
      if (Option.isSome(existing) && isFinal(existing.value))
        return replayOf(existing.value) ?? refused("subintent_used", atomicReplayed(existing.value))
      if (Option.isNone(existing)) {
        if (quote.used_by !== null && quote.used_by !== a.subintentId) return refused("quote_used", ATOMIC_QUOTE_USED)
        if (Option.isSome(yield* ledger.subintentCommittedBy(a.subintentId)))
          return refused("subintent_used", ATOMIC_COMMITTED_ELSEWHERE)
      }
      return {
        _tag: "Prepared" as const,
        accepted: a,
        record: {
          subintent_hash: a.subintentHash,
          subintent_id: a.subintentId,
          quote_id: quote.id,
          account: a.account,
          resource_in: tokenIn.resourceAddress,
          symbol_in: tokenIn.symbol,
          amount_in: a.amountIn,
          resource_out: tokenOut.resourceAddress,
          symbol_out: tokenOut.symbol,
          quoted_out: terms.quoted,
          partial_hex: toHex(fromHex(input.signedPartialHex.replace(/^0x/, "")) ?? new Uint8Array()),
          window_end_ms: a.windowEndMs
        }
      }
    })

  /**
   * Works on the record exactly once across replicas: inserts it (claimed) when new, and tells `opened` the record
   * as stored; another replica's record is answered as it stands, unless its claim expired (then taken over).
   */
  const run = (record: NewAtomicSwap, opened?: Deferred.Deferred<AtomicSwapRow>) =>
    claims.run({
      key: record.subintent_hash,
      label: `atomic ${record.subintent_id}`,
      table,
      open: (fresh) =>
        Effect.gen(function* () {
          const claim = yield* fresh
          const { row, inserted } = yield* db.insertAtomic(record, claim)
          if (opened !== undefined) yield* Deferred.succeed(opened, row)
          return { row, held: inserted ? Option.some({ token: claim.token, row }) : Option.none() }
        }),
      reread: (row) =>
        Effect.map(
          db.getAtomic(row.subintent_hash),
          Option.getOrElse(() => row)
        ),
      isFinal,
      work,
      wait: Duration.zero
    })

  /** Checks the pre-authorisation and, when it passes, works the swap to its end in the caller's fiber. */
  const submit = Effect.fn("AtomicSwaps.submit")(function* (input: SubmitInput) {
    const prepared = yield* prepare(input)
    if (prepared._tag === "AtomicRefusal") return prepared
    if (prepared._tag === "Replayed") return { _tag: "Recorded", swap: prepared.swap } as SubmitResult
    return { _tag: "Recorded", swap: yield* run(prepared.record) } as SubmitResult
  })

  /**
   * The endpoint's submission: the checks in the caller's fiber, then the work in the service's scope (it goes on if
   * the caller leaves), awaited up to `atomicWait`; past that, the record as it then stands (still submitting).
   */
  const submitAndWait = Effect.fn("AtomicSwaps.submitAndWait")(function* (input: SubmitInput) {
    if (stopping) return yield* unavailable("atomic swap")({ message: "this server is stopping" })
    const prepared = yield* prepare(input)
    if (prepared._tag === "AtomicRefusal") return prepared
    if (prepared._tag === "Replayed") return { _tag: "Recorded", swap: prepared.swap } as SubmitResult
    const opened = yield* Deferred.make<AtomicSwapRow>()
    const fiber = yield* Effect.forkIn(run(prepared.record, opened), workScope)
    const done = yield* Fiber.join(fiber).pipe(Effect.timeoutOption(config.atomicWait))
    if (Option.isSome(done)) return { _tag: "Recorded", swap: done.value } as SubmitResult
    const stored = yield* Effect.raceFirst(Deferred.await(opened), Fiber.join(fiber))
    const now = yield* db.getAtomic(prepared.accepted.subintentHash)
    return { _tag: "Recorded", swap: Option.getOrElse(now, () => stored) } as SubmitResult
  })

  /**
   * Takes over every swap still submitting whose claim is free or expired (a replica that stopped or died mid-way):
   * each is worked on in the service's scope; answers how many were found.
   */
  const resumeUnfinished = Effect.gen(function* () {
    if (stopping) return 0
    const rows = yield* db.unfinishedAtomic(yield* Clock.currentTimeMillis)
    for (const row of rows) {
      yield* Effect.forkIn(
        run(recordOf(row)).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning(`resuming atomic ${row.subintent_id}`, cause))
        ),
        workScope
      )
    }
    return rows.length
  }).pipe(Effect.withSpan("AtomicSwaps.resumeUnfinished"))

  const stop = Effect.suspend(() => {
    stopping = true
    return Scope.close(workScope, Exit.void)
  }).pipe(Effect.withSpan("AtomicSwaps.stop"))

  const get = (subintentHash: string) => db.getAtomic(subintentHash)

  return { submit, submitAndWait, resumeUnfinished, stop, get } as const
})

export class AtomicSwaps extends Context.Tag("hswap/server/AtomicSwaps")<
  AtomicSwaps,
  Effect.Effect.Success<typeof makeAtomicSwaps>
>() {
  static readonly layer = Layer.scoped(AtomicSwaps, makeAtomicSwaps)
}
