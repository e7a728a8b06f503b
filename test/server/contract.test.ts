/**
 * Contract: every endpoint over real HTTP on 127.0.0.1, read by the app's own client (`ExchangeApi`, which decodes
 * with the shared Schemas of `src/exchange/api.ts`), against the exchange server on the in-process devnet.
 */
import { Effect, Either, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { QUOTE_ID_PATTERN } from "../../src/exchange/api"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import {
  ExchangeApi,
  ExchangeApiConfig,
  type ExchangeServiceError,
  serverMessage
} from "../../src/exchange/ExchangeApi"
import { ApiHttp } from "../../src/exchange/http"
import { type ExchangeServer, listenExchangeServer } from "../../src/server/index"
import { type Devnet, startLedger, startServer, swapMessage, transfer, unsubmittedIntent } from "./harness"

const { XRD, hUSDC, hUSDT, hETH, hBTC, GKS } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount

let devnet: Devnet
let server: ExchangeServer
let http: { readonly url: string; readonly close: () => Promise<void> }

const client = (url: string) =>
  // The app's own transport (`fetch` itself) against the real server.
  ExchangeApi.Default.pipe(Layer.provide(ExchangeApiConfig.layer({ apiBase: url })), Layer.provide(ApiHttp.fetch))

const api = <A, E>(f: (api: ExchangeApi) => Effect.Effect<A, E>, url = http.url) =>
  Effect.runPromise(Effect.either(Effect.flatMap(ExchangeApi, f)).pipe(Effect.provide(client(url))))

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected a success, got ${JSON.stringify(e.left)}`)
  return e.right
}
const left = <A, E>(e: Either.Either<A, E>): E => {
  if (Either.isRight(e)) throw new Error(`expected a failure, got ${JSON.stringify(e.right)}`)
  return e.left
}
const status = (e: ExchangeServiceError) => (e._tag === "FetchStatusError" ? e.status : e._tag)

beforeAll(async () => {
  devnet = await startLedger()
  server = await startServer(devnet, undefined)
  http = await listenExchangeServer(server, 0, "127.0.0.1")
})
afterAll(async () => {
  await http.close()
  await server.close()
  await devnet.dispose()
})

describe("the exchange API, read by the app's client", () => {
  it("health: status healthy and pairs_status for every quoted token", async () => {
    const health = right(await api((a) => a.health))
    expect(health.status).toBe("healthy")
    expect(Object.keys(health.pairs_status)).toEqual(["XRD", "hUSDC", "hUSDT", "hETH", "hBTC"])
    const eth = health.pairs_status["hETH"]
    expect(eth).toMatchObject({ price_available: true, price_usd: 3000, name: "Hyperlane ETH" })
    expect(eth?.logo_url).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(Math.abs(Number(eth?.last_update) - Date.now() / 1000)).toBeLessThan(120)
  })

  it("liveprice: rates with the 0.1% spread and 1–200 USD limits in input units, for every route", async () => {
    const quote = (from: string, to: string) => api((a) => a.livePrice(from, to)).then(right)
    const before = Math.floor(Date.now() / 1000)
    const usdcEth = await quote(hUSDC, hETH)
    expect(usdcEth).toEqual({
      in_symbol: "hUSDC",
      out_symbol: "hETH",
      effective_rate: "0.000333",
      min_amount_in: "1",
      max_amount_in: "200",
      quote_id: expect.stringMatching(QUOTE_ID_PATTERN),
      quote_expires_at: expect.any(Number),
      quote_valid_seconds: 120,
      // 0.10 USD at 3000 USD/hETH, rounded up to 18 decimals.
      fee_out: "0.000033333333333334",
      // This server takes a pre-authorisation for the quote.
      atomic: true
    })
    expect(Number(usdcEth.quote_expires_at) - before).toBeGreaterThanOrEqual(120)
    expect(Number(usdcEth.quote_expires_at) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(120)
    // A new quote on every price.
    expect((await quote(hUSDC, hETH)).quote_id).not.toBe(usdcEth.quote_id)
    expect(await quote(hETH, hUSDC)).toMatchObject({
      effective_rate: "2997",
      min_amount_in: "0.000333333333333334",
      max_amount_in: "0.066666666666666666"
    })
    expect(await quote(hBTC, hUSDC)).toMatchObject({
      effective_rate: "59940",
      min_amount_in: "0.00001667",
      max_amount_in: "0.00333333",
      fee_out: "0.1"
    })
    expect(await quote(hUSDC, hBTC)).toMatchObject({
      effective_rate: "0.00001665",
      min_amount_in: "1",
      max_amount_in: "200",
      fee_out: "0.00000167"
    })
    expect(await quote(XRD, hUSDC)).toMatchObject({
      effective_rate: "0.01998",
      min_amount_in: "50",
      max_amount_in: "10000"
    })
    expect(await quote(hUSDC, XRD)).toMatchObject({ effective_rate: "49.95" })
    expect(await quote(hETH, hBTC)).toEqual({ in_symbol: "hETH", out_symbol: "hBTC", error: "Route not available" })
    expect(await quote(hUSDT, hUSDT)).toEqual({ in_symbol: "hUSDT", out_symbol: "hUSDT", error: "Forbidden route" })
    const unknown = left(await api((a) => a.livePrice(GKS, hETH)))
    expect(status(unknown)).toBe(404)
    expect(serverMessage(unknown)).toBe(`Unknown resource: ${GKS}`)
    const malformed = left(await api((a) => a.livePrice("resource_loc1oops", hETH)))
    expect(status(malformed)).toBe(400)
  })

  it("liquidity: the exchange account's vaults through the gateway, native token first", async () => {
    const liquidity = right(await api((a) => a.liquidity))
    expect(liquidity.assets.map((a) => a.symbol)).toEqual(["XRD", "hUSDC", "hUSDT", "hETH", "hBTC"])
    expect(liquidity.assets[0]).toMatchObject({
      resource_address: XRD,
      amount: "100000000",
      amount_usd: 2000000,
      decimals: 18
    })
    expect(liquidity.assets.find((a) => a.symbol === "hBTC")).toMatchObject({
      amount: "25",
      amount_usd: 1500000,
      decimals: 8
    })
    expect(liquidity.total_usd_value).toBe(2_000_000 + 1_000_000 + 1_000_000 + 1_500_000 + 1_500_000)
    const allocation = liquidity.assets.reduce((sum, a) => sum + a.allocation_percentage, 0)
    expect(Math.abs(allocation - 100)).toBeLessThan(0.05)
  })

  it("swap registration, transactions, latest and stats", async () => {
    const user = devnet.ledger.genesis.users[0]
    expect(right(await api((a) => a.transactions(user.address)))).toEqual([])
    const tx = await transfer(devnet, {
      from: user,
      to: exchange,
      resource: hUSDC,
      amount: "100",
      message: swapMessage("hUSDC", "hETH")
    })
    const registered = right(await api((a) => a.registerSwap(tx)))
    expect(registered).toMatchObject({ tx_hash: tx, status: "completed" })
    const record = registered.transaction
    expect(record).toMatchObject({
      from: user.address,
      to: exchange,
      asset_in: "hUSDC",
      asset_out: "hETH",
      amount_in: "100",
      amount_out: "0.033266666666666666",
      tx_in: tx,
      status: "completed"
    })
    expect(record?.tx_out).toMatch(/^txid_loc1/)
    expect(Math.abs(Number(record?.timestamp_finalized) - Date.now() / 1000)).toBeLessThan(120)
    expect(right(await api((a) => a.transactions(user.address)))).toEqual([record])
    const latest = right(await api((a) => a.latestTransactions))
    expect(latest[0]).toEqual(record)
    expect(latest.length).toBeLessThanOrEqual(10)
    const stats = right(await api((a) => a.stats))
    expect(stats).toMatchObject({ total_volume: 100, active_users: 1, total_transactions: 1 })
    // The liquidity behind TVL is cached for 5 s: the swap's +0.20 USD may not show yet.
    expect(Math.abs(stats.tvl - 7_000_000)).toBeLessThan(1)

    expect(status(left(await api((a) => a.registerSwap("txid_loc1bad"))))).toBe(400)
    expect(status(left(await api((a) => a.transactions("account_loc1bad"))))).toBe(400)
    const unknownHash = await unsubmittedIntent(devnet)
    expect(status(left(await api((a) => a.registerSwap(unknownHash))))).toBe(404)
    const gift = await transfer(devnet, { from: user, to: exchange, resource: hUSDC, amount: "1", message: "thanks" })
    const refused = left(await api((a) => a.registerSwap(gift)))
    expect(status(refused)).toBe(422)
    expect(serverMessage(refused)).toBe("The transaction message names no route (FROM -> TO)")
  })

  it("btcbridge price", async () => {
    const price = right(await api((a) => a.btcPrice))
    expect(price).toMatchObject({ price: 60000, symbol: "BTC", source: "simulated" })
    expect(Number(price.expire) - Number(price.last_update)).toBe(7200)
  })

  it("bodies: an oversized one is a 413 JSON error; a body naming another hash is a 400; CORS preflight", async () => {
    const tx = await unsubmittedIntent(devnet)
    const json = { "content-type": "application/json" }
    const big = await fetch(`${http.url}/api/swap/${tx}`, { method: "POST", body: "x".repeat(10_000) })
    expect(big.status).toBe(413)
    expect(await big.json()).toEqual({ error: "Request body too large", message: "Request body too large" })
    const mismatch = await fetch(`${http.url}/api/swap/${tx}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ tx_hash: "txid_loc1other" })
    })
    expect(mismatch.status).toBe(400)
    const notJson = await fetch(`${http.url}/api/swap/${tx}`, { method: "POST", headers: json, body: "{" })
    expect([notJson.status, await notJson.json()]).toEqual([
      400,
      { error: "The body must be JSON { tx_hash }", message: "The body must be JSON { tx_hash }" }
    ])
    const preflight = await fetch(`${http.url}/api/swap/${tx}`, { method: "OPTIONS" })
    expect(preflight.status).toBe(204)
    // No CORS configured: no CORS header at all.
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull()
    const outside = await fetch(`${http.url}/elsewhere`)
    expect([outside.status, await outside.json()]).toEqual([404, { error: "Not found", message: "Not found" }])
  })
})

