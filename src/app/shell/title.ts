import type { NavPath } from "./nav"

/** Each page's own document title (its heading), before the brand: tabs, bookmarks and history tell pages apart. */
export const PAGE_TITLES: Readonly<Record<NavPath, string>> = {
  "/": "Exchange Wrapped Assets",
  "/swap": "Swap",
  "/bridge": "Cross-Chain Bridge",
  "/hbtc": "hBTC Bridge",
  "/earn": "Earn Rewards",
  "/airdrop": "Airdrop - Season 1",
  "/stats": "Stats",
  "/proof-of-funds": "Proof of Funds"
}

export const NOT_FOUND_TITLE = "Page Not Found"

const isNavPath = (path: string): path is NavPath => Object.hasOwn(PAGE_TITLES, path)

/** '{page} | {brand}' for a path (a trailing slash aside); any other path is the 404 page's. */
export const documentTitle = (pathname: string, brand: string): string => {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname
  return `${isNavPath(path) ? PAGE_TITLES[path] : NOT_FOUND_TITLE} | ${brand}`
}
