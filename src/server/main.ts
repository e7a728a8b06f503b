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
 *   HSWAP_ATOMIC                on | off: atomic swaps (POST /api/atomic-swap; quotes say `atomic: true`) (default on)
 *   HSWAP_LOG_LEVEL             none | error | warning | info | debug (default info)
 *   HSWAP_DRAIN_SECONDS         how long a stop (SIGTERM, SIGINT) drains before exiting, 0 to 3600 (default 10)
 *   HSWAP_KEEP_ALIVE_SECONDS    how long an idle keep-alive connection stays open, 1 to 3600 (default 5); behind a
 *                               load balancer, longer than its idle timeout for upstream connections
 */
import type { Server } from "node:http"
import { NodeRuntime } from "@effect/platform-node"
import {
  Config,
  ConfigError as EffectConfigError,
  ConfigProvider,
  Console,
  Duration,
  Effect,
  Either,
  Layer,
  Option,
  Redacted,
  Schema
} from "effect"
import { DevnetAddresses } from "../exchange/devnet-addresses"
import { RadixNetworkConfigById } from "../gateway/index"
import {
  type ExchangeServerOptions,
  isPostgresUrl,
  type LogLevelName,
  MIN_QUOTE_SECRET_LENGTH,
  type TokenSpec,
  ExchangeServerStartFailed,
  apiOnlyHandler,
  clientErrorsAsJson,
  exchangeServerScoped
} from "./index"
import { type ListenError, drainingServer } from "./http"

/**
 * The private key of the devnet genesis exchange account (`DevnetAddresses.exchangeAccount`): a published test key,
 * derived by the devnet from its default seed (`src/devnet/ledger/genesis.ts`) and kept here as a constant because the
 * server never imports the devnet; `test/server/standalone.test.ts` re-derives it.
 */
export const DEVNET_EXCHANGE_PRIVATE_KEY_HEX = "65e5a7a0ba09d639de9274f51e83ff517c138c06be42d0994c377d999a8fcef3"

/** A variable of the environment is missing or wrong; the message names it and says what it must be. */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", { message: Schema.String }) {}

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

const invalid = (name: string, message: string) => EffectConfigError.InvalidData([name], message)

/** A variable that is unset or empty is `None` (an empty value means "the default", as it always has). */
const optional = <A>(config: Config.Config<A>, isEmpty: (a: A) => boolean): Config.Config<Option.Option<A>> =>
  Config.option(config).pipe(Config.map(Option.filter((a) => !isEmpty(a))))

const text = (name: string) => optional(Config.string(name), (s) => s === "")

const secret = (name: string) => optional(Config.redacted(name), (r) => Redacted.value(r) === "")

/** A whole number from `min` to `max` written in decimal digits only ("12.5", "2m", "-1", "1e3" are refused). */
export const wholeNumber = (name: string, min: number, max: number): Config.Config<Option.Option<number>> =>
  text(name).pipe(
    Config.mapOrFail(
      Option.match({
        onNone: () => Either.right(Option.none<number>()),
        onSome: (raw) => {
          const n = Number(raw)
          return /^\d+$/.test(raw) && Number.isSafeInteger(n) && n >= min && n <= max
            ? Either.right(Option.some(n))
            : Either.left(
                invalid(name, `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`)
              )
        }
      })
    )
  )

const LEVELS: ReadonlyArray<LogLevelName> = ["none", "error", "warning", "info", "debug"]

const logLevel = text("HSWAP_LOG_LEVEL").pipe(
  Config.mapOrFail((raw) => {
    const level = LEVELS.find((l) => l === Option.getOrElse(raw, () => "info"))
    return level === undefined
      ? Either.left(invalid("HSWAP_LOG_LEVEL", `HSWAP_LOG_LEVEL must be one of ${LEVELS.join(", ")}`))
      : Either.right(level)
  })
)

const tokens = text("HSWAP_TOKENS").pipe(
  Config.mapOrFail(
    Option.match({
      onNone: () => Either.right(Option.none<ReadonlyArray<TokenSpec>>()),
      onSome: (raw) =>
        Schema.decodeUnknownEither(TokensJson)(raw).pipe(
          Either.mapLeft((e) => invalid("HSWAP_TOKENS", `HSWAP_TOKENS is not a valid token table: ${e.message}`)),
          Either.map((table) =>
            Option.some(
              table.map((t): TokenSpec => ({
                symbol: t.symbol,
                name: t.name ?? t.symbol,
                resourceAddress: t.resource_address,
                decimals: t.decimals,
                referenceUsd: t.reference_usd,
                volatilityBp: t.volatility_bp ?? 10,
                logoUrl: t.logo_url ?? ""
              }))
            )
          )
        )
    })
  )
)

