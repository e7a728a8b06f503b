/**
 * The transport core: one POST per call against the base path, with the RDX headers, bounded in-flight requests,
 * typed errors, retries for reads and Schema decoding of every body.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError } from "@effect/platform"
import { Clock, Duration, Effect, Either, Option, ParseResult, Schema } from "effect"
import type { ResolvedGatewayConfig } from "./config.js"
import { decodeJson } from "./decode.js"
import { isRetryable, parseRetryAfter } from "./config.js"
import { makeLimiter, type Outcome } from "./limiter.js"
import type { DecodeIssue, GatewayError } from "./errors.js"
import {
  ErrorResponse,
  GatewayDecodeError,
  GatewayResponseError,
  GatewayTimeoutError,
  GatewayTransportError,
  RequiredError
} from "./errors.js"

/** One Gateway path: its request schema (absent when the call has no body) and its response schema. */
export interface Endpoint<Req, ReqI, Res, ResI> {
  readonly path: string
  /** The name of the request parameter, used in {@link RequiredError} (e.g. `stateEntityDetailsRequest`). */
  readonly parameter: string
  readonly request: Schema.Schema<Req, ReqI> | undefined
  readonly response: Schema.Schema<Res, ResI>
  /** Reads retry; `/transaction/submit` does not. */
  readonly retry: boolean
}

export const endpoint = <Req, ReqI, Res, ResI>(
  path: string,
  parameter: string,
  request: Schema.Schema<Req, ReqI>,
  response: Schema.Schema<Res, ResI>,
  options?: { readonly retry?: boolean }
): Endpoint<Req, ReqI, Res, ResI> => ({ path, parameter, request, response, retry: options?.retry ?? true })

export const bodilessEndpoint = <Res, ResI>(
  path: string,
  response: Schema.Schema<Res, ResI>
): Endpoint<void, void, Res, ResI> => ({ path, parameter: "", request: undefined, response, retry: true })

const formatPath = (path: ReadonlyArray<PropertyKey>) => path.map(String).join(".")

/** Every leaf of a ParseError as `{ path: "items.0.details.blueprint_name", message: "is missing" }`. */
export const decodeIssues = (error: ParseResult.ParseError): ReadonlyArray<DecodeIssue> =>
  ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message
  }))

const decodeErrorResponse = Schema.decodeUnknownOption(ErrorResponse)

const parseJson = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text) as unknown)
  } catch {
    return Option.none()
  }
}

/**
 * Runs `effect` with the HttpClient's per-request spans and trace propagation off, for every request it sends (the
 * FiberRefs are inherited by the fibers it forks). Set once around a paging helper instead of around each request.
 */
export const withoutHttpSpans = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.locally(HttpClient.currentTracerDisabledWhen, () => true),
    Effect.locally(HttpClient.currentTracerPropagation, false)
  )

export type GatewayCall = <Req, ReqI, Res, ResI>(
  endpoint: Endpoint<Req, ReqI, Res, ResI>,
  request: Req
) => Effect.Effect<Res, GatewayError>

