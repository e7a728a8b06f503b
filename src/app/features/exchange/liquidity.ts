import { Duration, Effect, Stream } from "effect"
import type { LiquidityAsset, LiquidityResponse } from "../../../exchange/api"
import { ExchangeApi, type ExchangeServiceError } from "../../../exchange/ExchangeApi"
import { polled, type Remote } from "../../runtime/remote"

/** Spec §7/§9: the swap card re-fetches `GET {api}/api/liquidity` every 30 s. */
export const LIQUIDITY_REFRESH = Duration.seconds(30)

export type LiquidityRemote = Remote<LiquidityResponse, ExchangeServiceError>

/**
 * The exchange's liquidity: loads when subscribed, then every 30 s on Effect's Clock for as long as it is consumed.
 * A failed load is a value (`Failure`); the poll goes on.
 */
export const liquidityStream: Stream.Stream<LiquidityRemote, never, ExchangeApi> = Stream.unwrap(
  Effect.map(ExchangeApi, (api) =>
    polled(api.liquidity.pipe(Effect.tapError((e) => Effect.logWarning("liquidity failed", e))), LIQUIDITY_REFRESH)
  )
)

const assetOf = (response: LiquidityResponse | undefined, symbol: string): LiquidityAsset | undefined =>
  response?.assets.find((a) => a.symbol === symbol)

/**
 * The exchange's liquidity of `symbol` (a decimal string), or undefined when there is no data for it: the 5%
 * margin check then passes (spec §5). Accepts a response, a `Remote` of one, or nothing.
 */
export const liquidityOf = (
  response: LiquidityResponse | LiquidityRemote | undefined,
  symbol: string
): string | undefined => {
  if (response === undefined) return undefined
  if ("_tag" in response) return response._tag === "Success" ? assetOf(response.value, symbol)?.amount : undefined
  return assetOf(response, symbol)?.amount
}
