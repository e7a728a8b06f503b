import { Duration, Effect, Stream } from "effect"
import { ExchangeApi, type ExchangeError, serverMessage } from "../../../exchange/ExchangeApi"
import { polled } from "../../runtime/remote"

/** Spec §9: the Bitcoin price is fetched on load and every 600,000 ms. */
export const BTC_PRICE_REFRESH = Duration.millis(600_000)

/** The spec's words for a failed price call (§8). */
export const btcPriceErrorMessage = (error: ExchangeError): string => {
  switch (error._tag) {
    case "FetchTransportError":
      return "Network error while fetching Bitcoin price"
    case "FetchStatusError":
      return serverMessage(error) ?? "Failed to fetch Bitcoin price"
    default:
      return "Failed to fetch Bitcoin price"
  }
}

export const btcPriceStream = Stream.unwrap(
  Effect.map(ExchangeApi, (api) =>
    polled(api.btcPrice.pipe(Effect.tapError((e) => Effect.logWarning(btcPriceErrorMessage(e)))), BTC_PRICE_REFRESH)
  )
)
