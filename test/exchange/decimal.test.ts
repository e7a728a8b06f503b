import { Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  absDecimal,
  addDecimal,
  compareDecimal,
  type Decimal,
  decimalToString,
  divDecimal,
  fromNumber,
  isPositive,
  makeDecimal,
  MAX_DECIMAL_INPUT_LENGTH,
  mulDecimal,
  negateDecimal,
  parseDecimal,
  parseLooseDecimal,
  roundDecimal,
  subDecimal,
  toFixedDown,
  toFixedRounded,
  toNumber,
  truncateDecimal,
  truncateToDivisibility,
  ZERO
} from "../../src/exchange/decimal"

const dec = (s: string): Decimal => Option.getOrThrow(parseLooseDecimal(s))
const show = (o: Option.Option<Decimal>): string | undefined =>
  Option.match(o, { onNone: () => undefined, onSome: decimalToString })

/** Any decimal, signed, up to 40 integer digits and 30 decimals (covers Radix's 18). */
const arbDecimal: fc.Arbitrary<Decimal> = fc
  .tuple(fc.bigInt({ min: -(10n ** 70n), max: 10n ** 70n }), fc.nat({ max: 30 }))
  .map(([c, s]) => makeDecimal(c, s))
const arbNonNegative: fc.Arbitrary<Decimal> = arbDecimal.map(absDecimal)

/** Plain decimal strings as a user types them: "12", "0.5", ".5", "12.". */
const arbPlainString: fc.Arbitrary<string> = fc
  .tuple(fc.stringMatching(/^\d{0,25}$/), fc.boolean(), fc.stringMatching(/^\d{0,25}$/))
  .filter(([i, dot, f]) => i.length > 0 || (dot && f.length > 0))
  .map(([i, dot, f]) => (dot ? `${i}.${f}` : i))

describe("parseDecimal", () => {
  it.each([
    ["12", "12"],
    ["0.5", "0.5"],
    [".5", "0.5"],
    ["12.", "12"],
    ["0", "0"],
    ["000", "0"],
    ["0.000", "0"],
    ["007.50", "7.5"],
    ["123456789012345678.123456789012345678", "123456789012345678.123456789012345678"],
    ["0.000000000000000001", "0.000000000000000001"]
  ])("accepts %j as %s", (input, printed) => {
    expect(show(parseDecimal(input))).toBe(printed)
  })

  it.each([
    "",
    ".",
    "-1",
    "+1",
    "1e5",
    "1E-5",
    " 1",
    "1 ",
    "1,000",
    "1.2.3",
    "abc",
    "NaN",
    "Infinity",
    "0x10",
    "١٢", // Arabic-Indic digits
    "１２", // full-width digits
    "1\u0000"
  ])("rejects %j", (input) => {
    expect(Option.isNone(parseDecimal(input))).toBe(true)
  })

  it("rejects inputs longer than the cap, accepts at the cap", () => {
    expect(Option.isSome(parseDecimal("9".repeat(MAX_DECIMAL_INPUT_LENGTH)))).toBe(true)
    expect(Option.isNone(parseDecimal("9".repeat(MAX_DECIMAL_INPUT_LENGTH + 1)))).toBe(true)
  })

  it("round trips: print(parse(s)) reads back as the same value, and print is canonical", () => {
    fc.assert(
      fc.property(arbPlainString, (s) => {
        const d = Option.getOrThrow(parseDecimal(s))
        const printed = decimalToString(d)
        expect(parseDecimal(printed)).toEqual(Option.some(d))
        expect(printed).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/)
      })
    )
  })

  it("round trips: parse(print(d)) === d for every non-negative decimal", () => {
    fc.assert(
      fc.property(arbNonNegative, (d) => {
        expect(parseDecimal(decimalToString(d))).toEqual(Option.some(d))
      })
    )
  })
})

describe("parseLooseDecimal", () => {
  it.each([
    ["-1.5", "-1.5"],
    ["+2", "2"],
    [" 3.25 ", "3.25"],
    ["1e-7", "0.0000001"],
    ["1.5E+21", "1500000000000000000000"],
    ["-0", "0"],
    ["12.", "12"]
  ])("reads %j as %s", (input, printed) => {
    expect(show(parseLooseDecimal(input))).toBe(printed)
  })

  it.each(["", "-", "e5", "1e", "1e999999999", "1e401", "--1", "1.2.3", "NaN", "Infinity", "$1"])(
    "rejects %j",
    (input) => {
      expect(Option.isNone(parseLooseDecimal(input))).toBe(true)
    }
  )

  it("signed round trip", () => {
    fc.assert(
      fc.property(arbDecimal, (d) => {
        expect(parseLooseDecimal(decimalToString(d))).toEqual(Option.some(d))
      })
    )
  })
})

