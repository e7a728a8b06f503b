/**
 * The toolkit's configuration: what the dApp passes to `Toolkit.layer(config)`, and the resolved `ToolkitConfig`
 * service (defaults applied) that every toolkit service reads.
 */
import { Context, Layer } from "effect"
import type { RdtState, WalletData, WalletInteraction } from "./schemas"
import type { DataRequest } from "./dataRequest"

/** Network ids, gateways and dashboards (wallet-protocol.md §6). */
export const RadixNetworks: Readonly<
  Record<number, { readonly networkName: string; readonly gatewayUrl: string; readonly dashboardUrl: string }>
> = {
  1: {
    networkName: "mainnet",
    gatewayUrl: "https://mainnet.radixdlt.com",
    dashboardUrl: "https://dashboard.radixdlt.com"
  },
  2: {
    networkName: "stokenet",
    gatewayUrl: "https://babylon-stokenet-gateway.radixdlt.com",
    dashboardUrl: "https://stokenet-dashboard.radixdlt.com"
  },
  0x20: {
    networkName: "gilganet",
    gatewayUrl: "https://gilganet-gateway.radixdlt.com",
    dashboardUrl: "https://gilganet-dashboard.rdx-works-main.extratools.works"
  },
  0x21: {
    networkName: "enkinet",
    gatewayUrl: "https://enkinet-gateway.radixdlt.com",
    dashboardUrl: "https://enkinet-dashboard.rdx-works-main.extratools.works"
  },
  0x22: {
    networkName: "hammunet",
    gatewayUrl: "https://hammunet-gateway.radixdlt.com",
    dashboardUrl: "https://hammunet-dashboard.rdx-works-main.extratools.works"
  },
  0x24: {
    networkName: "mardunet",
    gatewayUrl: "https://mardunet-gateway.radixdlt.com",
    dashboardUrl: "https://mardunet-dashboard.rdx-works-main.extratools.works"
  },
  0x25: {
    networkName: "dumunet",
    gatewayUrl: "https://dumunet-gateway.radixdlt.com",
    dashboardUrl: "https://dumunet-dashboard.rdx-works-main.extratools.works"
  }
}

export const DEFAULT_RELAY_URL = "https://radix-connect-relay.radixdlt.com"
export const DEFAULT_WALLET_URL = "radixWallet://connect"
export const SETUP_GUIDE_URL = "https://wallet.radixdlt.com"
export const GET_WALLET_URL = "https://app.radixdlt.com/qr-code"
/** The Connector client version string (spec §9). */
export const CONNECTOR_CLIENT_VERSION = "2.2.1"

/** Constants of spec §9, in milliseconds. */
export const timing = {
  extensionDetection: 200,
  requestResolverSweep: 1000,
  preAuthorizationSweep: 1000,
  relayPoll: 1500,
  buttonReset: 2000
} as const

/** What the dApp passes to `Toolkit.layer`. */
export interface ToolkitOptions {
  readonly networkId: number
  readonly dAppDefinitionAddress: string
  readonly applicationName?: string
  readonly applicationVersion?: string
  /** Overrides the network's default gateway. */
  readonly gatewayBaseUrl?: string
  /** The relay base URL, without `/api/v1`. */
  readonly relayUrl?: string
  readonly walletUrl?: string
  /** Overrides `location.origin` in the interaction metadata. */
  readonly origin?: string
  /** Answer ongoing requests from the stored wallet data when possible (default true). */
  readonly useCache?: boolean
  /** Returns a 64-hex-character challenge; called only when a proof is requested. */
  readonly challengeGenerator?: () => Promise<string>
  /** Login control: reject (throw) to refuse a login; the request fails with `LoginRejectedByDapp`. */
  readonly onLogin?: (walletData: WalletData) => Promise<void>
  /** Runs on every interaction just before it is sent; the stored request item keeps the original. */
  readonly requestInterceptor?: (interaction: WalletInteraction) => Promise<WalletInteraction>
  /** What `connect()` asks for (default: ongoing accounts, at least 1). */
  readonly connectRequest?: DataRequest
}

export interface ResolvedToolkitConfig {
  readonly networkId: number
  readonly dAppDefinitionAddress: string
  readonly applicationName: string
  readonly applicationVersion: string
  readonly gatewayBaseUrl: string
  readonly dashboardUrl: string
  readonly relayUrl: string
  readonly walletUrl: string
  readonly origin: string | undefined
  readonly useCache: boolean
  readonly challengeGenerator: (() => Promise<string>) | undefined
  readonly onLogin: ((walletData: WalletData) => Promise<void>) | undefined
  readonly requestInterceptor: ((interaction: WalletInteraction) => Promise<WalletInteraction>) | undefined
  readonly connectRequest: DataRequest
}

export const defaultConnectRequest: DataRequest = {
  accounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 } }
}

export const resolveConfig = (options: ToolkitOptions): ResolvedToolkitConfig => {
  const network = RadixNetworks[options.networkId]
  return {
    networkId: options.networkId,
    dAppDefinitionAddress: options.dAppDefinitionAddress,
    applicationName: options.applicationName ?? "Unknown",
    applicationVersion: options.applicationVersion ?? "Unknown",
    gatewayBaseUrl: options.gatewayBaseUrl ?? network?.gatewayUrl ?? RadixNetworks[1]!.gatewayUrl,
    dashboardUrl: network?.dashboardUrl ?? RadixNetworks[1]!.dashboardUrl,
    relayUrl: options.relayUrl ?? DEFAULT_RELAY_URL,
    walletUrl: options.walletUrl ?? DEFAULT_WALLET_URL,
    origin: options.origin,
    useCache: options.useCache ?? true,
    challengeGenerator: options.challengeGenerator,
    onLogin: options.onLogin,
    requestInterceptor: options.requestInterceptor,
    connectRequest: options.connectRequest ?? defaultConnectRequest
  }
}

/** The localStorage partitions, as the official toolkit names them. */
export type PartitionName = "state" | "requests" | "sessions" | "identities" | "walletResponses" | "connectorExtension"

/** Where a partition is stored: `rdt:{dAppDefinitionAddress}:{networkId}:{partition}`, as the official toolkit. */
export const storageKey = (dAppDefinitionAddress: string, networkId: number, partition: PartitionName): string =>
  `rdt:${dAppDefinitionAddress}:${networkId}:${partition}`

/** No accounts, persona or proofs: a wallet that has shared nothing. */
export const emptyWalletData: WalletData = { accounts: [], personaData: [], proofs: [] }

/** The state before any wallet has connected (and after a disconnect). */
export const defaultRdtState: RdtState = { walletData: emptyWalletData, loggedInTimestamp: "", sharedData: {} }

export class ToolkitConfig extends Context.Tag("hswap/toolkit/ToolkitConfig")<ToolkitConfig, ResolvedToolkitConfig>() {
  static readonly layer = (options: ToolkitOptions): Layer.Layer<ToolkitConfig> =>
    Layer.succeed(ToolkitConfig, resolveConfig(options))
}
