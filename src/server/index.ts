/**
 * The exchange server: the operator's backend behind `{api}/api/*` (spec app §7). It reads the ledger and submits
 * payouts through our Gateway client, signs them with the operator's key (txv2's V1 transactions, Node's Ed25519), and
 * keeps its records in SQLite (one process), or in PostgreSQL shared by several replicas (`databaseUrl`).
 *
 * - `startExchangeServer(options)` builds it and returns a `node:http` mount `{ prefix: "/api", handle }` plus
 *   `close()`; the devnet process mounts it, `src/server/main.ts` serves it alone.
 * - `exchangeServerLayer(parts)` is the same server as a Layer, for tests that swap a part.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Data, Duration, Effect, Layer, Logger, LogLevel, ManagedRuntime, Option, type Scope } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { type Server, createServer } from "node:http"
import { Gateway } from "../gateway/index"
import { layerNode } from "../gateway/node"
import { ServerConfig, type ServerConfigShape, type TokenSpec, makeServerConfig } from "./config"
import type { Db } from "./Db"
import { DbLive } from "./db/store"
import type { Faults } from "./Faults"
import { Maintenance, RateLimiter } from "./Limits"
import { nodeApiHandler } from "./node"
import { PriceFeed } from "./PriceFeed"
import { Quotes } from "./Quotes"
import { type ApiRequest, type ApiServices, ExchangeHttpLive, LiquidityCache, handleApi } from "./routes"
import { Settlement } from "./Settlement"
import { ClaimsLive } from "./settlement/claimsLive"
import { SettlementOnly } from "./settlement/live"
import { PayoutsLive } from "./settlement/payoutsLive"
import { AtomicLedger, AtomicSwaps } from "./atomic/AtomicSwaps"
import { Signer, makeSigner } from "./Signer"
import { Watcher } from "./Watcher"

export { ACCEPTED_ROUTES, ServerConfig, defaultTokens, devnetTokens, makeServerConfig, mainnetTokens } from "./config"
export type { Route, ServerConfigShape, TokenSpec } from "./config"
export { FAULT_POINTS, Faults } from "./Faults"
export type { FaultPoint, FaultsShape } from "./Faults"
export { Db, SwapState, isPostgresUrl } from "./Db"
export type { DbShape, QuoteRow, SwapRow } from "./Db"
export { DbLive } from "./db/store"
export { Maintenance, RateLimiter, isLoopback } from "./Limits"
export { PriceFeed, seededRandom, walkStep } from "./PriceFeed"
export type { ManualPriceFeed, PriceQuote } from "./PriceFeed"
export {
  QUOTE_PRUNE_AFTER,
  QUOTE_REUSED,
  QUOTE_SECRET_KEY,
  QUOTE_TAMPERED,
  QUOTE_UNKNOWN,
  Quotes,
  quoteExpiredBelowMinimum,
  quoteOtherPair,
  signQuoteRef,
  verifyQuoteRef
} from "./Quotes"
export type { IssuedQuote, QuoteLookup, QuoteTerms } from "./Quotes"
export { amountLimits, effectiveRate, payoutAmount } from "./pricing"
export {
  ExchangeHttp,
  ExchangeHttpLive,
  handleApi,
  toAtomicRecord,
  toAtomicResponse,
  toRecord,
  LiquidityCache
} from "./routes"
export {
  ATOMIC_COMMITTED_ELSEWHERE,
  ATOMIC_LAPSED,
  ATOMIC_QUOTE_UNKNOWN,
  ATOMIC_QUOTE_USED,
  AtomicLedger,
  AtomicSwaps,
  LAPSE_GRACE_MS
} from "./atomic/AtomicSwaps"
export { MIN_TIME_TO_SUBMIT_MS, type RefusalReason } from "./atomic/check"
export { atomicSubintentManifest } from "../exchange/atomicManifest"
export type { ApiRequest, ApiResponse, ApiServices } from "./routes"
export {
  IN_MAINTENANCE,
  LOW_LIQUIDITY,
  Settlement,
  SettlementUnavailable,
  SwapNotFound,
  SwapRefused,
  unsupportedToken
} from "./Settlement"
export { Signer, SignerError, makeSigner, transferManifest } from "./Signer"
export { WATCHER_LEASE, WATCHER_POSITION_KEY, Watcher, watchPass } from "./Watcher"

export type LogLevelName = "none" | "error" | "warning" | "info" | "debug"

const logLevels: Record<LogLevelName, LogLevel.LogLevel> = {
  none: LogLevel.None,
  error: LogLevel.Error,
  warning: LogLevel.Warning,
  info: LogLevel.Info,
  debug: LogLevel.Debug
}

export interface ServerParts {
  readonly config: ServerConfigShape
  readonly gateway: Layer.Layer<Gateway>
  readonly db: Layer.Layer<Db>
  readonly signer: Layer.Layer<Signer>
  /** Default: the configured feed over `FetchHttpClient`. */
  readonly prices?: Layer.Layer<PriceFeed>
  /** Run the stream watcher (and the resume of unfinished swaps it does on every pass). Default true. */
  readonly watcher?: boolean
  /** Tests only: where a payout may be stopped (default: nowhere). */
  readonly faults?: Layer.Layer<Faults, never, ServerConfig | Db>
}

