/** Gateway client configuration, its defaults, and the retry schedule built from it. */
import { Duration, Effect, Option, Schedule } from "effect"
import type { GatewayError } from "./errors"
import { UnknownNetworkError } from "./clientErrors"
import { DefaultGatewayUrl, RadixNetworkConfigById } from "./networks"

/**
 * How reads are retried. `/transaction/submit` is never retried. A server's `retry-after` (on a 429 or a 5xx) is
 * honoured: that request waits that long, and no request of the client starts before then.
 */
export interface GatewayRetryPolicy {
  /** Retries after the first attempt, whatever their causes, per request (0 disables retries). Default 3. */
  readonly retries: number
  /** First backoff delay. Default 2 s. */
  readonly baseDelay: Duration.DurationInput
  /** Backoff multiplier. Default 2. */
  readonly factor: number
  /** Cap on each backoff delay. Default 10 s. */
  readonly maxDelay: Duration.DurationInput
  /** Cap on a server-given `retry-after`. Default 60 s. */
  readonly maxRetryAfter: Duration.DurationInput
}

export interface GatewayConfig {
  /** Picks the public gateway of this network when `basePath` is not set. */
  readonly networkId?: number
  /** Gateway base URL; wins over `networkId`. A trailing slash is dropped. */
  readonly basePath?: string
  readonly applicationName: string
  readonly applicationVersion?: string
  readonly applicationDappDefinitionAddress?: string
  /** Addresses per `/state/entity/details` request. Default 20. */
  readonly maxAddressesCount?: number
  /** Non-fungible ids per `/state/non-fungible/data|location` request. Default 29. */
  readonly maxNftIdsCount?: number
  /** Validators per `/statistics/validators/uptime` request. Default 200. */
  readonly maxValidatorsUptimeCount?: number
  /**
   * Requests in flight at first, per client. Default 4. The limit then adapts (see limiter.ts): it grows while answers
   * are healthy, up to `maxConcurrency`, and halves on 429, 5xx (524 included) and timeouts.
   */
  readonly concurrency?: number
  /** The most requests in flight at once, per client, however healthy the answers. Default 64. */
  readonly maxConcurrency?: number
  readonly retry?: Partial<GatewayRetryPolicy>
  /** Per attempt. Default 30 s (the server itself gives up after 10 s with a 524). */
  readonly timeout?: Duration.DurationInput
  /** Extra headers (e.g. an API key for a private gateway). The RDX-* headers win over same-named ones. */
  readonly headers?: Readonly<Record<string, string>>
}

export const GatewayDefaults = {
  maxAddressesCount: 20,
  maxNftIdsCount: 29,
  maxValidatorsUptimeCount: 200,
  concurrency: 4,
  maxConcurrency: 64,
  timeout: Duration.seconds(30),
  retry: {
    retries: 3,
    baseDelay: Duration.seconds(2),
    factor: 2,
    maxDelay: Duration.seconds(10),
    maxRetryAfter: Duration.seconds(60)
  } satisfies GatewayRetryPolicy
} as const

/** The client name and version sent as `RDX-Client-Name` / `RDX-Client-Version`. */
export const GatewayClientName = "hswap-gateway-client"
export const GatewayClientVersion = "1.10.1"

export interface ResolvedGatewayConfig {
  readonly basePath: string
  readonly headers: Readonly<Record<string, string>>
  readonly maxAddressesCount: number
  readonly maxNftIdsCount: number
  readonly maxValidatorsUptimeCount: number
  readonly concurrency: number
  readonly maxConcurrency: number
  readonly retry: GatewayRetryPolicy
  readonly timeout: Duration.Duration
}

const positive = (value: number | undefined, fallback: number) =>
  value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback

/** `basePath` wins, then `networkId`; with neither, mainnet. An id without a public URL is an {@link UnknownNetworkError}. */
export const resolveBasePath = (config: Pick<GatewayConfig, "basePath" | "networkId">) => {
  if (config.basePath !== undefined && config.basePath !== "")
    return Effect.succeed(config.basePath.replace(/\/+$/, ""))
  if (config.networkId === undefined) return Effect.succeed(DefaultGatewayUrl)
  const url = RadixNetworkConfigById[config.networkId]?.gatewayUrl
  return url === undefined ? Effect.fail(new UnknownNetworkError({ networkId: config.networkId })) : Effect.succeed(url)
}

export const resolveGatewayConfig = (config: GatewayConfig) =>
  Effect.map(resolveBasePath(config), (basePath): ResolvedGatewayConfig => {
    const known = (value: string | undefined) => (value === undefined || value === "" ? "Unknown" : value)
    return {
      basePath,
      headers: {
        ...config.headers,
        "RDX-Client-Name": GatewayClientName,
        "RDX-Client-Version": GatewayClientVersion,
        "RDX-App-Name": known(config.applicationName),
        "RDX-App-Version": known(config.applicationVersion),
        "RDX-App-Dapp-Definition": known(config.applicationDappDefinitionAddress)
      },
      maxAddressesCount: positive(config.maxAddressesCount, GatewayDefaults.maxAddressesCount),
      maxNftIdsCount: positive(config.maxNftIdsCount, GatewayDefaults.maxNftIdsCount),
      maxValidatorsUptimeCount: positive(config.maxValidatorsUptimeCount, GatewayDefaults.maxValidatorsUptimeCount),
      concurrency: positive(config.concurrency, GatewayDefaults.concurrency),
      maxConcurrency: Math.max(
        positive(config.maxConcurrency, GatewayDefaults.maxConcurrency),
        positive(config.concurrency, GatewayDefaults.concurrency)
      ),
      retry: { ...GatewayDefaults.retry, ...config.retry },
      timeout: config.timeout === undefined ? GatewayDefaults.timeout : Duration.decode(config.timeout)
    }
  })

/** Whether a failed read is worth another try: 429, 5xx (incl. 524), transport failures and timeouts. */
export const isRetryable = (error: GatewayError): boolean => {
  switch (error._tag) {
    case "GatewayResponseError":
      return error.status === 429 || error.status >= 500
    case "GatewayTransportError":
    case "GatewayTimeoutError":
      return true
    default:
      return false
  }
}

/**
 * The retry schedule for reads: exponential `baseDelay × factor^n` capped at `maxDelay`, at most `retries` times, only
 * for retryable errors; a 429 waits what its `retry-after` said (capped at `maxRetryAfter`) instead.
 */
export const gatewayRetrySchedule = (policy: GatewayRetryPolicy): Schedule.Schedule<unknown, GatewayError> => {
  const cap = Duration.decode(policy.maxDelay)
  const retryAfterCap = Duration.decode(policy.maxRetryAfter)
  return Schedule.exponential(policy.baseDelay, policy.factor).pipe(
    Schedule.modifyDelay((_, delay) => Duration.min(delay, cap)),
    Schedule.intersect(Schedule.recurs(policy.retries)),
    Schedule.intersect(Schedule.identity<GatewayError>()),
    Schedule.whileInput(isRetryable),
    Schedule.modifyDelay(([, error], delay) =>
      error._tag === "GatewayResponseError" && error.retryAfterMillis !== undefined
        ? Duration.min(Duration.millis(error.retryAfterMillis), retryAfterCap)
        : delay
    )
  )
}

/** Parses `retry-after` (delta seconds or an HTTP date) into milliseconds from `now`. */
export const parseRetryAfter = (value: string | undefined, now: number): Option.Option<number> => {
  if (value === undefined) return Option.none()
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Option.some(Math.round(Number(trimmed) * 1000))
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? Option.none() : Option.some(Math.max(0, date - now))
}
