import { Error as PlatformError, KeyValueStore } from "@effect/platform"
import { it } from "@effect/vitest"
import { Effect, Either, Layer, Option, Queue, Stream, TestClock } from "effect"
import { describe, expect } from "vitest"
import { AppConfig } from "../../src/app/config/AppConfig"
import {
  BUY_IMAGE_MESSAGE,
  defaultRoutes,
  isValidImageUrl,
  type RouteDraft,
  type RoutesState,
  SELECTED_ROUTE_KEY,
  SELL_IMAGE_MESSAGE,
  TRADING_ROUTES_KEY,
  type TradingRoute,
  TradingRoutes,
  TradingRoutesLive,
  validateDraft
} from "../../src/app/features/aggregator/TradingRoutes"
import { loadTradingRoutesModule, makeLazyTradingRoutes } from "../../src/app/features/aggregator/lazyRoutes"
import { Toaster } from "../../src/app/services/Toaster"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { testConfig } from "./harness"

const R = DevnetAddresses.resources

/** The service over the memory KeyValueStore, pre-filled with `storage`. */
const layer = (
  storage: Readonly<Record<string, string>> = {},
  store = KeyValueStore.layerMemory,
  service: Layer.Layer<TradingRoutes, never, KeyValueStore.KeyValueStore | AppConfig | Toaster> = TradingRoutesLive
) => {
  const kv = Layer.effect(
    KeyValueStore.KeyValueStore,
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      for (const [k, v] of Object.entries(storage)) yield* kv.set(k, v)
      return kv
    })
  ).pipe(Layer.provide(store), Layer.orDie)
  return service.pipe(Layer.provideMerge(Layer.mergeAll(AppConfig.layer(testConfig()), Toaster.Default, kv)))
}

/** A store that reads from memory but refuses every write (a full or blocked localStorage). */
const readOnlyStore = Layer.effect(
  KeyValueStore.KeyValueStore,
  Effect.map(KeyValueStore.KeyValueStore, (kv) =>
    KeyValueStore.make({
      get: kv.get,
      getUint8Array: kv.getUint8Array,
      remove: kv.remove,
      clear: kv.clear,
      size: kv.size,
      set: () =>
        Effect.fail(
          new PlatformError.SystemError({ module: "KeyValueStore", method: "set", reason: "PermissionDenied" })
        )
    })
  )
).pipe(Layer.provide(KeyValueStore.layerMemory))

const read = (key: string) => Effect.flatMap(KeyValueStore.KeyValueStore, (kv) => kv.get(key))
const readRoutes = Effect.map(read(TRADING_ROUTES_KEY), (o) =>
  Option.map(o, (raw) => JSON.parse(raw) as ReadonlyArray<TradingRoute>)
)

const draft = (name: string, sell: string = R.hETH, buy: string = R.hUSDC): RouteDraft => ({
  name,
  sellToken: { name: "S", image: "https://img.example/s.png", address: sell },
  buyToken: { name: "B", image: "", address: buy }
})
const route = (id: string, name: string): TradingRoute => ({ id, ...draft(name) })

const DEFAULT_IDS = ["default-xrd-husdc", "default-husdc-hwbtc", "default-husdc-heth", "default-husdc-lsulp"]

describe("defaultRoutes", () => {
  it("are XRD→hUSDC, hUSDC→hWBTC, hUSDC→hETH, hUSDC→LSULP with the network's resource addresses", () => {
    const routes = defaultRoutes(testConfig().tokenResources)
    expect(routes.map((r) => r.id)).toEqual(DEFAULT_IDS)
    expect(routes.map((r) => [r.sellToken.address, r.buyToken.address])).toEqual([
      [R.XRD, R.hUSDC],
      [R.hUSDC, R.hWBTC],
      [R.hUSDC, R.hETH],
      [R.hUSDC, R.LSULP]
    ])
    expect(routes[0]?.sellToken).toEqual({ name: "XRD", image: "/tokens/xrd.svg", address: R.XRD })
  })

  it("leave out a pair whose resource the network does not know", () => {
    expect(defaultRoutes({ XRD: R.XRD, hUSDC: R.hUSDC, hETH: R.hETH }).map((r) => r.id)).toEqual([
      "default-xrd-husdc",
      "default-husdc-heth"
    ])
  })
})

