import { BigDecimal, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type AmountInput,
  exceedsBalance,
  isAmountPositive,
  liquidityCovers,
  MAX_AMOUNT_DECIMALS,
  MAX_AMOUNT_INPUT_LENGTH,
  minimumReceived,
  readAmountInput,
  REFUSED_CHARACTER,
  REFUSED_DECIMAL_SEPARATORS,
  REFUSED_DECIMALS,
  REFUSED_EXPONENT,
  REFUSED_GROUPING,
  REFUSED_SIGN,
  REFUSED_TOO_LONG
} from "../../src/exchange/amount"
import { formatPlain, parseUnsignedDecimal } from "../../src/lib/decimalText"

const dec = (s: string): BigDecimal.BigDecimal => Option.getOrThrow(parseUnsignedDecimal(s))

const arbAmount: fc.Arbitrary<BigDecimal.BigDecimal> = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.nat({ max: 24 }))
  .map(([c, s]) => BigDecimal.make(c, s))

const accepted = (value: string): AmountInput => ({ _tag: "Accepted", value })
const refused = (reason: string): AmountInput => ({ _tag: "Refused", reason })
const REASONS = [
  REFUSED_TOO_LONG,
  REFUSED_EXPONENT,
  REFUSED_SIGN,
  REFUSED_CHARACTER,
  REFUSED_DECIMAL_SEPARATORS,
  REFUSED_GROUPING,
  REFUSED_DECIMALS
]

/** Types `keys` one at a time at the end of the field, as the bridge page does: a refused key leaves the field. */
const typeKeys = (keys: string): { readonly value: string; readonly reasons: ReadonlyArray<string> } => {
  let value = ""
  const reasons: Array<string> = []
  for (const key of keys) {
    const read = readAmountInput(value + key, value)
    if (read._tag === "Accepted") value = read.value
    else reasons.push(read.reason)
  }
  return { value, reasons }
}

/** Groups `digits` by 3 from the right with `sep`: ("1234567", ",") -> "1,234,567". */
const group = (digits: string, sep: string): string => digits.replace(/\B(?=(\d{3})+$)/g, sep)

const asciiDigits = (s: string): string => s.replace(/[^0-9]/g, "")
const significantDigits = (s: string): number => asciiDigits(s).replace(/^0+/, "").length

/** What a user might type or paste: digits, both marks, every thousands separator, signs, exponents, junk. */
const arbRaw: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc.constantFrom(..."0159900.,' e-+a", "\u00A0", "\u202F", "\u2019", "１", "\u0000"),
    maxLength: 45
  }),
  fc.string({ unit: fc.constantFrom("0", "1", "2", "7", ".", ","), maxLength: 30 }),
  // digit runs of 1 to 4 between separators: often valid groups of 3, often nearly so
  fc
    .tuple(
      fc.array(fc.tuple(fc.stringMatching(/^\d{1,4}$/), fc.constantFrom(".", ",", " ", "\u202F", "'")), {
        maxLength: 5
      }),
      fc.stringMatching(/^\d{0,4}$/)
    )
    .map(([runs, last]) => runs.map(([digits, sep]) => digits + sep).join("") + last),
  fc.string()
)

