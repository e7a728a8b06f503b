import { Duration, Effect, Either, Layer, ParseResult, PubSub, Schema, Stream } from "effect"
import {
  ApiErrorBody,
  ApiMessage,
  type AtomicSwapRequest,
  type AtomicSwapResponse,
  type SwapRegistrationResponse
} from "./api"
import { API_PREFIX, Endpoints } from "./endpoints"
import {
  ApiHttp,
  type FetchError,
  type FetchStatusError,
  FetchTransportError,
  fetchJson,
  joinKey,
  jsonBody
} from "./http"

/**
 * An endpoint of the route table as the client calls it: its method, full path template ("/api/liveprice/:from/:to")
 * and the schema of its answers (the 200 one, or either of 200 and 202).
 */
const target = <A, I, A2 = never, I2 = never>(e: {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly success: Schema.Schema<A, I>
  readonly pending?: Schema.Schema<A2, I2>
}) => ({
  method: e.method,
  path: `${API_PREFIX}${e.path}`,
  successSchema: (e.pending === undefined || (e.pending as unknown) === e.success
    ? e.success
    : Schema.Union(e.success, e.pending)) as Schema.Schema<A | A2, I | I2>
})

/** The endpoint's path with each `:param` replaced by its value; URL-encoded for the request, as is for messages. */
const fillPath = (template: string, params: Readonly<Record<string, string>>, encode: boolean): string =>
  template.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name] ?? ""
    return encode ? encodeURIComponent(value) : value
  })

/** The API answered, but not with the shape we expect. */
export class ExchangeDecodeError extends Schema.TaggedError<ExchangeDecodeError>()("ExchangeDecodeError", {
  path: Schema.String,
  issue: Schema.String
}) {
  override get message(): string {
    return `Invalid response format from API (${this.path}): ${this.issue}`
  }
}

/** HTTP 429 on a price, health, swap or transactions call: service mode `rate_limited` (spec §8). */
export class ExchangeRateLimited extends Schema.TaggedError<ExchangeRateLimited>()("ExchangeRateLimited", {
  path: Schema.String,
  /** Seconds the server asked us to wait (`retry-after`), when it said so. */
  retryAfterSeconds: Schema.optional(Schema.Number)
}) {
  override get message(): string {
    return "Rate limit exceeded"
  }
}

/** HTTP 409 on a price, health, swap or transactions call: service mode `maintenance` (spec §8). */
export class ExchangeMaintenance extends Schema.TaggedError<ExchangeMaintenance>()("ExchangeMaintenance", {
  path: Schema.String
}) {
  override get message(): string {
    return "Service in maintenance"
  }
}

/**
 * 422 of `POST /api/atomic-swap`: the exchange will not submit this pre-authorisation; nothing was submitted and
 * nothing moved. `reason` is the server's stable code (`quote_used`, `wrong_withdrawal`, …), `serverMessage` its
 * own sentence.
 */
export class AtomicSwapRefused extends Schema.TaggedError<AtomicSwapRefused>()("AtomicSwapRefused", {
  reason: Schema.String,
  serverMessage: Schema.String
}) {
  override get message(): string {
    return `The exchange refused the pre-authorisation (${this.reason}): ${this.serverMessage}`
  }
}

/** 404 of `POST /api/atomic-swap`: this server has atomic swaps off; the deposit flow is the way to swap. */
export class AtomicSwapUnavailable extends Schema.TaggedError<AtomicSwapUnavailable>()("AtomicSwapUnavailable", {
  path: Schema.String
}) {
  override get message(): string {
    return "Atomic swaps are not offered by this exchange."
  }
}

/** The body of a 422 refusal: `{ error, message, reason }`. */
const AtomicRefusalBody = Schema.parseJson(
  Schema.Struct({ error: Schema.String, message: Schema.optional(Schema.String), reason: Schema.String })
)

/** What `btcPrice` and `stats` fail with. */
export type ExchangeError = FetchError | ExchangeDecodeError

/** What the calls with a service mode (price, health, liquidity, swap, transactions) fail with. */
export type ExchangeServiceError = ExchangeError | ExchangeRateLimited | ExchangeMaintenance

export interface ExchangeApiConfigShape {
  /** `{api}`: empty for the app's own origin. */
  readonly apiBase: string
}

/** The answers that stand for a service mode. */
export type ExchangeRefusal = ExchangeRateLimited | ExchangeMaintenance

