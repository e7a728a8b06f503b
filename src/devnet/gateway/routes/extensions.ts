/**
 * The Extensions group: `/extensions/resource-holders/page` (babylon-gateway v1.10.1 `ResourceHoldersQuerier`):
 * the accounts holding a resource at the current state version (no `at_ledger_state`, no `ledger_state`), most
 * first, 100 per page by default and at most 1000.
 */
import { Effect, Schema } from "effect"
import type { EmulatorContext } from "../context"
import { type Routes, entityNotFound, invalidEntity, invalidField } from "../failure"
import { Address, Int32, OffsetCursor, decodeBody, decodeCursor, opt } from "../request"

export const EXTENSIONS_PATHS = ["/extensions/resource-holders/page"] as const

/** `GatewayApi__Endpoint__DefaultPageSize` and `ResourceHoldersMaxPageSize`. */
export const RESOURCE_HOLDERS_DEFAULT_PAGE_SIZE = 100
export const RESOURCE_HOLDERS_MAX_PAGE_SIZE = 1000

const ResourceHoldersRequest = Schema.Struct({
  cursor: opt(Schema.String),
  limit_per_page: opt(Int32),
  resource_address: Address
})

export const extensionsRoutes = (ctx: EmulatorContext): Routes<typeof EXTENSIONS_PATHS> => {
  const { ledger, paginate, storedEntityKind, validateAddress } = ctx

  const resourceHolders = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(ResourceHoldersRequest, body)
      yield* validateAddress("resource_address", request.resource_address)
      if (request.limit_per_page !== undefined && request.limit_per_page <= 0) {
        return yield* invalidField("limit_per_page", "must be greater than 0")
      }
      const limit = Math.min(
        request.limit_per_page ?? RESOURCE_HOLDERS_DEFAULT_PAGE_SIZE,
        RESOURCE_HOLDERS_MAX_PAGE_SIZE
      )
      const offset = request.cursor === undefined ? 0 : (yield* decodeCursor(OffsetCursor, request.cursor)).o
      // A direct look-up in the entity table: an account never written to is not there.
      const kind = yield* storedEntityKind(request.resource_address, yield* ledger.currentStateVersion)
      if (kind === undefined) return yield* entityNotFound(request.resource_address)
      if (kind !== "FungibleResource" && kind !== "NonFungibleResource") {
        return yield* invalidEntity(request.resource_address)
      }
      // The devnet's non-fungible resources are the well-known badges, which nobody holds.
      const holders = kind === "FungibleResource" ? yield* ledger.resourceHolders(request.resource_address) : []
      return paginate(
        holders.map((h) => ({
          type: "FungibleResource" as const,
          holder_address: h.account,
          amount: h.amount,
          last_updated_at_state_version: h.lastUpdatedAtStateVersion
        })),
        offset,
        limit
      )
    })

  return { "/extensions/resource-holders/page": resourceHolders }
}
