import { isAddressOf } from "../../exchange/bech32m"

export { hrpSuffix } from "../../exchange/bech32m"

/** Public gateway and dashboard of the networks the app can be configured for without explicit URLs. */
export const KnownNetworks: Readonly<Record<number, { readonly gatewayUrl: string; readonly dashboardUrl: string }>> = {
  1: { gatewayUrl: "https://mainnet.radixdlt.com", dashboardUrl: "https://dashboard.radixdlt.com" },
  2: {
    gatewayUrl: "https://babylon-stokenet-gateway.radixdlt.com",
    dashboardUrl: "https://stokenet-dashboard.radixdlt.com"
  },
  // The devnet serves its gateway emulator and dashboard on the app's own origin.
  240: { gatewayUrl: "/gateway", dashboardUrl: "/devnet/dashboard" }
}

/** True when `address` is a valid bech32m address of `entity` (account, resource, …) on the given network. */
export const isAddressOn = (address: string, entity: string, networkId: number): boolean =>
  isAddressOf(entity, networkId, address)
