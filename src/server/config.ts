/**
 * The exchange server's configuration: the network, the operator's account and key, the tokens it quotes, the
 * accepted routes (one table), pricing constants, limits and timers. `ServerConfig` is a plain `Context.Tag`.
 */
import { Context, Duration, Layer } from "effect"
import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { MainnetResources } from "../exchange/mainnet-addresses"
import { DevnetAddresses } from "../exchange/devnet-addresses"

export interface TokenSpec {
  readonly symbol: string
  readonly name: string
  readonly resourceAddress: string
  /** The resource's divisibility. */
  readonly decimals: number
  /** The USD price the simulated feed starts from and walks around (a decimal string). */
  readonly referenceUsd: string
  /** Largest step of the simulated walk, in basis points per update. */
  readonly volatilityBp: number
  readonly logoUrl: string
}

/** An accepted route `FROM -> TO`, by symbol. */
export type Route = readonly [from: string, to: string]

/**
 * The accepted routes (spec §3), plus XRD to and from hUSDC. The app's hard-coded list is the first four; this table
 * is the one place the server reads them from.
 */
export const ACCEPTED_ROUTES: ReadonlyArray<Route> = [
  ["hUSDC", "hETH"],
  ["hUSDC", "hBTC"],
  ["hBTC", "hUSDC"],
  ["hETH", "hUSDC"],
  ["XRD", "hUSDC"],
  ["hUSDC", "XRD"]
]

const token = (
  symbol: string,
  name: string,
  resourceAddress: string,
  decimals: number,
  referenceUsd: string,
  volatilityBp: number
): TokenSpec => ({ symbol, name, resourceAddress, decimals, referenceUsd, volatilityBp, logoUrl: "" })

/** The tokens quoted on the devnet (network 240); the native token first. */
export const devnetTokens: ReadonlyArray<TokenSpec> = [
  token("XRD", "Radix", DevnetAddresses.resources.XRD, 18, "0.02", 30),
  token("hUSDC", "Hyperlane USDC", DevnetAddresses.resources.hUSDC, 6, "1", 1),
  token("hUSDT", "Hyperlane USDT", DevnetAddresses.resources.hUSDT, 6, "1", 1),
  token("hETH", "Hyperlane ETH", DevnetAddresses.resources.hETH, 18, "3000", 20),
  token("hBTC", "Hyperlane BTC", DevnetAddresses.resources.hBTC, 8, "60000", 15)
]

/** The tokens quoted on mainnet (network 1), from the shared reference's address table. */
export const mainnetTokens: ReadonlyArray<TokenSpec> = [
  token("XRD", "Radix", MainnetResources.XRD, 18, "0.02", 30),
  token("hUSDC", "Hyperlane USDC", MainnetResources.hUSDC, 6, "1", 1),
  token("hUSDT", "Hyperlane USDT", MainnetResources.hUSDT, 6, "1", 1),
  token("hETH", "Hyperlane ETH", MainnetResources.hETH, 18, "3000", 20),
  token("hBTC", "Hyperlane Wrapped BTC", MainnetResources.hWBTC, 8, "60000", 15)
]

/** The default token table of a network: devnet and mainnet have one; other networks need `tokens`. */
export const defaultTokens = (networkId: number): ReadonlyArray<TokenSpec> =>
  networkId === 240 ? devnetTokens : networkId === 1 ? mainnetTokens : []

