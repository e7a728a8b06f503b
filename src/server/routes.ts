/**
 * The exchange API (spec app §7): the handlers of the shared definition (`src/exchange/definition.ts`), built into one
 * `HttpApp` with `HttpApiBuilder`, behind the few rules that hold for every path alike (`exchangeHttpApp`):
 *
 * - a body must be JSON declared as such (415), and is read up to `maxBodyBytes` (413, answered by the routes that
 *   take a body; the connection is then closed);
 * - CORS through the platform's middleware, for the configured origins only, never on the admin group;
 * - the rate limit per client (429 with `retry-after`), before routing, for every path but the admin group;
 * - an unknown path is a 404, a known one with another method a 405 naming the right one (`allow`), both read off the
 *   definition; a defect is a logged JSON 500.
 *
 * Status codes: 200/202 success; 400 bad input; 403 admin from a non-loopback peer; 404 unknown path, resource or
 * transaction (and both atomic-swap paths when the feature is off); 405 wrong method; 409 maintenance (price, health,
 * swap, atomic swap, transactions); 413 oversized body; 415 a body not sent as JSON; 422 a transaction that is not an
 * accepted swap deposit, or a pre-authorisation the exchange will not submit (`{ error, message, reason }`); 429 rate
 * limited; 503 the ledger, a price or the database is unavailable (the database with `retry-after`), or a quote could
 * not be stored. Every error body is JSON `{ error, message }` (the bridge price's 503 is `{ message }`).
 *
 * Successes are written in the encoded form of their schema directly (typed with `satisfies`): the wire format stays
 * exactly what it was (a `null` stays `null`), and the hot paths (price, health) skip a per-request encode.
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApp,
  HttpIncomingMessage,
  HttpMiddleware,
  HttpRouter,
  HttpServer,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse,
  type HttpApiEndpoint
} from "@effect/platform"
import { BigDecimal, Cause, Clock, Context, Duration, Effect, Layer, Option, Ref, Schema } from "effect"
import type {
  AtomicSwapResponse,
  HealthResponse,
  LiquidityResponse,
  LivePriceResponse,
  PairStatus,
  StatsResponse,
  SwapRegistrationResponse,
  TransactionRecord,
  TransactionsResponse
} from "../exchange/api"
import { AtomicSwapRequest, ForbiddenRoute, RouteNotAvailable, SwapRegistrationRequest } from "../exchange/api"
import {
  ADMIN_PREFIX,
  API_PREFIX,
  AtomicRefused,
  BadRequest,
  BtcPriceUnavailable,
  ExchangeHttpApi,
  Forbidden,
  InMaintenance,
  InternalError,
  MaintenanceGate,
  MaintenanceToggle,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  SwapRegistrationPending,
  Unavailable,
  UnsupportedMediaType,
  Unprocessable,
  errorBody,
  errorStatus
} from "../exchange/definition"
import { Gateway } from "../gateway/index"
import { divideDown, formatFixedRounded, formatPlain } from "../lib/decimalText"
import { decodeTransactionId, toHex } from "../txv2/index"
import { isAddressOf } from "./address"
import { AtomicSwaps } from "./atomic/AtomicSwaps"
import { ServerConfig } from "./config"
import { Db, type SwapRow } from "./Db"
import { ATOMIC_FINAL_STATES, type AtomicSwapRow } from "./db/atomicSwaps"
import { unreachableDatabase } from "./db/reachable"
import { accountBalances } from "./ledger"
import { clientIp, Maintenance, RateLimiter, isLoopback } from "./Limits"
import { PriceFeed } from "./PriceFeed"
import { amountLimits, dec, divCeil, effectiveRate } from "./pricing"
import { Quotes } from "./Quotes"
import { Settlement } from "./Settlement"

/** One API request in process (tests, `ExchangeServer.request`): what `handleApi` turns into an HTTP request. */
export interface ApiRequest {
  readonly method: string
  /** The path below `/api`, without the query string: "/health", "/liveprice/a/b", … */
  readonly path: string
  /** The peer's IP address (admin; rate limiting unless proxies are trusted). */
  readonly ip: string
  /** The `X-Forwarded-For` header as received, read only when `trustedProxyHops` > 0. */
  readonly forwardedFor?: string | undefined
  /** The request body, JSON text (sent as `application/json`), or undefined. */
  readonly body: string | undefined
  /** The body was larger than the limit (a body of `maxBodyBytes + 1` bytes is sent instead of `body`). */
  readonly bodyTooLarge?: boolean
}

