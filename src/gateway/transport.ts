/**
 * How the client's requests reach the Gateway: one exchange (a POST, its status and its body as text) at a time, with
 * a callback when it ends and a function that aborts it. `http.ts` owns everything else (the limiter, retries,
 * timeouts, decoding), so both transports behave alike above this line.
 *
 * - {@link fetchTransport}: `fetch` itself, with no fiber per request. The default of `Gateway.layerFetch` and the
 *   cheapest per request (about a fifth to a third of the client's CPU went to `FetchHttpClient`'s fibers,
 *   scopes and FiberRef reads). `Gateway.layerFetch` (`platform.ts`) gives it the `FetchHttpClient.Fetch` and
 *   `FetchHttpClient.RequestInit` of the context the client is built in, as `FetchHttpClient` does per request; the
 *   app's client (`makeGatewayWithFetch`) gives it `globalThis.fetch`.
 * - `httpClientTransport` (`httpClientTransport.ts`): any `@effect/platform` `HttpClient` (middleware, a test
 *   double), one fiber per exchange started with the caller's context and FiberRefs. What `Gateway.layer` uses.
 *
 * This module imports nothing of `@effect/platform`, so a client over `fetch` (the app's) does not load it.
 */
import type { Cause, Effect, FiberStatus } from "effect"

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
  /**
   * What a paging helper's whole run goes through, once (an HttpClient's per-request spans turned off for all of its
   * requests at once); absent when the transport has nothing to set.
   */
  readonly around?: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
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
