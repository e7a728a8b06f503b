/** HRP suffix of a Radix network id (radix-ledger reference §2): 1 rdx, 2 tdx_2_, 240 loc, …, else tdx_{hex}_. */
export const hrpSuffix = (networkId: number): string => {
  switch (networkId) {
    case 1:
      return "rdx"
    case 240:
      return "loc"
    case 241:
      return "test"
    case 242:
      return "sim"
    default:
      return `tdx_${networkId.toString(16)}_`
  }
}

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

/** True when `address` is a bech32m address of `entity` (account, resource, …) on the given network. */
export const isAddressOn = (address: string, entity: string, networkId: number): boolean =>
  new RegExp(`^${entity}_${hrpSuffix(networkId)}1[02-9ac-hj-np-z]{6,}$`).test(address)
