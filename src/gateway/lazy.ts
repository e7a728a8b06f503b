/**
 * The Gateway client, loaded on its first call.
 *
 * The lazy client resolves the configuration at once (an unknown network fails here, as `Gateway.make` would), but
 * loads the client (`Gateway.ts`: its endpoints, Schemas and limiter) only when a method is first called; the client
 * is then built once and every call goes to it. A page that has not read the ledger yet does not pay for the client.
 * A failed load is not kept: the call fails with a `GatewayTransportError` and the next call loads again.
 *
 * Two flavours: `makeLazyGatewayWithFetch` sends with `fetch` itself and loads nothing of `@effect/platform` (the
 * app's); `makeLazyGateway` captures the context's `HttpClient` (middleware, test doubles) and loads `platform.ts`.
 */
import type { HttpClient } from "@effect/platform"
import { Effect, Layer } from "effect"
import { type GatewayConfig, resolveGatewayConfig } from "./config"
import { clientNotLoaded, type GatewayTransportError, type UnknownNetworkError } from "./clientErrors"
import type { GatewayService } from "./service"
import { Gateway } from "./tag"

type GatewayModule = typeof import("./Gateway")
type GatewayPlatformModule = typeof import("./platform")

/** The client's module, by dynamic import (its own chunk in a bundle). */
export const loadGatewayModule = (): Promise<GatewayModule> => import("./Gateway")

/** The client's makers over `@effect/platform` (with the client's module), by dynamic import. */
export const loadGatewayPlatformModule = (): Promise<GatewayPlatformModule> => import("./platform")

/** The module `load` gives, or the `GatewayTransportError` of the call that asked for it. */
const loadFor =
  <M>(load: () => Promise<M>) =>
  (path: string): Effect.Effect<M, GatewayTransportError> =>
    Effect.tryPromise({ try: load, catch: (cause) => clientNotLoaded(path, cause) })

type Kind<K extends keyof GatewayService> = K extends "config"
  ? "config"
  : GatewayService[K] extends (...args: never) => unknown
    ? "method"
    : "group"

/**
 * The service's top-level shape. Typed against GatewayService, so a member added to the client fails to compile here
 * until the lazy client knows how to forward it.
 */
const SHAPE: { readonly [K in keyof GatewayService]-?: Kind<K> } = {
  config: "config",
  status: "group",
  transaction: "group",
  stream: "group",
  state: "group",
  statistics: "group",
  extensions: "group",
  dAppName: "method"
}

type AnyMethod = (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown, unknown>

/**
 * The lazy client over `config` that sends with `fetch` itself (see the module's comment). `load` is the client
 * module's loader (the app's loads it in stages, tests pass theirs).
 */
export const makeLazyGatewayWithFetch = (
  config: GatewayConfig,
  load: () => Promise<GatewayModule> = loadGatewayModule
): Effect.Effect<GatewayService, UnknownNetworkError> =>
  makeLazyClient(config, (path) =>
    // The configuration resolved already, so building cannot meet an unknown network.
    Effect.flatMap(loadFor(load)(path), (module) => Effect.orDie(module.makeGatewayWithFetch(config)))
  )

/** The lazy client over `config` and the context's `HttpClient`. `load` is the loader of `platform.ts`. */
export const makeLazyGateway = (
  config: GatewayConfig,
  load: () => Promise<GatewayPlatformModule> = loadGatewayPlatformModule
): Effect.Effect<GatewayService, UnknownNetworkError, HttpClient.HttpClient> =>
  // The context, not the tag: naming `HttpClient.HttpClient` here would put the HTTP client's modules in the app's
  // first-screen files (build/liveStageChunks.ts follows the names a module imports), and the app does not use
  // this flavour.
  Effect.flatMap(Effect.context<HttpClient.HttpClient>(), (context) =>
    makeLazyClient(config, (path) =>
      Effect.flatMap(loadFor(load)(path), (module) => Effect.orDie(module.makeGateway(config))).pipe(
        Effect.provide(context)
      )
    )
  )

/** The lazy client: `build` loads and builds the real one, for the call of `path` that needs it first. */
const makeLazyClient = (
  config: GatewayConfig,
  build: (path: string) => Effect.Effect<GatewayService, GatewayTransportError>
): Effect.Effect<GatewayService, UnknownNetworkError> =>
  Effect.gen(function* () {
    const resolved = yield* resolveGatewayConfig(config)
    const lock = yield* Effect.makeSemaphore(1)
    let service: GatewayService | undefined

    /** The real client: built by the first call, once (calls that arrive meanwhile wait for it). */
    const real = (path: string): Effect.Effect<GatewayService, GatewayTransportError> =>
      Effect.suspend(() =>
        service !== undefined
          ? Effect.succeed(service)
          : lock.withPermits(1)(
              Effect.suspend(() =>
                service !== undefined
                  ? Effect.succeed(service)
                  : Effect.tap(build(path), (built) => {
                      service = built
                    })
              )
            )
      )

    const forward = (path: string, pick: (s: GatewayService) => unknown): AnyMethod => {
      return (...args) =>
        Effect.flatMap(real(path), (s) => {
          const method = pick(s)
          if (typeof method !== "function") return Effect.dieMessage(`Gateway: ${path} is not a method of the client`)
          return (method as AnyMethod)(...args)
        })
    }

    const group = (name: string): unknown => {
      const methods = new Map<string, AnyMethod>()
      return new Proxy(
        {},
        {
          get: (_, key) => {
            if (typeof key !== "string") return undefined
            let method = methods.get(key)
            if (method === undefined) {
              method = forward(
                `${name}.${key}`,
                (s) => (s as unknown as Record<string, Record<string, unknown>>)[name]?.[key]
              )
              methods.set(key, method)
            }
            return method
          },
          has: (_, key) => typeof key === "string"
        }
      )
    }

    const lazy: Record<string, unknown> = {}
    for (const [key, kind] of Object.entries(SHAPE))
      lazy[key] =
        kind === "config"
          ? resolved
          : kind === "method"
            ? forward(key, (s) => (s as unknown as Record<string, unknown>)[key])
            : group(key)
    return lazy as unknown as GatewayService
  })

/** The lazy client over the context's `HttpClient` as the Gateway service's layer. */
export const lazyGateway = (
  config: GatewayConfig,
  load: () => Promise<GatewayPlatformModule> = loadGatewayPlatformModule
): Layer.Layer<Gateway, UnknownNetworkError, HttpClient.HttpClient> =>
  Layer.effect(Gateway, makeLazyGateway(config, load))

/** The lazy client over `fetch` as the Gateway service's layer: nothing of `@effect/platform` (the app's). */
export const lazyGatewayWithFetch = (
  config: GatewayConfig,
  load: () => Promise<GatewayModule> = loadGatewayModule
): Layer.Layer<Gateway, UnknownNetworkError> => Layer.effect(Gateway, makeLazyGatewayWithFetch(config, load))
