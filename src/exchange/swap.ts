/**
 * The swap's pure rules (spec app §4, §5, §8, §9): accepted routes, the action-button state in the spec's order and
 * its texts, the transaction message and its display rule, the deposit manifest, and the client-side rate limits.
 * No effects here: the swap machine (app) drives these with Effect's Clock.
 */
import { BigDecimal, Option } from "effect"
import {
  decimalFromNumber,
  divideDown,
  formatPlain,
  MAX_DIVISIBILITY,
  parseLooseDecimal,
  parseUnsignedDecimal
} from "../lib/decimalText"
import { exceedsBalance, isAmountPositive, liquidityCovers, minimumReceived } from "./amount"
import { divisibilityOf, formatBalance, formatTokenAmount } from "./format"

export interface Route {
  readonly from: string
  readonly to: string
}

/** The client's hard-coded accepted routes (spec §3). The server remains the authority ('Forbidden route'). */
export const ACCEPTED_ROUTES: ReadonlyArray<Route> = [
  { from: "hUSDC", to: "hETH" },
  { from: "hUSDC", to: "hBTC" },
  { from: "hBTC", to: "hUSDC" },
  { from: "hETH", to: "hUSDC" }
]

export const isAcceptedRoute = (from: string, to: string, routes: ReadonlyArray<Route> = ACCEPTED_ROUTES) =>
  from !== to && routes.some((r) => r.from === from && r.to === to)

/**
 * Why choosing `symbol` on one side of `current` makes a pair with no accepted route, or undefined when it pairs.
 * Choosing the other side's token swaps the pair (as the card does), so that choice is judged as the swapped pair.
 */
export const unpairedReason = (
  side: "from" | "to",
  symbol: string,
  current: Route,
  routes: ReadonlyArray<Route> = ACCEPTED_ROUTES
): string | undefined => {
  const pair =
    side === "from"
      ? { from: symbol, to: symbol === current.to ? current.from : current.to }
      : { from: symbol === current.from ? current.to : current.from, to: symbol }
  if (isAcceptedRoute(pair.from, pair.to, routes)) return undefined
  if (side === "from")
    return routes.some((r) => r.from === symbol) ? `No route to ${pair.to}` : `No route from ${symbol} on this exchange`
  return routes.some((r) => r.to === symbol) ? `No route from ${pair.from}` : `No route to ${symbol} on this exchange`
}

/** Default pair (spec §9). */
export const DEFAULT_PAIR: Route = { from: "hETH", to: "hUSDC" }

export type SwapStatus =
  | { readonly _tag: "idle" }
  | { readonly _tag: "pending" }
  | { readonly _tag: "success"; readonly txHash: string | undefined }
  | { readonly _tag: "error"; readonly message: string }

export type ActionState =
  | "swapping"
  | "success"
  | "disconnected"
  | "err_routes"
  | "err_min"
  | "err_balance"
  | "err_insufficient_liquidity"
  | "err_min_limit"
  | "err_max_limit"
  | "ready"

export interface Limits {
  /** min_amount_in and max_amount_in, in input-token units. */
  readonly min: string
  readonly max: string
}

export interface ActionInputs {
  readonly status: SwapStatus
  /** A quote has been prepared (status success after "Prepare"). */
  readonly quotePrepared: boolean
  readonly account: string | undefined
  readonly from: string
  readonly to: string
  readonly amount: string
  /** The expected output of the current estimate or quote, in to-token units. */
  readonly expectedOutput: string | undefined
  /** The exchange's liquidity of the to-token; undefined when no liquidity data exists (the check passes). */
  readonly toLiquidity: string | undefined
  readonly limits: Limits | undefined
  /** The wallet balance of the from-token, when known. */
  readonly balance?: string | undefined
}

const liquidityTooLow = (i: ActionInputs) =>
  i.expectedOutput !== undefined && !liquidityCovers(i.toLiquidity, i.expectedOutput)

const compareAmount = (amount: string, bound: string): -1 | 0 | 1 | undefined => {
  const a = parseUnsignedDecimal(amount)
  const b = parseLooseDecimal(bound)
  return Option.isSome(a) && Option.isSome(b) ? BigDecimal.Order(a.value, b.value) : undefined
}

