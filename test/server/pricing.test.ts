import fc from "fast-check"
import { BigDecimal, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { DecimalString, LivePriceResponse } from "../../src/exchange/api"
import { formatPlain } from "../../src/lib/decimalText"
import { devnetTokens, seededRandom, walkStep } from "../../src/server/index"
import { amountLimits, dec, divCeil, effectiveRate, payoutAmount } from "../../src/server/pricing"

const spread = dec("0.001")
const fee = dec("0.10")

describe("quote and payout arithmetic", () => {
  it("takes the 0.1% spread in the rate and 0.10 USD on payout, truncated to the to-token", () => {
    expect(formatPlain(effectiveRate(dec("1"), dec("3000"), spread))).toBe("0.000333")
    expect(formatPlain(effectiveRate(dec("3000"), dec("1"), spread))).toBe("2997")
    expect(formatPlain(payoutAmount(dec("100"), dec("1"), dec("3000"), spread, fee, 18))).toBe("0.033266666666666666")
    expect(formatPlain(payoutAmount(dec("0.5"), dec("3000"), dec("1"), spread, fee, 6))).toBe("1498.4")
    expect(formatPlain(payoutAmount(dec("0.1"), dec("1"), dec("1"), spread, fee, 6))).toBe("-0.0001")
  })

  it("rounds the minimum up and the maximum down, in input units", () => {
    const limits = amountLimits(dec("60000"), 8, dec("1"), dec("200"))
    expect([formatPlain(limits.min), formatPlain(limits.max)]).toEqual(["0.00001667", "0.00333333"])
    expect(formatPlain(divCeil(dec("1"), dec("4"), 2))).toBe("0.25")
    expect(formatPlain(divCeil(dec("1"), dec("3"), 0))).toBe("1")
  })

  it("a price of 0 is a defect, never a rate or a payout of 0", () => {
    expect(() => effectiveRate(dec("1"), dec("0"), spread)).toThrow(/by zero/)
    expect(() => payoutAmount(dec("1"), dec("1"), dec("0"), spread, fee, 6)).toThrow(/by zero/)
    expect(() => amountLimits(dec("0"), 8, dec("1"), dec("200"))).toThrow(/by zero/)
  })

  it("never pays more than the formula, and less by under one unit of the to-token", () => {
    const amount = fc.bigInt({ min: 1n, max: 10n ** 12n }).map((n) => BigDecimal.make(n, 6))
    const price = fc.bigInt({ min: 1n, max: 10n ** 15n }).map((n) => BigDecimal.make(n, 8))
    fc.assert(
      fc.property(amount, price, price, fc.integer({ min: 0, max: 18 }), (a, pIn, pOut, places) => {
        const out = payoutAmount(a, pIn, pOut, spread, fee, places)
        const owed = BigDecimal.subtract(
          BigDecimal.multiply(BigDecimal.multiply(a, pIn), BigDecimal.subtract(dec("1"), spread)),
          fee
        )
        const paid = BigDecimal.multiply(out, pOut)
        const oneUnit = BigDecimal.multiply(BigDecimal.make(1n, places), pOut)
        if (BigDecimal.Order(owed, dec("0")) <= 0) return BigDecimal.Order(out, dec("0")) <= 0
        return BigDecimal.Order(paid, owed) <= 0 && BigDecimal.Order(BigDecimal.sum(paid, oneUnit), owed) > 0
      })
    )
  })
})

describe("the simulated walk", () => {
  const eth = devnetTokens.find((t) => t.symbol === "hETH") ?? devnetTokens[0]
  it("is reproducible from its seed and stays near the reference", () => {
    if (eth === undefined) throw new Error("no hETH")
    const run = (seed: string) => {
      const random = seededRandom(seed)
      let p = dec(eth.referenceUsd)
      const seen: Array<string> = []
      for (let i = 0; i < 2000; i++) {
        p = walkStep(p, eth, random)
        seen.push(formatPlain(p))
      }
      return seen
    }
    expect(run("a")).toEqual(run("a"))
    expect(run("a")).not.toEqual(run("b"))
    const prices = run("a").map(Number)
    expect(Math.min(...prices)).toBeGreaterThan(3000 * 0.8)
    expect(Math.max(...prices)).toBeLessThan(3000 * 1.2)
    expect(new Set(prices).size).toBeGreaterThan(100)
  })
})

describe("shared schemas", () => {
  it("decode decimal amounts from strings or numbers, exactly", () => {
    const decode = Schema.decodeUnknownSync(DecimalString)
    expect(decode("0.033266666666666666")).toBe("0.033266666666666666")
    expect(decode(1e-7)).toBe("0.0000001")
    expect(decode(2997)).toBe("2997")
    expect(() => decode("1e5")).toThrow()
    expect(() => decode("abc")).toThrow()
    expect(
      Schema.decodeUnknownSync(LivePriceResponse)({ in_symbol: "hETH", error: "Route not available", out_symbol: null })
    ).toEqual({
      in_symbol: "hETH",
      error: "Route not available"
    })
  })
})