export interface ApiResponse {
  readonly status: number
  readonly json: unknown
  /** The headers the API set itself (`retry-after`, `allow`, CORS), when there are any. */
  readonly headers?: Readonly<Record<string, string>>
}

/** The built API: one `HttpApp` for every request of this server's services. */
export class ExchangeHttp extends Context.Tag("hswap/server/ExchangeHttp")<
  ExchangeHttp,
  { readonly app: HttpApp.Default }
>() {}

export type ApiServices =
  | ServerConfig
  | PriceFeed
  | Db
  | Quotes
  | Settlement
  | RateLimiter
  | Maintenance
  | Gateway
  | LiquidityCache
  | ExchangeHttp

/** A USD figure for display (a JSON number in the API), rounded to cents. */
const usd = (d: BigDecimal.BigDecimal): number => Number(formatFixedRounded(d, 2))
const ZERO = BigDecimal.fromBigInt(0n)
const HUNDRED = BigDecimal.fromBigInt(100n)
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

/**
 * How a committed atomic swap reads in the history: one transaction (`tx_in` = `tx_out`, the parent that moved both
 * legs), paid exactly what was quoted, flow "atomic". The least the ledger would accept (the subintent's assertion)
 * is the quoted output itself, so it is also the minimum received.
 */
export const toAtomicRecord = (row: AtomicSwapRow, exchangeAccount: string): typeof TransactionRecord.Encoded => ({
  from: row.account,
  to: exchangeAccount,
  asset_in: row.symbol_in,
  asset_out: row.symbol_out,
  amount_in: row.amount_in,
  amount_out: row.amount_out ?? row.quoted_out,
  tx_in: row.tx_intent ?? "",
  tx_out: row.tx_intent,
  status: "completed",
  timestamp_finalized: row.finalized_ms === null ? null : seconds(row.finalized_ms),
  message: null,
  resource_in: row.resource_in,
  resource_out: row.resource_out,
  quote_id: row.quote_id,
  quoted_amount_out: row.quoted_out,
  minimum_received: row.quoted_out,
  refund_tx: null,
  flow: "atomic"
})

/** The answer of both atomic-swap paths: the swap keyed by its subintent; `tx_id` once committed. */
export const toAtomicResponse = (row: AtomicSwapRow): typeof AtomicSwapResponse.Encoded => ({
  subintent_id: row.subintent_id,
  state: row.state,
  account: row.account,
  asset_in: row.symbol_in,
  amount_in: row.amount_in,
  asset_out: row.symbol_out,
  quoted_out: row.quoted_out,
  amount_out: row.state === "committed" ? row.amount_out : null,
  tx_id: row.state === "committed" ? row.tx_intent : null,
  window_end_ms: row.window_end_ms,
  message: row.message
})

