/**
 * `npm run server`: the exchange server alone, against any Gateway. Configuration comes from the environment:
 *
 *   HSWAP_NETWORK_ID            network id (default 240, the devnet)
 *   HSWAP_GATEWAY_URL           Gateway API base URL (default: the network's public gateway; on 240
 *                               http://127.0.0.1:8080/gateway, the `npm start` devnet)
 *   HSWAP_EXCHANGE_ACCOUNT      the operator's exchange account (default on 240: the devnet genesis exchange)
 *   HSWAP_EXCHANGE_PRIVATE_KEY  its Ed25519 private key, 64 hex characters (default on 240: the genesis key)
 *   HSWAP_DATABASE_URL          postgres://user[:password]@host:port/database: keep the records in PostgreSQL, shared
 *                               by every replica given the same URL (default: SQLite at HSWAP_DB_PATH)
 *   HSWAP_DB_PATH               SQLite file of the server's records (default .exchange/exchange.sqlite; on 240
 *                               .devnet/exchange-standalone.sqlite, apart from the one `npm start` uses)
 *   HSWAP_DB_POOL_SIZE          PostgreSQL connections of this replica, 1 to 100 (default 10)
 *   HSWAP_REPLICA_ID            this replica's name in claims and leases (default: host-pid-random)
 *   HSWAP_CLAIM_LEASE_SECONDS   how long a replica's claim on a swap lasts unrenewed: a replica that dies mid-payout
 *                               loses the swap to another after this long, 2 to 600 (default 30)
 *   HSWAP_WATCHER_LEASE_SECONDS how long the watcher's lease lasts unrenewed, 2 to 600 (default 10)
 *   HSWAP_WATCHER_POLL_MS       time between watcher passes, 50 to 60000 (default 2000)
 *   HSWAP_HOST, HSWAP_PORT      where to listen (default 127.0.0.1:8090; PORT works too)
 *   HSWAP_MAINTENANCE           "1"/"true" starts in maintenance mode (409 on price, health, swap, transactions)
 *   HSWAP_RATE_LIMIT            requests per minute and IP (default 120; 0 turns the limiter off)
 *   HSWAP_TRUSTED_PROXY_HOPS    reverse proxies in front that append to X-Forwarded-For; the limiter counts the
 *                               address the outermost one saw (default 0: the peer address, the header ignored)
 *   HSWAP_CORS_ORIGINS          comma-separated origins the API's CORS allows, exactly as browsers send them
 *                               (https://app.example); "*" for any (default: none, no CORS header)
 *   HSWAP_PRICE_SOURCE_URL      JSON `{ "SYMBOL": price }` endpoint for live prices (default: simulated walk)
 *   HSWAP_PRICE_SEED            seed of the simulated walk (default hswap-prices-v1)
 *   HSWAP_TOKENS                JSON token table: [{ symbol, name, resource_address, decimals, reference_usd }]
 *                               (required off networks 1 and 240)
 *   HSWAP_WATCH_FROM_STATE_VERSION  where the watcher starts on a fresh database (default: the ledger tip)
 *   HSWAP_QUOTE_TTL_SECONDS     how long a live-price quote binds the exchange, 10 to 3600 seconds (default 120)
 *   HSWAP_QUOTE_SECRET          the secret that signs quote references, at least 32 characters (default: 32
 *                               random bytes generated once and kept in the database)
 *   HSWAP_LOG_LEVEL             none | error | warning | info | debug (default info)
 */
import { Schema } from "effect"
import { DevnetAddresses } from "../exchange/devnet-addresses"
import { RadixNetworkConfigById } from "../gateway/index"
import {
  type ExchangeServerOptions,
  isPostgresUrl,
  type LogLevelName,
  MIN_QUOTE_SECRET_LENGTH,
  type TokenSpec,
  listenExchangeServer,
  startExchangeServer
} from "./index"

/**
 * The private key of the devnet genesis exchange account (`DevnetAddresses.exchangeAccount`): a published test key,
 * derived by the devnet from its default seed (`src/devnet/ledger/genesis.ts`) and kept here as a constant because the
 * server never imports the devnet; `test/server/standalone.test.ts` re-derives it.
 */
export const DEVNET_EXCHANGE_PRIVATE_KEY_HEX = "65e5a7a0ba09d639de9274f51e83ff517c138c06be42d0994c377d999a8fcef3"

export class ConfigError extends Error {
  override readonly name = "ConfigError"
}

