import { HttpClient, HttpClientError, HttpClientRequest, HttpClientResponse, KeyValueStore } from "@effect/platform"
import { createMemoryHistory, RouterProvider } from "@tanstack/react-router"
import { act, render, waitFor } from "@testing-library/react"
import { type Duration, Effect, Either, Layer, ManagedRuntime, Random, TestClock, TestContext } from "effect"
import { type ReactNode, StrictMode } from "react"
import { captureLogs, type LogLine } from "../support/logs"
import { decodeAppConfig, type AppConfigShape, type Env } from "../../src/app/config/AppConfig"
import { createAppRouter } from "../../src/app/router"
import type { AppServices } from "../../src/app/runtime/app-runtime"
import { LiveProvider, readyLiveResource } from "../../src/app/runtime/live-context"
import { loadLiveModule } from "../../src/app/shell/islands"
import { Celebration } from "../../src/app/features/exchange/machine/ports"
import { makeLedgerParts, makeServicesLayer, makeSwapLayer } from "../../src/app/runtime/layers"
import { TradingRoutesLive } from "../../src/app/features/aggregator/TradingRoutes"
import { Browser } from "../../src/app/services/Browser"
import { VisitStore } from "../../src/app/services/flags"
import { Crypto, Environment } from "../../src/toolkit/index"
import { apiHttpFromHttpClient } from "../../src/exchange/apiHttpClient"
import { lazyGateway } from "../../src/gateway/lazy"
import { type BalanceBadge, emptySession, type SessionState, WalletSession } from "../../src/app/services/WalletSession"

/** The config the tests run with: devnet defaults plus overrides. */
// The modules the lazy Gateway client imports on its first calls (the client, then its non-state endpoints), loaded
// once when a test file takes the harness: its tests advance a TestClock and count turns, and a first dynamic import
// on a loaded machine can take longer than they wait.
// Likewise the lazy dialogs' code (the validator dialog, which opens by itself 10 s after load, and the Radix panel
// every dialog loads on first open): otherwise whether a dialog has opened, and taken its place among the overlays, by
// a given TestClock time would depend on whether an earlier test in the file had already loaded it.
await Promise.all([
  import("../../src/gateway/platform"),
  import("../../src/gateway/endpointsOther"),
  import("../../src/app/shell/ValidatorDialog"),
  import("../../src/app/ui/DialogPanel")
])

export const testConfig = (env: Env = {}): AppConfigShape => {
  const decoded = decodeAppConfig(env)
  if (Either.isLeft(decoded)) throw new Error(decoded.left.message)
  return decoded.right
}

/**
 * A fake answer: a Response, undefined for 404, "network-error" for a request that fails without an answer, or
 * "hang" for one still waiting for its answer.
 */
export type FakeRoute = (
  request: HttpClientRequest.HttpClientRequest
) => Response | undefined | "network-error" | "hang"

/**
 * A synchronous fake HttpClient (synchronous so TestClock sees the fibers as suspended, see effect-style V2), and
 * the product API client's `ApiHttp` over it. Unrouted requests answer 404; every request is recorded.
 */
export const fakeHttp = (route: FakeRoute, seen: Array<string> = []) =>
  apiHttpFromHttpClient.pipe(Layer.provideMerge(fakeHttpClient(route, seen)))

const fakeHttpClient = (route: FakeRoute, seen: Array<string>) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) =>
      Effect.suspend(() => {
        seen.push(`${request.method} ${request.url}`)
        const answer = route(request)
        if (answer === "hang") return Effect.never
        return answer === "network-error"
          ? Effect.fail(
              new HttpClientError.RequestError({
                request,
                reason: "Transport",
                cause: new TypeError("Failed to fetch")
              })
            )
          : Effect.succeed(HttpClientResponse.fromWeb(request, answer ?? new Response("not found", { status: 404 })))
      })
    )
  )

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

export { captureLogs, type LogLine, messagesAt } from "../support/logs"

export interface Harness {
  readonly runtime: ManagedRuntime.ManagedRuntime<AppServices, never>
  /** What the app logged (see captureLogs). */
  readonly logs: ReadonlyArray<LogLine>
  readonly navigations: Array<string>
  readonly requests: Array<string>
  /** Moves the TestClock and lets React settle. */
  readonly advance: (d: Duration.DurationInput) => Promise<void>
  readonly run: <A, E>(effect: Effect.Effect<A, E, AppServices>) => Promise<A>
}

export interface HarnessOptions {
  readonly path?: string
  readonly route?: FakeRoute
  readonly session?: SessionState
  readonly balance?: BalanceBadge
  /** The selected account's token balances by resource address (none held when left out). */
  readonly balances?: Readonly<Record<string, string>>
  readonly storage?: Readonly<Record<string, string>>
  /** What sessionStorage holds at load (the VisitStore). */
  readonly visit?: Readonly<Record<string, string>>
  readonly env?: Env
  /** The values Effect's Random service hands out, in order (cycled); default: a seeded generator. */
  readonly random?: [number, ...Array<number>]
  /** false: the clipboard refuses every copy (a browser without one, or a denied permission). */
  readonly clipboard?: boolean
  /** The wallet toolkit module's loader (default: the real module); a slow network's never answers. */
  readonly toolkitLoad?: () => Promise<typeof import("../../src/toolkit/toolkit")>
}

