/**
 * The gateway emulator's request/response envelope and the Gateway's ErrorResponse failures (babylon-gateway v1.10.1
 * `Exceptions/`), shared by every API group.
 */
import { Data, type Effect } from "effect"

export interface GatewayRequest {
  readonly method: string
  /** Path below the mount point, e.g. `/status/gateway-status`. */
  readonly path: string
  /** The parsed JSON body (undefined when there is none). */
  readonly body: unknown
}

export interface GatewayResponse {
  readonly status: number
  readonly json: unknown
}

export const MAX_ADDRESSES = 20
export const MAX_PAGE_SIZE = 100
export const MAX_STREAM_FILTERS = 10
export const MAX_EXPLICIT_METADATA = 20

/** A failure that answers with the Gateway's ErrorResponse body. */
export class GatewayFailure extends Data.TaggedError("GatewayFailure")<{
  readonly status: number
  readonly message: string
  readonly details: Record<string, unknown> | null | undefined
}> {}

export const gatewayFailure = (status: number, message: string, details: Record<string, unknown> | null | undefined) =>
  new GatewayFailure({ status, message, details })

export const invalidRequest = (errors: ReadonlyArray<{ path: string; errors: ReadonlyArray<string> }>) =>
  gatewayFailure(400, "One or more validation errors occurred", {
    type: "InvalidRequestError",
    validation_errors: errors
  })

export const invalidField = (path: string, error: string) => invalidRequest([{ path, errors: [error] }])

/** What the Gateway answers when the node refuses a request (`InvalidRequestException.FromOtherError`). */
export const otherError = (error: string) =>
  gatewayFailure(400, "One or more errors occurred", {
    type: "InvalidRequestError",
    validation_errors: [{ path: "?", errors: [error] }]
  })

/** `EntityNotFoundException` (404, message "Entity not found"), babylon-gateway v1.10.1 `Exceptions/`. */
export const entityNotFound = (address: string) =>
  gatewayFailure(404, "Entity not found", { type: "EntityNotFoundError", address })

/** `InvalidEntityException` (400, message "Invalid entity"): the address is of another kind of entity. */
export const invalidEntity = (address: string) =>
  gatewayFailure(400, "Invalid entity", { type: "InvalidEntityError", address })

/** One path's handler: the decoded JSON body in, the success JSON or the Gateway's ErrorResponse out. */
export type RouteHandler = (body: unknown) => Effect.Effect<unknown, GatewayFailure>

/** An API group's handlers, one per path it serves. */
export type Routes<Paths extends ReadonlyArray<string>> = { readonly [P in Paths[number]]: RouteHandler }
