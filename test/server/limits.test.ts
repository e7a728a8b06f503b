/**
 * Rate limiting, maintenance, price freshness and bad input, driven through `handleApi` with TestClock: the server's
 * services are built inside each test, so every timer (token refill, the 15 s price walk, the 60 s staleness) runs
 * on the test clock. The Gateway and the price source answer from synchronous fakes.
 */
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { describe, expect, it as vit } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Gateway } from "../../src/gateway/index"
import {
  DbLive,
  PriceFeed,
  ServerConfig,
  type ServerConfigShape,
  Signer,
  devnetTokens,
  exchangeServerLayer,
  handleApi,
  makeServerConfig,
  seededRandom,
  walkStep
} from "../../src/server/index"
import { clientIp } from "../../src/server/Limits"
import { dec } from "../../src/server/pricing"
import { formatPlain } from "../../src/lib/decimalText"

const { hUSDC, hETH, GKS } = DevnetAddresses.resources
const user = DevnetAddresses.users[0] ?? ""

/** A synchronous HttpClient: `respond(url, calls)` gives each answer. */
const fakeHttp = (respond: (url: string, call: number) => Response) => {
  let calls = 0
  return Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) => Effect.succeed(HttpClientResponse.fromWeb(request, respond(url.href, calls++))))
  )
}
const gatewayDown = fakeHttp(() => new Response(JSON.stringify({ message: "down" }), { status: 503 }))

const serverLayer = (overrides: Partial<ServerConfigShape>, priceHttp = gatewayDown) => {
  const config = makeServerConfig({ networkId: 240, exchangeAccount: DevnetAddresses.exchangeAccount, ...overrides })
  return exchangeServerLayer({
    config,
    gateway: Gateway.layer({
      basePath: "http://gateway.test",
      applicationName: "hswap-test",
      retry: { retries: 0 }
    }).pipe(Layer.provide(gatewayDown), Layer.orDie),
    db: DbLive.sqlite(":memory:"),
    signer: Signer.layer({
      networkId: 240,
      account: DevnetAddresses.exchangeAccount,
      privateKeyHex: "00".repeat(32),
      feeLockXrd: "3",
      epochWindow: 10
    }),
    prices: PriceFeed.layer.pipe(Layer.provide(ServerConfig.layer(config)), Layer.provide(priceHttp)),
    watcher: false
  })
}

const call = (method: string, path: string, ip = "203.0.113.7", body?: string) => handleApi({ method, path, ip, body })

const get = (path: string, ip?: string) => call("GET", path, ip)