describe("image URL validation", () => {
  it("accepts empty, http(s), inline images and site paths; rejects everything else", () => {
    for (const ok of [
      "",
      "  ",
      "https://a.example/x.png",
      "http://a.example/x",
      "data:image/svg+xml,%3Csvg%3E",
      "/tokens/xrd.svg"
    ])
      expect(isValidImageUrl(ok), ok).toBe(true)
    for (const bad of [
      "not a url",
      "x.png",
      "javascript:alert(1)",
      "data:text/html,<b>",
      "//evil.example/x",
      "ftp://a/x",
      "https://"
    ])
      expect(isValidImageUrl(bad), bad).toBe(false)
  })

  it("validateDraft gives the spec's messages per field and trims a valid draft", () => {
    const bad = validateDraft({
      name: "x",
      sellToken: { name: "", image: "nope", address: "" },
      buyToken: { name: "", image: "nope", address: "" }
    })
    expect(bad).toEqual(Either.left({ sellImage: SELL_IMAGE_MESSAGE, buyImage: BUY_IMAGE_MESSAGE }))
    expect(SELL_IMAGE_MESSAGE).toBe("Please enter a valid URL for the sell token image")
    expect(BUY_IMAGE_MESSAGE).toBe("Please enter a valid URL for the buy token image")
    const onlyBuy = validateDraft({ ...draft("x"), buyToken: { name: "", image: "nope", address: "" } })
    expect(onlyBuy).toEqual(Either.left({ buyImage: BUY_IMAGE_MESSAGE }))
    expect(
      validateDraft({ ...draft(" My route "), sellToken: { name: " A ", image: " /a.svg ", address: " r " } })
    ).toEqual(Either.right({ ...draft("My route"), sellToken: { name: "A", image: "/a.svg", address: "r" } }))
  })
})

