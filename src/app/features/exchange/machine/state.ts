/**
 * The swap machine's state and its pure transition function. Everything that happens to the swap card is an event;
 * `reduce` says what the state becomes. The orchestration (SwapMachine.ts) only turns time, HTTP answers and the
 * wallet into events.
 */
import { isAmountPositive, readAmountInput } from "../../../../exchange/amount"
import {
  DEFAULT_PAIR,
  isAcceptedRoute,
  overLimit,
  PRICE_REQUEST_LIMIT,
  type Limits,
  type Quote,
  type BindingQuote,
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

/**
 * An auto-estimate waits until the inputs have been still this long, so typing digit by digit sends one request,
 * not one a keystroke.
 */
export const ESTIMATE_DEBOUNCE_MILLIS = 750
/** A live price younger than this serves estimates for other amounts of the same pair without a request. */
export const LIVE_PRICE_REUSE_MILLIS = 15_000

/**
 * Where an executed swap is: `checking` from the press until the checks pass (no I/O has happened before it is
 * entered), `wallet` while the wallet shows the deposit, `canceling` after Cancel (`from` says which request it
 * withdraws), `confirming` once the wallet submitted and the commit is awaited.
 *
 * The atomic flow: `signing` while the wallet shows the pre-authorisation, `submitting` once it is signed and the
 * exchange submits it with its own leg (nothing has moved until that one transaction commits).
 */
export type SwapPhase =
  | { readonly _tag: "checking" }
  | { readonly _tag: "wallet" }
  | { readonly _tag: "canceling"; readonly from?: "signing" }
  | { readonly _tag: "confirming"; readonly txHash: string }
  | { readonly _tag: "signing" }
  | { readonly _tag: "submitting"; readonly subintentId: string }

/**
 * How the last atomic swap ended: `committed` (one transaction moved both legs), `lapsed` (its window closed before
 * it could commit: nothing moved) or `refused` (the exchange would not submit it: nothing moved).
 */
export type AtomicOutcome = "committed" | "lapsed" | "refused"

/** The last live price of a pair, reused for estimates of other amounts while it is fresh. */
export interface LivePrice {
  readonly pair: string
  readonly effectiveRate: string
  readonly limits: Limits | undefined
  readonly binding: BindingQuote | undefined
  readonly at: number
}

export interface SwapState {
  readonly from: string
  readonly to: string
  /** The from-amount as typed (sanitised). */
  readonly amount: string
  /**
   * The highest number of the amount field's inputs read so far (`AmountChanged.input`), whether accepted or not: the
   * field shows its own text until the machine has read every input it sent (features/exchange/amountField.ts).
   */
  readonly amountInput: number
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
  /** Why the last amount input was refused (it kept its previous value); cleared by the next accepted input. */
  readonly amountNotice: string | undefined
  /** When the inputs last changed (Clock millis), for the auto-estimate's debounce. */
  readonly editedAt: number
  /** The Clock's time at the last tick (for the quote's m:ss). */
  readonly now: number
  /** The executed swap's phase while status is pending for a swap; undefined otherwise. */
  readonly swap: SwapPhase | undefined
  /** A neutral outcome to show under the button ('Swap canceled…'); not an error. */
  readonly notice: string | undefined
  readonly livePrice: LivePrice | undefined
  /** How the last atomic swap ended, until the next press of Execute. */
  readonly atomicOutcome: AtomicOutcome | undefined
  /**
   * The atomic flow is off for this session: the wallet said it cannot sign pre-authorisations, or the exchange
   * answered that it does not take them. Execute then sends the deposit straight away.
   */
  readonly atomicOff: boolean
}

export const initialSwapState: SwapState = {
  from: DEFAULT_PAIR.from,
  to: DEFAULT_PAIR.to,
  amount: "",
  amountInput: 0,
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
  txLimitReached: false,
  amountNotice: undefined,
  editedAt: 0,
  now: 0,
  swap: undefined,
  notice: undefined,
  livePrice: undefined,
  atomicOutcome: undefined,
  atomicOff: false
}

/** Execute asks for a pre-authorisation: the quote is binding and atomic, and nothing said the flow is off. */
export const atomicOffered = (s: Pick<SwapState, "quote" | "atomicOff">) =>
  s.quote?.binding?.atomic === true && !s.atomicOff

export type SwapEvent =
  | { readonly _tag: "FromChanged"; readonly symbol: string }
  | { readonly _tag: "ToChanged"; readonly symbol: string }
  /** `input`: the field's number for this input, increasing (absent for an amount set another way, e.g. MAX). */
  | { readonly _tag: "AmountChanged"; readonly raw: string; readonly now?: number; readonly input?: number }
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
  | { readonly _tag: "Ticked"; readonly now?: number }
  | { readonly _tag: "LivePriceReceived"; readonly price: LivePrice }
  | { readonly _tag: "LimitsChecked"; readonly now: number }
  /** Execute pressed (click or key): accepted only in `success` with a prepared quote and no swap under way. */
  | { readonly _tag: "ExecutePressed" }
  /** A check refused the swap before the wallet was asked (its toast says why): back to the prepared quote. */
  | { readonly _tag: "ExecuteAborted" }
  | { readonly _tag: "WalletOpened" }
  | { readonly _tag: "CancelRequested" }
  /** Nothing was left to cancel (the wallet had just answered): back to waiting for it. */
  | { readonly _tag: "CancelUndone" }
  | { readonly _tag: "WalletSubmitted"; readonly txHash: string }
  /** Nothing was sent: the user rejected it in the wallet, or it was withdrawn. Not a failure. */
  | { readonly _tag: "SwapCanceled"; readonly notice: string }
  | { readonly _tag: "SwapFailed"; readonly message: string }
  | { readonly _tag: "SwapSucceeded"; readonly txHash: string; readonly now: number }
  /** The atomic flow: the checks passed and the wallet is asked for the pre-authorisation. */
  | { readonly _tag: "PreAuthorizationRequested" }
  /** The wallet signed; the exchange has it (or is being sent it), keyed by the subintent. */
  | { readonly _tag: "PreAuthorizationSigned"; readonly subintentId: string }
  /**
   * The wallet cannot sign pre-authorisations, or the exchange has atomic swaps off: the same press goes on as the
   * deposit flow, back at its checks, without the user doing anything.
   */
  | { readonly _tag: "AtomicFallback" }
  /** One transaction moved exactly what was pre-authorised out and the quoted output in. */
  | { readonly _tag: "AtomicCommitted"; readonly txHash: string; readonly now: number }
  /** The window closed before the swap could commit (or the wallet would not sign so close to it): nothing moved. */
  | { readonly _tag: "AtomicLapsed"; readonly notice: string }
  /** The exchange refused the pre-authorisation (`message`: its reason in the user's words): nothing moved. */
  | { readonly _tag: "AtomicRefused"; readonly message: string }
  /**
   * The form reset 5 s after a swap (spec §4): it clears the inputs the swap was made with (`key`, as they stood when
   * it succeeded at `since`). Anything typed or chosen since is the user's next swap and is kept.
   */
  | { readonly _tag: "Reset"; readonly key: string; readonly since: number }

/**
 * The network fee line: the Gateway's preview of the exact deposit for `key`'s inputs. `Estimating`
 * until it answers; `Unavailable` when it cannot (no account, a failed preview): the wallet then shows the fee.
 */
export type NetworkFeeState =
  | { readonly key: string; readonly _tag: "Estimating" }
  | { readonly key: string; readonly _tag: "Previewed"; readonly xrd: string }
  | { readonly key: string; readonly _tag: "Unavailable" }

/** The deposit's inputs a fee belongs to. */
export const feeKeyOf = (from: string, amount: string) => `${from}|${amount}`

export const FEE_ESTIMATING_TEXT = "Estimating..."
export const FEE_UNAVAILABLE_TEXT = "Shown in your wallet"

/** The fee line for the card's current inputs: never a figure the preview of this deposit has not given. */
export const networkFeeText = (
  fee: NetworkFeeState | undefined,
  from: string,
  amount: string,
  format: (xrd: string) => string
) =>
  fee === undefined || fee.key !== feeKeyOf(from, amount) || fee._tag === "Estimating"
    ? FEE_ESTIMATING_TEXT
    : fee._tag === "Previewed"
      ? format(fee.xrd)
      : FEE_UNAVAILABLE_TEXT

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
  status: { _tag: "idle" },
  notice: undefined
})

