/**
 * State group, non-fungibles (babylon-gateway v1.10.1 `EntityStateQuerier`, `NonFungibleQuerier`): the devnet holds
 * no non-fungible vault and mints no non-fungible, so every collection is empty, and the errors are the Gateway's for
 * an unknown or mistyped entity.
 */
import { Effect, Schema } from "effect"
import type { EmulatorContext } from "../../context"
import { MAX_PAGE_SIZE, type RouteHandler, entityNotFound, invalidField } from "../../failure"
import { Address, AggregationLevel, LedgerStateSelector, Paging, decodeBody, opt } from "../../request"

const NonFungiblesPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  aggregation_level: opt(AggregationLevel),
  opt_ins: opt(
    Schema.Struct({
      non_fungible_include_nfids: opt(Schema.Boolean),
      explicit_metadata: opt(Schema.Array(Schema.String))
    })
  )
})
const NonFungibleVaultsPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  resource_address: Address,
  opt_ins: opt(Schema.Struct({ non_fungible_include_nfids: opt(Schema.Boolean) }))
})
const NonFungibleVaultIdsPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  vault_address: Address,
  resource_address: Address
})
const NonFungibleIdsRequest = Schema.Struct({ ...Paging, resource_address: Address })
const NonFungibleIdListRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  resource_address: Address,
  non_fungible_ids: Schema.Array(Schema.String)
})

export const nonFungibleHandlers = (ctx: EmulatorContext) => {
  const { atState, nonFungibleBadge, pageParams, paginate, requireEntity, validateAddress, validateExplicit } = ctx

  /** `EntityNonFungibleResourcesPage`: a component's non-fungible resources (none on the devnet). */
  const nonFungiblesPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungiblesPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateExplicit(request.opt_ins?.explicit_metadata)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      return { ledger_state: ledgerState, ...paginate([], offset, limit), address: request.address }
    })

  /** `EntityNonFungibleResourceVaults`: the component must be one, the resource a non-fungible resource. */
  const nonFungibleVaultsPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleVaultsPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateAddress("resource_address", request.resource_address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      return {
        ledger_state: ledgerState,
        ...paginate([], offset, limit),
        address: request.address,
        resource_address: request.resource_address
      }
    })

  /** `EntityNonFungibleIds`: component, non-fungible resource, then the vault, each looked up in that order. */
  const nonFungibleVaultIdsPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleVaultIdsPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateAddress("resource_address", request.resource_address)
      yield* validateAddress("vault_address", request.vault_address)
      yield* pageParams(request, true)
      const { version } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      // No non-fungible vault exists on the devnet, so a vault address is never one.
      return yield* requireEntity(request.vault_address, version, "Vault").pipe(
        Effect.zipRight(entityNotFound(request.vault_address))
      )
    })

  const nonFungibleIds = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleIdsRequest, body)
      yield* validateAddress("resource_address", request.resource_address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      return {
        ledger_state: ledgerState,
        resource_address: request.resource_address,
        non_fungible_ids: paginate([], offset, limit)
      }
    })

  /** `StateNonFungibleDataRequestValidator` / `...LocationRequestValidator`: 1 to 100 ids, none empty. */
  const nonFungibleIdList = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleIdListRequest, body)
      yield* validateAddress("resource_address", request.resource_address)
      if (request.non_fungible_ids.length === 0) {
        return yield* invalidField("non_fungible_ids", "'Non Fungible Ids' must not be empty.")
      }
      if (request.non_fungible_ids.length > MAX_PAGE_SIZE) {
        return yield* invalidField(
          "non_fungible_ids.Count",
          `'Count' must be less than or equal to '${MAX_PAGE_SIZE}'. You entered ${request.non_fungible_ids.length}.`
        )
      }
      const empty = request.non_fungible_ids.findIndex((id) => id.length === 0)
      if (empty >= 0) {
        return yield* invalidField(`non_fungible_ids[${empty}]`, "'Non Fungible Ids' must not be empty.")
      }
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      return { request, ledgerState }
    })

  /** Ids that were never minted are left out (`NonFungibleResourceQueries.NonFungibleIdData` selects minted ids). */
  const nonFungibleData = (body: unknown) =>
    Effect.map(nonFungibleIdList(body), ({ ledgerState, request }) => ({
      ledger_state: ledgerState,
      resource_address: request.resource_address,
      non_fungible_id_type: nonFungibleBadge(request.resource_address) ?? "Bytes",
      non_fungible_ids: []
    }))

  const nonFungibleLocation = (body: unknown) =>
    Effect.map(nonFungibleIdList(body), ({ ledgerState, request }) => ({
      ledger_state: ledgerState,
      resource_address: request.resource_address,
      non_fungible_ids: []
    }))

  return {
    nonFungiblesPage,
    nonFungibleVaultsPage,
    nonFungibleVaultIdsPage,
    nonFungibleIds,
    nonFungibleData,
    nonFungibleLocation
  } satisfies Record<string, RouteHandler>
}
