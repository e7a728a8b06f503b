/**
 * Every brand string of the product lives here. "hSwap" is a working name: rename it in this one module.
 * Links can be overridden at build time through the VITE_BRAND_* variables (see AppConfig).
 */
export const BrandDefaults = {
  name: "hSwap",
  tagline: "Swap, Bridge, Save and Earn",
  website: "https://hswap.app",
  microblogUrl: "https://x.com/hswap_app",
  messagingBotUrl: "https://t.me/hswap_bot",
  /** The site name that opens every swap transaction message: '{site} | Radix | FROM -> TO'. */
  messagePrefix: "hswap.app",
  networkName: "Radix"
} as const

/**
 * The brand name of a build: VITE_BRAND_NAME (trimmed) or the default. The shell paints it before the configuration
 * is decoded (AppConfig reads the same value through this function, so the two never disagree).
 */
export const brandNameFrom = (env: Readonly<Record<string, unknown>>): string => {
  const value = env["VITE_BRAND_NAME"]
  const trimmed = typeof value === "string" ? value.trim() : ""
  return trimmed === "" ? BrandDefaults.name : trimmed
}
