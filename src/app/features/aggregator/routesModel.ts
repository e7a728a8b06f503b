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

/**
 * Spec §5: image URL fields are URL-typed. A value is accepted when it is empty (the field is optional), an
 * http(s) URL, an inline image (`data:image/…`), or a path on this site (`/tokens/xrd.svg`, as the defaults use).
 */
export const isValidImageUrl = (value: string): boolean => {
  const v = value.trim()
  if (v === "") return true
  if (/^\/(?![/\\])\S*$/.test(v)) return true
  try {
    const url = new URL(v)
    if (url.protocol === "http:" || url.protocol === "https:") return url.host !== ""
    return url.protocol === "data:" && /^data:image\//i.test(v)
  } catch {
    return false
  }
}

/**
 * Text a user typed (or a stored route holds), shown without Unicode's directional controls (U+202A–U+202E,
 * U+2066–U+2069, the marks U+200E, U+200F and U+061C): an override inside a name would show it reversed, so that
 * "etuoR" reads as "Route". Letters of right-to-left scripts keep their own direction.
 */
export const withoutBidiControls = (text: string): string =>
  text.replace(/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, "")

/** How a route is named on screen: its name, or "sell → buy" when it has none. */
export const routeLabel = (route: TradingRoute) =>
  withoutBidiControls(route.name === "" ? `${route.sellToken.name} → ${route.buyToken.name}` : route.name)