describe("decimalToString", () => {
  it("never uses exponent notation, trailing zeros or a trailing dot", () => {
    expect(decimalToString(makeDecimal(1n, 30))).toBe("0.000000000000000000000000000001")
    expect(decimalToString(makeDecimal(1n, -25))).toBe("10000000000000000000000000")
    expect(decimalToString(makeDecimal(-1500n, 3))).toBe("-1.5")
    expect(decimalToString(makeDecimal(-0n, 5))).toBe("0")
    fc.assert(
      fc.property(arbDecimal, (d) => {
        expect(decimalToString(d)).toMatch(/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/)
      })
    )
  })
})

describe("arithmetic", () => {
  it("is exact where binary floating point is not", () => {
    expect(decimalToString(addDecimal(dec("0.1"), dec("0.2")))).toBe("0.3")
    expect(decimalToString(subDecimal(dec("0.3"), dec("0.1")))).toBe("0.2")
    expect(decimalToString(mulDecimal(dec("1.1"), dec("1.1")))).toBe("1.21")
    expect(decimalToString(mulDecimal(dec("123.456789012345678901"), dec("0.99")))).toBe("122.22222112222222211199")
    expect(decimalToString(addDecimal(dec("999999999999999999.999999999999999999"), dec("0.000000000000000001")))).toBe(
      "1000000000000000000"
    )
    expect(decimalToString(subDecimal(dec("1"), dec("2.5")))).toBe("-1.5")
  })

  it("add and sub are inverse", () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, (a, b) => {
        expect(subDecimal(addDecimal(a, b), b)).toEqual(a)
        expect(addDecimal(subDecimal(a, b), b)).toEqual(a)
      })
    )
  })

  it("add is commutative and has zero as identity", () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, (a, b) => {
        expect(addDecimal(a, b)).toEqual(addDecimal(b, a))
        expect(addDecimal(a, ZERO)).toEqual(a)
      })
    )
  })

  it("mul distributes over add", () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, arbDecimal, (a, b, c) => {
        expect(mulDecimal(a, addDecimal(b, c))).toEqual(addDecimal(mulDecimal(a, b), mulDecimal(a, c)))
      })
    )
  })

  it("compare agrees with sub and is antisymmetric", () => {
    fc.assert(
      fc.property(arbDecimal, arbDecimal, (a, b) => {
        const diff = subDecimal(a, b)
        const expected = diff.coefficient > 0n ? 1 : diff.coefficient < 0n ? -1 : 0
        expect(compareDecimal(a, b)).toBe(expected)
        expect(compareDecimal(b, a)).toBe(-expected || 0)
      })
    )
    expect(compareDecimal(dec("1.10"), dec("1.1"))).toBe(0)
    expect(compareDecimal(dec("0.000000000000000001"), ZERO)).toBe(1)
    expect(compareDecimal(dec("-2"), dec("-1.99"))).toBe(-1)
  })

  it("isPositive is strictly above zero", () => {
    expect(isPositive(dec("0.000000000000000001"))).toBe(true)
    expect(isPositive(ZERO)).toBe(false)
    expect(isPositive(dec("-1"))).toBe(false)
  })
})

describe("divDecimal", () => {
  it("truncates toward zero to the requested places", () => {
    expect(show(divDecimal(dec("1"), dec("3"), 8))).toBe("0.33333333")
    expect(show(divDecimal(dec("2"), dec("3"), 8))).toBe("0.66666666")
    expect(show(divDecimal(dec("-2"), dec("3"), 2))).toBe("-0.66")
    expect(show(divDecimal(dec("10"), dec("0.25"), 0))).toBe("40")
    expect(show(divDecimal(dec("3500.5"), dec("1.000000000000000001"), 18))).toBe("3500.499999999999996499")
    expect(show(divDecimal(dec("1"), dec("3"), -1))).toBe("0")
  })

  it("has no value for a zero divisor", () => {
    expect(Option.isNone(divDecimal(dec("1"), ZERO, 8))).toBe(true)
    expect(Option.isNone(divDecimal(ZERO, ZERO, 8))).toBe(true)
  })

  it("q * b never exceeds a in magnitude and misses it by less than one unit in the last place times b", () => {
    fc.assert(
      fc.property(arbNonNegative, arbNonNegative.filter(isPositive), fc.nat({ max: 20 }), (a, b, p) => {
        const q = Option.getOrThrow(divDecimal(a, b, p))
        expect(compareDecimal(mulDecimal(q, b), a)).toBeLessThanOrEqual(0)
        const next = addDecimal(q, makeDecimal(1n, p))
        expect(compareDecimal(mulDecimal(next, b), a)).toBe(1)
      })
    )
  })
})