/** The action button's state, derived in exactly the spec's order (§4). */
export const actionState = (i: ActionInputs): ActionState => {
  if (i.status._tag === "pending") return "swapping"
  if (i.status._tag === "success" && i.quotePrepared) {
    if (liquidityTooLow(i)) return "err_insufficient_liquidity"
    // Never a green Execute that can only fail: a prepared quote above the balance shows the orange state.
    if (i.account !== undefined && i.balance !== undefined && exceedsBalance(i.amount, i.balance)) return "err_balance"
    return "success"
  }
  if (i.account === undefined) return "disconnected"
  if (!isAcceptedRoute(i.from, i.to)) return "err_routes"
  if (!isAmountPositive(i.amount)) return "err_min"
  // Known while typing, before any quote: an amount above the balance is the one reason shown, whatever else is
  // wrong with it (a limit it also breaks is moot until it fits the wallet).
  if (i.balance !== undefined && exceedsBalance(i.amount, i.balance)) return "err_balance"
  if (liquidityTooLow(i)) return "err_insufficient_liquidity"
  if (i.limits !== undefined) {
    if (compareAmount(i.amount, i.limits.min) === -1) return "err_min_limit"
    if (compareAmount(i.amount, i.limits.max) === 1) return "err_max_limit"
  }
  return "ready"
}

export const LOW_LIQUIDITY_MESSAGE = "Swap unavailable due to low liquidity. Please wait for rebalancing."

/**
 * A limit as the spec's token rules print it (§9, `formatTokenAmount`). The minimum is rounded up at the printed
 * precision (and the maximum truncated), so an amount typed exactly as shown is always within the limit.
 */
export const formatLimit = (value: string, bound: "min" | "max", divisibility: number = MAX_DIVISIBILITY): string => {
  const d = parseLooseDecimal(value)
  if (Option.isNone(d) || bound === "max") return formatTokenAmount(value, divisibility)
  const v = d.value
  const band = BigDecimal.lessThan(v, ONE) ? 8 : BigDecimal.lessThan(v, THOUSAND) ? 6 : undefined
  if (band === undefined) return formatTokenAmount(value, divisibility)
  const places = Math.min(band, divisibility)
  const cut = BigDecimal.truncate(v, places)
  const up = BigDecimal.lessThan(cut, v) ? BigDecimal.sum(cut, BigDecimal.make(1n, places)) : cut
  return formatTokenAmount(formatPlain(up), divisibility)
}
const ZERO = BigDecimal.fromBigInt(0n)
const ONE = BigDecimal.fromBigInt(1n)
const THOUSAND = BigDecimal.fromBigInt(1000n)

export const minLimitMessage = (min: string, symbol: string, divisibility = divisibilityOf(symbol)) =>
  `Minimum amount required 1 USD$ (${formatLimit(min, "min", divisibility)} ${symbol})`
export const maxLimitMessage = (max: string, symbol: string, divisibility = divisibilityOf(symbol)) =>
  `Maximum amount allowed 200 USD$ (${formatLimit(max, "max", divisibility)} ${symbol})`

/**
 * Spec §5's toast when a swap above the balance is attempted. The balance reads as the card's Balance line does
 * (spec §9: balances show 8 decimals, or the token's divisibility when fewer).
 */
export const balanceToast = (balance: string, symbol: string, divisibility = divisibilityOf(symbol)) => ({
  title: "Amount exceeds balance",
  description: `You have only ${formatBalance(balance, divisibility)} ${symbol} in your wallet.`
})

/** The action states that say the trade as entered cannot happen: the card shows the reason, not a rate panel. */
export const isBlockingAmountState = (state: ActionState) =>
  state === "err_balance" || state === "err_min_limit" || state === "err_max_limit"

/** The orange state's text: what is wrong and what to do, with the balance as the Balance line shows it. */
export const balanceLimitLabel = (balance: string, symbol: string, divisibility = divisibilityOf(symbol)) =>
  `Amount exceeds balance (${formatBalance(balance, divisibility)} ${symbol}): lower it or press MAX`

