/**
 * The toolkit, loaded when the wallet is first used.
 *
 * `lazyWalletRequest(options, parts)` provides WalletRequest without loading the request machinery, the transports,
 * the storage Schemas and the relay: a dApp's first screen only needs to know that no wallet is connected, which
 * storage can tell without decoding anything. The whole toolkit (`Toolkit.layerWith`) is loaded and built, once, in
 * the layer's scope:
 * - at once, when storage holds a session or request items (a returning visitor: the button shows what was shared);
 * - on the first request (connect, a transaction, a cancel, a disconnect, the QR popup) or `prepare` (the dApp's
 *   sign of intent: the pointer on the connect button);
 * - when another tab writes a session or a request into storage.
 * Until then it answers as the real service would with nothing stored: no wallet data, no request items, the button
 * at `default`, the extension not yet heard from (as the extension transport says until its probe is answered).
 * With a stored session the streams wait for the real service rather than showing "not connected" first.
 */
import { KeyValueStore } from "@effect/platform"
import { Cause, Context, Effect, Exit, Layer, Option, Runtime, type Scope, Stream, SubscriptionRef } from "effect"
import { emptyWalletData, resolveConfig, storageKey, type ToolkitOptions } from "./config"
import { Environment } from "./environment"
import { FailedToSendDappRequest } from "./transportErrors"
import type { ExtensionStatus } from "./extension"
import { ToolkitGateway } from "./gateway"
import type { RequestItem, SharedData } from "./schemas"
import type { ToolkitParts } from "./toolkit"
import { type ButtonStatus, WalletRequest, type WalletRequestApi } from "./walletRequestTag"

type ToolkitModule = typeof import("./toolkit")

/**
 * As `ToolkitParts`, with the Gateway part given: the dApp's own client (the app's is lazy itself, gateway/lazy.ts),
 * so that this module, on every first screen, loads no Gateway client of its own.
 */
export interface LazyToolkitParts<R = never> extends Omit<ToolkitParts, "gateway"> {
  readonly gateway: Layer.Layer<ToolkitGateway, never, R>
}

/** The toolkit module, by dynamic import (its own chunk in a bundle). */
export const loadToolkit = (): Promise<ToolkitModule> => import("./toolkit")

/** What the extension transport reports before its probe is answered. */
const notHeardFrom: ExtensionStatus = { isExtensionAvailable: false, isWalletLinked: false, canHandleSessions: false }

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x)
const isEmptyList = (x: unknown) => x === undefined || (Array.isArray(x) && x.length === 0)

/** What storage holds, parsed; undefined when it is not JSON (the real toolkit reports and resets that). */
const parse = (raw: string): unknown => {
  try {
    return JSON.parse(raw) as unknown
  } catch {
    return undefined
  }
}

/**
 * The account addresses of a stored state (`rdt:…:state`), in order; undefined when it holds none or is unreadable.
 * Only `JSON.parse` runs here, as in {@link storedSessionNeedsToolkit}.
 */
export const storedAccounts = (raw: string): ReadonlyArray<string> | undefined => {
  const stored = parse(raw)
  const walletData = isObject(stored) ? stored["walletData"] : undefined
  const accounts = isObject(walletData) ? walletData["accounts"] : undefined
  if (!Array.isArray(accounts) || accounts.length === 0) return undefined
  const addresses = accounts.map((a: unknown) => (isObject(a) ? a["address"] : undefined))
  return addresses.every((a): a is string => typeof a === "string") ? addresses : undefined
}

/**
 * Whether what storage holds needs the real toolkit at once: a wallet session (accounts, a persona, persona data or
 * proofs) or any request item. Anything unreadable counts too, so the real Storage reports and resets it. Only
 * `JSON.parse` runs here; the real toolkit decodes what it reads.
 */
export const storedSessionNeedsToolkit = (state: Option.Option<string>, requests: Option.Option<string>): boolean => {
  if (Option.isSome(requests)) {
    const items = parse(requests.value)
    if (!isObject(items) || Object.keys(items).length > 0) return true
  }
  if (Option.isSome(state)) {
    const stored = parse(state.value)
    if (!isObject(stored)) return true
    const walletData = stored["walletData"]
    if (walletData === undefined) return false
    if (!isObject(walletData)) return true
    return !(
      isEmptyList(walletData["accounts"]) &&
      isEmptyList(walletData["personaData"]) &&
      isEmptyList(walletData["proofs"]) &&
      walletData["persona"] === undefined
    )
  }
  return false
}

type Loaded =
  /** Nothing stored and nothing asked: the real toolkit is not needed yet. */
  { readonly _tag: "Idle" } | { readonly _tag: "Loading" } | { readonly _tag: "Ready"; readonly api: WalletRequestApi }

const loadFailed = (cause: unknown) =>
  new FailedToSendDappRequest({ message: "the wallet toolkit could not be loaded", cause })

