/**
 * Toolkit.layer(config): the whole toolkit graph. It needs an `HttpClient` (the Gateway and the relay) and a
 * `KeyValueStore` (localStorage in the app), and runs against the browser environment.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Context, Layer, Option } from "effect"
import { Gateway } from "../gateway/tag"
import { resolveConfig, ToolkitConfig, type ToolkitOptions } from "./config"
import { Crypto } from "./crypto"
import { Environment } from "./environment"
import { Extension } from "./extension"
import { ToolkitGateway } from "./gateway"
import { Relay } from "./relay"
import { Storage } from "./storage"
import { WalletRequest } from "./walletRequestTag"

export interface ToolkitParts {
  /** Default: the browser (`Environment.Browser`). */
  readonly environment?: Layer.Layer<Environment>
  /** Default: WebCrypto randomness (`Crypto.Live`). */
  readonly crypto?: Layer.Layer<Crypto>
  /** Default: the real Gateway client at the configured gateway URL. */
  readonly gateway?: Layer.Layer<ToolkitGateway>
}

const gatewayFor = (options: ToolkitOptions) => {
  const resolved = resolveConfig(options)
  return ToolkitGateway.fromGateway.pipe(
    Layer.provide(
      Gateway.layer({
        networkId: resolved.networkId,
        basePath: resolved.gatewayBaseUrl,
        applicationName: resolved.applicationName,
        applicationVersion: resolved.applicationVersion,
        applicationDappDefinitionAddress: resolved.dAppDefinitionAddress
      }).pipe(Layer.orDie)
    )
  )
}

/**
 * The `HttpClient` of `context` when it has one (tests, middleware), else `fetch` (`FetchHttpClient`). The lazy
 * toolkit (lazy.ts) gives the real one this, so the first screen needs no HTTP client of its own.
 */
export const httpClientFrom = (context: Context.Context<never>): Layer.Layer<HttpClient.HttpClient> =>
  Option.match(Context.getOption(context, HttpClient.HttpClient), {
    onNone: () => FetchHttpClient.layer,
    onSome: (client) => Layer.succeed(HttpClient.HttpClient, client)
  })

export const Toolkit = {
  /** The whole graph, over the browser environment. */
  layer: (options: ToolkitOptions) => Toolkit.layerWith(options, {}),
  /** The whole graph with some parts swapped (tests, the devnet). */
  layerWith: (options: ToolkitOptions, parts: ToolkitParts) => {
    const base = Layer.mergeAll(
      Storage.Default,
      parts.crypto ?? Crypto.Live,
      parts.environment ?? Environment.Browser,
      parts.gateway ?? gatewayFor(options)
    ).pipe(Layer.provideMerge(ToolkitConfig.layer(options)))
    const transports = Layer.mergeAll(Extension.Default, Relay.Default).pipe(Layer.provideMerge(base))
    return WalletRequest.Default.pipe(Layer.provideMerge(transports))
  }
} as const
