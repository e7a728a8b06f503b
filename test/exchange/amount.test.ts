import { Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  exceedsBalance,
  isAmountPositive,
  liquidityCovers,
  minimumReceived,
  sanitizeAmountInput
} from "../../src/exchange/amount"
import {
  addDecimal,
  compareDecimal,
  type Decimal,
  decimalToString,
  makeDecimal,
  mulDecimal,
  parseDecimal,
  subDecimal
} from "../../src/exchange/decimal"

const dec = (s: string): Decimal => Option.getOrThrow(parseDecimal(s))

const arbAmount: fc.Arbitrary<Decimal> = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.nat({ max: 24 }))
  .map(([c, s]) => makeDecimal(c, s))

/** Strings full of what a user might paste: digits, dots, separators, signs, letters, unicode. */
const arbTyped: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom("0", "1", "9", ".", ",", "-", "+", "e", " ", "a", "١", "１", "\u0000") }),
  fc.string()
)

describe("sanitizeAmountInput", () => {
  it.each([
    ["1.2.3", "1.23"],
    ["a1b.c", "1."],
    ["..5", ".5"],
    ["12", "12"],
    ["12.", "12."],
    [".", "."],
    ["", ""],
    ["0.000", "0.000"],
    ["007", "007"],
    ["1,000.50", "1000.50"],
    ["-5", "5"],
    ["+5", "5"],
    ["1e5", "15"],
    [" 1 2 ", "12"],
    ["1.2.3.4.", "1.234"],
    ["１２.5", ".5"], // full-width digits are not ASCII digits
    ["٣.٤", "."], // nor are Arabic-Indic ones
    ["<img src=x onerror=alert(1)>", "1"],
    ["1\u0000.5", "1.5"]
  ])("%j -> %j", (raw, out) => {
    expect(sanitizeAmountInput(raw)).toBe(out)
  })

  it("output only has digits and at most one dot", () => {
    fc.assert(
      fc.property(arbTyped, (raw) => {
        expect(sanitizeAmountInput(raw)).toMatch(/^\d*\.?\d*$/)
      })
    )
  })

  it("is idempotent", () => {
    fc.assert(
      fc.property(arbTyped, (raw) => {
        const once = sanitizeAmountInput(raw)
        expect(sanitizeAmountInput(once)).toBe(once)
      })
    )
  })

  it("keeps every ASCII digit in order, and the dot right after the digits typed before the first dot", () => {
    fc.assert(
      fc.property(arbTyped, (raw) => {
        const out = sanitizeAmountInput(raw)
        expect(out.replace(".", "")).toBe(raw.replace(/[^0-9]/g, ""))
        const firstDot = raw.indexOf(".")
        if (firstDot === -1) expect(out).not.toContain(".")
        else expect(out.indexOf(".")).toBe(raw.slice(0, firstDot).replace(/[^0-9]/g, "").length)
      })
    )
  })

  it("leaves an already clean amount untouched", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,20}\.?\d{0,20}$/), (clean) => {
        expect(sanitizeAmountInput(clean)).toBe(clean)
      })
    )
  })
})

describe("isAmountPositive", () => {
  it.each([
    ["1", true],
    ["0.5", true],
    [".5", true],
    ["12.", true],
    ["0.000000000000000001", true],
    ["0", false],
    ["0.", false],
    ["0.000", false],
    [".", false],
    ["", false],
    ["-1", false],
    ["1e5", false],
    ["abc", false],
    [" 1", false]
  ])("%j -> %s", (s, positive) => {
    expect(isAmountPositive(s)).toBe(positive)
  })

  it("agrees with the exact value on every sanitised input", () => {
    fc.assert(
      fc.property(arbTyped, (raw) => {
        const s = sanitizeAmountInput(raw)
        const expected = /[1-9]/.test(s)
        expect(isAmountPositive(s)).toBe(expected)
      })
    )
  })
})

