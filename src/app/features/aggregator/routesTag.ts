/**
 * The TradingRoutes service's tag and shape, apart from its implementation (TradingRoutes.ts): the app's runtime
 * holds the service from the start, but its code (Schemas, storage, validation) loads with the aggregator page
 * (runtime/layers.ts, lazyTradingRoutes). No runtime imports but Effect's.
 */
import type { KeyValueStore } from "@effect/platform"
import { Context, Effect } from "effect"
import type { Stream } from "effect"
import type { AppConfig } from "../../config/AppConfig"
import type { Toaster } from "../../services/Toaster"
import type { LastRouteBlocked, RouteDraft, RoutesNotSaved, RoutesState, TradingRoute } from "./routesModel"

/** What building the service needs: the browser's storage, the app's configuration and the Toaster. */
export type TradingRoutesNeeds = KeyValueStore.KeyValueStore | AppConfig | Toaster

export interface TradingRoutesShape {
  /** The routes and the selection, once loaded. */
  readonly state: Stream.Stream<RoutesState>
  readonly current: Effect.Effect<RoutesState>
  /** Selects a route, with the 2 s route-selection toast. */
  readonly select: (id: string) => Effect.Effect<void, RoutesNotSaved>
  /** Appends a custom route and selects it. */
  readonly add: (draft: RouteDraft) => Effect.Effect<TradingRoute, RoutesNotSaved>
  /** Replaces the route with the same id. */
  readonly update: (route: TradingRoute) => Effect.Effect<void, RoutesNotSaved>
  /** Removes a route unless it is the last. */
  readonly remove: (id: string) => Effect.Effect<void, RoutesNotSaved | LastRouteBlocked>
}

/** The favourite trading routes of the aggregator page (spec §2, §4, §5). */
export class TradingRoutes extends Context.Tag("hswap/TradingRoutes")<TradingRoutes, TradingRoutesShape>() {
  static readonly current: Effect.Effect<RoutesState, never, TradingRoutes> = Effect.flatMap(
    TradingRoutes,
    (r) => r.current
  )
  static readonly select = (id: string) => Effect.flatMap(TradingRoutes, (r) => r.select(id))
  static readonly add = (draft: RouteDraft) => Effect.flatMap(TradingRoutes, (r) => r.add(draft))
  static readonly update = (route: TradingRoute) => Effect.flatMap(TradingRoutes, (r) => r.update(route))
  static readonly remove = (id: string) => Effect.flatMap(TradingRoutes, (r) => r.remove(id))
}
