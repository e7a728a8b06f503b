import {
  Cause,
  Clock,
  Duration,
  Effect,
  Either,
  FiberMap,
  Option,
  Runtime,
  Schedule,
  Stream,
  SubscriptionRef
} from "effect"
import {
  ForbiddenRoute,
  type LiquidityResponse,
  RouteNotAvailable,
  type TransactionRecord
} from "../../../../exchange/api"
import { exceedsBalance, liquidityCovers } from "../../../../exchange/amount"
import type { AtomicSwapResponse } from "../../../../exchange/api"
import { atomicSubintentManifest } from "../../../../exchange/atomicManifest"
import { ExchangeApi } from "../../../../exchange/ExchangeApi"
import { formatTokenAmount } from "../../../../exchange/format"
import {
  balanceToast,
  buildSwapManifest,
  computeQuote,
  LOW_LIQUIDITY_MESSAGE,
  type Quote,
  swapMessage,
  TRANSACTION_LIMIT_MESSAGE
} from "../../../../exchange/swap"
import { Gateway } from "../../../../gateway/tag"
import { AppConfig } from "../../../config/AppConfig"
import { Toaster } from "../../../services/Toaster"
import { WalletSession } from "../../../services/WalletSession"
import { liquidityOf, liquidityStream, loadLiquidity } from "../liquidity"
import { SwapEvents } from "../SwapEvents"
import {
  ATOMIC_LAPSED_TEXT,
  ATOMIC_LAPSED_TITLE,
  ATOMIC_REFUSED_TITLE,
  ATOMIC_TOO_CLOSE_TEXT,
  ATOMIC_UNKNOWN_TEXT,
  refusalText,
  tokenText
} from "./atomic"
import { Celebration, SwapWallet } from "./ports"
import {
  atomicOffered,
  canEstimate,
  feeKeyOf,
  type NetworkFeeState,
  estimateSettled,
  initialSwapState,
  type LivePrice,
  PRICE_CYCLE_SECONDS,
  quoteKeyOf,
  reduce,
  reusableLivePrice,
  type SwapEvent,
  type SwapState
} from "./state"
import { buildTokenList, type TokenEntry } from "./tokens"

/** Spec §9 constants the orchestration runs on. */
export const TICK = Duration.seconds(1)
export const LIMIT_CHECK = Duration.seconds(5)
export const TRACKING_TRIES = 3
export const TRACKING_SPACING = Duration.seconds(5)
export const RESET_AFTER_SWAP = Duration.seconds(5)
export const RATE_LIMIT_TOAST_DURATION = Duration.seconds(10)
/** An atomic swap the exchange is still submitting is asked about this often, at most this many times. */
export const ATOMIC_POLL_SPACING = Duration.seconds(1)
export const ATOMIC_POLL_TRIES = 180

export const PREPARE_ERROR_STATUS = "Impossible to prepare the exchange, please try again."
export const SWAP_FAILED_STATUS = "Transaction failed. Please try again."
export const UNKNOWN_ERROR = "Unknown error"

/** A rejection in the wallet, or a withdrawn request, is not a failure: nothing left the wallet. */
export const SWAP_CANCELED_TITLE = "Swap canceled"
export const SWAP_REJECTED_TEXT = "You rejected the transaction in your wallet. Nothing was sent."
export const SWAP_WITHDRAWN_TEXT = "The request was withdrawn from your wallet. Nothing was sent."
export const SWAP_IGNORED_TEXT =
  "Your wallet had already received the request. If it still sends the deposit, it is settled at this quote and shows in Your Transactions."
export const CANCEL_UNCONFIRMED_TITLE = "Cancel not confirmed"
export const CANCEL_UNCONFIRMED_TEXT =
  "Your wallet may already have sent the deposit. If it did, it is settled at this quote and shows in Your Transactions."
/** The same for a pre-authorisation: until it is signed and submitted, nothing can move. */
export const CANCEL_UNCONFIRMED_ATOMIC_TEXT =
  "Your wallet may still sign the pre-authorisation. If it does, the swap goes ahead at this quote and shows in Your Transactions; if not, nothing moves."

/** The success toast's words: what was paid when the record shows it, else what the binding quote promised. */
const successText = (
  amount: string,
  quote: Quote,
  from: TokenEntry,
  to: TokenEntry,
  record: TransactionRecord | undefined
): string => {
  const sent = `You sent ${formatTokenAmount(amount, from.decimals)} ${from.symbol}`
  const out = (value: string) => `${formatTokenAmount(value, to.decimals)} ${to.symbol}`
  if (record?.status === "completed" && record.amount_out !== undefined)
    return `${sent} and received ${out(record.amount_out)}.`
  const promised =
    quote.binding === undefined ? ` for about ${out(quote.toAmount)}` : ` for ${out(quote.toAmount)} at the quoted rate`
  return `${sent}${promised}.${record === undefined ? " It will appear in your transactions shortly." : ""}`
}

