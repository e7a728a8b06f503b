/**
 * The transport core: one POST per call against the base path, with the RDX headers, bounded in-flight requests,
 * typed errors, retries for reads and Schema decoding of every body.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import {
  Cause,
  Duration,
  Effect,
  Either,
  Exit,
  Fiber,
  FiberId,
  FiberRefs,
  Option,
  ParseResult,
  Runtime,
  Schema
} from "effect"
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

/** The HttpClient's `currentTracerDisabledWhen` this client sets: no span for any of its requests. */
const everyRequest = () => true

/**
 * Runs `effect` with the HttpClient's per-request spans and trace propagation off (the FiberRefs are inherited by the
 * fibers it forks). Set once around a paging helper: its requests then find them set and fork their exchange with the
 * caller's FiberRefs as they are. Requests sent without it set them on their exchange's fiber instead.
 */
export const withoutHttpSpans = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.locally(HttpClient.currentTracerDisabledWhen, everyRequest),
    Effect.locally(HttpClient.currentTracerPropagation, false)
  )

export type GatewayCall = <Req, ReqI, Res, ResI>(
  endpoint: Endpoint<Req, ReqI, Res, ResI>,
  request: Req
) => Effect.Effect<Res, GatewayError>

/** What one exchange's fiber returns: the answer's status and body (headers are read only for an error status). */
interface Answer {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: string
}

/** One attempt in flight: its exchange's fiber and when it times out (see the deadline sweep). */
interface InFlight {
  readonly deadline: number
  readonly fiber: Fiber.RuntimeFiber<Answer, HttpClientError.HttpClientError>
  timedOut: boolean
}

/**
 * Builds the `call` function for one client: it owns the adaptive limiter that bounds requests in flight, and one
 * deadline sweep for the timeouts of all of them.
 *
 * The request path is written for its per-request cost (bench:gateway; issue 17). An attempt is one `Effect.async` in
 * the caller's fiber: it takes a limiter slot (or queues for one) and runs the HTTP exchange (`execute`, then the body's
 * text) in a fiber of its own, started at once with the caller's FiberRefs; that fiber's end settles everything
 * synchronously: the slot goes back with the answer's health, an error status becomes a {@link GatewayResponseError}
 * (its `retry-after` pauses the client), a 2xx body is decoded, and the caller resumes. Timeouts are not a timer per
 * request: every attempt of the client goes into one insertion-ordered set (the timeout is the same for all, so the
 * first is the next to expire) and a single sweep fiber sleeps until the first deadline, interrupts what is overdue
 * and sleeps again; it stops when nothing is in flight, so no timer outlives the client's requests. No span per request
 * (one per public method, Effect.fn in Gateway.ts).
 */
