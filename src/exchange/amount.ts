/**
 * Amount rules of the spec (app.md §5, §9), exact via `decimal.ts`.
 *
 * Two kinds of input:
 * - a user's amount (the swap or bridge input, after `sanitizeAmountInput`) is read with the strict `parseDecimal`:
 *   "12", "0.5", ".5", "12." are amounts; "", "." and anything else are not;
 * - figures from elsewhere (wallet balance, quoted output, exchange liquidity) are read with `parseLooseDecimal`
 *   (surrounding whitespace, sign and exponent notation tolerated).
 */
import { Option } from "effect"
import {
  compareDecimal,
  type Decimal,
  decimalToString,
  isPositive,
  MAX_DIVISIBILITY,
  makeDecimal,
  mulDecimal,
  parseDecimal,
  parseLooseDecimal,
  truncateDecimal
} from "./decimal"

/** Minimum received is 99% of the output (spec §9). */
export const MINIMUM_RECEIVED_RATIO: Decimal = makeDecimal(99n, 2)

/** Exchange liquidity must be at least the expected output × 1.05 (spec §5, "liquidity margin 5%"). */
export const LIQUIDITY_MARGIN: Decimal = makeDecimal(105n, 2)

/**
 * The amount input filter (spec §5: "keeps only digits and one decimal point; extra dots are merged").
 *
 * Exactly: every character other than the ASCII digits 0-9 and "." is dropped; the first "." is kept and every
 * later "." is removed, so the digits on both sides of it join up. Nothing else changes: leading zeros, a leading
 * "." and a trailing "." stay (the input is still being typed). Examples: "1.2.3" -> "1.23", "a1b.c" -> "1.",
 * "..5" -> ".5", "1,000.50" -> "1000.50", "-5" -> "5", "1e5" -> "15".
 *
 * The result always matches /^\d*\.?\d*$/ and sanitising twice gives the same result as once.
 */
export const sanitizeAmountInput = (raw: string): string => {
  const kept = raw.replace(/[^0-9.]/g, "")
  const dot = kept.indexOf(".")
  return dot === -1 ? kept : kept.slice(0, dot + 1) + kept.slice(dot + 1).replace(/\./g, "")
}

/** The amount is above 0 (spec §5). "", ".", "0", "0.000" and anything unparsable are not. */
export const isAmountPositive = (s: string): boolean =>
  Option.match(parseDecimal(s), { onNone: () => false, onSome: isPositive })

/**
 * The amount exceeds the wallet balance (spec §5; the input border turns orange): amount > balance, exactly.
 * An equal amount does not exceed. An unparsable amount exceeds nothing (the "not above 0" rule reports it); an
 * unparsable balance counts as 0, like a failed balance fetch (spec §4).
 */
export const exceedsBalance = (amount: string, balance: string): boolean =>
  Option.match(parseDecimal(amount), {
    onNone: () => false,
    onSome: (a) =>
      compareDecimal(
        a,
        Option.getOrElse(parseLooseDecimal(balance), () => makeDecimal(0n, 0))
      ) > 0
  })

/**
 * Minimum received (spec §9: 99% of output), truncated toward zero to `decimals` places (the to-token's
 * divisibility, clamped to 0..18) and printed in plain notation without trailing zeros: ("100", 6) -> "99",
 * ("0.123456789", 6) -> "0.122222". An unparsable, zero or negative output gives "0".
 */
export const minimumReceived = (output: string, decimals: number): string => {
  const places = Number.isFinite(decimals) ? Math.min(Math.max(0, Math.trunc(decimals)), MAX_DIVISIBILITY) : 0
  return Option.match(Option.filter(parseLooseDecimal(output), isPositive), {
    onNone: () => "0",
    onSome: (o) => decimalToString(truncateDecimal(mulDecimal(o, MINIMUM_RECEIVED_RATIO), places))
  })
}

/**
 * The exchange liquidity of the to-token covers the expected output with the 5% margin (spec §5):
 * liquidity >= expectedOutput × 1.05, exactly. "If no liquidity data exists the check passes": `undefined` and an
 * unparsable liquidity string both count as no data and give `true`. An unparsable expected output needs no
 * liquidity and also gives `true` (there is no quote to check yet).
 */
export const liquidityCovers = (liquidity: string | undefined, expectedOutput: string): boolean => {
  if (liquidity === undefined) return true
  const available = parseLooseDecimal(liquidity)
  const output = parseLooseDecimal(expectedOutput)
  if (Option.isNone(available) || Option.isNone(output)) return true
  return compareDecimal(available.value, mulDecimal(output.value, LIQUIDITY_MARGIN)) >= 0
}