/** Deposit swaps and committed atomic swaps as one history, newest first (by when each was received), `limit` long. */
const history = (
  deposits: ReadonlyArray<SwapRow>,
  atomic: ReadonlyArray<AtomicSwapRow>,
  exchangeAccount: string,
  limit: number
) => {
  const merged: Array<{ readonly at: number; readonly record: typeof TransactionRecord.Encoded }> = [
    ...deposits.map((r) => ({ at: r.created_ms, record: toRecord(r, exchangeAccount) })),
    ...atomic.map((r) => ({ at: r.created_ms, record: toAtomicRecord(r, exchangeAccount) }))
  ]
  // A stable sort: each list is already newest first, so ties keep their own order.
  merged.sort((a, b) => b.at - a.at)
  return merged.slice(0, limit).map((m) => m.record)
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
        // No vault: the exchange holds none; no price: the token adds nothing to the USD figures.
        const amount = balances.get(t.resourceAddress) ?? ZERO
        const price = snapshot.get(t.symbol)?.usd ?? ZERO
        return { token: t, amount, value: BigDecimal.multiply(amount, price) }
      })
      const total = BigDecimal.sumAll(rows.map((r) => r.value))
      const assets = rows.map((r) => ({
        symbol: r.token.symbol,
        resource_address: r.token.resourceAddress,
        amount: formatPlain(r.amount),
        amount_usd: usd(r.value),
        // Of a total of 0 (no priced liquidity), every share is 0%.
        allocation_percentage: Option.match(divideDown(BigDecimal.multiply(r.value, HUNDRED), total, 4), {
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
// Handlers

/** A success in its schema's encoded form, as is (see the module's comment). */
const answer = (json: unknown, status = 200) => HttpServerResponse.unsafeJson(json, { status })

const fail = <E>(error: E) => Effect.fail(error)

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
      ...(quote === undefined
        ? {}
        : { price_usd: Number(formatPlain(quote.usd)), last_update: seconds(quote.updatedAtMs) }),
      name: t.name,
      logo_url: t.logoUrl
    }
  }
  return answer({ status: "healthy", pairs_status: pairs } satisfies typeof HealthResponse.Encoded)
})

const livePrice = (from: string, to: string) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const prices = yield* PriceFeed
    const tokenIn = config.tokens.find((t) => t.resourceAddress === from)
    const tokenOut = config.tokens.find((t) => t.resourceAddress === to)
    // Known tokens are valid addresses by configuration; only the others are checked (bech32m, network, kind).
    for (const [address, token] of [
      [from, tokenIn],
      [to, tokenOut]
    ] as const) {
      if (token === undefined && !isAddressOf("resource", config.networkId, address)) {
        return yield* fail(new BadRequest(errorBody(`Invalid resource address: ${address.slice(0, 120)}`)))
      }
    }
    if (tokenIn === undefined) return yield* fail(new NotFound(errorBody(`Unknown resource: ${from}`)))
    if (tokenOut === undefined) return yield* fail(new NotFound(errorBody(`Unknown resource: ${to}`)))
    const symbols = { in_symbol: tokenIn.symbol, out_symbol: tokenOut.symbol }
    if (tokenIn.symbol === tokenOut.symbol)
      return answer({ ...symbols, error: ForbiddenRoute } satisfies typeof LivePriceResponse.Encoded)
    if (!config.routes.some(([f, t]) => f === tokenIn.symbol && t === tokenOut.symbol)) {
      return answer({ ...symbols, error: RouteNotAvailable } satisfies typeof LivePriceResponse.Encoded)
    }
    const priceIn = yield* prices.fresh(tokenIn.symbol)
    const priceOut = yield* prices.fresh(tokenOut.symbol)
    if (Option.isNone(priceIn) || Option.isNone(priceOut)) {
      return yield* fail(new Unavailable(errorBody("Price not available")))
    }
    const limits = amountLimits(priceIn.value.usd, tokenIn.decimals, dec(config.minUsd), dec(config.maxUsd))
    const terms = {
      symbolIn: tokenIn.symbol,
      symbolOut: tokenOut.symbol,
      rate: formatPlain(effectiveRate(priceIn.value.usd, priceOut.value.usd, dec(config.spread))),
      feeOut: formatPlain(divCeil(dec(config.feeUsd), priceOut.value.usd, tokenOut.decimals)),
      minIn: formatPlain(limits.min),
      maxIn: formatPlain(limits.max),
      priceIn: formatPlain(priceIn.value.usd),
      priceOut: formatPlain(priceOut.value.usd)
    }
    // The quote binds these very strings: what is returned is what is stored.
    const quotes = yield* Quotes
    const issued = yield* Effect.either(quotes.issue(terms))
    if (issued._tag === "Left") {
      yield* Effect.logError(
        `liveprice ${tokenIn.symbol} -> ${tokenOut.symbol}: the quote could not be stored`,
        issued.left
      )
      return yield* fail(new Unavailable(errorBody("Quote not available")))
    }
    const atomic = Option.isSome(yield* Effect.serviceOption(AtomicSwaps))
    return answer({
      ...symbols,
      effective_rate: terms.rate,
      min_amount_in: terms.minIn,
      max_amount_in: terms.maxIn,
      quote_id: issued.right.id,
      quote_expires_at: seconds(issued.right.expiresMs),
      quote_valid_seconds: quotes.validSeconds,
      fee_out: terms.feeOut,
      ...(atomic ? { atomic: true } : {})
    } satisfies typeof LivePriceResponse.Encoded)
  })

/** Past this many bytes an oversized body is no longer drained: the platform closes the connection. */
const DRAIN_LIMIT = 1024 * 1024

export interface RequestBody {
  readonly text: string
  readonly tooLarge: boolean
}

