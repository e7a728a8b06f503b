import { KeyValueStore } from "@effect/platform"
import { Clock, Duration, Effect, Either, Layer, Option, Random, Schema, Stream, SubscriptionRef } from "effect"
import { AppConfig } from "../../config/AppConfig"
import { Toaster } from "../../services/Toaster"
import { escapeHtml } from "../../ui/escape"
import {
  isValidImageUrl,
  LastRouteBlocked,
  routeLabel,
  RoutesNotSaved,
  TradingRoute,
  type RouteDraft,
  type RoutesState,
  type RouteToken
} from "./routesModel"
import { TradingRoutes, type TradingRoutesNeeds, type TradingRoutesShape } from "./routesTag"

export { TradingRoutes, type TradingRoutesShape } from "./routesTag"
export {
  isValidImageUrl,
  LastRouteBlocked,
  RouteToken,
  RoutesNotSaved,
  TradingRoute,
  type RouteDraft,
  type RoutesState
} from "./routesModel"

/** Spec §2/§4: the favourite routes live in the browser under 'tradingRoutes'. */
export const TRADING_ROUTES_KEY = "tradingRoutes"
/** Which route is selected, so a route added just before the reload is still selected after it. */
export const SELECTED_ROUTE_KEY = "tradingRoutes.selected"
/** Spec §9: the route-selection toast lasts 2 s. */
export const ROUTE_SELECTION_TOAST = Duration.seconds(2)
/** Spec §3: custom routes have an id starting with 'custom-'. */
export const CUSTOM_ID_PREFIX = "custom-"

/** What the browser holds under 'tradingRoutes': a JSON array of at least one route, ids unique. */
export const StoredRoutes = Schema.parseJson(
  Schema.NonEmptyArray(TradingRoute).pipe(
    Schema.filter((routes) => new Set(routes.map((r) => r.id)).size === routes.length, {
      message: () => "route ids must be unique"
    })
  )
)

const SelectedId = Schema.String.pipe(Schema.minLength(1))

/** The selected route, or the first one when the selection is unknown. */
export const selectedRoute = (state: RoutesState): TradingRoute | undefined =>
  state.routes.find((r) => r.id === state.selectedId) ?? state.routes[0]

/** Default routes (spec §2): XRD→hUSDC, hUSDC→hWBTC, hUSDC→hETH, hUSDC→LSULP; images are same-origin assets. */
const DEFAULT_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["XRD", "hUSDC"],
  ["hUSDC", "hWBTC"],
  ["hUSDC", "hETH"],
  ["hUSDC", "LSULP"]
]

export const tokenImage = (symbol: string) => `/tokens/${symbol.toLowerCase()}.svg`

/** The defaults on this network; a pair whose resources the network does not know is left out. */
export const defaultRoutes = (tokenResources: Readonly<Record<string, string>>): ReadonlyArray<TradingRoute> =>
  DEFAULT_PAIRS.flatMap(([sell, buy]) => {
    const sellAddress = tokenResources[sell]
    const buyAddress = tokenResources[buy]
    if (sellAddress === undefined || buyAddress === undefined) return []
    return [
      {
        id: `default-${sell.toLowerCase()}-${buy.toLowerCase()}`,
        name: `${sell} → ${buy}`,
        sellToken: { name: sell, image: tokenImage(sell), address: sellAddress },
        buyToken: { name: buy, image: tokenImage(buy), address: buyAddress }
      }
    ]
  })

export const SELL_IMAGE_MESSAGE = "Please enter a valid URL for the sell token image"
export const BUY_IMAGE_MESSAGE = "Please enter a valid URL for the buy token image"

export interface DraftErrors {
  readonly sellImage?: string
  readonly buyImage?: string
}

/** Spec §5: the only route-saving checks are the two image URLs. Values are trimmed. */
export const validateDraft = (draft: RouteDraft): Either.Either<RouteDraft, DraftErrors> => {
  const trimToken = (t: RouteToken): RouteToken => ({
    name: t.name.trim(),
    image: t.image.trim(),
    address: t.address.trim()
  })
  const clean: RouteDraft = {
    name: draft.name.trim(),
    sellToken: trimToken(draft.sellToken),
    buyToken: trimToken(draft.buyToken)
  }
  const errors: DraftErrors = {
    ...(isValidImageUrl(clean.sellToken.image) ? {} : { sellImage: SELL_IMAGE_MESSAGE }),
    ...(isValidImageUrl(clean.buyToken.image) ? {} : { buyImage: BUY_IMAGE_MESSAGE })
  }
  return Object.keys(errors).length === 0 ? Either.right(clean) : Either.left(errors)
}

/** Shown when the browser refuses to store the routes. */
export const notSavedToast = Toaster.show({
  title: "Routes not saved",
  description: "Your browser did not store the routes; the change is lost when the page reloads.",
  variant: "destructive"
})

export const CORRUPT_ROUTES_TOAST = {
  title: "Saved routes could not be read",
  description: "Your favourite routes were reset to the default routes."
} as const

/**
 * The favourite trading routes of the aggregator page (spec §2, §4, §5): a SubscriptionRef loaded lazily from the
 * KeyValueStore (localStorage in the browser) the first time the page asks, decoded with Schema. Nothing stored
 * gives the defaults; anything that does not decode gives the defaults, stores them, and tells the user.
 */
