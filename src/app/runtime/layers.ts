import { FetchHttpClient } from "@effect/platform"
import { BrowserKeyValueStore } from "@effect/platform-browser"
import { Layer } from "effect"
import { AppConfig, type AppConfigShape } from "../config/AppConfig"
import { ExchangeApi, ExchangeApiConfig } from "../../exchange/ExchangeApi"
import { Browser } from "../services/Browser"
import { Toaster } from "../services/Toaster"
import { ValidatorSupport } from "../services/ValidatorSupport"
import { WalletSession } from "../services/WalletSession"

/**
 * The app's own services. They need an HttpClient, a KeyValueStore, a WalletSession and a Browser from below:
 * the live platform in the browser, fakes in tests.
 */
export const makeServicesLayer = (config: AppConfigShape) =>
  Layer.mergeAll(
    AppConfig.layer(config),
    Toaster.Default,
    ValidatorSupport.Default,
    ExchangeApi.Default.pipe(Layer.provide(ExchangeApiConfig.layer({ apiBase: config.apiBase })))
  )

/** The browser platform under the services. */
export const BrowserPlatform = Layer.mergeAll(
  FetchHttpClient.layer,
  BrowserKeyValueStore.layerLocalStorage,
  WalletSession.Disconnected,
  Browser.Live
)

/** The live services graph of the browser app; main.tsx is the only caller. */
export const makeAppLayer = (config: AppConfigShape) =>
  makeServicesLayer(config).pipe(Layer.provideMerge(BrowserPlatform))
