/**
 * Quote and payout arithmetic, exact on `decimal.ts` (never binary floating point for money that is paid).
 *
 * - effective rate  = price_in × (1 − spread) / price_out, truncated to 18 decimals (display and quotes);
 * - limits          = min_usd / price_in rounded up, max_usd / price_in truncated, to the from-token's divisibility;
 * - payout          = (amount_in × price_in × (1 − spread) − fee_usd) / price_out, truncated once to the to-token's
 *                     divisibility, so the operator never pays a fraction more than the formula gives.
 */
import { Option } from "effect"
import {
  type Decimal,
  ONE,
  compareDecimal,
  divDecimal,
  isPositive,
  makeDecimal,
  mulDecimal,
  parseDecimal,
  subDecimal,
  truncateDecimal
} from "../exchange/decimal"

/** Parses a trusted constant (configuration); an invalid one is a programming error. */
export const dec = (text: string): Decimal =>
  Option.getOrThrowWith(parseDecimal(text), () => new Error(`not a decimal constant: ${text}`))

const RATE_PLACES = 18

const div = (a: Decimal, b: Decimal, places: number): Decimal =>
  Option.getOrElse(divDecimal(a, b, places), () => makeDecimal(0n, 0))

/** `a / b` rounded up (away from zero for positive values) to `places` decimals. */
export const divCeil = (a: Decimal, b: Decimal, places: number): Decimal => {
  const q = div(a, b, places)
  return compareDecimal(mulDecimal(q, b), a) < 0 ? makeDecimal(q.coefficient * 10n ** BigInt(places - q.scale) + 1n, places) : q
}

export const effectiveRate = (priceIn: Decimal, priceOut: Decimal, spread: Decimal): Decimal =>
  div(mulDecimal(priceIn, subDecimal(ONE, spread)), priceOut, RATE_PLACES)

export interface Limits {
  readonly min: Decimal
  readonly max: Decimal
}

export const amountLimits = (priceIn: Decimal, decimalsIn: number, minUsd: Decimal, maxUsd: Decimal): Limits => ({
  min: divCeil(minUsd, priceIn, decimalsIn),
  max: div(maxUsd, priceIn, decimalsIn)
})

export const withinLimits = (amount: Decimal, limits: Limits): boolean =>
  compareDecimal(amount, limits.min) >= 0 && compareDecimal(amount, limits.max) <= 0

/** The payout of `amountIn`, after the spread and the USD fee; zero or negative means nothing can be paid. */
export const payoutAmount = (
  amountIn: Decimal,
  priceIn: Decimal,
  priceOut: Decimal,
  spread: Decimal,
  feeUsd: Decimal,
  decimalsOut: number
): Decimal => {
  const usdAfterSpread = mulDecimal(mulDecimal(amountIn, priceIn), subDecimal(ONE, spread))
  return div(subDecimal(usdAfterSpread, feeUsd), priceOut, decimalsOut)
}

/** The USD value of an amount, for volume and TVL (kept exact; shown rounded). */
export const usdValue = (amount: Decimal, price: Decimal): Decimal => truncateDecimal(mulDecimal(amount, price), 18)

export const positive = isPositive
