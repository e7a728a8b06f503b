import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { decodeAppConfig } from "../../src/app/config/AppConfig"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"

const errorOf = (env: Record<string, string>) => {
  const r = decodeAppConfig(env)
  if (Either.isRight(r)) throw new Error("expected a configuration error")
  return r.left
}

const MAINNET = {
  VITE_NETWORK_ID: "1",
  VITE_DAPP_DEFINITION_ADDRESS: "account_rdx12xsvygvltz4uhsht6tdrfxktzpmnl77r0d40j8agmujgdj022sudkk",
  VITE_EXCHANGE_ACCOUNT: "account_rdx128y905cfjwhah5nm8mpx5jnlkshmlamfdd92qnqpy6pgk428qlqxcf",
  VITE_FUND_ACCOUNT: "account_rdx12ya2ml0lr54lmneu6fkx2wu87j2tk65epzptgq70q4tjjdmc652pvp",
  VITE_GKS_RESOURCE: "resource_rdx1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxradxrd"
}

describe("AppConfig", () => {
  it("defaults to the devnet on the app's own origin", () => {
    const config = Either.getOrThrow(decodeAppConfig({}))
    expect(config).toMatchObject({
      networkId: 240,
      gatewayUrl: "/gateway",
      dashboardUrl: "/devnet/dashboard",
      apiBase: "",
      relayUrl: "/relay",
      dAppDefinitionAddress: DevnetAddresses.dAppDefinition,
      exchangeAccount: DevnetAddresses.exchangeAccount,
      fundAccount: DevnetAddresses.fundAccount,
      gksResource: DevnetAddresses.resources.GKS
    })
    expect(config.brand.name).toBe("hSwap")
  })

  it("configures mainnet with its public gateway and dashboard", () => {
    const config = Either.getOrThrow(decodeAppConfig({ ...MAINNET, VITE_API_BASE: "https://api.hswap.app/" }))
    expect(config).toMatchObject({
      networkId: 1,
      gatewayUrl: "https://mainnet.radixdlt.com",
      dashboardUrl: "https://dashboard.radixdlt.com",
      apiBase: "https://api.hswap.app",
      relayUrl: "https://radix-connect-relay.radixdlt.com",
      // The 404 page goes to the website off the devnet.
      notFoundRedirect: "https://hswap.app"
    })
  })

  it("sends the devnet's 404 page home, and takes a configured target or refuses a bad one", () => {
    expect(Either.getOrThrow(decodeAppConfig({})).notFoundRedirect).toBe("/")
    expect(Either.getOrThrow(decodeAppConfig({ VITE_NOT_FOUND_REDIRECT: "https://x.example/" })).notFoundRedirect).toBe(
      "https://x.example/"
    )
    expect(errorOf({ VITE_NOT_FOUND_REDIRECT: "javascript:alert(1)" }).variable).toBe("VITE_NOT_FOUND_REDIRECT")
  })

  it("names the variable when a value is malformed", () => {
    expect(errorOf({ VITE_NETWORK_ID: "mainnet" }).message).toMatch(
      /^Invalid configuration: VITE_NETWORK_ID is invalid/
    )
    expect(errorOf({ VITE_GATEWAY_URL: "ftp://x" }).variable).toBe("VITE_GATEWAY_URL")
    expect(errorOf({ VITE_BRAND_WEBSITE: "not a url" }).variable).toBe("VITE_BRAND_WEBSITE")
  })

  it("requires the addresses off the devnet, naming the first missing one", () => {
    const e = errorOf({ VITE_NETWORK_ID: "2" })
    expect(e.variable).toBe("VITE_DAPP_DEFINITION_ADDRESS")
    expect(e.message).toContain("is required for this network")
  })

  it("refuses an address of another network or entity type", () => {
    expect(errorOf({ ...MAINNET, VITE_EXCHANGE_ACCOUNT: DevnetAddresses.exchangeAccount }).message).toContain(
      "VITE_EXCHANGE_ACCOUNT is not an account address on network 1"
    )
    expect(errorOf({ ...MAINNET, VITE_GKS_RESOURCE: MAINNET.VITE_FUND_ACCOUNT }).variable).toBe("VITE_GKS_RESOURCE")
    expect(errorOf({ VITE_VALIDATOR_ADDRESS: "validator_rdx1xyz" }).variable).toBe("VITE_VALIDATOR_ADDRESS")
  })

  it("knows the token resources per network, and VITE_TOKEN_RESOURCES adds or overrides them", () => {
    const devnet = Either.getOrThrow(decodeAppConfig({}))
    expect(devnet.tokenResources.hETH).toBe(DevnetAddresses.resources.hETH)
    expect(devnet.tradingUrl).toBe("/devnet/trade")
    const mainnet = Either.getOrThrow(
      decodeAppConfig({ ...MAINNET, VITE_TOKEN_RESOURCES: JSON.stringify({ FOO: MAINNET.VITE_GKS_RESOURCE }) })
    )
    expect(mainnet.tokenResources.XRD).toBe(MAINNET.VITE_GKS_RESOURCE)
    expect(mainnet.tokenResources.FOO).toBe(MAINNET.VITE_GKS_RESOURCE)
    expect(mainnet.tradingUrl).toBeUndefined()
    expect(errorOf({ ...MAINNET, VITE_TOKEN_RESOURCES: "{not json" }).variable).toBe("VITE_TOKEN_RESOURCES")
    expect(
      errorOf({ ...MAINNET, VITE_TOKEN_RESOURCES: JSON.stringify({ X: DevnetAddresses.resources.XRD }) }).message
    ).toContain("is not a resource address on network 1")
  })
})
