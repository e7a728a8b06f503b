/**
 * Test doubles for the Gateway client: a fake gateway that records every request, served both as a synchronous
 * HttpClient (for `Gateway.layer`) and as a `fetch` (for `Gateway.layerFetch`), so that the suites run every case over
 * both transports (`forEachTransport`).
 */
import { FetchHttpClient, HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import type { HttpClientRequest } from "@effect/platform"
import { Cause, Effect, Exit, FiberId, Layer, Runtime } from "effect"
import { beforeEach, describe } from "vitest"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { GatewayConfig } from "../../src/gateway/index.js"
import { Gateway } from "../../src/gateway/index.js"

/** `shared/` sits beside the project's root (locally and in CI). */
export const fixturesDir = fileURLToPath(new URL("../../../shared/fixtures/gateway", import.meta.url))
export const fixtureText = (name: string) => readFileSync(`${fixturesDir}/${name}`, "utf8")
export const fixture = (name: string): unknown => JSON.parse(fixtureText(name))

/** A `/transaction/status` answer of a committed transaction, as the Gateway sends it (the transport suites' body). */
export const statusBody = JSON.stringify({
  ledger_state: {
    network: "stokenet",
    state_version: 1,
    proposer_round_timestamp: "2024-04-10T08:49:40.926Z",
    epoch: 1,
    round: 1
  },
  status: "CommittedSuccess",
  intent_status: "CommittedSuccess",
  intent_status_description: "committed",
  known_payloads: []
})

export interface Recorded {
  readonly method: string
  readonly url: string
  /** Path after the base URL, e.g. `/state/entity/details`. */
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  /** Parsed JSON body, or `undefined` when the request had none. */
  readonly body: unknown
  readonly contentType: string | undefined
}

export interface Reply {
  readonly status?: number
  /** A string is sent as is (e.g. a truncated body); anything else as JSON. */
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

const bodyOf = (request: HttpClientRequest.HttpClientRequest): { body: unknown; contentType: string | undefined } => {
  const b = request.body
  switch (b._tag) {
    case "Uint8Array":
      return { body: JSON.parse(new TextDecoder().decode(b.body)), contentType: b.contentType }
    case "Empty":
      return { body: undefined, contentType: undefined }
    default:
      throw new Error(`unexpected body ${b._tag}`)
  }
}

export const BasePath = "https://gateway.test"

const pathOf = (url: string) => (url.startsWith(BasePath) ? url.slice(BasePath.length) : new URL(url).pathname)

const replyText = (reply: Reply) => (typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {}))
const replyInit = (reply: Reply): ResponseInit => ({
  status: reply.status ?? 200,
  headers: { "content-type": "application/json", ...reply.headers }
})

/**
 * A fake gateway. `handler` answers each request (it may be effectful, e.g. sleep on the TestClock); a failed
 * handler effect becomes a transport error. `inFlight`/`peak` count requests being answered. `layer` serves it as an
 * HttpClient; `fetchIn(runtime)` as a `fetch` whose handler fibers run in `runtime` (the test's, with its TestClock),
 * which honours its abort signal.
 */
export const fakeHttp = (handler: (request: Recorded) => Effect.Effect<Reply, "network-down">) => {
  const recorded: Array<Recorded> = []
  const stats = { inFlight: 0, peak: 0 }
  const answer = (rec: Recorded) => {
    recorded.push(rec)
    stats.inFlight += 1
    stats.peak = Math.max(stats.peak, stats.inFlight)
    return handler(rec).pipe(Effect.ensuring(Effect.sync(() => void (stats.inFlight -= 1))))
  }
  const client = HttpClient.make((request, url) =>
    Effect.suspend(() => {
      const { body, contentType } = bodyOf(request)
      return answer({
        method: request.method,
        url: url.toString(),
        path: pathOf(url.toString()),
        headers: request.headers,
        body,
        contentType
      }).pipe(
        Effect.map((reply) => HttpClientResponse.fromWeb(request, new Response(replyText(reply), replyInit(reply)))),
        Effect.mapError(
          (cause) => new HttpClientError.RequestError({ request, reason: "Transport", cause, description: cause })
        )
      )
    })
  )
  const fetchIn =
    (runtime: Runtime.Runtime<never>): typeof globalThis.fetch =>
    (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      const headers: Record<string, string> = {}
      new Headers(init?.headers).forEach((value, key) => {
        headers[key] = value
      })
      const text = typeof init?.body === "string" ? init.body : undefined
      const fiber = Runtime.runFork(runtime)(
        answer({
          method: init?.method ?? "GET",
          url,
          path: pathOf(url),
          headers,
          body: text === undefined ? undefined : JSON.parse(text),
          contentType: text === undefined ? undefined : headers["content-type"]
        })
      )
      const signal = init?.signal
      return new Promise<Response>((resolve, reject) => {
        const onAbort = () => {
          fiber.unsafeInterruptAsFork(FiberId.none)
          reject(new DOMException("This operation was aborted", "AbortError"))
        }
        if (signal?.aborted === true) return onAbort()
        signal?.addEventListener("abort", onAbort, { once: true })
        fiber.addObserver((exit) => {
          signal?.removeEventListener("abort", onAbort)
          if (Exit.isSuccess(exit)) resolve(new Response(replyText(exit.value), replyInit(exit.value)))
          else if (!Cause.isInterruptedOnly(exit.cause)) reject(new TypeError("fetch failed", { cause: exit.cause }))
        })
      })
    }
  return { recorded, stats, layer: Layer.succeed(HttpClient.HttpClient, client), fetchIn }
}

export type TestTransport = "HttpClient" | "fetch"
export const TRANSPORTS: ReadonlyArray<TestTransport> = ["HttpClient", "fetch"]
let currentTransport: TestTransport = "HttpClient"

/**
 * Runs the suites `body` declares once per transport: `withGateway` builds `Gateway.layer` over the fake HttpClient,
 * then `Gateway.layerFetch` over the fake fetch (the tests of one file run one after another, so the switch is safe).
 */
export const forEachTransport = (body: () => void) =>
  describe.each(TRANSPORTS)("over %s", (transport) => {
    beforeEach(() => {
      currentTransport = transport
    })
    body()
  })

export const testConfig: GatewayConfig = {
  basePath: BasePath,
  applicationName: "hSwap tests",
  applicationVersion: "0.0.1",
  applicationDappDefinitionAddress: "account_tdx_2_1dapp"
}

/** Runs `use` against a Gateway over the given fake, on the current transport (see `forEachTransport`). */
export const withGateway = <A, E>(
  fake: ReturnType<typeof fakeHttp>,
  use: (gateway: Gateway["Type"]) => Effect.Effect<A, E>,
  config: Partial<GatewayConfig> = {}
) =>
  currentTransport === "HttpClient"
    ? Effect.flatMap(Gateway, use).pipe(
        Effect.provide(Gateway.layer({ ...testConfig, ...config }).pipe(Layer.provide(fake.layer)))
      )
    : Effect.flatMap(Effect.runtime<never>(), (runtime) =>
        Effect.flatMap(Gateway, use).pipe(
          Effect.provide(
            Gateway.layerFetch({ ...testConfig, ...config }).pipe(
              Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fake.fetchIn(runtime)))
            )
          )
        )
      )

export const ledgerState = (stateVersion: number) => ({
  network: "stokenet",
  state_version: stateVersion,
  proposer_round_timestamp: "2024-04-10T08:49:40.926Z",
  epoch: 51653,
  round: 1594
})
