import { Context, Effect, Layer, Schema } from "effect"

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

/** A request of the product API client: a GET, or a POST with a JSON body. */
export interface ApiRequest {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly body?: string
  /** Headers besides `accept` and `content-type` (which a same-named one here replaces). */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * Whether cookies go with it: "include" (the default: the product API's session), or "same-origin" or "omit" for
   * another API that may be on another origin and answer `access-control-allow-origin: *`, which a browser refuses
   * with credentials (the Gateway).
   */
  readonly credentials?: "include" | "same-origin" | "omit"
}

/** An answer of any status, with its body as text. */
export interface ApiAnswer {
  readonly status: number
  readonly text: string
}

export interface ApiHttpShape {
  /** Sends `request` (with credentials unless it says otherwise), asking for JSON; fails only when no answer came. */
  readonly send: (request: ApiRequest) => Effect.Effect<ApiAnswer, FetchTransportError>
}

/** `accept` (and `content-type` for a body), then the request's own headers, each name once (lower-cased). */
export const requestHeaders = (request: ApiRequest): Record<string, string> => {
  const headers: Record<string, string> =
    request.body === undefined
      ? { accept: "application/json" }
      : { accept: "application/json", "content-type": "application/json" }
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value
  return headers
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** `send` over a WHATWG `fetch`: aborted when the caller is interrupted. */
const sendWith =
  (fetch: () => typeof globalThis.fetch) =>
  (request: ApiRequest): Effect.Effect<ApiAnswer, FetchTransportError> =>
    Effect.async<ApiAnswer, FetchTransportError>((resume, signal) => {
      const failed = (error: unknown) =>
        resume(Effect.fail(new FetchTransportError({ url: request.url, reason: reasonOf(error) })))
      let sent: Promise<Response>
      try {
        sent = fetch()(request.url, {
          method: request.method,
          credentials: request.credentials ?? "include",
          headers: requestHeaders(request),
          ...(request.body === undefined ? {} : { body: request.body }),
          signal
        })
      } catch (error) {
        // A fetch that throws instead of rejecting (a malformed URL in some runtimes).
        sent = Promise.reject(error)
      }
      sent.then(
        (response) => response.text().then((text) => resume(Effect.succeed({ status: response.status, text })), failed),
        failed
      )
    })

/**
 * How the product API client reaches its server. `ApiHttp.fetch` is `fetch` itself, nothing of `@effect/platform`
 * (the app's: its first screen then loads no HTTP client library); `exchange/apiHttpClient.ts` adapts any
 * `HttpClient` (the tests' fakes, Node).
 */
export class ApiHttp extends Context.Tag("hswap/ApiHttp")<ApiHttp, ApiHttpShape>() {
  /** Over `globalThis.fetch`, looked up per request (a test or a polyfill may replace it). */
  static readonly fetch: Layer.Layer<ApiHttp> = Layer.succeed(ApiHttp, { send: sendWith(() => globalThis.fetch) })
  /** Over the given `fetch`. */
  static readonly fetchWith = (fetch: typeof globalThis.fetch): Layer.Layer<ApiHttp> =>
    Layer.succeed(ApiHttp, { send: sendWith(() => fetch) })
}

/**
 * An answer's body as JSON: a non-2xx answer is a FetchStatusError (its body cut at 2,000 characters), a body that is
 * not JSON a FetchJsonError.
 */
export const jsonBody = (url: string, answer: ApiAnswer): Effect.Effect<unknown, FetchStatusError | FetchJsonError> =>
  answer.status < 200 || answer.status > 299
    ? Effect.fail(
        new FetchStatusError({
          url,
          status: answer.status,
          statusText: defaultStatusText(answer.status),
          body: answer.text.slice(0, 2000)
        })
      )
    : Effect.try({
        try: (): unknown => JSON.parse(answer.text),
        catch: (error) => new FetchJsonError({ url, reason: reasonOf(error) })
      })

/**
 * The generic data fetch (toolkit spec §7/§8): GET to the URL joined from the key segments, credentials included,
 * the JSON body returned as `unknown` for the caller to decode. Non-2xx fails with FetchStatusError.
 */
export const fetchJson = Effect.fn("fetchJson")(function* (
  segments: ReadonlyArray<string | number>,
  options: FetchJsonOptions = {}
) {
  const url = joinKey(segments)
  const http = yield* ApiHttp
  const answer = yield* http.send({ method: "GET", url })
  if (options.returnNullOn401 === true && answer.status === 401) return null
  return yield* jsonBody(url, answer)
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
