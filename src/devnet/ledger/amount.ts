/**
 * Amounts on the devnet ledger: `BigDecimal` values that the engine's `Decimal` can hold. The engine's Decimal is an
 * I192 fixed point with 18 decimals, so a ledger amount has at most 18 decimals and lies within
 * `DECIMAL_MIN..DECIMAL_MAX`; a resource's divisibility narrows the decimals further. Amounts enter the ledger as
 * text (manifest arguments, stored rows, administration requests) and are read once here; they leave it as
 * `formatPlain` text, the form the engine and the Gateway print.
 */
import { BigDecimal, Option, ParseResult, Schema } from "effect"
import { formatPlain, parseSignedDecimal } from "../../lib/decimalText"

/** Decimal places of the engine's `Decimal`. */
export const DECIMAL_PLACES = 18

/** The engine's Decimal range (I192 / 10^18), in atto (10^-18). */
const MAX_ATTO = 3138550867693340381917894711603833208051177722232017256447n
const MIN_ATTO = -3138550867693340381917894711603833208051177722232017256448n

/** The engine's Decimal range (I192 / 10^18). */
export const DECIMAL_MAX = BigDecimal.normalize(BigDecimal.make(MAX_ATTO, DECIMAL_PLACES))
export const DECIMAL_MIN = BigDecimal.normalize(BigDecimal.make(MIN_ATTO, DECIMAL_PLACES))

export const ZERO: BigDecimal.BigDecimal = BigDecimal.normalize(BigDecimal.make(0n, 0))

/** 10^0 … 10^18: the factors from a value's scale to atto, for the range check on every amount read. */
const TO_ATTO = Array.from({ length: DECIMAL_PLACES + 1 }, (_, i) => 10n ** BigInt(DECIMAL_PLACES - i))

/** True when the engine's Decimal holds `value` exactly: at most 18 decimals, within its range. */
export const isLedgerDecimal = (value: BigDecimal.BigDecimal): boolean => {
  const { scale, value: coefficient } = BigDecimal.normalize(value)
  if (scale > DECIMAL_PLACES) return false
  // The I192 the engine would hold: one multiplication, where BigDecimal's order would rescale both sides.
  const atto = coefficient * (TO_ATTO[scale] ?? 10n ** BigInt(DECIMAL_PLACES - scale))
  return atto <= MAX_ATTO && atto >= MIN_ATTO
}

/**
 * A Decimal as the engine prints and parses one ("-12.5", "0", "3"); none when it is not one or the engine could not
 * hold it. As the engine's parser, it counts the decimals written, trailing zeros included.
 */
export const parseLedgerDecimal = (text: string): Option.Option<BigDecimal.BigDecimal> => {
  const dot = text.indexOf(".")
  if (dot !== -1 && text.length - dot - 1 > DECIMAL_PLACES) return Option.none()
  return Option.filter(parseSignedDecimal(text), isLedgerDecimal)
}

/** A ledger amount as text (manifest, stored row): `parseLedgerDecimal`'s rules, printed back with `formatPlain`. */
export const LedgerDecimalText = Schema.transformOrFail(Schema.String, Schema.BigDecimalFromSelf, {
  strict: true,
  decode: (text, _, ast) =>
    Option.match(parseLedgerDecimal(text), {
      onNone: () =>
        ParseResult.fail(
          new ParseResult.Type(
            ast,
            text,
            `Expected a Decimal of the Radix engine (at most 18 decimals, I192 range), got ${JSON.stringify(text.slice(0, 80))}`
          )
        ),
      onSome: ParseResult.succeed
    }),
  encode: (value) =>
    isLedgerDecimal(value)
      ? ParseResult.succeed(formatPlain(value))
      : ParseResult.fail(
          new ParseResult.Type(Schema.BigDecimalFromSelf.ast, value, "Not a Decimal of the Radix engine")
        )
})

/** True when `amount` has no more decimals than a resource of `divisibility` allows. */
export const fitsDivisibility = (amount: BigDecimal.BigDecimal, divisibility: number): boolean =>
  BigDecimal.normalize(amount).scale <= divisibility

/** The engine's debug form of a decimal, as it appears in error messages: `Decimal("1.5")`. */
export const debugDecimal = (amount: BigDecimal.BigDecimal): string => `Decimal("${formatPlain(amount)}")`
