import { BigDecimal, Either, Option, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  formatFixedDown,
  formatPlain,
  MAX_DECIMAL_TEXT_LENGTH,
  parseLooseDecimal,
  parseSignedDecimal,
  parseUnsignedDecimal,
  SignedDecimalText,
  UnsignedDecimalText
} from "../../src/lib/decimalText"

const show = (o: Option.Option<BigDecimal.BigDecimal>): string | undefined =>
  Option.match(o, { onNone: () => undefined, onSome: formatPlain })

describe("decimal text", () => {
  it("parses what a user types and refuses the rest, the empty string included", () => {
    expect(show(parseUnsignedDecimal("12"))).toBe("12")
    expect(show(parseUnsignedDecimal("0.50"))).toBe("0.5")
    expect(show(parseUnsignedDecimal(".5"))).toBe("0.5")
    expect(show(parseUnsignedDecimal("12."))).toBe("12")
    for (const bad of [
      "",
      ".",
      "-1",
      "+1",
      "1e5",
      " 1",
      "1,000",
      "1.2.3",
      "abc",
      "1".repeat(MAX_DECIMAL_TEXT_LENGTH + 1)
    ]) {
      expect(show(parseUnsignedDecimal(bad)), bad.slice(0, 20)).toBeUndefined()
    }
  })

  it("parses the engine's signed form only", () => {
    expect(show(parseSignedDecimal("-12.5"))).toBe("-12.5")
    expect(show(parseSignedDecimal("0"))).toBe("0")
    for (const bad of ["", "+1", "1e3", ".5", "5.", "-", " 1", "--1"]) {
      expect(show(parseSignedDecimal(bad)), bad).toBeUndefined()
    }
  })

  it("reads numbers printed by other programs", () => {
    expect(show(parseLooseDecimal("1e-7"))).toBe("0.0000001")
    expect(show(parseLooseDecimal(" -1.5E+21 "))).toBe("-1500000000000000000000")
    expect(show(parseLooseDecimal("1e401"))).toBeUndefined()
    expect(show(parseLooseDecimal(""))).toBeUndefined()
  })

  it("prints plain text at every scale, where BigDecimal.format would switch to an exponent", () => {
    expect(formatPlain(BigDecimal.make(1n, 18))).toBe("0.000000000000000001")
    expect(formatPlain(BigDecimal.make(1n, -20))).toBe("100000000000000000000")
    expect(formatPlain(BigDecimal.make(-1250n, 3))).toBe("-1.25")
    expect(formatPlain(BigDecimal.make(0n, 5))).toBe("0")
    expect(formatPlain(BigDecimal.make(0n, -5))).toBe("0")
  })

  it("round-trips any decimal through its plain text", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 60n), max: 10n ** 60n }), fc.integer({ min: -30, max: 30 }), (c, s) => {
        const value = BigDecimal.make(c, s)
        const back = Option.getOrThrow(parseLooseDecimal(formatPlain(value)))
        expect(BigDecimal.equals(back, value)).toBe(true)
        if (c >= 0n)
          expect(BigDecimal.equals(Option.getOrThrow(parseUnsignedDecimal(formatPlain(value))), value)).toBe(true)
        expect(BigDecimal.equals(Option.getOrThrow(parseSignedDecimal(formatPlain(value))), value)).toBe(true)
      })
    )
  })

  it("prints fixed places truncated toward zero, never rounded up", () => {
    const d = (s: string) => Option.getOrThrow(parseLooseDecimal(s))
    expect(formatFixedDown(d("0.999999999"), 8)).toBe("0.99999999")
    expect(formatFixedDown(d("12"), 2)).toBe("12.00")
    expect(formatFixedDown(d("-0.001"), 2)).toBe("0.00")
    expect(formatFixedDown(d("-1.239"), 2)).toBe("-1.23")
    expect(formatFixedDown(d("7.9"), 0)).toBe("7")
  })

  it("decodes wire fields with a typed failure and encodes them as plain text", () => {
    const decodeUnsigned = Schema.decodeUnknownEither(UnsignedDecimalText)
    expect(Either.isLeft(decodeUnsigned(""))).toBe(true)
    expect(Either.isLeft(decodeUnsigned("-1"))).toBe(true)
    expect(Either.isLeft(decodeUnsigned(12))).toBe(true)
    expect(Either.map(decodeUnsigned("1.50"), formatPlain)).toEqual(Either.right("1.5"))
    expect(Schema.encodeSync(SignedDecimalText)(BigDecimal.make(-5n, 19))).toBe("-0.0000000000000000005")
    expect(Either.isLeft(Schema.decodeUnknownEither(SignedDecimalText)("1e3"))).toBe(true)
  })
})
