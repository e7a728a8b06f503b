/**
 * The exchange API `{api}/api/*` (spec app §7) as the server's `HttpApi` (implemented with `HttpApiBuilder` in
 * src/server/routes.ts), built from the route table in endpoints.ts that the app's client reads too: one definition,
 * and the client's first screen does not carry `HttpApi`.
 *
 * Every error body is JSON `{ error, message }` (the same text twice, for either reader), except the bridge price's
 * `{ message }`; each status has its own error class, so a handler fails with the class and the builder encodes it
 * with its status.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema } from "@effect/platform"
import { Data, Schema } from "effect"
import { ADMIN_GROUP_PREFIX, API_PREFIX, Endpoints, MaintenanceToggle } from "./endpoints"

/** The body of an error answer. */
export interface ErrorBody {
  readonly error: string
  readonly message: string
}

/** `{ error, message }` with the same text. */
export const errorBody = (message: string): ErrorBody => ({ error: message, message })

const ErrorBodySchema = Schema.Struct({ error: Schema.String, message: Schema.String })

/**
 * The schema of an error class: the class's instances (and nothing else: the classes share one shape, so a structural
 * match would take one for another) to and from `{ error, message }`, answered with `status`.
 */
const errorSchema = <E extends ErrorBody>(Class: new (body: ErrorBody) => E, status: number) =>
  Schema.transform(ErrorBodySchema, Schema.instanceOf(Class), {
    strict: true,
    decode: (body) => new Class(body),
    encode: (e) => ({ error: e.error, message: e.message })
  }).annotations(HttpApiSchema.annotations({ status }))

/** 400: a malformed address, hash or body. */
export class BadRequest extends Data.TaggedError("BadRequest")<ErrorBody> {
  static readonly schema = errorSchema(BadRequest, 400)
}
/** 403: the admin route from a peer that is not loopback. */
export class Forbidden extends Data.TaggedError("Forbidden")<ErrorBody> {
  static readonly schema = errorSchema(Forbidden, 403)
}
/** 404: no such path, resource or transaction. */
export class NotFound extends Data.TaggedError("NotFound")<ErrorBody> {
  static readonly schema = errorSchema(NotFound, 404)
}
/** 405: the path exists for another method (the answer names it in `allow`). */
export class MethodNotAllowed extends Data.TaggedError("MethodNotAllowed")<ErrorBody> {
  static readonly schema = errorSchema(MethodNotAllowed, 405)
}
/** 409: the exchange is in maintenance (price, health, swap and transactions). */
export class InMaintenance extends Data.TaggedError("InMaintenance")<ErrorBody> {
  static readonly schema = errorSchema(InMaintenance, 409)
}
/** 413: a body larger than the server reads. */
export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<ErrorBody> {
  static readonly schema = errorSchema(PayloadTooLarge, 413)
}
/** 415: a body not declared as `application/json`. */
export class UnsupportedMediaType extends Data.TaggedError("UnsupportedMediaType")<ErrorBody> {
  static readonly schema = errorSchema(UnsupportedMediaType, 415)
}
/** 422: a transaction that is not an accepted swap deposit. */
export class Unprocessable extends Data.TaggedError("Unprocessable")<ErrorBody> {
  static readonly schema = errorSchema(Unprocessable, 422)
}
/**
 * 422 of `POST /api/atomic-swap`: a pre-authorisation the exchange will not submit (nothing was submitted, nothing
 * moved). `reason` is a stable code (`wrong_withdrawal`, `quote_used`, …; src/server/atomic/check.ts), `message` the
 * user's words.
 */
export class AtomicRefused extends Data.TaggedError("AtomicRefused")<ErrorBody & { readonly reason: string }> {
  static readonly schema = Schema.transform(
    Schema.Struct({ error: Schema.String, message: Schema.String, reason: Schema.String }),
    Schema.instanceOf(AtomicRefused),
    {
      strict: true,
      decode: (body) => new AtomicRefused(body),
      encode: (e) => ({ error: e.error, message: e.message, reason: e.reason })
    }
  ).annotations(HttpApiSchema.annotations({ status: 422 }))
}
/** 429: too many requests from this client (the answer says when to retry in `retry-after`). */
export class RateLimited extends Data.TaggedError("RateLimited")<ErrorBody> {
  static readonly schema = errorSchema(RateLimited, 429)
}
/** 500: a defect, logged by the server. */
export class InternalError extends Data.TaggedError("InternalError")<ErrorBody> {
  static readonly schema = errorSchema(InternalError, 500)
}
/** 503: the ledger, a price or the database is unavailable. */
export class Unavailable extends Data.TaggedError("Unavailable")<ErrorBody> {
  static readonly schema = errorSchema(Unavailable, 503)
}
/** 503 of the bridge price: `{ message }` only, as the app reads it (spec §8). */
export class BtcPriceUnavailable extends Data.TaggedError("BtcPriceUnavailable")<{ readonly message: string }> {
  static readonly schema = Schema.transform(
    Schema.Struct({ message: Schema.String }),
    Schema.instanceOf(BtcPriceUnavailable),
    {
      strict: true,
      decode: (body) => new BtcPriceUnavailable(body),
      encode: (e) => ({ message: e.message })
    }
  ).annotations(HttpApiSchema.annotations({ status: 503 }))
}

/** The HTTP status an error class of this API answers with. */
export const errorStatus = (error: { readonly schema: Schema.Schema.All }): number =>
  HttpApiSchema.getStatusError(error.schema)