/** Builds the app's services over fakes, on TestContext (TestClock, TestRandom). */
export const makeHarnessRuntime = (options: HarnessOptions = {}) => {
  const navigations: Array<string> = []
  const requests: Array<string> = []
  const logs: Array<LogLine> = []
  const config = testConfig(options.env)
  const storage = Layer.effect(
    KeyValueStore.KeyValueStore,
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      for (const [k, v] of Object.entries(options.storage ?? {})) yield* kv.set(k, v)
      return kv
    })
  ).pipe(Layer.provide(KeyValueStore.layerMemory), Layer.orDie)
  const visit = Layer.effect(
    VisitStore,
    Effect.gen(function* () {
      const kv = yield* VisitStore
      for (const [k, v] of Object.entries(options.visit ?? {})) yield* kv.set(k, v)
      return kv
    })
  ).pipe(Layer.provide(VisitStore.memory), Layer.orDie)
  const platform = Layer.mergeAll(
    fakeHttp(options.route ?? (() => undefined), requests),
    storage,
    visit,
    WalletSession.fromState(options.session ?? emptySession, options.balance ?? { _tag: "Hidden" }, options.balances),
    Browser.recording(navigations, { clipboard: options.clipboard ?? true }),
    TestContext.TestContext
  )
  const random = Layer.setRandom(options.random ? Random.fixed(options.random) : Random.make("hswap-tests"))
  // The real Gateway client and toolkit over the fake HTTP client, in a test browser environment (no extension).
  const ledger = makeLedgerParts(
    config,
    { environment: Environment.Test({ events: new EventTarget() }), crypto: Crypto.Test() },
    (gateway) => lazyGateway(gateway),
    options.toolkitLoad
  )
  const celebrations: Array<string> = []
  const celebration = Layer.succeed(Celebration, { celebrate: Effect.sync(() => void celebrations.push("celebrate")) })
  const runtime = ManagedRuntime.make(
    makeSwapLayer(celebration).pipe(
      // The trading routes built at once (the app builds them on first use, features/aggregator/lazyRoutes.ts, which
      // aggregator-routes.test.tsx covers): the page's specs read them one tick after the render.
      Layer.provideMerge(makeServicesLayer(config, TradingRoutesLive)),
      Layer.provideMerge(ledger),
      Layer.provideMerge(platform),
      Layer.provideMerge(random),
      Layer.provideMerge(captureLogs(logs))
    )
  )
  return { runtime, navigations, requests, logs, config, celebrations }
}

const settle = () =>
  act(async () => {
    await new Promise((r) => setTimeout(r, 0))
  })

const harnessOf = (
  runtime: Harness["runtime"],
  navigations: Array<string>,
  requests: Array<string>,
  logs: ReadonlyArray<LogLine>
): Harness => ({
  runtime,
  logs,
  navigations,
  requests,
  advance: async (d) => {
    await act(() => runtime.runPromise(TestClock.adjust(d)))
    await settle()
  },
  run: (effect) => runtime.runPromise(effect)
})

/** Renders the whole app (real route tree, memory history) at `path`. */
export const renderApp = async (options: HarnessOptions = {}) => {
  const { runtime, navigations, requests, logs, config } = makeHarnessRuntime(options)
  await runtime.runtime()
  // The shell's islands come from the live chunk; loaded before the first render, they resolve in one tick.
  await loadLiveModule()
  const router = createAppRouter(createMemoryHistory({ initialEntries: [options.path ?? "/"] }))
  // Rendered inside an awaited act: the islands' lazy components suspend for a tick on the first render.
  const view = await act(async () =>
    render(
      <StrictMode>
        <LiveProvider resource={readyLiveResource({ config, runtime })}>
          <RouterProvider router={router} />
        </LiveProvider>
      </StrictMode>
    )
  )
  await act(() => router.load())
  await settle()
  // A lazily loaded route module (the 404 page, say) is a real dynamic import, not clock-driven: on a busy machine it
  // can take longer than one tick, so wait (in real time) until the page has replaced its loading placeholder.
  await waitFor(
    () => {
      if (view.container.querySelector('[data-testid="page-loading"]') !== null) throw new Error("page still loading")
    },
    { timeout: 15_000 }
  )
  return { ...view, ...harnessOf(runtime, navigations, requests, logs), router }
}

/**
 * Renders `ui` (a component, not the route tree) inside the app's providers over the harness services: for pieces
 * of a page tested on their own.
 */
export const renderWithServices = async (ui: ReactNode, options: HarnessOptions = {}) => {
  const { runtime, navigations, requests, logs, config } = makeHarnessRuntime(options)
  await runtime.runtime()
  const view = render(
    <StrictMode>
      <LiveProvider resource={readyLiveResource({ config, runtime })}>{ui}</LiveProvider>
    </StrictMode>
  )
  await settle()
  return { ...view, ...harnessOf(runtime, navigations, requests, logs), config }
}
