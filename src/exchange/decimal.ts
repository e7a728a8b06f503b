/**
 * A small exact decimal on `bigint` (DESIGN.md §5: amounts are decimal strings end to end; arithmetic never goes
 * through binary floating point for money that is signed or paid).
 *
 * A `Decimal` is `coefficient / 10^scale`. The scale is not fixed: it grows as needed, so any number of decimals is
 * represented exactly (Radix's 18 decimals and beyond). Values are kept normalised (no trailing zero digit in the
 * coefficient when `scale > 0`, zero is `0n / 10^0`), so two equal values are also structurally equal.
 *
 * Rounding rules used here:
 * - `truncateDecimal` / `toFixedDown` / `truncateToDivisibility` / `divDecimal` truncate toward zero: the magnitude
 *   never grows, so an amount that is paid is never rounded up.
 * - `roundDecimal` rounds half away from zero; it is for display of estimates (USD values, percentages) only.
 */
import { Option } from "effect"

export interface Decimal {
  readonly _tag: "Decimal"
  /** The value is `coefficient / 10^scale`. */
  readonly coefficient: bigint
  /** Number of decimal places, an integer >= 0. */
  readonly scale: number
}

/**
 * Inputs longer than this are rejected by the parsers. Real amounts are a few dozen characters; the cap keeps a
 * hostile string from turning into a megabyte-sized bigint.
 */
export const MAX_DECIMAL_INPUT_LENGTH = 1000

/** Exponents accepted by `parseLooseDecimal` (JavaScript numbers stay within about ±324). */
const MAX_EXPONENT = 400

/** Radix's largest resource divisibility; `truncateToDivisibility` never writes more decimals than this. */
export const MAX_DIVISIBILITY = 18

const pow10 = (n: number): bigint => 10n ** BigInt(n)

const absBig = (n: bigint): bigint => (n < 0n ? -n : n)

/** Builds a normalised decimal from `coefficient / 10^scale` (a negative scale multiplies instead). */
export const makeDecimal = (coefficient: bigint, scale: number): Decimal => {
  let c = coefficient
  let s = Math.trunc(scale)
  if (s < 0) {
    c = c * pow10(-s)
    s = 0
  }
  if (c === 0n) return { _tag: "Decimal", coefficient: 0n, scale: 0 }
  while (s > 0 && c % 10n === 0n) {
    c = c / 10n
    s -= 1
  }
  return { _tag: "Decimal", coefficient: c, scale: s }
}

export const ZERO: Decimal = makeDecimal(0n, 0)
export const ONE: Decimal = makeDecimal(1n, 0)

const STRICT = /^(?:\d+\.?\d*|\.\d+)$/
const LOOSE = /^\s*([+-]?)(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?\s*$/

const fromParts = (sign: string, body: string, exponent: number): Decimal => {
  const dot = body.indexOf(".")
  const intPart = dot === -1 ? body : body.slice(0, dot)
  const fracPart = dot === -1 ? "" : body.slice(dot + 1)
  const digits = intPart + fracPart
  const magnitude = BigInt(digits === "" ? "0" : digits)
  return makeDecimal(sign === "-" ? -magnitude : magnitude, fracPart.length - exponent)
}

/**
 * Parses a plain non-negative decimal string, as typed by a user or carried in an amount field:
 * "12", "0.5", ".5" and "12." are accepted. Signs, exponents, whitespace, separators, "." alone, the empty string
 * and anything longer than `MAX_DECIMAL_INPUT_LENGTH` give `None`.
 */
export const parseDecimal = (s: string): Option.Option<Decimal> =>
  s.length <= MAX_DECIMAL_INPUT_LENGTH && STRICT.test(s) ? Option.some(fromParts("", s, 0)) : Option.none()

/**
 * A lenient parser for numbers coming from elsewhere (API fields, `String(number)`): surrounding whitespace, a
 * leading sign and an exponent ("1e-7", "1.5E+21") are accepted on top of what `parseDecimal` accepts. Exponents
 * beyond ±400 and inputs longer than `MAX_DECIMAL_INPUT_LENGTH` give `None`.
 */
export const parseLooseDecimal = (s: string): Option.Option<Decimal> => {
  if (s.length > MAX_DECIMAL_INPUT_LENGTH) return Option.none()
  const m = LOOSE.exec(s)
  if (m === null) return Option.none()
  const sign = m[1] ?? ""
  const body = m[2] ?? ""
  const exponent = m[3] === undefined ? 0 : Number(m[3])
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_EXPONENT) return Option.none()
  return Option.some(fromParts(sign, body, exponent))
}

/** Plain notation, no exponent, no trailing zeros, no trailing dot: "12", "0.5", "-1.25". */
export const decimalToString = (d: Decimal): string => {
  const negative = d.coefficient < 0n
  const digits = absBig(d.coefficient).toString()
  if (d.scale === 0) return (negative ? "-" : "") + digits
  const padded = digits.padStart(d.scale + 1, "0")
  const cut = padded.length - d.scale
  return (negative ? "-" : "") + padded.slice(0, cut) + "." + padded.slice(cut)
}

const alignedCoefficients = (a: Decimal, b: Decimal): readonly [bigint, bigint, number] => {
  const scale = Math.max(a.scale, b.scale)
  return [a.coefficient * pow10(scale - a.scale), b.coefficient * pow10(scale - b.scale), scale]
}