/**
 * Atomic swaps when the configuration has them on and the signer can notarize V2 transactions (the parent intent
 * over the user's subintent); otherwise nothing, and the API answers that the exchange does not offer them.
 */
const atomicLayer = Layer.unwrapEffect(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const signer = yield* Signer
    return config.atomic && signer.notarizeV2 !== undefined
      ? AtomicSwaps.layer.pipe(Layer.provide(AtomicLedger.live))
      : Layer.empty
  })
)

/** Every service of the server, with the watcher running in the layer's scope unless turned off. */
export const exchangeServerLayer = (parts: ServerParts): Layer.Layer<ApiServices> => {
  const config = ServerConfig.layer(parts.config)
  const prices =
    parts.prices ??
    PriceFeed.layer.pipe(
      Layer.provide(config),
      Layer.provide(FetchHttpClient.layer as Layer.Layer<HttpClient.HttpClient>)
    )
  const core = Layer.mergeAll(config, parts.gateway, parts.db, parts.signer, prices)
  const withQuotes = Quotes.Default.pipe(Layer.provideMerge(core))
  const settlement =
    parts.faults === undefined
      ? SettlementOnly
      : SettlementOnly.pipe(Layer.provide(parts.faults.pipe(Layer.provide(core))))
  // One claims service and one payouts service for both flows: one in-process lock per record, one epoch read.
  const flows = Layer.merge(settlement, atomicLayer).pipe(Layer.provide(Layer.merge(ClaimsLive, PayoutsLive)))
  const services = Layer.mergeAll(flows, RateLimiter.Default, LiquidityCache.Default).pipe(
    Layer.provideMerge(Maintenance.Default),
    Layer.provideMerge(withQuotes)
  )
  const api = ExchangeHttpLive.pipe(Layer.provideMerge(services))
  return parts.watcher === false ? api : Layer.merge(api, Watcher.layer.pipe(Layer.provide(services)))
}

