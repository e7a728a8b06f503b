/**
 * The swap machine's state and its pure transition function. Everything that happens to the swap card is an event;
 * `reduce` says what the state becomes. The orchestration (SwapMachine.ts) only turns time, HTTP answers and the
 * wallet into events.
 */
import { isAmountPositive, sanitizeAmountInput } from "../../../../exchange/amount"
import {
  DEFAULT_PAIR,
  isAcceptedRoute,
  overLimit,
  PRICE_REQUEST_LIMIT,
  type Quote,
  recordRequest,
  type RequestWindow,
  SWAP_LIMIT,
  swapLimitReached,
  type SwapStatus
} from "../../../../exchange/swap"

/** Spec §9: the quote reloads 15 s after success; the health and price cycle is 15 s. */
export const QUOTE_REFRESH_SECONDS = 15
export const PRICE_CYCLE_SECONDS = 15

export type ServiceMode = "available" | "rate_limited" | "maintenance"

export interface SwapState {
  readonly from: string
  readonly to: string
  /** The from-amount as typed (sanitised). */
  readonly amount: string
  readonly status: SwapStatus
  /** The current estimate or prepared quote, for `quoteKey`'s inputs. */
  readonly quote: Quote | undefined
  readonly quoteKey: string | undefined
  /** The user prepared the quote (success); an auto-estimate alone is not prepared. */
  readonly quotePrepared: boolean
  /** Seconds until the prepared quote reloads. */
  readonly countdown: number
  /** Seconds left in the 15 s live-prices cycle. */
  readonly cycle: number
  readonly serviceMode: ServiceMode
  /** Why the service is rate limited: the server said 429, or the client's own 10-in-30 s limit. */
  readonly rateLimitedBy: "server" | "client" | undefined
  readonly apiUnavailable: boolean
  /** USD price by symbol, from the health call. */
  readonly prices: Readonly<Record<string, number>>
  readonly priceRequests: RequestWindow
  readonly swaps: RequestWindow
  readonly txLimitReached: boolean
}

export const initialSwapState: SwapState = {
  from: DEFAULT_PAIR.from,
  to: DEFAULT_PAIR.to,
  amount: "",
  status: { _tag: "idle" },
  quote: undefined,
  quoteKey: undefined,
  quotePrepared: false,
  countdown: 0,
  cycle: PRICE_CYCLE_SECONDS,
  serviceMode: "available",
  rateLimitedBy: undefined,
  apiUnavailable: false,
  prices: {},
  priceRequests: [],
  swaps: [],
  txLimitReached: false
}

export type SwapEvent =
  | { readonly _tag: "FromChanged"; readonly symbol: string }
  | { readonly _tag: "ToChanged"; readonly symbol: string }
  | { readonly _tag: "AmountChanged"; readonly raw: string }
  | { readonly _tag: "Flipped" }
  | { readonly _tag: "PrepareStarted" }
  | { readonly _tag: "PriceRequested"; readonly now: number }
  | { readonly _tag: "QuoteReceived"; readonly key: string; readonly quote: Quote; readonly prepared: boolean }
  /** 'Forbidden route', 'Route not available' and other HTTP errors: the status quietly resets to idle. */
  | { readonly _tag: "QuoteDropped"; readonly key: string }
  | { readonly _tag: "QuoteFailed"; readonly key: string; readonly message: string }
  | { readonly _tag: "ServiceModeChanged"; readonly mode: ServiceMode; readonly by?: "server" | "client" }
  | { readonly _tag: "ApiReachability"; readonly reachable: boolean }
  | { readonly _tag: "PricesReceived"; readonly prices: Readonly<Record<string, number>> }
  | { readonly _tag: "Ticked" }
  | { readonly _tag: "LimitsChecked"; readonly now: number }
  | { readonly _tag: "SwapStarted" }
  | { readonly _tag: "SwapFailed"; readonly message: string }
  | { readonly _tag: "SwapSucceeded"; readonly txHash: string; readonly now: number }
  | { readonly _tag: "Reset" }

/** The inputs a quote belongs to; a quote for other inputs is stale and ignored. */
export const quoteKeyOf = (s: Pick<SwapState, "from" | "to" | "amount">) => `${s.from}|${s.to}|${s.amount}`

/** A valid route and amount exist, so an estimate can be asked for. */
export const canEstimate = (s: SwapState) => isAcceptedRoute(s.from, s.to) && isAmountPositive(s.amount)

