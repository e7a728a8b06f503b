import type { TradingRoute } from "./TradingRoutes"

/**
 * Spec §9: the dashboard embed is 600 px high. (The trading iframe's 434 px on wide screens and 430 px on small ones
 * are Tailwind classes in AggregatorPage.tsx, which must be literal for Tailwind to generate them.)
 */
export const DASHBOARD_FRAME_HEIGHT = 600

/** What the embeds may do: run their scripts against their own origin, submit their forms, open links. */
export const TRADING_FRAME_SANDBOX = "allow-scripts allow-same-origin allow-forms allow-popups"
/** The dashboard's tokens view only reads and links out. */
export const DASHBOARD_FRAME_SANDBOX = "allow-scripts allow-same-origin allow-popups"

/**
 * The sandbox for a frame at `src`, seen from a page at `pageOrigin`. A frame served from the page's own origin (the
 * devnet's stand-ins, or a same-origin URL set by configuration) loses `allow-same-origin`: with scripts it could
 * otherwise reach into the app and lift its own sandbox. It then runs in an opaque origin. Another origin keeps its
 * own storage and cookies, which the partner's embed needs, and cannot reach the app either way.
 */
export const frameSandbox = (sandbox: string, src: string, pageOrigin: string): string => {
  let origin: string | undefined
  try {
    origin = new URL(src, pageOrigin).origin
  } catch {
    origin = undefined
  }
  if (origin !== undefined && origin !== pageOrigin) return sandbox
  return sandbox
    .split(" ")
    .filter((token) => token !== "allow-same-origin")
    .join(" ")
}

/** `{tradingUrl}?sell_resource=…&buy_resource=…`, both URL-encoded (an existing query string is kept). */
export const tradingFrameUrl = (tradingUrl: string, route: TradingRoute): string =>
  `${tradingUrl}${tradingUrl.includes("?") ? "&" : "?"}sell_resource=${encodeURIComponent(
    route.sellToken.address
  )}&buy_resource=${encodeURIComponent(route.buyToken.address)}`

/**
 * The partner site that Visit opens: the origin of an absolute trading URL. A path (the devnet's `/devnet/trade`)
 * is our own stand-in for the partner, so Visit opens that page itself rather than the app's home page.
 */
export const partnerSite = (tradingUrl: string): string => {
  if (tradingUrl.startsWith("/")) return tradingUrl
  try {
    return new URL(tradingUrl).origin
  } catch {
    return tradingUrl
  }
}

/** `{dashboardUrl}/account/{address}/tokens`: the wallet dashboard's tokens view of one account. */
export const dashboardTokensUrl = (dashboardUrl: string, account: string): string =>
  `${dashboardUrl}/account/${encodeURIComponent(account)}/tokens`