describe("TradingRoutes", () => {
  it.effect("loads lazily: nothing is read or shown until the page asks", () =>
    Effect.gen(function* () {
      yield* TradingRoutes
      expect(yield* Toaster.current).toEqual([])
      const state = yield* TradingRoutes.current
      expect(state.routes.map((r) => r.id)).toEqual(DEFAULT_IDS)
      expect(state.selectedId).toBe("default-xrd-husdc")
      // Defaults are not written until something changes.
      expect(yield* read(TRADING_ROUTES_KEY)).toEqual(Option.none())
    }).pipe(Effect.provide(layer()))
  )

  it.effect("decodes stored routes and the stored selection", () =>
    Effect.gen(function* () {
      const state = yield* TradingRoutes.current
      expect(state.routes.map((r) => r.name)).toEqual(["A", "B"])
      expect(state.selectedId).toBe("custom-b")
    }).pipe(
      Effect.provide(
        layer({
          [TRADING_ROUTES_KEY]: JSON.stringify([route("custom-a", "A"), { ...route("custom-b", "B"), extra: 1 }]),
          [SELECTED_ROUTE_KEY]: "custom-b"
        })
      )
    )
  )

  it.effect("corrupt JSON: the defaults, stored again, and one destructive toast", () =>
    Effect.gen(function* () {
      const state = yield* TradingRoutes.current
      expect(state.routes.map((r) => r.id)).toEqual(DEFAULT_IDS)
      yield* TradingRoutes.current
      const toasts = yield* Toaster.current
      expect(toasts.map((t) => [t.title, t.variant])).toEqual([["Saved routes could not be read", "destructive"]])
      expect(Option.map(yield* readRoutes, (rs) => rs.map((r) => r.id))).toEqual(Option.some(DEFAULT_IDS))
      expect(yield* read(SELECTED_ROUTE_KEY)).toEqual(Option.none())
    }).pipe(Effect.provide(layer({ [TRADING_ROUTES_KEY]: "[{", [SELECTED_ROUTE_KEY]: "custom-x" })))
  )

  it.effect("the state stream starts with the loaded routes and follows changes", () =>
    Effect.gen(function* () {
      const routes = yield* TradingRoutes
      const seen = yield* Queue.unbounded<RoutesState>()
      yield* routes.state.pipe(
        Stream.runForEach((state) => Queue.offer(seen, state)),
        Effect.fork
      )
      expect((yield* Queue.take(seen)).selectedId).toBe("default-xrd-husdc")
      yield* TradingRoutes.select("default-husdc-heth")
      expect((yield* Queue.take(seen)).selectedId).toBe("default-husdc-heth")
    }).pipe(Effect.provide(layer()))
  )

  it.effect("select: stores the selection and shows the 2 s route toast; unknown ids change nothing", () =>
    Effect.gen(function* () {
      yield* TradingRoutes.select("nope")
      expect((yield* TradingRoutes.current).selectedId).toBe("default-xrd-husdc")
      expect(yield* Toaster.current).toEqual([])
      yield* TradingRoutes.select("default-husdc-lsulp")
      expect((yield* TradingRoutes.current).selectedId).toBe("default-husdc-lsulp")
      expect(yield* read(SELECTED_ROUTE_KEY)).toEqual(Option.some("default-husdc-lsulp"))
      const [toast] = yield* Toaster.current
      expect([toast?.title, toast?.description, toast?.durationMillis]).toEqual([
        "Route Selected",
        "hUSDC → LSULP",
        2000
      ])
      yield* TestClock.adjust("2 seconds")
      expect((yield* Toaster.current)[0]?.open).toBe(false)
    }).pipe(Effect.provide(layer()))
  )

  it.effect("the route toast escapes a route name", () =>
    Effect.gen(function* () {
      yield* TradingRoutes.select("custom-x")
      expect((yield* Toaster.current)[0]?.description).toBe("&lt;img src=x onerror=alert(1)&gt;")
    }).pipe(
      Effect.provide(
        layer({ [TRADING_ROUTES_KEY]: JSON.stringify([route("custom-x", "<img src=x onerror=alert(1)>")]) })
      )
    )
  )

  it.effect("add: a custom- id from the Clock, appended, selected and stored", () =>
    Effect.gen(function* () {
      yield* TestClock.adjust("1000 millis")
      const a = yield* TradingRoutes.add(draft("One"))
      const b = yield* TradingRoutes.add(draft("Two"))
      expect(a.id).toMatch(/^custom-rs-[0-9a-z]{4}$/)
      expect(b.id).not.toBe(a.id)
      const state = yield* TradingRoutes.current
      expect(state.routes.map((r) => r.name)).toEqual([
        "XRD → hUSDC",
        "hUSDC → hWBTC",
        "hUSDC → hETH",
        "hUSDC → LSULP",
        "One",
        "Two"
      ])
      expect(state.selectedId).toBe(b.id)
      expect(Option.map(yield* readRoutes, (rs) => rs.at(-1))).toEqual(Option.some(b))
      expect(yield* read(SELECTED_ROUTE_KEY)).toEqual(Option.some(b.id))
    }).pipe(Effect.provide(layer()))
  )

  it.effect("update replaces the route with the same id, in place", () =>
    Effect.gen(function* () {
      yield* TradingRoutes.update(route("custom-b", "Bee"))
      const state = yield* TradingRoutes.current
      expect(state.routes.map((r) => r.name)).toEqual(["A", "Bee", "C"])
      expect(state.selectedId).toBe("custom-a")
      expect(Option.map(yield* readRoutes, (rs) => rs.map((r) => r.name))).toEqual(Option.some(["A", "Bee", "C"]))
    }).pipe(
      Effect.provide(
        layer({
          [TRADING_ROUTES_KEY]: JSON.stringify([route("custom-a", "A"), route("custom-b", "B"), route("custom-c", "C")])
        })
      )
    )
  )

  it.effect("remove: the selection falls back to the first route left; the last route stays", () =>
    Effect.gen(function* () {
      yield* TradingRoutes.select("custom-b")
      yield* TradingRoutes.remove("custom-a")
      expect((yield* TradingRoutes.current).selectedId).toBe("custom-b")
      yield* TradingRoutes.remove("custom-b")
      expect(yield* TradingRoutes.current).toMatchObject({ selectedId: "custom-c" })
      yield* TradingRoutes.remove("unknown")
      const blocked = yield* Effect.either(TradingRoutes.remove("custom-c"))
      expect(Either.isLeft(blocked) && blocked.left._tag).toBe("LastRouteBlocked")
      const state = yield* TradingRoutes.current
      expect(state.routes.map((r) => r.id)).toEqual(["custom-c"])
      expect(Option.map(yield* readRoutes, (rs) => rs.map((r) => r.id))).toEqual(Option.some(["custom-c"]))
    }).pipe(
      Effect.provide(
        layer({
          [TRADING_ROUTES_KEY]: JSON.stringify([route("custom-a", "A"), route("custom-b", "B"), route("custom-c", "C")])
        })
      )
    )
  )

  it.effect("a store that refuses writes gives RoutesNotSaved; the change holds in memory", () =>
    Effect.gen(function* () {
      const added = yield* Effect.either(TradingRoutes.add(draft("X")))
      expect(Either.isLeft(added) && added.left._tag).toBe("RoutesNotSaved")
      expect((yield* TradingRoutes.current).routes.map((r) => r.name)).toContain("X")
    }).pipe(Effect.provide(layer({}, readOnlyStore)))
  )
})