describe("rate limit (token bucket per IP)", () => {
  it.effect("allows the bucket, then 429 with retry-after, refilling at the configured rate", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 3; i++) expect((yield* get("/health")).status).toBe(200)
      const limited = yield* get("/health")
      expect(limited.status).toBe(429)
      expect(limited.json).toEqual({ error: "Rate limit exceeded", message: "Rate limit exceeded" })
      expect(limited.headers).toEqual({ "retry-after": "20" })
      // Every endpoint counts, and each IP has its own bucket.
      expect((yield* get(`/liveprice/${hUSDC}/${hETH}`)).status).toBe(429)
      expect((yield* get(`/transactions/${user}`)).status).toBe(429)
      expect((yield* call("POST", "/swap/txid_loc1x")).status).toBe(429)
      expect((yield* get("/health", "198.51.100.1")).status).toBe(200)

      yield* TestClock.adjust("19 seconds")
      expect((yield* get("/health")).status).toBe(429)
      yield* TestClock.adjust("1 second")
      expect((yield* get("/health")).status).toBe(200)
      expect((yield* get("/health")).status).toBe(429)

      // A long pause refills to the capacity, not beyond.
      yield* TestClock.adjust("10 minutes")
      for (let i = 0; i < 3; i++) expect((yield* get("/health")).status).toBe(200)
      expect((yield* get("/health")).status).toBe(429)
    }).pipe(Effect.provide(serverLayer({ rateLimitPerMinute: 3 })))
  )

  it.effect("X-Forwarded-For is ignored unless proxies are trusted: a client cannot pick its own bucket", () =>
    Effect.gen(function* () {
      const spoofed = (xff: string) =>
        handleApi({ method: "GET", path: "/health", ip: "203.0.113.7", forwardedFor: xff, body: undefined })
      expect((yield* spoofed("1.1.1.1")).status).toBe(200)
      expect((yield* spoofed("2.2.2.2")).status).toBe(429)
    }).pipe(Effect.provide(serverLayer({ rateLimitPerMinute: 1 })))
  )

  it.effect("behind one trusted proxy, each client the proxy saw has its own bucket", () =>
    Effect.gen(function* () {
      // The proxy (10.0.0.2) appends the address it got the request from; what the client wrote stays to its left.
      const via = (xff: string | undefined) =>
        handleApi({ method: "GET", path: "/health", ip: "10.0.0.2", forwardedFor: xff, body: undefined })
      expect((yield* via("198.51.100.1")).status).toBe(200)
      expect((yield* via("198.51.100.1")).status).toBe(429)
      // Another client, and the same client lying about itself: the entry the proxy wrote decides.
      expect((yield* via("198.51.100.2")).status).toBe(200)
      expect((yield* via("6.6.6.6, 198.51.100.1")).status).toBe(429)
      // A request that did not come through the proxy counts as the peer itself.
      expect((yield* via(undefined)).status).toBe(200)
      expect((yield* via(undefined)).status).toBe(429)
      // The admin route still looks at the peer, never at the header.
      const admin = yield* handleApi({
        method: "GET",
        path: "/admin/maintenance",
        ip: "10.0.0.2",
        forwardedFor: "127.0.0.1",
        body: undefined
      })
      expect(admin.status).toBe(403)
    }).pipe(Effect.provide(serverLayer({ rateLimitPerMinute: 1, trustedProxyHops: 1 })))
  )

  vit("clientIp: the entry the outermost trusted proxy wrote, else the peer", () => {
    expect(clientIp("10.0.0.2", "198.51.100.1", 0)).toBe("10.0.0.2")
    expect(clientIp("10.0.0.2", undefined, 1)).toBe("10.0.0.2")
    expect(clientIp("10.0.0.3", "6.6.6.6, 198.51.100.1 ,10.0.0.2", 2)).toBe("198.51.100.1")
    expect(clientIp("10.0.0.3", " , 10.0.0.2", 2)).toBe("10.0.0.3")
    expect(clientIp("10.0.0.2", "", 1)).toBe("10.0.0.2")
  })

  it.effect("defaults to 120 a minute", () =>
    Effect.gen(function* () {
      const statuses = []
      for (let i = 0; i < 121; i++) statuses.push((yield* get("/health")).status)
      expect(statuses.filter((s) => s === 200)).toHaveLength(120)
      expect(statuses[120]).toBe(429)
      yield* TestClock.adjust("500 millis")
      expect((yield* get("/health")).status).toBe(200)
    }).pipe(Effect.provide(serverLayer({})))
  )

  it.effect("is out of the way with a limit of 0", () =>
    Effect.gen(function* () {
      for (let i = 0; i < 500; i++) expect((yield* get("/health")).status).toBe(200)
    }).pipe(Effect.provide(serverLayer({ rateLimitPerMinute: 0 })))
  )
})

