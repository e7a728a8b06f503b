/**
 * The exchange API (spec app §7) as one Effect from a plain request to a JSON response, independent of the HTTP
 * server (so it runs under TestClock). Paths are relative to `/api`.
 *
 * Status codes: 200/202 success; 400 bad input; 403 admin from a non-loopback peer; 404 unknown path, resource or
 * transaction; 405 wrong method; 409 maintenance (price, health, swap, transactions); 413 oversized body; 422 a
 * transaction that is not an accepted swap deposit; 429 rate limited; 503 the ledger or a price is unavailable, or a
 * quote could not be stored.
 * Every error body is JSON `{ error, message }`.
 */
import { Clock, Duration, Effect, Option, Ref, Schema } from "effect"
import type {
  HealthResponse,
  LiquidityResponse,
  LivePriceResponse,
  PairStatus,
  StatsResponse,
  SwapRegistrationResponse,
  TransactionRecord
} from "../exchange/api"
import { ForbiddenRoute, RouteNotAvailable } from "../exchange/api"
import {
  type Decimal,
  ZERO,
  addDecimal,
  decimalToString,
  divDecimal,
  mulDecimal,
  parseLooseDecimal,
  toFixedRounded,
  toNumber
} from "../exchange/decimal"
import { Gateway } from "../gateway/index"
import { isAddressOf } from "./address"
import { ServerConfig } from "./config"
import { Db, type SwapRow } from "./Db"
import { accountBalances } from "./ledger"
import { clientIp, Maintenance, RateLimiter, isLoopback } from "./Limits"
import { PriceFeed } from "./PriceFeed"
import { amountLimits, dec, divCeil, effectiveRate } from "./pricing"
import { Quotes } from "./Quotes"
import { Settlement } from "./Settlement"

export interface ApiRequest {
  readonly method: string
  /** The path below `/api`, without the query string: "/health", "/liveprice/a/b", … */
  readonly path: string
  /** The peer's IP address (admin; rate limiting unless proxies are trusted). */
  readonly ip: string
  /** The `X-Forwarded-For` header as received, read only when `trustedProxyHops` > 0. */
  readonly forwardedFor?: string | undefined
  /** The request body as text (POST), or undefined. */
  readonly body: string | undefined
  /** The body was larger than the limit and was not read. */
  readonly bodyTooLarge?: boolean
}

export interface ApiResponse {
  readonly status: number
  readonly json: unknown
  readonly headers?: Readonly<Record<string, string>>
}

export type ApiServices =
  ServerConfig | PriceFeed | Db | Quotes | Settlement | RateLimiter | Maintenance | Gateway | LiquidityCache

const ok = (json: unknown, status = 200): ApiResponse => ({ status, json })
const error = (status: number, message: string, headers?: Readonly<Record<string, string>>): ApiResponse => ({
  status,
  json: { error: message, message },
  ...(headers === undefined ? {} : { headers })
})

const usd = (d: Decimal): number => toNumber(Option.getOrThrow(parseLooseDecimal(toFixedRounded(d, 2))))
const seconds = (ms: number): number => Math.floor(ms / 1000)