describe("TradingRoutes, loaded on first use (the app's runtime)", () => {
  const counted = () => {
    let loads = 0
    const service = Layer.effect(
      TradingRoutes,
      makeLazyTradingRoutes(() => {
        loads++
        return loadTradingRoutesModule()
      })
    )
    return { service, loads: () => loads }
  }

  it.effect("loads the implementation once, on the first call, and then behaves as the service", () => {
    const { service, loads } = counted()
    return Effect.gen(function* () {
      const routes = yield* TradingRoutes
      expect(loads()).toBe(0)
      const [a, b] = yield* Effect.all([routes.current, routes.current], { concurrency: "unbounded" })
      expect(loads()).toBe(1)
      expect(a.routes.map((r) => r.id)).toEqual(DEFAULT_IDS)
      expect(b).toEqual(a)
      yield* TradingRoutes.select("default-husdc-heth")
      expect((yield* TradingRoutes.current).selectedId).toBe("default-husdc-heth")
      expect((yield* Toaster.current).map((t) => t.title)).toEqual(["Route Selected"])
      const removed = yield* Effect.either(
        Effect.forEach(DEFAULT_IDS, (id) => TradingRoutes.remove(id), { discard: true })
      )
      expect(Either.isLeft(removed) && removed.left._tag).toBe("LastRouteBlocked")
      expect(loads()).toBe(1)
    }).pipe(Effect.provide(layer({}, KeyValueStore.layerMemory, service)))
  })

  it.effect("its state stream is the service's: the stored routes, then each change", () => {
    const { service } = counted()
    return Effect.gen(function* () {
      const seen = yield* Queue.unbounded<ReadonlyArray<string>>()
      yield* Effect.forkScoped(
        Stream.runForEach(Stream.unwrap(Effect.map(TradingRoutes, (r) => r.state)), (s: RoutesState) =>
          Queue.offer(
            seen,
            s.routes.map((r) => r.name)
          )
        )
      )
      expect(yield* Queue.take(seen)).toEqual(["A"])
      yield* TradingRoutes.add(draft("B"))
      expect(yield* Queue.take(seen)).toEqual(["A", "B"])
    }).pipe(
      Effect.scoped,
      Effect.provide(
        layer({ [TRADING_ROUTES_KEY]: JSON.stringify([route("custom-a", "A")]) }, KeyValueStore.layerMemory, service)
      )
    )
  })
})