const TokensJson = Schema.parseJson(
  Schema.Array(
    Schema.Struct({
      symbol: Schema.String,
      name: Schema.optional(Schema.String),
      resource_address: Schema.String,
      decimals: Schema.Int.pipe(Schema.between(0, 18)),
      reference_usd: Schema.String.pipe(Schema.pattern(/^\d+(\.\d+)?$/)),
      volatility_bp: Schema.optional(Schema.Int.pipe(Schema.between(0, 1000))),
      logo_url: Schema.optional(Schema.String)
    })
  )
)

const int = (env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined => {
  const raw = env[name]
  if (raw === undefined || raw === "") return undefined
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`)
  }
  return n
}

const LEVELS: ReadonlyArray<LogLevelName> = ["none", "error", "warning", "info", "debug"]

export interface StandaloneOptions {
  readonly server: ExchangeServerOptions
  readonly host: string
  readonly port: number
}

/** Reads the environment; throws a `ConfigError` naming the variable at fault. */
export const optionsFromEnv = async (env: NodeJS.ProcessEnv): Promise<StandaloneOptions> => {
  const networkId = int(env, "HSWAP_NETWORK_ID", 0, 255) ?? 240
  const devnet = networkId === 240
  const keyHex = devnet ? DEVNET_EXCHANGE_PRIVATE_KEY_HEX : undefined
  const gatewayUrl =
    env["HSWAP_GATEWAY_URL"] ??
    (devnet ? "http://127.0.0.1:8080/gateway" : RadixNetworkConfigById[networkId]?.gatewayUrl)
  if (gatewayUrl === undefined) throw new ConfigError(`HSWAP_GATEWAY_URL is required for network ${networkId}`)
  const exchangeAccount = env["HSWAP_EXCHANGE_ACCOUNT"] ?? (devnet ? DevnetAddresses.exchangeAccount : undefined)
  if (exchangeAccount === undefined) throw new ConfigError("HSWAP_EXCHANGE_ACCOUNT is required")
  const privateKeyHex = env["HSWAP_EXCHANGE_PRIVATE_KEY"] ?? keyHex
  if (privateKeyHex === undefined || !/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) {
    throw new ConfigError(
      "HSWAP_EXCHANGE_PRIVATE_KEY must be the exchange account's Ed25519 private key (64 hex characters)"
    )
  }
  const logLevel = env["HSWAP_LOG_LEVEL"] ?? "info"
  const level = LEVELS.find((l) => l === logLevel)
  if (level === undefined) throw new ConfigError(`HSWAP_LOG_LEVEL must be one of ${LEVELS.join(", ")}`)
  let tokens: ReadonlyArray<TokenSpec> | undefined
  const tokensRaw = env["HSWAP_TOKENS"]
  if (tokensRaw !== undefined && tokensRaw !== "") {
    const decoded = Schema.decodeUnknownEither(TokensJson)(tokensRaw)
    if (decoded._tag === "Left")
      throw new ConfigError(`HSWAP_TOKENS is not a valid token table: ${decoded.left.message}`)
    tokens = decoded.right.map((t) => ({
      symbol: t.symbol,
      name: t.name ?? t.symbol,
      resourceAddress: t.resource_address,
      decimals: t.decimals,
      referenceUsd: t.reference_usd,
      volatilityBp: t.volatility_bp ?? 10,
      logoUrl: t.logo_url ?? ""
    }))
  }
  const maintenance = env["HSWAP_MAINTENANCE"]
  const rateLimit = int(env, "HSWAP_RATE_LIMIT", 0, 1_000_000)
  const proxyHops = int(env, "HSWAP_TRUSTED_PROXY_HOPS", 0, 10)
  const watchFrom = int(env, "HSWAP_WATCH_FROM_STATE_VERSION", 1, Number.MAX_SAFE_INTEGER)
  const priceSourceUrl = env["HSWAP_PRICE_SOURCE_URL"]
  const priceSeed = env["HSWAP_PRICE_SEED"]
  const quoteTtl = int(env, "HSWAP_QUOTE_TTL_SECONDS", 10, 3600)
  const quoteSecret = env["HSWAP_QUOTE_SECRET"]
  if (quoteSecret !== undefined && quoteSecret !== "" && quoteSecret.length < MIN_QUOTE_SECRET_LENGTH) {
    throw new ConfigError(
      `HSWAP_QUOTE_SECRET must be at least ${MIN_QUOTE_SECRET_LENGTH} characters (got ${quoteSecret.length})`
    )
  }
  const corsRaw = env["HSWAP_CORS_ORIGINS"]
  let corsOrigins: ReadonlyArray<string> | "*" | undefined
  if (corsRaw !== undefined && corsRaw.trim() !== "") {
    if (corsRaw.trim() === "*") corsOrigins = "*"
    else {
      corsOrigins = corsRaw
        .split(",")
        .map((o) => o.trim())
        .filter((o) => o !== "")
      for (const origin of corsOrigins) {
        let parsed: URL | undefined
        try {
          parsed = new URL(origin)
        } catch {
          parsed = undefined
        }
        if (parsed === undefined || parsed.origin !== origin) {
          throw new ConfigError(
            `HSWAP_CORS_ORIGINS lists ${JSON.stringify(origin)}, which is not an origin like https://app.example`
          )
        }
      }
    }
  }
  const databaseUrl = env["HSWAP_DATABASE_URL"]
  if (databaseUrl !== undefined && databaseUrl !== "" && !isPostgresUrl(databaseUrl)) {
    throw new ConfigError("HSWAP_DATABASE_URL must be a postgres:// (or postgresql://) URL")
  }
  const poolSize = int(env, "HSWAP_DB_POOL_SIZE", 1, 100)
  const claimLease = int(env, "HSWAP_CLAIM_LEASE_SECONDS", 2, 600)
  const watcherLease = int(env, "HSWAP_WATCHER_LEASE_SECONDS", 2, 600)
  const watcherPoll = int(env, "HSWAP_WATCHER_POLL_MS", 50, 60_000)
  const replicaId = env["HSWAP_REPLICA_ID"]
  return {
    host: env["HSWAP_HOST"] ?? "127.0.0.1",
    port: int(env, "HSWAP_PORT", 0, 65535) ?? int(env, "PORT", 0, 65535) ?? 8090,
    server: {
      networkId,
      gatewayUrl,
      exchangeAccount,
      privateKeyHex,
      databasePath:
        env["HSWAP_DB_PATH"] ?? (devnet ? ".devnet/exchange-standalone.sqlite" : ".exchange/exchange.sqlite"),
      maintenance: maintenance === "1" || maintenance?.toLowerCase() === "true",
      logLevel: level,
      ...(rateLimit === undefined ? {} : { rateLimitPerMinute: rateLimit }),
      ...(proxyHops === undefined ? {} : { trustedProxyHops: proxyHops }),
      ...(watchFrom === undefined ? {} : { watchFromStateVersion: watchFrom }),
      ...(priceSourceUrl === undefined || priceSourceUrl === "" ? {} : { priceSourceUrl }),
      ...(priceSeed === undefined || priceSeed === "" ? {} : { priceSeed }),
      ...(quoteTtl === undefined ? {} : { quoteTtlSeconds: quoteTtl }),
      ...(quoteSecret === undefined || quoteSecret === "" ? {} : { quoteSecret }),
      ...(tokens === undefined ? {} : { tokens }),
      ...(databaseUrl === undefined || databaseUrl === "" ? {} : { databaseUrl }),
      ...(corsOrigins === undefined ? {} : { corsOrigins }),
      ...(poolSize === undefined ? {} : { databasePoolSize: poolSize }),
      ...(claimLease === undefined ? {} : { claimLeaseMs: claimLease * 1000 }),
      ...(watcherLease === undefined ? {} : { watcherLeaseMs: watcherLease * 1000 }),
      ...(watcherPoll === undefined ? {} : { watcherPollMs: watcherPoll }),
      ...(replicaId === undefined || replicaId === "" ? {} : { replicaId })
    }
  }
}

/** Starts the server on `options` and serves it until SIGINT or SIGTERM. */
export const serveStandalone = async (options: StandaloneOptions): Promise<void> => {
  const server = await startExchangeServer(options.server)
  const http = await listenExchangeServer(server, options.port, options.host)
  const store = options.server.databaseUrl === undefined ? `SQLite ${options.server.databasePath}` : "PostgreSQL"
  console.log(
    `hSwap exchange server on ${http.url}/api (network ${options.server.networkId}, gateway ${options.server.gatewayUrl}, ${store})`
  )
  const stop = () => {
    console.log("stopping…")
    void http
      .close()
      .then(() => server.close())
      .then(() => process.exit(0))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

const main = async () => serveStandalone(await optionsFromEnv(process.env))

if (process.argv[1]?.endsWith("src/server/main.ts") === true) {
  main().catch((e: unknown) => {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  })
}