/** How a stored swap reads in the API (spec §3 transaction record). */
export const toRecord = (row: SwapRow, exchangeAccount: string): typeof TransactionRecord.Encoded => {
  const status =
    row.state === "completed"
      ? "completed"
      : row.state === "refunded"
        ? "canceled"
        : row.state === "failed" || row.state === "refunding"
          ? "failed"
          : "pending"
  const [, routeTo] = (row.route_text ?? "").split(" -> ")
  const refunded = row.state === "refunded"
  return {
    from: row.sender,
    to: exchangeAccount,
    asset_in: row.symbol_in,
    asset_out: refunded ? row.symbol_in : (row.symbol_out ?? routeTo ?? null),
    amount_in: row.amount_in,
    amount_out: refunded ? row.amount_in : row.amount_out,
    tx_in: row.tx_in,
    tx_out: row.state === "completed" ? row.payout_intent : refunded ? row.refund_intent : null,
    status,
    timestamp_finalized: row.finalized_ms === null ? null : seconds(row.finalized_ms),
    message: row.message,
    resource_in: row.resource_in,
    resource_out: refunded ? row.resource_in : row.resource_out,
    quote_id: row.quote_id,
    quoted_amount_out: row.quoted_out,
    minimum_received: row.min_received,
    refund_tx: refunded ? row.refund_intent : null
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Liquidity, cached briefly so the dialog's refreshes and the 30 s poll do not each walk the account's vaults.

const LIQUIDITY_TTL = Duration.seconds(5)

export class LiquidityCache extends Effect.Service<LiquidityCache>()("hswap/server/LiquidityCache", {
  effect: Effect.gen(function* () {
    const config = yield* ServerConfig
    const gateway = yield* Gateway
    const prices = yield* PriceFeed
    const cache = yield* Ref.make<
      Option.Option<{ readonly at: number; readonly value: typeof LiquidityResponse.Encoded }>
    >(Option.none())
    const compute = Effect.gen(function* () {
      const balances = yield* accountBalances(gateway, config.exchangeAccount)
      const snapshot = yield* prices.snapshot
      const native = config.tokens.filter((t) => t.symbol === "XRD")
      const ordered = [...native, ...config.tokens.filter((t) => t.symbol !== "XRD")]
      const rows = ordered.map((t) => {
        const amount = balances.get(t.resourceAddress) ?? ZERO
        const price = snapshot.get(t.symbol)?.usd ?? ZERO
        return { token: t, amount, value: mulDecimal(amount, price) }
      })
      const total = rows.reduce((sum, r) => addDecimal(sum, r.value), ZERO)
      const assets = rows.map((r) => ({
        symbol: r.token.symbol,
        resource_address: r.token.resourceAddress,
        amount: decimalToString(r.amount),
        amount_usd: usd(r.value),
        allocation_percentage: Option.match(divDecimal(mulDecimal(r.value, dec("100")), total, 4), {
          onNone: () => 0,
          onSome: usd
        }),
        decimals: r.token.decimals
      }))
      return { assets, total_usd_value: usd(total) }
    })
    const get = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const cached = yield* Ref.get(cache)
      if (Option.isSome(cached) && now - cached.value.at < Duration.toMillis(LIQUIDITY_TTL)) return cached.value.value
      const value = yield* compute
      yield* Ref.set(cache, Option.some({ at: now, value }))
      return value
    })
    return { get } as const
  })
}) {}

// ---------------------------------------------------------------------------------------------------------------

const decodeSegment = (s: string): string | undefined => {
  try {
    return decodeURIComponent(s)
  } catch {
    return undefined
  }
}

const SwapBody = Schema.parseJson(Schema.Struct({ tx_hash: Schema.optionalWith(Schema.String, { nullable: true }) }))
const AdminBody = Schema.parseJson(Schema.Struct({ enabled: Schema.Boolean }))

const health = Effect.gen(function* () {
  const config = yield* ServerConfig
  const prices = yield* PriceFeed
  const snapshot = yield* prices.snapshot
  const pairs: Record<string, typeof PairStatus.Encoded> = {}
  for (const t of config.tokens) {
    const quote = snapshot.get(t.symbol)
    const fresh = quote === undefined ? false : yield* prices.isFresh(quote)
    pairs[t.symbol] = {
      price_available: fresh,
      ...(quote === undefined ? {} : { price_usd: toNumber(quote.usd), last_update: seconds(quote.updatedAtMs) }),
      name: t.name,
      logo_url: t.logoUrl
    }
  }
  return ok({ status: "healthy", pairs_status: pairs } satisfies typeof HealthResponse.Encoded)
})

