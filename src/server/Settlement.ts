/**
 * `Settlement`: exactly-once payouts for swap deposits.
 *
 * A swap is keyed by its deposit's intent hash (`tx_in`, unique in the database) and moves through
 *
 *     received → paying → completed
 *                       ↘ failed → refunding → refunded
 *
 * Each state is persisted before the ledger action it leads to; a payout's (or refund's) notarized transaction and
 * intent hash are stored before it is submitted. Resuming a swap therefore never pays twice: with a stored intent, the
 * server asks the ledger what became of that very intent and, if it is unknown, resubmits the same payload (the
 * ledger deduplicates intents); it builds a new transaction only once the old one is known to be rejected.
 *
 * Across replicas of one database, a swap is worked on by one replica at a time: it claims the swap in the database
 * (a token and an expiry, `claimLease`, renewed every third of it while it works) and every transition it makes is
 * fenced by that token, so once the claim expired and another replica took the swap over, the old one can no longer
 * store anything (and a payout it had already stored is the very intent the new one settles). Within one process,
 * work on one hash is also serialized (a lock per hash, so different swaps never wait on each other). A deposit seen
 * for the first time is recorded and claimed in one write. A registration that finds the swap claimed elsewhere waits
 * for that replica's outcome (or for its claim to expire). Payouts of different swaps run concurrently; liquidity in
 * flight is reserved as rows (`Db.reserve`), so two payouts, on any replicas, never count the same tokens; a
 * reservation is dropped once its payout's outcome is known.
 *
 * A deposit whose message names a binding quote (`Quotes`) is settled at the quote: refunded when the reference is
 * forged or altered, unknown, for another pair, already claimed by another deposit, or the amount is outside the
 * quote's limits; paid exactly what the quote promised when the ledger committed it at or before the quote's expiry
 * (no price is read); after the expiry, paid today's payout if that is at least the quote's minimum received, else
 * refunded. Time is judged by the deposit's commit time on the ledger, never by when settlement runs, so a swap
 * resumed after a restart is settled as it would have been at once. A deposit without a quote is settled at the
 * prices read when it is decided.
 */
import { Clock, Duration, Effect, Either, Exit, Fiber, FiberRef, Option, Schedule, Schema } from "effect"
import { type Decimal, ZERO, compareDecimal, decimalToString, parseLooseDecimal } from "../exchange/decimal"
import { Gateway, type GatewayError } from "../gateway/index"
import { ServerConfig, type TokenSpec } from "./config"
import { Db, type QuoteRow, type SwapChanges, type SwapRow, type SwapState, TERMINAL_STATES } from "./Db"
import { Faults } from "./Faults"
import { accountBalances, depositOf } from "./ledger"
import { Maintenance } from "./Limits"
import { PriceFeed } from "./PriceFeed"
import { amountLimits, dec, effectiveRate, payoutAmount, positive, usdValue, withinLimits } from "./pricing"
import {
  QUOTE_REUSED,
  QUOTE_TAMPERED,
  QUOTE_UNKNOWN,
  QUOTE_UNREADABLE,
  Quotes,
  bindsAt,
  quoteExpiredBelowMinimum,
  quoteOtherPair,
  quotedTerms
} from "./Quotes"
import { Signer } from "./Signer"

/** The transaction is not (or not yet) on the ledger. */
export class SwapNotFound extends Schema.TaggedError<SwapNotFound>()("SwapNotFound", { txHash: Schema.String }) {
  override get message(): string {
    return `Transaction ${this.txHash} is not committed on the ledger`
  }
}