const corsOrigins = optional(Config.string("HSWAP_CORS_ORIGINS"), (s) => s.trim() === "").pipe(
  Config.mapOrFail(
    Option.match({
      onNone: () => Either.right(Option.none<ReadonlyArray<string> | "*">()),
      onSome: (raw): Either.Either<Option.Option<ReadonlyArray<string> | "*">, EffectConfigError.ConfigError> => {
        if (raw.trim() === "*") return Either.right(Option.some("*"))
        const origins = raw
          .split(",")
          .map((o) => o.trim())
          .filter((o) => o !== "")
        const bad = origins.find((origin) => !URL.canParse(origin) || new URL(origin).origin !== origin)
        return bad === undefined
          ? Either.right(Option.some(origins))
          : Either.left(
              invalid(
                "HSWAP_CORS_ORIGINS",
                `HSWAP_CORS_ORIGINS lists ${JSON.stringify(bad)}, which is not an origin like https://app.example`
              )
            )
      }
    })
  )
)

const quoteSecret = secret("HSWAP_QUOTE_SECRET").pipe(
  Config.mapOrFail((value) =>
    Option.isSome(value) && Redacted.value(value.value).length < MIN_QUOTE_SECRET_LENGTH
      ? Either.left(
          invalid(
            "HSWAP_QUOTE_SECRET",
            `HSWAP_QUOTE_SECRET must be at least ${MIN_QUOTE_SECRET_LENGTH} characters (got ${Redacted.value(value.value).length})`
          )
        )
      : Either.right(value)
  )
)

const databaseUrl = secret("HSWAP_DATABASE_URL").pipe(
  Config.mapOrFail((value) =>
    Option.isSome(value) && !isPostgresUrl(Redacted.value(value.value))
      ? Either.left(invalid("HSWAP_DATABASE_URL", "HSWAP_DATABASE_URL must be a postgres:// (or postgresql://) URL"))
      : Either.right(value)
  )
)

const privateKey = (devnet: boolean) =>
  secret("HSWAP_EXCHANGE_PRIVATE_KEY").pipe(
    Config.mapOrFail((value) => {
      const hex = Option.isSome(value) ? Redacted.value(value.value) : devnet ? DEVNET_EXCHANGE_PRIVATE_KEY_HEX : ""
      return /^[0-9a-fA-F]{64}$/.test(hex)
        ? Either.right(hex)
        : Either.left(
            invalid(
              "HSWAP_EXCHANGE_PRIVATE_KEY",
              "HSWAP_EXCHANGE_PRIVATE_KEY must be the exchange account's Ed25519 private key (64 hex characters)"
            )
          )
    })
  )

/** `HSWAP_ATOMIC`: "on" or "off" (either case); unset or empty is the default, on. */
export const atomicSwitch: Config.Config<Option.Option<boolean>> = text("HSWAP_ATOMIC").pipe(
  Config.mapOrFail(
    Option.match({
      onNone: () => Either.right(Option.none<boolean>()),
      onSome: (raw) => {
        const value = raw.trim().toLowerCase()
        return value === "on" || value === "off"
          ? Either.right(Option.some(value === "on"))
          : Either.left(invalid("HSWAP_ATOMIC", `HSWAP_ATOMIC must be on or off, got ${JSON.stringify(raw)}`))
      }
    })
  )
)

const flag = text("HSWAP_MAINTENANCE").pipe(
  Config.map(Option.match({ onNone: () => false, onSome: (v) => v === "1" || v.toLowerCase() === "true" }))
)

export interface StandaloneOptions {
  readonly server: ExchangeServerOptions
  readonly host: string
  readonly port: number
  /** How long a stop waits for the requests and settlements in flight before it cuts them off. */
  readonly drainSeconds: number
  /** How long an idle keep-alive connection is kept open (`HSWAP_KEEP_ALIVE_SECONDS`). */
  readonly keepAliveSeconds: number
}

/** The default of `HSWAP_DRAIN_SECONDS`. */
export const DEFAULT_DRAIN_SECONDS = 10

/** The default of `HSWAP_KEEP_ALIVE_SECONDS`: Node's own `keepAliveTimeout`. */
export const DEFAULT_KEEP_ALIVE_SECONDS = 5

/**
 * The listener's idle keep-alive time, and its headers timeout a second beyond it (Node's advice: a headers timeout
 * shorter than the keep-alive time can cut a request that arrives on a connection reused late in its idle time).
 * A load balancer that reuses an upstream connection the server closes at that moment gets the request reset (a 502
 * for its client, as it does not resend a POST): the server must keep connections longer than the balancer does.
 */