/** Gates an endpoint on maintenance mode: 409 while it is on. */
export class MaintenanceGate extends HttpApiMiddleware.Tag<MaintenanceGate>()("hswap/exchange/MaintenanceGate", {
  failure: InMaintenance.schema
}) {}

const accepted = <A, I>(schema: Schema.Schema<A, I>): Schema.Schema<A, I> =>
  schema.annotations(HttpApiSchema.annotations({ status: 202 }))

/** The 202 answer to a registration whose settlement is still under way. */
export const SwapRegistrationPending = accepted(Endpoints.registerSwap.pending)

/** The 202 answer to an atomic swap still submitting (poll `GET /api/atomic-swap/{subintentId}`). */
export const AtomicSwapPending = accepted(Endpoints.atomicSwap.pending)

const E = Endpoints

export const pricesGroup = HttpApiGroup.make("prices")
  .add(
    HttpApiEndpoint.get("livePrice", E.livePrice.path)
      .setPath(E.livePrice.params)
      .addSuccess(E.livePrice.success)
      .addError(BadRequest.schema)
      .addError(NotFound.schema)
      .addError(Unavailable.schema)
      .middleware(MaintenanceGate)
  )
  .add(HttpApiEndpoint.get("liquidity", E.liquidity.path).addSuccess(E.liquidity.success).addError(Unavailable.schema))
  .add(
    HttpApiEndpoint.get("btcPrice", E.btcPrice.path).addSuccess(E.btcPrice.success).addError(BtcPriceUnavailable.schema)
  )

export const healthGroup = HttpApiGroup.make("health").add(
  HttpApiEndpoint.get("health", E.health.path).addSuccess(E.health.success).middleware(MaintenanceGate)
)

export const swapsGroup = HttpApiGroup.make("swaps").add(
  HttpApiEndpoint.post("registerSwap", E.registerSwap.path)
    .setPath(E.registerSwap.params)
    .setPayload(E.registerSwap.payload)
    .addSuccess(E.registerSwap.success)
    .addSuccess(SwapRegistrationPending)
    .addError(BadRequest.schema)
    .addError(NotFound.schema)
    .addError(PayloadTooLarge.schema)
    .addError(Unprocessable.schema)
    .addError(Unavailable.schema)
    .middleware(MaintenanceGate)
)

/**
 * The atomic swap (pre-authorisation + the operator's leg in one ledger transaction). A server with the feature off
 * answers 404 "Atomic swaps are not offered by this exchange." and its quotes have no `atomic: true`.
 */
export const atomicGroup = HttpApiGroup.make("atomic")
  .add(
    HttpApiEndpoint.post("submitAtomicSwap", E.submitAtomicSwap.path)
      .setPayload(E.submitAtomicSwap.payload)
      .addSuccess(E.submitAtomicSwap.success)
      .addSuccess(AtomicSwapPending)
      .addError(BadRequest.schema)
      .addError(NotFound.schema)
      .addError(PayloadTooLarge.schema)
      .addError(AtomicRefused.schema)
      .addError(Unavailable.schema)
      .middleware(MaintenanceGate)
  )
  .add(
    HttpApiEndpoint.get("atomicSwap", E.atomicSwap.path)
      .setPath(E.atomicSwap.params)
      .addSuccess(E.atomicSwap.success)
      .addSuccess(AtomicSwapPending)
      .addError(BadRequest.schema)
      .addError(NotFound.schema)
      .addError(Unavailable.schema)
  )

export const transactionsGroup = HttpApiGroup.make("transactions")
  .add(
    HttpApiEndpoint.get("latestTransactions", E.latestTransactions.path)
      .addSuccess(E.latestTransactions.success)
      .middleware(MaintenanceGate)
  )
  .add(
    HttpApiEndpoint.get("transactions", E.transactions.path)
      .setPath(E.transactions.params)
      .addSuccess(E.transactions.success)
      .addError(BadRequest.schema)
      .middleware(MaintenanceGate)
  )

export const statsGroup = HttpApiGroup.make("stats").add(
  HttpApiEndpoint.get("stats", E.stats.path).addSuccess(E.stats.success).addError(Unavailable.schema)
)

export { MaintenanceToggle }

/** Loopback only, and never to a web page (no CORS header). */
export const adminGroup = HttpApiGroup.make("admin")
  .add(HttpApiEndpoint.get("getMaintenance", E.getMaintenance.path).addSuccess(E.getMaintenance.success))
  .add(
    HttpApiEndpoint.post("setMaintenance", E.setMaintenance.path)
      .setPayload(E.setMaintenance.payload)
      .addSuccess(E.setMaintenance.success)
      .addError(BadRequest.schema)
      .addError(PayloadTooLarge.schema)
  )
  .addError(Forbidden.schema)
  .prefix(ADMIN_GROUP_PREFIX)

export { API_PREFIX }
/** Where the admin group is, below the host's root. */
export const ADMIN_PREFIX = `${API_PREFIX}${ADMIN_GROUP_PREFIX}`

/** The whole API; errors every route may answer (rate limit, unknown path, method, media type, defect) included. */
export class ExchangeHttpApi extends HttpApi.make("exchange")
  .add(pricesGroup)
  .add(healthGroup)
  .add(swapsGroup)
  .add(atomicGroup)
  .add(transactionsGroup)
  .add(statsGroup)
  .add(adminGroup)
  .addError(NotFound.schema)
  .addError(MethodNotAllowed.schema)
  .addError(UnsupportedMediaType.schema)
  .addError(RateLimited.schema)
  .addError(InternalError.schema)
  .prefix(API_PREFIX) {}