const cleared = (s: SwapState): SwapState => ({
  ...s,
  quote: undefined,
  quoteKey: undefined,
  quotePrepared: false,
  countdown: 0,
  status: { _tag: "idle" }
})

export const reduce = (s: SwapState, e: SwapEvent): SwapState => {
  switch (e._tag) {
    case "FromChanged":
      if (e.symbol === s.from) return s
      // Choosing the other side's token swaps the pair rather than making an invalid one.
      return cleared({ ...s, from: e.symbol, to: e.symbol === s.to ? s.from : s.to })
    case "ToChanged":
      if (e.symbol === s.to) return s
      return cleared({ ...s, to: e.symbol, from: e.symbol === s.from ? s.to : s.from })
    case "AmountChanged": {
      const amount = sanitizeAmountInput(e.raw)
      return amount === s.amount ? s : cleared({ ...s, amount })
    }
    case "Flipped": {
      // The tokens and the amounts swap: the received amount becomes the amount to send.
      const received = s.quote?.toAmount
      return cleared({
        ...s,
        from: s.to,
        to: s.from,
        amount: received !== undefined && received !== "0" ? received : ""
      })
    }
    case "PrepareStarted":
      return { ...s, status: { _tag: "pending" } }
    case "PriceRequested": {
      const priceRequests = recordRequest(s.priceRequests, e.now, PRICE_REQUEST_LIMIT.windowMillis)
      return overLimit(priceRequests, e.now, PRICE_REQUEST_LIMIT)
        ? { ...s, priceRequests, serviceMode: "rate_limited", rateLimitedBy: "client" }
        : { ...s, priceRequests }
    }
    case "QuoteReceived":
      if (e.key !== quoteKeyOf(s)) return s
      return e.prepared || s.quotePrepared
        ? {
            ...s,
            quote: e.quote,
            quoteKey: e.key,
            quotePrepared: true,
            status: { _tag: "success", txHash: undefined },
            countdown: QUOTE_REFRESH_SECONDS,
            apiUnavailable: false
          }
        : {
            ...s,
            quote: e.quote,
            quoteKey: e.key,
            apiUnavailable: false,
            status: s.status._tag === "pending" ? s.status : { _tag: "idle" }
          }
    case "QuoteDropped":
      return e.key !== quoteKeyOf(s) ? s : { ...cleared(s), quoteKey: e.key }
    case "QuoteFailed":
      return e.key !== quoteKeyOf(s)
        ? s
        : { ...cleared(s), quoteKey: e.key, status: { _tag: "error", message: e.message } }
    case "ServiceModeChanged":
      return {
        ...s,
        serviceMode: e.mode,
        rateLimitedBy: e.mode === "rate_limited" ? (e.by ?? "server") : undefined,
        status: e.mode === "available" ? s.status : s.status._tag === "pending" ? { _tag: "idle" } : s.status
      }
    case "ApiReachability":
      return s.apiUnavailable === !e.reachable ? s : { ...s, apiUnavailable: !e.reachable }
    case "PricesReceived":
      return { ...s, prices: e.prices }
    case "Ticked": {
      const cycle = s.cycle <= 1 ? PRICE_CYCLE_SECONDS : s.cycle - 1
      const counting = s.status._tag === "success" && s.quotePrepared && s.countdown > 0
      return { ...s, cycle, countdown: counting ? s.countdown - 1 : s.countdown }
    }
    case "LimitsChecked": {
      const txLimitReached = swapLimitReached(s.swaps, e.now)
      const clientLimitOver =
        s.serviceMode === "rate_limited" &&
        s.rateLimitedBy === "client" &&
        !overLimit(s.priceRequests, e.now, PRICE_REQUEST_LIMIT)
      return {
        ...s,
        txLimitReached,
        ...(clientLimitOver ? { serviceMode: "available" as const, rateLimitedBy: undefined } : {})
      }
    }
    case "SwapStarted":
      return { ...s, status: { _tag: "pending" } }
    case "SwapFailed":
      return { ...s, status: { _tag: "error", message: e.message } }
    case "SwapSucceeded":
      return {
        ...s,
        status: { _tag: "success", txHash: e.txHash },
        quotePrepared: false,
        countdown: 0,
        swaps: recordRequest(s.swaps, e.now, SWAP_LIMIT.windowMillis)
      }
    case "Reset":
      return { ...cleared(s), amount: "" }
  }
}
