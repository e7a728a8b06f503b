/**
 * Display formatting rules of the spec (app.md §9, §2). All functions are pure and total: a value that cannot be
 * read (NaN, ±Infinity, "", garbage) prints as zero in the function's own style ("0", "$0.00", ...), never "NaN".
 *
 * Numbers go through the exact decimal path too: a `number` is read as the shortest decimal that round-trips it
 * (`String(n)`), a `string` is read exactly (`parseLooseDecimal`: plain, signed or exponent notation, surrounding
 * whitespace ignored), so an 18-decimal amount string never loses digits in the printed part.
 *
 * Rounding: token amounts and balances are truncated toward zero (a displayed amount is never more than the
 * value, and a value stays in its band: 999.9999999 prints "999.999999", not "1000.000000"). USD values and
 * percentages are estimates and round half away from zero, like `Intl.NumberFormat`.
 */
import { BigDecimal, Option } from "effect"
import {
  decimalFromNumber,
  formatFixedDown,
  formatFixedRounded,
  formatPlain,
  MAX_DIVISIBILITY,
  parseLooseDecimal
} from "../lib/decimalText"

const readValue = (value: number | string): Option.Option<BigDecimal.BigDecimal> =>
  typeof value === "number" ? decimalFromNumber(value) : parseLooseDecimal(value)

/** Display is total (see the module comment): what cannot be read prints as zero in the function's style. */
const readForDisplay = (value: number | string): BigDecimal.BigDecimal =>
  Option.getOrElse(readValue(value), () => BigDecimal.fromBigInt(0n))

const ONE = BigDecimal.fromBigInt(1n)
const TINY = BigDecimal.make(1n, 6) // 0.000001
const THOUSAND = BigDecimal.fromBigInt(1000n)
const MILLION = BigDecimal.fromBigInt(1_000_000n)

/** Exact division by 10^k. */
const shiftDown = (d: BigDecimal.BigDecimal, k: number): BigDecimal.BigDecimal => BigDecimal.make(d.value, d.scale + k)

const clampDivisibility = (d: number): number =>
  Number.isFinite(d) ? Math.min(MAX_DIVISIBILITY, Math.max(0, Math.trunc(d))) : MAX_DIVISIBILITY

/**
 * Each token's divisibility, the other half of its display rule: no amount of a token is ever shown with more
 * decimals than the token has (hUSDC's 6, not the band's 8). The card takes it from its token list (the exchange's
 * liquidity assets may say otherwise); places that only know a symbol (records, toasts) read it here.
 */
export const TOKEN_DIVISIBILITY: Readonly<Record<string, number>> = {
  XRD: 18,
  hUSDC: 6,
  hUSDT: 6,
  hETH: 18,
  hBTC: 8,
  hWBTC: 8,
  xUSDC: 6,
  xUSDT: 6,
  xETH: 18,
  xBTC: 8,
  LSULP: 18,
  GKS: 18
}

/** A token's divisibility by symbol; an unknown token is read at the ledger's maximum. */
export const divisibilityOf = (symbol: string | undefined): number =>
  (symbol === undefined ? undefined : TOKEN_DIVISIBILITY[symbol]) ?? MAX_DIVISIBILITY

/**
 * Token amount (spec §9), at most `divisibility` decimals (the token's own; see {@link TOKEN_DIVISIBILITY}): 0 -> "0"; under 0.000001 -> "< 0.000001"; under 1 -> 8 decimals; under 1,000 -> 6
 * decimals; under 1,000,000 -> thousands with 4 decimals and "K"; otherwise millions with 4 decimals and "M".
 * Decimals are truncated (see the module comment). No thousands separators (the spec shows none here).
 *
 * Negative values (not expected for token amounts) print as "-" followed by the band of their magnitude; a negative
 * value closer to zero than 0.000001 prints "> -0.000001". Unreadable input prints "0".
 */
