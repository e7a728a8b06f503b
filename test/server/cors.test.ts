/**
 * CORS of the exchange API (the platform's middleware): none unless origins are configured, then exactly those, and
 * never on the admin group. Driven through the built `HttpApp` as a web handler (the same app `node:http` serves).
 */
import { HttpApp, HttpClient, HttpClientResponse } from "@effect/platform"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Gateway } from "../../src/gateway/index"
import {
  DbLive,
  ExchangeHttp,
  PriceFeed,
  ServerConfig,
  Signer,
  exchangeServerLayer,
  makeServerConfig
} from "../../src/server/index"

const down = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) => Effect.succeed(HttpClientResponse.fromWeb(request, new Response("{}", { status: 503 }))))
)

const runtimes: Array<ManagedRuntime.ManagedRuntime<ExchangeHttp, never>> = []
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.dispose()
})

/** The API as a web handler, with `corsOrigins` as given (absent: the default). */
const serve = async (corsOrigins?: ReadonlyArray<string>) => {
  const config = makeServerConfig({
    networkId: 240,
    exchangeAccount: DevnetAddresses.exchangeAccount,
    rateLimitPerMinute: 0,
    ...(corsOrigins === undefined ? {} : { corsOrigins })
  })
  const runtime = ManagedRuntime.make(
    exchangeServerLayer({
      config,
      gateway: Gateway.layer({ basePath: "http://gateway.test", applicationName: "t", retry: { retries: 0 } }).pipe(
        Layer.provide(down),
        Layer.orDie
      ),
      db: DbLive.sqlite(":memory:"),
      signer: Signer.layer({
        networkId: 240,
        account: DevnetAddresses.exchangeAccount,
        privateKeyHex: "00".repeat(32),
        feeLockXrd: "3",
        epochWindow: 10
      }),
      prices: PriceFeed.layer.pipe(Layer.provide(ServerConfig.layer(config)), Layer.provide(down)),
      watcher: false
    })
  )
  runtimes.push(runtime)
  const { app } = await runtime.runPromise(ExchangeHttp)
  const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(app)
  return (method: string, path: string, headers: Record<string, string> = {}) =>
    handler(new Request(`http://exchange.test/api${path}`, { method, headers }))
}

const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith("access-control-"))

const preflight = (origin: string) => ({
  origin,
  "access-control-request-method": "POST",
  "access-control-request-headers": "content-type"
})

describe("CORS", () => {
  it("unconfigured: no Access-Control header for any origin or none, preflights included", async () => {
    const call = await serve()
    for (const headers of [{}, { origin: "https://app.example" }, { origin: "null" }]) {
      const r = await call("GET", "/health", headers)
      expect([headers, r.status, corsHeaders(r)]).toEqual([headers, 200, []])
    }
    const options = await call("OPTIONS", "/swap/x", preflight("https://app.example"))
    expect([options.status, corsHeaders(options)]).toEqual([204, []])
  })

  it("configured: the listed origin is echoed, any other gets no Access-Control header", async () => {
    const call = await serve(["https://app.example", "https://other.example"])
    for (const origin of ["https://app.example", "https://other.example"]) {
      const r = await call("GET", "/health", { origin })
      expect(r.headers.get("access-control-allow-origin")).toBe(origin)
      expect(r.headers.get("vary")).toMatch(/origin/i)
    }
    for (const origin of ["https://evil.example", "https://app.example.evil.example", "http://app.example", "null"]) {
      const r = await call("GET", "/health", { origin })
      expect([origin, r.status, corsHeaders(r)]).toEqual([origin, 200, []])
      const options = await call("OPTIONS", "/swap/x", preflight(origin))
      expect([origin, options.status, corsHeaders(options)]).toEqual([origin, 204, []])
    }
    expect(corsHeaders(await call("GET", "/health"))).toEqual([])
  })

  it("a preflight from a listed origin allows GET and POST with a JSON body, for 10 minutes", async () => {
    const call = await serve(["https://app.example"])
    const r = await call("OPTIONS", "/swap/x", preflight("https://app.example"))
    expect(r.status).toBe(204)
    expect(r.headers.get("access-control-allow-origin")).toBe("https://app.example")
    expect(r.headers.get("access-control-allow-methods")).toBe("GET, POST")
    expect(r.headers.get("access-control-allow-headers")).toBe("content-type")
    expect(r.headers.get("access-control-max-age")).toBe("600")
  })

  it("the admin group gives no CORS header, even to a listed origin", async () => {
    const call = await serve(["https://app.example"])
    const get = await call("GET", "/admin/maintenance", { origin: "https://app.example" })
    expect(corsHeaders(get)).toEqual([])
    const options = await call("OPTIONS", "/admin/maintenance", preflight("https://app.example"))
    expect([options.status, corsHeaders(options)]).toEqual([204, []])
  })
})
