/**
 * Decimal text to and from `BigDecimal`, the one number type for amounts (DESIGN §5: amounts are decimal strings on
 * the wire and exact values in between, never binary floating point).
 *
 * `effect`'s own `BigDecimal.fromString` and `BigDecimal.format` are not fit for amounts at an edge:
 * - `fromString("")` is zero, and it accepts signs and exponents everywhere, so an empty or odd field would pass as
 *   a number;
 * - `format` switches to scientific notation from 16 decimals (Radix amounts have 18) and for large integers.
 * So every edge parses with the grammars below and prints with `formatPlain`.
 */
import { BigDecimal, Option, ParseResult, Schema } from "effect"

/**
 * Inputs longer than this do not parse. Real amounts are a few dozen characters; the cap keeps a hostile string from
 * turning into a megabyte-sized bigint.
 */
export const MAX_DECIMAL_TEXT_LENGTH = 1000

/** The most decimals a Radix resource has (its largest divisibility). */
export const MAX_DIVISIBILITY = 18

/** Exponents accepted by `parseLooseDecimal` (JavaScript numbers stay within about ±324). */
const MAX_EXPONENT = 400

const UNSIGNED = /^(?:\d+\.?\d*|\.\d+)$/
const SIGNED = /^-?\d+(?:\.\d+)?$/
const LOOSE = /^\s*([+-]?)(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?\s*$/

/** A count of decimal places: a fraction is truncated, a negative or non-finite count is 0. */
const placesOf = (places: number): number => (Number.isFinite(places) ? Math.max(0, Math.trunc(places)) : 0)

const fromParts = (negative: boolean, body: string, exponent: number): BigDecimal.BigDecimal => {
  const dot = body.indexOf(".")
  const whole = dot === -1 ? body : body.slice(0, dot)
  const fraction = dot === -1 ? "" : body.slice(dot + 1)
  const digits = whole + fraction
  const magnitude = BigInt(digits === "" ? "0" : digits)
  return BigDecimal.normalize(BigDecimal.make(negative ? -magnitude : magnitude, fraction.length - exponent))
}

/**
 * A plain non-negative decimal, as a user types it or an amount field carries it: "12", "0.5", ".5" and "12." parse.
 * Signs, exponents, whitespace, separators, "." alone, the empty string and anything longer than
 * `MAX_DECIMAL_TEXT_LENGTH` do not.
 */
export const parseUnsignedDecimal = (text: string): Option.Option<BigDecimal.BigDecimal> =>
  text.length <= MAX_DECIMAL_TEXT_LENGTH && UNSIGNED.test(text) ? Option.some(fromParts(false, text, 0)) : Option.none()

/**
 * A canonical signed decimal, as the Radix engine and the Gateway print one: digits with an optional leading "-" and
 * an optional fraction ("-12.5", "0", "3"). No "+", no exponent, no whitespace, no bare ".".
 */
export const parseSignedDecimal = (text: string): Option.Option<BigDecimal.BigDecimal> => {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH || !SIGNED.test(text)) return Option.none()
  const negative = text.startsWith("-")
  return Option.some(fromParts(negative, negative ? text.slice(1) : text, 0))
}

/**
 * A lenient reading for numbers written by other programs (`String(number)`, configuration): surrounding whitespace,
 * a leading sign and an exponent ("1e-7", "1.5E+21") are accepted on top of `parseUnsignedDecimal`'s grammar.
 * Exponents beyond ±400 do not parse.
 */
export const parseLooseDecimal = (text: string): Option.Option<BigDecimal.BigDecimal> => {
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return Option.none()
  const match = LOOSE.exec(text)
  if (match === null) return Option.none()
  const exponent = match[3] === undefined ? 0 : Number(match[3])
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_EXPONENT) return Option.none()
  return Option.some(fromParts(match[1] === "-", match[2] ?? "", exponent))
}

/**
 * Display-only interop: the exact value of the shortest decimal that round-trips the double (`String(n)`). `NaN` and
 * the infinities do not parse; -0 is zero. Never read an amount that is signed or paid from a `number`.
 */