describe("readAmountInput", () => {
  it.each([
    // plain text, kept as typed
    ["", ""],
    ["0", "0"],
    ["12", "12"],
    ["0.5", "0.5"],
    [".5", ".5"],
    ["12.", "12."],
    [".", "."],
    ["007", "007"],
    ["0.000", "0.000"],
    ["00.50", "00.50"],
    // surrounding whitespace
    ["  12.5 ", "12.5"],
    ["\t0.5\n", "0.5"],
    ["   ", ""],
    ["\u00A01.5\u202F", "1.5"],
    // decimal comma
    ["0,5", "0.5"],
    [",5", ".5"],
    ["12,", "12."],
    [",", "."],
    ["00,50", "00.50"],
    // both marks: the last one is the decimal mark
    ["1,234.5", "1234.5"],
    ["1.234,5", "1234.5"],
    ["1,234,567.89", "1234567.89"],
    ["1.234.567,89", "1234567.89"],
    ["123,456.", "123456."],
    ["1.234,", "1234."],
    ["0,001.5", "0001.5"],
    // one mark only, once: the decimal mark
    ["1,234", "1.234"],
    ["1.234", "1.234"],
    ["1,2", "1.2"],
    ["123,456", "123.456"],
    // the same mark in valid groups of 3 only: thousands
    ["1,234,567", "1234567"],
    ["1.234.567", "1234567"],
    ["12,345,678,901", "12345678901"],
    // spaces and apostrophes: thousands only
    ["1 234", "1234"],
    ["1 234,5", "1234.5"],
    ["1 234.5", "1234.5"],
    ["1\u00A0234\u00A0567,89", "1234567.89"],
    ["1\u202F234,5", "1234.5"],
    ["1\u2009234,5", "1234.5"],
    ["1'234.5", "1234.5"],
    ["1\u2019234\u2019567.8", "1234567.8"],
    ["1 234 567", "1234567"],
    ["1 234,567", "1234.567"],
    ["1'234,", "1234."]
  ])("accepts %j as %j", (raw, value) => {
    expect(readAmountInput(raw)).toEqual(accepted(value))
  })

  it.each([
    // exponents, signs, letters, other symbols
    ["1e5", REFUSED_EXPONENT],
    ["1E-3", REFUSED_EXPONENT],
    ["2.5e+3", REFUSED_EXPONENT],
    ["e", REFUSED_EXPONENT],
    ["-5", REFUSED_SIGN],
    ["+5", REFUSED_SIGN],
    ["5-", REFUSED_SIGN],
    ["\u22125", REFUSED_SIGN],
    ["-1e5", REFUSED_SIGN],
    ["abc", REFUSED_CHARACTER],
    ["12a", REFUSED_CHARACTER],
    ["$5", REFUSED_CHARACTER],
    ["5 BTC", REFUSED_CHARACTER],
    ["1_000", REFUSED_CHARACTER],
    ["50%", REFUSED_CHARACTER],
    ["1\t000", REFUSED_CHARACTER],
    ["1\u00000", REFUSED_CHARACTER],
    ["１２", REFUSED_CHARACTER], // full-width digits
    ["٣.٤", REFUSED_CHARACTER], // Arabic-Indic digits
    ["0x10", REFUSED_CHARACTER],
    ["Infinity", REFUSED_CHARACTER],
    ["NaN", REFUSED_CHARACTER],
    ["<img src=x onerror=alert(1)>", REFUSED_CHARACTER],
    // several decimal marks
    ["1.2.3", REFUSED_DECIMAL_SEPARATORS],
    ["1,,2", REFUSED_DECIMAL_SEPARATORS],
    ["..5", REFUSED_DECIMAL_SEPARATORS],
    ["1..", REFUSED_DECIMAL_SEPARATORS],
    ["1.2.", REFUSED_DECIMAL_SEPARATORS],
    ["1,234,", REFUSED_DECIMAL_SEPARATORS],
    ["1.234.5", REFUSED_DECIMAL_SEPARATORS],
    ["1,234,56", REFUSED_DECIMAL_SEPARATORS],
    ["1,2.3,4", REFUSED_DECIMAL_SEPARATORS],
    ["1.234,567.8", REFUSED_DECIMAL_SEPARATORS],
    ["1 234,567,8", REFUSED_DECIMAL_SEPARATORS],
    [",,", REFUSED_DECIMAL_SEPARATORS],
    // thousands separators that do not group the whole part by 3
    ["1,23.4", REFUSED_GROUPING],
    ["12,34,5.6", REFUSED_GROUPING],
    ["1234,567.8", REFUSED_GROUPING],
    [",234.5", REFUSED_GROUPING],
    ["1,2345.6", REFUSED_GROUPING],
    ["1 23", REFUSED_GROUPING],
    ["12 34,5", REFUSED_GROUPING],
    ["1  234", REFUSED_GROUPING],
    ["1'", REFUSED_GROUPING],
    ["'5", REFUSED_GROUPING],
    ["1 234'567", REFUSED_GROUPING], // two kinds of thousands separator
    ["1 234,567.8", REFUSED_GROUPING],
    ["1.234 5", REFUSED_GROUPING], // separators among the decimals
    ["0,123 456", REFUSED_GROUPING],
    ["1 ,5", REFUSED_GROUPING]
  ])("refuses %j: %s", (raw, reason) => {
    expect(readAmountInput(raw)).toEqual(refused(reason))
  })

  it(`accepts up to ${MAX_AMOUNT_DECIMALS} decimals, whatever the decimal mark`, () => {
    const eighteen = "123456789012345678"
    expect(readAmountInput(`0.${eighteen}`)).toEqual(accepted(`0.${eighteen}`))
    expect(readAmountInput(`1,234.${eighteen}`)).toEqual(accepted(`1234.${eighteen}`))
    expect(readAmountInput(`.${eighteen}`)).toEqual(accepted(`.${eighteen}`))
    expect(readAmountInput(`0.${eighteen}9`)).toEqual(refused(REFUSED_DECIMALS))
    expect(readAmountInput(`0,${eighteen}9`)).toEqual(refused(REFUSED_DECIMALS))
    expect(readAmountInput(`1 234,${eighteen}9`)).toEqual(refused(REFUSED_DECIMALS))
    expect(readAmountInput(`1.234,${eighteen}9`)).toEqual(refused(REFUSED_DECIMALS))
  })

  it(`refuses more than ${MAX_AMOUNT_INPUT_LENGTH} characters, counted after trimming`, () => {
    const forty = "1".repeat(40)
    expect(readAmountInput(forty)).toEqual(accepted(forty))
    expect(readAmountInput(`   ${forty}\u00A0 `)).toEqual(accepted(forty))
    expect(readAmountInput(`${forty}1`)).toEqual(refused(REFUSED_TOO_LONG))
    expect(readAmountInput(`${"0".repeat(22)}.${"5".repeat(18)}`)).toEqual(refused(REFUSED_TOO_LONG))
    expect(readAmountInput("x".repeat(100_000))).toEqual(refused(REFUSED_TOO_LONG))
  })

  it.each<[string, string, AmountInput]>([
    // one more decimal mark typed while the field's point stays: refused, whatever the text alone would read as
    ["1.234", "1.234,", refused(REFUSED_DECIMAL_SEPARATORS)], // alone: "1234."
    ["12.345", "12.345,", refused(REFUSED_DECIMAL_SEPARATORS)],
    ["1.5", "1.5,", refused(REFUSED_DECIMAL_SEPARATORS)],
    ["1.5", "1,.5", refused(REFUSED_DECIMAL_SEPARATORS)],
    ["1.5", "1.5.", refused(REFUSED_DECIMAL_SEPARATORS)],
    ["1234.5", "1,234.5", refused(REFUSED_DECIMAL_SEPARATORS)],
    ["1.234", "1.23,", refused(REFUSED_DECIMAL_SEPARATORS)], // "4" selected and replaced by ","
    // no point in the field, or the point itself replaced: the text is read on its own
    ["0", "0,", accepted("0.")],
    ["", ",", accepted(".")],
    ["1234", "1,234", accepted("1.234")],
    ["1.5", "1,5", accepted("1.5")], // "." selected and replaced by ","
    ["1.5", ",", accepted(".")], // all selected and replaced
    ["1.5", "1.234,5", accepted("1234.5")], // a paste over the whole field
    ["1.5", "1.55", accepted("1.55")],
    ["1.5", "1.5e", refused(REFUSED_EXPONENT)]
  ])("after %j, reads %j as %j", (previous, raw, result) => {
    expect(readAmountInput(raw, previous)).toEqual(result)
  })

  it.each([
    ["0,5", "0.5", []],
    ["12,", "12.", []],
    ["1,2", "1.2", []],
    ["1,234", "1.234", []],
    ["1.234,5", "1.2345", [REFUSED_DECIMAL_SEPARATORS]],
    ["1,234,567", "1.234567", [REFUSED_DECIMAL_SEPARATORS]],
    ["0.5e", "0.5", [REFUSED_EXPONENT]],
    ["-3", "3", [REFUSED_SIGN]]
  ])("typed key by key, %j ends as %j, refusing %j on the way", (keys, value, reasons) => {
    expect(typeKeys(keys)).toEqual({ value, reasons })
  })

  it("an accepted value is plain text, reads back as itself, and keeps exactly the input's digits", () => {
    fc.assert(
      fc.property(arbRaw, (raw) => {
        const read = readAmountInput(raw)
        if (read._tag === "Refused") {
          expect(REASONS).toContain(read.reason)
          return
        }
        expect(read.value).toMatch(/^\d*\.?\d*$/)
        expect(readAmountInput(read.value)).toEqual(read)
        expect(readAmountInput(read.value, read.value)).toEqual(read)
        expect(asciiDigits(read.value)).toBe(asciiDigits(raw))
        expect(significantDigits(read.value)).toBeLessThanOrEqual(significantDigits(raw))
      }),
      { numRuns: 2000 }
    )
  })

  it(`accepts digits with at most one "." unchanged, up to ${MAX_AMOUNT_DECIMALS} decimals`, () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,21}\.?\d{0,18}$/), (plain) => {
        expect(readAmountInput(plain)).toEqual(accepted(plain))
        expect(readAmountInput(` ${plain}\u00A0`)).toEqual(accepted(plain))
      })
    )
  })

  it("reads a pasted formatted number with decimals as that number, in every style", () => {
    const styles = [
      { thousands: ",", decimal: "." }, // 1,234,567.89
      { thousands: ".", decimal: "," }, // 1.234.567,89
      { thousands: " ", decimal: "," },
      { thousands: "\u00A0", decimal: "," },
      { thousands: "\u202F", decimal: "," },
      { thousands: "'", decimal: "." },
      { thousands: "\u2019", decimal: "." },
      { thousands: " ", decimal: "." }
    ]
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{0,14}$/),
        fc.stringMatching(/^\d{1,18}$/),
        fc.constantFrom(...styles),
        (whole, decimals, { thousands, decimal }) => {
          const pasted = `${group(whole, thousands)}${decimal}${decimals}`
          expect(readAmountInput(pasted)).toEqual(accepted(`${whole}.${decimals}`))
        }
      )
    )
  })

  it("reads a pasted whole number with two or more thousands separators as that number", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{6,20}$/),
        fc.constantFrom(",", ".", " ", "\u00A0", "\u202F", "'", "\u2019"),
        (whole, thousands) => {
          expect(readAmountInput(group(whole, thousands))).toEqual(accepted(whole))
        }
      )
    )
  })

  it("refuses one more decimal mark typed anywhere into a value that has a point", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,10}\.\d{0,10}$/), fc.nat(), fc.constantFrom(".", ","), (value, at, mark) => {
        const i = at % (value.length + 1)
        expect(readAmountInput(value.slice(0, i) + mark + value.slice(i), value)).toEqual(
          refused(REFUSED_DECIMAL_SEPARATORS)
        )
      })
    )
  })

  it('typing a plain amount key by key, with "." or "," as the decimal mark, ends with that amount', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{0,15}$/),
        fc.option(fc.stringMatching(/^\d{0,18}$/), { nil: undefined }),
        fc.constantFrom(".", ","),
        (whole, decimals, mark) => {
          const keys = decimals === undefined ? whole : `${whole}${mark}${decimals}`
          const plain = decimals === undefined ? whole : `${whole}.${decimals}`
          expect(typeKeys(keys)).toEqual({ value: plain, reasons: [] })
        }
      )
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

  it("agrees with the exact value on every plain amount text", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,20}\.?\d{0,20}$/), (s) => {
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
        expect(exceedsBalance(formatPlain(a), formatPlain(b))).toBe(BigDecimal.Order(a, b) > 0)
        expect(exceedsBalance(formatPlain(a), formatPlain(a))).toBe(false)
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
        const out = minimumReceived(formatPlain(o), decimals)
        const exact = BigDecimal.multiply(o, dec("0.99"))
        const got = dec(out)
        expect(out.split(".")[1]?.length ?? 0).toBeLessThanOrEqual(decimals)
        expect(BigDecimal.Order(got, exact)).toBeLessThanOrEqual(0)
        expect(BigDecimal.Order(BigDecimal.subtract(exact, got), BigDecimal.make(1n, decimals))).toBe(-1)
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
        const needed = BigDecimal.multiply(output, dec("1.05"))
        expect(liquidityCovers(formatPlain(liquidity), formatPlain(output))).toBe(
          BigDecimal.Order(liquidity, needed) >= 0
        )
        expect(liquidityCovers(formatPlain(needed), formatPlain(output))).toBe(true)
        const justBelow = BigDecimal.subtract(needed, BigDecimal.make(1n, 40))
        expect(liquidityCovers(formatPlain(justBelow), formatPlain(output))).toBe(false)
      })
    )
  })

  it("more liquidity never stops covering", () => {
    fc.assert(
      fc.property(arbAmount, arbAmount, arbAmount, (liquidity, extra, output) => {
        const more = BigDecimal.sum(liquidity, extra)
        if (liquidityCovers(formatPlain(liquidity), formatPlain(output)))
          expect(liquidityCovers(formatPlain(more), formatPlain(output))).toBe(true)
      })
    )
  })
})
