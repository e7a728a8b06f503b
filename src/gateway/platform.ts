/**
 * The Gateway client's makers that use `@effect/platform`: over any `HttpClient` (`Gateway.layer`), and over `fetch`
 * with `FetchHttpClient`'s `Fetch` and `RequestInit` tags honoured (`Gateway.layerFetch`, the server's). Apart from
 * `Gateway.ts` so that the app's client over `fetch` (`makeGatewayWithFetch`) does not load `@effect/platform`.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Effect, Option } from "effect"
import type { GatewayConfig } from "./config"
import type { UnknownNetworkError } from "./errors"
import { makeGatewayOver, makeGatewayWithFetch } from "./Gateway"
import type { GatewayService } from "./service"
import { httpClientTransport } from "./httpClientTransport"

/** Builds a Gateway client over whatever `HttpClient` is provided (middleware, a test double). */
export const makeGateway = (
  config: GatewayConfig
): Effect.Effect<GatewayService, UnknownNetworkError, HttpClient.HttpClient> =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    makeGatewayOver(config, (resolved) =>
      httpClientTransport({ client, basePath: resolved.basePath, headers: resolved.headers })
    )
  )

/**
 * Builds a Gateway client that sends with `fetch` itself, with no fiber per request: the cheapest per request
 * (bench:gateway). It uses the `fetch` and `RequestInit` of `FetchHttpClient.Fetch` / `FetchHttpClient.RequestInit`
 * when the context it is built in has them, else `globalThis.fetch`.
 */
export const makeGatewayFetch = (config: GatewayConfig): Effect.Effect<GatewayService, UnknownNetworkError> =>
  Effect.gen(function* () {
    const fetch = yield* Effect.serviceOption(FetchHttpClient.Fetch)
    const init = yield* Effect.serviceOption(FetchHttpClient.RequestInit)
    return yield* makeGatewayWithFetch(config, {
      fetch: Option.getOrUndefined(fetch),
      init: Option.getOrUndefined(init)
    })
  })
