import { KeyValueStore } from "@effect/platform"
import { BrowserKeyValueStore } from "@effect/platform-browser"
import { Layer } from "effect"
import { AppConfig, type AppConfigShape } from "../config/AppConfig"
import { APPLICATION_VERSION, gatewayConfigOf } from "../config/gateway"
import { ExchangeApi, ExchangeApiConfig } from "../../exchange/ExchangeApi"
import { ApiHttp } from "../../exchange/http"
import { lazyTradingRoutes } from "../features/aggregator/lazyRoutes"
import type { TradingRoutes, TradingRoutesNeeds } from "../features/aggregator/routesTag"
import { Celebration, SwapWallet } from "../features/exchange/machine/ports"
import { SwapMachine } from "../features/exchange/machine/SwapMachine"
import { SwapEvents } from "../features/exchange/SwapEvents"
import { Browser } from "../services/Browser"
import { VisitStore } from "../services/flags"
import { Overlays } from "../services/Overlays"
import { Toaster } from "../services/Toaster"
import { UserInput } from "../services/UserInput"
import { ValidatorSupport } from "../services/ValidatorSupport"
import { WalletSessionLive } from "../services/WalletSessionLive"
import { importInStages } from "./inStages"
import type { UnknownNetworkError } from "../../gateway/errors"
import type { GatewayConfig } from "../../gateway/config"
import { lazyGatewayWithFetch } from "../../gateway/lazy"
import type { Gateway } from "../../gateway/tag"
import { ToolkitGateway } from "../../toolkit/gateway"
import { lazyWalletRequest } from "../../toolkit/lazy"
import type { ToolkitParts } from "../../toolkit/toolkit"

/**
 * The app's own services. They need an HttpClient, a KeyValueStore, a WalletSession and a Browser from below:
 * the live platform in the browser, fakes in tests. The trading routes load their code on first use unless told
 * otherwise (features/aggregator/lazyRoutes.ts).
 */
export const makeServicesLayer = (
  config: AppConfigShape,
  routes: Layer.Layer<TradingRoutes, never, TradingRoutesNeeds> = lazyTradingRoutes
) =>
  routes.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        AppConfig.layer(config),
        Toaster.Default,
        Overlays.Default,
        SwapEvents.Default,
        ValidatorSupport.Default,
        UserInput.Live,
        ExchangeApi.Default.pipe(Layer.provide(ExchangeApiConfig.layer({ apiBase: config.apiBase })))
      )
    )
  )

/**
 * The browser platform under the services. No `HttpClient`: the product API client, the Gateway client and the
 * toolkit's relay send with `fetch` itself, so a first visit does not load `@effect/platform`'s HTTP client.
 */
export const BrowserPlatform = Layer.mergeAll(
  BrowserKeyValueStore.layerLocalStorage,
  Layer.effect(VisitStore, KeyValueStore.KeyValueStore).pipe(Layer.provide(BrowserKeyValueStore.layerSessionStorage)),
  Browser.Live,
  ApiHttp.fetch
)

/**
 * The Gateway client's module (loaded on its first call, gateway/lazy.ts) in stages, each evaluated in a task of its
 * own (runtime/inStages.ts): its largest Schemas first, then the client.
 */
export const loadGatewayInStages = () =>
  importInStages(
    [() => import("../../gateway/schemas/state").then((m) => m.FungibleResourcesCollectionItem)],
    () => import("../../gateway/Gateway")
  )

export { APPLICATION_VERSION, gatewayConfigOf } from "../config/gateway"

/**
 * The Gateway client and the wallet-connector toolkit for the configured network. Both load their implementation on
 * first use (gateway/lazy.ts, toolkit/lazy.ts), so the first screen of a first visit does not fetch them: the Gateway
 * client with its first read, the toolkit with the first wallet action (or at once for a stored session). The toolkit
 * reads the ledger through the app's Gateway client, which sends with `fetch` itself.
 */
export const makeLedgerLayer = (config: AppConfigShape) =>
  makeLedgerParts(config, {}, (gateway) => lazyGatewayWithFetch(gateway, loadGatewayInStages))

/**
 * The same, with toolkit parts and the Gateway client's layer given (tests run it in a test environment with seeded
 * crypto, and the client over their fake HttpClient), and optionally the toolkit module's loader (a slow network).
 */
export const makeLedgerParts = <R>(
  config: AppConfigShape,
  parts: ToolkitParts,
  gatewayLayer: (gateway: GatewayConfig) => Layer.Layer<Gateway, UnknownNetworkError, R>,
  loadToolkitModule?: Parameters<typeof lazyWalletRequest>[2]
) => {
  const gateway = gatewayLayer(gatewayConfigOf(config)).pipe(Layer.orDie)
  const toolkit = lazyWalletRequest(
    {
      networkId: config.networkId,
      dAppDefinitionAddress: config.dAppDefinitionAddress,
      applicationName: config.brand.name,
      applicationVersion: APPLICATION_VERSION,
      gatewayBaseUrl: config.gatewayUrl,
      relayUrl: config.relayUrl
    },
    { ...parts, gateway: parts.gateway ?? ToolkitGateway.fromGateway.pipe(Layer.provide(gateway)) },
    loadToolkitModule
  )
  return Layer.mergeAll(gateway, toolkit)
}

/** The swap card's machine, over the wallet (through the toolkit) and the celebration. Needs a WalletSession. */
export const makeSwapLayer = (celebration: Layer.Layer<Celebration> = Celebration.Live) =>
  SwapMachine.Default.pipe(Layer.provideMerge(Layer.mergeAll(SwapWallet.Live, celebration)))

/**
 * The live services graph of the browser app; the live chunk's boot (live.tsx) is the only caller, and builds it into
 * a runtime that runs Effect's work in time slices (runtime/scheduler.ts makeSlicedRuntime), so no task of it holds
 * the main thread for long.
 */
export const makeAppLayer = (config: AppConfigShape) => {
  const ledger = makeLedgerLayer(config).pipe(Layer.provideMerge(BrowserPlatform))
  const services = makeServicesLayer(config).pipe(Layer.provideMerge(ledger))
  return makeSwapLayer().pipe(Layer.provideMerge(WalletSessionLive.pipe(Layer.provideMerge(services))))
}
