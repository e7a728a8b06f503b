import { Effect, Either, Layer, ParseResult, PubSub, Schema, Stream } from "effect"
import {
  ApiErrorBody,
  ApiMessage,
  BtcPriceResponse,
  HealthResponse,
  LiquidityResponse,
  LivePriceResponse,
  StatsResponse,
  SwapRegistrationResponse,
  TransactionsResponse
} from "./api"
import { ApiHttp, type FetchError, fetchJson, joinKey, jsonBody } from "./http"

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

/** The product API client (spec app §7). Every response is decoded with Schema before use. */
export class ExchangeApi extends Effect.Service<ExchangeApi>()("hswap/ExchangeApi", {
  effect: Effect.gen(function* () {
    const http = yield* ApiHttp
    const { apiBase } = yield* ExchangeApiConfig
    // Every 429 and 409 of a price, health, swap or transactions call, whoever made it (spec §8's service modes).
    const refusalHub = yield* PubSub.unbounded<ExchangeRefusal>()
    const announced = <A, R>(effect: Effect.Effect<A, ExchangeError, R>) =>
      serviceMode(effect).pipe(Effect.tapError((e) => (isRefusal(e) ? PubSub.publish(refusalHub, e) : Effect.void)))

    const segments = (path: ReadonlyArray<string>) => [
      apiBase === "" ? "" : apiBase,
      "api",
      ...path.map(encodeURIComponent)
    ]

    const decode =
      <A, I>(path: ReadonlyArray<string>, schema: Schema.Schema<A, I>) =>
      (body: unknown) =>
        Schema.decodeUnknown(schema)(body).pipe(
          Effect.mapError(
            (e) =>
              new ExchangeDecodeError({
                path: `/api/${path.join("/")}`,
                issue: ParseResult.TreeFormatter.formatErrorSync(e)
              })
          )
        )

    const get = <A, I>(path: ReadonlyArray<string>, schema: Schema.Schema<A, I>) =>
      fetchJson(segments(path)).pipe(
        Effect.flatMap(decode(path, schema)),
        Effect.provideService(ApiHttp, http)
      ) as Effect.Effect<A, ExchangeError>

    const post = <A, I>(path: ReadonlyArray<string>, payload: unknown, schema: Schema.Schema<A, I>) => {
      const url = joinKey(segments(path))
      return Effect.gen(function* () {
        const answer = yield* http.send({ method: "POST", url, body: JSON.stringify(payload) })
        return yield* decode(path, schema)(yield* jsonBody(url, answer))
      }) as Effect.Effect<A, ExchangeError>
    }

    return {
      /**
       * Each HTTP 429 or 409 answer to a price, health, swap or transactions call, as it happens. Liquidity's own
       * failure shows in its dialog and is not announced here.
       */
      refusals: Stream.fromPubSub(refusalHub) as Stream.Stream<ExchangeRefusal>,
      /** GET {api}/api/btcbridge/price */
      btcPrice: get(["btcbridge", "price"], BtcPriceResponse).pipe(Effect.withSpan("ExchangeApi.btcPrice")),
      /** GET {api}/api/stats */
      stats: get(["stats"], StatsResponse).pipe(Effect.withSpan("ExchangeApi.stats")),
      /** GET {api}/api/health: `status` and `pairs_status`. 429 and 409 are their own errors. */
      health: announced(get(["health"], HealthResponse)).pipe(Effect.withSpan("ExchangeApi.health")),
      /** GET {api}/api/liquidity: the exchange's assets and their USD value. */
      liquidity: serviceMode(get(["liquidity"], LiquidityResponse)).pipe(Effect.withSpan("ExchangeApi.liquidity")),
      /** GET {api}/api/transactions/latest: the last 10 swaps. */
      latestTransactions: announced(get(["transactions", "latest"], TransactionsResponse)).pipe(
        Effect.map((r) => r.transactions),
        Effect.withSpan("ExchangeApi.latestTransactions")
      ),
      /** GET {api}/api/liveprice/{fromResourceAddress}/{toResourceAddress} */
      livePrice: Effect.fn("ExchangeApi.livePrice")(function* (fromResourceAddress: string, toResourceAddress: string) {
        return yield* announced(get(["liveprice", fromResourceAddress, toResourceAddress], LivePriceResponse))
      }),
      /** POST {api}/api/swap/{txHash} with body `{ tx_hash }`: registers the swap for settlement. */
      registerSwap: Effect.fn("ExchangeApi.registerSwap")(function* (txHash: string) {
        return yield* announced(post(["swap", txHash], { tx_hash: txHash }, SwapRegistrationResponse))
      }),
      /** GET {api}/api/transactions/{accountAddress}: the account's swaps, newest first. */
      transactions: Effect.fn("ExchangeApi.transactions")(function* (accountAddress: string) {
        const response = yield* announced(get(["transactions", accountAddress], TransactionsResponse))
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