export const keepConnectionsFor =
  (seconds: number) =>
  (http: Server): void => {
    http.keepAliveTimeout = seconds * 1000
    http.headersTimeout = Math.max(http.headersTimeout, seconds * 1000 + 1000)
  }

/** What `npm run server` reads from its environment (effect's `Config`: from the process environment by default). */
export const standaloneConfig: Effect.Effect<StandaloneOptions, EffectConfigError.ConfigError> = Effect.gen(
  function* () {
    const networkId = Option.getOrElse(yield* wholeNumber("HSWAP_NETWORK_ID", 0, 255), () => 240)
    const devnet = networkId === 240
    const gatewayUrl = Option.getOrElse(yield* text("HSWAP_GATEWAY_URL"), () =>
      devnet ? "http://127.0.0.1:8080/gateway" : RadixNetworkConfigById[networkId]?.gatewayUrl
    )
    if (gatewayUrl === undefined) {
      return yield* Effect.fail(
        EffectConfigError.MissingData(["HSWAP_GATEWAY_URL"], `HSWAP_GATEWAY_URL is required for network ${networkId}`)
      )
    }
    const exchangeAccount = Option.getOrElse(yield* text("HSWAP_EXCHANGE_ACCOUNT"), () =>
      devnet ? DevnetAddresses.exchangeAccount : undefined
    )
    if (exchangeAccount === undefined) {
      return yield* Effect.fail(
        EffectConfigError.MissingData(["HSWAP_EXCHANGE_ACCOUNT"], "HSWAP_EXCHANGE_ACCOUNT is required")
      )
    }
    const privateKeyHex = yield* privateKey(devnet)
    const level = yield* logLevel
    const table = yield* tokens
    const maintenance = yield* flag
    const rateLimit = yield* wholeNumber("HSWAP_RATE_LIMIT", 0, 1_000_000)
    const proxyHops = yield* wholeNumber("HSWAP_TRUSTED_PROXY_HOPS", 0, 10)
    const watchFrom = yield* wholeNumber("HSWAP_WATCH_FROM_STATE_VERSION", 1, Number.MAX_SAFE_INTEGER)
    const priceSourceUrl = yield* text("HSWAP_PRICE_SOURCE_URL")
    const priceSeed = yield* text("HSWAP_PRICE_SEED")
    const quoteTtl = yield* wholeNumber("HSWAP_QUOTE_TTL_SECONDS", 10, 3600)
    const quote = yield* quoteSecret
    const cors = yield* corsOrigins
    const database = yield* databaseUrl
    const poolSize = yield* wholeNumber("HSWAP_DB_POOL_SIZE", 1, 100)
    const claimLease = yield* wholeNumber("HSWAP_CLAIM_LEASE_SECONDS", 2, 600)
    const watcherLease = yield* wholeNumber("HSWAP_WATCHER_LEASE_SECONDS", 2, 600)
    const watcherPoll = yield* wholeNumber("HSWAP_WATCHER_POLL_MS", 50, 60_000)
    const replicaId = yield* text("HSWAP_REPLICA_ID")
    const drain = yield* wholeNumber("HSWAP_DRAIN_SECONDS", 0, 3600)
    const keepAlive = yield* wholeNumber("HSWAP_KEEP_ALIVE_SECONDS", 1, 3600)
    const atomic = yield* atomicSwitch
    const port = yield* wholeNumber("HSWAP_PORT", 0, 65535)
    const fallbackPort = Option.isSome(port) ? port : yield* wholeNumber("PORT", 0, 65535)
    const some = <K extends string, A>(key: K, value: Option.Option<A>): { [P in K]?: A } =>
      Option.match(value, { onNone: () => ({}), onSome: (v) => ({ [key]: v }) as { [P in K]?: A } })
    const times = (k: number) => (n: number) => n * k
    return {
      host: Option.getOrElse(yield* text("HSWAP_HOST"), () => "127.0.0.1"),
      port: Option.getOrElse(fallbackPort, () => 8090),
      drainSeconds: Option.getOrElse(drain, () => DEFAULT_DRAIN_SECONDS),
      keepAliveSeconds: Option.getOrElse(keepAlive, () => DEFAULT_KEEP_ALIVE_SECONDS),
      server: {
        networkId,
        gatewayUrl,
        exchangeAccount,
        privateKeyHex,
        databasePath: Option.getOrElse(yield* text("HSWAP_DB_PATH"), () =>
          devnet ? ".devnet/exchange-standalone.sqlite" : ".exchange/exchange.sqlite"
        ),
        maintenance,
        logLevel: level,
        ...some("rateLimitPerMinute", rateLimit),
        ...some("trustedProxyHops", proxyHops),
        ...some("watchFromStateVersion", watchFrom),
        ...some("priceSourceUrl", priceSourceUrl),
        ...some("priceSeed", priceSeed),
        ...some("quoteTtlSeconds", quoteTtl),
        ...some("quoteSecret", Option.map(quote, Redacted.value)),
        ...some("tokens", table),
        ...some("databaseUrl", Option.map(database, Redacted.value)),
        ...some("corsOrigins", cors),
        ...some("databasePoolSize", poolSize),
        ...some("claimLeaseMs", Option.map(claimLease, times(1000))),
        ...some("watcherLeaseMs", Option.map(watcherLease, times(1000))),
        ...some("watcherPollMs", watcherPoll),
        ...some("replicaId", replicaId),
        ...some("atomic", atomic)
      }
    }
  }
)