export const formatTokenAmount = (value: number | string, divisibility: number = MAX_DIVISIBILITY): string => {
  const places = (band: number) => Math.min(band, clampDivisibility(divisibility))
  const d = readForDisplay(value)
  if (BigDecimal.isZero(d)) return "0"
  const negative = BigDecimal.isNegative(d)
  const m = BigDecimal.abs(d)
  if (BigDecimal.lessThan(m, TINY)) return negative ? "> -0.000001" : "< 0.000001"
  const sign = negative ? "-" : ""
  if (BigDecimal.lessThan(m, ONE)) return sign + formatFixedDown(m, places(8))
  if (BigDecimal.lessThan(m, THOUSAND)) return sign + formatFixedDown(m, places(6))
  if (BigDecimal.lessThan(m, MILLION)) return sign + formatFixedDown(shiftDown(m, 3), 4) + "K"
  return sign + formatFixedDown(shiftDown(m, 6), 4) + "M"
}

/**
 * Token amount in lists (spec §9: "In lists, 1,000 and above show as K and 1,000,000 and above as M").
 *
 * Reading: the list form is the compact one and uses one precision, `digits` (default 4, the precision the band
 * rule gives K and M), in every band: under 1,000 the value itself, from 1,000 (inclusive) thousands + "K", from
 * 1,000,000 (inclusive) millions + "M", all with exactly `digits` decimals, truncated. 0 prints "0"; a non-zero
 * value that would print as all zeros prints "< 0.0001" (for `digits` = 4), mirroring the band rule's "< 0.000001".
 * The liquidity dialog passes its per-asset digits (2 USD-type, 4 ETH-type, 6 BTC-type). Negatives print as "-"
 * followed by the magnitude's form ("> -0.0001" when tiny). Unreadable input prints "0".
 */
export const formatTokenAmountList = (value: number | string, digits = 4): string => {
  const p = Number.isFinite(digits) ? Math.max(0, Math.trunc(digits)) : 4
  const d = readForDisplay(value)
  if (BigDecimal.isZero(d)) return "0"
  const negative = BigDecimal.isNegative(d)
  const m = BigDecimal.abs(d)
  const smallest = BigDecimal.make(1n, p)
  if (BigDecimal.lessThan(m, smallest)) return (negative ? "> -" : "< ") + formatPlain(smallest)
  const sign = negative ? "-" : ""
  if (BigDecimal.lessThan(m, THOUSAND)) return sign + formatFixedDown(m, p)
  if (BigDecimal.lessThan(m, MILLION)) return sign + formatFixedDown(shiftDown(m, 3), p) + "K"
  return sign + formatFixedDown(shiftDown(m, 6), p) + "M"
}

/** "1234567" -> "1,234,567" (digits only, no sign). */
const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/** Splits a plain unsigned decimal string and groups its integer part. */
const withSeparators = (plain: string): string => {
  const dot = plain.indexOf(".")
  return dot === -1 ? groupThousands(plain) : groupThousands(plain.slice(0, dot)) + plain.slice(dot)
}

/**
 * Token price / USD estimate (spec §9: "US dollars with exactly 2 decimals"): "$1,234.50", "-$1,234.50". Rounded
 * half away from zero; a value that rounds to zero prints "$0.00" (no "-"). Unreadable input prints "$0.00".
 */
export const formatUsd = (value: number | string): string => usdText(readForDisplay(value))

const usdText = (value: BigDecimal.BigDecimal): string => {
  const r = BigDecimal.round(value, { scale: 2, mode: "half-from-zero" })
  return (BigDecimal.isNegative(r) ? "-$" : "$") + withSeparators(formatFixedDown(BigDecimal.abs(r), 2))
}

/**
 * The USD estimate of `amount` of a token priced at `price` US dollars ("≈ $…" under an amount), as `formatUsd`
 * prints it: the product is exact (the amount's every digit times the price's shortest decimal), so a long amount
 * prints its true figure where a floating-point product would print zeros after the 17th digit. An amount or price
 * that cannot be read (empty, garbage, NaN) prints "$0.00".
 */
export const formatUsdValue = (amount: string, price: number): string => {
  const a = parseLooseDecimal(amount)
  const p = decimalFromNumber(price)
  return Option.isSome(a) && Option.isSome(p) ? usdText(BigDecimal.multiply(a.value, p.value)) : "$0.00"
}

/**
 * Currency for volume and TVL (spec §9: "up to 2 decimals"): "$1,234.5", "$1,234", "$1,234.57". Rounded half away
 * from zero, trailing zeros dropped. Negative "-$5"; unreadable input prints "$0".
 */
