/**
 * The Gateway service's tag, apart from its implementation (`Gateway.ts`). Code that only asks for the service (the
 * app's swap machine, its wallet session) imports this module and does not pull the client, its endpoints and its
 * Schemas into its bundle; `Gateway.make` / `Gateway.layer` load the implementation when they are built.
 */
import type { HttpClient } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import type { GatewayConfig } from "./config"
import type { UnknownNetworkError } from "./errors"
import type { GatewayService } from "./service"

/**
 * The Radix Gateway API client. `Gateway.layer(config)` needs only an `HttpClient`; `Gateway.layerFetch(config)` needs
 * nothing and sends with `fetch` itself.
 */
export class Gateway extends Context.Tag("hswap/Gateway")<Gateway, GatewayService>() {
  static readonly make = (
    config: GatewayConfig
  ): Effect.Effect<GatewayService, UnknownNetworkError, HttpClient.HttpClient> =>
    Effect.flatMap(
      Effect.promise(() => import("./platform")),
      (implementation) => implementation.makeGateway(config)
    )
  static readonly layer = (config: GatewayConfig): Layer.Layer<Gateway, UnknownNetworkError, HttpClient.HttpClient> =>
    Layer.effect(Gateway, Gateway.make(config))
  /**
   * The client over `fetch` itself, with no fiber per request (the cheapest per request; see `makeGatewayFetch` in
   * `platform.ts`). Uses `FetchHttpClient.Fetch` / `FetchHttpClient.RequestInit` when the context provides them.
   */
  static readonly makeFetch = (config: GatewayConfig): Effect.Effect<GatewayService, UnknownNetworkError> =>
    Effect.flatMap(
      Effect.promise(() => import("./platform")),
      (implementation) => implementation.makeGatewayFetch(config)
    )
  static readonly layerFetch = (config: GatewayConfig): Layer.Layer<Gateway, UnknownNetworkError> =>
    Layer.effect(Gateway, Gateway.makeFetch(config))
}