export interface ExchangeServerOptions {
  readonly networkId: number
  /** The Gateway API base URL, e.g. "https://mainnet.radixdlt.com" or "http://127.0.0.1:8080/gateway". */
  readonly gatewayUrl: string
  /**
   * An HttpClient to reach the gateway with (the devnet passes its emulator in process, with no socket); without it,
   * Node's http/https (gateway/node.ts).
   */
  readonly gatewayHttpClient?: HttpClient.HttpClient
  readonly exchangeAccount: string
  /** The exchange account's Ed25519 private key, 64 hex characters. */
  readonly privateKeyHex: string
  /** SQLite file of the server's records (":memory:" for a throwaway one); unused when `databaseUrl` is given. */
  readonly databasePath: string
  /** A `postgres://` URL: the records live in PostgreSQL, shared with every replica pointed at the same database. */
  readonly databaseUrl?: string
  /** Largest pool of PostgreSQL connections of this replica (default 10). */
  readonly databasePoolSize?: number
  /** This replica's name in claims and leases (default: host, pid and random bytes). */
  readonly replicaId?: string
  /** How long a claim on a swap lasts without renewal (default 30 000). */
  readonly claimLeaseMs?: number
  /** How long the watcher's lease lasts without renewal (default 10 000). */
  readonly watcherLeaseMs?: number
  /** Tests only: where a payout may be stopped (default: nowhere; see `Faults`). */
  readonly faults?: Layer.Layer<Faults, never, ServerConfig | Db>
  readonly maintenance?: boolean
  /** Requests per minute and IP; 0 turns the limiter off. Default 120. */
  readonly rateLimitPerMinute?: number
  /** Reverse proxies in front whose `X-Forwarded-For` the limiter trusts (see `clientIp`). Default 0. */
  readonly trustedProxyHops?: number
  /** Origins the API's CORS allows (exactly), or "*" for any; default none (no CORS header at all). */
  readonly corsOrigins?: ReadonlyArray<string> | "*"
  readonly tokens?: ReadonlyArray<TokenSpec>
  readonly priceSeed?: string
  readonly priceSourceUrl?: string
  readonly priceUpdateIntervalMs?: number
  readonly priceStaleAfterMs?: number
  readonly watcherPollMs?: number
  readonly watchFromStateVersion?: number
  readonly registrationWaitMs?: number
  /** How long a quote binds after it is issued, in whole seconds (at least 1). Default 120. */
  readonly quoteTtlSeconds?: number
  /** The secret that signs quote references (at least 32 characters); default: one generated and kept in the database. */
  readonly quoteSecret?: string
  /** The price feed instead of the configured one (tests: `PriceFeed.manual`). */
  readonly prices?: Layer.Layer<PriceFeed>
  /**
   * Offer atomic swaps (`POST /api/atomic-swap`; quotes say `atomic: true`). Default true; they are offered only when
   * the signer can notarize V2 transactions, which the operator key's signer does.
   */
  readonly atomic?: boolean
  /** How long `POST /api/atomic-swap` waits for the outcome before answering 202 (default 5 000). */
  readonly atomicWaitMs?: number
  /** Check at start that the key controls `exchangeAccount`. Default true. */
  readonly verifyKey?: boolean
  readonly logLevel?: LogLevelName
}

export interface ExchangeServer {
  /** Mount this on a `node:http` server: it answers every request under `/api`. */
  readonly mount: {
    readonly prefix: "/api"
    readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
  }
  /** Runs one API request in process (tests, benchmarks). */
  readonly request: (request: ApiRequest) => Promise<{ readonly status: number; readonly json: unknown }>
  readonly runtime: ManagedRuntime.ManagedRuntime<ApiServices, never>
  /**
   * For a stop: settlements and atomic swaps the API started are interrupted and their claims released
   * (`Settlement.stop`, `AtomicSwaps.stop`).
   */
  readonly stopSettling: () => Promise<void>
  /** Stops the watcher and the price feed and closes the database. */
  readonly close: () => Promise<void>
}

const definedOnly = <T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>
  }

