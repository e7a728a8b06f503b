import type { LiquidityAsset } from "../../../../exchange/api"

/** A token the swap card can offer (spec §3 "Token entry"). */
export interface TokenEntry {
  readonly symbol: string
  readonly name: string
  readonly resourceAddress: string
  readonly decimals: number
}

/** The built-in tokens: the selector's hUSDC, hETH, hBTC and XRD. */
export const DEFAULT_TOKENS: ReadonlyArray<Omit<TokenEntry, "resourceAddress">> = [
  { symbol: "hUSDC", name: "USD Coin", decimals: 6 },
  { symbol: "hETH", name: "Ethereum", decimals: 18 },
  { symbol: "hBTC", name: "Bitcoin", decimals: 8 },
  { symbol: "XRD", name: "Radix", decimals: 18 }
]

/**
 * The token list: the defaults plus the tokens the exchange supplies (its liquidity assets), keyed by symbol, supplied
 * ones overriding defaults. A token without a resource address on this network is left out.
 */
export const buildTokenList = (
  resources: Readonly<Record<string, string>>,
  supplied: ReadonlyArray<LiquidityAsset>
): ReadonlyArray<TokenEntry> => {
  const bySymbol = new Map<string, TokenEntry>()
  for (const t of DEFAULT_TOKENS) {
    const resourceAddress = resources[t.symbol]
    if (resourceAddress !== undefined) bySymbol.set(t.symbol, { ...t, resourceAddress })
  }
  for (const a of supplied) {
    const known = bySymbol.get(a.symbol)
    bySymbol.set(a.symbol, {
      symbol: a.symbol,
      name: known?.name ?? a.symbol,
      resourceAddress: a.resource_address,
      decimals:
        Number.isInteger(a.decimals) && a.decimals >= 0 && a.decimals <= 18 ? a.decimals : (known?.decimals ?? 18)
    })
  }
  return [...bySymbol.values()]
}
