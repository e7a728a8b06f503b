import { BigDecimal, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  divisibilityOf,
  formatTokenAmountFull,
  formatBadgeBalance,
  formatBalance,
  formatCurrency,
  formatPercent,
  formatRelativeTime,
  formatTokenAmount,
  formatTokenAmountList,
  formatUsd,
  formatUsdValue,
  shortenAddress,
  shortenAddressAirdrop,
  shortenAddressList,
  shortenAddressToast
} from "../../src/exchange/format"
import { formatPlain, parseUnsignedDecimal } from "../../src/lib/decimalText"

const dec = (s: string): BigDecimal.BigDecimal => Option.getOrThrow(parseUnsignedDecimal(s))

const HOSTILE = [
  "",
  " ",
  "abc",
  "NaN",
  "Infinity",
  "-Infinity",
  "1,000",
  "$5",
  "1.2.3",
  "0x1F",
  "<script>alert(1)</script>",
  "1e999999999",
  "9".repeat(5000)
]

describe("formatTokenAmount (spec §9 bands)", () => {
  it.each<[number | string, string]>([
    [0, "0"],
    ["0", "0"],
    ["0.000", "0"],
    [-0, "0"],
    [1e-7, "< 0.000001"],
    ["0.000000999999999999", "< 0.000001"],
    ["0.000000000000000001", "< 0.000001"],
    [0.000001, "0.00000100"],
    [0.5, "0.50000000"],
    ["0.123456789", "0.12345678"],
    ["0.999999999", "0.99999999"],
    [1, "1.000000"],
    [12.5, "12.500000"],
    [999.9999999, "999.999999"],
    ["999.999999999999999999", "999.999999"],
    [1000, "1.0000K"],
    [1234.5678, "1.2345K"],
    [999999, "999.9990K"],
    ["999999.999999999999999999", "999.9999K"],
    [1e6, "1.0000M"],
    [1234567.89, "1.2345M"],
    [1e21, "1000000000000000.0000M"],
    ["123456789012345678901234567890.123456789012345678", "123456789012345678901234.5678M"],
    ["  42  ", "42.000000"],
    ["1e-7", "< 0.000001"],
    ["1.5e3", "1.5000K"]
  ])("%j -> %s", (value, out) => {
    expect(formatTokenAmount(value)).toBe(out)
  })

  it.each<[number | string, string]>([
    [-0.5, "-0.50000000"],
    [-1500, "-1.5000K"],
    [-1e-7, "> -0.000001"],
    ["-2000000", "-2.0000M"]
  ])("negative %j -> %s", (value, out) => {
    expect(formatTokenAmount(value)).toBe(out)
  })

  it.each<[number | string]>([[NaN], [Infinity], [-Infinity], ...HOSTILE.map((h): [string] => [h])])(
    "unreadable %j -> '0'",
    (value) => {
      expect(formatTokenAmount(value)).toBe("0")
    }
  )

  it("keeps every digit of an 18-decimal string in the printed part (no float rounding)", () => {
    // As a double this is 123.45678901234568; the exact path keeps ...789 and truncates after 6 decimals.
    expect(formatTokenAmount("123.456789999999999999")).toBe("123.456789")
    expect(formatTokenAmount("987654.321099999999999999")).toBe("987.6543K")
    expect(formatTokenAmount("9007199254740993")).toBe("9007199254.7409M") // 2^53 + 1, not representable
  })

  it("every non-negative value lands in exactly one well-formed band, never printing more than the value", () => {
    const below = (d: BigDecimal.BigDecimal, bound: string): boolean => BigDecimal.Order(d, dec(bound)) < 0
    fc.assert(
      fc.property(fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.nat({ max: 24 })), ([coefficient, scale]) => {
        const d = BigDecimal.make(coefficient, scale)
        const out = formatTokenAmount(formatPlain(d))
        if (coefficient === 0n) expect(out).toBe("0")
        else if (below(d, "0.000001")) expect(out).toBe("< 0.000001")
        else if (below(d, "1")) expect(out).toMatch(/^0\.\d{8}$/)
        else if (below(d, "1000")) expect(out).toMatch(/^[1-9]\d{0,2}\.\d{6}$/)
        else if (below(d, "1000000")) expect(out).toMatch(/^[1-9]\d{0,2}\.\d{4}K$/)
        else expect(out).toMatch(/^[1-9]\d*\.\d{4}M$/)
        if (coefficient !== 0n && !out.startsWith("<")) {
          const multiplier = out.endsWith("K") ? "1000" : out.endsWith("M") ? "1000000" : "1"
          const printed = BigDecimal.multiply(dec(out.replace(/[KM]$/, "")), dec(multiplier))
          expect(BigDecimal.Order(printed, d)).toBeLessThanOrEqual(0)
        }
      })
    )
  })
})