/** The server configuration an options object describes. */
export const configFromOptions = (options: ExchangeServerOptions): ServerConfigShape => {
  const ms = (n: number | undefined) => (n === undefined ? undefined : (`${n} millis` as const))
  const base = makeServerConfig({ networkId: options.networkId, exchangeAccount: options.exchangeAccount })
  const durations = definedOnly({
    priceUpdateInterval: ms(options.priceUpdateIntervalMs),
    priceStaleAfter: ms(options.priceStaleAfterMs),
    watcherPollInterval: ms(options.watcherPollMs),
    registrationWait: ms(options.registrationWaitMs),
    quoteTtl: ms(options.quoteTtlSeconds === undefined ? undefined : options.quoteTtlSeconds * 1000),
    atomicWait: ms(options.atomicWaitMs),
    claimLease: ms(options.claimLeaseMs),
    watcherLease: ms(options.watcherLeaseMs)
  })
  return makeServerConfig({
    ...base,
    ...definedOnly({
      maintenance: options.maintenance,
      rateLimitPerMinute: options.rateLimitPerMinute,
      trustedProxyHops: options.trustedProxyHops,
      corsOrigins: options.corsOrigins,
      tokens: options.tokens,
      priceSeed: options.priceSeed,
      watchFromStateVersion: options.watchFromStateVersion,
      quoteSecret: options.quoteSecret,
      replicaId: options.replicaId,
      atomic: options.atomic
    }),
    priceSourceUrl: options.priceSourceUrl,
    ...Object.fromEntries(Object.entries(durations).map(([k, v]) => [k, Duration.decode(v)]))
  })
}

/** The shortest quote secret accepted (`quoteSecret`, `HSWAP_QUOTE_SECRET`). */
export const MIN_QUOTE_SECRET_LENGTH = 32

export class ExchangeServerStartError extends Error {
  override readonly name = "ExchangeServerStartError"
}

/** Builds the exchange server (database migrated, prices started, watcher running) and returns its mount. */
export const startExchangeServer = async (options: ExchangeServerOptions): Promise<ExchangeServer> => {
  const config = configFromOptions(options)
  if (config.tokens.length === 0) {
    throw new ExchangeServerStartError(`no token table for network ${options.networkId}: pass tokens`)
  }
  const ttl = options.quoteTtlSeconds
  if (ttl !== undefined && (!Number.isSafeInteger(ttl) || ttl < 1)) {
    throw new ExchangeServerStartError(`quoteTtlSeconds must be a whole number of seconds, at least 1, got ${ttl}`)
  }
  if (options.quoteSecret !== undefined && options.quoteSecret.length < MIN_QUOTE_SECRET_LENGTH) {
    throw new ExchangeServerStartError(`quoteSecret must be at least ${MIN_QUOTE_SECRET_LENGTH} characters`)
  }
  // Over Node's http/https (gateway/node.ts: a third to a quarter less CPU per request than over Node's fetch,
  // bench:gateway); a given `gatewayHttpClient` (the devnet's in-process emulator, tests) is used as it is.
  const gatewayConfig = {
    basePath: options.gatewayUrl,
    applicationName: "hSwap exchange server",
    applicationVersion: "0.1.0"
  }
  const gateway = (
    options.gatewayHttpClient === undefined
      ? layerNode(gatewayConfig)
      : Gateway.layer(gatewayConfig).pipe(
          Layer.provide(Layer.succeed(HttpClient.HttpClient, options.gatewayHttpClient))
        )
  ).pipe(Layer.orDie)
  const signerOptions = {
    networkId: options.networkId,
    account: options.exchangeAccount,
    privateKeyHex: options.privateKeyHex,
    feeLockXrd: config.feeLockXrd,
    epochWindow: config.payoutEpochWindow
  }
  const logger = Logger.minimumLogLevel(logLevels[options.logLevel ?? "info"])
  const layer = exchangeServerLayer({
    config,
    gateway,
    db:
      options.databaseUrl === undefined
        ? DbLive.sqlite(options.databasePath)
        : DbLive.postgres(
            options.databaseUrl,
            options.databasePoolSize === undefined ? {} : { maxConnections: options.databasePoolSize }
          ),
    signer: Signer.layer(signerOptions),
    ...(options.prices === undefined ? {} : { prices: options.prices }),
    ...(options.faults === undefined ? {} : { faults: options.faults })
  }).pipe(Layer.provide(logger))
  if (options.verifyKey !== false) {
    const derived = await Effect.runPromise(Effect.either(makeSigner(signerOptions).derivedAccount))
    if (derived._tag === "Left") throw new ExchangeServerStartError(derived.left.message)
    if (derived.right !== options.exchangeAccount) {
      throw new ExchangeServerStartError(
        `the operator key controls ${derived.right}, not the exchange account ${options.exchangeAccount}`
      )
    }
  }
  const runtime = ManagedRuntime.make(layer.pipe(Layer.merge(logger)))
  await runtime.runtime()
  const request = (req: ApiRequest) => runtime.runPromise(handleApi(req))
  return {
    mount: { prefix: "/api", handle: await runtime.runPromise(nodeApiHandler) },
    request,
    runtime,
    stopSettling: () =>
      runtime.runPromise(
        Effect.zipRight(
          Effect.flatMap(Settlement, (s) => s.stop),
          Effect.flatMap(Effect.serviceOption(AtomicSwaps), (a) => (Option.isSome(a) ? a.value.stop : Effect.void))
        )
      ),
    close: () => runtime.dispose()
  }
}