export const makeTradingRoutes: Effect.Effect<TradingRoutesShape, never, TradingRoutesNeeds> = Effect.gen(function* () {
  const kv = yield* KeyValueStore.KeyValueStore
  const config = yield* AppConfig
  const toaster = yield* Toaster
  const defaults = defaultRoutes(config.tokenResources)
  const ref = yield* SubscriptionRef.make<RoutesState>({ routes: defaults, selectedId: defaults[0]?.id })

  const persist = (state: RoutesState) =>
    Effect.gen(function* () {
      yield* kv.set(TRADING_ROUTES_KEY, JSON.stringify(state.routes))
      if (state.selectedId !== undefined) yield* kv.set(SELECTED_ROUTE_KEY, state.selectedId)
      else yield* kv.remove(SELECTED_ROUTE_KEY)
    }).pipe(Effect.mapError((cause) => new RoutesNotSaved({ cause })))

  const readKey = (key: string) =>
    kv
      .get(key)
      .pipe(
        Effect.catchAll((e) => Effect.logWarning(`could not read ${key}`, e).pipe(Effect.as(Option.none<string>())))
      )

  const initialise = Effect.gen(function* () {
    const raw = yield* readKey(TRADING_ROUTES_KEY)
    const storedSelection = Option.flatMap(yield* readKey(SELECTED_ROUTE_KEY), Schema.decodeOption(SelectedId))
    let routes: ReadonlyArray<TradingRoute> = defaults
    if (Option.isSome(raw)) {
      const decoded = Schema.decodeEither(StoredRoutes)(raw.value)
      if (Either.isRight(decoded)) routes = decoded.right
      else {
        yield* Effect.logWarning("stored trading routes are invalid; using the defaults", decoded.left.message)
        yield* toaster.show({ ...CORRUPT_ROUTES_TOAST, variant: "destructive" })
        yield* persist({ routes, selectedId: undefined }).pipe(
          Effect.catchAll((e) => Effect.logWarning("could not store the default routes", e.cause))
        )
      }
    }
    const wanted = Option.getOrUndefined(storedSelection)
    const selectedId = routes.some((r) => r.id === wanted) ? wanted : routes[0]?.id
    yield* SubscriptionRef.set(ref, { routes, selectedId })
  }).pipe(Effect.withSpan("TradingRoutes.load"))

  /** Reads the browser once, the first time anybody asks. */
  const load = yield* Effect.cached(initialise)

  /** Applies `f` to the loaded state and stores the result. */
  const change = (f: (s: RoutesState) => RoutesState) =>
    Effect.gen(function* () {
      yield* load
      const next = yield* SubscriptionRef.updateAndGet(ref, f)
      yield* persist(next)
      return next
    })

  const newId = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const salt = yield* Random.nextIntBetween(0, 36 ** 4)
    return `${CUSTOM_ID_PREFIX}${now.toString(36)}-${salt.toString(36).padStart(4, "0")}`
  })

  /** Clicking a route selects it, with the 2 s route-selection toast. */
  const select = Effect.fn("TradingRoutes.select")(function* (id: string) {
    yield* load
    const route = (yield* SubscriptionRef.get(ref)).routes.find((r) => r.id === id)
    if (route === undefined) return
    yield* change((s) => ({ ...s, selectedId: id }))
    yield* toaster.show({
      title: "Route Selected",
      description: escapeHtml(routeLabel(route)),
      duration: ROUTE_SELECTION_TOAST
    })
  })

  /** Appends a custom route and selects it (the caller closes the dialog and reloads). */
  const add = Effect.fn("TradingRoutes.add")(function* (draft: RouteDraft) {
    const route: TradingRoute = { id: yield* newId, ...draft }
    yield* change((s) => ({ routes: [...s.routes, route], selectedId: route.id }))
    return route
  })

  /** Saving an edit replaces the route with the same id. */
  const update = Effect.fn("TradingRoutes.update")(function* (route: TradingRoute) {
    yield* change((s) => ({ ...s, routes: s.routes.map((r) => (r.id === route.id ? route : r)) }))
  })

  /** Removes a route unless it is the last; removing the selected one selects the first remaining route. */
  const remove = Effect.fn("TradingRoutes.remove")(function* (id: string) {
    yield* load
    const before = yield* SubscriptionRef.get(ref)
    if (!before.routes.some((r) => r.id === id)) return
    if (before.routes.length <= 1) return yield* new LastRouteBlocked({ id })
    yield* change((s) => {
      const routes = s.routes.filter((r) => r.id !== id)
      return { routes, selectedId: s.selectedId === id ? routes[0]?.id : s.selectedId }
    })
  })

  return {
    /** The routes and the selection, once loaded. */
    state: Stream.unwrap(Effect.as(load, ref.changes)),
    current: Effect.zipRight(load, SubscriptionRef.get(ref)),
    select,
    add,
    update,
    remove
  }
})

/** The service over the KeyValueStore, the app's configuration and the Toaster. */
export const TradingRoutesLive = Layer.effect(TradingRoutes, makeTradingRoutes)
