import { BigDecimal, Option } from "effect"
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { formatPlain, parseUnsignedDecimal } from "../../src/lib/decimalText"
import {
  unpairedReason,
  ACCEPTED_ROUTES,
  type ActionInputs,
  actionLabel,
  actionState,
  balanceToast,
  buildSwapManifest,
  manifestAmount,
  displayableMessage,
  isAcceptedRoute,
  overLimit,
  PRICE_REQUEST_LIMIT,
  recordRequest,
  computeQuote,
  formatLimit,
  parseSwapMessage,
  quotedOutput,
  swapLimitReached,
  swapMessage
} from "../../src/exchange/swap"

const base: ActionInputs = {
  status: { _tag: "idle" },
  quotePrepared: false,
  account: "account_loc1xyz",
  from: "hETH",
  to: "hUSDC",
  amount: "0.05",
  expectedOutput: "150",
  toLiquidity: "100000",
  limits: { min: "0.0003", max: "0.06" }
}

describe("accepted routes", () => {
  it("are exactly the spec's four", () => {
    expect(ACCEPTED_ROUTES.map((r) => `${r.from}->${r.to}`)).toEqual([
      "hUSDC->hETH",
      "hUSDC->hBTC",
      "hBTC->hUSDC",
      "hETH->hUSDC"
    ])
    expect(isAcceptedRoute("hETH", "hUSDC")).toBe(true)
    expect(isAcceptedRoute("hUSDC", "hETH")).toBe(true)
    expect(isAcceptedRoute("hETH", "hBTC")).toBe(false)
    expect(isAcceptedRoute("XRD", "hUSDC")).toBe(false)
  })
})

describe("action state, in the spec's order", () => {
  it("1. swapping while pending, whatever else holds", () => {
    expect(actionState({ ...base, status: { _tag: "pending" }, account: undefined, amount: "" })).toBe("swapping")
  })
  it("2. success once a quote is prepared, unless liquidity is too low", () => {
    const s = { ...base, status: { _tag: "success", txHash: undefined } as const, quotePrepared: true }
    expect(actionState(s)).toBe("success")
    expect(actionState({ ...s, account: undefined })).toBe("success")
    expect(actionState({ ...s, toLiquidity: "157.4" })).toBe("err_insufficient_liquidity")
    expect(actionState({ ...s, toLiquidity: "157.5" })).toBe("success")
  })
  it("3. disconnected without an account", () => {
    expect(actionState({ ...base, account: undefined, from: "XRD", amount: "" })).toBe("disconnected")
  })
  it("4. err_routes for a pair outside the accepted list", () => {
    expect(actionState({ ...base, from: "hETH", to: "hBTC", amount: "" })).toBe("err_routes")
    expect(actionState({ ...base, from: "hUSDC", to: "hUSDC" })).toBe("err_routes")
  })
  it("5. err_min when the amount is empty or not above 0", () => {
    for (const amount of ["", ".", "0", "0.000"]) expect(actionState({ ...base, amount })).toBe("err_min")
  })
  it("6. err_insufficient_liquidity below output × 1.05; no liquidity data passes", () => {
    expect(actionState({ ...base, toLiquidity: "100" })).toBe("err_insufficient_liquidity")
    expect(actionState({ ...base, toLiquidity: undefined })).toBe("ready")
    expect(actionState({ ...base, toLiquidity: "100", amount: "0" })).toBe("err_min")
  })
  it("7. err_min_limit / err_max_limit outside the server's limits", () => {
    expect(actionState({ ...base, amount: "0.0002" })).toBe("err_min_limit")
    expect(actionState({ ...base, amount: "0.0003" })).toBe("ready")
    expect(actionState({ ...base, amount: "0.06" })).toBe("ready")
    expect(actionState({ ...base, amount: "0.0600001" })).toBe("err_max_limit")
  })
  it("8. ready otherwise", () => {
    expect(actionState(base)).toBe("ready")
    expect(actionState({ ...base, status: { _tag: "error", message: "x" } })).toBe("ready")
    // An idle status with a stale prepared flag is not success.
    expect(actionState({ ...base, quotePrepared: true })).toBe("ready")
  })
})

