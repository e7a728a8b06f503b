import { BigDecimal, Either, Option, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  decimalFromNumber,
  divideDown,
  formatFixedDown,
  formatFixedRounded,
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
const d = (s: string) => Option.getOrThrow(parseLooseDecimal(s))

/** Any decimal, signed, up to 70 digits and 30 decimals (covers Radix's 18). */
const arbDecimal: fc.Arbitrary<BigDecimal.BigDecimal> = fc
  .tuple(fc.bigInt({ min: -(10n ** 70n), max: 10n ** 70n }), fc.nat({ max: 30 }))
  .map(([c, s]) => BigDecimal.make(c, s))
const arbNonNegative = arbDecimal.map(BigDecimal.abs)

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

  it.each([
    ["0", "0"],
    ["000", "0"],
    ["0.000", "0"],
    ["007.50", "7.5"],
    ["123456789012345678.123456789012345678", "123456789012345678.123456789012345678"],
    ["0.000000000000000001", "0.000000000000000001"]
  ])("reads the amount %j as %s", (input, printed) => {
    expect(show(parseUnsignedDecimal(input))).toBe(printed)
  })

  it.each(["1E-5", "1 ", "NaN", "Infinity", "0x10", "١٢", "１２", "1\u0000"])("refuses the amount %j", (input) => {
    expect(show(parseUnsignedDecimal(input))).toBeUndefined()
  })

  it("reads an amount at the length cap", () => {
    expect(Option.isSome(parseUnsignedDecimal("9".repeat(MAX_DECIMAL_TEXT_LENGTH)))).toBe(true)
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
    for (const [input, printed] of [
      ["+2", "2"],
      [" 3.25 ", "3.25"],
      ["-0", "0"],
      ["12.", "12"]
    ] as const)
      expect(show(parseLooseDecimal(input)), input).toBe(printed)
    for (const bad of ["-", "e5", "1e", "1e999999999", "--1", "1.2.3", "NaN", "Infinity", "$1"])
      expect(show(parseLooseDecimal(bad)), bad).toBeUndefined()
  })

  it("reads numbers for display only: the shortest decimal that round-trips the double", () => {
    for (const [n, printed] of [
      [0.1, "0.1"],
      [1e-7, "0.0000001"],
      [1e21, "1000000000000000000000"],
      [-0, "0"],
      [-2.5, "-2.5"],
      [Number.MAX_SAFE_INTEGER, "9007199254740991"]
    ] as const)
      expect(show(decimalFromNumber(n))).toBe(printed)
    for (const n of [NaN, Infinity, -Infinity]) expect(show(decimalFromNumber(n))).toBeUndefined()
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(Number(formatPlain(Option.getOrThrow(decimalFromNumber(n))))).toBe(n === 0 ? 0 : n)
      })
    )
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
    expect(formatFixedDown(d("0.999999999"), 8)).toBe("0.99999999")
    expect(formatFixedDown(d("12"), 2)).toBe("12.00")
    expect(formatFixedDown(d("-0.001"), 2)).toBe("0.00")
    expect(formatFixedDown(d("-1.239"), 2)).toBe("-1.23")
    expect(formatFixedDown(d("7.9"), 0)).toBe("7")
    expect(formatFixedDown(d("1.23456789"), 2)).toBe("1.23")
    expect(formatFixedDown(d("0.000000001"), 8)).toBe("0.00000000")
    expect(formatFixedDown(d("123456789012345678.123456789012345678"), 18)).toBe(
      "123456789012345678.123456789012345678"
    )
    expect(formatFixedDown(d("123456789012345678.123456789012345678"), 4)).toBe("123456789012345678.1234")
    expect(formatFixedDown(d("1.5"), NaN)).toBe("1")
  })

  it("fixed places truncated: never above the value, less than one unit in the last place below it", () => {
    fc.assert(
      fc.property(arbNonNegative, fc.nat({ max: 24 }), (value, p) => {
        const text = formatFixedDown(value, p)
        const back = d(text)
        expect(BigDecimal.lessThanOrEqualTo(back, value)).toBe(true)
        expect(BigDecimal.lessThan(BigDecimal.subtract(value, back), BigDecimal.make(1n, p))).toBe(true)
        expect(text.split(".")[1]?.length ?? 0).toBe(p)
      })
    )
  })

  it("prints display estimates rounded half away from zero", () => {
    for (const [input, places, out] of [
      ["1.005", 2, "1.01"],
      ["1.004999", 2, "1.00"],
      ["-1.005", 2, "-1.01"],
      ["0.995", 2, "1.00"],
      ["-0.004", 2, "0.00"],
      ["2.5", 0, "3"],
      ["-2.5", 0, "-3"],
      ["45.678", 2, "45.68"],
      ["1.5", 4, "1.5000"]
    ] as const)
      expect(formatFixedRounded(d(input), places), `${input} to ${places}`).toBe(out)
    fc.assert(
      fc.property(arbDecimal, fc.nat({ max: 24 }), (value, p) => {
        const rounded = d(formatFixedRounded(value, p))
        const error = BigDecimal.abs(BigDecimal.subtract(rounded, value))
        expect(BigDecimal.lessThanOrEqualTo(error, BigDecimal.make(5n, p + 1))).toBe(true)
      })
    )
  })

  it("divides truncating toward zero to the places wanted, with no value for a zero divisor", () => {
    expect(show(divideDown(d("1"), d("3"), 8))).toBe("0.33333333")
    expect(show(divideDown(d("2"), d("3"), 8))).toBe("0.66666666")
    expect(show(divideDown(d("-2"), d("3"), 2))).toBe("-0.66")
    expect(show(divideDown(d("10"), d("0.25"), 0))).toBe("40")
    expect(show(divideDown(d("3500.5"), d("1.000000000000000001"), 18))).toBe("3500.499999999999996499")
    expect(show(divideDown(d("1"), d("3"), -1))).toBe("0")
    expect(show(divideDown(d("1"), d("0"), 8))).toBeUndefined()
    expect(show(divideDown(d("0"), d("0"), 8))).toBeUndefined()
  })

  it("is exact however many digits the quotient has", () => {
    expect(show(divideDown(d("1"), d("3"), 150))).toBe(`0.${"3".repeat(150)}`)
    expect(show(divideDown(d(`1${"0".repeat(120)}`), d("7"), 2))).toBe(
      `${(10n ** 120n / 7n).toString()}.${((10n ** 122n / 7n) % 100n).toString().padStart(2, "0")}`
    )
    expect(show(divideDown(d("0.000000000000000001"), d("1000000000000000000"), 36))).toBe(`0.${"0".repeat(35)}1`)
    expect(show(divideDown(d("-7"), d("-2"), 0))).toBe("3")
    expect(show(divideDown(d("7"), d("-2"), 0))).toBe("-3")
  })

  it("q × b never exceeds a and misses it by less than one unit in the last place times b", () => {
    // Amounts, prices and rates: up to 40 digits, 24 decimals.
    const arbOperand = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.nat({ max: 24 }))
      .map(([c, s]) => BigDecimal.make(c, s))
    fc.assert(
      fc.property(arbOperand, arbOperand.filter(BigDecimal.isPositive), fc.nat({ max: 20 }), (a, b, p) => {
        const q = Option.getOrThrow(divideDown(a, b, p))
        expect(BigDecimal.lessThanOrEqualTo(BigDecimal.multiply(q, b), a)).toBe(true)
        const next = BigDecimal.sum(q, BigDecimal.make(1n, p))
        expect(BigDecimal.greaterThan(BigDecimal.multiply(next, b), a)).toBe(true)
      })
    )
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