/** 429 and 409 become their own tagged errors; every other status stays a `FetchStatusError`. */
const serviceMode = <A, R>(effect: Effect.Effect<A, ExchangeError, R>): Effect.Effect<A, ExchangeServiceError, R> =>
  Effect.catchTag(effect, "FetchStatusError", (e): Effect.Effect<never, ExchangeServiceError> => {
    if (e.status === 429) return Effect.fail(new ExchangeRateLimited({ path: e.url }))
    if (e.status === 409) return Effect.fail(new ExchangeMaintenance({ path: e.url }))
    return Effect.fail(e)
  })

const isRefusal = (e: ExchangeServiceError): e is ExchangeRefusal =>
  e._tag === "ExchangeRateLimited" || e._tag === "ExchangeMaintenance"

/**
 * How long a call waits for the exchange's answer before it counts as none (`FetchTransportError`): a request that
 * never comes back would hold the price loop, the tracking or a swap's button for good. A POST is given longer: the
 * server may hold a registration (20 s) or an atomic submission (5 s) until the swap is settled. On the Clock.
 */
export const API_GET_TIMEOUT = Duration.seconds(15)
export const API_POST_TIMEOUT = Duration.seconds(30)

/** The product API client (spec app §7). Every response is decoded with Schema before use. */
export class ExchangeApi extends Effect.Service<ExchangeApi>()("hswap/ExchangeApi", {
  effect: Effect.gen(function* () {
    const http = yield* ApiHttp
    const { apiBase } = yield* ExchangeApiConfig
    // Every 429 and 409 of a price, health, swap or transactions call, whoever made it (spec §8's service modes).
    const refusalHub = yield* PubSub.unbounded<ExchangeRefusal>()
    const announced = <A, R>(effect: Effect.Effect<A, ExchangeError, R>) =>
      serviceMode(effect).pipe(Effect.tapError((e) => (isRefusal(e) ? PubSub.publish(refusalHub, e) : Effect.void)))

    /**
     * Calls `endpoint` (its method and path, `params` in place of its parameters) and decodes a 2xx body with its
     * success schema; any other answer is a FetchStatusError.
     */
    const call = <A, I, R>(
      target: {
        readonly method: "GET" | "POST"
        readonly path: string
        readonly successSchema: Schema.Schema<A, I, R>
      },
      params: Readonly<Record<string, string>> = {},
      payload?: unknown
    ): Effect.Effect<A, ExchangeError> => {
      const url = joinKey([apiBase, fillPath(target.path, params, true)])
      const decode = (body: unknown) =>
        Schema.decodeUnknown(target.successSchema as Schema.Schema<A, I>)(body).pipe(
          Effect.mapError(
            (e) =>
              new ExchangeDecodeError({
                path: fillPath(target.path, params, false),
                issue: ParseResult.TreeFormatter.formatErrorSync(e)
              })
          )
        )
      const answer =
        target.method === "GET"
          ? fetchJson([url])
          : Effect.flatMap(http.send({ method: "POST", url, body: JSON.stringify(payload) }), (a) => jsonBody(url, a))
      const limit = target.method === "GET" ? API_GET_TIMEOUT : API_POST_TIMEOUT
      return answer.pipe(
        Effect.timeoutFail({
          duration: limit,
          onTimeout: () => new FetchTransportError({ url, reason: `no answer in ${Duration.toSeconds(limit)} s` })
        }),
        Effect.flatMap(decode),
        Effect.provideService(ApiHttp, http)
      )
    }

    const endpoints = {
      btcPrice: target(Endpoints.btcPrice),
      stats: target(Endpoints.stats),
      health: target(Endpoints.health),
      liquidity: target(Endpoints.liquidity),
      latestTransactions: target(Endpoints.latestTransactions),
      livePrice: target(Endpoints.livePrice),
      registerSwap: target(Endpoints.registerSwap),
      transactions: target(Endpoints.transactions),
      submitAtomicSwap: target(Endpoints.submitAtomicSwap),
      atomicSwap: target(Endpoints.atomicSwap)
    } as const

    /** 404: the feature is off; 422 with a `reason`: a refusal; anything else stays what it was. */
    const atomicErrors = <A>(
      effect: Effect.Effect<A, ExchangeServiceError>
    ): Effect.Effect<A, ExchangeServiceError | AtomicSwapRefused | AtomicSwapUnavailable> =>
      Effect.catchTag(
        effect,
        "FetchStatusError",
        (e): Effect.Effect<never, FetchStatusError | AtomicSwapRefused | AtomicSwapUnavailable> => {
          if (e.status === 404) return Effect.fail(new AtomicSwapUnavailable({ path: e.url }))
          if (e.status === 422) {
            const body = Schema.decodeUnknownEither(AtomicRefusalBody)(e.body)
            if (Either.isRight(body))
              return Effect.fail(
                new AtomicSwapRefused({
                  reason: body.right.reason,
                  serverMessage: body.right.message ?? body.right.error
                })
              )
          }
          return Effect.fail(e)
        }
      )

    return {
      /**
       * Each HTTP 429 or 409 answer to a price, health, swap or transactions call, as it happens. Liquidity's own
       * failure shows in its dialog and is not announced here.
       */
      refusals: Stream.fromPubSub(refusalHub) as Stream.Stream<ExchangeRefusal>,
      /** GET {api}/api/btcbridge/price */
      btcPrice: call(endpoints.btcPrice).pipe(Effect.withSpan("ExchangeApi.btcPrice")),
      /** GET {api}/api/stats */
      stats: call(endpoints.stats).pipe(Effect.withSpan("ExchangeApi.stats")),
      /** GET {api}/api/health: `status` and `pairs_status`. 429 and 409 are their own errors. */
      health: announced(call(endpoints.health)).pipe(Effect.withSpan("ExchangeApi.health")),
      /** GET {api}/api/liquidity: the exchange's assets and their USD value. */
      liquidity: serviceMode(call(endpoints.liquidity)).pipe(Effect.withSpan("ExchangeApi.liquidity")),
      /** GET {api}/api/transactions/latest: the last 10 swaps. */
      latestTransactions: announced(call(endpoints.latestTransactions)).pipe(
        Effect.map((r) => r.transactions),
        Effect.withSpan("ExchangeApi.latestTransactions")
      ),
      /** GET {api}/api/liveprice/{fromResourceAddress}/{toResourceAddress} */
      livePrice: Effect.fn("ExchangeApi.livePrice")(function* (fromResourceAddress: string, toResourceAddress: string) {
        return yield* announced(call(endpoints.livePrice, { from: fromResourceAddress, to: toResourceAddress }))
      }),
      /** POST {api}/api/swap/{txHash} with body `{ tx_hash }`: registers the swap for settlement. */
      registerSwap: Effect.fn("ExchangeApi.registerSwap")(function* (txHash: string) {
        const registration: SwapRegistrationResponse = yield* announced(
          call(endpoints.registerSwap, { txHash }, { tx_hash: txHash })
        )
        return registration
      }),
      /**
       * POST {api}/api/atomic-swap: the wallet's signed pre-authorisation for a binding quote. 200 with the final
       * state, or 202 `submitting` (then poll `atomicSwap`). 404: `AtomicSwapUnavailable`; 422: `AtomicSwapRefused`.
       */
      submitAtomicSwap: Effect.fn("ExchangeApi.submitAtomicSwap")(function* (request: AtomicSwapRequest) {
        const response: AtomicSwapResponse = yield* atomicErrors(
          announced(call(endpoints.submitAtomicSwap, {}, request))
        )
        return response
      }),
      /** GET {api}/api/atomic-swap/{subintentId}: where an atomic swap is (202 while `submitting`). */
      atomicSwap: Effect.fn("ExchangeApi.atomicSwap")(function* (subintentId: string) {
        const response: AtomicSwapResponse = yield* atomicErrors(announced(call(endpoints.atomicSwap, { subintentId })))
        return response
      }),
      /** GET {api}/api/transactions/{accountAddress}: the account's swaps, newest first. */
      transactions: Effect.fn("ExchangeApi.transactions")(function* (accountAddress: string) {
        const response = yield* announced(call(endpoints.transactions, { account: accountAddress }))
        return response.transactions
      })
    } as const
  })
}) {}

export class ExchangeApiConfig extends Effect.Tag("hswap/ExchangeApiConfig")<
  ExchangeApiConfig,
  ExchangeApiConfigShape
>() {
  static readonly layer = (config: ExchangeApiConfigShape) => Layer.succeed(ExchangeApiConfig, config)
}

/** The server's own words for a failed call, when its body carries `{ message }` or `{ error }`. */
export const serverMessage = (error: ExchangeServiceError): string | undefined => {
  if (error._tag !== "FetchStatusError") return undefined
  const decoded = Schema.decodeUnknownEither(Schema.parseJson(ApiMessage))(error.body)
  if (Either.isRight(decoded)) return decoded.right.message
  const fallback = Schema.decodeUnknownEither(Schema.parseJson(ApiErrorBody))(error.body)
  return Either.isRight(fallback) ? fallback.right.error : undefined
}
