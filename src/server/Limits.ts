/**
 * Per-IP rate limiting (a token bucket on the Clock) and maintenance mode (a flag set from the environment and
 * toggled by the loopback-only admin endpoint).
 *
 * With several replicas on PostgreSQL, maintenance is shared through the database (`kv` key `maintenance`): a toggle
 * on any replica holds on every replica within `MAINTENANCE_REFRESH` (each reads the flag at most once per second).
 * The rate limit stays per replica: each keeps its own buckets, so behind N replicas a client that the balancer
 * spreads over all of them gets up to N × `rateLimitPerMinute` a minute (one replica's limit when the balancer pins
 * clients to a replica). Set the limit per replica accordingly, or limit at the balancer.
 */
import { Clock, Duration, Effect, Ref } from "effect"
import { ServerConfig } from "./config"
import { Db } from "./Db"

export interface RateDecision {
  readonly allowed: boolean
  /** Whole seconds until one request is allowed again (0 when allowed). */
  readonly retryAfterSeconds: number
}

const MAX_TRACKED = 50_000

/**
 * A bucket per IP holding up to `rateLimitPerMinute` tokens, refilled continuously at that many per minute; each
 * request takes one. With a limit of 0 every request is allowed.
 */
export class RateLimiter extends Effect.Service<RateLimiter>()("hswap/server/RateLimiter", {
  effect: Effect.gen(function* () {
    const { rateLimitPerMinute: capacity } = yield* ServerConfig
    const buckets = new Map<string, { tokens: number; at: number }>()
    const perMs = capacity / 60_000

    const take = Effect.fn("RateLimiter.take")(function* (ip: string) {
      if (capacity <= 0) return { allowed: true, retryAfterSeconds: 0 } satisfies RateDecision
      const now = yield* Clock.currentTimeMillis
      const bucket = buckets.get(ip) ?? { tokens: capacity, at: now }
      const tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) * perMs)
      if (tokens >= 1) {
        if (buckets.size >= MAX_TRACKED && !buckets.has(ip)) {
          for (const [key, b] of buckets) if (b.tokens + (now - b.at) * perMs >= capacity) buckets.delete(key)
        }
        buckets.set(ip, { tokens: tokens - 1, at: now })
        return { allowed: true, retryAfterSeconds: 0 } satisfies RateDecision
      }
      buckets.set(ip, { tokens, at: now })
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000))
      } satisfies RateDecision
    })
    return { take } as const
  })
}) {}

/** The `kv` key of the shared maintenance flag (PostgreSQL): "1" on, "0" off. */
export const MAINTENANCE_KEY = "maintenance"

/** How stale a replica's view of the shared maintenance flag may be. */
export const MAINTENANCE_REFRESH = Duration.seconds(1)

export class Maintenance extends Effect.Service<Maintenance>()("hswap/server/Maintenance", {
  effect: Effect.gen(function* () {
    const { maintenance } = yield* ServerConfig
    const db = yield* Db
    const logged = (on: boolean) => Effect.logInfo(`maintenance mode ${on ? "on" : "off"}`)
    if (db.dialect !== "pg") {
      const flag = yield* Ref.make(maintenance)
      const set = Effect.fn("Maintenance.set")(function* (on: boolean) {
        yield* Ref.set(flag, on)
        yield* logged(on)
      })
      return { enabled: Ref.get(flag), set } as const
    }
    // Shared: starting a replica with the flag turns maintenance on for all; without it, the stored value holds.
    if (maintenance) yield* db.setKv(MAINTENANCE_KEY, "1")
    // Read at most once per MAINTENANCE_REFRESH however many requests ask at once (they share the read in flight);
    // this replica's own change is seen at once.
    const [enabled, invalidate] = yield* Effect.cachedInvalidateWithTTL(
      Effect.map(db.getKv(MAINTENANCE_KEY), (stored) => (stored._tag === "Some" ? stored.value === "1" : maintenance)),
      MAINTENANCE_REFRESH
    )
    const set = Effect.fn("Maintenance.set")(function* (on: boolean) {
      yield* db.setKv(MAINTENANCE_KEY, on ? "1" : "0")
      yield* invalidate
      yield* logged(on)
    })
    return { enabled, set } as const
  })
}) {}

/**
 * The address the rate limiter counts. Behind `hops` reverse proxies that each append the address they received the
 * request from to `X-Forwarded-For`, the client is the entry `hops` places from the right: entries further left were
 * written by the client and can be anything. With no trusted proxy (0, the default), or a header shorter than the
 * chain (the request did not come through it), the peer's own address counts.
 */
export const clientIp = (peer: string, forwardedFor: string | undefined, hops: number): string => {
  if (hops <= 0 || forwardedFor === undefined) return peer
  const chain = forwardedFor
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
  return chain[chain.length - hops] ?? peer
}

/** Loopback peers (IPv4, IPv6 and IPv4-mapped IPv6). */
export const isLoopback = (ip: string): boolean =>
  ip === "::1" || /^127\.\d+\.\d+\.\d+$/.test(ip) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(ip)