describe("formatTokenAmountList", () => {
  it.each<[number | string, string]>([
    [0, "0"],
    [0.00001, "< 0.0001"],
    [0.5, "0.5000"],
    [999.99999, "999.9999"],
    [1000, "1.0000K"],
    [999999, "999.9990K"],
    [1e6, "1.0000M"],
    ["2500000000", "2500.0000M"],
    [-1500, "-1.5000K"],
    [NaN, "0"],
    ["garbage", "0"]
  ])("%j -> %s", (value, out) => {
    expect(formatTokenAmountList(value)).toBe(out)
  })

  it("uses the per-asset digits of the liquidity dialog (2 USD, 4 ETH, 6 BTC)", () => {
    expect(formatTokenAmountList("1234.5678", 2)).toBe("1.23K")
    expect(formatTokenAmountList("12.3456789", 4)).toBe("12.3456")
    expect(formatTokenAmountList("0.12345678", 6)).toBe("0.123456")
    expect(formatTokenAmountList("0.001", 2)).toBe("< 0.01")
    expect(formatTokenAmountList("0.0000001", 6)).toBe("< 0.000001")
    expect(formatTokenAmountList("5", 0)).toBe("5")
  })

  it("switches to K at exactly 1,000 and to M at exactly 1,000,000", () => {
    expect(formatTokenAmountList("999.99999999")).not.toMatch(/K$/)
    expect(formatTokenAmountList("1000")).toMatch(/K$/)
    expect(formatTokenAmountList("999999.99999999")).toMatch(/K$/)
    expect(formatTokenAmountList("1000000")).toMatch(/M$/)
  })
})

describe("formatUsd", () => {
  it.each<[number | string, string]>([
    [0, "$0.00"],
    [1234.5, "$1,234.50"],
    [1234567.891, "$1,234,567.89"],
    [0.005, "$0.01"],
    [0.004, "$0.00"],
    [999.995, "$1,000.00"],
    [-1234.5, "-$1,234.50"],
    [-0.001, "$0.00"],
    ["1000000", "$1,000,000.00"],
    ["12345678901234567890.125", "$12,345,678,901,234,567,890.13"],
    [100, "$100.00"],
    [NaN, "$0.00"],
    [Infinity, "$0.00"],
    ["", "$0.00"],
    ["abc", "$0.00"]
  ])("%j -> %s", (value, out) => {
    expect(formatUsd(value)).toBe(out)
  })

  it("always has a '$', grouped integer digits and exactly 2 decimals", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (n) => {
        expect(formatUsd(n)).toMatch(/^-?\$(0|[1-9]\d{0,2}(,\d{3})*)\.\d{2}$/)
      })
    )
  })
})

describe("formatUsdValue", () => {
  it.each<[string, number, string]>([
    ["2", 3020.9492, "$6,041.90"],
    ["0.01", 3020.9492, "$30.21"],
    [".5", 2, "$1.00"],
    ["12.", 1.5, "$18.00"],
    // 40 digits at a price with 6 significant digits: every digit of the product, where a float product ends in zeros.
    [
      "1234567890123456789012345678901234567890",
      60113.85,
      "$74,214,628,961,697,962,896,169,796,289,616,979,628,954,276.50"
    ],
    ["0.000000000000000001", 3020.9492, "$0.00"],
    ["", 3020.9492, "$0.00"],
    ["1..2", 3020.9492, "$0.00"],
    ["abc", 3020.9492, "$0.00"],
    ["5", NaN, "$0.00"],
    ["5", Infinity, "$0.00"]
  ])("%j at %s -> %s", (amount, price, out) => {
    expect(formatUsdValue(amount, price)).toBe(out)
  })
})

