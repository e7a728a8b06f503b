/**
 * How the client's requests reach the Gateway: one exchange (a POST, its status and its body as text) at a time, with
 * a callback when it ends and a function that aborts it. `http.ts` owns everything else (the limiter, retries,
 * timeouts, decoding), so both transports behave alike above this line.
 *
 * - {@link fetchTransport}: `fetch` itself, with no fiber per request. The default of `Gateway.layerFetch` and the
 *   cheapest per request (issue 17: about a fifth to a third of the client's CPU went to `FetchHttpClient`'s fibers,
 *   scopes and FiberRef reads). It honours `FetchHttpClient.Fetch` and `FetchHttpClient.RequestInit` from the context
 *   the client is built in, as `FetchHttpClient` does per request.
 * - {@link httpClientTransport}: any `@effect/platform` `HttpClient` (middleware, a test double), one fiber per
 *   exchange started with the caller's context and FiberRefs. What `Gateway.layer` uses.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError, HttpClientResponse } from "@effect/platform"
import { Cause, Effect, Exit, FiberId, FiberRefs, Runtime } from "effect"
import type { FiberStatus } from "effect"

/** One request: the path after the base URL and the JSON body (absent for a bodiless call). */
export interface Outgoing {
  readonly path: string
  readonly body: string | undefined
}

/** How an exchange ended. */
export type ExchangeEnd =
  /** Any HTTP answer, whatever its status. */
  | {
      readonly _tag: "Answer"
      readonly status: number
      readonly text: string
      readonly header: (name: string) => string | undefined
    }
  /** No answer: the connection failed, or the body could not be read. `reason` names the step. */
  | { readonly _tag: "Failed"; readonly reason: string; readonly cause: unknown }
  /** Aborted by the client (its timeout, or the caller was interrupted). */
  | { readonly _tag: "Aborted" }
  /** A defect of the transport itself (an HttpClient that died). */
  | { readonly _tag: "Died"; readonly cause: Cause.Cause<unknown> }

/** The fiber that sends a request, as `Effect.withFiberRuntime` hands it over. */
export type Caller = Parameters<Parameters<typeof Effect.withFiberRuntime>[0]>[0]

/**
 * Starts exchanges for one calling fiber. `start` sends `request` and calls `done` exactly once with its end, never
 * before it returns (a queued request started from another one's end must not nest inside it); it returns a function
 * that aborts the exchange (done then reports `Aborted`, at once or soon, unless it had already ended).
 */
export interface Starter {
  readonly start: (request: Outgoing, done: (end: ExchangeEnd) => void) => () => void
}

export interface Transport {
  readonly forCaller: (caller: Caller, status: FiberStatus.Running) => Starter
}

/**
 * `fetch` itself. `fetch` and `init` are the ones of the context the client is built in (FetchHttpClient's tags),
 * read once; the headers (init's, then the client's, then `content-type` for a body) are merged once per client.
 */
export const fetchTransport = (options: {
  readonly basePath: string
  readonly headers: Readonly<Record<string, string>>
  readonly fetch: typeof globalThis.fetch
  readonly init: RequestInit
}): Transport => {
  const { fetch: send, init } = options
  const initHeaders: Record<string, string> = {}
  new Headers(init.headers).forEach((value, key) => {
    initHeaders[key] = value
  })
  // Header names are case-insensitive: lower-cased here so that a later same-named header replaces an earlier one
  // (the RDX headers win over init's and the config's extra ones) instead of fetch joining both values.
  const bodiless: Record<string, string> = { ...initHeaders }
  for (const [key, value] of Object.entries(options.headers)) bodiless[key.toLowerCase()] = value
  const withBody = { ...bodiless, "content-type": "application/json" }
  const starter: Starter = {
    start: (request, done) => {
      const controller = new AbortController()
      const signal = controller.signal
      let ended = false
      const end = (value: ExchangeEnd) => {
        if (ended) return
        ended = true
        done(value)
      }
      const failed = (reason: string) => (cause: unknown) =>
        end(signal.aborted ? { _tag: "Aborted" } : { _tag: "Failed", reason, cause })
      // `fetch` is always asynchronous: nothing of the exchange runs before this function returns.
      let sent: Promise<Response>
      try {
        sent = send(options.basePath + request.path, {
          ...init,
          method: "POST",
          headers: request.body === undefined ? bodiless : withBody,
          ...(request.body === undefined ? {} : { body: request.body }),
          signal
        })
      } catch (cause) {
        // A fetch that throws instead of rejecting (a bad URL in some runtimes): reported after `start` returns.
        sent = Promise.reject(cause)
      }
      sent.then((response) => {
        if (ended) return
        response.text().then((text) => {
          const headers = response.headers
          end({ _tag: "Answer", status: response.status, text, header: (name) => headers.get(name) ?? undefined })
        }, failed("Decode"))
      }, failed("Transport"))
      // Aborting ends the exchange at once (a fetch that ignores its signal must not hold the request's slot).
      return () => {
        if (ended) return
        controller.abort()
        end({ _tag: "Aborted" })
      }
    }
  }
  return { forCaller: () => starter }
}

/** What one exchange's fiber returns: the answer and its body. */
interface FiberAnswer {
  readonly response: HttpClientResponse.HttpClientResponse
  readonly text: string
}

/** The HttpClient's `currentTracerDisabledWhen` this client sets: no span for any of its requests. */
export const everyRequest = () => true

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
