/**
 * Per-IP rate limiting (a token bucket on the Clock) and maintenance mode (a flag set from the environment and
 * toggled by the loopback-only admin endpoint).
 */
import { Clock, Effect, Ref } from "effect"
import { ServerConfig } from "./config"

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

export class Maintenance extends Effect.Service<Maintenance>()("hswap/server/Maintenance", {
  effect: Effect.gen(function* () {
    const { maintenance } = yield* ServerConfig
    const flag = yield* Ref.make(maintenance)
    const set = Effect.fn("Maintenance.set")(function* (on: boolean) {
      yield* Ref.set(flag, on)
      yield* Effect.logInfo(`maintenance mode ${on ? "on" : "off"}`)
    })
    return { enabled: Ref.get(flag), set } as const
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
