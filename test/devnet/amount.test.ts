import { BigDecimal, Either, Option, Schema } from "effect"
import { describe, expect, it } from "vitest"
import {
  DECIMAL_MAX,
  DECIMAL_MIN,
  LedgerDecimalText,
  debugDecimal,
  fitsDivisibility,
  parseLedgerDecimal
} from "../../src/devnet/ledger/amount.js"
import { formatPlain } from "../../src/lib/decimalText.js"

const show = (text: string): string | undefined =>
  Option.match(parseLedgerDecimal(text), { onNone: () => undefined, onSome: formatPlain })
const amount = (text: string): BigDecimal.BigDecimal =>
  Option.getOrThrowWith(parseLedgerDecimal(text), () => new Error(`not a decimal: ${text}`))

const MAX_TEXT = "3138550867693340381917894711603833208051177722232017256447".replace(/(\d{18})$/, ".$1")
const MIN_TEXT = "-3138550867693340381917894711603833208051177722232017256448".replace(/(\d{18})$/, ".$1")

describe("ledger amounts (the engine's Decimal)", () => {
  it("reads the engine's printed form with up to 18 decimals", () => {
    expect(show("12")).toBe("12")
    expect(show("-12.5")).toBe("-12.5")
    expect(show("0.000000000000000001")).toBe("0.000000000000000001")
    expect(show("1.500")).toBe("1.5")
    for (const bad of [
      "",
      ".",
      "+1",
      " 1",
      "1 ",
      "1e5",
      ".5",
      "1.",
      "0.0000000000000000001",
      "1.0000000000000000000",
      "1,5",
      "NaN"
    ]) {
      expect(show(bad), bad).toBeUndefined()
    }
  })

  it("holds exactly the I192 range", () => {
    expect(formatPlain(DECIMAL_MAX)).toBe(MAX_TEXT)
    expect(formatPlain(DECIMAL_MIN)).toBe(MIN_TEXT)
    expect(show(MAX_TEXT)).toBe(MAX_TEXT)
    expect(show(MIN_TEXT)).toBe(MIN_TEXT)
    expect(show(MAX_TEXT.replace(/7$/, "8"))).toBeUndefined()
    expect(show(MIN_TEXT.replace(/8$/, "9"))).toBeUndefined()
  })

  it("checks a resource's divisibility and prints the engine's debug form", () => {
    expect(fitsDivisibility(amount("1.25"), 2)).toBe(true)
    expect(fitsDivisibility(amount("1.250"), 2)).toBe(true)
    expect(fitsDivisibility(amount("1.255"), 2)).toBe(false)
    expect(fitsDivisibility(amount("100"), 0)).toBe(true)
    expect(fitsDivisibility(amount("0.5"), 0)).toBe(false)
    expect(debugDecimal(amount("-1.50"))).toBe('Decimal("-1.5")')
    expect(debugDecimal(BigDecimal.make(10n ** 20n, 18))).toBe('Decimal("100")')
  })

  it("as a Schema: decodes what parseLedgerDecimal reads, fails the rest, encodes plain text", () => {
    const decode = Schema.decodeUnknownEither(LedgerDecimalText)
    const decoded = decode("2.50")
    expect(Either.isRight(decoded) && formatPlain(decoded.right)).toBe("2.5")
    for (const bad of ["", "abc", "1e3", "0.0000000000000000001", MAX_TEXT.replace(/7$/, "8"), 1]) {
      expect(Either.isLeft(decode(bad)), String(bad)).toBe(true)
    }
    expect(Schema.encodeSync(LedgerDecimalText)(BigDecimal.make(1230n, 3))).toBe("1.23")
    expect(Either.isLeft(Schema.encodeEither(LedgerDecimalText)(BigDecimal.make(1n, 19)))).toBe(true)
  })
})