/**
 * The body of a POST, PUT or PATCH, read at most once (the request keeps it): a declared length over `max` is not
 * read at all, a body without one is drained up to 1 MB, and either way past `max` it is `tooLarge`.
 */
export const readBody = (request: HttpServerRequest.HttpServerRequest, max: number): Effect.Effect<RequestBody> => {
  const method = request.method
  if (method !== "POST" && method !== "PUT" && method !== "PATCH") return Effect.succeed({ text: "", tooLarge: false })
  const declared = Number(request.headers["content-length"] ?? "0")
  if (Number.isFinite(declared) && declared > max) return Effect.succeed({ text: "", tooLarge: true })
  return request.text.pipe(
    HttpIncomingMessage.withMaxBodySize(Option.some(DRAIN_LIMIT)),
    Effect.map((text) => (Buffer.byteLength(text) > max ? { text: "", tooLarge: true } : { text, tooLarge: false })),
    // A body that broke off or ran past the drain limit is not read either.
    Effect.orElseSucceed(() => ({ text: "", tooLarge: true }))
  )
}

const SwapBody = Schema.parseJson(SwapRegistrationRequest)
const AdminBody = Schema.parseJson(MaintenanceToggle)

const registerSwap = (txHash: string, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const settlement = yield* Settlement
    const body = yield* readBody(request, config.maxBodyBytes)
    if (body.tooLarge) return yield* fail(new PayloadTooLarge(errorBody("Request body too large")))
    if (!isAddressOf("txid", config.networkId, txHash)) {
      return yield* fail(new BadRequest(errorBody("Invalid transaction hash")))
    }
    if (body.text.trim() !== "") {
      const decoded = Schema.decodeUnknownOption(SwapBody)(body.text)
      if (Option.isNone(decoded)) return yield* fail(new BadRequest(errorBody("The body must be JSON { tx_hash }")))
      const given = decoded.value.tx_hash
      if (given !== undefined && given !== txHash) {
        return yield* fail(new BadRequest(errorBody("tx_hash in the body differs from the path")))
      }
    }
    const registered = yield* settlement.register(txHash).pipe(
      Effect.catchTags({
        SwapNotFound: (e) => fail(new NotFound(errorBody(e.message))),
        SwapRefused: (e) => fail(new Unprocessable(errorBody(e.reason))),
        SettlementUnavailable: (e) => fail(new Unavailable(errorBody(`Settlement unavailable: ${e.reason}`)))
      })
    )
    if (Option.isNone(registered)) {
      return answer(
        {
          tx_hash: txHash,
          status: "pending",
          message: "Settlement in progress"
        } satisfies typeof SwapRegistrationPending.Encoded,
        HttpApiSchemaStatus.pending
      )
    }
    const record = toRecord(registered.value, config.exchangeAccount)
    return answer({
      tx_hash: txHash,
      status: record.status,
      transaction: record,
      ...(record.message === null ? {} : { message: record.message })
    } satisfies typeof SwapRegistrationResponse.Encoded)
  })

const HttpApiSchemaStatus = { pending: 202 } as const

const LATEST = 10
const PER_ACCOUNT = 100

const latestTransactions = Effect.gen(function* () {
  const config = yield* ServerConfig
  const db = yield* Db
  const rows = yield* db.latest(LATEST)
  const atomic = yield* db.committedAtomic(undefined, LATEST)
  return answer({
    transactions: history(rows, atomic, config.exchangeAccount, LATEST)
  } satisfies typeof TransactionsResponse.Encoded)
})

const transactions = (account: string) =>
  Effect.gen(function* () {
    const config = yield* ServerConfig
    if (!isAddressOf("account", config.networkId, account)) {
      return yield* fail(new BadRequest(errorBody("Invalid account address")))
    }
    const db = yield* Db
    const rows = yield* db.byAccount(account, PER_ACCOUNT)
    const atomic = yield* db.committedAtomic(account, PER_ACCOUNT)
    return answer({
      transactions: history(rows, atomic, config.exchangeAccount, PER_ACCOUNT)
    } satisfies typeof TransactionsResponse.Encoded)
  })

const btcPrice = Effect.gen(function* () {
  const config = yield* ServerConfig
  const prices = yield* PriceFeed
  const quote = yield* prices.fresh("hBTC")
  if (Option.isNone(quote)) return yield* fail(new BtcPriceUnavailable({ message: "Bitcoin price unavailable" }))
  const last = seconds(quote.value.updatedAtMs)
  return answer({
    price: usd(quote.value.usd),
    last_update: last,
    expire: last + Math.floor(Duration.toSeconds(config.priceStaleAfter)),
    symbol: "BTC",
    source: config.priceSourceUrl === undefined ? "simulated" : "http"
  })
})

