/**
 * The TradingRoutes service for the app's runtime, with its implementation (TradingRoutes.ts) loaded on first use.
 * Only the aggregator page uses the routes, and its chunk holds the implementation, so a first visit of `/` does not
 * fetch it. The service is built once, on the first call; calls that arrive meanwhile wait for it.
 */
import { Effect, Layer, Stream } from "effect"
import { TradingRoutes, type TradingRoutesNeeds, type TradingRoutesShape } from "./routesTag"

/** The implementation's module, by dynamic import (tests pass their own loader). */
export const loadTradingRoutesModule = () => import("./TradingRoutes")

export const makeLazyTradingRoutes = (
  load: () => Promise<{
    readonly makeTradingRoutes: Effect.Effect<TradingRoutesShape, never, TradingRoutesNeeds>
  }> = loadTradingRoutesModule
): Effect.Effect<TradingRoutesShape, never, TradingRoutesNeeds> =>
  Effect.gen(function* () {
    const context = yield* Effect.context<TradingRoutesNeeds>()
    // A module that cannot load is a defect, logged by the caller's fiber (the aggregator page's own chunk holds the
    // module, so it has loaded by the time the page asks; a browser keeps a failed module import failed until reload).
    const real = yield* Effect.cached(
      Effect.promise(load).pipe(
        Effect.flatMap((m) => m.makeTradingRoutes),
        Effect.provide(context)
      )
    )
    return {
      state: Stream.unwrap(Effect.map(real, (r) => r.state)),
      current: Effect.flatMap(real, (r) => r.current),
      select: (id) => Effect.flatMap(real, (r) => r.select(id)),
      add: (draft) => Effect.flatMap(real, (r) => r.add(draft)),
      update: (route) => Effect.flatMap(real, (r) => r.update(route)),
      remove: (id) => Effect.flatMap(real, (r) => r.remove(id))
    }
  })

export const lazyTradingRoutes = Layer.effect(TradingRoutes, makeLazyTradingRoutes())
