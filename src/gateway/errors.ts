/** The Gateway error body (`ErrorResponse` with its typed `details`) and the client's tagged errors. */
import { Schema } from "effect"
import { opt, taggedUnion } from "./schemas/common.js"
import { LedgerStateRequestType } from "./schemas/enums.js"

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

export const DecodeIssue = Schema.Struct({ path: Schema.String, message: Schema.String })
export type DecodeIssue = typeof DecodeIssue.Type

/** A 2xx body that is not JSON or not the documented shape. Each issue names the JSON path and what was wrong. */
export class GatewayDecodeError extends Schema.TaggedError<GatewayDecodeError>()("GatewayDecodeError", {
  path: Schema.String,
  issues: Schema.Array(DecodeIssue)
}) {
  override get message(): string {
    const first = this.issues[0]
    const where = first === undefined ? "" : `: ${first.path === "" ? "(body)" : first.path} ${first.message}`
    return `Gateway response from ${this.path} did not decode${where}`
  }
}

/** A missing request object or a missing/invalid required parameter, caught before anything is sent. */
export class RequiredError extends Schema.TaggedError<RequiredError>()("RequiredError", {
  field: Schema.String,
  path: Schema.String,
  reason: Schema.optional(Schema.String)
}) {
  override get message(): string {
    return `Required parameter ${this.field} was null or undefined when calling ${this.path}${
      this.reason === undefined ? "" : ` (${this.reason})`
    }`
  }
}

/** The request never got an answer: DNS, connection refused or reset, CORS, a body that could not be read. */
export class GatewayTransportError extends Schema.TaggedError<GatewayTransportError>()("GatewayTransportError", {
  path: Schema.String,
  reason: Schema.String,
  cause: Schema.Defect
}) {
  override get message(): string {
    return `Gateway request to ${this.path} failed: ${this.reason}`
  }
}

/** A part of the client that is loaded on first use (its module, a group's endpoints) could not be, for `path`. */
export const clientNotLoaded = (path: string, cause: unknown) =>
  new GatewayTransportError({ path, reason: "the Gateway client could not be loaded", cause })

/** No answer within the configured per-request timeout. */
export class GatewayTimeoutError extends Schema.TaggedError<GatewayTimeoutError>()("GatewayTimeoutError", {
  path: Schema.String,
  timeoutMillis: Schema.Number
}) {
  override get message(): string {
    return `Gateway request to ${this.path} timed out after ${this.timeoutMillis} ms`
  }
}

/** `networkId` has no known gateway URL and no `basePath` was given. */
export class UnknownNetworkError extends Schema.TaggedError<UnknownNetworkError>()("UnknownNetworkError", {
  networkId: Schema.Number
}) {
  override get message(): string {
    return `No gateway URL is known for network id ${this.networkId}; set basePath`
  }
}

/** Everything a Gateway call can fail with. */
export type GatewayError =
  GatewayResponseError | GatewayDecodeError | RequiredError | GatewayTransportError | GatewayTimeoutError