const liquidity = Effect.flatMap(LiquidityCache, (l) => l.get).pipe(
  Effect.map((v) => answer(v satisfies typeof LiquidityResponse.Encoded)),
  Effect.catchAll((e) => fail(new Unavailable(errorBody(`Liquidity unavailable: ${e.message}`))))
)

const stats = Effect.gen(function* () {
  const db = yield* Db
  const liquidity = yield* LiquidityCache
  const totals = yield* db.totals
  // An atomic swap's USD value is what it took in at its quote's price, as a quoted deposit's is.
  const atomic = (yield* db.committedAtomicVolumes).map((v) => BigDecimal.multiply(v.amount_in, v.price_in))
  const volume = BigDecimal.sumAll([...totals.volumes, ...atomic])
  const tvl = yield* liquidity.get
  return answer({
    total_volume: usd(volume),
    active_users: totals.users,
    tvl: tvl.total_usd_value,
    total_transactions: totals.count
  } satisfies typeof StatsResponse.Encoded)
}).pipe(Effect.catchAll((e) => fail(new Unavailable(errorBody(`Stats unavailable: ${e.message}`)))))

/** The admin group answers the loopback peer only, whatever `X-Forwarded-For` says. */
const loopbackOnly = (request: HttpServerRequest.HttpServerRequest) =>
  isLoopback(Option.getOrElse(request.remoteAddress, () => ""))
    ? Effect.void
    : fail(new Forbidden(errorBody("Admin is available on loopback only")))

const maintenanceState = Effect.map(
  Effect.flatMap(Maintenance, (m) => m.enabled),
  (maintenance) => ({ maintenance })
)

const setMaintenance = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    yield* loopbackOnly(request)
    const body = yield* readBody(request, (yield* ServerConfig).maxBodyBytes)
    if (body.tooLarge) return yield* fail(new PayloadTooLarge(errorBody("Request body too large")))
    const decoded = Schema.decodeUnknownOption(AdminBody)(body.text)
    if (Option.isNone(decoded))
      return yield* fail(new BadRequest(errorBody("The body must be JSON { enabled: boolean }")))
    yield* (yield* Maintenance).set(decoded.value.enabled)
    return yield* maintenanceState
  })

const PricesLive = HttpApiBuilder.group(ExchangeHttpApi, "prices", (handlers) =>
  handlers
    .handle("livePrice", ({ path }) => livePrice(path.from, path.to))
    .handle("liquidity", () => liquidity)
    .handle("btcPrice", () => btcPrice)
)
const HealthLive = HttpApiBuilder.group(ExchangeHttpApi, "health", (handlers) =>
  handlers.handle("health", () => health)
)
// The body is read here, not by the builder: an oversized or malformed one has its own answer (413, 400 as below).
const SwapsLive = HttpApiBuilder.group(ExchangeHttpApi, "swaps", (handlers) =>
  handlers.handleRaw("registerSwap", ({ path, request }) => registerSwap(path.txHash, request))
)
// The feature is on when the server's layer graph holds `AtomicSwaps` (configured on, and a signer that notarizes V2).
const ATOMIC_OFF = "Atomic swaps are not offered by this exchange."
const atomicSwaps = Effect.flatMap(
  Effect.serviceOption(AtomicSwaps),
  Option.match({
    onNone: () => fail(new NotFound(errorBody(ATOMIC_OFF))),
    onSome: (atomic) => Effect.succeed(atomic)
  })
)

const AtomicBody = Schema.parseJson(AtomicSwapRequest)

/** 200 once the swap is over (committed, lapsed, refused), 202 while it is submitting. */
const atomicAnswer = (row: AtomicSwapRow) =>
  answer(toAtomicResponse(row), ATOMIC_FINAL_STATES.has(row.state) ? 200 : HttpApiSchemaStatus.pending)

const atomicUnavailable = (e: { readonly reason: string }) =>
  fail(new Unavailable(errorBody(`Atomic swap unavailable: ${e.reason}`)))

