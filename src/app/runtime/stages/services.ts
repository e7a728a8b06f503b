// Stage 5 of the live half (see shell/islands.tsx): the app's services (the exchange API, the swap machine).
export { AppConfig } from "../../config/AppConfig"
export { ExchangeApi } from "../../../exchange/ExchangeApi"
export { SwapMachine } from "../../features/exchange/machine/SwapMachine"