const livePrice = (fromRaw: string, toRaw: string) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const prices = yield* PriceFeed
    const from = decodeSegment(fromRaw)
    const to = decodeSegment(toRaw)
    const tokenIn = config.tokens.find((t) => t.resourceAddress === from)
    const tokenOut = config.tokens.find((t) => t.resourceAddress === to)
    // Known tokens are valid addresses by configuration; only the others are checked (bech32m, network, kind).
    for (const [address, token, raw] of [
      [from, tokenIn, fromRaw],
      [to, tokenOut, toRaw]
    ] as const) {
      if (token === undefined && (address === undefined || !isAddressOf("resource", config.networkId, address))) {
        return error(400, `Invalid resource address: ${(address ?? raw).slice(0, 120)}`)
      }
    }
    if (tokenIn === undefined) return error(404, `Unknown resource: ${from ?? ""}`)
    if (tokenOut === undefined) return error(404, `Unknown resource: ${to ?? ""}`)
    const symbols = { in_symbol: tokenIn.symbol, out_symbol: tokenOut.symbol }
    if (tokenIn.symbol === tokenOut.symbol)
      return ok({ ...symbols, error: ForbiddenRoute } satisfies typeof LivePriceResponse.Encoded)
    if (!config.routes.some(([f, t]) => f === tokenIn.symbol && t === tokenOut.symbol)) {
      return ok({ ...symbols, error: RouteNotAvailable } satisfies typeof LivePriceResponse.Encoded)
    }
    const priceIn = yield* prices.fresh(tokenIn.symbol)
    const priceOut = yield* prices.fresh(tokenOut.symbol)
    if (Option.isNone(priceIn) || Option.isNone(priceOut)) return error(503, "Price not available")
    const limits = amountLimits(priceIn.value.usd, tokenIn.decimals, dec(config.minUsd), dec(config.maxUsd))
    const terms = {
      symbolIn: tokenIn.symbol,
      symbolOut: tokenOut.symbol,
      rate: decimalToString(effectiveRate(priceIn.value.usd, priceOut.value.usd, dec(config.spread))),
      feeOut: decimalToString(divCeil(dec(config.feeUsd), priceOut.value.usd, tokenOut.decimals)),
      minIn: decimalToString(limits.min),
      maxIn: decimalToString(limits.max),
      priceIn: decimalToString(priceIn.value.usd),
      priceOut: decimalToString(priceOut.value.usd)
    }
    // The quote binds these very strings: what is returned is what is stored.
    const quotes = yield* Quotes
    const issued = yield* Effect.either(quotes.issue(terms))
    if (issued._tag === "Left") {
      yield* Effect.logError(`liveprice ${tokenIn.symbol} -> ${tokenOut.symbol}: the quote could not be stored`, issued.left)
      return error(503, "Quote not available")
    }
    return ok({
      ...symbols,
      effective_rate: terms.rate,
      min_amount_in: terms.minIn,
      max_amount_in: terms.maxIn,
      quote_id: issued.right.id,
      quote_expires_at: seconds(issued.right.expiresMs),
      quote_valid_seconds: quotes.validSeconds,
      fee_out: terms.feeOut
    } satisfies typeof LivePriceResponse.Encoded)
  })

const registerSwap = (rawHash: string, req: ApiRequest) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const settlement = yield* Settlement
    if (req.bodyTooLarge === true) return error(413, "Request body too large")
    const txHash = decodeSegment(rawHash)
    if (txHash === undefined || !isAddressOf("txid", config.networkId, txHash)) {
      return error(400, "Invalid transaction hash")
    }
    if (req.body !== undefined && req.body.trim() !== "") {
      const body = Schema.decodeUnknownOption(SwapBody)(req.body)
      if (Option.isNone(body)) return error(400, "The body must be JSON { tx_hash }")
      const given = body.value.tx_hash
      if (given !== undefined && given !== txHash) return error(400, "tx_hash in the body differs from the path")
    }
    return yield* settlement.register(txHash).pipe(
      Effect.map(
        Option.match({
          onNone: () =>
            ok(
              {
                tx_hash: txHash,
                status: "pending",
                message: "Settlement in progress"
              } satisfies typeof SwapRegistrationResponse.Encoded,
              202
            ),
          onSome: (row) => {
            const record = toRecord(row, config.exchangeAccount)
            return ok({
              tx_hash: txHash,
              status: record.status,
              transaction: record,
              ...(record.message === null ? {} : { message: record.message })
            } satisfies typeof SwapRegistrationResponse.Encoded)
          }
        })
      ),
      Effect.catchTags({
        SwapNotFound: (e) => Effect.succeed(error(404, e.message)),
        SwapRefused: (e) => Effect.succeed(error(422, e.reason)),
        SettlementUnavailable: (e) => Effect.succeed(error(503, `Settlement unavailable: ${e.reason}`))
      })
    )
  })

const LATEST = 10
const PER_ACCOUNT = 100

const transactions = (rawAccount: string) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const db = yield* Db
    if (rawAccount === "latest") {
      const rows = yield* db.latest(LATEST)
      return ok({ transactions: rows.map((r) => toRecord(r, config.exchangeAccount)) })
    }
    const account = decodeSegment(rawAccount)
    if (account === undefined || !isAddressOf("account", config.networkId, account)) {
      return error(400, "Invalid account address")
    }
    const rows = yield* db.byAccount(account, PER_ACCOUNT)
    return ok({ transactions: rows.map((r) => toRecord(r, config.exchangeAccount)) })
  })