/** While a swap is under way its inputs are what was sent: they cannot change under it. */
const swapping = (s: SwapState) => s.swap !== undefined

/** A cached live price for the current pair, fresh enough for an estimate at `now`. */
export const reusableLivePrice = (s: SwapState, now: number): LivePrice | undefined => {
  const p = s.livePrice
  if (p === undefined || p.pair !== `${s.from}|${s.to}`) return undefined
  if (now - p.at >= LIVE_PRICE_REUSE_MILLIS) return undefined
  if (p.binding !== undefined && now >= p.binding.expiresAt) return undefined
  return p
}

/** The auto-estimate may send a request now: the inputs have been still for the debounce. */
export const estimateSettled = (s: SwapState, now: number) => now - s.editedAt >= ESTIMATE_DEBOUNCE_MILLIS

export const reduce = (s: SwapState, e: SwapEvent): SwapState => {
  switch (e._tag) {
    case "FromChanged":
      if (e.symbol === s.from || swapping(s)) return s
      // Choosing the other side's token swaps the pair rather than making an invalid one.
      return cleared({ ...s, from: e.symbol, to: e.symbol === s.to ? s.from : s.to })
    case "ToChanged":
      if (e.symbol === s.to || swapping(s)) return s
      return cleared({ ...s, to: e.symbol, from: e.symbol === s.from ? s.to : s.from })
    case "AmountChanged": {
      // Read or not, the field's input is acknowledged (see amountInput). One numbered below an input already read
      // reached the machine late (a fiber forked before the runtime was built waits for the build, and later ones can
      // run first): its text is part of the later input's, which holds the whole field.
      if (e.input !== undefined) {
        if (e.input <= s.amountInput) return s
        s = { ...s, amountInput: e.input }
      }
      if (swapping(s)) return s
      const read = readAmountInput(e.raw, s.amount)
      if (read._tag === "Refused") return s.amountNotice === read.reason ? s : { ...s, amountNotice: read.reason }
      const editedAt = e.now ?? s.editedAt
      if (read.value === s.amount) return s.amountNotice === undefined ? s : { ...s, amountNotice: undefined }
      return cleared({ ...s, amount: read.value, amountNotice: undefined, editedAt })
    }
    case "Flipped": {
      if (swapping(s)) return s
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
      // Only requests that are sent count: the one that would go over the limit is not sent, and not counted.
      const priceRequests = recordRequest(s.priceRequests, e.now, PRICE_REQUEST_LIMIT.windowMillis)
      return overLimit(priceRequests, e.now, PRICE_REQUEST_LIMIT)
        ? { ...s, serviceMode: "rate_limited", rateLimitedBy: "client" }
        : { ...s, priceRequests }
    }
    case "LivePriceReceived":
      return { ...s, livePrice: e.price }
    case "QuoteReceived":
      if (e.key !== quoteKeyOf(s) || swapping(s)) return s
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
      return e.key !== quoteKeyOf(s) || swapping(s) ? s : { ...cleared(s), quoteKey: e.key }
    case "QuoteFailed":
      return e.key !== quoteKeyOf(s) || swapping(s)
        ? s
        : { ...cleared(s), quoteKey: e.key, status: { _tag: "error", message: e.message } }
    case "ServiceModeChanged":
      return {
        ...s,
        serviceMode: e.mode,
        rateLimitedBy: e.mode === "rate_limited" ? (e.by ?? "server") : undefined,
        // A swap under way is not interrupted by a service mode: it ends by its own events.
        status:
          e.mode === "available" || swapping(s) ? s.status : s.status._tag === "pending" ? { _tag: "idle" } : s.status
      }
    case "ApiReachability":
      return s.apiUnavailable === !e.reachable ? s : { ...s, apiUnavailable: !e.reachable }
    case "PricesReceived":
      return { ...s, prices: e.prices }
    case "Ticked": {
      const cycle = s.cycle <= 1 ? PRICE_CYCLE_SECONDS : s.cycle - 1
      const counting = s.status._tag === "success" && s.quotePrepared && s.countdown > 0
      return { ...s, cycle, countdown: counting ? s.countdown - 1 : s.countdown, now: e.now ?? s.now }
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
    case "ExecutePressed":
      return s.status._tag === "success" && s.quotePrepared && s.quote !== undefined && !swapping(s)
        ? { ...s, status: { _tag: "pending" }, swap: { _tag: "checking" }, notice: undefined, atomicOutcome: undefined }
        : s
    case "ExecuteAborted":
      return s.swap?._tag === "checking" ? { ...s, status: { _tag: "success", txHash: undefined }, swap: undefined } : s
    case "WalletOpened":
      return s.swap?._tag === "checking" ? { ...s, swap: { _tag: "wallet" } } : s
    case "CancelRequested":
      return s.swap?._tag === "wallet"
        ? { ...s, swap: { _tag: "canceling" } }
        : s.swap?._tag === "signing"
          ? { ...s, swap: { _tag: "canceling", from: "signing" } }
          : s
    case "CancelUndone":
      return s.swap?._tag === "canceling"
        ? { ...s, swap: { _tag: s.swap.from === "signing" ? "signing" : "wallet" } }
        : s
    case "WalletSubmitted":
      return s.swap === undefined ? s : { ...s, swap: { _tag: "confirming", txHash: e.txHash } }
    case "PreAuthorizationRequested":
      return s.swap?._tag === "checking" ? { ...s, swap: { _tag: "signing" } } : s
    case "PreAuthorizationSigned":
      return s.swap?._tag === "signing" || (s.swap?._tag === "canceling" && s.swap.from === "signing")
        ? { ...s, swap: { _tag: "submitting", subintentId: e.subintentId } }
        : s
    case "AtomicFallback":
      return s.swap?._tag === "signing" || s.swap?._tag === "submitting" || s.swap?._tag === "canceling"
        ? { ...s, swap: { _tag: "checking" }, atomicOff: true }
        : s
    case "AtomicCommitted":
      return s.swap === undefined
        ? s
        : {
            ...s,
            swap: undefined,
            status: { _tag: "success", txHash: e.txHash },
            quotePrepared: false,
            countdown: 0,
            swaps: recordRequest(s.swaps, e.now, SWAP_LIMIT.windowMillis),
            atomicOutcome: "committed"
          }
    case "AtomicLapsed":
      // Nothing moved: back to an estimate, as after a cancel; a new Prepare fetches a fresh quote.
      return s.swap === undefined
        ? s
        : {
            ...s,
            status: { _tag: "idle" },
            swap: undefined,
            quotePrepared: false,
            countdown: 0,
            notice: e.notice,
            atomicOutcome: "lapsed"
          }
    case "AtomicRefused":
      return s.swap === undefined
        ? s
        : {
            ...s,
            status: { _tag: "error", message: e.message },
            swap: undefined,
            quotePrepared: false,
            countdown: 0,
            atomicOutcome: "refused"
          }
    case "SwapCanceled":
      // Back to an estimate: the figures stay, a new Prepare fetches a fresh binding quote.
      return {
        ...s,
        status: { _tag: "idle" },
        swap: undefined,
        quotePrepared: false,
        countdown: 0,
        notice: e.notice
      }
    case "SwapFailed":
      return { ...s, status: { _tag: "error", message: e.message }, swap: undefined }
    case "SwapSucceeded":
      return {
        ...s,
        swap: undefined,
        status: { _tag: "success", txHash: e.txHash },
        quotePrepared: false,
        countdown: 0,
        swaps: recordRequest(s.swaps, e.now, SWAP_LIMIT.windowMillis)
      }
    case "Reset":
      if (swapping(s) || quoteKeyOf(s) !== e.key || s.editedAt > e.since) return s
      return { ...cleared(s), amount: "" }
  }
}