/** The transaction is not a swap deposit the server accepts (failed, wrong account, no route…). Nothing is paid. */
export class SwapRefused extends Schema.TaggedError<SwapRefused>()("SwapRefused", {
  txHash: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

/** The ledger could not be read or written just now; the swap stays where it is and is resumed later. */
export class SettlementUnavailable extends Schema.TaggedError<SettlementUnavailable>()("SettlementUnavailable", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

export type SettlementError = SwapNotFound | SwapRefused | SettlementUnavailable

/** How long the epoch read for one payout is reused for the next (see `currentEpoch`). */
export const EPOCH_REUSE = Duration.seconds(10)

/** Swaps `resumeUnfinished` settles at once. */
export const RESUME_CONCURRENCY = 16

/** Why a deposit decided while the exchange is in maintenance is refunded. */
export const IN_MAINTENANCE = "The exchange is in maintenance: the deposit is refunded."

/** Why a deposit of a token the exchange does not list is refunded. */
export const unsupportedToken = (resource: string): string =>
  `The token ${resource} is not one the exchange swaps: the deposit is refunded.`

/** The spec's words for a swap refused for liquidity (§8). */
export const LOW_LIQUIDITY = "Swap unavailable due to low liquidity. Please wait for rebalancing."

const unavailable = (what: string) => (e: GatewayError | { readonly message: string }) =>
  new SettlementUnavailable({ reason: `${what}: ${e.message}` })

type CommitOutcome = "CommittedSuccess" | "CommittedFailure" | "Rejected" | "Unknown"

/**
 * One permit per key, for as long as anyone holds or awaits it: work on one hash is serialized in this process, and
 * work on different hashes never waits on each other (no shared stripes).
 */
const keyedLocks = () => {
  const held = new Map<string, { readonly semaphore: Effect.Semaphore; users: number }>()
  return (key: string) =>
    <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.suspend(() => {
        let entry = held.get(key)
        if (entry === undefined) {
          entry = { semaphore: Effect.unsafeMakeSemaphore(1), users: 0 }
          held.set(key, entry)
        }
        const lock = entry
        lock.users++
        return lock.semaphore.withPermits(1)(effect).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              if (--lock.users === 0) held.delete(key)
            })
          )
        )
      })
}

