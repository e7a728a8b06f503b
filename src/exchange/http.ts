import { FetchHttpClient, HttpClient, HttpClientResponse } from "@effect/platform"
import { Effect, Schema } from "effect"

/** A non-2xx answer. Its message is the spec's: "{status}: {body text, or status text when the body is empty}". */
export class FetchStatusError extends Schema.TaggedError<FetchStatusError>()("FetchStatusError", {
  url: Schema.String,
  status: Schema.Number,
  statusText: Schema.String,
  body: Schema.String
}) {
  override get message(): string {
    return `${this.status}: ${this.body !== "" ? this.body : this.statusText}`
  }
}

/** The request never got an answer (offline, DNS, CORS, aborted by the network). */
export class FetchTransportError extends Schema.TaggedError<FetchTransportError>()("FetchTransportError", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `Network error while fetching ${this.url}: ${this.reason}`
  }
}

/** A 2xx answer whose body is not JSON. */
export class FetchJsonError extends Schema.TaggedError<FetchJsonError>()("FetchJsonError", {
  url: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `The answer from ${this.url} is not JSON: ${this.reason}`
  }
}

export type FetchError = FetchStatusError | FetchTransportError | FetchJsonError

/** Joins query-key segments with slashes, without doubling the slashes at the joins. */
export const joinKey = (segments: ReadonlyArray<string | number>): string =>
  segments
    .map((s, i) => {
      const text = String(s)
      const noTrailing = text.replace(/\/+$/, "")
      return i === 0 ? noTrailing : noTrailing.replace(/^\/+/, "")
    })
    .filter((s, i) => i === 0 || s !== "")
    .join("/")

export interface FetchJsonOptions {
  /** Answer `null` on 401 instead of failing (the spec's option; off by default). */
  readonly returnNullOn401?: boolean
}

const statusBody = (res: HttpClientResponse.HttpClientResponse) => res.text.pipe(Effect.orElseSucceed(() => ""))

/**
 * The generic data fetch (toolkit spec §7/§8): GET to the URL joined from the key segments, credentials included,
 * the JSON body returned as `unknown` for the caller to decode. Non-2xx fails with FetchStatusError.
 */
export const fetchJson = Effect.fn("fetchJson")(function* (
  segments: ReadonlyArray<string | number>,
  options: FetchJsonOptions = {}
) {
  const url = joinKey(segments)
  const client = yield* HttpClient.HttpClient
  const response = yield* client.get(url, { acceptJson: true }).pipe(
    Effect.provideService(FetchHttpClient.RequestInit, { credentials: "include" }),
    Effect.mapError((e) => new FetchTransportError({ url, reason: e.message }))
  )
  if (options.returnNullOn401 === true && response.status === 401) return null
  if (response.status < 200 || response.status > 299) {
    const body = yield* statusBody(response)
    return yield* new FetchStatusError({
      url,
      status: response.status,
      statusText: defaultStatusText(response.status),
      body: body.slice(0, 2000)
    })
  }
  return yield* response.json.pipe(
    Effect.mapError((e) =>
      e.reason === "Decode"
        ? new FetchJsonError({ url, reason: e.message })
        : new FetchTransportError({ url, reason: e.message })
    )
  )
})

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout"
}
const defaultStatusText = (status: number) => STATUS_TEXT[status] ?? "Error"
