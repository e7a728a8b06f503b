/** Radix network ids and their public gateway and dashboard URLs. */

export const RadixNetwork = {
  Mainnet: 0x01,
  Stokenet: 0x02,
  Alphanet: 0x0a,
  Betanet: 0x0b,
  Kisharnet: 0x0c,
  RCnetV1: 0x0c,
  Zabanet: 0x0e,
  RCnetV3: 0x0e,
  Gilganet: 0x20,
  Enkinet: 0x21,
  Hammunet: 0x22,
  Nergalnet: 0x23,
  Mardunet: 0x24,
  Dumunet: 0x25,
  LocalNet: 0xf0,
  InternalTestNet: 0xf1,
  Simulator: 0xf2
} as const
export type RadixNetworkId = (typeof RadixNetwork)[keyof typeof RadixNetwork]

export interface RadixNetworkConfig {
  readonly networkName: string
  readonly networkId: RadixNetworkId
  /** Absent for networks with no public gateway (localnet 240, Nergalnet 35, …): configure `basePath`. */
  readonly gatewayUrl?: string
  readonly dashboardUrl?: string
}

const extratools = (name: string) => `https://${name}-dashboard.rdx-works-main.extratools.works`

/** One entry per network id. Ids without a public gateway are listed without URLs. */
export const RadixNetworkConfigById: { readonly [id: number]: RadixNetworkConfig | undefined } = {
  [RadixNetwork.Mainnet]: {
    networkName: "Mainnet",
    networkId: RadixNetwork.Mainnet,
    gatewayUrl: "https://mainnet.radixdlt.com",
    dashboardUrl: "https://dashboard.radixdlt.com"
  },
  [RadixNetwork.Stokenet]: {
    networkName: "Stokenet",
    networkId: RadixNetwork.Stokenet,
    gatewayUrl: "https://stokenet.radixdlt.com",
    dashboardUrl: "https://stokenet-dashboard.radixdlt.com"
  },
  [RadixNetwork.Alphanet]: { networkName: "Alphanet", networkId: RadixNetwork.Alphanet },
  [RadixNetwork.Betanet]: { networkName: "Betanet", networkId: RadixNetwork.Betanet },
  [RadixNetwork.RCnetV1]: {
    networkName: "RCnetV1",
    networkId: RadixNetwork.RCnetV1,
    gatewayUrl: "https://rcnet.radixdlt.com",
    dashboardUrl: "https://rcnet-dashboard.radixdlt.com"
  },
  [RadixNetwork.Zabanet]: {
    networkName: "Zabanet",
    networkId: RadixNetwork.Zabanet,
    gatewayUrl: "https://zabanet-gateway.radixdlt.com",
    dashboardUrl: "https://rcnet-v3-dashboard.radixdlt.com"
  },
  [RadixNetwork.Gilganet]: {
    networkName: "Gilganet",
    networkId: RadixNetwork.Gilganet,
    gatewayUrl: "https://gilganet-gateway.radixdlt.com",
    dashboardUrl: extratools("gilganet")
  },
  [RadixNetwork.Enkinet]: {
    networkName: "Enkinet",
    networkId: RadixNetwork.Enkinet,
    gatewayUrl: "https://enkinet-gateway.radixdlt.com",
    dashboardUrl: extratools("enkinet")
  },
  [RadixNetwork.Hammunet]: {
    networkName: "Hammunet",
    networkId: RadixNetwork.Hammunet,
    gatewayUrl: "https://hammunet-gateway.radixdlt.com",
    dashboardUrl: extratools("hammunet")
  },
  // Nergalnet is in the spec's id list, but neither the official SDK nor the dApp toolkit publishes a URL for it.
  [RadixNetwork.Nergalnet]: { networkName: "Nergalnet", networkId: RadixNetwork.Nergalnet },
  [RadixNetwork.Mardunet]: {
    networkName: "Mardunet",
    networkId: RadixNetwork.Mardunet,
    gatewayUrl: "https://mardunet-gateway.radixdlt.com",
    dashboardUrl: extratools("mardunet")
  },
  [RadixNetwork.Dumunet]: {
    networkName: "Dumunet",
    networkId: RadixNetwork.Dumunet,
    gatewayUrl: "https://dumunet-gateway.radixdlt.com",
    dashboardUrl: extratools("dumunet")
  },
  // localnet: the devnet (HRP suffix `loc`) runs its own gateway emulator, so there is no public URL.
  [RadixNetwork.LocalNet]: { networkName: "Localnet", networkId: RadixNetwork.LocalNet },
  [RadixNetwork.InternalTestNet]: { networkName: "InternalTestNet", networkId: RadixNetwork.InternalTestNet },
  [RadixNetwork.Simulator]: { networkName: "Simulator", networkId: RadixNetwork.Simulator }
}

/** The default gateway when neither `basePath` nor `networkId` is configured. */
export const DefaultGatewayUrl = "https://mainnet.radixdlt.com"
