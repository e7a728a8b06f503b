/**
 * The settlement's decision rules, pure: what a deposit is paid or why it is refunded, stage by stage, from facts
 * given directly (no ledger, no database, no clock).
 */
import { describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import {
  IN_MAINTENANCE,
  QUOTE_REUSED,
  QUOTE_TAMPERED,
  QUOTE_UNKNOWN,
  type QuoteRow,
  type SwapRow,
  makeServerConfig,
  quoteExpiredBelowMinimum,
  quoteOtherPair,
  unsupportedToken
} from "../../src/server/index"
import { dec } from "../../src/server/pricing"
import { QUOTE_UNREADABLE } from "../../src/server/Quotes"
import {
  type Route,
  decideAtQuote,
  decideExpiredQuote,
  decideUnquoted,
  quoteReused,
  routeOf,
  screenDeposit,
  settlementRules
} from "../../src/server/settlement/rules"

const { hUSDC, hETH, GKS } = DevnetAddresses.resources
const config = makeServerConfig({ networkId: 240, exchangeAccount: DevnetAddresses.exchangeAccount })
const rules = settlementRules(config)

const deposit = (overrides: Partial<SwapRow> = {}): SwapRow => ({
  tx_in: "txid_loc1deposit",
  sender: DevnetAddresses.users[0],
  resource_in: hUSDC,
  symbol_in: "hUSDC",
  amount_in: "10",
  resource_out: null,
  symbol_out: null,
  amount_out: null,
  rate: null,
  usd_in: null,
  state: "received",
  payout_intent: null,
  payout_hex: null,
  refund_intent: null,
  refund_hex: null,
  refund_attempts: 0,
  message: null,
  route_text: "hUSDC -> hETH",
  state_version_in: 7,
  created_ms: 1_000,
  updated_ms: 1_000,
  finalized_ms: null,
  quote_id: null,
  quoted_out: null,
  min_received: null,
  committed_ms: 5_000,
  ...overrides
})

/** hUSDC -> hETH at 1 and 3000 USD: rate 0.000333, the 0.10 USD fee is 0.0000333… hETH (rounded up). */
const quote: QuoteRow = {
  id: "qquote.mac",
  symbol_in: "hUSDC",
  symbol_out: "hETH",
  rate: "0.000333",
  fee_out: "0.000033333333333334",
  min_in: "1",
  max_in: "200",
  price_in: "1",
  price_out: "3000",
  issued_ms: 1_000,
  expires_ms: 121_000,
  used_by: null
}

const routeFor = (row: SwapRow, q?: QuoteRow): Route => {
  const r = routeOf(rules, row, q === undefined ? undefined : { _tag: "Found", quote: q })
  if (r._tag !== "Route") throw new Error(`expected a route, got ${r.message}`)
  return r
}
const heth = routeFor(deposit()).tokenOut

describe("settlement rules: screening a deposit", () => {
  it("refunds everything in maintenance, and a token the exchange does not list", () => {
    expect(screenDeposit(rules, deposit(), true)).toEqual({ _tag: "Refund", message: IN_MAINTENANCE, changes: {} })
    expect(screenDeposit(rules, deposit({ resource_in: GKS, symbol_in: "GKS" }), false)).toEqual({
      _tag: "Refund",
      message: unsupportedToken(GKS),
      changes: {}
    })
    // A listed resource under another token's symbol is not what the exchange lists either.
    expect(screenDeposit(rules, deposit({ symbol_in: "hETH" }), false)?.message).toBe(unsupportedToken(hUSDC))
    expect(screenDeposit(rules, deposit(), false)).toBeUndefined()
  })
})

describe("settlement rules: the route", () => {
  it("takes the route of the message, with both tokens", () => {
    const r = routeFor(deposit())
    expect(r).toMatchObject({ from: "hUSDC", to: "hETH", quote: undefined })
    expect(r.tokenIn.resourceAddress).toBe(hUSDC)
    expect(r.tokenOut.resourceAddress).toBe(hETH)
  })

  it("refunds a route that does not start from the deposited token, or is not accepted", () => {
    expect(routeOf(rules, deposit({ route_text: "hETH -> hUSDC" }), undefined)).toMatchObject({
      _tag: "Refund",
      message: "The route hETH -> hUSDC does not match the deposited hUSDC"
    })
    expect(routeOf(rules, deposit({ route_text: "hUSDC -> hUSDT" }), undefined)).toMatchObject({
      _tag: "Refund",
      message: "Route not available: hUSDC -> hUSDT"
    })
  })

  it("refunds a forged or unknown quote reference, saying why in the log", () => {
    const row = deposit({ quote_id: "qforged.x" })
    expect(routeOf(rules, row, { _tag: "Tampered" })).toEqual({
      _tag: "Refund",
      message: QUOTE_TAMPERED,
      changes: {},
      log: { level: "Warning", message: 'swap txid_loc1deposit: quote reference "qforged.x" is tampered' }
    })
    expect(routeOf(rules, row, { _tag: "Unknown" })).toMatchObject({ message: QUOTE_UNKNOWN })
  })

  it("refunds a quote for another pair than the deposit's", () => {
    const other = { ...quote, symbol_out: "hBTC" }
    expect(routeOf(rules, deposit(), { _tag: "Found", quote: other })).toMatchObject({
      message: quoteOtherPair("hUSDC -> hBTC", "hUSDC -> hETH")
    })
    expect(routeOf(rules, deposit({ resource_in: hETH, symbol_in: "hETH" }), { _tag: "Found", quote })).toMatchObject({
      message: quoteOtherPair("hUSDC -> hETH", "hETH (its message names hUSDC -> hETH)")
    })
  })
})

describe("settlement rules: without a quote", () => {
  it("pays at the prices read now, after the spread and the fee", () => {
    expect(decideUnquoted(rules, deposit(), routeFor(deposit()), dec("1"), dec("3000"))).toEqual({
      _tag: "Pay",
      changes: {
        resource_out: hETH,
        symbol_out: "hETH",
        amount_out: "0.003296666666666666",
        rate: "0.000333",
        usd_in: "10"
      }
    })
  })

  it("waits for a fresh price", () => {
    expect(decideUnquoted(rules, deposit(), routeFor(deposit()), dec("1"), undefined)).toEqual({
      _tag: "Wait",
      log: { level: "Warning", message: "swap txid_loc1deposit: no fresh price for hUSDC -> hETH; left for later" }
    })
  })

  it("refunds an amount outside the limits, or one the fee eats", () => {
    const big = deposit({ amount_in: "250" })
    expect(decideUnquoted(rules, big, routeFor(big), dec("1"), dec("3000"))).toMatchObject({
      _tag: "Refund",
      message: "The amount 250 hUSDC is outside the limits (1 to 200 hUSDC)"
    })
    const dear = settlementRules(makeServerConfig({ ...config, feeUsd: "20" }))
    expect(decideUnquoted(dear, deposit(), routeFor(deposit()), dec("1"), dec("3000"))).toMatchObject({
      _tag: "Refund",
      message: "The amount does not cover the fee"
    })
  })
})

describe("settlement rules: at a quote", () => {
  const quoted = deposit({ quote_id: quote.id })
  const promised = { quoted_out: "0.003296666666666666", min_received: "0.003263699999999999" }

  it("pays exactly what the quote promised when the deposit committed before it expired", () => {
    expect(decideAtQuote(quoted, quote, heth)).toEqual({
      _tag: "Pay",
      changes: {
        ...promised,
        resource_out: hETH,
        symbol_out: "hETH",
        amount_out: "0.003296666666666666",
        rate: "0.000333",
        usd_in: "10"
      }
    })
  })

  it("refunds an amount outside the quote's limits, and terms that do not parse", () => {
    expect(decideAtQuote({ ...quoted, amount_in: "0.5" }, quote, heth)).toMatchObject({
      _tag: "Refund",
      message: "The amount 0.5 hUSDC is outside the limits (1 to 200 hUSDC)"
    })
    const broken = { ...quote, max_in: "lots" }
    expect(decideAtQuote(quoted, broken, heth)).toEqual({
      _tag: "Refund",
      message: QUOTE_UNREADABLE,
      changes: {},
      log: {
        level: "Error",
        message: `swap txid_loc1deposit: the terms of quote ${quote.id} do not parse`,
        detail: broken
      }
    })
  })

  it("refunds a quote another deposit claimed", () => {
    expect(quoteReused(quoted, quote)).toMatchObject({ _tag: "Refund", message: QUOTE_REUSED })
  })

  it("turns to today's prices after the expiry, or when the commit time is unknown (saying so)", () => {
    expect(decideAtQuote({ ...quoted, committed_ms: 121_001 }, quote, heth)).toEqual({ _tag: "AtCurrentPrices" })
    expect(decideAtQuote({ ...quoted, committed_ms: null }, quote, heth)).toEqual({
      _tag: "AtCurrentPrices",
      log: {
        level: "Warning",
        message: `swap txid_loc1deposit: the deposit's commit time is unknown; quote ${quote.id} is treated as expired`
      }
    })
  })

  it("after the expiry: pays today's payout when it reaches the minimum received, else refunds", () => {
    const late = { ...quoted, committed_ms: 200_000 }
    expect(decideExpiredQuote(rules, late, quote, heth, dec("1"), dec("2900"))).toEqual({
      _tag: "Pay",
      changes: {
        ...promised,
        resource_out: hETH,
        symbol_out: "hETH",
        amount_out: "0.003410344827586206",
        rate: "0.000344482758620689",
        usd_in: "10"
      }
    })
    expect(decideExpiredQuote(rules, late, quote, heth, dec("1"), dec("3300"))).toEqual({
      _tag: "Refund",
      message: quoteExpiredBelowMinimum("0.003263699999999999", "0.002996969696969696", "hETH"),
      changes: promised
    })
    expect(decideExpiredQuote(rules, late, quote, heth, undefined, dec("3000"))).toMatchObject({
      _tag: "Wait",
      log: {
        message: `swap txid_loc1deposit: quote ${quote.id} expired and no fresh price for hUSDC -> hETH; left for later`
      }
    })
  })
})
