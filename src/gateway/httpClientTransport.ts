/**
 * The Gateway client over any `@effect/platform` `HttpClient` (middleware, a test double): one fiber per exchange,
 * started with the caller's context and FiberRefs. `Gateway.layer` uses it. Apart from `transport.ts` so that a client
 * over `fetch` (the app's) does not load `@effect/platform`.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import { Cause, Effect, Exit, FiberId, FiberRefs, Runtime } from "effect"
import type { ExchangeEnd, Transport } from "./transport"

/** What one exchange's fiber returns: the answer and its body. */
interface FiberAnswer {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: string
}

/** The HttpClient's `currentTracerDisabledWhen` this client sets: no span for any of its requests. */
export const everyRequest = () => true

/**
 * Runs `effect` with the HttpClient's per-request spans and trace propagation off (the FiberRefs are inherited by the
 * fibers it forks). Set once around a paging helper (the transport's `around`): its requests then find them set and
 * fork their exchange with the caller's FiberRefs as they are. Requests sent without it set them on their exchange's
 * fiber instead.
 */
export const withoutHttpSpans = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  effect.pipe(
    Effect.locally(HttpClient.currentTracerDisabledWhen, everyRequest),
    Effect.locally(HttpClient.currentTracerPropagation, false)
  )

/**
 * Any `HttpClient`: one fiber per exchange, started at once with the caller's context and FiberRefs (with the
 * HttpClient's spans and trace propagation off, unless a paging helper already turned them off for its whole run).
 */
export const httpClientTransport = (options: {
  readonly client: HttpClient.HttpClient
  readonly basePath: string
  readonly headers: Readonly<Record<string, string>>
}): Transport => {
  const { client } = options
  /** The POST with the RDX headers for each path, built once: requests are immutable, only the body differs. */
  const baseRequests = new Map<string, HttpClientRequest.HttpClientRequest>()
  const baseRequest = (path: string) => {
    let base = baseRequests.get(path)
    if (base === undefined) {
      base = HttpClientRequest.post(options.basePath + path).pipe(HttpClientRequest.setHeaders(options.headers))
      baseRequests.set(path, base)
    }
    return base
  }
  const exchange = (request: HttpClientRequest.HttpClientRequest) =>
    Effect.flatMap(client.execute(request), (response) =>
      Effect.map(response.text, (text): FiberAnswer => ({ response, text }))
    )
  const toEnd = (exit: Exit.Exit<FiberAnswer, HttpClientError.HttpClientError>): ExchangeEnd => {
    if (Exit.isSuccess(exit)) {
      const { response, text } = exit.value
      const headers = response.headers
      return { _tag: "Answer", status: response.status, text, header: (name) => headers[name] }
    }
    if (Cause.isInterruptedOnly(exit.cause)) return { _tag: "Aborted" }
    const failure = Cause.failureOption(exit.cause)
    return failure._tag === "Some"
      ? { _tag: "Failed", reason: failure.value.reason, cause: failure.value }
      : { _tag: "Died", cause: exit.cause }
  }
  return {
    around: withoutHttpSpans,
    forCaller: (caller, status) => {
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
      return {
        start: (outgoing, done) => {
          const base = baseRequest(outgoing.path)
          const request =
            outgoing.body === undefined ? base : HttpClientRequest.bodyText(base, outgoing.body, "application/json")
          // Scheduled, not run here: even a synchronous HttpClient ends after `start` has returned.
          const fiber = Runtime.runFork(runtime)(exchange(request))
          fiber.addObserver((exit) => done(toEnd(exit)))
          return () => fiber.unsafeInterruptAsFork(FiberId.none)
        }
      }
    }
  }
}