const submitAtomicSwap = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const atomic = yield* atomicSwaps
    const config = yield* ServerConfig
    const body = yield* readBody(request, config.maxAtomicBodyBytes)
    if (body.tooLarge) return yield* fail(new PayloadTooLarge(errorBody("Request body too large")))
    const decoded = Schema.decodeUnknownOption(AtomicBody)(body.text)
    if (Option.isNone(decoded))
      return yield* fail(
        new BadRequest(
          errorBody("The body must be JSON { quote_id, amount, signed_partial_transaction }, each a string")
        )
      )
    const result = yield* atomic
      .submitAndWait({
        quoteId: decoded.value.quote_id,
        amount: decoded.value.amount,
        signedPartialHex: decoded.value.signed_partial_transaction
      })
      .pipe(Effect.catchTag("SettlementUnavailable", atomicUnavailable))
    if (result._tag === "AtomicRefusal")
      return yield* fail(new AtomicRefused({ error: result.message, message: result.message, reason: result.reason }))
    return atomicAnswer(result.swap)
  })

const atomicSwap = (subintentId: string) =>
  Effect.gen(function* () {
    const atomic = yield* atomicSwaps
    const config = yield* ServerConfig
    const id = decodeTransactionId(subintentId, { kind: "subintent", networkId: config.networkId })
    if (id._tag === "Left")
      return yield* fail(new BadRequest(errorBody(`Invalid subintent id (subtxid_…): ${id.left.reason}`)))
    const row = yield* atomic.get(toHex(id.right.hash))
    if (Option.isNone(row)) return yield* fail(new NotFound(errorBody(`No atomic swap for ${subintentId}`)))
    return atomicAnswer(row.value)
  })

// The body is read here, as for a registration: an oversized or malformed one has its own answer (413, 400).
const AtomicLive = HttpApiBuilder.group(ExchangeHttpApi, "atomic", (handlers) =>
  handlers
    .handleRaw("submitAtomicSwap", ({ request }) => submitAtomicSwap(request))
    .handle("atomicSwap", ({ path }) => atomicSwap(path.subintentId))
)
const TransactionsLive = HttpApiBuilder.group(ExchangeHttpApi, "transactions", (handlers) =>
  handlers
    .handle("latestTransactions", () => latestTransactions)
    .handle("transactions", ({ path }) => transactions(path.account))
)
const StatsLive = HttpApiBuilder.group(ExchangeHttpApi, "stats", (handlers) => handlers.handle("stats", () => stats))
const AdminLive = HttpApiBuilder.group(ExchangeHttpApi, "admin", (handlers) =>
  handlers
    .handle("getMaintenance", ({ request }) => Effect.zipRight(loopbackOnly(request), maintenanceState))
    .handleRaw("setMaintenance", ({ request }) => setMaintenance(request))
)

const MaintenanceGateLive = Layer.effect(
  MaintenanceGate,
  Effect.map(Maintenance, (maintenance) =>
    Effect.flatMap(maintenance.enabled, (on) =>
      on ? fail(new InMaintenance(errorBody("Service in maintenance"))) : Effect.void
    )
  )
)

const ApiLive = HttpApiBuilder.api(ExchangeHttpApi).pipe(
  Layer.provide([PricesLive, HealthLive, SwapsLive, AtomicLive, TransactionsLive, StatsLive, AdminLive]),
  Layer.provide(MaintenanceGateLive)
)

// ---------------------------------------------------------------------------------------------------------------
// The rules for every path

/** Each endpoint's method and path segments ("/api/liveprice/:from/:to"), read off the definition. */
const endpointShapes: ReadonlyArray<{ readonly method: string; readonly segments: ReadonlyArray<string> }> = (() => {
  const shapes: Array<{ method: string; segments: ReadonlyArray<string> }> = []
  HttpApi.reflect(ExchangeHttpApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }: { readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.Any }) => {
      const e = endpoint as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
      shapes.push({ method: e.method, segments: e.path.split("/").filter((s) => s !== "") })
    }
  })
  return shapes
})()

/** The methods the definition has for `pathname`, any parameter matching any one segment. */
const methodsAt = (pathname: string): ReadonlyArray<string> => {
  const segments = pathname.split("/").filter((s) => s !== "")
  return endpointShapes
    .filter(
      (shape) =>
        shape.segments.length === segments.length &&
        shape.segments.every((s, i) => s.startsWith(":") || s === segments[i])
    )
    .map((shape) => shape.method)
}

