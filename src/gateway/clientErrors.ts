/**
 * The client's tagged errors that need no Gateway wire shapes: a body that did not decode, a missing parameter, no
 * answer, a timeout, an unknown network. Apart from `errors.ts` (whose `ErrorResponse` types the error details of
 * every Gateway answer, the common Schemas with it), so that what a first screen loads (the lazy client's facade,
 * the configuration, the startup read of the fund account) does not build those Schemas. `errors.ts` re-exports
 * everything here.
 */
import { Schema } from "effect"

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