/**
 * The swap card's machine. State is a SubscriptionRef moved only by `reduce`; this service turns clicks, time (on
 * Effect's Clock), HTTP answers and the wallet into events. `run` drives the timers while the card is shown; a swap,
 * once signed, runs in the service's own scope, so leaving the page never loses it.
 */
export class SwapMachine extends Effect.Service<SwapMachine>()("hswap/SwapMachine", {
  scoped: Effect.gen(function* () {
    const api = yield* ExchangeApi
    const wallet = yield* WalletSession
    const toaster = yield* Toaster
    const events = yield* SwapEvents
    const config = yield* AppConfig
    const gateway = yield* Gateway
    const signer = yield* SwapWallet
    const celebration = yield* Celebration
    const state = yield* SubscriptionRef.make<SwapState>(initialSwapState)
    /** The previewed network fee of the current inputs' deposit: estimating until the preview answers. */
    const networkFee = yield* SubscriptionRef.make<NetworkFeeState | undefined>(undefined)
    const liquidity = yield* SubscriptionRef.make<LiquidityResponse | undefined>(undefined)
    // Swaps and their follow-ups live as long as the app, not the card. Each runs under a key of its own, so none
    // replaces another (FiberMap rather than FiberSet: the app's other services use it, one module fewer to load).
    const background = yield* FiberMap.make<number, unknown, unknown>()
    let backgroundRuns = 0
    const inBackground = <A, E>(effect: Effect.Effect<A, E>) =>
      Effect.suspend(() => FiberMap.run(background, ++backgroundRuns, effect))

    const dispatch = (e: SwapEvent) => SubscriptionRef.update(state, (s) => reduce(s, e))
    const now = Clock.currentTimeMillis
    const latest = <A>(s: Stream.Stream<A>) => Stream.runHead(s).pipe(Effect.map(Option.getOrUndefined))

    const tokens = Effect.map(SubscriptionRef.get(liquidity), (l) =>
      buildTokenList(config.tokenResources, l?.assets ?? [])
    )
    const token = (symbol: string) => Effect.map(tokens, (ts) => ts.find((t) => t.symbol === symbol))

    const rateLimitedToast = toaster.show({
      title: "Rate Limit Exceeded",
      description:
        "Your device is overloading the request system. Please keep only one window open or avoid refreshing too frequently.",
      variant: "destructive",
      duration: RATE_LIMIT_TOAST_DURATION
    })

    /** Enters a service mode; the rate-limit toast shows when the mode begins. */
    const enterMode = (mode: "rate_limited" | "maintenance", by: "server" | "client" = "server") =>
      Effect.gen(function* () {
        const before = yield* SubscriptionRef.get(state)
        yield* dispatch({ _tag: "ServiceModeChanged", mode, by })
        if (mode === "rate_limited" && before.serviceMode !== "rate_limited") yield* rateLimitedToast
      })

    /**
     * HTTP 429 and 409 on a price, health, swap or transactions call (spec §8): the service mode they stand for.
     * True when `e` was one of them.
     */
    const serviceRefusal = (e: { readonly _tag: string }) => {
      if (e._tag === "ExchangeRateLimited") return Effect.as(enterMode("rate_limited"), true)
      if (e._tag === "ExchangeMaintenance") return Effect.as(enterMode("maintenance"), true)
      return Effect.succeed(false)
    }

    // The panels' and the dialog's calls reach the service mode this way; the machine's own calls enter it at once.
    yield* api.refusals.pipe(Stream.runForEach(serviceRefusal), Effect.forkScoped)

    /** Health and USD prices: at load and each time the 15 s cycle wraps. */
    const fetchHealth = Effect.gen(function* () {
      const r = yield* Effect.either(api.health)
      if (Either.isRight(r)) {
        const prices: Record<string, number> = {}
        for (const [symbol, p] of Object.entries(r.right.pairs_status))
          if (p.price_available && p.price_usd !== undefined) prices[symbol] = p.price_usd
        yield* dispatch({ _tag: "PricesReceived", prices })
        yield* dispatch({ _tag: "ApiReachability", reachable: true })
        const s = yield* SubscriptionRef.get(state)
        if (s.serviceMode !== "available" && s.rateLimitedBy !== "client")
          yield* dispatch({ _tag: "ServiceModeChanged", mode: "available" })
        return
      }
      const e = r.left
      if (yield* serviceRefusal(e)) return
      if (e._tag === "FetchTransportError") return yield* dispatch({ _tag: "ApiReachability", reachable: false })
      return yield* Effect.logWarning("health check failed", e)
    })

    /**
     * Asks the server for the live price of the current pair and amount: an estimate (auto), or a prepared quote.
     * Answers for inputs that changed meanwhile are dropped by `reduce`.
     */
    const fetchQuote = (prepared: boolean, userTriggered: boolean) =>
      Effect.gen(function* () {
        const s = yield* SubscriptionRef.get(state)
        if (!canEstimate(s) || s.serviceMode !== "available") return
        const key = quoteKeyOf(s)
        const [from, to] = [yield* token(s.from), yield* token(s.to)]
        if (from === undefined || to === undefined) return yield* dispatch({ _tag: "QuoteDropped", key })
        const requestedAt = yield* now
        yield* dispatch({ _tag: "PriceRequested", now: requestedAt })
        if ((yield* SubscriptionRef.get(state)).serviceMode === "rate_limited") {
          yield* rateLimitedToast
          return
        }
        const fail = () =>
          Effect.gen(function* () {
            yield* dispatch({ _tag: "QuoteFailed", key, message: PREPARE_ERROR_STATUS })
            if (userTriggered)
              yield* toaster.show({
                title: "Prepare the exchange failed",
                description: "Impossible to prepare the swap, please try again.",
                variant: "destructive"
              })
          })
        const r = yield* Effect.either(api.livePrice(from.resourceAddress, to.resourceAddress))
        if (Either.isLeft(r)) {
          const e = r.left
          if (yield* serviceRefusal(e)) return
          switch (e._tag) {
            case "FetchStatusError":
              return yield* dispatch({ _tag: "QuoteDropped", key })
            case "FetchTransportError":
              yield* dispatch({ _tag: "ApiReachability", reachable: false })
              return yield* fail()
            default:
              yield* Effect.logWarning("live price failed", e)
              return yield* fail()
          }
        }
        const price = r.right
        if (typeof price.error === "string" && price.error !== "") {
          // 'Forbidden route' / 'Route not available' quietly reset; any other price error is an error (spec §8).
          if (price.error === ForbiddenRoute || price.error === RouteNotAvailable)
            return yield* dispatch({ _tag: "QuoteDropped", key })
          yield* Effect.logWarning("live price error", price.error)
          return yield* fail()
        }
        const limits =
          price.min_amount_in !== undefined && price.max_amount_in !== undefined
            ? { min: price.min_amount_in, max: price.max_amount_in }
            : undefined
        if (price.effective_rate === undefined) return yield* fail()
        // The server's binding quote: its validity counts from when the answer arrived, on this Clock.
        const receivedAt = yield* now
        const binding =
          typeof price.quote_id === "string" && price.fee_out !== undefined && price.quote_valid_seconds !== undefined
            ? {
                quoteId: price.quote_id,
                feeOut: price.fee_out,
                expiresAt: receivedAt + Math.max(0, Math.floor(price.quote_valid_seconds)) * 1000,
                atomic: price.atomic === true,
                serverExpiresAt: price.quote_expires_at
              }
            : undefined
        const live: LivePrice = {
          pair: `${s.from}|${s.to}`,
          effectiveRate: price.effective_rate,
          limits,
          binding,
          at: receivedAt
        }
        const quote = yield* quoteAt(live, s.amount, to)
        if (quote === undefined) return yield* fail()
        yield* dispatch({ _tag: "LivePriceReceived", price: live })
        yield* dispatch({ _tag: "ApiReachability", reachable: true })
        yield* dispatch({ _tag: "QuoteReceived", key, quote, prepared })
        yield* inBackground(previewFee(s.amount, from))
      })

    /** The deposit Execute sends, and the one the fee preview prices: the same manifest for the same inputs. */
    const depositManifest = (account: string, amount: string, from: TokenEntry) =>
      buildSwapManifest({
        account,
        fromResource: from.resourceAddress,
        amount,
        divisibility: from.decimals,
        exchangeAccount: config.exchangeAccount
      })

    /**
     * The network fee the deposit will cost, from the Gateway's transaction preview of the very
     * manifest Execute sends; one preview per manifest. Until it answers, or when it cannot, the card shows the
     * spec's text.
     */
    const feeByManifest = new Map<string, string>()
    const previewFee = (amount: string, from: TokenEntry) => {
      const key = feeKeyOf(from.symbol, amount)
      const set = (fee: NetworkFeeState) => SubscriptionRef.set(networkFee, fee)
      return Effect.gen(function* () {
        const account = (yield* latest(wallet.session))?.selected
        if (account === undefined) return yield* set({ key, _tag: "Unavailable" })
        const manifest = depositManifest(account, amount, from)
        const known = feeByManifest.get(manifest)
        if (known !== undefined) return yield* set({ key, _tag: "Previewed", xrd: known })
        // Nothing is shown as the fee until this very deposit's preview answers.
        yield* set({ key, _tag: "Estimating" })
        // The preview and its receipt Schemas load with the first preview, not with the page.
        const { previewSwapFee } = yield* Effect.tryPromise(() => import("../../../../exchange/networkFee"))
        const fee = yield* previewSwapFee(manifest).pipe(Effect.provideService(Gateway, gateway))
        feeByManifest.set(manifest, fee)
        yield* set({ key, _tag: "Previewed", xrd: fee })
      }).pipe(
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.logWarning("network fee preview failed; the wallet shows the fee", cause),
            set({ key, _tag: "Unavailable" })
          )
        )
      )
    }

    /** The figures for `amount` at a live price (exactly the binding quote's output when there is one). */
    const quoteAt = (live: LivePrice, amount: string, to: TokenEntry) =>
      Effect.map(SubscriptionRef.get(state), (current) =>
        computeQuote({
          amount,
          effectiveRate: live.effectiveRate,
          toDecimals: to.decimals,
          toPriceUsd: current.prices[to.symbol],
          limits: live.limits,
          binding: live.binding
        })
      )

    /**
     * The auto-estimate (spec §4, checked every second): another amount of the same pair is priced from the last
     * live price while it is fresh, with no request; otherwise a request goes out once typing has paused.
     */
    const estimate = (s: SwapState, at: number) =>
      Effect.gen(function* () {
        const live = reusableLivePrice(s, at)
        if (live !== undefined) {
          const to = yield* token(s.to)
          if (to === undefined) return
          const quote = yield* quoteAt(live, s.amount, to)
          const from = yield* token(s.from)
          if (quote !== undefined) {
            if (from !== undefined) yield* inBackground(previewFee(s.amount, from))
            return yield* dispatch({ _tag: "QuoteReceived", key: quoteKeyOf(s), quote, prepared: false })
          }
        }
        if (estimateSettled(s, at)) yield* fetchQuote(false, false)
      })

    /** One second of the card's life: the countdown, the price cycle, the re-quote and the auto-estimate. */
    const tick = Effect.gen(function* () {
      const before = yield* SubscriptionRef.get(state)
      const at = yield* now
      yield* dispatch({ _tag: "Ticked", now: at })
      const after = yield* SubscriptionRef.get(state)
      if (before.cycle === 1 && after.cycle === PRICE_CYCLE_SECONDS) yield* fetchHealth
      if (after.status._tag === "success" && after.quotePrepared && before.countdown === 1 && after.countdown === 0)
        yield* fetchQuote(true, false)
      else if (after.status._tag !== "pending" && canEstimate(after) && after.quoteKey !== quoteKeyOf(after))
        yield* estimate(after, at)
    })

    const checkLimits = Effect.flatMap(now, (t) => dispatch({ _tag: "LimitsChecked", now: t }))

    /** A fresh read (before a swap); the 30 s poll is the page's `liquidityStream`. */
    const refreshLiquidity = loadLiquidity.pipe(
      Effect.provideService(ExchangeApi, api),
      Effect.tap((l) => SubscriptionRef.set(liquidity, l)),
      Effect.catchAll((e) => Effect.logWarning("liquidity failed", e))
    )
    const followLiquidity = Stream.runForEach(liquidityStream, (r) =>
      r._tag === "Success" ? SubscriptionRef.set(liquidity, r.value) : Effect.void
    ).pipe(Effect.provideService(ExchangeApi, api))

    /** Runs while the card is shown (the card forks it and interrupts it on unmount). */
    const run = Effect.gen(function* () {
      yield* fetchHealth
      yield* Effect.all(
        [
          Effect.repeat(Effect.zipRight(Effect.sleep(TICK), tick), Schedule.forever),
          Effect.repeat(Effect.zipRight(Effect.sleep(LIMIT_CHECK), checkLimits), Schedule.forever),
          followLiquidity
        ],
        { concurrency: "unbounded", discard: true }
      )
    }).pipe(Effect.withSpan("SwapMachine.run"))

    /**
     * Spec §7's tracking: `transactions/{account}` up to 3 times, 5 s apart, until a record with `tx_in` equal to the
     * hash appears. Gives the last list read (with or without the record; undefined when every read failed), which
     * the page shows instead of reading again. Tracking failures never fail the swap.
     */
    const track = (account: string, txHash: string) =>
      Effect.gen(function* () {
        let last: ReadonlyArray<TransactionRecord> | undefined
        for (let attempt = 1; attempt <= TRACKING_TRIES; attempt++) {
          const r = yield* Effect.either(api.transactions(account))
          if (Either.isRight(r)) {
            last = r.right
            if (r.right.some((t) => t.tx_in === txHash)) return last
          } else yield* Effect.logWarning("tracking: transactions failed", r.left)
          if (attempt < TRACKING_TRIES) yield* Effect.sleep(TRACKING_SPACING)
        }
        return last
      })

    /** Reads the account's balances again now (the commit changed them), never failing the swap. */
    const freshBalances = wallet.reloadBalances.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("balances after the swap failed", cause))
    )

    const swap = (s: SwapState, quote: Quote, account: string, from: TokenEntry, to: TokenEntry) =>
      Effect.gen(function* () {
        const manifest = depositManifest(account, s.amount, from)
        const message = swapMessage(config.brand.messagePrefix, from.symbol, to.symbol, quote.binding?.quoteId)
        yield* dispatch({ _tag: "WalletOpened" })
        const runtime = yield* Effect.runtime<never>()
        let submittedHash: string | undefined
        const signed = yield* Effect.either(
          signer.send({
            manifest,
            message,
            onSubmitted: (hash) => {
              submittedHash = hash
              Runtime.runFork(runtime)(dispatch({ _tag: "WalletSubmitted", txHash: hash }))
            }
          })
        )
        // Spec §8: "If tracking fails after the signed transaction, the swap is still shown as successful." The wallet
        // signed and submitted (its hash is in) and only following the commit failed (the Gateway down, a timeout):
        // the deposit may well have been paid, so it goes on as sent; only the ledger's own verdict (committed as a
        // failure, rejected: TransactionFailed) makes it a failure.
        const sent =
          Either.isLeft(signed) &&
          signed.left.kind === "failed" &&
          signed.left.reason !== "TransactionFailed" &&
          submittedHash !== undefined
            ? Either.right({ transactionIntentHash: submittedHash })
            : signed
        if (Either.isLeft(signed) && Either.isRight(sent))
          yield* Effect.logWarning("swap: the commit could not be followed after the submit; tracking it", signed.left)
        if (Either.isLeft(sent)) {
          const e = sent.left
          if (e.kind === "rejected" || e.kind === "canceled") {
            yield* Effect.logInfo("swap not sent", e.reason)
            const text =
              e.kind === "rejected"
                ? SWAP_REJECTED_TEXT
                : e.reason === "RequestIgnored"
                  ? SWAP_IGNORED_TEXT
                  : SWAP_WITHDRAWN_TEXT
            yield* dispatch({ _tag: "SwapCanceled", notice: `${SWAP_CANCELED_TITLE}. ${text}` })
            yield* toaster.show({ title: SWAP_CANCELED_TITLE, description: text })
            return
          }
          yield* Effect.logWarning("swap transaction failed", e)
          yield* dispatch({ _tag: "SwapFailed", message: SWAP_FAILED_STATUS })
          yield* toaster.show({
            title: "Transaction Failed",
            description: "Your swap could not be completed. Please check your balance and try again.",
            variant: "destructive"
          })
          return
        }
        const txHash = sent.right.transactionIntentHash
        yield* dispatch({ _tag: "WalletSubmitted", txHash })
        // From here the swap happened on the ledger: nothing below may turn it into a failure, not even a defect.
        // The deposit left the wallet: its balances are read again at once, not after tracking.
        yield* Effect.forkIn(freshBalances, yield* Effect.scope)
        yield* gateway.transaction.committedDetails(txHash).pipe(
          Effect.tap((d) => Effect.logInfo("swap committed", d.transaction.transaction_status)),
          Effect.catchAll((e) => Effect.logWarning("committed details failed", e)),
          Effect.catchAllDefect((d) => Effect.logError("committed details failed", d))
        )
        yield* api.registerSwap(txHash).pipe(
          Effect.catchAll((e) => Effect.logWarning("swap registration failed", e)),
          Effect.catchAllDefect((d) => Effect.logError("swap registration failed", d))
        )
        const seen = yield* track(account, txHash).pipe(
          Effect.catchAllDefect((d) => Effect.as(Effect.logError("tracking failed", d), undefined))
        )
        const succeededAt = yield* now
        yield* dispatch({ _tag: "SwapSucceeded", txHash, now: succeededAt })
        const submitted = { txHash, account, from: from.symbol, to: to.symbol, amountIn: s.amount }
        yield* events.publish(seen === undefined ? submitted : { ...submitted, seen })
        const record = seen?.find((t) => t.tx_in === txHash)
        yield* toaster.show({ title: "Swap Successful", description: successText(s.amount, quote, from, to, record) })
        // The payout, when the record shows it, changed the to-token's balance too: read once more before the reset.
        yield* Effect.all([celebration.celebrate, record?.status === "completed" ? freshBalances : Effect.void], {
          concurrency: "unbounded",
          discard: true
        })
        yield* Effect.sleep(RESET_AFTER_SWAP)
        yield* dispatch({ _tag: "Reset", key: quoteKeyOf(s), since: succeededAt })
      }).pipe(Effect.scoped, Effect.withSpan("SwapMachine.swap"))

    /**
     * The atomic swap: the wallet pre-authorises "take exactly X of FROM, give me back at least the quoted Y of TO"
     * until the quote expires, the exchange adds its leg and submits both as one transaction, and this follows it
     * (through the Clock) until it committed, lapsed or was refused. A wallet that cannot sign pre-authorisations, or
     * an exchange with the feature off, hands the same press to the deposit flow.
     */
    const atomicSwap = (s: SwapState, quote: Quote, account: string, from: TokenEntry, to: TokenEntry) =>
      Effect.gen(function* () {
        const binding = quote.binding
        if (binding === undefined) return yield* swap(s, quote, account, from, to)
        const fallBack = (why: string, detail: unknown) =>
          Effect.gen(function* () {
            yield* Effect.logInfo(`atomic swap unavailable (${why}); the deposit flow takes over`, detail)
            yield* dispatch({ _tag: "AtomicFallback" })
            return yield* swap(s, quote, account, from, to)
          })
        const lapsed = (text: string) =>
          Effect.zipRight(
            dispatch({ _tag: "AtomicLapsed", notice: text }),
            toaster.show({ title: ATOMIC_LAPSED_TITLE, description: text })
          )
        const refused = (text: string) =>
          Effect.zipRight(
            dispatch({ _tag: "AtomicRefused", message: text }),
            toaster.show({ title: ATOMIC_REFUSED_TITLE, description: text, variant: "destructive" })
          )
        const manifest = atomicSubintentManifest(
          {
            fromResource: from.resourceAddress,
            toResource: to.resourceAddress,
            amountIn: s.amount,
            quotedOut: quote.toAmount
          },
          account
        )
        // The wallet's expiration is the quote's remaining validity: the server's own end of it when it said, so the
        // window never outlives the quote whatever this device's clock says.
        const expiresAtSeconds = binding.serverExpiresAt ?? Math.floor(binding.expiresAt / 1000)
        yield* dispatch({ _tag: "PreAuthorizationRequested" })
        const signed = yield* Effect.either(
          signer.preAuthorize({
            manifest,
            message: swapMessage(config.brand.messagePrefix, from.symbol, to.symbol, binding.quoteId),
            expiresAtSeconds
          })
        )
        if (Either.isLeft(signed)) {
          const e = signed.left
          switch (e.kind) {
            case "unsupported":
              return yield* fallBack("the wallet cannot sign pre-authorisations", e.reason)
            case "expired":
              yield* Effect.logInfo("the wallet would not sign so close to the quote's end", e.reason)
              return yield* lapsed(ATOMIC_TOO_CLOSE_TEXT)
            case "rejected":
            case "canceled": {
              yield* Effect.logInfo("pre-authorisation not signed", e.reason)
              const text = e.kind === "rejected" ? SWAP_REJECTED_TEXT : SWAP_WITHDRAWN_TEXT
              yield* dispatch({ _tag: "SwapCanceled", notice: `${SWAP_CANCELED_TITLE}. ${text}` })
              return yield* toaster.show({ title: SWAP_CANCELED_TITLE, description: text })
            }
            case "failed":
              yield* Effect.logWarning("pre-authorisation failed", e)
              yield* dispatch({ _tag: "SwapFailed", message: SWAP_FAILED_STATUS })
              return yield* toaster.show({
                title: "Transaction Failed",
                description: "Your wallet could not sign the swap. Nothing moved. Please try again.",
                variant: "destructive"
              })
          }
        }
        const subintentId = signed.right.subintentHash
        yield* dispatch({ _tag: "PreAuthorizationSigned", subintentId })
        const submitted = yield* Effect.either(
          api.submitAtomicSwap({
            quote_id: binding.quoteId,
            amount: s.amount,
            signed_partial_transaction: signed.right.signedPartialTransaction
          })
        )
        let answer: AtomicSwapResponse | undefined
        if (Either.isLeft(submitted)) {
          const e = submitted.left
          if (e._tag === "AtomicSwapUnavailable") return yield* fallBack("the exchange has atomic swaps off", e.path)
          if (e._tag === "AtomicSwapRefused") {
            yield* Effect.logWarning("atomic swap refused", e)
            return yield* refused(refusalText(e.reason, e.serverMessage))
          }
          if (
            e._tag === "ExchangeRateLimited" ||
            e._tag === "ExchangeMaintenance" ||
            (e._tag === "FetchStatusError" && e.status < 500)
          ) {
            // The exchange answered and did not take it: nothing was submitted. (A 5xx may come from a proxy after
            // the exchange took it: that is no answer, and its status, below, says what happened.)
            yield* serviceRefusal(e)
            yield* Effect.logWarning("atomic swap not taken", e)
            return yield* refused(`The exchange could not take the swap right now. Nothing moved. Please try again.`)
          }
          // No answer (or an unreadable one): the exchange may have it. Its status, keyed by the subintent, says.
          yield* Effect.logWarning("atomic swap: no answer to the submission; asking for its status", e)
        } else answer = submitted.right
        for (
          let attempt = 0;
          answer?.state !== "committed" && answer?.state !== "lapsed" && answer?.state !== "refused";
          attempt++
        ) {
          if (attempt >= ATOMIC_POLL_TRIES) {
            yield* Effect.logError("atomic swap: no final state", subintentId)
            yield* dispatch({ _tag: "SwapFailed", message: ATOMIC_UNKNOWN_TEXT })
            return yield* toaster.show({
              title: UNKNOWN_ERROR,
              description: ATOMIC_UNKNOWN_TEXT,
              variant: "destructive"
            })
          }
          yield* Effect.sleep(ATOMIC_POLL_SPACING)
          const polled = yield* Effect.either(api.atomicSwap(subintentId))
          if (Either.isRight(polled)) answer = polled.right
          else if (polled.left._tag === "AtomicSwapUnavailable" && answer === undefined)
            // The exchange never received it (its first answer was lost before it read the body): nothing moved.
            return yield* lapsed(ATOMIC_LAPSED_TEXT)
          else yield* Effect.logWarning("atomic swap status failed", polled.left)
        }
        if (answer.state === "lapsed") return yield* lapsed(ATOMIC_LAPSED_TEXT)
        if (answer.state === "refused")
          return yield* refused(refusalText("", answer.message ?? "The exchange would not make this swap."))
        const txHash = answer.tx_id ?? ""
        if (txHash === "") {
          yield* Effect.logError("atomic swap committed without a transaction id", answer)
          yield* dispatch({ _tag: "SwapFailed", message: ATOMIC_UNKNOWN_TEXT })
          return yield* toaster.show({ title: UNKNOWN_ERROR, description: ATOMIC_UNKNOWN_TEXT, variant: "destructive" })
        }
        // One transaction moved both legs: from here nothing may turn it into a failure.
        yield* Effect.forkIn(freshBalances, yield* Effect.scope)
        const seen = yield* track(account, txHash).pipe(
          Effect.catchAllDefect((d) => Effect.as(Effect.logError("tracking failed", d), undefined))
        )
        const succeededAt = yield* now
        yield* dispatch({ _tag: "AtomicCommitted", txHash, now: succeededAt })
        const event = {
          txHash,
          account,
          from: from.symbol,
          to: to.symbol,
          amountIn: s.amount,
          atomic: { amountOut: answer.amount_out ?? answer.quoted_out }
        }
        yield* events.publish(seen === undefined ? event : { ...event, seen })
        yield* toaster.show({
          title: "Swap Successful",
          description: `You sent exactly ${tokenText(answer.amount_in, from)} and received ${tokenText(answer.amount_out ?? answer.quoted_out, to)}, in one transaction.`
        })
        yield* celebration.celebrate
        yield* Effect.sleep(RESET_AFTER_SWAP)
        yield* dispatch({ _tag: "Reset", key: quoteKeyOf(s), since: succeededAt })
      }).pipe(Effect.scoped, Effect.withSpan("SwapMachine.atomicSwap"))

    /**
     * Spec §8 "Unknown state: toast 'Unknown error'": what a click started ended in a way no rule covers (a defect).
     * It is logged and told; a button left spinning is released with the same words.
     */
    const unknownError = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.catchAllCause(effect, (cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.void
          : Effect.gen(function* () {
              yield* Effect.logError("swap card: unknown error", cause)
              if ((yield* SubscriptionRef.get(state)).status._tag === "pending")
                yield* dispatch({ _tag: "SwapFailed", message: UNKNOWN_ERROR })
              yield* toaster.show({ title: UNKNOWN_ERROR, variant: "destructive" })
            })
      )

    /** The amount is above the selected account's known balance of the from-token. */
    const aboveBalance = (s: SwapState) =>
      Effect.gen(function* () {
        const balances = yield* latest(wallet.balances)
        const from = yield* token(s.from)
        if (balances?._tag !== "Ready" || from === undefined) return false
        return exceedsBalance(s.amount, balances.amounts[from.resourceAddress] ?? "0")
      })

    /**
     * A press of the orange above-balance button before any quote: the spec's balance toast (§5), nothing else.
     */
    const explainBalance = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      const balances = yield* latest(wallet.balances)
      const from = yield* token(s.from)
      if (balances?._tag !== "Ready" || from === undefined) return
      const balance = balances.amounts[from.resourceAddress] ?? "0"
      if (exceedsBalance(s.amount, balance))
        yield* toaster.show({ ...balanceToast(balance, from.symbol, from.decimals), variant: "destructive" })
    })

    /** A click on the action button in `ready`: prepare the quote. */
    const prepare = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      if (!canEstimate(s) || s.status._tag === "pending" || s.serviceMode !== "available") return
      // No binding quote is issued for a trade the wallet cannot pay: the card already says why.
      if (yield* aboveBalance(s)) return
      yield* dispatch({ _tag: "PrepareStarted" })
      yield* fetchQuote(true, true)
      // A quote that could not be prepared must not leave the button spinning.
      const after = yield* SubscriptionRef.get(state)
      if (after.status._tag === "pending") yield* dispatch({ _tag: "QuoteDropped", key: quoteKeyOf(after) })
    })

    /**
     * A press of Execute (click, Enter or Space). Single-flight: the first press moves the machine to `checking` in
     * one atomic step before any I/O, and every later press finds it there and does nothing until the swap ends.
     * Then the checks with their toasts, then the swap (in the background scope).
     */
    const execute = Effect.gen(function* () {
      const s = yield* SubscriptionRef.modify(state, (current) => {
        const next = reduce(current, { _tag: "ExecutePressed" })
        return [next === current ? undefined : current, next]
      })
      if (s === undefined || s.quote === undefined) return
      const quote = s.quote
      const abort = (toast: { readonly title: string; readonly description: string }) =>
        Effect.zipRight(dispatch({ _tag: "ExecuteAborted" }), toaster.show({ ...toast, variant: "destructive" }))
      const session = yield* latest(wallet.session)
      const balances = yield* latest(wallet.balances)
      const [from, to] = [yield* token(s.from), yield* token(s.to)]
      if (from === undefined || to === undefined) return yield* dispatch({ _tag: "ExecuteAborted" })
      // A quote stays prepared when the wallet disconnects; without an account there is no balance to compare with.
      const account = session?.selected
      if (account === undefined)
        return yield* abort({
          title: "No account selected",
          description: "Please select an account to execute the swap."
        })
      const balance = balances?._tag === "Ready" ? (balances.amounts[from.resourceAddress] ?? "0") : "0"
      if (exceedsBalance(s.amount, balance)) return yield* abort(balanceToast(balance, from.symbol, from.decimals))
      yield* refreshLiquidity
      const toLiquidity = liquidityOf(yield* SubscriptionRef.get(liquidity), to.symbol)
      if (!liquidityCovers(toLiquidity, quote.toAmount))
        return yield* abort({ title: "Insufficient liquidity", description: LOW_LIQUIDITY_MESSAGE })
      if ((yield* SubscriptionRef.get(state)).txLimitReached)
        return yield* abort({ title: "Transaction limit", description: TRANSACTION_LIMIT_MESSAGE })
      const flow = atomicOffered(s) ? atomicSwap : swap
      yield* inBackground(unknownError(flow(s, quote, account, from, to)))
    })

    /**
     * Cancel while the wallet shows the request: the request is withdrawn (the swap's own fiber then reports 'Swap
     * canceled'). When the wallet cannot confirm the withdrawal it may still send the deposit; the message names
     * the quote, so the exchange settles it at that quote either way, and the user is told so.
     */
    const cancel = Effect.gen(function* () {
      const before = yield* SubscriptionRef.get(state)
      if (before.swap?._tag !== "wallet" && before.swap?._tag !== "signing") return
      yield* dispatch({ _tag: "CancelRequested" })
      const outcome = yield* signer.cancel
      // The wallet answered meanwhile: the swap goes on as it would have.
      if (outcome === "nothing_to_cancel") return yield* dispatch({ _tag: "CancelUndone" })
      if (outcome !== "unconfirmed") return
      // The swap's own fiber reports first; if the wallet sends after all, the swap goes on and needs no warning.
      const after = yield* state.changes.pipe(
        Stream.filter((s) => s.swap === undefined || s.swap._tag === "confirming" || s.swap._tag === "submitting"),
        Stream.runHead
      )
      if (Option.isSome(after) && after.value.swap === undefined && after.value.status._tag === "idle")
        yield* toaster.show({
          title: CANCEL_UNCONFIRMED_TITLE,
          description: before.swap._tag === "signing" ? CANCEL_UNCONFIRMED_ATOMIC_TEXT : CANCEL_UNCONFIRMED_TEXT
        })
    })

    return {
      state: state.changes as Stream.Stream<SwapState>,
      liquidity: liquidity.changes as Stream.Stream<LiquidityResponse | undefined>,
      networkFee: networkFee.changes as Stream.Stream<NetworkFeeState | undefined>,
      tokens,
      current: SubscriptionRef.get(state),
      run,
      dispatch,
      setFrom: (symbol: string) => dispatch({ _tag: "FromChanged", symbol }),
      setTo: (symbol: string) => dispatch({ _tag: "ToChanged", symbol }),
      /** `input`: the amount field's number for this input (see SwapState.amountInput). */
      setAmount: (raw: string, input?: number) =>
        Effect.flatMap(now, (at) =>
          dispatch({ _tag: "AmountChanged", raw, now: at, ...(input === undefined ? {} : { input }) })
        ),
      flip: dispatch({ _tag: "Flipped" }),
      prepare: unknownError(prepare),
      execute: unknownError(execute),
      explainBalance: unknownError(explainBalance),
      cancel: unknownError(cancel),
      /** For tests: waits for background swaps to finish. */
      awaitBackground: FiberMap.awaitEmpty(background)
    } as const
  })
}) {}