/** What a request that needed the database gets while it cannot be reached (503, with `retry-after`). */
export const DATABASE_UNAVAILABLE = "Database unavailable: try again shortly"
const DATABASE_RETRY_AFTER_SECONDS = 2

/** The answer for an error of this API: `{ error, message }` (the class's fields) with the class's status. */
const errorResponse = (
  Class:
    | typeof NotFound
    | typeof MethodNotAllowed
    | typeof UnsupportedMediaType
    | typeof RateLimited
    | typeof InternalError
    | typeof Unavailable,
  message: string,
  headers: Readonly<Record<string, string>> = {}
) => HttpServerResponse.unsafeJson(errorBody(message), { status: errorStatus(Class), headers })

/** `application/json`, with or without parameters (`; charset=utf-8`). */
export const isJsonContentType = (type: string | undefined): boolean =>
  type !== undefined && /^application\/json\s*(;|$)/i.test(type.trim())

/**
 * A path segment that is not valid percent-encoded UTF-8 is taken literally ("%E0%A4%A" reaches its route as those
 * characters, which no address or hash matches: a 400 there), where the router would not match the path at all.
 */
const literalMalformedSegments = (url: string): string | undefined => {
  const query = url.indexOf("?")
  const pathname = query === -1 ? url : url.slice(0, query)
  try {
    decodeURI(pathname)
    return undefined
  } catch {
    const fixed = pathname
      .split("/")
      .map((segment) => {
        try {
          decodeURIComponent(segment)
          return segment
        } catch {
          return segment.replaceAll("%", "%25")
        }
      })
      .join("/")
    return fixed + (query === -1 ? "" : url.slice(query))
  }
}

const pathnameOf = (url: string) => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

