/**
 * Amount rules of the spec (app.md §5, §9), exact on `BigDecimal` (`lib/decimalText.ts` reads and prints the text).
 *
 * Two kinds of input:
 * - what a user types or pastes into an amount field is read by `readAmountInput`, which either accepts it as plain
 *   text (digits and at most one ".") or refuses it with a reason; the field's value is then read with the strict
 *   `parseUnsignedDecimal`: "12", "0.5", ".5", "12." are amounts; "", "." and anything else are not;
 * - figures from elsewhere (wallet balance, quoted output, exchange liquidity) are read with `parseLooseDecimal`
 *   (surrounding whitespace, sign and exponent notation tolerated).
 */
import { BigDecimal, Option } from "effect"
import { formatPlain, MAX_DIVISIBILITY, parseLooseDecimal, parseUnsignedDecimal } from "../lib/decimalText"

/** Minimum received is 99% of the output (spec §9). */
export const MINIMUM_RECEIVED_RATIO: BigDecimal.BigDecimal = BigDecimal.make(99n, 2)

/** Exchange liquidity must be at least the expected output × 1.05 (spec §5, "liquidity margin 5%"). */
export const LIQUIDITY_MARGIN: BigDecimal.BigDecimal = BigDecimal.make(105n, 2)

/** What `readAmountInput` makes of a field's new text. */
export type AmountInput =
  /** `value` is plain /^\d*\.?\d*$/ text: what the field shows from now on. */
  | { readonly _tag: "Accepted"; readonly value: string }
  /** The field keeps its previous value; `reason` is shown under it. */
  | { readonly _tag: "Refused"; readonly reason: string }

/** Longest amount input read, in characters after trimming; longer text is refused (`REFUSED_TOO_LONG`). */
export const MAX_AMOUNT_INPUT_LENGTH = 40

/** Most digits accepted after the decimal point: Radix's largest divisibility. */
export const MAX_AMOUNT_DECIMALS = MAX_DIVISIBILITY

// The reasons `readAmountInput` gives, shown under the field.
export const REFUSED_TOO_LONG = `Too long: an amount has at most ${MAX_AMOUNT_INPUT_LENGTH} characters`
export const REFUSED_EXPONENT = "Write the number in full, without an exponent (e)"
export const REFUSED_SIGN = "Enter the amount without + or -"
export const REFUSED_CHARACTER = "Use only the digits 0-9 and a decimal point"
export const REFUSED_DECIMAL_SEPARATORS = "Only one decimal separator is allowed"
export const REFUSED_GROUPING = "Thousands separators must come every 3 digits, before the decimal point"
export const REFUSED_DECIMALS = `At most ${MAX_AMOUNT_DECIMALS} digits after the decimal point`

const accepted = (value: string): AmountInput => ({ _tag: "Accepted", value })
const refused = (reason: string): AmountInput => ({ _tag: "Refused", reason })