export interface LabelContext {
  readonly from: string
  readonly amount: string
  readonly balance: string | undefined
  readonly limits: Limits | undefined
  /** Seconds until the quote reloads; the suffix shows while it runs (above 0). */
  readonly countdown: number
  /** The from-token's divisibility (its display rule); by default the one known for its symbol. */
  readonly fromDivisibility?: number
}

/**
 * The button's text (§4). States the spec shows no text for use the §8 messages: the liquidity message and the
 * 'Minimum amount required…' / 'Maximum amount allowed…' lines.
 */
export const actionLabel = (state: ActionState, c: LabelContext): string => {
  switch (state) {
    case "swapping":
      return "Swapping..."
    case "success":
      return c.countdown > 0 ? `Execute Swap (Reload in ${c.countdown}s)` : "Execute Swap"
    case "disconnected":
      return "Connect Wallet"
    case "err_routes":
      return "Invalid route"
    case "err_min":
      return "Enter Amount to Swap"
    case "err_balance":
      return balanceLimitLabel(c.balance ?? "0", c.from, c.fromDivisibility)
    case "err_insufficient_liquidity":
      return LOW_LIQUIDITY_MESSAGE
    case "err_min_limit":
      return minLimitMessage(c.limits?.min ?? "?", c.from, c.fromDivisibility)
    case "err_max_limit":
      return maxLimitMessage(c.limits?.max ?? "?", c.from, c.fromDivisibility)
    case "ready":
      return c.balance !== undefined && !exceedsBalance(c.amount, c.balance)
        ? "Prepare the exchange"
        : "Estimate the exchange"
  }
}

/**
 * The transaction message: '{brand site} | Radix | FROM -> TO', and, for a binding quote, ' | quote {quoteId}' after
 * it. The spec's part stays first and readable in the wallet; the server reads both parts (`parseSwapMessage`).
 */
export const swapMessage = (site: string, from: string, to: string, quoteId?: string) =>
  `${site} | Radix | ${from} -> ${to}${quoteId === undefined ? "" : ` | quote ${quoteId}`}`

const MESSAGE_TAIL = /([A-Za-z][A-Za-z0-9]{0,15})\s*->\s*([A-Za-z][A-Za-z0-9]{0,15})(?:\s*\|\s*quote\s+(\S+))?\s*$/

export interface SwapMessage {
  readonly from: string
  readonly to: string
  /** The quote reference as written (not yet verified), when the message names one. */
  readonly quoteId: string | undefined
}

/**
 * Reads 'FROM -> TO' and an optional trailing ' | quote {ref}' from the end of a deposit's message. The reference is
 * returned as written; whether it is well-formed, signed and unused is the server's decision.
 */
export const parseSwapMessage = (message: string | undefined): SwapMessage | undefined => {
  const m = message === undefined ? null : MESSAGE_TAIL.exec(message.trim())
  if (m === null || m[1] === undefined || m[2] === undefined) return undefined
  return { from: m[1], to: m[2], quoteId: m[3] }
}

/**
 * What a binding quote pays for `amount` (from-token units): amount × rate − feeOut, truncated to the to-token's
 * divisibility, and 0 when the fee eats it all. The card shows it and the server pays it, from the same inputs, so
 * the two can never differ. Undefined for unparsable inputs.
 */
export const quotedOutput = (amount: string, rate: string, feeOut: string, toDecimals: number): string | undefined => {
  const a = parseLooseDecimal(amount)
  const r = parseLooseDecimal(rate)
  const f = parseLooseDecimal(feeOut)
  if (Option.isNone(a) || Option.isNone(r) || Option.isNone(f)) return undefined
  const out = BigDecimal.subtract(BigDecimal.multiply(a.value, r.value), f.value)
  return formatPlain(BigDecimal.truncate(BigDecimal.isPositive(out) ? out : ZERO, toDecimals))
}

/**
 * A transaction message is shown only if, after stripping angle brackets, 'javascript:' and on*= patterns, it
 * starts with the product's prefix (§5). The rule decides whether the message is shown; what is shown is the
 * original message as plain text (React renders it as text, and stripping would also eat the '>' of 'FROM -> TO').
 */