describe("formatCurrency", () => {
  it.each<[number | string, string]>([
    [0, "$0"],
    [1234, "$1,234"],
    [1234.5, "$1,234.5"],
    [1234.567, "$1,234.57"],
    [1234.004, "$1,234"],
    [0.1, "$0.1"],
    [1234567.1, "$1,234,567.1"],
    [-50.25, "-$50.25"],
    ["98765432.10", "$98,765,432.1"],
    [NaN, "$0"],
    ["nope", "$0"]
  ])("%j -> %s", (value, out) => {
    expect(formatCurrency(value)).toBe(out)
  })
})

describe("formatBalance and formatBadgeBalance", () => {
  it.each<[number | string, string]>([
    [0, "0.00000000"],
    ["1.123456789", "1.12345678"],
    ["123456789.000000001", "123456789.00000000"],
    [0.1, "0.10000000"],
    ["-3", "-3.00000000"],
    [NaN, "0.00000000"],
    ["", "0.00000000"]
  ])("formatBalance(%j) = %s", (value, out) => {
    expect(formatBalance(value)).toBe(out)
  })

  it.each<[number | string, string]>([
    [0, "0.00"],
    ["12.349", "12.34"],
    ["1000", "1000.00"],
    ["0.009", "0.00"],
    [NaN, "0.00"],
    ["x", "0.00"]
  ])("formatBadgeBalance(%j) = %s", (value, out) => {
    expect(formatBadgeBalance(value)).toBe(out)
  })
})

describe("formatPercent", () => {
  it.each<[number | string, number | undefined, string]>([
    [45.678, 2, "45.68%"],
    [45, 2, "45.00%"],
    [33.3333, 1, "33.3%"],
    [0, 0, "0%"],
    ["12.345", 2, "12.35%"],
    [100, undefined, "100.00%"],
    [NaN, 2, "0.00%"]
  ])("(%j, %j) -> %s", (value, digits, out) => {
    expect(digits === undefined ? formatPercent(value) : formatPercent(value, digits)).toBe(out)
  })
})

describe("shortenAddress", () => {
  const address = "account_rdx12yxsmnpq7p4zmmy3ypm5ldvtgkffm0mujax9skk0kzr6lx9sfwqc9h"

  it("keeps head and tail around '...'", () => {
    expect(shortenAddress("abcdefghijklmnop", 3, 2)).toBe("abc...op")
    expect(shortenAddressList(address)).toBe("account_...9sfwqc9h") // 8 + 8
    expect(shortenAddressAirdrop(address)).toBe("account_...fwqc9h") // 8 + 6
    expect(shortenAddressToast(address)).toBe("account_rdx12yx...wqc9h") // 15 + 5
  })

  it("returns an address shorter than head + tail + 3 unchanged", () => {
    expect(shortenAddress("abcdefgh", 3, 3)).toBe("abcdefgh") // 8 < 9
    expect(shortenAddress("abcdefghi", 3, 3)).toBe("abc...ghi") // 9, shortened to 9
    expect(shortenAddressList("")).toBe("")
    expect(shortenAddressList("x".repeat(18))).toBe("x".repeat(18))
  })

  it("handles a zero tail and nonsense counts", () => {
    expect(shortenAddress("abcdefgh", 2, 0)).toBe("ab...")
    expect(shortenAddress("abcdefgh", -1, 0)).toBe("...")
    expect(shortenAddress("abcdefgh", NaN, 1)).toBe("...h")
  })

  it("length bounds: never longer than the input; exactly head + tail + 3 when shortened", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), fc.nat({ max: 40 }), fc.nat({ max: 40 }), (s, h, t) => {
        const out = shortenAddress(s, h, t)
        expect(out.length).toBeLessThanOrEqual(s.length)
        if (s.length < h + t + 3) expect(out).toBe(s)
        else {
          expect(out.length).toBe(h + t + 3)
          expect(out.startsWith(s.slice(0, h))).toBe(true)
          expect(out.endsWith(s.slice(s.length - t))).toBe(true)
          expect(out.slice(h, h + 3)).toBe("...")
        }
      })
    )
  })
})

