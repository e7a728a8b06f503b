import { HttpClient } from "@effect/platform"
import { Effect, Either, Layer, ParseResult, Schema } from "effect"
import { ApiMessage, BtcPriceResponse, StatsResponse } from "./api"
import { type FetchError, fetchJson } from "./http"

/** The API answered, but not with the shape we expect. */
export class ExchangeDecodeError extends Schema.TaggedError<ExchangeDecodeError>()("ExchangeDecodeError", {
  path: Schema.String,
  issue: Schema.String
}) {
  override get message(): string {
    return `Invalid response format from API (${this.path}): ${this.issue}`
  }
}

export type ExchangeError = FetchError | ExchangeDecodeError

export interface ExchangeApiConfigShape {
  /** `{api}`: empty for the app's own origin. */
  readonly apiBase: string
}

/** The product API client (spec app §7). Every response is decoded with Schema before use. */
export class ExchangeApi extends Effect.Service<ExchangeApi>()("hswap/ExchangeApi", {
  effect: Effect.gen(function* () {
    const http = yield* HttpClient.HttpClient
    const { apiBase } = yield* ExchangeApiConfig

    const get = <A, I>(path: ReadonlyArray<string>, schema: Schema.Schema<A, I>) =>
      fetchJson([apiBase === "" ? "" : apiBase, "api", ...path.map(encodeURIComponent)]).pipe(
        Effect.flatMap((body) =>
          Schema.decodeUnknown(schema)(body).pipe(
            Effect.mapError(
              (e) =>
                new ExchangeDecodeError({
                  path: `/api/${path.join("/")}`,
                  issue: ParseResult.TreeFormatter.formatErrorSync(e)
                })
            )
          )
        ),
        Effect.provideService(HttpClient.HttpClient, http)
      ) as Effect.Effect<A, ExchangeError>

    return {
      /** GET {api}/api/btcbridge/price */
      btcPrice: get(["btcbridge", "price"], BtcPriceResponse).pipe(Effect.withSpan("ExchangeApi.btcPrice")),
      /** GET {api}/api/stats */
      stats: get(["stats"], StatsResponse).pipe(Effect.withSpan("ExchangeApi.stats"))
    } as const
  })
}) {}

export class ExchangeApiConfig extends Effect.Tag("hswap/ExchangeApiConfig")<
  ExchangeApiConfig,
  ExchangeApiConfigShape
>() {
  static readonly layer = (config: ExchangeApiConfigShape) => Layer.succeed(ExchangeApiConfig, config)
}

/** The server's own words for a failed price call, when its body carries `{ message }`. */
export const serverMessage = (error: ExchangeError): string | undefined => {
  if (error._tag !== "FetchStatusError") return undefined
  const decoded = Schema.decodeUnknownEither(Schema.parseJson(ApiMessage))(error.body)
  return Either.isRight(decoded) ? decoded.right.message : undefined
}
