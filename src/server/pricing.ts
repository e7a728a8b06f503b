/**
 * Quote and payout arithmetic, exact on `BigDecimal` (never binary floating point for money that is paid).
 *
 * - effective rate  = price_in × (1 − spread) / price_out, truncated to 18 decimals (display and quotes);
 * - limits          = min_usd / price_in rounded up, max_usd / price_in truncated, to the from-token's divisibility;
 * - payout          = (amount_in × price_in × (1 − spread) − fee_usd) / price_out, truncated once to the to-token's
 *                     divisibility, so the operator never pays a fraction more than the formula gives.
 *
 * Prices are never 0 (the feed keeps positive prices only); dividing by one is a defect, not a zero.
 */
import { BigDecimal, Option } from "effect"
import { divideDown, formatPlain, parseUnsignedDecimal } from "../lib/decimalText"

/** Parses a trusted constant (configuration); an invalid one is a programming error. */
export const dec = (text: string): BigDecimal.BigDecimal =>
  Option.getOrThrowWith(parseUnsignedDecimal(text), () => new Error(`not a decimal constant: ${text}`))

const RATE_PLACES = 18
const ONE = BigDecimal.fromBigInt(1n)

const div = (a: BigDecimal.BigDecimal, b: BigDecimal.BigDecimal, places: number): BigDecimal.BigDecimal =>
  Option.getOrThrowWith(divideDown(a, b, places), () => new Error(`division of ${formatPlain(a)} by zero`))

/** `a / b` rounded up (away from zero for positive values) to `places` decimals. */
export const divCeil = (a: BigDecimal.BigDecimal, b: BigDecimal.BigDecimal, places: number): BigDecimal.BigDecimal => {
  const q = div(a, b, places)
  return BigDecimal.lessThan(BigDecimal.multiply(q, b), a) ? BigDecimal.sum(q, BigDecimal.make(1n, places)) : q
}

export const effectiveRate = (
  priceIn: BigDecimal.BigDecimal,
  priceOut: BigDecimal.BigDecimal,
  spread: BigDecimal.BigDecimal
): BigDecimal.BigDecimal => div(BigDecimal.multiply(priceIn, BigDecimal.subtract(ONE, spread)), priceOut, RATE_PLACES)

export interface Limits {
  readonly min: BigDecimal.BigDecimal
  readonly max: BigDecimal.BigDecimal
}

export const amountLimits = (
  priceIn: BigDecimal.BigDecimal,
  decimalsIn: number,
  minUsd: BigDecimal.BigDecimal,
  maxUsd: BigDecimal.BigDecimal
): Limits => ({
  min: divCeil(minUsd, priceIn, decimalsIn),
  max: div(maxUsd, priceIn, decimalsIn)
})

export const withinLimits = (amount: BigDecimal.BigDecimal, limits: Limits): boolean =>
  BigDecimal.between(amount, { minimum: limits.min, maximum: limits.max })

/** The payout of `amountIn`, after the spread and the USD fee; zero or negative means nothing can be paid. */
export const payoutAmount = (
  amountIn: BigDecimal.BigDecimal,
  priceIn: BigDecimal.BigDecimal,
  priceOut: BigDecimal.BigDecimal,
  spread: BigDecimal.BigDecimal,
  feeUsd: BigDecimal.BigDecimal,
  decimalsOut: number
): BigDecimal.BigDecimal => {
  const usdAfterSpread = BigDecimal.multiply(BigDecimal.multiply(amountIn, priceIn), BigDecimal.subtract(ONE, spread))
  return div(BigDecimal.subtract(usdAfterSpread, feeUsd), priceOut, decimalsOut)
}

/** The USD value of an amount, for volume and TVL (kept exact; shown rounded). */
export const usdValue = (amount: BigDecimal.BigDecimal, price: BigDecimal.BigDecimal): BigDecimal.BigDecimal =>
  BigDecimal.truncate(BigDecimal.multiply(amount, price), 18)

export const positive = BigDecimal.isPositive