export const decimalFromNumber = (n: number): Option.Option<BigDecimal.BigDecimal> =>
  Number.isFinite(n) ? parseLooseDecimal(String(n)) : Option.none()

/**
 * `a / b` truncated toward zero to `places` decimals, exactly; `None` for a zero divisor. One integer division of the
 * coefficients, each first scaled to the quotient's places: (a × 10^(places + scale b − scale a)) / b. (Effect's
 * `BigDecimal.divide` works out 100 significant digits one at a time, then they were cut: slower, and only exact
 * while the quotient fits those digits.)
 */
export const divideDown = (
  a: BigDecimal.BigDecimal,
  b: BigDecimal.BigDecimal,
  places: number
): Option.Option<BigDecimal.BigDecimal> => {
  if (b.value === 0n) return Option.none()
  const p = placesOf(places)
  const shift = p + b.scale - a.scale
  const numerator = shift >= 0 ? a.value * 10n ** BigInt(shift) : a.value
  const denominator = shift >= 0 ? b.value : b.value * 10n ** BigInt(-shift)
  // BigInt division truncates toward zero, whatever the signs.
  return Option.some(BigDecimal.make(numerator / denominator, p))
}

/** Plain notation at any size: no exponent, no trailing fractional zeros, no trailing dot ("12", "0.5", "-1.25"). */
export const formatPlain = (value: BigDecimal.BigDecimal): string => {
  const { scale, value: coefficient } = BigDecimal.normalize(value)
  const negative = coefficient < 0n
  const digits = (negative ? -coefficient : coefficient).toString()
  const sign = negative ? "-" : ""
  if (scale <= 0) return sign + digits + (coefficient === 0n ? "" : "0".repeat(-scale))
  const padded = digits.padStart(scale + 1, "0")
  const cut = padded.length - scale
  return `${sign}${padded.slice(0, cut)}.${padded.slice(cut)}`
}

/**
 * `formatPlain` with exactly `places` decimals, the value first truncated toward zero: the printed magnitude is never
 * larger than the value's ("0.999999999" to 8 places is "0.99999999", never "1.00000000"). A value that truncates to
 * zero prints without a sign.
 */
export const formatFixedDown = (value: BigDecimal.BigDecimal, places: number): string => {
  const p = placesOf(places)
  const text = formatPlain(BigDecimal.truncate(value, p))
  if (p === 0) return text
  const dot = text.indexOf(".")
  const fraction = dot === -1 ? 0 : text.length - dot - 1
  return (dot === -1 ? `${text}.` : text) + "0".repeat(p - fraction)
}

/**
 * `formatPlain` with exactly `places` decimals, rounded half away from zero ("1.005" to 2 places is "1.01", "-1.005"
 * is "-1.01"). For displayed estimates only (USD values, percentages), never for an amount that is signed or paid. A
 * value that rounds to zero prints without a sign.
 */
export const formatFixedRounded = (value: BigDecimal.BigDecimal, places: number): string =>
  formatFixedDown(BigDecimal.round(value, { scale: placesOf(places), mode: "half-from-zero" }), places)

const decimalText = (
  name: string,
  parse: (text: string) => Option.Option<BigDecimal.BigDecimal>
): Schema.transformOrFail<typeof Schema.String, typeof Schema.BigDecimalFromSelf> =>
  Schema.transformOrFail(Schema.String, Schema.BigDecimalFromSelf, {
    strict: true,
    decode: (text, _, ast) =>
      Option.match(parse(text), {
        onNone: () =>
          ParseResult.fail(
            new ParseResult.Type(ast, text, `Expected ${name}, got ${JSON.stringify(text.slice(0, 80))}`)
          ),
        onSome: ParseResult.succeed
      }),
    encode: (value) => ParseResult.succeed(formatPlain(value))
  })

/** An amount field on the wire: `parseUnsignedDecimal`'s grammar, printed back with `formatPlain`. */
export const UnsignedDecimalText = /* @__PURE__ */ decimalText("a non-negative decimal", parseUnsignedDecimal)

/** A signed decimal as the engine and the Gateway print it: `parseSignedDecimal`'s grammar. */
export const SignedDecimalText = /* @__PURE__ */ decimalText("a decimal", parseSignedDecimal)