export const displayableMessage = (message: string | null | undefined, prefix: string): string | undefined => {
  if (typeof message !== "string") return undefined
  const stripped = message
    .replace(/[<>]/g, "")
    .replace(/javascript:/gi, "")
    .replace(/\bon\w+\s*=/gi, "")
    .trim()
  return stripped.startsWith(prefix) ? message.trim() : undefined
}

export interface SwapManifestInput {
  readonly account: string
  readonly fromResource: string
  readonly amount: string
  readonly divisibility: number
  readonly exchangeAccount: string
}

const ADDRESS = /^[a-z]+_[a-z0-9_]+1[02-9ac-hj-np-z]+$/

/**
 * The amount a manifest withdraws: at most `divisibility` decimals (truncated toward zero, so never more than the user
 * has; the divisibility truncated to an integer and clamped to Radix's 0..18, non-finite as 0), in plain notation
 * without exponent, trailing zeros or trailing dot. `amount` is read leniently (`parseLooseDecimal`, so
 * `String(1e-7)` works); one that does not parse is a programming error (callers check `isAmountPositive` first):
 * it throws rather than withdraw some other amount.
 */
export const manifestAmount = (amount: string, divisibility: number): string => {
  const places = Number.isFinite(divisibility) ? Math.min(Math.max(0, Math.trunc(divisibility)), MAX_DIVISIBILITY) : 0
  return Option.match(parseLooseDecimal(amount), {
    onNone: () => {
      throw new Error(`not an amount: ${JSON.stringify(amount.slice(0, 80))}`)
    },
    onSome: (d) => formatPlain(BigDecimal.truncate(d, places))
  })
}

/**
 * The deposit manifest (§7): withdraw the amount from the user's account, take it all from the worktop, and
 * `try_deposit_or_abort` to the exchange account. The amount is cut to the token's divisibility (`manifestAmount`).
 * The wallet adds the fee lock. Addresses and the amount are checked so that no manifest text can be injected.
 */
export const buildSwapManifest = (i: SwapManifestInput): string => {
  for (const a of [i.account, i.fromResource, i.exchangeAccount])
    if (!ADDRESS.test(a)) throw new Error(`not a Radix address: ${JSON.stringify(a)}`)
  const amount = manifestAmount(i.amount, i.divisibility)
  return [
    `CALL_METHOD Address("${i.account}") "withdraw" Address("${i.fromResource}") Decimal("${amount}");`,
    `TAKE_ALL_FROM_WORKTOP Address("${i.fromResource}") Bucket("swap_input");`,
    `CALL_METHOD Address("${i.exchangeAccount}") "try_deposit_or_abort" Bucket("swap_input") Enum<0u8>();`
  ].join("\n")
}

/** A sliding window of request times (epoch millis). */
export type RequestWindow = ReadonlyArray<number>

/** Client limits (§9): more than 10 price requests in 30 s is rate limited; 2 swaps per minute. */
export const PRICE_REQUEST_LIMIT = { max: 10, windowMillis: 30_000 } as const
export const SWAP_LIMIT = { max: 2, windowMillis: 60_000 } as const

export const recordRequest = (w: RequestWindow, now: number, windowMillis: number): RequestWindow => [
  ...w.filter((t) => now - t < windowMillis),
  now
]

/** True when the window holds more than `max` requests within `windowMillis` of `now`. */
export const overLimit = (
  w: RequestWindow,
  now: number,
  limit: { readonly max: number; readonly windowMillis: number }
) => w.filter((t) => now - t < limit.windowMillis).length > limit.max

/** True when one more swap would exceed 2 per minute. */
export const swapLimitReached = (w: RequestWindow, now: number) =>
  w.filter((t) => now - t < SWAP_LIMIT.windowMillis).length >= SWAP_LIMIT.max

export const TRANSACTION_LIMIT_MESSAGE = "Transaction limit reached. 2 transactions per minute allowed."

/** The payout deducts 0.10 USD worth of the to-token (spec §9, the '-$0.10' marker). */
export const PAYOUT_FEE_USD = "0.10"
export const PRICE_IMPACT_TEXT = "< 0.01%"
export const NETWORK_FEE_TEXT = "0.1 XRD (1 tx)"