describe("exceedsBalance", () => {
  it.each([
    ["1", "2", false],
    ["2", "2", false],
    ["2.0", "2", false],
    ["2.000000000000000001", "2", true],
    ["1.999999999999999999", "2", false],
    ["0.1", "0.09999999", true],
    ["1", "", true], // unknown balance counts as 0
    ["1", "oops", true],
    ["0", "", false],
    ["", "5", false], // nothing entered exceeds nothing
    [".", "5", false],
    ["1", " 1.5e0 ", false], // balances are read leniently
    ["123456789012345678.123456789012345679", "123456789012345678.123456789012345678", true]
  ])("(%j, %j) -> %s", (amount, balance, exceeds) => {
    expect(exceedsBalance(amount, balance)).toBe(exceeds)
  })

  it("is exactly amount > balance", () => {
    fc.assert(
      fc.property(arbAmount, arbAmount, (a, b) => {
        expect(exceedsBalance(decimalToString(a), decimalToString(b))).toBe(compareDecimal(a, b) > 0)
        expect(exceedsBalance(decimalToString(a), decimalToString(a))).toBe(false)
      })
    )
  })
})

describe("minimumReceived", () => {
  it.each([
    ["100", 6, "99"],
    ["1", 18, "0.99"],
    ["0.123456789", 6, "0.122222"],
    ["0.123456789", 18, "0.12222222111"],
    ["3500.123456789012345678", 18, "3465.122222221122222221"],
    ["1", 0, "0"],
    ["1000", 0, "990"],
    ["0.00000001", 8, "0"],
    ["1", 40, "0.99"], // decimals clamped to 18, no effect here
    ["0", 6, "0"],
    ["-5", 6, "0"],
    ["", 6, "0"],
    ["NaN", 6, "0"],
    ["1e3", 6, "990"]
  ])("(%j, %d) -> %s", (output, decimals, out) => {
    expect(minimumReceived(output, decimals)).toBe(out)
  })

  it("is 99% of the output truncated: never above it, less than one unit in the last place below", () => {
    fc.assert(
      fc.property(arbAmount, fc.nat({ max: 18 }), (o, decimals) => {
        const out = minimumReceived(decimalToString(o), decimals)
        const exact = mulDecimal(o, dec("0.99"))
        const got = dec(out)
        expect(out.split(".")[1]?.length ?? 0).toBeLessThanOrEqual(decimals)
        expect(compareDecimal(got, exact)).toBeLessThanOrEqual(0)
        expect(compareDecimal(subDecimal(exact, got), makeDecimal(1n, decimals))).toBe(-1)
      })
    )
  })
})

describe("liquidityCovers", () => {
  it.each<[string | undefined, string, boolean]>([
    [undefined, "100", true],
    ["105", "100", true],
    ["105.000000000000000001", "100", true],
    ["104.999999999999999999", "100", false],
    ["0", "100", false],
    ["0", "0", true],
    ["1000000", "0.5", true],
    ["1.05", "1", true],
    ["1.0499", "1", false],
    ["", "100", true], // no usable data
    ["n/a", "100", true],
    ["105", "", true], // no quote yet
    ["1.05e2", "100", true]
  ])("(%j, %j) -> %s", (liquidity, output, covers) => {
    expect(liquidityCovers(liquidity, output)).toBe(covers)
  })

  it("is exactly liquidity >= output × 1.05, with the boundary included", () => {
    fc.assert(
      fc.property(arbAmount, arbAmount, (liquidity, output) => {
        const needed = mulDecimal(output, dec("1.05"))
        expect(liquidityCovers(decimalToString(liquidity), decimalToString(output))).toBe(
          compareDecimal(liquidity, needed) >= 0
        )
        expect(liquidityCovers(decimalToString(needed), decimalToString(output))).toBe(true)
        const justBelow = subDecimal(needed, makeDecimal(1n, 40))
        expect(liquidityCovers(decimalToString(justBelow), decimalToString(output))).toBe(false)
      })
    )
  })

  it("more liquidity never stops covering", () => {
    fc.assert(
      fc.property(arbAmount, arbAmount, arbAmount, (liquidity, extra, output) => {
        const more = addDecimal(liquidity, extra)
        if (liquidityCovers(decimalToString(liquidity), decimalToString(output)))
          expect(liquidityCovers(decimalToString(more), decimalToString(output))).toBe(true)
      })
    )
  })
})