export interface ServerConfigShape {
  readonly networkId: number
  /** The operator's exchange account: deposits arrive here and payouts leave from it. */
  readonly exchangeAccount: string
  readonly tokens: ReadonlyArray<TokenSpec>
  readonly routes: ReadonlyArray<Route>
  /** Requests per minute and IP (token bucket); 0 turns the limiter off. */
  readonly rateLimitPerMinute: number
  /** Reverse proxies in front of the server whose `X-Forwarded-For` entries the limiter trusts; 0: none. */
  readonly trustedProxyHops: number
  /** Origins the API's CORS allows, exactly ("https://app.example"), or "*" for any; none (no CORS header) by default. */
  readonly corsOrigins: ReadonlyArray<string> | "*"
  /** Maintenance mode at start (the admin toggle can change it). */
  readonly maintenance: boolean
  /** The spread taken in `effective_rate`: 0.001 (0.1%). */
  readonly spread: string
  /** The fee deducted on payout, in USD worth of the to-token: 0.10. */
  readonly feeUsd: string
  /** Swap limits in USD: 1 and 200. */
  readonly minUsd: string
  readonly maxUsd: string
  readonly priceSeed: string
  /** When set, prices come from this URL (JSON `{ "SYMBOL": price }`) instead of the simulated walk. */
  readonly priceSourceUrl: string | undefined
  readonly priceUpdateInterval: Duration.Duration
  readonly priceStaleAfter: Duration.Duration
  readonly watcherPollInterval: Duration.Duration
  /** Where the watcher starts on a fresh database; default: the ledger tip at first start. */
  readonly watchFromStateVersion: number | undefined
  /** How long `POST /api/swap` waits for settlement before answering `pending`. */
  readonly registrationWait: Duration.Duration
  /** How long a payout's commit is awaited before settlement leaves it for a later pass. */
  readonly commitWait: Duration.Duration
  /** XRD the payout transaction locks for its fee. */
  readonly feeLockXrd: string
  /** Epochs a payout stays valid for. */
  readonly payoutEpochWindow: number
  /** Refunds tried at most this many times per swap. */
  readonly maxRefundAttempts: number
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes: number
  /**
   * Atomic swaps (`POST /api/atomic-swap`): offered when on and the signer can notarize V2 transactions; off, the
   * endpoint answers 404 and quotes carry no `atomic: true`.
   */
  readonly atomic: boolean
  /**
   * How long `POST /api/atomic-swap` waits for the swap's outcome before answering 202 (the swap goes on; the app
   * polls `GET /api/atomic-swap/{subintentId}`).
   */
  readonly atomicWait: Duration.Duration
  /**
   * Largest body of `POST /api/atomic-swap`, in bytes: the signed partial transaction travels as hex, and the wallet
   * may carry a message of up to 2 KiB in it.
   */
  readonly maxAtomicBodyBytes: number
  /** How long a quote of `GET /api/liveprice` binds the exchange after it is issued: 120 s. */
  readonly quoteTtl: Duration.Duration
  /**
   * The secret that signs quote references (HMAC-SHA256). When undefined, 32 random bytes are generated once and kept
   * in the database, so every process on one database signs alike; set it to share quotes across databases.
   */
  readonly quoteSecret: string | undefined
  /** Names this process among the replicas of one database (in claims and leases); unique per process by default. */
  readonly replicaId: string
  /**
   * How long a claim on a swap lasts without renewal (renewed every third of it while the replica works on the
   * swap): a replica that dies mid-settlement loses the swap to another after at most this long.
   */
  readonly claimLease: Duration.Duration
  /** How long the watcher's lease lasts without renewal: another replica takes the watcher over after this long. */
  readonly watcherLease: Duration.Duration
}

/** A replica id unique to this process: host, pid and 4 random bytes. */
export const makeReplicaId = (): string => `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`

export class ServerConfig extends Context.Tag("hswap/server/ServerConfig")<ServerConfig, ServerConfigShape>() {
  static readonly layer = (config: ServerConfigShape) => Layer.succeed(ServerConfig, config)
}

/** The defaults of every tunable; `networkId`, `exchangeAccount` are always given. */
export const makeServerConfig = (
  given: Pick<ServerConfigShape, "networkId" | "exchangeAccount"> & Partial<ServerConfigShape>
): ServerConfigShape => ({
  tokens: defaultTokens(given.networkId),
  routes: ACCEPTED_ROUTES,
  rateLimitPerMinute: 120,
  trustedProxyHops: 0,
  corsOrigins: [],
  maintenance: false,
  spread: "0.001",
  feeUsd: "0.10",
  minUsd: "1",
  maxUsd: "200",
  priceSeed: "hswap-prices-v1",
  priceSourceUrl: undefined,
  priceUpdateInterval: Duration.seconds(15),
  priceStaleAfter: Duration.seconds(60),
  watcherPollInterval: Duration.seconds(2),
  watchFromStateVersion: undefined,
  registrationWait: Duration.seconds(20),
  commitWait: Duration.seconds(60),
  feeLockXrd: "3",
  payoutEpochWindow: 10,
  maxRefundAttempts: 3,
  maxBodyBytes: 4096,
  atomic: true,
  atomicWait: Duration.seconds(5),
  maxAtomicBodyBytes: 16 * 1024,
  quoteTtl: Duration.seconds(120),
  quoteSecret: undefined,
  replicaId: makeReplicaId(),
  claimLease: Duration.seconds(30),
  watcherLease: Duration.seconds(10),
  ...given
})