describe("formatRelativeTime", () => {
  const now = 1_700_000_000_000 // ms
  const nowS = now / 1000

  it.each<[number, string]>([
    [nowS, "0s ago"],
    [nowS + 100, "0s ago"],
    [nowS - 5, "5s ago"],
    [nowS - 59, "59s ago"],
    [nowS - 60, "1m ago"],
    [nowS - 180, "3m ago"],
    [nowS - 3599, "59m ago"],
    [nowS - 3600, "1h ago"],
    [nowS - 2 * 3600, "2h ago"],
    [nowS - 86_399, "23h ago"],
    [nowS - 86_400, "1d ago"],
    [nowS - 4 * 86_400 - 5, "4d ago"],
    [nowS - 400 * 86_400, "400d ago"],
    [NaN, "0s ago"]
  ])("then=%d -> %s", (then, out) => {
    expect(formatRelativeTime(then, now)).toBe(out)
  })

  it("rounds sub-second 'now' down", () => {
    expect(formatRelativeTime(nowS - 5, now + 999)).toBe("5s ago")
    expect(formatRelativeTime(nowS - 5, now - 1)).toBe("4s ago")
    expect(formatRelativeTime(nowS, NaN)).toBe("0s ago")
  })

  it("always matches N[smhd] ago, and is monotone in elapsed time", () => {
    const unitSeconds: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }
    const lowerBound = (out: string): number => {
      const m = /^(\d+)([smhd]) ago$/.exec(out)
      expect(m).not.toBeNull()
      return Number(m?.[1]) * (unitSeconds[m?.[2] ?? "s"] ?? 1)
    }
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), fc.nat({ max: 10_000_000 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(lowerBound(formatRelativeTime(nowS - lo, now))).toBeLessThanOrEqual(lo)
        expect(lowerBound(formatRelativeTime(nowS - lo, now))).toBeLessThanOrEqual(
          lowerBound(formatRelativeTime(nowS - hi, now))
        )
      })
    )
  })
})

describe("formatRate", () => {
  it("shows rates with separators and up to 8 significant digits", async () => {
    const { formatRate } = await import("../../src/exchange/format")
    expect(formatRate("2997")).toBe("2,997")
    expect(formatRate("0.000333667000333667")).toBe("0.000333667")
    expect(formatRate("1")).toBe("1")
    expect(formatRate("abc")).toBe("0")
  })
})

describe("one display rule per token: its divisibility caps the spec's precision", () => {
  it("a 6-decimal token never shows more than 6 decimals, in balances or amounts", () => {
    expect(formatBalance("4800", divisibilityOf("hUSDC"))).toBe("4800.000000")
    expect(formatBalance("0.5", divisibilityOf("hETH"))).toBe("0.50000000")
    expect(formatTokenAmount("0.999101", divisibilityOf("hUSDC"))).toBe("0.999101")
    expect(formatTokenAmount("1.000301", divisibilityOf("hUSDC"))).toBe("1.000301")
    // Same token, either side of 1: the same number of decimals.
    expect(formatTokenAmount("0.99910100", 6).split(".")[1]).toHaveLength(6)
    expect(formatTokenAmount("0.5", 8)).toBe("0.50000000")
    expect(formatTokenAmount("1500", 6)).toBe("1.5000K")
    expect(formatTokenAmount("7", 0)).toBe("7")
  })
  it("an unknown symbol reads at 18; the spec's band rule is unchanged without a divisibility", () => {
    expect(divisibilityOf("NOPE")).toBe(18)
    expect(divisibilityOf(undefined)).toBe(18)
    expect(formatTokenAmount("0.5")).toBe("0.50000000")
    expect(formatBalance("1")).toBe("1.00000000")
  })
  it("in full, for whoever asks: every decimal the token has, trailing zeros dropped", () => {
    expect(formatTokenAmountFull("149.750000000000000000", 6)).toBe("149.75")
    expect(formatTokenAmountFull("0.123456789123456789", 18)).toBe("0.123456789123456789")
    expect(formatTokenAmountFull("0.123456789", 6)).toBe("0.123456")
    expect(formatTokenAmountFull("garbage", 6)).toBe("0")
  })
})