export class Settlement extends Effect.Service<Settlement>()("hswap/server/Settlement", {
  scoped: Effect.gen(function* () {
    const config = yield* ServerConfig
    const gateway = yield* Gateway
    const db = yield* Db
    const prices = yield* PriceFeed
    const quotes = yield* Quotes
    const signer = yield* Signer
    const maintenance = yield* Maintenance
    const scope = yield* Effect.scope

    const withLock = keyedLocks()

    /** The claim token the current fiber works under (set by `settle`); transitions are fenced by it. */
    const currentClaim = FiberRef.unsafeMake<string | null>(null)
    let claims = 0
    const leaseMs = Duration.toMillis(config.claimLease)
    const transition = (
      txIn: string,
      from: SwapState,
      to: SwapState,
      changes: SwapChanges = {},
      detail: string | null = null
    ) => Effect.flatMap(FiberRef.get(currentClaim), (claim) => db.transition(txIn, from, to, changes, detail, claim))

    /** Where tests may stop a payout (a no-op unless a test provides `Faults`). */
    const fault = (yield* Faults).reach

    const tokenBySymbol = (symbol: string | null): TokenSpec | undefined =>
      config.tokens.find((t) => t.symbol === symbol)
    const routeAccepted = (from: string, to: string) => config.routes.some(([f, t]) => f === from && t === to)
    const spread = dec(config.spread)
    const feeUsd = dec(config.feeUsd)
    const minUsd = dec(config.minUsd)
    const maxUsd = dec(config.maxUsd)

    // --- reading the deposit ------------------------------------------------------------------------------------

    const readDeposit = (txHash: string) =>
      gateway.transaction
        .committedDetails(txHash, {
          raw_hex: false,
          receipt_events: false,
          receipt_fee_source: false,
          receipt_fee_destination: false,
          receipt_costing_parameters: false,
          receipt_fee_summary: false,
          receipt_state_changes: false,
          manifest_instructions: false,
          affected_global_entities: false,
          receipt_output: false,
          balance_changes: true
        })
        .pipe(
          Effect.mapError((e): SwapNotFound | SettlementUnavailable =>
            e._tag === "GatewayResponseError" && e.status === 404
              ? new SwapNotFound({ txHash })
              : unavailable("committed details")(e)
          ),
          Effect.flatMap((r) =>
            Either.match(depositOf(config, r.transaction), {
              onLeft: (reason) => Effect.fail(new SwapRefused({ txHash, reason })),
              onRight: (deposit) =>
                deposit.txIn === txHash
                  ? Effect.succeed(deposit)
                  : Effect.fail(new SwapRefused({ txHash, reason: "The ledger answered for another transaction" }))
            })
          )
        )

    // --- ledger actions -----------------------------------------------------------------------------------------

    const commitStatus = (intent: string): Effect.Effect<CommitOutcome | "Pending", SettlementUnavailable> =>
      gateway.transaction.status(intent).pipe(
        Effect.mapError(unavailable("transaction status")),
        Effect.map((s) =>
          s.intent_status === "CommittedSuccess" || s.intent_status === "CommittedFailure"
            ? s.intent_status
            : s.intent_status === "PermanentlyRejected"
              ? "Rejected"
              : s.intent_status === "Unknown"
                ? "Unknown"
                : "Pending"
        )
      )

    /** Polls the intent until it is committed or rejected, for at most `commitWait`. */
    const awaitCommit = (intent: string) =>
      commitStatus(intent).pipe(
        Effect.repeat({
          schedule: Schedule.passthrough(Schedule.spaced("500 millis").pipe(Schedule.upTo(config.commitWait))),
          until: (s) => s !== "Pending" && s !== "Unknown"
        })
      )

    /** Submits a stored payload; a rejection at submit is reported as such (the intent can then never commit). */
    const submit = (hex: string) =>
      gateway.transaction.submit(hex).pipe(
        Effect.as("Submitted" as const),
        Effect.catchTag("GatewayResponseError", (e) =>
          e.status === 400 ? Effect.succeed("Rejected" as const) : Effect.fail(unavailable("submit")(e))
        ),
        Effect.mapError(unavailable("submit"))
      )

    /**
     * Brings a stored intent to a known outcome: asks the ledger, resubmits the same payload when the ledger does not
     * know it, then waits for the commit. "Pending" means the outcome is not known yet (resume later).
     */
    const settleStoredIntent = (intent: string, hex: string) =>
      Effect.gen(function* () {
        const status = yield* commitStatus(intent)
        if (status === "CommittedSuccess" || status === "CommittedFailure" || status === "Rejected") return status
        if (status === "Unknown") {
          const submitted = yield* submit(hex)
          if (submitted === "Rejected") {
            // The payload was refused; confirm the ledger does not hold the intent before calling it rejected.
            const after = yield* commitStatus(intent)
            return after === "Unknown" ? ("Rejected" as const) : after
          }
        }
        return yield* awaitCommit(intent)
      })

    /**
     * The epoch a new payout starts from. An epoch lasts minutes and a payout stays valid for `payoutEpochWindow`
     * epochs from its start, so the epoch read is reused for `EPOCH_REUSE` (one gateway read fewer per payout); it is
     * read afresh after a submit the ledger rejected.
     */
    let epochRead: { readonly epoch: number; readonly at: number } | undefined
    const currentEpoch = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (epochRead !== undefined && now - epochRead.at < Duration.toMillis(EPOCH_REUSE)) return epochRead.epoch
      const epoch = yield* gateway.transaction.construction().pipe(
        Effect.map((r) => r.ledger_state.epoch),
        Effect.mapError(unavailable("construction"))
      )
      epochRead = { epoch, at: now }
      return epoch
    })

    const balanceOf = (resource: string) =>
      accountBalances(gateway, config.exchangeAccount).pipe(
        Effect.map((b) => b.get(resource)),
        Effect.mapError(unavailable("exchange balances"))
      )

    // --- steps --------------------------------------------------------------------------------------------------

    interface Step {
      readonly row: SwapRow
      readonly progressed: boolean
    }
    const stay = (row: SwapRow): Step => ({ row, progressed: false })

    const reread = (row: SwapRow) =>
      Effect.map(
        db.get(row.tx_in),
        Option.getOrElse(() => row)
      )

    /**
     * The step a transition made: the row it wrote, or, when another writer got there first (the compare-and-set
     * found the swap elsewhere), the row as it now stands, read again only then.
     */
    const moved = <E, R>(row: SwapRow, written: Effect.Effect<Option.Option<SwapRow>, E, R>) =>
      Effect.flatMap(
        written,
        Option.match({
          onNone: () => Effect.map(reread(row), (fresh): Step => ({ row: fresh, progressed: true })),
          onSome: (r) => Effect.succeed<Step>({ row: r, progressed: true })
        })
      )

    const limitsMessage = (amount: string, symbol: string, min: string, max: string) =>
      `The amount ${amount} ${symbol} is outside the limits (${min} to ${max} ${symbol})`

    /** received → paying (amount fixed) or → failed (with the reason a refund is due). */
    const decide = (row: SwapRow) =>
      Effect.gen(function* () {
        const fail = (message: string, changes: SwapChanges = {}) =>
          moved(row, transition(row.tx_in, "received", "failed", { ...changes, message }, message))
        // Nothing is swapped in maintenance: a deposit decided then is refunded (one it was already paying is not).
        if (yield* maintenance.enabled) return yield* fail(IN_MAINTENANCE)
        const listed = config.tokens.find((t) => t.resourceAddress === row.resource_in)
        if (listed === undefined || listed.symbol !== row.symbol_in) return yield* fail(unsupportedToken(row.resource_in))
        const [from = "", to = ""] = (row.route_text ?? "").split(" -> ")
        let quote: QuoteRow | undefined
        if (row.quote_id !== null) {
          const found = yield* quotes.lookup(row.quote_id)
          if (found._tag !== "Found") {
            yield* Effect.logWarning(
              `swap ${row.tx_in}: quote reference ${JSON.stringify(row.quote_id)} is ${found._tag.toLowerCase()}`
            )
            return yield* fail(found._tag === "Tampered" ? QUOTE_TAMPERED : QUOTE_UNKNOWN)
          }
          quote = found.quote
          if (quote.symbol_in !== row.symbol_in || quote.symbol_in !== from || quote.symbol_out !== to) {
            const deposited =
              from === row.symbol_in ? `${from} -> ${to}` : `${row.symbol_in} (its message names ${from} -> ${to})`
            return yield* fail(quoteOtherPair(`${quote.symbol_in} -> ${quote.symbol_out}`, deposited))
          }
        }
        if (from !== row.symbol_in) {
          return yield* fail(`The route ${row.route_text ?? ""} does not match the deposited ${row.symbol_in}`)
        }
        if (!routeAccepted(from, to)) return yield* fail(`Route not available: ${row.route_text ?? ""}`)
        const tokenIn = tokenBySymbol(from)
        const tokenOut = tokenBySymbol(to)
        if (tokenIn === undefined || tokenOut === undefined)
          return yield* fail(`Route not available: ${row.route_text ?? ""}`)
        if (quote !== undefined) return yield* decideAtQuote(row, quote, tokenOut, fail)
        const priceIn = yield* prices.fresh(from)
        const priceOut = yield* prices.fresh(to)
        if (Option.isNone(priceIn) || Option.isNone(priceOut)) {
          yield* Effect.logWarning(`swap ${row.tx_in}: no fresh price for ${row.route_text ?? ""}; left for later`)
          return stay(row)
        }
        const amountIn = Option.getOrThrow(parseLooseDecimal(row.amount_in))
        const limits = amountLimits(priceIn.value.usd, tokenIn.decimals, minUsd, maxUsd)
        if (!withinLimits(amountIn, limits)) {
          return yield* fail(
            limitsMessage(row.amount_in, from, decimalToString(limits.min), decimalToString(limits.max))
          )
        }
        const out = payoutAmount(amountIn, priceIn.value.usd, priceOut.value.usd, spread, feeUsd, tokenOut.decimals)
        if (!positive(out)) return yield* fail("The amount does not cover the fee")
        return yield* moved(
          row,
          transition(row.tx_in, "received", "paying", {
            resource_out: tokenOut.resourceAddress,
            symbol_out: tokenOut.symbol,
            amount_out: decimalToString(out),
            rate: decimalToString(effectiveRate(priceIn.value.usd, priceOut.value.usd, spread)),
            usd_in: decimalToString(usdValue(amountIn, priceIn.value.usd))
          })
        )
      })

    /**
     * The quoted half of `decide`, once the quote is known to be ours and for this pair: claim it for this deposit,
     * check its limits, then pay what it promised (committed in time) or today's payout when that still reaches the
     * minimum received (committed after expiry). What was promised is recorded either way.
     */
    const decideAtQuote = (
      row: SwapRow,
      quote: QuoteRow,
      tokenOut: TokenSpec,
      fail: (message: string, changes?: SwapChanges) => Effect.Effect<Step>
    ) =>
      Effect.gen(function* () {
        if (!(yield* quotes.claim(quote.id, row.tx_in))) {
          yield* Effect.logWarning(`swap ${row.tx_in}: quote ${quote.id} is already claimed by another deposit`)
          return yield* fail(QUOTE_REUSED)
        }
        const amountIn = parseLooseDecimal(row.amount_in)
        const min = parseLooseDecimal(quote.min_in)
        const max = parseLooseDecimal(quote.max_in)
        const priceIn = parseLooseDecimal(quote.price_in)
        const terms = quotedTerms(row.amount_in, quote, tokenOut.decimals)
        if (
          Option.isNone(amountIn) ||
          Option.isNone(min) ||
          Option.isNone(max) ||
          Option.isNone(priceIn) ||
          terms === undefined
        ) {
          yield* Effect.logError(`swap ${row.tx_in}: the terms of quote ${quote.id} do not parse`, quote)
          return yield* fail(QUOTE_UNREADABLE)
        }
        if (!withinLimits(amountIn.value, { min: min.value, max: max.value })) {
          return yield* fail(limitsMessage(row.amount_in, quote.symbol_in, quote.min_in, quote.max_in))
        }
        const promised = { quoted_out: terms.quoted, min_received: terms.minimum }
        const quoted = Option.getOrElse(parseLooseDecimal(terms.quoted), () => ZERO)
        const paying = (amountOut: Decimal, rate: string, usdIn: Decimal) =>
          moved(
            row,
            transition(row.tx_in, "received", "paying", {
              ...promised,
              resource_out: tokenOut.resourceAddress,
              symbol_out: tokenOut.symbol,
              amount_out: decimalToString(amountOut),
              rate,
              usd_in: decimalToString(usdIn)
            })
          )
        if (bindsAt(quote, row.committed_ms)) {
          if (!positive(quoted)) return yield* fail("The amount does not cover the fee", promised)
          return yield* paying(quoted, quote.rate, usdValue(amountIn.value, priceIn.value))
        }
        if (row.committed_ms === null) {
          yield* Effect.logWarning(
            `swap ${row.tx_in}: the deposit's commit time is unknown; quote ${quote.id} is treated as expired`
          )
        }
        const currentIn = yield* prices.fresh(quote.symbol_in)
        const currentOut = yield* prices.fresh(quote.symbol_out)
        if (Option.isNone(currentIn) || Option.isNone(currentOut)) {
          yield* Effect.logWarning(
            `swap ${row.tx_in}: quote ${quote.id} expired and no fresh price for ${row.route_text ?? ""}; left for later`
          )
          return stay(row)
        }
        const out = payoutAmount(
          amountIn.value,
          currentIn.value.usd,
          currentOut.value.usd,
          spread,
          feeUsd,
          tokenOut.decimals
        )
        const minimum = Option.getOrElse(parseLooseDecimal(terms.minimum), () => ZERO)
        if (compareDecimal(out, minimum) < 0) {
          const current = decimalToString(positive(out) ? out : ZERO)
          return yield* fail(quoteExpiredBelowMinimum(terms.minimum, current, tokenOut.symbol), promised)
        }
        if (!positive(out)) return yield* fail("The amount does not cover the fee", promised)
        return yield* paying(
          out,
          decimalToString(effectiveRate(currentIn.value.usd, currentOut.value.usd, spread)),
          usdValue(amountIn.value, currentIn.value.usd)
        )
      })

    /**
     * The ledger half shared by payouts and refunds: with a stored intent, settle that intent; without one (or after
     * a rejection), check the balance, build, store, submit and await a new transfer.
     */
    const transfer = (
      row: SwapRow,
      kind: "payout" | "refund",
      what: { readonly resource: string; readonly amount: string; readonly to: string }
    ) =>
      Effect.gen(function* () {
        const state = kind === "payout" ? "paying" : "refunding"
        const intent = kind === "payout" ? row.payout_intent : row.refund_intent
        const hex = kind === "payout" ? row.payout_hex : row.refund_hex
        const amount = Option.getOrThrow(parseLooseDecimal(what.amount))
        // A payout's reservation (taken below, kept by a stored intent across restarts) is dropped by `pay` once the
        // outcome is known; refunds return what was received and reserve nothing.
        if (intent !== null && hex !== null) {
          const outcome = yield* settleStoredIntent(intent, hex)
          if (outcome !== "Rejected") return { outcome, intent } as const
          yield* Effect.logWarning(`swap ${row.tx_in}: ${kind} ${intent} was rejected; building a new one`)
        }
        if (kind === "payout" && !(yield* db.reserve(row.tx_in, what.resource, amount, balanceOf(what.resource)))) {
          return { outcome: "LowLiquidity", intent: null } as const
        }
        const fresh = Effect.gen(function* () {
          const epoch = yield* currentEpoch
          const signed = yield* signer
            .transfer({
              resource: what.resource,
              amount: what.amount,
              to: what.to,
              epoch,
              message: `hSwap ${kind} for ${row.tx_in}`
            })
            .pipe(Effect.mapError(unavailable(`signing the ${kind}`)))
          // Persist the intent and its payload before anything reaches the ledger.
          const stored = yield* transition(
            row.tx_in,
            state,
            state,
            kind === "payout"
              ? { payout_intent: signed.intentHash, payout_hex: signed.notarizedTransactionHex }
              : { refund_intent: signed.intentHash, refund_hex: signed.notarizedTransactionHex },
            `${kind} ${signed.intentHash}`
          )
          if (Option.isNone(stored)) return { outcome: "Moved", intent: null } as const
          if (kind === "payout") yield* fault("stored", row.tx_in)
          const submitted = yield* submit(signed.notarizedTransactionHex)
          if (kind === "payout") yield* fault("submitted", row.tx_in)
          if (submitted === "Rejected") {
            epochRead = undefined
            return { outcome: "Rejected", intent: signed.intentHash } as const
          }
          const outcome = yield* awaitCommit(signed.intentHash)
          return { outcome, intent: signed.intentHash } as const
        })
        return yield* fresh
      })

    const pay = (row: SwapRow) =>
      Effect.gen(function* () {
        const amount = row.amount_out ?? "0"
        const result = yield* transfer(row, "payout", { resource: row.resource_out ?? "", amount, to: row.sender })
        const now = yield* Clock.currentTimeMillis
        // Committed (the balance now shows it) or never to commit: the reservation has done its job.
        if (
          result.outcome === "CommittedSuccess" ||
          result.outcome === "CommittedFailure" ||
          result.outcome === "Rejected" ||
          result.outcome === "LowLiquidity"
        ) {
          yield* db.release(row.tx_in)
        }
        switch (result.outcome) {
          case "CommittedSuccess":
            return yield* moved(
              row,
              transition(row.tx_in, "paying", "completed", { finalized_ms: now, message: null }, result.intent)
            )
          case "CommittedFailure":
          case "Rejected": {
            const message = `The payout ${result.intent} did not commit (${result.outcome === "Rejected" ? "rejected" : "failed"})`
            return yield* moved(
              row,
              transition(row.tx_in, "paying", "failed", { message, payout_intent: null, payout_hex: null }, message)
            )
          }
          case "LowLiquidity":
            return yield* moved(
              row,
              transition(row.tx_in, "paying", "failed", { message: LOW_LIQUIDITY }, LOW_LIQUIDITY)
            )
          case "Moved":
            return { row: yield* reread(row), progressed: true }
          default:
            return stay(row)
        }
      })

    const startRefund = (row: SwapRow) =>
      Effect.gen(function* () {
        if (row.refund_attempts >= config.maxRefundAttempts) return stay(row)
        return yield* moved(
          row,
          transition(row.tx_in, "failed", "refunding", { refund_attempts: row.refund_attempts + 1 })
        )
      })

    const refund = (row: SwapRow) =>
      Effect.gen(function* () {
        const result = yield* transfer(row, "refund", {
          resource: row.resource_in,
          amount: row.amount_in,
          to: row.sender
        })
        const now = yield* Clock.currentTimeMillis
        const reason = row.message ?? "The swap could not be paid"
        switch (result.outcome) {
          case "CommittedSuccess":
            return yield* moved(
              row,
              transition(
                row.tx_in,
                "refunding",
                "refunded",
                { finalized_ms: now, message: `${reason} Refunded ${row.amount_in} ${row.symbol_in}.` },
                result.intent
              )
            )
          case "CommittedFailure":
          case "Rejected":
            return yield* moved(
              row,
              transition(
                row.tx_in,
                "refunding",
                "failed",
                { refund_intent: null, refund_hex: null },
                `refund ${result.intent} did not commit`
              )
            )
          case "Moved":
            return { row: yield* reread(row), progressed: true }
          default:
            return stay(row)
        }
      })

    const step = (row: SwapRow): Effect.Effect<Step, SettlementUnavailable> => {
      switch (row.state) {
        case "received":
          return decide(row)
        case "paying":
          return pay(row)
        case "failed":
          return startRefund(row)
        case "refunding":
          return refund(row)
        default:
          return Effect.succeed(stay(row))
      }
    }

    const advance = (start: SwapRow) =>
      Effect.gen(function* () {
        let current = start
        for (let i = 0; i < 10 && !TERMINAL_STATES.has(current.state); i++) {
          const next = yield* step(current)
          current = next.row
          if (!next.progressed) break
        }
        return current
      })

    // --- public operations --------------------------------------------------------------------------------------

    const newToken = () => `${config.replicaId}#${++claims}`

    interface Held {
      readonly token: string
      /** The swap as it stood when claimed. */
      readonly row: SwapRow
    }

    /** Claims `txHash` under a fresh token; none when it is final or another replica holds a live claim. */
    const tryClaim = (txHash: string) =>
      Effect.gen(function* () {
        const token = newToken()
        const now = yield* Clock.currentTimeMillis
        return Option.map(yield* db.claim(txHash, token, now, now + leaseMs), (row): Held => ({ token, row }))
      })

    /**
     * Runs `work` under the claim `token`, renewing it every third of the lease meanwhile, then gives the claim up (a
     * kill leaves it to expire). A swap the work made final needs no release: that transition cleared the claim.
     */
    const underClaim = <E>(txHash: string, token: string, work: Effect.Effect<SwapRow, E>) =>
      Effect.scoped(
        Effect.gen(function* () {
          let finished = false
          const renew = Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            if (!(yield* db.renewClaim(txHash, token, now + leaseMs))) {
              if (!finished) {
                yield* Effect.logWarning(`swap ${txHash}: the claim ${token} was lost; its transitions are fenced off`)
              }
              return yield* Effect.interrupt
            }
          })
          yield* Effect.forkScoped(
            Effect.repeat(renew, Schedule.spaced(Duration.millis(Math.max(1, Math.floor(leaseMs / 3))))).pipe(
              Effect.delay(Duration.millis(Math.floor(leaseMs / 3)))
            )
          )
          const row = yield* Effect.locally(work, currentClaim, token)
          finished = true
          return row
        })
      ).pipe(
        Effect.onExit((exit) =>
          Exit.isSuccess(exit) && TERMINAL_STATES.has(exit.value.state) ? Effect.void : db.releaseClaim(txHash, token)
        )
      )

    /** How often a registration looks again at a swap another replica holds. */
    const POLL_CLAIM = Duration.millis(50)

    /**
     * Settles one deposit as far as it can go now (exactly once per hash, across replicas). A deposit seen for the
     * first time is recorded and claimed by one write. When another replica holds the swap, waits up to `wait` for
     * its outcome (or for its claim to expire, then takes over); with no wait, it answers the row as it stands.
     */
    const settleWith = (txHash: string, wait: Duration.Duration) =>
      withLock(txHash)(
        Effect.gen(function* () {
          const existing = yield* db.get(txHash)
          let row: SwapRow
          let held = Option.none<Held>()
          if (Option.isSome(existing)) row = existing.value
          else {
            const d = yield* readDeposit(txHash)
            const token = newToken()
            const now = yield* Clock.currentTimeMillis
            const stored = yield* db.insertReceived(
              {
                tx_in: d.txIn,
                sender: d.sender,
                resource_in: d.resource,
                symbol_in: d.symbol,
                amount_in: d.amount,
                route_text: d.routeText,
                state_version_in: d.stateVersion,
                quote_id: d.quoteId ?? null,
                committed_ms: d.committedMs ?? null
              },
              { token, untilMs: now + leaseMs }
            )
            row = stored.row
            if (stored.inserted) held = Option.some({ token, row })
          }
          const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(wait)
          for (;;) {
            if (TERMINAL_STATES.has(row.state)) return row
            if (Option.isNone(held)) held = yield* tryClaim(txHash)
            if (Option.isSome(held)) {
              const { token, row: claimed } = held.value
              return yield* underClaim(
                txHash,
                token,
                Effect.gen(function* () {
                  yield* fault("claimed", txHash)
                  // Claimed as it stands now: another replica may have moved it on before.
                  return yield* advance(claimed)
                })
              )
            }
            row = yield* reread(row)
            if (TERMINAL_STATES.has(row.state) || (yield* Clock.currentTimeMillis) >= deadline) return row
            yield* Effect.sleep(POLL_CLAIM)
          }
        })
      )

    /** Settles one deposit as far as it can go now; a swap another replica holds is left to it. */
    const settle = Effect.fn("Settlement.settle")(function* (txHash: string) {
      return yield* settleWith(txHash, Duration.zero)
    })

    /**
     * Registration from the API: settlement runs in the server's scope (it goes on if the caller leaves); the caller
     * waits for it up to `registrationWait` and gets the row, or none when it is still running. A swap another
     * replica holds is awaited for as long.
     */
    const register = Effect.fn("Settlement.register")(function* (txHash: string) {
      const fiber = yield* Effect.forkIn(settleWith(txHash, config.registrationWait), scope)
      return yield* Fiber.join(fiber).pipe(Effect.timeoutOption(config.registrationWait))
    })

    /**
     * Resumes every swap that is not final and not held by a live claim (after a restart, and on every watcher pass),
     * `RESUME_CONCURRENCY` at once.
     */
    const resumeUnfinished = Effect.gen(function* () {
      const rows = yield* db.unfinished(yield* Clock.currentTimeMillis)
      yield* Effect.forEach(
        rows,
        (row) =>
          settle(row.tx_in).pipe(Effect.catchAll((e) => Effect.logWarning(`resuming swap ${row.tx_in}: ${e.message}`))),
        { concurrency: RESUME_CONCURRENCY, discard: true }
      )
      return rows.length
    }).pipe(Effect.withSpan("Settlement.resumeUnfinished"))

    return { settle, register, resumeUnfinished } as const
  })
}) {}