describe("action labels", () => {
  const c = { from: "hETH", amount: "0.05", balance: "1", limits: { min: "0.0003", max: "0.06" }, countdown: 0 }
  it("use the spec's texts", () => {
    expect(actionLabel("disconnected", c)).toBe("Connect Wallet")
    expect(actionLabel("err_routes", c)).toBe("Invalid route")
    expect(actionLabel("err_min", c)).toBe("Enter Amount to Swap")
    expect(actionLabel("swapping", c)).toBe("Swapping...")
    expect(actionLabel("ready", c)).toBe("Prepare the exchange")
    expect(actionLabel("ready", { ...c, balance: "0.01" })).toBe("Estimate the exchange")
    expect(actionLabel("ready", { ...c, balance: undefined })).toBe("Estimate the exchange")
    expect(actionLabel("success", { ...c, countdown: 12 })).toBe("Execute Swap (Reload in 12s)")
    expect(actionLabel("success", c)).toBe("Execute Swap")
    expect(actionLabel("err_insufficient_liquidity", c)).toBe(
      "Swap unavailable due to low liquidity. Please wait for rebalancing."
    )
    // N follows the spec's token rules (§9: under 1, 8 decimals), never the server's 18.
    expect(actionLabel("err_min_limit", c)).toBe("Minimum amount required 1 USD$ (0.00030000 hETH)")
    expect(actionLabel("err_max_limit", c)).toBe("Maximum amount allowed 200 USD$ (0.06000000 hETH)")
    expect(actionLabel("err_balance", { ...c, balance: "0.01" })).toBe(
      "Amount exceeds balance (0.01000000 hETH): lower it or press MAX"
    )
    // A balance reads as the Balance line does (spec §9: 8 decimals, hUSDC's 6), never in the K band.
    expect(actionLabel("err_balance", { ...c, from: "hUSDC", fromDivisibility: 6, balance: "5000" })).toBe(
      "Amount exceeds balance (5000.000000 hUSDC): lower it or press MAX"
    )
    expect(balanceToast("1.5", "hETH").description).toBe("You have only 1.50000000 hETH in your wallet.")
    expect(balanceToast("4800", "hUSDC").description).toBe("You have only 4800.000000 hUSDC in your wallet.")
  })
  it("round the minimum up and the maximum down at the printed precision, so the shown amount is always allowed", () => {
    expect(formatLimit("0.000333333333333334", "min")).toBe("0.00033334")
    expect(formatLimit("0.066666666666666666", "max")).toBe("0.06666666")
    expect(formatLimit("33.3333334", "min")).toBe("33.333334")
    expect(formatLimit("1", "min")).toBe("1.000000")
    expect(formatLimit("garbage", "min")).toBe("0")
  })
})

describe("the action state never shows a green Execute that can only fail", () => {
  const base = {
    status: { _tag: "success", txHash: undefined } as const,
    quotePrepared: true,
    account: "account_loc1x",
    from: "hETH",
    to: "hUSDC",
    amount: "0.05",
    expectedOutput: "149.75",
    toLiquidity: undefined,
    limits: undefined
  }
  it("a prepared quote above the balance is err_balance, within it success", () => {
    expect(actionState({ ...base, balance: "0.01" })).toBe("err_balance")
    expect(actionState({ ...base, balance: "0.05" })).toBe("success")
    expect(actionState({ ...base, balance: undefined })).toBe("success")
    expect(actionState({ ...base, status: { _tag: "pending" }, balance: "0.01" })).toBe("swapping")
  })
})