export class ExchangeServerStartFailed extends Data.TaggedError("ExchangeServerStartFailed")<{
  readonly message: string
}> {}

/** `startExchangeServer` as a resource of a scope: closing the scope closes the server (its runtime and database). */
export const exchangeServerScoped = (
  options: ExchangeServerOptions
): Effect.Effect<ExchangeServer, ExchangeServerStartFailed, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => startExchangeServer(options),
      catch: (e) => new ExchangeServerStartFailed({ message: e instanceof Error ? e.message : String(e) })
    }),
    (server) => Effect.promise(() => server.close())
  )

/** The handler of a server that serves the API alone: 404 JSON outside `/api`. */
export const apiOnlyHandler =
  (server: ExchangeServer) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    if (path === "/api" || path.startsWith("/api/")) {
      server.mount.handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" })
        res.end(JSON.stringify({ error: "Internal error", message: "Internal error" }))
      })
      return
    }
    res.writeHead(404, { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff" })
    res.end(JSON.stringify({ error: "Not found", message: "Not found" }))
  }

/** What Node refuses before any handler (a malformed request line, headers past its limit): a JSON error too. */
export const clientErrorsAsJson = (http: Server): void => {
  http.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy()
    // Node reports its request timeouts (headers or body too slow) as ERR_HTTP_REQUEST_TIMEOUT; llhttp's own code
    // is HPE_REQUEST_TIMEOUT.
    const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT" || error.code === "HPE_REQUEST_TIMEOUT"
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : timedOut ? 408 : 400
    const message = status === 431 ? "Request headers too large" : status === 408 ? "Request timeout" : "Bad request"
    const body = JSON.stringify({ error: message, message })
    socket.end(
      `HTTP/1.1 ${status} ${message}\r\ncontent-type: application/json; charset=utf-8\r\nx-content-type-options: nosniff\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
    )
  })
}

/** Serves the API alone on `host:port` (for `npm run server`); answers 404 JSON outside `/api`. */
export const listenExchangeServer = async (
  server: ExchangeServer,
  port: number,
  host: string
): Promise<{ readonly url: string; readonly close: () => Promise<void> }> => {
  const http = createServer(apiOnlyHandler(server))
  clientErrorsAsJson(http)
  await new Promise<void>((ok, fail) => {
    http.once("error", fail)
    http.listen(port, host, () => {
      http.off("error", fail)
      ok()
    })
  })
  const address = http.address()
  const actualPort = typeof address === "object" && address !== null ? address.port : port
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`,
    close: () =>
      new Promise<void>((ok) => {
        http.close(() => ok())
        http.closeAllConnections()
      })
  }
}
