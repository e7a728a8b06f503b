import { FetchHttpClient } from "@effect/platform"
import { BrowserKeyValueStore } from "@effect/platform-browser"
import { Layer } from "effect"
import { AppConfig, type AppConfigShape } from "../config/AppConfig"
import { ExchangeApi, ExchangeApiConfig } from "../../exchange/ExchangeApi"
import { Browser } from "../services/Browser"
import { Toaster } from "../services/Toaster"
import { ValidatorSupport } from "../services/ValidatorSupport"
import { WalletSession } from "../services/WalletSession"

/** The live services graph of the browser app; main.tsx is the only caller. */
export const makeAppLayer = (config: AppConfigShape) => {
  const platform = Layer.mergeAll(FetchHttpClient.layer, BrowserKeyValueStore.layerLocalStorage)
  const exchange = ExchangeApi.Default.pipe(Layer.provide(ExchangeApiConfig.layer({ apiBase: config.apiBase })))
  return Layer.mergeAll(
    AppConfig.layer(config),
    Toaster.Default,
    WalletSession.Disconnected,
    ValidatorSupport.Default,
    Browser.Live,
    exchange
  ).pipe(Layer.provideMerge(platform))
}