describe("truncation and rounding", () => {
  it.each([
    ["0.999999999", 8, "0.99999999"],
    ["1.23456789", 2, "1.23"],
    ["1", 2, "1.00"],
    ["1.5", 0, "1"],
    ["0.000000001", 8, "0.00000000"],
    ["-1.239", 2, "-1.23"],
    ["-0.001", 2, "0.00"],
    ["123456789012345678.123456789012345678", 18, "123456789012345678.123456789012345678"],
    ["123456789012345678.123456789012345678", 4, "123456789012345678.1234"]
  ])("toFixedDown(%s, %i) = %s", (input, places, out) => {
    expect(toFixedDown(dec(input), places)).toBe(out)
  })

  it.each([
    ["1.005", 2, "1.01"],
    ["1.004999", 2, "1.00"],
    ["-1.005", 2, "-1.01"],
    ["0.995", 2, "1.00"],
    ["-0.004", 2, "0.00"],
    ["2.5", 0, "3"]
  ])("toFixedRounded(%s, %i) = %s", (input, places, out) => {
    expect(toFixedRounded(dec(input), places)).toBe(out)
  })

  it("toFixedDown never exceeds the input, loses less than one unit in the last place, has exactly `places` decimals", () => {
    fc.assert(
      fc.property(arbNonNegative, fc.nat({ max: 24 }), (d, p) => {
        const s = toFixedDown(d, p)
        const back = Option.getOrThrow(parseDecimal(s))
        expect(compareDecimal(back, d)).toBeLessThanOrEqual(0)
        expect(compareDecimal(subDecimal(d, back), makeDecimal(1n, p))).toBe(-1)
        expect(s.split(".")[1]?.length ?? 0).toBe(p)
      })
    )
  })

  it("truncation toward zero: the magnitude never grows, also for negatives", () => {
    fc.assert(
      fc.property(arbDecimal, fc.nat({ max: 24 }), (d, p) => {
        const t = truncateDecimal(d, p)
        expect(compareDecimal(absDecimal(t), absDecimal(d))).toBeLessThanOrEqual(0)
        expect(truncateDecimal(negateDecimal(d), p)).toEqual(negateDecimal(t))
      })
    )
  })

  it("roundDecimal is within half a unit of the input", () => {
    fc.assert(
      fc.property(arbDecimal, fc.nat({ max: 24 }), (d, p) => {
        const r = roundDecimal(d, p)
        const err = absDecimal(subDecimal(r, d))
        expect(compareDecimal(err, makeDecimal(5n, p + 1))).toBeLessThanOrEqual(0)
      })
    )
  })
})

describe("number interop (display only)", () => {
  it.each([
    [0.1, "0.1"],
    [1e-7, "0.0000001"],
    [1e21, "1000000000000000000000"],
    [-0, "0"],
    [-2.5, "-2.5"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"]
  ])("fromNumber(%d) = %s", (n, printed) => {
    expect(show(fromNumber(n))).toBe(printed)
  })

  it.each([NaN, Infinity, -Infinity])("fromNumber(%d) is None", (n) => {
    expect(Option.isNone(fromNumber(n))).toBe(true)
  })

  it("toNumber(fromNumber(n)) === n for every finite double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(toNumber(Option.getOrThrow(fromNumber(n)))).toBe(n === 0 ? 0 : n)
      })
    )
  })
})

describe("truncateToDivisibility", () => {
  it.each([
    ["1.123456789", 6, "1.123456"],
    ["1.999999999", 0, "1"],
    ["1.5", 18, "1.5"],
    ["1.500000", 6, "1.5"],
    ["12.", 6, "12"],
    [".5", 6, "0.5"],
    ["1e-7", 18, "0.0000001"],
    ["1e-7", 6, "0"],
    ["1.5e21", 18, "1500000000000000000000"],
    ["0.1234567890123456789012", 30, "0.123456789012345678"], // clamped to 18
    ["0.123", -2, "0"],
    ["0.123", 2.9, "0.12"],
    ["0.123", NaN, "0"],
    ["abc", 6, "0"],
    ["", 6, "0"],
    ["-1.23456", 2, "-1.23"]
  ])("(%j, %d) -> %s", (input, divisibility, out) => {
    expect(truncateToDivisibility(input, divisibility)).toBe(out)
  })

  it("output is plain notation with at most `divisibility` decimals, never above the input", () => {
    fc.assert(
      fc.property(arbNonNegative, fc.nat({ max: 18 }), (d, p) => {
        const out = truncateToDivisibility(decimalToString(d), p)
        expect(out).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/)
        expect(out.split(".")[1]?.length ?? 0).toBeLessThanOrEqual(p)
        expect(compareDecimal(Option.getOrThrow(parseDecimal(out)), d)).toBeLessThanOrEqual(0)
      })
    )
  })
})