const btcPrice = Effect.gen(function* () {
  const config = yield* ServerConfig
  const prices = yield* PriceFeed
  const quote = yield* prices.fresh("hBTC")
  if (Option.isNone(quote)) return { status: 503, json: { message: "Bitcoin price unavailable" } } satisfies ApiResponse
  const last = seconds(quote.value.updatedAtMs)
  return ok({
    price: usd(quote.value.usd),
    last_update: last,
    expire: last + Math.floor(Duration.toSeconds(config.priceStaleAfter)),
    symbol: "BTC",
    source: config.priceSourceUrl === undefined ? "simulated" : "http"
  })
})

const stats = Effect.gen(function* () {
  const db = yield* Db
  const liquidity = yield* LiquidityCache
  const totals = yield* db.totals
  const volume = totals.volumes.reduce(
    (sum, v) =>
      addDecimal(
        sum,
        Option.getOrElse(parseLooseDecimal(v), () => ZERO)
      ),
    ZERO
  )
  const tvl = yield* liquidity.get
  return ok({
    total_volume: usd(volume),
    active_users: totals.users,
    tvl: tvl.total_usd_value,
    total_transactions: totals.count
  } satisfies typeof StatsResponse.Encoded)
})

const admin = (req: ApiRequest) =>
  Effect.gen(function* () {
    const maintenance = yield* Maintenance
    if (!isLoopback(req.ip)) return error(403, "Admin is available on loopback only")
    if (req.method === "POST") {
      if (req.bodyTooLarge === true) return error(413, "Request body too large")
      const body = Schema.decodeUnknownOption(AdminBody)(req.body ?? "")
      if (Option.isNone(body)) return error(400, "The body must be JSON { enabled: boolean }")
      yield* maintenance.set(body.value.enabled)
    } else if (req.method !== "GET") {
      return error(405, "Method not allowed")
    }
    return ok({ maintenance: yield* maintenance.enabled })
  })

/** Routes one API request. Never fails: bad input is a 4xx, an unreachable ledger a 503, a defect a JSON 500. */
export const handleApi = (req: ApiRequest): Effect.Effect<ApiResponse, never, ApiServices> =>
  Effect.gen(function* () {
    const segments = req.path.split("/").filter((s) => s !== "")
    const [head, a, b, extra] = segments
    if (req.method === "OPTIONS") return { status: 204, json: null }
    if (head === "admin" && a === "maintenance" && b === undefined) return yield* admin(req)

    const limiter = yield* RateLimiter
    const { trustedProxyHops } = yield* ServerConfig
    const decision = yield* limiter.take(clientIp(req.ip, req.forwardedFor, trustedProxyHops))
    if (!decision.allowed) {
      return error(429, "Rate limit exceeded", { "retry-after": String(decision.retryAfterSeconds) })
    }

    const method = (allowed: string, run: Effect.Effect<ApiResponse, never, ApiServices>, gated: boolean) =>
      Effect.gen(function* () {
        if (req.method !== allowed) return error(405, "Method not allowed", { allow: allowed })
        if (gated && (yield* (yield* Maintenance).enabled)) return error(409, "Service in maintenance")
        return yield* run
      })

    if (extra !== undefined) return error(404, "Not found")
    switch (head) {
      case "health":
        if (a === undefined) return yield* method("GET", health, true)
        break
      case "liveprice":
        if (a !== undefined && b !== undefined) return yield* method("GET", livePrice(a, b), true)
        break
      case "liquidity":
        if (a === undefined)
          return yield* method(
            "GET",
            Effect.map(
              Effect.flatMap(LiquidityCache, (l) => l.get),
              (v) => ok(v)
            ).pipe(Effect.catchAll((e) => Effect.succeed(error(503, `Liquidity unavailable: ${e.message}`)))),
            false
          )
        break
      case "swap":
        if (a !== undefined && b === undefined) return yield* method("POST", registerSwap(a, req), true)
        break
      case "transactions":
        if (a !== undefined && b === undefined) return yield* method("GET", transactions(a), true)
        break
      case "btcbridge":
        if (a === "price" && b === undefined) return yield* method("GET", btcPrice, false)
        break
      case "stats":
        if (a === undefined)
          return yield* method(
            "GET",
            stats.pipe(Effect.catchAll((e) => Effect.succeed(error(503, `Stats unavailable: ${e.message}`)))),
            false
          )
        break
    }
    return error(404, "Not found")
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.as(Effect.logError("exchange API request failed", cause), error(500, "Internal error"))
    ),
    Effect.withSpan("ExchangeServer.request")
  )
