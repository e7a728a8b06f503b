/**
 * The favourite routes' data and errors, apart from their service so that its tag (routesTag.ts) can name them
 * without importing the implementation.
 */
import { Data, Schema } from "effect"

export const RouteToken = Schema.Struct({
  name: Schema.String,
  image: Schema.String,
  address: Schema.String
})
export type RouteToken = typeof RouteToken.Type

export const TradingRoute = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1)),
  name: Schema.String,
  sellToken: RouteToken,
  buyToken: RouteToken
})
export type TradingRoute = typeof TradingRoute.Type

export interface RoutesState {
  readonly routes: ReadonlyArray<TradingRoute>
  readonly selectedId: string | undefined
}

/** A route as the Add/Edit dialog produces it (no id yet for a new one). */
export type RouteDraft = Omit<TradingRoute, "id">

/** The routes could not be written to the browser; the change holds until the page is reloaded. */
export class RoutesNotSaved extends Data.TaggedError("RoutesNotSaved")<{ readonly cause: unknown }> {}

/** Delete refused: spec §4, at least one route must remain. */
export class LastRouteBlocked extends Data.TaggedError("LastRouteBlocked")<{ readonly id: string }> {}