describe("service modes as the app's client sees them", () => {
  it("429 is ExchangeRateLimited and 409 is ExchangeMaintenance; other statuses stay FetchStatusError", async () => {
    const limited = await startServer(devnet, undefined, { rateLimitPerMinute: 2, watcherPollMs: 60_000 })
    const limitedHttp = await listenExchangeServer(limited, 0, "127.0.0.1")
    try {
      expect(Either.isRight(await api((a) => a.health, limitedHttp.url))).toBe(true)
      expect(Either.isRight(await api((a) => a.livePrice(hUSDC, hETH), limitedHttp.url))).toBe(true)
      const third = left(await api((a) => a.health, limitedHttp.url))
      expect(third._tag).toBe("ExchangeRateLimited")
      expect(third.message).toBe("Rate limit exceeded")
      expect(left(await api((a) => a.transactions(DevnetAddresses.users[0] ?? ""), limitedHttp.url))._tag).toBe(
        "ExchangeRateLimited"
      )
    } finally {
      await limitedHttp.close()
      await limited.close()
    }

    const toggle = (enabled: boolean) =>
      fetch(`${http.url}/api/admin/maintenance`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ enabled })
      }).then((r) => r.json())
    expect(await toggle(true)).toEqual({ maintenance: true })
    try {
      const user = DevnetAddresses.users[1] ?? ""
      const attempts: ReadonlyArray<Promise<Either.Either<unknown, ExchangeServiceError>>> = [
        api((a) => a.health),
        api((a) => a.livePrice(hUSDC, hETH)),
        api((a) => a.transactions(user)),
        api((a) => a.latestTransactions),
        api((a) => a.registerSwap("txid_loc1whatever"))
      ]
      for (const attempt of attempts) {
        const e = left(await attempt)
        expect(e._tag).toBe("ExchangeMaintenance")
        expect(e.message).toBe("Service in maintenance")
      }
      expect(Either.isRight(await api((a) => a.btcPrice))).toBe(true)
      expect(Either.isRight(await api((a) => a.stats))).toBe(true)
    } finally {
      expect(await toggle(false)).toEqual({ maintenance: false })
    }
    expect(Either.isRight(await api((a) => a.health))).toBe(true)
  })
})