/** Builds the `call` function for one client: it owns the adaptive limiter that bounds requests in flight. */
export const makeGatewayCall = (config: ResolvedGatewayConfig) =>
  Effect.gen(function* () {
    // One span per public method (Effect.fn in Gateway.ts), none per HTTP request: a span per request was a large
    // share of the client's CPU on paged reads (bench:gateway). `call` sets the HttpClient's tracer FiberRefs around
    // each request; `callBuilt` relies on its caller having set them once for all its requests ({@link withoutHttpSpans}),
    // which saves two FiberRef updates and restores per request.
    const raw = yield* HttpClient.HttpClient
    const client = raw.pipe(
      HttpClient.withTracerPropagation(false),
      HttpClient.withTracerDisabledWhen(() => true)
    )
    const limiter = makeLimiter({ initial: config.concurrency, max: config.maxConcurrency })
    const policy = config.retry
    const retryAfterCap = Duration.toMillis(policy.maxRetryAfter)
    const baseDelay = Duration.toMillis(policy.baseDelay)
    const maxDelay = Duration.toMillis(policy.maxDelay)
    const timeoutMillis = Duration.toMillis(config.timeout)

    const transportError = (path: string) => (error: HttpClientError.HttpClientError) =>
      new GatewayTransportError({ path, reason: error.reason, cause: error })

    const classify = (
      result: { readonly _tag: "Success" } | { readonly _tag: "Failure"; readonly error: GatewayError }
    ): Outcome => {
      if (result._tag === "Success") return "healthy"
      const error = result.error
      if (error._tag === "GatewayTimeoutError") return "overload"
      if (error._tag === "GatewayResponseError" && (error.status === 429 || error.status >= 500)) return "overload"
      return "neutral"
    }

    /** One attempt, holding a slot of the limiter only while the request is in flight (not while decoding). */
    const attempt = (
      client: HttpClient.HttpClient,
      path: string,
      request: HttpClientRequest.HttpClientRequest,
      priority: boolean
    ) =>
      limiter.run(
        client.execute(request).pipe(
          Effect.flatMap((response) =>
            Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))
          ),
          Effect.mapError(transportError(path)),
          Effect.timeoutFail({
            duration: config.timeout,
            onTimeout: () => new GatewayTimeoutError({ path, timeoutMillis })
          }),
          Effect.flatMap(({ status, headers, text }): Effect.Effect<string, GatewayError> => {
            if (status >= 200 && status < 300) return Effect.succeed(text)
            return Effect.flatMap(Clock.currentTimeMillis, (now) => {
              const errorResponse = Option.flatMap(parseJson(text), decodeErrorResponse)
              const retryAfter =
                status === 429 || status >= 500 ? parseRetryAfter(headers["retry-after"], now) : Option.none()
              if (Option.isSome(retryAfter)) limiter.pauseUntil(now + Math.min(retryAfter.value, retryAfterCap))
              return Effect.fail(
                new GatewayResponseError({
                  path,
                  status,
                  body: text,
                  ...(Option.isSome(errorResponse) ? { errorResponse: errorResponse.value } : {}),
                  ...(Option.isSome(retryAfter) ? { retryAfterMillis: retryAfter.value } : {})
                })
              )
            })
          })
        ),
        classify,
        priority
      )

    /**
     * Sends with retries: a retryable failure (429, 5xx, transport, timeout) of a read is tried again after its
     * `retry-after` (capped at `maxRetryAfter`) or else `baseDelay × factor^n` (capped at `maxDelay`), at most
     * `retries` times in all. Retries go before first attempts in the limiter's queue.
     */
    const send = (
      client: HttpClient.HttpClient,
      path: string,
      request: HttpClientRequest.HttpClientRequest,
      retry: boolean
    ) => {
      const loop = (retried: number): Effect.Effect<string, GatewayError> =>
        Effect.catchAll(attempt(client, path, request, retried > 0), (error) => {
          if (!retry || retried >= policy.retries || !isRetryable(error)) return Effect.fail(error)
          const delay =
            error._tag === "GatewayResponseError" && error.retryAfterMillis !== undefined
              ? Math.min(error.retryAfterMillis, retryAfterCap)
              : Math.min(baseDelay * Math.pow(policy.factor, retried), maxDelay)
          return Effect.zipRight(Effect.sleep(Duration.millis(delay)), loop(retried + 1))
        })
      return loop(0)
    }

    /** Encodes the request body synchronously (the request schemas need no services), so a call adds no fiber steps. */
    const encodeBody = <Req, ReqI, Res, ResI>(
      endpoint: Endpoint<Req, ReqI, Res, ResI>,
      value: Req
    ): Either.Either<ReqI | undefined, RequiredError> => {
      const schema = endpoint.request
      if (schema === undefined) return Either.right(undefined)
      if (value === null || value === undefined)
        return Either.left(new RequiredError({ field: endpoint.parameter, path: endpoint.path }))
      return Either.mapLeft(Schema.encodeEither(schema)(value), (error) => {
        const first = decodeIssues(error)[0]
        return new RequiredError({
          field: first === undefined || first.path === "" ? endpoint.parameter : first.path,
          path: endpoint.path,
          ...(first === undefined ? {} : { reason: first.message })
        })
      })
    }

    /** The POST with the RDX headers for each path, built once: requests are immutable, only the body differs. */
    const baseRequests = new Map<string, HttpClientRequest.HttpClientRequest>()
    const baseRequest = (path: string) => {
      let base = baseRequests.get(path)
      if (base === undefined) {
        base = HttpClientRequest.post(config.basePath + path).pipe(HttpClientRequest.setHeaders(config.headers))
        baseRequests.set(path, base)
      }
      return base
    }

    /** Parses and decodes a 2xx body with the endpoint's response schema. */
    const decodeBody = <Res, ResI>(path: string, response: Schema.Schema<Res, ResI>, text: string) => {
      const json = parseJson(text)
      if (Option.isNone(json)) {
        return Effect.fail(
          new GatewayDecodeError({
            path,
            issues: [{ path: "", message: `body is not valid JSON (${text.length} bytes)` }]
          })
        )
      }
      const decoded = decodeJson(response, json.value)
      return Either.isRight(decoded)
        ? Effect.succeed(decoded.right)
        : Effect.fail(new GatewayDecodeError({ path, issues: decodeIssues(decoded.left) }))
    }

    const call: GatewayCall = <Req, ReqI, Res, ResI>(endpoint: Endpoint<Req, ReqI, Res, ResI>, value: Req) =>
      Effect.suspend((): Effect.Effect<Res, GatewayError> => {
        const body = encodeBody(endpoint, value)
        if (Either.isLeft(body)) return Effect.fail(body.left)
        const base = baseRequest(endpoint.path)
        const request = body.right === undefined ? base : HttpClientRequest.bodyUnsafeJson(base, body.right)
        return Effect.flatMap(send(client, endpoint.path, request, endpoint.retry), (text) =>
          decodeBody(endpoint.path, endpoint.response, text)
        )
      })

    /**
     * `call` for requests this client builds itself from typed values (the paging helpers): the body is sent as it
     * is, without a Schema encode (the request schemas' encode is the identity on such values). Run it inside
     * {@link withoutHttpSpans} (set once around a helper's whole run): it does not set the tracer FiberRefs itself.
     */
    const callBuilt: GatewayCall = <Req, ReqI, Res, ResI>(endpoint: Endpoint<Req, ReqI, Res, ResI>, value: Req) =>
      Effect.suspend((): Effect.Effect<Res, GatewayError> => {
        const base = baseRequest(endpoint.path)
        const request = endpoint.request === undefined ? base : HttpClientRequest.bodyUnsafeJson(base, value)
        return Effect.flatMap(send(raw, endpoint.path, request, endpoint.retry), (text) =>
          decodeBody(endpoint.path, endpoint.response, text)
        )
      })

    return { call, callBuilt, limiter }
  })
