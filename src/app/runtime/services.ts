/** The type of every service the app's runtime holds, apart from the hooks so that the runtime's context can name it without importing them. */
import type { KeyValueStore } from "@effect/platform"
import type { AppConfig } from "../config/AppConfig"
import type { ExchangeApi } from "../../exchange/ExchangeApi"
import type { Gateway } from "../../gateway/tag"
import type { WalletRequest } from "../../toolkit/walletRequestTag"
import type { TradingRoutes } from "../features/aggregator/TradingRoutes"
import type { SwapMachine } from "../features/exchange/machine/SwapMachine"
import type { SwapEvents } from "../features/exchange/SwapEvents"
import type { Browser } from "../services/Browser"
import type { Overlays } from "../services/Overlays"
import type { Toaster } from "../services/Toaster"
import type { VisitStore } from "../services/flags"
import type { UserInput } from "../services/UserInput"
import type { ValidatorSupport } from "../services/ValidatorSupport"
import type { WalletSession } from "../services/WalletSession"
/** Every service a component may reach, through the hooks below and nothing else. */
export type AppServices =
  | AppConfig
  | Toaster
  | Overlays
  | WalletSession
  | ValidatorSupport
  | Browser
  | ExchangeApi
  | SwapEvents
  | SwapMachine
  | TradingRoutes
  | WalletRequest
  | Gateway
  | KeyValueStore.KeyValueStore
  | VisitStore
  | UserInput
