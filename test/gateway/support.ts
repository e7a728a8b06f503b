/** Test doubles for the Gateway client: a synchronous fake HttpClient that records every request. */
import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import type { HttpClientRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { GatewayConfig } from "../../src/gateway/index.js"
import { Gateway } from "../../src/gateway/index.js"

/** `shared/` sits beside the project's root (locally and in CI). */
export const fixturesDir = fileURLToPath(new URL("../../../shared/fixtures/gateway", import.meta.url))
export const fixtureText = (name: string) => readFileSync(`${fixturesDir}/${name}`, "utf8")
export const fixture = (name: string): unknown => JSON.parse(fixtureText(name))

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

/**
 * A fake HttpClient. `handler` answers each request (it may be effectful, e.g. sleep on the TestClock); a failed
 * handler effect becomes a transport error. `inFlight`/`peak` count requests being answered.
 */
export const fakeHttp = (handler: (request: Recorded) => Effect.Effect<Reply, "network-down">) => {
  const recorded: Array<Recorded> = []
  const stats = { inFlight: 0, peak: 0 }
  const client = HttpClient.make((request, url) =>
    Effect.suspend(() => {
      const { body, contentType } = bodyOf(request)
      const rec: Recorded = {
        method: request.method,
        url: url.toString(),
        path: url.toString().startsWith(BasePath) ? url.toString().slice(BasePath.length) : url.pathname,
        headers: request.headers,
        body,
        contentType
      }
      recorded.push(rec)
      stats.inFlight += 1
      stats.peak = Math.max(stats.peak, stats.inFlight)
      return handler(rec).pipe(
        Effect.ensuring(Effect.sync(() => void (stats.inFlight -= 1))),
        Effect.map((reply) => {
          const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {})
          return HttpClientResponse.fromWeb(
            request,
            new Response(text, {
              status: reply.status ?? 200,
              headers: { "content-type": "application/json", ...reply.headers }
            })
          )
        }),
        Effect.mapError(
          (cause) => new HttpClientError.RequestError({ request, reason: "Transport", cause, description: cause })
        )
      )
    })
  )
  return { recorded, stats, layer: Layer.succeed(HttpClient.HttpClient, client) }
}

export const testConfig: GatewayConfig = {
  basePath: BasePath,
  applicationName: "hSwap tests",
  applicationVersion: "0.0.1",
  applicationDappDefinitionAddress: "account_tdx_2_1dapp"
}

/** Runs `use` against a Gateway over the given fake. */
export const withGateway = <A, E>(
  fake: ReturnType<typeof fakeHttp>,
  use: (gateway: Gateway["Type"]) => Effect.Effect<A, E>,
  config: Partial<GatewayConfig> = {}
) =>
  Effect.flatMap(Gateway, use).pipe(
    Effect.provide(Gateway.layer({ ...testConfig, ...config }).pipe(Layer.provide(fake.layer)))
  )

export const ledgerState = (stateVersion: number) => ({
  network: "stokenet",
  state_version: stateVersion,
  proposer_round_timestamp: "2024-04-10T08:49:40.926Z",
  epoch: 51653,
  round: 1594
})