describe("maintenance", () => {
  const gated = [
    ["GET", "/health"],
    ["GET", `/liveprice/${hUSDC}/${hETH}`],
    ["POST", "/swap/txid_loc1anything"],
    ["GET", `/transactions/${user}`],
    ["GET", "/transactions/latest"]
  ] as const

  it.effect(
    "from the environment flag: 409 on price, health, swap and transactions, until the admin turns it off",
    () =>
      Effect.gen(function* () {
        for (const [method, path] of gated) {
          const r = yield* call(method, path)
          expect([path, r.status, r.json]).toEqual([
            path,
            409,
            { error: "Service in maintenance", message: "Service in maintenance" }
          ])
        }
        expect((yield* get("/btcbridge/price")).status).toBe(200)
        yield* TestClock.adjust("1 hour")
        expect((yield* get("/health")).status).toBe(409)

        expect((yield* call("GET", "/admin/maintenance", "127.0.0.1")).json).toEqual({ maintenance: true })
        const remote = yield* call("POST", "/admin/maintenance", "203.0.113.7", JSON.stringify({ enabled: false }))
        expect(remote.status).toBe(403)
        expect((yield* get("/health")).status).toBe(409)
        expect((yield* call("POST", "/admin/maintenance", "::1", "{not json")).status).toBe(400)

        const off = yield* call("POST", "/admin/maintenance", "::1", JSON.stringify({ enabled: false }))
        expect(off.json).toEqual({ maintenance: false })
        for (const [method, path] of gated) expect((yield* call(method, path)).status).not.toBe(409)
      }).pipe(Effect.provide(serverLayer({ maintenance: true, rateLimitPerMinute: 0 })))
  )

  it.effect("the loopback admin toggle turns it on", () =>
    Effect.gen(function* () {
      expect((yield* get("/health")).status).toBe(200)
      const on = yield* call("POST", "/admin/maintenance", "::ffff:127.0.0.1", JSON.stringify({ enabled: true }))
      expect(on.json).toEqual({ maintenance: true })
      expect((yield* get("/health")).status).toBe(409)
      expect((yield* get(`/liveprice/${hUSDC}/${hETH}`)).status).toBe(409)
    }).pipe(Effect.provide(serverLayer({ rateLimitPerMinute: 0 })))
  )
})

describe("prices on the Clock", () => {
  const token = (symbol: string) => devnetTokens.find((t) => t.symbol === symbol) ?? devnetTokens[0]!

  it.effect("the simulated feed walks every 15 s, reproducibly from its seed", () =>
    Effect.gen(function* () {
      const feed = yield* PriceFeed
      const start = yield* feed.snapshot
      expect(formatPlain(start.get("hETH")!.usd)).toBe("3000")
      yield* TestClock.adjust("14 seconds")
      expect(formatPlain((yield* feed.snapshot).get("hETH")!.usd)).toBe("3000")
      yield* TestClock.adjust("1 second")
      const random = seededRandom("seed-a/hETH")
      const first = walkStep(dec("3000"), token("hETH"), random)
      const after = (yield* feed.snapshot).get("hETH")!
      expect(formatPlain(after.usd)).toBe(formatPlain(first))
      expect(after.updatedAtMs).toBe(15_000)
      yield* TestClock.adjust("45 seconds")
      let expected = first
      for (let i = 0; i < 3; i++) expected = walkStep(expected, token("hETH"), random)
      expect(formatPlain((yield* feed.snapshot).get("hETH")!.usd)).toBe(formatPlain(expected))
      const health = (yield* get("/health")).json as {
        pairs_status: Record<string, { last_update: number; price_available: boolean }>
      }
      expect(health.pairs_status["hETH"]).toMatchObject({ last_update: 60, price_available: true })
    }).pipe(Effect.provide(serverLayer({ priceSeed: "seed-a", rateLimitPerMinute: 0 })))
  )

  it.effect("a price older than 60 s makes its pairs unavailable", () =>
    Effect.gen(function* () {
      const priceAnswers = (_: string, n: number) =>
        n === 0
          ? new Response(JSON.stringify({ hUSDC: "1", hETH: 2500, hBTC: "50000.5", XRD: "0.015" }), { status: 200 })
          : new Response("upstream down", { status: 502 })
      return yield* Effect.gen(function* () {
        const live = yield* get(`/liveprice/${hUSDC}/${hETH}`)
        expect(live.json).toMatchObject({ effective_rate: "0.0003996", min_amount_in: "1", max_amount_in: "200" })
        expect((yield* get("/btcbridge/price")).json).toMatchObject({
          price: 50000.5,
          source: "http",
          last_update: 0,
          expire: 60
        })
        yield* TestClock.adjust("60 seconds")
        expect((yield* get(`/liveprice/${hUSDC}/${hETH}`)).status).toBe(200)
        yield* TestClock.adjust("1 second")
        const stale = yield* get(`/liveprice/${hUSDC}/${hETH}`)
        expect([stale.status, stale.json]).toEqual([
          503,
          { error: "Price not available", message: "Price not available" }
        ])
        const health = (yield* get("/health")).json as {
          status: string
          pairs_status: Record<string, { price_available: boolean }>
        }
        expect(health.status).toBe("healthy")
        expect(health.pairs_status["hETH"]?.price_available).toBe(false)
        expect(health.pairs_status["hUSDT"]?.price_available).toBe(false)
        expect((yield* get("/btcbridge/price")).json).toEqual({ message: "Bitcoin price unavailable" })
      }).pipe(
        Effect.provide(
          serverLayer({ priceSourceUrl: "http://prices.test/usd", rateLimitPerMinute: 0 }, fakeHttp(priceAnswers))
        )
      )
    })
  )
})

