/** Sidebar navigation (spec app §2), in this order; Proof of Funds is the highlighted entry at the bottom. */
export const NAV_ITEMS = [
  { id: "exchange", label: "Exchange hAssets", to: "/", soon: false },
  { id: "swap", label: "Swap", to: "/swap", soon: false },
  { id: "bridge", label: "Bridge", to: "/bridge", soon: false },
  { id: "hbtc", label: "hBTC bridge", to: "/hbtc", soon: true },
  { id: "earn", label: "Earn", to: "/earn", soon: true },
  { id: "airdrop", label: "Airdrop", to: "/airdrop", soon: false },
  { id: "stats", label: "Stats", to: "/stats", soon: false }
] as const

export const PROOF_OF_FUNDS_ITEM = { id: "proof-of-funds", label: "Proof of Funds", to: "/proof-of-funds" } as const

export type NavPath = (typeof NAV_ITEMS)[number]["to"] | typeof PROOF_OF_FUNDS_ITEM.to

/** The look of every sidebar entry. */
export const sidebarLinkBase =
  "flex items-center justify-between rounded-lg px-3 py-2 text-sm transition focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