/** Spaces that separate thousands: space, no-break space, figure space, thin space, narrow no-break space. */
const GROUP_SPACE = /[ \u00A0\u2007\u2009\u202F]/g
/** Apostrophes that separate thousands (Swiss style): ASCII and typographic. */
const GROUP_APOSTROPHE = /['\u2019]/g
/** The first character that is neither a digit, a decimal mark nor a thousands separator. */
const FOREIGN = /[^0-9.,' \u00A0\u2007\u2009\u202F\u2019]/
const SIGN = /[+\-\u2212]/

const foreignReason = (c: string): string =>
  c === "e" || c === "E" ? REFUSED_EXPONENT : SIGN.test(c) ? REFUSED_SIGN : REFUSED_CHARACTER

/** `s` is digits grouped by `sep` (at least once): a first group of 1 to 3 digits, then groups of exactly 3. */
const isGroupedBy = (s: string, sep: string): boolean => {
  const groups = s.split(sep)
  return groups.length > 1 && /^\d{1,3}$/.test(groups[0] ?? "") && groups.slice(1).every((g) => /^\d{3}$/.test(g))
}

/**
 * The digits of a whole part: plain digits, or digits grouped by 3 with one kind of thousands separator, one of
 * `allowed` (spaces are already " " and apostrophes "'" here).
 */
const wholeDigits = (whole: string, allowed: string): string | undefined => {
  if (/^\d*$/.test(whole)) return whole
  const kinds = [...new Set(whole.replace(/\d/g, ""))]
  const sep = kinds[0]
  if (kinds.length !== 1 || sep === undefined || !allowed.includes(sep) || !isGroupedBy(whole, sep)) return undefined
  return whole.split(sep).join("")
}

/**
 * The text an edit typed in place of what it removed, and what is left of `previous` around it: the longest common
 * prefix and suffix of `previous` and `raw` are what the edit kept.
 */
const editOf = (previous: string, raw: string): { readonly typed: string; readonly kept: string } => {
  let prefix = 0
  while (prefix < previous.length && prefix < raw.length && previous[prefix] === raw[prefix]) prefix++
  let suffix = 0
  while (
    suffix < previous.length - prefix &&
    suffix < raw.length - prefix &&
    previous[previous.length - 1 - suffix] === raw[raw.length - 1 - suffix]
  )
    suffix++
  return {
    typed: raw.slice(prefix, raw.length - suffix),
    kept: previous.slice(0, prefix) + previous.slice(previous.length - suffix)
  }
}

/**
 * Reads what a user typed or pasted into an amount field (the swap and bridge inputs), never turning it into another
 * number: the input is either read as the same number, written plainly, or refused with a reason.
 *
 * Accepted ("Accepted", the plain text the field then shows; the digits are always the input's digits, in order):
 * - plain text, /^\d*\.?\d*$/, as typed: leading zeros, a leading "." and a trailing "." stay (still typing).
 *   "" is accepted as "" (a cleared field);
 * - surrounding whitespace is trimmed;
 * - a decimal comma is read as a point: "0,5" -> "0.5", ",5" -> ".5", "12," -> "12.";
 * - thousands separators are dropped where they group the whole part by 3 ("1 234", "1'234,5", "1,234.5"):
 *   spaces (also no-break, figure, thin and narrow no-break spaces) and apostrophes (' and ’) only ever separate
 *   thousands; "." and "," do too, read by position:
 *   - both "." and "," in the text: the last one is the decimal mark and the other kind separates thousands,
 *     "1,234.5" -> "1234.5", "1.234,5" -> "1234.5", "1,234,567.89" -> "1234567.89";
 *   - one "." or "," only: it is the decimal mark, so "1,234" -> "1.234" and "1.234" -> "1.234". Deliberately so:
 *     typed key by key, "1,2" is 1.2 and cannot become 1234 with the next keys, and the field shows the point at
 *     once, so a comma meant as a thousands separator is seen as a decimal point before anything is done with it;
 *   - the same one of "." or "," two or more times, in valid groups of 3 and nothing else: thousands,
 *     "1,234,567" -> "1234567", "1.234.567" -> "1234567".
 *
 * Refused ("Refused", with one of the `REFUSED_*` reasons; the field keeps its value):
 * - longer than `MAX_AMOUNT_INPUT_LENGTH` characters after trimming: `REFUSED_TOO_LONG`;
 * - the first character that has no place in an amount decides: "e"/"E" (1e5, 1E-3) `REFUSED_EXPONENT`; "+", "-"
 *   or "−" `REFUSED_SIGN`; anything else (letters, other symbols, other scripts' digits, control characters)
 *   `REFUSED_CHARACTER`;
 * - several decimal marks: "1.2.3", "1,,2", "..5", "1.234.5", "1.2,3,4": `REFUSED_DECIMAL_SEPARATORS`;
 * - thousands separators not grouping the whole part by 3, mixed kinds of them, or any inside the decimals:
 *   "1,23.4", "12,34,5.6", "1 23", "1 234'567", "1.234 5": `REFUSED_GROUPING`;
 * - more than `MAX_AMOUNT_DECIMALS` digits after the decimal mark: `REFUSED_DECIMALS`.
 *
 * `previous` (optional) is the text the field shows before this edit. When given, an edit that types one "." or ","
 * while the field's own "." stays is refused with `REFUSED_DECIMAL_SEPARATORS`, whatever the new text would mean on
 * its own: the field shows "1.234" after "1,234" was typed, and one more "," must not turn it into "1234." the way
 * a pasted "1.234," would be read.
 *
 * Any accepted value reads back as itself, and plain digits with at most one "." (up to 18 decimals) are accepted
 * unchanged.
 */
export const readAmountInput = (raw: string, previous?: string): AmountInput => {
  const text = raw.trim()
  if (text.length > MAX_AMOUNT_INPUT_LENGTH) return refused(REFUSED_TOO_LONG)
  const foreign = FOREIGN.exec(text)
  if (foreign !== null) return refused(foreignReason(foreign[0]))
  if (previous !== undefined) {
    const { typed, kept } = editOf(previous, raw)
    if ((typed === "." || typed === ",") && kept.includes(".")) return refused(REFUSED_DECIMAL_SEPARATORS)
  }
  const s = text.replace(GROUP_SPACE, " ").replace(GROUP_APOSTROPHE, "'")
  const mark = Math.max(s.lastIndexOf("."), s.lastIndexOf(","))
  if (mark === -1) {
    const whole = wholeDigits(s, " '")
    return whole === undefined ? refused(REFUSED_GROUPING) : accepted(whole)
  }
  const decimalMark = s[mark] === "." ? "." : ","
  const thousandsMark = decimalMark === "." ? "," : "."
  const head = s.slice(0, mark)
  const decimals = s.slice(mark + 1)
  if (head.includes(decimalMark)) {
    // The same mark more than once: thousands if it groups all the digits by 3, else a second decimal mark.
    if (isGroupedBy(s, decimalMark)) return accepted(s.split(decimalMark).join(""))
    return refused(REFUSED_DECIMAL_SEPARATORS)
  }
  if (!/^\d*$/.test(decimals)) return refused(REFUSED_GROUPING)
  const whole = wholeDigits(head, ` '${thousandsMark}`)
  if (whole === undefined) return refused(REFUSED_GROUPING)
  if (decimals.length > MAX_AMOUNT_DECIMALS) return refused(REFUSED_DECIMALS)
  return accepted(`${whole}.${decimals}`)
}

/** The amount is above 0 (spec §5). "", ".", "0", "0.000" and anything unparsable are not. */
export const isAmountPositive = (s: string): boolean =>
  Option.match(parseUnsignedDecimal(s), { onNone: () => false, onSome: BigDecimal.isPositive })

/**
 * The amount exceeds the wallet balance (spec §5; the input border turns orange): amount > balance, exactly.
 * An equal amount does not exceed. An unparsable amount exceeds nothing (the "not above 0" rule reports it); an
 * unparsable balance is no balance, like a failed balance fetch (spec §4), so any amount above 0 exceeds it.
 */
export const exceedsBalance = (amount: string, balance: string): boolean =>
  Option.match(parseUnsignedDecimal(amount), {
    onNone: () => false,
    onSome: (a) =>
      Option.match(parseLooseDecimal(balance), {
        onNone: () => BigDecimal.isPositive(a),
        onSome: (b) => BigDecimal.greaterThan(a, b)
      })
  })

/**
 * Minimum received (spec §9: 99% of output), truncated toward zero to `decimals` places (the to-token's
 * divisibility, clamped to 0..18) and printed in plain notation without trailing zeros: ("100", 6) -> "99",
 * ("0.123456789", 6) -> "0.122222". An output that is not above 0 (or not a number: there is no output) promises
 * nothing: "0".
 */
export const minimumReceived = (output: string, decimals: number): string => {
  const places = Number.isFinite(decimals) ? Math.min(Math.max(0, Math.trunc(decimals)), MAX_DIVISIBILITY) : 0
  return Option.match(Option.filter(parseLooseDecimal(output), BigDecimal.isPositive), {
    onNone: () => "0",
    onSome: (o) => formatPlain(BigDecimal.truncate(BigDecimal.multiply(o, MINIMUM_RECEIVED_RATIO), places))
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
  return BigDecimal.greaterThanOrEqualTo(available.value, BigDecimal.multiply(output.value, LIQUIDITY_MARGIN))
}