describe("bad input is a 4xx JSON error, never a 500", () => {
  it.effect("malformed addresses, hashes, paths, methods and bodies", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [string, string, number, string | undefined]> = [
        ["GET", `/liveprice/resource_loc1nope/${hETH}`, 400, undefined],
        ["GET", `/liveprice/${hUSDC}/%E0%A4%A`, 400, undefined],
        ["GET", `/liveprice/${hUSDC.toUpperCase()}/${hETH}`, 400, undefined],
        ["GET", `/liveprice/${DevnetAddresses.exchangeAccount}/${hETH}`, 400, undefined],
        ["GET", `/liveprice/${GKS}/${hETH}`, 404, undefined],
        ["GET", "/transactions/account_loc1nope", 400, undefined],
        ["GET", `/transactions/${hUSDC}`, 400, undefined],
        ["GET", "/transactions/%ZZ", 400, undefined],
        ["POST", "/swap/not-a-hash", 400, undefined],
        ["POST", `/swap/${"txid_loc1" + "q".repeat(500)}`, 400, undefined],
        ["GET", "/swap/anything", 405, undefined],
        ["POST", "/health", 405, undefined],
        ["GET", "/nothing/here", 404, undefined],
        ["GET", "/health/extra", 404, undefined],
        ["GET", "/liveprice/a/b/c", 404, undefined]
      ]
      for (const [method, path, status] of cases) {
        const r = yield* call(method, path)
        expect([method, path, r.status]).toEqual([method, path, status])
        expect(r.json).toMatchObject({ error: expect.any(String) })
      }
      const oversized = yield* handleApi({
        method: "POST",
        path: "/swap/x",
        ip: "1.2.3.4",
        body: "",
        bodyTooLarge: true
      })
      expect([oversized.status, oversized.json]).toEqual([
        413,
        { error: "Request body too large", message: "Request body too large" }
      ])
      const forbidden = (yield* get(`/liveprice/${hUSDC}/${hUSDC}`)).json
      expect(forbidden).toEqual({ in_symbol: "hUSDC", out_symbol: "hUSDC", error: "Forbidden route" })
      const notRoute = (yield* get(`/liveprice/${hETH}/${DevnetAddresses.resources.hBTC}`)).json
      expect(notRoute).toEqual({ in_symbol: "hETH", out_symbol: "hBTC", error: "Route not available" })
      // The ledger is unreachable: liquidity and stats say so with a 503, not a 500.
      expect((yield* get("/liquidity")).status).toBe(503)
      expect((yield* get("/stats")).status).toBe(503)
    }).pipe(Effect.provide(serverLayer({ rateLimitPerMinute: 0 })))
  )
})