describe("binding quotes in the message and the payout formula", () => {
  it("swapMessage appends the quote after the spec's readable part; parseSwapMessage reads both back", () => {
    const m = swapMessage("hswap.app", "hUSDC", "hETH", "qAbCdEf123.XyZ987654")
    expect(m).toBe("hswap.app | Radix | hUSDC -> hETH | quote qAbCdEf123.XyZ987654")
    expect(parseSwapMessage(m)).toEqual({ from: "hUSDC", to: "hETH", quoteId: "qAbCdEf123.XyZ987654" })
    expect(parseSwapMessage("hswap.app | Radix | hBTC -> hUSDC")).toEqual({
      from: "hBTC",
      to: "hUSDC",
      quoteId: undefined
    })
    expect(parseSwapMessage("hETH -> hUSDC, thanks")).toBeUndefined()
    expect(parseSwapMessage(undefined)).toBeUndefined()
  })
  it("quotedOutput is amount × rate − fee, truncated, never negative", () => {
    expect(quotedOutput("100", "0.000333", "0.000033334", 18)).toBe("0.033266666")
    expect(quotedOutput("0.05", "2997", "0.1", 6)).toBe("149.75")
    expect(quotedOutput("0.123456789", "1.000000000000000001", "0", 6)).toBe("0.123456")
    expect(quotedOutput("0.0001", "1", "1", 6)).toBe("0")
    expect(quotedOutput("x", "1", "1", 6)).toBeUndefined()
  })
  it("computeQuote with a binding quote gives exactly quotedOutput, whatever the health price says", () => {
    const binding = { quoteId: "qAbCdEf123.XyZ987654", feeOut: "0.1", expiresAt: 120_000 }
    const q = computeQuote({
      amount: "0.05",
      effectiveRate: "2997",
      toDecimals: 6,
      toPriceUsd: 0.5,
      limits: undefined,
      binding
    })
    expect(q?.toAmount).toBe("149.75")
    expect(q?.binding).toBe(binding)
  })
})

describe("transaction message", () => {
  it("names the site, the network and the route", () => {
    expect(swapMessage("hswap.app", "hETH", "hUSDC")).toBe("hswap.app | Radix | hETH -> hUSDC")
  })
  it("is displayed only when it starts with the prefix after stripping", () => {
    expect(displayableMessage("hswap.app | Radix | hETH -> hUSDC", "hswap.app")).toBe(
      "hswap.app | Radix | hETH -> hUSDC"
    )
    expect(displayableMessage("<hswap.app> | Radix", "hswap.app")).toBe("<hswap.app> | Radix")
    expect(displayableMessage("javascript:hswap.app", "hswap.app")).toBe("javascript:hswap.app")
    expect(displayableMessage(" onclick=hswap.app x", "hswap.app")).toBe("onclick=hswap.app x")
    expect(displayableMessage("xhswap.app", "hswap.app")).toBeUndefined()
    expect(displayableMessage("evil.app | Radix", "hswap.app")).toBeUndefined()
    expect(displayableMessage(null, "hswap.app")).toBeUndefined()
  })
  it("accepts any suffix after the prefix, and refuses anything whose stripped form does not start with it (property)", () => {
    fc.assert(fc.property(fc.string(), (s) => displayableMessage(`hswap.app${s}`, "hswap.app") !== undefined))
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = displayableMessage(s, "hswap.app")
        const stripped = s
          .replace(/[<>]/g, "")
          .replace(/javascript:/gi, "")
          .replace(/\bon\w+\s*=/gi, "")
          .trim()
        return (out !== undefined) === stripped.startsWith("hswap.app")
      })
    )
  })
})

describe("deposit manifest", () => {
  const input = {
    account: "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp",
    fromResource: "resource_loc1t4eq9eaz7n8qp96cteuvwndth5hf5tysmjjahruz3kfn6yec6eg936",
    amount: "0.123456789",
    divisibility: 6,
    exchangeAccount: "account_loc1298a6crhd9ulfl2tm0r5akxfazrys57d056ps0apv20588zv845uye"
  }
  it("withdraws, takes all from the worktop and try-deposits to the exchange, cut to the divisibility", () => {
    expect(buildSwapManifest(input)).toBe(
      [
        `CALL_METHOD Address("${input.account}") "withdraw" Address("${input.fromResource}") Decimal("0.123456");`,
        `TAKE_ALL_FROM_WORKTOP Address("${input.fromResource}") Bucket("swap_input");`,
        `CALL_METHOD Address("${input.exchangeAccount}") "try_deposit_or_abort" Bucket("swap_input") Enum<0u8>();`
      ].join("\n")
    )
  })
  it("refuses anything that is not an address", () => {
    expect(() => buildSwapManifest({ ...input, account: 'x") ; CALL_METHOD Address("evil' })).toThrow(
      /not a Radix address/
    )
  })
  it("refuses an amount that is not a number rather than withdraw another one", () => {
    expect(() => buildSwapManifest({ ...input, amount: "" })).toThrow(/not an amount/)
    expect(() => buildSwapManifest({ ...input, amount: '1") ; CALL_METHOD' })).toThrow(/not an amount/)
  })
})

