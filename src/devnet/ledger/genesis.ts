/**
 * Deterministic devnet genesis: every key, account, identity and resource is derived from a seed, so the same
 * seed always gives the same ledger. Private keys never leave the devnet (see `src/exchange/devnet-addresses.ts`
 * for the public constants the browser uses).
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { blake2b256, derivedResourceAddress, utf8Bytes, virtualAccountAddress, virtualIdentityAddress } from "./address"

export const DEFAULT_DEVNET_SEED = "hswap-devnet-genesis-v1"

/** The real well-known XRD resource address on network 240 (RET `Utils.knownAddresses(240)`). */
export const DEVNET_XRD = "resource_loc1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxvq32hv"

export interface DevnetKey {
  readonly label: string
  readonly privateKey: Uint8Array
  readonly publicKey: Uint8Array
}

const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/** The ed25519 private key for `label` is blake2b-256(utf8(`${seed}/key/${label}`)). */
export const deriveKey = (seed: string, label: string): DevnetKey => {
  const privateKey = blake2b256(utf8Bytes(`${seed}/key/${label}`))
  return { label, privateKey, publicKey: ed25519.getPublicKey(privateKey) }
}

export const keyHex = (key: DevnetKey): { readonly privateKeyHex: string; readonly publicKeyHex: string } => ({
  privateKeyHex: toHex(key.privateKey),
  publicKeyHex: toHex(key.publicKey)
})

export interface GenesisAccount {
  readonly role: "exchange" | "fund" | "dAppDefinition" | "user"
  readonly label: string
  readonly key: DevnetKey
  readonly address: string
  readonly metadata: Readonly<Record<string, string>>
  /** Initial balances by resource symbol, decimal strings. */
  readonly balances: Readonly<Record<string, string>>
}

export interface GenesisResource {
  readonly symbol: ResourceSymbol
  readonly address: string
  readonly name: string
  readonly description: string
  readonly divisibility: number
  readonly iconUrl: string
}

export const RESOURCE_SYMBOLS = [
  "XRD",
  "hUSDC",
  "hUSDT",
  "hETH",
  "hBTC",
  "hWBTC",
  "xUSDC",
  "xUSDT",
  "xETH",
  "xBTC",
  "LSULP",
  "GKS"
] as const
export type ResourceSymbol = (typeof RESOURCE_SYMBOLS)[number]

const resourceFacts: Record<
  ResourceSymbol,
  { readonly name: string; readonly divisibility: number; readonly color: string }
> = {
  XRD: { name: "Radix", divisibility: 18, color: "#052cc0" },
  hUSDC: { name: "Hyperlane USDC", divisibility: 6, color: "#2775ca" },
  hUSDT: { name: "Hyperlane USDT", divisibility: 6, color: "#26a17b" },
  hETH: { name: "Hyperlane ETH", divisibility: 18, color: "#627eea" },
  hBTC: { name: "Hyperlane BTC", divisibility: 8, color: "#f7931a" },
  hWBTC: { name: "Hyperlane Wrapped BTC", divisibility: 8, color: "#f09242" },
  xUSDC: { name: "Instabridge USDC", divisibility: 6, color: "#1f5fa8" },
  xUSDT: { name: "Instabridge USDT", divisibility: 6, color: "#1a7f5f" },
  xETH: { name: "Instabridge ETH", divisibility: 18, color: "#4a5fc1" },
  xBTC: { name: "Instabridge BTC", divisibility: 8, color: "#d97e12" },
  LSULP: { name: "Liquid Stake Unit Pool LP", divisibility: 18, color: "#8a4fff" },
  GKS: { name: "GKS", divisibility: 18, color: "#444444" }
}

/** A small self-contained SVG badge, so icons render with no network. */
const iconDataUrl = (symbol: string, color: string): string => {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` +
    `<circle cx="32" cy="32" r="32" fill="${color}"/>` +
    `<text x="32" y="38" font-family="sans-serif" font-size="${symbol.length > 4 ? 12 : 16}" ` +
    `text-anchor="middle" fill="#ffffff">${symbol}</text></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`
}

export interface Genesis {
  readonly seed: string
  readonly resources: ReadonlyArray<GenesisResource>
  readonly exchange: GenesisAccount
  readonly fund: GenesisAccount
  readonly dAppDefinition: GenesisAccount
  readonly users: readonly [GenesisAccount, GenesisAccount, GenesisAccount]
  readonly persona: { readonly label: string; readonly key: DevnetKey; readonly address: string }
  /** The key that notarizes devnet-built transactions (it owns no account). */
  readonly notary: DevnetKey
  readonly accounts: ReadonlyArray<GenesisAccount>
}

const liquidity: Readonly<Record<string, string>> = {
  XRD: "100000000",
  hUSDC: "1000000",
  hUSDT: "1000000",
  hETH: "500",
  hBTC: "25",
  hWBTC: "25",
  xUSDC: "1000000",
  xUSDT: "1000000",
  xETH: "500",
  xBTC: "25",
  LSULP: "1000000",
  GKS: "10000000"
}

const userFunds: Readonly<Record<string, string>> = {
  XRD: "10000",
  hUSDC: "5000",
  hUSDT: "5000",
  hETH: "2",
  hBTC: "0.1",
  hWBTC: "0.1"
}

export const makeGenesis = (seed: string = DEFAULT_DEVNET_SEED): Genesis => {
  const account = (
    role: GenesisAccount["role"],
    label: string,
    metadata: Readonly<Record<string, string>>,
    balances: Readonly<Record<string, string>>
  ): GenesisAccount => {
    const key = deriveKey(seed, label)
    return { role, label, key, address: virtualAccountAddress(key.publicKey), metadata, balances }
  }
  const resources = RESOURCE_SYMBOLS.map((symbol): GenesisResource => {
    const facts = resourceFacts[symbol]
    return {
      symbol,
      address: symbol === "XRD" ? DEVNET_XRD : derivedResourceAddress(seed, symbol),
      name: facts.name,
      description: `${facts.name} on the hSwap devnet`,
      divisibility: facts.divisibility,
      iconUrl: iconDataUrl(symbol, facts.color)
    }
  })
  const exchange = account("exchange", "exchange", { name: "hSwap exchange" }, liquidity)
  const fund = account("fund", "fund", { name: "hSwap fund" }, { XRD: "1000000" })
  const dAppDefinition = account(
    "dAppDefinition",
    "dapp-definition",
    { account_type: "dapp definition", name: "hSwap", description: "hSwap devnet dApp definition" },
    { XRD: "1000" }
  )
  const users = [
    account("user", "user-1", {}, userFunds),
    account("user", "user-2", {}, userFunds),
    account("user", "user-3", {}, userFunds)
  ] as const
  const personaKey = deriveKey(seed, "persona")
  return {
    seed,
    resources,
    exchange,
    fund,
    dAppDefinition,
    users,
    persona: { label: "persona", key: personaKey, address: virtualIdentityAddress(personaKey.publicKey) },
    notary: deriveKey(seed, "notary"),
    accounts: [exchange, fund, dAppDefinition, ...users]
  }
}

/** The public addresses of a genesis, in the shape of `DevnetAddresses`. */
export const genesisAddresses = (genesis: Genesis) => ({
  networkId: 240,
  exchangeAccount: genesis.exchange.address,
  fundAccount: genesis.fund.address,
  dAppDefinition: genesis.dAppDefinition.address,
  users: genesis.users.map((u) => u.address),
  persona: genesis.persona.address,
  resources: Object.fromEntries(genesis.resources.map((r) => [r.symbol, r.address]))
})
