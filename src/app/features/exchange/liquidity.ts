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

/** `GET {api}/api/liquidity` once: the liquidity dialog loads it on opening and on its refresh control. */
export const loadLiquidity: Effect.Effect<LiquidityResponse, ExchangeServiceError, ExchangeApi> = Effect.flatMap(
  ExchangeApi,
  (api) => api.liquidity
)

/** Spec §8: the liquidity dialog's two error texts; an answer of the wrong shape is the second. */
export const LIQUIDITY_LOAD_FAILED = "Failed to load liquidity data"
export const LIQUIDITY_INVALID_RESPONSE = "Invalid response format from API"

export const liquidityErrorMessage = (error: ExchangeServiceError | undefined): string =>
  error?._tag === "ExchangeDecodeError" ? LIQUIDITY_INVALID_RESPONSE : LIQUIDITY_LOAD_FAILED

/** Spec §9: display digits by asset type: 2 for USD-type assets, 4 for ETH-type, 6 for BTC-type (2 otherwise). */
export const liquidityDigits = (symbol: string): number =>
  /USD/i.test(symbol) ? 2 : /ETH/i.test(symbol) ? 4 : /BTC/i.test(symbol) ? 6 : 2

/** Spec §9: an allocation of 45% or more is highlighted. */
export const HIGH_ALLOCATION_PERCENT = 45

/** The native token first (it is the exchange's gas balance), the others in the server's order. */
export const nativeFirst = (
  assets: ReadonlyArray<LiquidityAsset>,
  nativeResource: string | undefined
): ReadonlyArray<LiquidityAsset & { readonly native: boolean }> => {
  const tagged = assets.map((a) => ({
    ...a,
    native: a.symbol === "XRD" || (nativeResource !== undefined && a.resource_address === nativeResource)
  }))
  return [...tagged.filter((a) => a.native), ...tagged.filter((a) => !a.native)]
}
