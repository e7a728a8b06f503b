import { Cause, Clock, Duration, Effect, Either, FiberSet, Option, Schedule, Stream, SubscriptionRef } from "effect"
import {
  ForbiddenRoute,
  type LiquidityResponse,
  RouteNotAvailable,
  type TransactionRecord
} from "../../../../exchange/api"
import { exceedsBalance, liquidityCovers } from "../../../../exchange/amount"
import { ExchangeApi } from "../../../../exchange/ExchangeApi"
import { formatTokenAmount } from "../../../../exchange/format"
import {
  buildSwapManifest,
  computeQuote,
  LOW_LIQUIDITY_MESSAGE,
  swapMessage,
  TRANSACTION_LIMIT_MESSAGE
} from "../../../../exchange/swap"
import { Gateway } from "../../../../gateway/index"
import { AppConfig } from "../../../config/AppConfig"
import { Toaster } from "../../../services/Toaster"
import { WalletSession } from "../../../services/WalletSession"
import { liquidityOf, liquidityStream, loadLiquidity } from "../liquidity"
import { SwapEvents } from "../SwapEvents"
import { Celebration, SwapWallet } from "./ports"
import {
  canEstimate,
  initialSwapState,
  PRICE_CYCLE_SECONDS,
  quoteKeyOf,
  reduce,
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

export const PREPARE_ERROR_STATUS = "Impossible to prepare the exchange, please try again."
export const SWAP_FAILED_STATUS = "Transaction failed. Please try again."
export const UNKNOWN_ERROR = "Unknown error"

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
    const liquidity = yield* SubscriptionRef.make<LiquidityResponse | undefined>(undefined)
    // Swaps and their follow-ups live as long as the app, not the card.
    const background = yield* FiberSet.make<unknown, unknown>()

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
        yield* dispatch({ _tag: "PriceRequested", now: yield* now })
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
        const current = yield* SubscriptionRef.get(state)
        const quote =
          price.effective_rate === undefined
            ? undefined
            : computeQuote({
                amount: s.amount,
                effectiveRate: price.effective_rate,
                toDecimals: to.decimals,
                toPriceUsd: current.prices[to.symbol],
                limits
              })
        if (quote === undefined) return yield* fail()
        yield* dispatch({ _tag: "ApiReachability", reachable: true })
        yield* dispatch({ _tag: "QuoteReceived", key, quote, prepared })
      })

    /** One second of the card's life: the countdown, the price cycle, the re-quote and the auto-estimate. */
    const tick = Effect.gen(function* () {
      const before = yield* SubscriptionRef.get(state)
      yield* dispatch({ _tag: "Ticked" })
      const after = yield* SubscriptionRef.get(state)
      if (before.cycle === 1 && after.cycle === PRICE_CYCLE_SECONDS) yield* fetchHealth
      if (after.status._tag === "success" && after.quotePrepared && before.countdown === 1 && after.countdown === 0)
        yield* fetchQuote(true, false)
      else if (after.status._tag !== "pending" && canEstimate(after) && after.quoteKey !== quoteKeyOf(after))
        yield* fetchQuote(false, false)
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

    const swap = (s: SwapState, account: string, from: TokenEntry, to: TokenEntry) =>
      Effect.gen(function* () {
        const manifest = buildSwapManifest({
          account,
          fromResource: from.resourceAddress,
          amount: s.amount,
          divisibility: from.decimals,
          exchangeAccount: config.exchangeAccount
        })
        yield* dispatch({ _tag: "SwapStarted" })
        const sent = yield* Effect.either(
          signer.send({ manifest, message: swapMessage(config.brand.messagePrefix, from.symbol, to.symbol) })
        )
        if (Either.isLeft(sent)) {
          yield* Effect.logWarning("swap transaction failed", sent.left)
          yield* dispatch({ _tag: "SwapFailed", message: SWAP_FAILED_STATUS })
          yield* toaster.show({
            title: "Transaction Failed",
            description: "Your swap could not be completed. Please check your balance and try again.",
            variant: "destructive"
          })
          return
        }
        const txHash = sent.right.transactionIntentHash
        // From here the swap happened on the ledger: nothing below may turn it into a failure, not even a defect.
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
        yield* dispatch({ _tag: "SwapSucceeded", txHash, now: yield* now })
        const submitted = { txHash, account, from: from.symbol, to: to.symbol, amountIn: s.amount }
        yield* events.publish(seen === undefined ? submitted : { ...submitted, seen })
        yield* toaster.show({
          title: "Swap Successful",
          description: `You sent ${formatTokenAmount(s.amount)} ${from.symbol}${
            s.quote ? ` for about ${formatTokenAmount(s.quote.toAmount)} ${to.symbol}` : ""
          }.${seen?.some((t) => t.tx_in === txHash) ? "" : " It will appear in your transactions shortly."}`
        })
        yield* Effect.all([celebration.celebrate, wallet.reloadBalances], { concurrency: "unbounded", discard: true })
        yield* Effect.sleep(RESET_AFTER_SWAP)
        yield* dispatch({ _tag: "Reset" })
      }).pipe(Effect.withSpan("SwapMachine.swap"))

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

    /** A click on the action button in `ready`: prepare the quote. */
    const prepare = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      if (!canEstimate(s) || s.status._tag === "pending" || s.serviceMode !== "available") return
      yield* dispatch({ _tag: "PrepareStarted" })
      yield* fetchQuote(true, true)
      // A quote that could not be prepared must not leave the button spinning.
      const after = yield* SubscriptionRef.get(state)
      if (after.status._tag === "pending") yield* dispatch({ _tag: "QuoteDropped", key: quoteKeyOf(after) })
    })

    /** A click in `success`: the checks with their toasts, then the swap (in the background scope). */
    const execute = Effect.gen(function* () {
      const s = yield* SubscriptionRef.get(state)
      if (s.status._tag !== "success" || !s.quotePrepared || s.quote === undefined) return
      const session = yield* latest(wallet.session)
      const balances = yield* latest(wallet.balances)
      const [from, to] = [yield* token(s.from), yield* token(s.to)]
      if (from === undefined || to === undefined) return
      // A quote stays prepared when the wallet disconnects; without an account there is no balance to compare with.
      const account = session?.selected
      if (account === undefined)
        return yield* toaster.show({
          title: "No account selected",
          description: "Please select an account to execute the swap.",
          variant: "destructive"
        })
      const balance = balances?._tag === "Ready" ? (balances.amounts[from.resourceAddress] ?? "0") : "0"
      if (exceedsBalance(s.amount, balance))
        return yield* toaster.show({
          title: "Amount exceeds balance",
          description: `You have only ${formatTokenAmount(balance)} ${from.symbol} in your wallet.`,
          variant: "destructive"
        })
      yield* refreshLiquidity
      const toLiquidity = liquidityOf(yield* SubscriptionRef.get(liquidity), to.symbol)
      if (!liquidityCovers(toLiquidity, s.quote.toAmount))
        return yield* toaster.show({
          title: "Insufficient liquidity",
          description: LOW_LIQUIDITY_MESSAGE,
          variant: "destructive"
        })
      if ((yield* SubscriptionRef.get(state)).txLimitReached)
        return yield* toaster.show({
          title: "Transaction limit",
          description: TRANSACTION_LIMIT_MESSAGE,
          variant: "destructive"
        })
      yield* FiberSet.run(background, unknownError(swap(s, account, from, to)))
    })

    return {
      state: state.changes as Stream.Stream<SwapState>,
      liquidity: liquidity.changes as Stream.Stream<LiquidityResponse | undefined>,
      tokens,
      current: SubscriptionRef.get(state),
      run,
      dispatch,
      setFrom: (symbol: string) => dispatch({ _tag: "FromChanged", symbol }),
      setTo: (symbol: string) => dispatch({ _tag: "ToChanged", symbol }),
      setAmount: (raw: string) => dispatch({ _tag: "AmountChanged", raw }),
      flip: dispatch({ _tag: "Flipped" }),
      prepare: unknownError(prepare),
      execute: unknownError(execute),
      /** For tests: waits for background swaps to finish. */
      awaitBackground: FiberSet.awaitEmpty(background)
    } as const
  })
}) {}