export const formatCurrency = (value: number | string): string => {
  const r = BigDecimal.round(readForDisplay(value), { scale: 2, mode: "half-from-zero" })
  return (BigDecimal.isNegative(r) ? "-$" : "$") + withSeparators(formatPlain(BigDecimal.abs(r)))
}

/**
 * Balance (spec §9: 8 decimals, or the token's divisibility when it has fewer), truncated: "0.12345678", hUSDC
 * "4800.000000". Unreadable input prints as zero in that style.
 */
export const formatBalance = (value: number | string, divisibility: number = MAX_DIVISIBILITY): string =>
  formatFixedDown(readForDisplay(value), Math.min(8, clampDivisibility(divisibility)))

/**
 * An amount in full, for the user who asks for it (a tooltip, a copy button): every decimal the token has, cut to
 * its divisibility, trailing zeros dropped ("0.999101", "149.75"). Unreadable input prints "0".
 */
export const formatTokenAmountFull = (value: number | string, divisibility: number = MAX_DIVISIBILITY): string => {
  return formatPlain(BigDecimal.truncate(readForDisplay(value), clampDivisibility(divisibility)))
}

/** The GKS header badge (spec §9: 2 decimals), truncated: "12.34". Unreadable input prints "0.00". */
export const formatBadgeBalance = (value: number | string): string => formatFixedDown(readForDisplay(value), 2)

/**
 * Allocation percentage: `value` is already a percentage (45.678 -> "45.68%"), `digits` decimals (default 2),
 * rounded half away from zero. Unreadable input prints as zero ("0.00%").
 */
export const formatPercent = (value: number | string, digits = 2): string => {
  const p = Number.isFinite(digits) ? Math.max(0, Math.trunc(digits)) : 2
  return formatFixedRounded(readForDisplay(value), p) + "%"
}

const nonNegativeInt = (n: number): number => (Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : 0)

/**
 * Keeps the first `head` and last `tail` characters joined by "...". An address shorter than head + tail + 3 (the
 * length of the result) comes back unchanged; otherwise the result is exactly head + tail + 3 characters long.
 * Negative or fractional counts are truncated / taken as 0.
 */
export const shortenAddress = (address: string, head: number, tail: number): string => {
  const h = nonNegativeInt(head)
  const t = nonNegativeInt(tail)
  if (address.length < h + t + 3) return address
  return address.slice(0, h) + "..." + address.slice(address.length - t)
}

/** Transaction lists: 8 + 8 characters. */
export const shortenAddressList = (address: string): string => shortenAddress(address, 8, 8)

/** Airdrop page: 8 + 6 characters. */
export const shortenAddressAirdrop = (address: string): string => shortenAddress(address, 8, 6)

/** Wallet toasts: 15 + 5 characters. */
export const shortenAddressToast = (address: string): string => shortenAddress(address, 15, 5)

/**
 * Relative age of an event at `thenEpochSeconds`, seen at `nowMillis` (callers read it from Effect's `Clock`):
 * under a minute "Ns ago", under an hour "Nm ago", under a day "Nh ago", otherwise "Nd ago", each count rounded
 * down. A future or equal time, or a non-finite input, gives "0s ago".
 */
export const formatRelativeTime = (thenEpochSeconds: number, nowMillis: number): string => {
  if (!Number.isFinite(thenEpochSeconds) || !Number.isFinite(nowMillis)) return "0s ago"
  const seconds = Math.floor((nowMillis - thenEpochSeconds * 1000) / 1000)
  if (seconds <= 0) return "0s ago"
  if (seconds < 60) return `${seconds}s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`
  return `${Math.floor(seconds / 86_400)}d ago`
}

/**
 * A rate (to-units per from-unit) for display: thousands separators and up to 8 significant digits, e.g.
 * '2,997' or '0.00033366'. Display only; quotes and payouts use exact decimals.
 */
export const formatRate = (value: number | string): string => {
  const n = typeof value === "number" ? value : Number(value)
  if (!Number.isFinite(n) || n <= 0) return "0"
  return n.toLocaleString("en-US", { maximumSignificantDigits: 8 })
}