/** The messages of a configuration failure, one per variable at fault (effect's own rendering adds paths and quotes). */
const messagesOf = (error: EffectConfigError.ConfigError): ReadonlyArray<string> => {
  switch (error._op) {
    case "And":
    case "Or":
      return [...messagesOf(error.left), ...messagesOf(error.right)]
    case "InvalidData":
    case "MissingData":
    case "Unsupported":
      return [error.message]
    case "SourceUnavailable":
      return [`${error.path.join(".")}: ${error.message}`]
  }
}

/** What a configuration failure says in one line: each variable at fault once, in the words it was refused with. */
export const configMessage = (error: EffectConfigError.ConfigError): string =>
  [...new Set(messagesOf(error))].join("; ")

/** `standaloneConfig` with its failure as a `ConfigError` naming the variable at fault. */
export const standaloneOptions: Effect.Effect<StandaloneOptions, ConfigError> = standaloneConfig.pipe(
  Effect.mapError((e) => new ConfigError({ message: configMessage(e) }))
)

/** Reads `env` (tests, and callers with an environment of their own); rejects with a `ConfigError`. */
export const optionsFromEnv = async (env: NodeJS.ProcessEnv): Promise<StandaloneOptions> => {
  const read = await Effect.runPromise(
    standaloneOptions.pipe(
      Effect.withConfigProvider(
        ConfigProvider.fromMap(
          new Map(Object.entries(env).flatMap(([k, v]) => (v === undefined ? [] : [[k, v] as const])))
        )
      ),
      Effect.either
    )
  )
  if (Either.isLeft(read)) throw read.left
  return read.right
}

/**
 * The server on `options` as a Layer: the exchange server (runtime, database) and its HTTP listener are resources of
 * one scope, released in reverse on a stop: the listener drains first (`HSWAP_DRAIN_SECONDS`), then the server closes.
 */
export const standaloneLayer = (
  options: StandaloneOptions
): Layer.Layer<never, ExchangeServerStartFailed | ListenError> =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const server = yield* exchangeServerScoped(options.server)
      const http = yield* drainingServer({
        port: options.port,
        host: options.host,
        drain: Duration.seconds(options.drainSeconds),
        handle: apiOnlyHandler(server),
        onDrain: Effect.promise(() => server.stopSettling()),
        configure: (listener) => {
          clientErrorsAsJson(listener)
          keepConnectionsFor(options.keepAliveSeconds)(listener)
        }
      })
      const store = options.server.databaseUrl === undefined ? `SQLite ${options.server.databasePath}` : "PostgreSQL"
      yield* Console.log(
        `hSwap exchange server on ${http.url}/api (network ${options.server.networkId}, gateway ${options.server.gatewayUrl}, ${store})`
      )
      // Added last, so run first when the scope closes.
      yield* Effect.addFinalizer(() => Console.log("stopping…"))
    })
  )

/** Runs `layer` until SIGINT or SIGTERM (then releases it and exits 0); a failure prints `error: …` and exits 1. */
export const launch = <E extends { readonly message: string }>(layer: Layer.Layer<never, E>): void =>
  Layer.launch(layer).pipe(
    Effect.tapError((e) => Console.error(`error: ${e.message}`)),
    NodeRuntime.runMain({ disableErrorReporting: true })
  )

/** Serves `options` until SIGINT or SIGTERM. */
export const serveStandalone = (options: StandaloneOptions): void => launch(standaloneLayer(options))

if (process.argv[1]?.endsWith("src/server/main.ts") === true) {
  launch(Layer.unwrapEffect(Effect.map(standaloneOptions, standaloneLayer)))
}
