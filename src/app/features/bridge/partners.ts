/** A partner bridge (spec app §3 "Bridge partner"). */
export interface BridgePartner {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly logo: string
  readonly website: string
  readonly supportedAssets: ReadonlyArray<string>
  readonly features: ReadonlyArray<string>
  readonly status: "live" | "in-development"
}

export const BRIDGE_ASSETS = ["hETH", "hWBTC", "hUSDC", "hUSDT"] as const
export const BRIDGE_NETWORKS = ["Ethereum", "Arbitrum", "Base"] as const

export const BRIDGE_PARTNERS: ReadonlyArray<BridgePartner> = [
  {
    id: "hyperlane-nexus",
    name: "Hyperlane Nexus",
    description: "The Hyperlane bridge UI: move ETH, WBTC, USDC and USDT to Radix as hAssets, and back.",
    logo: "H",
    website: "https://nexus.hyperlane.xyz",
    supportedAssets: BRIDGE_ASSETS,
    features: ["Permissionless warp routes", "Ethereum, Arbitrum and Base", "No wrapped-token custodian"],
    status: "live"
  },
  {
    id: "astrolescent",
    name: "Astrolescent",
    description: "Radix's aggregator with a built-in bridge flow: bridge in and swap to any Radix token in one go.",
    logo: "A",
    website: "https://astrolescent.com",
    supportedAssets: BRIDGE_ASSETS,
    features: ["Bridge and swap in one flow", "Best-route aggregation on Radix", "Ethereum, Arbitrum and Base"],
    status: "live"
  }
]
