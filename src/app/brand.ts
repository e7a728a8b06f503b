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
