/**
 * The Gateway error body (`ErrorResponse` with its typed `details`), the error of a non-2xx answer, and (re-exported
 * from `clientErrors.ts`) the client's other tagged errors.
 */
import { Schema } from "effect"
import type { GatewayDecodeError, GatewayTimeoutError, GatewayTransportError, RequiredError } from "./clientErrors"
import { opt, taggedUnion } from "./schemas/common"
import { LedgerStateRequestType } from "./schemas/enums"

export * from "./clientErrors"

// ---------------------------------------------------------------------------------------------------------------------
// Wire shapes

export const ValidationErrorsAtPath = Schema.Struct({ path: Schema.String, errors: Schema.Array(Schema.String) })

/** `ErrorResponse.details`, discriminated by `type`. */
export const GatewayErrorDetails = taggedUnion(
  "type",
  Schema.Struct({
    type: Schema.Literal("InvalidRequestError"),
    validation_errors: Schema.Array(ValidationErrorsAtPath)
  }),
  Schema.Struct({ type: Schema.Literal("InvalidEntityError"), address: Schema.String }),
  Schema.Struct({ type: Schema.Literal("InvalidTransactionError") }),
  Schema.Struct({ type: Schema.Literal("EntityNotFoundError"), address: Schema.String }),
  Schema.Struct({ type: Schema.Literal("TransactionNotFoundError"), intent_hash: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("AccountLockerNotFoundError"),
    locker_address: Schema.String,
    account_address: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("NotSyncedUpError"),
    request_type: LedgerStateRequestType,
    current_sync_delay_seconds: Schema.Number,
    max_allowed_sync_delay_seconds: Schema.Number
  }),
  Schema.Struct({ type: Schema.Literal("InternalServerError"), exception: Schema.String, cause: Schema.String })
)
export type GatewayErrorDetails = typeof GatewayErrorDetails.Type

/** The JSON body of a non-2xx answer. */
export const ErrorResponse = Schema.Struct({
  message: Schema.String,
  code: opt(Schema.Number),
  details: opt(GatewayErrorDetails),
  trace_id: opt(Schema.String)
})
export type ErrorResponse = typeof ErrorResponse.Type

// ---------------------------------------------------------------------------------------------------------------------
// Tagged errors

/** Any answer outside 200-299. `errorResponse` is set when the body is an `ErrorResponse`, `body` keeps the raw text. */
export class GatewayResponseError extends Schema.TaggedError<GatewayResponseError>()("GatewayResponseError", {
  path: Schema.String,
  status: Schema.Number,
  errorResponse: Schema.optional(ErrorResponse),
  body: Schema.String,
  /** Milliseconds the server asked us to wait (`retry-after`), when it said so. */
  retryAfterMillis: Schema.optional(Schema.Number)
}) {
  override get message(): string {
    return this.errorResponse?.message ?? `Gateway answered HTTP ${this.status} on ${this.path}`
  }
  /** The typed `details` of the error body, when present. */
  get details(): GatewayErrorDetails | undefined {
    return this.errorResponse?.details
  }
}

/** Everything a Gateway call can fail with. */
export type GatewayError =
  GatewayResponseError | GatewayDecodeError | RequiredError | GatewayTransportError | GatewayTimeoutError