/** -1, 0 or 1, like a comparator for `Array.prototype.sort`. */
export const compareDecimal = (a: Decimal, b: Decimal): -1 | 0 | 1 => {
  const [x, y] = alignedCoefficients(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

export const addDecimal = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, scale] = alignedCoefficients(a, b)
  return makeDecimal(x + y, scale)
}

export const subDecimal = (a: Decimal, b: Decimal): Decimal => {
  const [x, y, scale] = alignedCoefficients(a, b)
  return makeDecimal(x - y, scale)
}

/** Exact product. */
export const mulDecimal = (a: Decimal, b: Decimal): Decimal =>
  makeDecimal(a.coefficient * b.coefficient, a.scale + b.scale)

const places = (n: number): number => (Number.isFinite(n) ? Math.max(0, Math.trunc(n)) : 0)

/**
 * `a / b` truncated toward zero to `places` decimals (a non-integer or negative `places` is truncated / taken as 0).
 * Division by zero has no value: `None`.
 */
export const divDecimal = (a: Decimal, b: Decimal, placesWanted: number): Option.Option<Decimal> => {
  if (b.coefficient === 0n) return Option.none()
  const p = places(placesWanted)
  // a / b = (ac / 10^as) / (bc / 10^bs); scaled by 10^p: ac * 10^(bs + p) / (bc * 10^as). bigint `/` truncates.
  const q = (a.coefficient * pow10(b.scale + p)) / (b.coefficient * pow10(a.scale))
  return Option.some(makeDecimal(q, p))
}

export const negateDecimal = (d: Decimal): Decimal => makeDecimal(-d.coefficient, d.scale)

export const absDecimal = (d: Decimal): Decimal => (d.coefficient < 0n ? negateDecimal(d) : d)

export const isPositive = (d: Decimal): boolean => d.coefficient > 0n

export const isNegative = (d: Decimal): boolean => d.coefficient < 0n

export const isZero = (d: Decimal): boolean => d.coefficient === 0n

/** Keeps at most `places` decimals, truncating toward zero (the magnitude never grows). */
export const truncateDecimal = (d: Decimal, placesWanted: number): Decimal => {
  const p = places(placesWanted)
  if (d.scale <= p) return d
  return makeDecimal(d.coefficient / pow10(d.scale - p), p)
}

/** Keeps at most `places` decimals, rounding half away from zero. For displayed estimates only, never for payment. */
export const roundDecimal = (d: Decimal, placesWanted: number): Decimal => {
  const p = places(placesWanted)
  if (d.scale <= p) return d
  const divisor = pow10(d.scale - p)
  const q = d.coefficient / divisor
  const r = absBig(d.coefficient % divisor)
  const bumped = 2n * r >= divisor ? q + (d.coefficient < 0n ? -1n : 1n) : q
  return makeDecimal(bumped, p)
}

/** Renders a decimal whose scale is at most `p` with exactly `p` decimals. */
const padFixed = (d: Decimal, p: number): string => {
  const s = decimalToString(d)
  if (p === 0) return s
  const dot = s.indexOf(".")
  const frac = dot === -1 ? "" : s.slice(dot + 1)
  return (dot === -1 ? s + "." : s) + "0".repeat(p - frac.length)
}

/**
 * Like `Number.prototype.toFixed`, but exact and truncating toward zero: exactly `places` decimals, and the printed
 * magnitude is never larger than the input's ("0.999999999" with 8 places is "0.99999999", never "1.00000000").
 * A value that truncates to zero prints without a sign.
 */
export const toFixedDown = (d: Decimal, placesWanted: number): string => {
  const p = places(placesWanted)
  return padFixed(truncateDecimal(d, p), p)
}

/** `toFixedDown`'s counterpart with half-away-from-zero rounding, for displayed estimates only. */
export const toFixedRounded = (d: Decimal, placesWanted: number): string => {
  const p = places(placesWanted)
  return padFixed(roundDecimal(d, p), p)
}

/**
 * Display-only interop: the exact value of the shortest decimal that round-trips the double (`String(n)`).
 * `NaN` and the infinities give `None`; -0 gives zero.
 */
export const fromNumber = (n: number): Option.Option<Decimal> =>
  Number.isFinite(n) ? parseLooseDecimal(String(n)) : Option.none()

/** Display-only interop: the nearest double. Never use the result for an amount that is signed or paid. */
export const toNumber = (d: Decimal): number => Number(decimalToString(d))

/**
 * For building manifests: the amount with at most `divisibility` decimals (truncated toward zero, so never more
 * than the user has), in plain notation with no exponent, no trailing zeros and no trailing dot.
 *
 * - `amount` is read leniently (`parseLooseDecimal`: sign, exponent and surrounding whitespace allowed), so
 *   `String(1e-7)` works; an unparsable amount gives "0". Callers validate amounts (`isAmountPositive`) before
 *   building a manifest; this function does not reject negatives.
 * - `divisibility` is truncated to an integer and clamped to 0..18 (Radix's range); non-finite gives 0.
 */
export const truncateToDivisibility = (amount: string, divisibility: number): string => {
  const p = Math.min(places(divisibility), MAX_DIVISIBILITY)
  return Option.match(parseLooseDecimal(amount), {
    onNone: () => "0",
    onSome: (d) => decimalToString(truncateDecimal(d, p))
  })
}
