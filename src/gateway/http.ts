/**
 * The transport core: one POST per call against the base path, with the RDX headers, bounded in-flight requests,
 * typed errors, retries for reads and Schema decoding of every body.
 */
import { Cause, Duration, Effect, Either, Exit, FiberId, Option, ParseResult, Runtime, Schema } from "effect"
import type { Fiber } from "effect"
import type { ResolvedGatewayConfig } from "./config"
import { type ExchangeEnd, type Outgoing, type Starter, type Transport } from "./transport"
import { decodeJson } from "./decode"
import { isRetryable, parseRetryAfter } from "./config"
import { makeLimiter, type Outcome } from "./limiter"
import type { DecodeIssue, GatewayError } from "./errors"
import {
  ErrorResponse,
  GatewayDecodeError,
  GatewayResponseError,
  GatewayTimeoutError,
  GatewayTransportError,
  RequiredError
} from "./errors"

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

export type GatewayCall = <Req, ReqI, Res, ResI>(
  endpoint: Endpoint<Req, ReqI, Res, ResI>,
  request: Req
) => Effect.Effect<Res, GatewayError>

/** A request the client built itself (see `callBuilt`): what it sends and how its answer decodes. */
export interface Built<Res> {
  readonly request: Outgoing
  /** Decodes a parsed 2xx body with the endpoint's response schema. */
  readonly decode: (json: unknown) => Either.Either<Res, ParseResult.ParseError>
  readonly retry: boolean
}

/** A request from a typed value, sent as it is (no Schema encode: see `callBuilt`). */
export const built = <Req, ReqI, Res, ResI>(endpoint: Endpoint<Req, ReqI, Res, ResI>, value: Req): Built<Res> =>
  withBody(endpoint, endpoint.request === undefined ? undefined : JSON.stringify(value))

const withBody = <Req, ReqI, Res, ResI>(
  endpoint: Endpoint<Req, ReqI, Res, ResI>,
  body: string | undefined
): Built<Res> => ({
  request: { path: endpoint.path, body },
  decode: (json) => decodeJson(endpoint.response, json),
  retry: endpoint.retry
})

export type GatewayCallAll = <Res>(
  requests: ReadonlyArray<Built<Res>>
) => Effect.Effect<ReadonlyArray<Res>, GatewayError>

/** A cancelled request ends with an interruption: the caller resumes with its own (it was being interrupted). */
const interruptHere = <A>(exit: Exit.Exit<A, GatewayError>): Effect.Effect<A, GatewayError> =>
  Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause) ? Effect.interrupt : exit

/** One attempt in flight: how to abort it and when it times out (see the deadline sweep). */
interface InFlight {
  readonly deadline: number
  readonly abort: () => void
  timedOut: boolean
}

/**
 * Builds the `call` function for one client over `transport`: it owns the adaptive limiter that bounds requests in
 * flight, and one deadline sweep for the timeouts of all of them.
 *
 * The request path is written for its per-request cost (bench:gateway). A request, with its retries, is
 * plain callbacks ({@link startSend}), and a call is one `Effect.async` in the caller's fiber around one request
 * (`call`, `callBuilt`) or around a whole batch of them (`callAll`, what the paging helpers send a round of follow-up
 * pages with: no fiber per request or per entity). An attempt takes a limiter slot (or queues for one) and starts the
 * exchange on the transport; the exchange's end settles everything synchronously: the slot goes back with the
 * answer's health, an error status becomes a {@link GatewayResponseError} (its `retry-after` pauses the client), a 2xx
 * body is decoded, and the request retries, ends, or the caller resumes. Timeouts are not a timer per request: every attempt of the client goes into one insertion-ordered set (the
 * timeout is the same for all, so the first is the next to expire) and a single sweep fiber sleeps until the first
 * deadline, aborts what is overdue and sleeps again; it stops when nothing is in flight, so no timer outlives the
 * client's requests. No span per request (one per public method, Effect.fn in Gateway.ts).
 */