/** `PAYOUT_FEE_USD` as a value, for the card's estimate. */
const PAYOUT_FEE: BigDecimal.BigDecimal = BigDecimal.make(10n, 2)

/**
 * The swap card's network fee line for an amount of XRD a preview gave (`networkFee.ts`, which loads with the first
 * preview; this stays with the card): rounded up to 2 decimals, without trailing zeros like the spec's
 * "0.1 XRD (1 tx)", and with its "(1 tx)": "0.18" gives "0.18 XRD (1 tx)", "0.2163" gives "0.22 XRD (1 tx)".
 * Anything that is not a non-negative decimal string gives the spec's text.
 */
export const formatNetworkFee = (xrdAmount: string): string =>
  Option.match(parseUnsignedDecimal(xrdAmount), {
    onNone: () => NETWORK_FEE_TEXT,
    // Rounded up: the card never shows less than the transaction costs.
    onSome: (d) => `${formatPlain(BigDecimal.ceil(d, 2))} XRD (1 tx)`
  })

export interface Quote {
  /** To-token units per from-token unit, spread included (the server's effective_rate). */
  readonly rate: string
  /** From-token units per to-token unit. */
  readonly inverseRate: string
  /** What the user receives: amount × rate, less the 0.10 USD fee when the to-token's price is known. */
  readonly toAmount: string
  readonly minimumReceived: string
  readonly limits: Limits | undefined
  /** The server's binding quote behind these figures, when it issued one. */
  readonly binding?: BindingQuote | undefined
}

export interface BindingQuote {
  readonly quoteId: string
  /** The fee in to-token units the quote fixed. */
  readonly feeOut: string
  /** When the quote stops binding, in epoch millis on the client's Clock (received + valid seconds). */
  readonly expiresAt: number
  /** The server takes a pre-authorisation for this quote (`atomic: true` in the live price). */
  readonly atomic?: boolean | undefined
  /** When the quote stops binding, in epoch seconds on the server's clock (`quote_expires_at`), when it said. */
  readonly serverExpiresAt?: number | undefined
}

/** The quote for `amount` at `effectiveRate`, exact, cut to the to-token's divisibility (never rounded up). */
export const computeQuote = (input: {
  readonly amount: string
  readonly effectiveRate: string
  readonly toDecimals: number
  readonly toPriceUsd: number | undefined
  readonly limits: Limits | undefined
  /** With a binding quote, the output is exactly what the server pays: `quotedOutput` at its fee. */
  readonly binding?: BindingQuote | undefined
}): Quote | undefined => {
  const amount = parseUnsignedDecimal(input.amount)
  const rate = parseLooseDecimal(input.effectiveRate)
  if (Option.isNone(amount) || Option.isNone(rate) || !BigDecimal.isPositive(rate.value)) return undefined
  const inverseRate = Option.match(divideDown(ONE, rate.value, 18), {
    onNone: () => "0",
    onSome: formatPlain
  })
  const rateText = formatPlain(BigDecimal.truncate(rate.value, 18))
  if (input.binding !== undefined) {
    const toAmount = quotedOutput(input.amount, input.effectiveRate, input.binding.feeOut, input.toDecimals)
    if (toAmount === undefined) return undefined
    return {
      rate: rateText,
      inverseRate,
      toAmount,
      minimumReceived: minimumReceived(toAmount, input.toDecimals),
      limits: input.limits,
      binding: input.binding
    }
  }
  let out = BigDecimal.multiply(amount.value, rate.value)
  // The fee is deducted when the to-token's price is known: 0.10 USD in to-token units.
  const toPrice = Option.filter(
    Option.flatMap(Option.fromNullable(input.toPriceUsd), decimalFromNumber),
    BigDecimal.isPositive
  )
  const fee = Option.flatMap(toPrice, (price) => divideDown(PAYOUT_FEE, price, 18))
  if (Option.isSome(fee)) out = BigDecimal.subtract(out, fee.value)
  if (!BigDecimal.isPositive(out)) out = ZERO
  const toAmount = formatPlain(BigDecimal.truncate(out, input.toDecimals))
  return {
    rate: rateText,
    inverseRate,
    toAmount,
    minimumReceived: minimumReceived(toAmount, input.toDecimals),
    limits: input.limits
  }
}