/**
 * The lazy WalletRequest (see the module's comment). `parts` as `Toolkit.layerWith`, the Gateway part given. `load` is
 * the toolkit module's loader (tests pass their own). The relay sends with the context's `HttpClient` when it has one
 * (tests, middleware), else with `fetch` (`FetchHttpClient`, loaded with the toolkit): the first screen does not load
 * `@effect/platform`'s HTTP client for a wallet nobody has asked for yet.
 */
export const makeLazyWalletRequest = <R = never>(
  options: ToolkitOptions,
  parts: LazyToolkitParts<R>,
  load: () => Promise<ToolkitModule> = loadToolkit
): Effect.Effect<WalletRequestApi, never, KeyValueStore.KeyValueStore | R | Scope.Scope> =>
  Effect.gen(function* () {
    const config = resolveConfig(options)
    const scope = yield* Effect.scope
    const platform = yield* Effect.context<KeyValueStore.KeyValueStore | R>()
    const kv = Context.get(platform, KeyValueStore.KeyValueStore)
    // Built here and handed to the real toolkit, so both see the same environment and the same Gateway client.
    const environment = yield* Layer.buildWithScope(parts.environment ?? Environment.Browser, scope)
    const env = Context.get(environment, Environment)
    const gatewayContext = yield* Layer.buildWithScope(parts.gateway, scope).pipe(Effect.provide(platform))
    const gateway = Context.get(gatewayContext, ToolkitGateway)

    const loaded = yield* SubscriptionRef.make<Loaded>({ _tag: "Idle" })
    const lock = yield* Effect.makeSemaphore(1)

    const build = Effect.gen(function* () {
      const module = yield* Effect.tryPromise({ try: load, catch: loadFailed })
      const layer = module.Toolkit.layerWith(options, {
        environment: Layer.succeedContext(environment),
        gateway: Layer.succeedContext(gatewayContext),
        ...(parts.crypto === undefined ? {} : { crypto: parts.crypto })
      })
      const context = yield* Layer.buildWithScope(
        layer.pipe(Layer.provide(module.httpClientFrom(platform))),
        scope
      ).pipe(Effect.provide(platform))
      return Context.get(context, WalletRequest)
    }).pipe(Effect.catchAllDefect((defect) => Effect.fail(loadFailed(defect))))

    /** The real service: built on the first call, once; a failed load is not kept, so the next call tries again. */
    const real: Effect.Effect<WalletRequestApi, FailedToSendDappRequest> = lock.withPermits(1)(
      Effect.flatMap(SubscriptionRef.get(loaded), (current) =>
        current._tag === "Ready"
          ? Effect.succeed(current.api)
          : SubscriptionRef.set(loaded, { _tag: "Loading" }).pipe(
              Effect.zipRight(build),
              Effect.onExit((exit) =>
                SubscriptionRef.set<Loaded>(
                  loaded,
                  Exit.isSuccess(exit) ? { _tag: "Ready", api: exit.value } : { _tag: "Idle" }
                )
              )
            )
      )
    )

    /** Loads in the background (a stored session, another tab's write, the dApp's `prepare`). */
    const loadInBackground = (why: string) =>
      Effect.forkIn(
        real.pipe(
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause)
              ? Effect.void
              : Effect.logWarning(`toolkit: could not load the wallet toolkit (${why})`, cause)
          )
        ),
        scope
      ).pipe(Effect.asVoid)

    const readStored = Effect.all([
      kv.get(storageKey(config.dAppDefinitionAddress, config.networkId, "state")),
      kv.get(storageKey(config.dAppDefinitionAddress, config.networkId, "requests"))
    ]).pipe(
      Effect.map(([state, requests]) => storedSessionNeedsToolkit(state, requests)),
      // Storage that cannot be read is the real Storage's to report.
      Effect.orElseSucceed(() => true)
    )
    if (yield* readStored) {
      yield* SubscriptionRef.set(loaded, { _tag: "Loading" })
      yield* loadInBackground("a stored session")
    }

    // Another tab connected or sent a request: this one follows, as the real toolkit's sweep would.
    const prefix = `rdt:${config.dAppDefinitionAddress}:${config.networkId}:`
    const runtime = yield* Effect.runtime<never>()
    const runFork = Runtime.runFork(runtime)
    const onStorage = (event: Event) => {
      const key = (event as { readonly key?: unknown }).key
      if (typeof key !== "string" || !key.startsWith(prefix)) return
      runFork(
        Effect.flatMap(SubscriptionRef.get(loaded), (current) =>
          current._tag === "Idle"
            ? Effect.flatMap(readStored, (needed) => (needed ? loadInBackground("another tab") : Effect.void))
            : Effect.void
        )
      )
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => env.events.addEventListener("storage", onStorage)),
      () => Effect.sync(() => env.events.removeEventListener("storage", onStorage))
    )

    /** A stream of the real service once it is there, `idle` while nothing needs it, nothing while it loads. */
    const follow = <A>(pick: (api: WalletRequestApi) => Stream.Stream<A>, idle: A): Stream.Stream<A> =>
      loaded.changes.pipe(
        Stream.flatMap(
          (current) =>
            current._tag === "Ready" ? pick(current.api) : current._tag === "Idle" ? Stream.make(idle) : Stream.empty,
          { switch: true }
        ),
        Stream.changes
      )
    /** Waits, loading nothing, until something needs the real service (it is loading or loaded). */
    const whenNeeded: Effect.Effect<void> = loaded.changes.pipe(
      Stream.filter((current) => current._tag !== "Idle"),
      Stream.runHead,
      Effect.asVoid
    )
    /** The real service's value once it is there or loading; `idle` while nothing needs it. */
    const read = <A>(pick: (api: WalletRequestApi) => Effect.Effect<A>, idle: A): Effect.Effect<A> =>
      Effect.flatMap(SubscriptionRef.get(loaded), (current) =>
        current._tag === "Idle"
          ? Effect.succeed(idle)
          : real.pipe(
              Effect.flatMap(pick),
              Effect.orElseSucceed(() => idle)
            )
      )

    const api: WalletRequestApi = {
      config,
      connect: () => Effect.flatMap(real, (wr) => wr.connect()),
      sendRequest: (dataRequest) => Effect.flatMap(real, (wr) => wr.sendRequest(dataRequest)),
      sendOneTimeRequest: (dataRequest) => Effect.flatMap(real, (wr) => wr.sendOneTimeRequest(dataRequest)),
      updateSharedAccounts: () => Effect.flatMap(real, (wr) => wr.updateSharedAccounts()),
      sendTransaction: (input) => Effect.flatMap(real, (wr) => wr.sendTransaction(input)),
      sendPreAuthorizationRequest: (subintent) =>
        Effect.flatMap(real, (wr) => wr.sendPreAuthorizationRequest(subintent)),
      // Without the toolkit there is no request of this tab to cancel, ignore or disconnect: each is told so.
      cancelRequest: (interactionId) =>
        real.pipe(
          Effect.flatMap((wr) => wr.cancelRequest(interactionId)),
          Effect.catchTag("FailedToSendDappRequest", (e) =>
            Effect.as(Effect.logWarning("toolkit: cancel", e), "requestCancelFail" as const)
          )
        ),
      ignoreTransaction: (interactionId) =>
        real.pipe(
          Effect.flatMap((wr) => wr.ignoreTransaction(interactionId)),
          Effect.catchTag("FailedToSendDappRequest", (e) => Effect.logWarning("toolkit: ignore", e))
        ),
      disconnect: () =>
        real.pipe(
          Effect.flatMap((wr) => wr.disconnect()),
          Effect.catchTag("FailedToSendDappRequest", (e) => Effect.logWarning("toolkit: disconnect", e))
        ),
      openPopup: real.pipe(
        Effect.flatMap((wr) => wr.openPopup),
        Effect.catchTag("FailedToSendDappRequest", (e) =>
          Effect.as(Effect.logWarning("toolkit: QR code popup", e), false)
        )
      ),
      // Read once the toolkit is needed (loading or loaded), without loading it: the name is the connect popover's
      // title, and reading it earlier would load the Gateway client on every first visit for nothing shown.
      dAppName: Effect.zipRight(
        whenNeeded,
        gateway.dAppName(config.dAppDefinitionAddress).pipe(Effect.orElseSucceed(() => "Unnamed dApp"))
      ),
      getWalletData: read((wr) => wr.getWalletData, emptyWalletData),
      getRequestItems: read((wr) => wr.getRequestItems, [] as ReadonlyArray<RequestItem>),
      getButtonStatus: read((wr) => wr.getButtonStatus, "default" as ButtonStatus),
      walletData: follow((wr) => wr.walletData, emptyWalletData),
      sharedData: follow((wr) => wr.sharedData, {} as SharedData),
      requestItems: follow((wr) => wr.requestItems, [] as ReadonlyArray<RequestItem>),
      buttonStatus: follow((wr) => wr.buttonStatus, "default" as ButtonStatus),
      extensionStatus: follow((wr) => wr.extensionStatus, notHeardFrom),
      isMobile: Stream.make(env.isMobile),
      prepare: Effect.flatMap(SubscriptionRef.get(loaded), (current) =>
        current._tag === "Idle" ? loadInBackground("prepare") : Effect.void
      )
    }
    return api
  })

/** The lazy WalletRequest as a layer (see {@link makeLazyWalletRequest}). */
export const lazyWalletRequest = <R = never>(
  options: ToolkitOptions,
  parts: LazyToolkitParts<R>,
  load: () => Promise<ToolkitModule> = loadToolkit
): Layer.Layer<WalletRequest, never, KeyValueStore.KeyValueStore | R> =>
  Layer.scoped(WalletRequest, makeLazyWalletRequest(options, parts, load))