export const makeGatewayCall = (config: ResolvedGatewayConfig, transport: Transport) =>
  Effect.gen(function* () {
    // The clock of the context the client is built in (the TestClock in tests), read synchronously per attempt, and
    // that context's runtime, which the deadline sweep runs on.
    const clock = yield* Effect.clock
    const runtime = yield* Effect.runtime<never>()
    const limiter = yield* makeLimiter({ initial: config.concurrency, max: config.maxConcurrency })
    const policy = config.retry
    const retryAfterCap = Duration.toMillis(policy.maxRetryAfter)
    const baseDelay = Duration.toMillis(policy.baseDelay)
    const maxDelay = Duration.toMillis(policy.maxDelay)
    const timeoutMillis = Duration.toMillis(config.timeout)

    // --- the deadline sweep ---------------------------------------------------------------------------------------

    const inFlight = new Set<InFlight>()
    let sweeper: Fiber.RuntimeFiber<void> | undefined
    /** Aborts every attempt past its deadline, then sleeps until the next one; ends when none is in flight. */
    const sweep: Effect.Effect<void> = Effect.suspend(() => {
      const now = clock.unsafeCurrentTimeMillis()
      for (const entry of inFlight) {
        // Deadlines grow in insertion order (one timeout for all), so the first one not yet due is the next to be.
        if (entry.deadline > now) return Effect.zipRight(clock.sleep(Duration.millis(entry.deadline - now)), sweep)
        inFlight.delete(entry)
        entry.timedOut = true
        entry.abort()
      }
      sweeper = undefined
      return Effect.void
    })
    const track = (entry: InFlight) => {
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

    /** A non-2xx answer as an error; a 429 or 5xx with `retry-after` pauses every new request of the client. */
    const responseError = (
      path: string,
      status: number,
      text: string,
      header: (name: string) => string | undefined
    ) => {
      const errorResponse = Option.flatMap(parseJson(text), decodeErrorResponse)
      const retryAfter =
        status === 429 || status >= 500
          ? parseRetryAfter(header("retry-after"), clock.unsafeCurrentTimeMillis())
          : Option.none()
      if (Option.isSome(retryAfter))
        limiter.pauseUntil(clock.unsafeCurrentTimeMillis() + Math.min(retryAfter.value, retryAfterCap))
      return new GatewayResponseError({
        path,
        status,
        body: text,
        ...(Option.isSome(errorResponse) ? { errorResponse: errorResponse.value } : {}),
        ...(Option.isSome(retryAfter) ? { retryAfterMillis: retryAfter.value } : {})
      })
    }

    /**
     * One attempt, with callbacks: takes a slot (or queues, also through a pause), starts the exchange and calls `done`
     * exactly once with how it ended (never before this function returns). The function it returns cancels: a queued
     * place is given up (`done` then gets an interruption at once), an exchange in flight is aborted (`done` comes with
     * its end, whose slot is then back).
     */
    const startAttempt = <Res>(
      starter: Starter,
      request: Outgoing,
      decode: Built<Res>["decode"],
      priority: boolean,
      done: (exit: Exit.Exit<Res, GatewayError>) => void
    ): (() => void) => {
      let abort: (() => void) | undefined
      let ended = false
      const start = (sentAt: number) => {
        const entry: InFlight = {
          deadline: clock.unsafeCurrentTimeMillis() + timeoutMillis,
          abort: () => abort?.(),
          timedOut: false
        }
        track(entry)
        abort = starter.start(request, (end) => {
          ended = true
          untrack(entry)
          const settled = settle(request.path, decode, entry, end)
          limiter.release(sentAt, settled.outcome)
          done(settled.exit)
        })
      }
      const leave = limiter.enter(start, priority)
      return () => {
        if (ended) return
        if (leave !== undefined && leave()) {
          ended = true
          done(Exit.interrupt(FiberId.none))
          return
        }
        abort?.()
      }
    }

    /** The end of an exchange: what the caller resumes with, and what it tells the limiter about the server. */
    const settle = <Res>(
      path: string,
      decode: Built<Res>["decode"],
      entry: InFlight,
      end: ExchangeEnd
    ): { readonly outcome: Outcome; readonly exit: Exit.Exit<Res, GatewayError> } => {
      switch (end._tag) {
        case "Answer": {
          const status = end.status
          if (status >= 200 && status < 300) return { outcome: "healthy", exit: decodeBody(path, decode, end.text) }
          const error = responseError(path, status, end.text, end.header)
          return { outcome: status === 429 || status >= 500 ? "overload" : "neutral", exit: Exit.fail(error) }
        }
        case "Aborted":
          return entry.timedOut
            ? { outcome: "overload", exit: Exit.fail(new GatewayTimeoutError({ path, timeoutMillis })) }
            : { outcome: "neutral", exit: Exit.interrupt(FiberId.none) }
        case "Failed":
          return {
            outcome: "neutral",
            exit: Exit.fail(new GatewayTransportError({ path, reason: end.reason, cause: end.cause }))
          }
        case "Died":
          return { outcome: "neutral", exit: Exit.failCause(end.cause as Cause.Cause<never>) }
      }
    }

    /**
     * One request with its retries, with callbacks (see {@link startAttempt} for `done` and the canceller): a retryable
     * failure (429, 5xx, transport, timeout) of a read is tried again after its `retry-after` (capped at
     * `maxRetryAfter`) or else `baseDelay × factor^n` (capped at `maxDelay`), at most `retries` times in all. Retries
     * go before first attempts in the limiter's queue. A back-off sleeps on the client's Clock in a fiber of its own
     * (the only fiber a request may need, and only when it is retried without a `retry-after`).
     */
    const startSend = <Res>(
      starter: Starter,
      built: Built<Res>,
      done: (exit: Exit.Exit<Res, GatewayError>) => void
    ): (() => void) => {
      let retried = 0
      let cancelled = false
      let current: (() => void) | undefined
      let sleeper: Fiber.RuntimeFiber<void> | undefined
      const go = () => {
        current = startAttempt(starter, built.request, built.decode, retried > 0, onExit)
      }
      const onExit = (exit: Exit.Exit<Res, GatewayError>) => {
        current = undefined
        if (cancelled || Exit.isSuccess(exit) || !built.retry || retried >= policy.retries) return done(exit)
        const failure = Cause.failureOption(exit.cause)
        if (Option.isNone(failure) || !isRetryable(failure.value)) return done(exit)
        const error = failure.value
        retried += 1
        // A `retry-after` paused the whole client (see responseError): the retry queues at once, first in line, and
        // the limiter starts it when the pause ends. Otherwise it backs off on its own.
        if (error._tag === "GatewayResponseError" && error.retryAfterMillis !== undefined) return go()
        const delay = Math.min(baseDelay * Math.pow(policy.factor, retried - 1), maxDelay)
        const fiber = Runtime.runFork(runtime)(clock.sleep(Duration.millis(delay)))
        sleeper = fiber
        fiber.addObserver(() => {
          sleeper = undefined
          if (cancelled) done(Exit.interrupt(FiberId.none))
          else go()
        })
      }
      go()
      return () => {
        if (cancelled) return
        cancelled = true
        if (current !== undefined) current()
        else sleeper?.unsafeInterruptAsFork(FiberId.none)
      }
    }

    /**
     * Runs `requests` at once in the calling fiber, with no fiber per request: one `Effect.async` that starts each
     * with its retries ({@link startSend}; the limiter decides what is in flight) and resumes with every result in
     * order once all have succeeded. The first failure cancels the others and, once they have ended, is the batch's
     * failure; interrupting the caller cancels them all and waits for their ends (their slots are then back).
     */
    const sendAll = <Res>(requests: ReadonlyArray<Built<Res>>): Effect.Effect<ReadonlyArray<Res>, GatewayError> =>
      Effect.withFiberRuntime<ReadonlyArray<Res>, GatewayError>((caller, status) => {
        const starter = transport.forCaller(caller, status)
        return Effect.async<ReadonlyArray<Res>, GatewayError>((resume) => {
          const n = requests.length
          const results = new Array<Res>(n)
          const cancels: Array<(() => void) | undefined> = new Array(n)
          let pending = n
          let failure: Exit.Exit<ReadonlyArray<Res>, GatewayError> | undefined
          let onAllEnded: (() => void) | undefined
          const cancelAll = () => {
            for (let j = 0; j < n; j++) {
              const cancel = cancels[j]
              cancels[j] = undefined
              cancel?.()
            }
          }
          const ended = () => {
            pending -= 1
            if (pending > 0) return
            if (onAllEnded !== undefined) onAllEnded()
            else resume(failure === undefined ? Exit.succeed(results) : interruptHere(failure))
          }
          if (n === 0) return resume(Exit.succeed(results))
          // `done` never comes before `startSend` returns, so every canceller is in place before any request ends.
          for (let i = 0; i < n; i++)
            cancels[i] = startSend(starter, requests[i] as Built<Res>, (exit) => {
              cancels[i] = undefined
              if (Exit.isSuccess(exit)) results[i] = exit.value
              else if (failure === undefined) {
                failure = Exit.failCause(exit.cause)
                cancelAll()
              }
              ended()
            })
          return Effect.suspend(() => {
            if (pending === 0) return Effect.void
            cancelAll()
            return pending === 0
              ? Effect.void
              : Effect.async<void>((allEnded) => {
                  onAllEnded = () => allEnded(Effect.void)
                })
          })
        })
      })

    /** Runs one request in the calling fiber (see {@link sendAll}): one `Effect.async`, no fiber. */
    const send = <Res>(built: Built<Res>): Effect.Effect<Res, GatewayError> =>
      Effect.withFiberRuntime<Res, GatewayError>((caller, status) => {
        const starter = transport.forCaller(caller, status)
        return Effect.async<Res, GatewayError>((resume) => {
          let ended = false
          let onEnded: (() => void) | undefined
          const cancel = startSend(starter, built, (exit) => {
            ended = true
            if (onEnded !== undefined) onEnded()
            else resume(interruptHere(exit))
          })
          return Effect.suspend(() => {
            if (ended) return Effect.void
            cancel()
            return ended
              ? Effect.void
              : Effect.async<void>((done) => {
                  onEnded = () => done(Effect.void)
                })
          })
        })
      })

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

    /** Parses and decodes a 2xx body with the endpoint's response schema. */
    const decodeBody = <Res>(
      path: string,
      decode: Built<Res>["decode"],
      text: string
    ): Exit.Exit<Res, GatewayError> => {
      const json = parseJson(text)
      if (Option.isNone(json)) {
        return Exit.fail(
          new GatewayDecodeError({
            path,
            issues: [{ path: "", message: `body is not valid JSON (${text.length} bytes)` }]
          })
        )
      }
      const decoded = decode(json.value)
      return Either.isRight(decoded)
        ? Exit.succeed(decoded.right)
        : Exit.fail(new GatewayDecodeError({ path, issues: decodeIssues(decoded.left) }))
    }

    const call: GatewayCall = <Req, ReqI, Res, ResI>(endpoint: Endpoint<Req, ReqI, Res, ResI>, value: Req) =>
      Effect.suspend((): Effect.Effect<Res, GatewayError> => {
        const body = encodeBody(endpoint, value)
        if (Either.isLeft(body)) return Effect.fail(body.left)
        return send(withBody(endpoint, body.right === undefined ? undefined : JSON.stringify(body.right)))
      })

    /**
     * `call` for requests this client builds itself from typed values (the paging helpers): the body is sent as it
     * is, without a Schema encode (the request schemas' encode is the identity on such values). Best run inside
     * `around` (set once around a helper's whole run): over an HttpClient, no request then has to set the tracer
     * FiberRefs on its exchange's fiber.
     */
    const callBuilt: GatewayCall = <Req, ReqI, Res, ResI>(endpoint: Endpoint<Req, ReqI, Res, ResI>, value: Req) =>
      Effect.suspend(() => send(built(endpoint, value)))

    /**
     * Many built requests at once, with no fiber per request (see {@link sendAll}): their results in order, or the
     * first failure. What the paging helpers send a round of follow-up pages with.
     */
    const callAll = <Res>(requests: ReadonlyArray<Built<Res>>): Effect.Effect<ReadonlyArray<Res>, GatewayError> =>
      sendAll(requests)

    /** What a paging helper's whole run goes through (the transport's `around`, if it has one). */
    const around = transport.around ?? (<A, E, R>(effect: Effect.Effect<A, E, R>) => effect)
    return { call, callBuilt, callAll, limiter, around }
  })