const isUnder = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`)

/** Long enough for any junk a client may put in one segment: it gets its route's 400, not a 404. */
const MAX_PARAM_LENGTH = 16 * 1024

/** The API as one `HttpApp`, over the services of the server it is built in. */
export const makeExchangeHttpApp = Effect.gen(function* () {
  const config = yield* ServerConfig
  const limiter = yield* RateLimiter
  const platform = yield* Layer.build(HttpServer.layerContext)
  const api = yield* HttpApiBuilder.httpApp.pipe(
    HttpRouter.withRouterConfig({ maxParamLength: MAX_PARAM_LENGTH }),
    Effect.provide(Layer.mergeAll(ApiLive, HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer))
  )

  // The router fails with RouteNotFound (outside the app's declared errors) where no endpoint has the path and method.
  const routed: HttpApp.Default = api.pipe(
    Effect.catchAllCause((cause) => {
      const failure: Option.Option<unknown> = Cause.failureOption(cause)
      if (Option.isNone(failure) || !(failure.value instanceof HttpServerError.RouteNotFound))
        return Effect.failCause(cause)
      const allowed = methodsAt(pathnameOf(failure.value.request.url))
      return Effect.succeed(
        allowed.length === 0
          ? errorResponse(NotFound, "Not found")
          : errorResponse(MethodNotAllowed, "Method not allowed", { allow: allowed.join(", ") })
      )
    }),
    Effect.provide(platform)
  )

  const atomicPath = `${API_PREFIX}/atomic-swap`
  const bodyLimit = (pathname: string) => (pathname === atomicPath ? config.maxAtomicBodyBytes : config.maxBodyBytes)

  const handled: HttpApp.Default = Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const body = yield* readBody(request, bodyLimit(pathnameOf(request.url)))
    if (!body.tooLarge && body.text.trim() !== "" && !isJsonContentType(request.headers["content-type"])) {
      return errorResponse(UnsupportedMediaType, "The body must be JSON sent as Content-Type: application/json")
    }
    if (!isUnder(pathnameOf(request.url), ADMIN_PREFIX)) {
      const peer = Option.getOrElse(request.remoteAddress, () => "")
      const decision = yield* limiter.take(clientIp(peer, request.headers["x-forwarded-for"], config.trustedProxyHops))
      if (!decision.allowed) {
        return errorResponse(RateLimited, "Rate limit exceeded", {
          "retry-after": String(decision.retryAfterSeconds)
        })
      }
    }
    const response = yield* routed
    // What was not read of an oversized body is not waited for.
    return body.tooLarge ? HttpServerResponse.setHeader(response, "connection", "close") : response
  })

  const allowedOrigin: (origin: string) => boolean =
    config.corsOrigins === "*" ? () => true : (origin) => config.corsOrigins.includes(origin)
  const withCors = HttpMiddleware.cors({
    allowedOrigins: config.corsOrigins === "*" ? [] : allowedOrigin,
    allowedMethods: ["GET", "POST"],
    allowedHeaders: ["content-type"],
    maxAge: 600
  })(handled)

  const app: HttpApp.Default = Effect.gen(function* () {
    const original = yield* HttpServerRequest.HttpServerRequest
    const url = literalMalformedSegments(original.url)
    const request = url === undefined ? original : original.modify({ url })
    const origin = request.headers["origin"]
    // No CORS header at all unless the origin is allowed, and never on the admin group.
    const cors = origin !== undefined && allowedOrigin(origin) && !isUnder(pathnameOf(request.url), ADMIN_PREFIX)
    const next = cors
      ? withCors
      : request.method === "OPTIONS"
        ? Effect.succeed(HttpServerResponse.empty({ status: 204 }))
        : handled
    return yield* url === undefined ? next : Effect.provideService(next, HttpServerRequest.HttpServerRequest, request)
  }).pipe(
    Effect.catchAllCause((cause) =>
      // A client that goes away mid-request (its connection closed while the body was still coming) interrupts
      // the handler: nothing failed here, and nobody is left to answer.
      Cause.isInterruptedOnly(cause)
        ? Effect.as(
            Effect.logDebug("exchange API request abandoned: the client closed its connection"),
            errorResponse(InternalError, "Internal error")
          )
        : unreachableDatabase(cause)
          ? Effect.as(
              Effect.logWarning("exchange API request failed: the database cannot be reached", cause),
              errorResponse(Unavailable, DATABASE_UNAVAILABLE, { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) })
            )
          : Effect.as(
              Effect.logError("exchange API request failed", cause),
              errorResponse(InternalError, "Internal error")
            )
    ),
    Effect.withSpan("ExchangeServer.request")
  )
  return app
})

/** `ExchangeHttp` over the server's services. */
export const ExchangeHttpLive: Layer.Layer<ExchangeHttp, never, Exclude<ApiServices, ExchangeHttp>> = Layer.scoped(
  ExchangeHttp,
  Effect.map(makeExchangeHttpApp, (app) => ({ app }))
)

// ---------------------------------------------------------------------------------------------------------------
// In process

const inProcessBase = "http://exchange.invalid"

/**
 * Runs one API request in process through the same `HttpApp` as the HTTP server (tests under TestClock, benchmarks).
 * Never fails: bad input is a 4xx, an unreachable ledger a 503, a defect a JSON 500.
 */
export const handleApi = (req: ApiRequest): Effect.Effect<ApiResponse, never, ApiServices> =>
  Effect.gen(function* () {
    const { app } = yield* ExchangeHttp
    const { maxBodyBytes } = yield* ServerConfig
    const headers: Record<string, string> = {}
    if (req.forwardedFor !== undefined) headers["x-forwarded-for"] = req.forwardedFor
    const body = req.bodyTooLarge === true ? " ".repeat(maxBodyBytes + 1) : req.body
    if (body !== undefined) headers["content-type"] = "application/json"
    const hasBody = body !== undefined && req.method !== "GET" && req.method !== "HEAD"
    const request = HttpServerRequest.fromWeb(
      new Request(`${inProcessBase}/api${req.path}`, {
        method: req.method,
        headers,
        ...(hasBody ? { body } : {})
      })
    ).modify({ remoteAddress: req.ip })
    let response: HttpServerResponse.HttpServerResponse | undefined
    yield* HttpApp.toHandled(app, (_, r) => Effect.sync(() => void (response = r))).pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, request),
      Effect.scoped,
      Effect.catchAllCause((cause) => Effect.logError("exchange API request failed", cause))
    )
    if (response === undefined) return { status: 500, json: errorBody("Internal error") }
    const text = response.body._tag === "Uint8Array" ? new TextDecoder().decode(response.body.body) : ""
    // What describes the body is not one of the API's own headers.
    const own = Object.fromEntries(
      Object.entries(response.headers).filter(([name]) => name !== "content-type" && name !== "content-length")
    )
    return {
      status: response.status,
      json: text === "" ? null : (JSON.parse(text) as unknown),
      ...(Object.keys(own).length === 0 ? {} : { headers: own })
    }
  })