describe("manifestAmount", () => {
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
    ["-1.23456", 2, "-1.23"]
  ])("(%j, %d) -> %s", (amount, divisibility, out) => {
    expect(manifestAmount(amount, divisibility)).toBe(out)
  })

  it.each(["abc", "", "."])("throws on %j", (amount) => {
    expect(() => manifestAmount(amount, 6)).toThrow(/not an amount/)
  })

  it("prints plain notation with at most `divisibility` decimals, never above the amount", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.nat({ max: 30 })),
        fc.nat({ max: 18 }),
        ([c, s], p) => {
          const amount = BigDecimal.make(c, s)
          const out = manifestAmount(formatPlain(amount), p)
          expect(out).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/)
          expect(out.split(".")[1]?.length ?? 0).toBeLessThanOrEqual(p)
          expect(BigDecimal.lessThanOrEqualTo(Option.getOrThrow(parseUnsignedDecimal(out)), amount)).toBe(true)
        }
      )
    )
  })
})

describe("client rate limits", () => {
  it("more than 10 price requests in 30 s is rate limited", () => {
    let w: ReadonlyArray<number> = []
    for (let i = 0; i < 10; i++) w = recordRequest(w, i * 1000, PRICE_REQUEST_LIMIT.windowMillis)
    expect(overLimit(w, 9000, PRICE_REQUEST_LIMIT)).toBe(false)
    w = recordRequest(w, 10_000, PRICE_REQUEST_LIMIT.windowMillis)
    expect(overLimit(w, 10_000, PRICE_REQUEST_LIMIT)).toBe(true)
    // The first request leaves the window 30 s after it was made.
    expect(overLimit(w, 30_000, PRICE_REQUEST_LIMIT)).toBe(false)
  })
  it("2 swaps per minute", () => {
    expect(swapLimitReached([0], 1000)).toBe(false)
    expect(swapLimitReached([0, 1000], 2000)).toBe(true)
    expect(swapLimitReached([0, 1000], 60_000)).toBe(false)
  })
})

describe("quote", () => {
  it("multiplies exactly, deducts 0.10 USD of the to-token, and cuts to its divisibility", async () => {
    const { computeQuote } = await import("../../src/exchange/swap")
    const q = computeQuote({ amount: "0.05", effectiveRate: "2997", toDecimals: 6, toPriceUsd: 1, limits: undefined })
    expect(q?.toAmount).toBe("149.75")
    expect(q?.minimumReceived).toBe("148.2525")
    expect(q?.rate).toBe("2997")
    expect(q?.inverseRate).toBe("0.000333667000333667")
    const noPrice = computeQuote({
      amount: "1",
      effectiveRate: "0.333333333333333333333",
      toDecimals: 8,
      toPriceUsd: undefined,
      limits: undefined
    })
    expect(noPrice?.toAmount).toBe("0.33333333")
    expect(
      computeQuote({ amount: "0.00001", effectiveRate: "1", toDecimals: 6, toPriceUsd: 1, limits: undefined })?.toAmount
    ).toBe("0")
    expect(
      computeQuote({ amount: "", effectiveRate: "1", toDecimals: 6, toPriceUsd: 1, limits: undefined })
    ).toBeUndefined()
    expect(
      computeQuote({ amount: "1", effectiveRate: "0", toDecimals: 6, toPriceUsd: 1, limits: undefined })
    ).toBeUndefined()
  })
})

describe("which tokens pair with the other side", () => {
  const pair = { from: "hETH", to: "hUSDC" }
  it("accepts a token that makes an accepted route, and the other side's token (the pair swaps)", () => {
    expect(unpairedReason("from", "hBTC", pair)).toBeUndefined()
    expect(unpairedReason("from", "hUSDC", pair)).toBeUndefined()
    expect(unpairedReason("to", "hETH", pair)).toBeUndefined()
  })
  it("says why a token does not pair: no route to the other side, or none at all on this exchange", () => {
    expect(unpairedReason("to", "hBTC", pair)).toBe("No route from hETH")
    expect(unpairedReason("from", "XRD", pair)).toBe("No route from XRD on this exchange")
    expect(unpairedReason("to", "XRD", pair)).toBe("No route to XRD on this exchange")
    expect(unpairedReason("from", "hBTC", { from: "hUSDC", to: "hETH" })).toBe("No route to hETH")
  })
})