export const makeGatewayCall = (config: ResolvedGatewayConfig) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    // The clock of the context the client is built in (the TestClock in tests), read synchronously per attempt.
    const clock = yield* Effect.clock
    const limiter = makeLimiter({ initial: config.concurrency, max: config.maxConcurrency })
    const policy = config.retry
    const retryAfterCap = Duration.toMillis(policy.maxRetryAfter)
    const baseDelay = Duration.toMillis(policy.baseDelay)
    const maxDelay = Duration.toMillis(policy.maxDelay)
    const timeoutMillis = Duration.toMillis(config.timeout)

    // --- the deadline sweep ---------------------------------------------------------------------------------------

    const inFlight = new Set<InFlight>()
    let sweeper: Fiber.RuntimeFiber<void> | undefined
    /** Interrupts every attempt past its deadline, then sleeps until the next one; ends when none is in flight. */
    const sweep: Effect.Effect<void> = Effect.suspend(() => {
      const now = clock.unsafeCurrentTimeMillis()
      for (const entry of inFlight) {
        // Deadlines grow in insertion order (one timeout for all), so the first one not yet due is the next to be.
        if (entry.deadline > now) return Effect.zipRight(clock.sleep(Duration.millis(entry.deadline - now)), sweep)
        inFlight.delete(entry)
        entry.timedOut = true
        entry.fiber.unsafeInterruptAsFork(FiberId.none)
      }
      sweeper = undefined
      return Effect.void
    })
    const track = (entry: InFlight, runtime: Runtime.Runtime<never>) => {
      inFlight.add(entry)
      if (sweeper === undefined) sweeper = Runtime.runFork(runtime)(sweep)
    }
    const untrack = (entry: InFlight) => {
      if (!inFlight.delete(entry) || inFlight.size > 0 || sweeper === undefined) return
      // Nothing left in flight: stop the sweep's timer now rather than when the last deadline would have passed.
      sweeper.unsafeInterruptAsFork(FiberId.none)
      sweeper = undefined
    }

    // --- one attempt ----------------------------------------------------------------------------------------------

    const exchange = (request: HttpClientRequest.HttpClientRequest) =>
      Effect.flatMap(client.execute(request), (response) =>
        Effect.map(response.text, (text): Answer => ({ response, text }))
      )

    /** A non-2xx answer as an error; a 429 or 5xx with `retry-after` pauses every new request of the client. */
    const responseError = (path: string, answer: Answer): GatewayResponseError => {
      const { status } = answer.response
      const errorResponse = Option.flatMap(parseJson(answer.text), decodeErrorResponse)
      const retryAfter =
        status === 429 || status >= 500
          ? parseRetryAfter(answer.response.headers["retry-after"], clock.unsafeCurrentTimeMillis())
          : Option.none()
      if (Option.isSome(retryAfter))
        limiter.pauseUntil(clock.unsafeCurrentTimeMillis() + Math.min(retryAfter.value, retryAfterCap))
      return new GatewayResponseError({
        path,
        status,
        body: answer.text,
        ...(Option.isSome(errorResponse) ? { errorResponse: errorResponse.value } : {}),
        ...(Option.isSome(retryAfter) ? { retryAfterMillis: retryAfter.value } : {})
      })
    }

    /**
     * One attempt: waits out a pause, then an `Effect.async` that takes a slot (or queues), starts the exchange's
     * fiber and resumes when it ends. Interrupting the caller gives a queued place up, or interrupts the exchange and
     * waits for it to end (its slot is then back).
     */
    const attempt = <Res, ResI>(
      path: string,
      request: HttpClientRequest.HttpClientRequest,
      response: Schema.Schema<Res, ResI>,
      priority: boolean
    ): Effect.Effect<Res, GatewayError> =>
      Effect.suspend(() => {
        const pausedFor = limiter.state().pausedUntil - clock.unsafeCurrentTimeMillis()
        if (pausedFor > 0)
          return Effect.zipRight(clock.sleep(Duration.millis(pausedFor)), attempt(path, request, response, priority))
        return Effect.withFiberRuntime<Res, GatewayError>((caller, status) => {
          // The caller's FiberRefs, with the HttpClient's tracing off unless a paging helper already turned it off.
          const spansOff =
            caller.getFiberRef(HttpClient.currentTracerDisabledWhen) === everyRequest &&
            caller.getFiberRef(HttpClient.currentTracerPropagation) === false
          const runtime = Runtime.make({
            context: caller.currentContext,
            runtimeFlags: status.runtimeFlags,
            fiberRefs: spansOff
              ? caller.getFiberRefs()
              : FiberRefs.updateManyAs(caller.getFiberRefs(), {
                  forkAs: caller.id(),
                  entries: [
                    [HttpClient.currentTracerDisabledWhen, [[caller.id(), everyRequest]]],
                    [HttpClient.currentTracerPropagation, [[caller.id(), false]]]
                  ]
                })
          })
          return Effect.async<Res, GatewayError>((resume) => {
            let fiber: InFlight["fiber"] | undefined
            const start = (sentAt: number, immediate: boolean) => {
              const started = Runtime.runFork(runtime)(exchange(request), { immediate })
              fiber = started
              const entry: InFlight = {
                deadline: clock.unsafeCurrentTimeMillis() + timeoutMillis,
                fiber: started,
                timedOut: false
              }
              track(entry, runtime)
              started.addObserver((exit) => {
                untrack(entry)
                const settled = settle(path, response, entry, exit)
                limiter.release(sentAt, settled.outcome)
                resume(settled.effect)
              })
            }
            // A queued attempt starts from another fiber's end: scheduled, not run there, so that a chain of answers
            // that complete at once (a synchronous HttpClient) does not nest.
            const leave = limiter.enter((sentAt) => start(sentAt, false), priority)
            return Effect.suspend(() => {
              if (leave !== undefined && leave()) return Effect.void
              return fiber === undefined ? Effect.void : Fiber.interrupt(fiber)
            })
          })
        })
      })

    /** The end of an exchange: what the caller resumes with, and what it tells the limiter about the server. */
    const settle = <Res, ResI>(
      path: string,
      response: Schema.Schema<Res, ResI>,
      entry: InFlight,
      exit: Exit.Exit<Answer, HttpClientError.HttpClientError>
    ): { readonly outcome: Outcome; readonly effect: Effect.Effect<Res, GatewayError> } => {
      if (Exit.isSuccess(exit)) {
        const answer = exit.value
        const status = answer.response.status
        if (status >= 200 && status < 300)
          return { outcome: "healthy", effect: decodeBody(path, response, answer.text) }
        const error = responseError(path, answer)
        return { outcome: status === 429 || status >= 500 ? "overload" : "neutral", effect: Effect.fail(error) }
      }
      if (entry.timedOut && Cause.isInterruptedOnly(exit.cause))
        return { outcome: "overload", effect: Effect.fail(new GatewayTimeoutError({ path, timeoutMillis })) }
      const failure = Cause.failureOption(exit.cause)
      return Option.isSome(failure)
        ? {
            outcome: "neutral",
            effect: Effect.fail(new GatewayTransportError({ path, reason: failure.value.reason, cause: failure.value }))
          }
        : { outcome: "neutral", effect: Effect.failCause(exit.cause as Cause.Cause<never>) }
    }

    /**
     * Sends with retries: a retryable failure (429, 5xx, transport, timeout) of a read is tried again after its
     * `retry-after` (capped at `maxRetryAfter`) or else `baseDelay × factor^n` (capped at `maxDelay`), at most
     * `retries` times in all. Retries go before first attempts in the limiter's queue.
     */
    const send = <Res, ResI>(
      path: string,
      request: HttpClientRequest.HttpClientRequest,
      response: Schema.Schema<Res, ResI>,
      retry: boolean
    ) => {
      const loop = (retried: number): Effect.Effect<Res, GatewayError> =>
        Effect.catchAll(attempt(path, request, response, retried > 0), (error) => {
          if (!retry || retried >= policy.retries || !isRetryable(error)) return Effect.fail(error)
          const delay =
            error._tag === "GatewayResponseError" && error.retryAfterMillis !== undefined
              ? Math.min(error.retryAfterMillis, retryAfterCap)
              : Math.min(baseDelay * Math.pow(policy.factor, retried), maxDelay)
          return Effect.zipRight(clock.sleep(Duration.millis(delay)), loop(retried + 1))
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
        return send(endpoint.path, request, endpoint.response, endpoint.retry)
      })

    /**
     * `call` for requests this client builds itself from typed values (the paging helpers): the body is sent as it
     * is, without a Schema encode (the request schemas' encode is the identity on such values). Best run inside
     * {@link withoutHttpSpans} (set once around a helper's whole run), so that no request has to set the tracer
     * FiberRefs on its exchange's fiber.
     */
    const callBuilt: GatewayCall = <Req, ReqI, Res, ResI>(endpoint: Endpoint<Req, ReqI, Res, ResI>, value: Req) =>
      Effect.suspend((): Effect.Effect<Res, GatewayError> => {
        const base = baseRequest(endpoint.path)
        const request = endpoint.request === undefined ? base : HttpClientRequest.bodyUnsafeJson(base, value)
        return send(endpoint.path, request, endpoint.response, endpoint.retry)
      })

    return { call, callBuilt, limiter }
  })
