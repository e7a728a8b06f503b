/**
 * State group, entities: `/state/entity/details` and the fungible and metadata pages of an entity. The devnet has
 * pre-allocated accounts and identities, fungible resources with their vaults, and the well-known non-fungible badges.
 */
import { Effect, Option, Schema } from "effect"
import { decodeBech32m } from "../../../../exchange/bech32m"
import { addressKind, isAccountAddress } from "../../../ledger/address"
import type { EmulatorContext } from "../../context"
import { MAX_ADDRESSES, MAX_PAGE_SIZE, type RouteHandler, entityNotFound, invalidField } from "../../failure"
import { Address, AggregationLevel, LedgerStateSelector, Paging, decodeBody, opt } from "../../request"

const EntityDetailsRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  addresses: Schema.Array(Address),
  aggregation_level: opt(AggregationLevel),
  opt_ins: opt(
    Schema.Struct({
      ancestor_identities: opt(Schema.Boolean),
      explicit_metadata: opt(Schema.Array(Schema.String)),
      native_resource_details: opt(Schema.Boolean),
      non_fungible_include_nfids: opt(Schema.Boolean),
      component_royalty_config: opt(Schema.Boolean),
      component_royalty_vault_balance: opt(Schema.Boolean),
      package_royalty_vault_balance: opt(Schema.Boolean),
      dapp_two_way_links: opt(Schema.Boolean)
    })
  )
})

const MetadataPageRequest = Schema.Struct({ ...Paging, address: Address })
const FungiblesPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  aggregation_level: opt(AggregationLevel),
  opt_ins: opt(Schema.Struct({ explicit_metadata: opt(Schema.Array(Schema.String)) }))
})
const FungibleVaultsPageRequest = Schema.Struct({ ...Paging, address: Address, resource_address: Address })

export const entityHandlers = (ctx: EmulatorContext) => {
  const {
    atState,
    entityKindOf,
    explicitMetadata,
    ledger,
    metadataItems,
    networkConfig,
    nonFungibleBadge,
    pageParams,
    paginate,
    requireEntity,
    validateAddress,
    validateExplicit
  } = ctx

  // --- fungible collections ---

  const fungibleItems = (
    account: string,
    version: number,
    aggregation: "Global" | "Vault",
    explicitKeys: ReadonlyArray<string> | undefined
  ) =>
    Effect.gen(function* () {
      const vaults = yield* ledger.accountVaults(account, version)
      return yield* Effect.forEach(vaults, (v) =>
        Effect.gen(function* () {
          const explicit =
            explicitKeys === undefined || explicitKeys.length === 0
              ? {}
              : { explicit_metadata: yield* explicitMetadata(v.resource, version, explicitKeys) }
          return aggregation === "Global"
            ? {
                aggregation_level: "Global" as const,
                resource_address: v.resource,
                ...explicit,
                amount: v.amount,
                last_updated_at_state_version: v.lastUpdatedAtStateVersion
              }
            : {
                aggregation_level: "Vault" as const,
                resource_address: v.resource,
                ...explicit,
                vaults: {
                  total_count: 1,
                  items: [
                    {
                      vault_address: v.vaultAddress,
                      amount: v.amount,
                      last_updated_at_state_version: v.lastUpdatedAtStateVersion
                    }
                  ]
                }
              }
        })
      )
    })

  const accountRoleAssignments = (address: string) => {
    const decoded = decodeBech32m(address)
    const localIdHex = decoded === undefined ? "" : Buffer.from(decoded.bytes).toString("hex")
    return {
      owner: {
        rule: {
          type: "Protected",
          access_rule: {
            type: "ProofRule",
            proof_rule: {
              type: "Require",
              requirement: {
                type: "NonFungible",
                non_fungible: {
                  local_id: { id_type: "Bytes", sbor_hex: `5cc0021e${localIdHex}`, simple_rep: `[${localIdHex}]` },
                  resource_address: networkConfig.well_known_addresses.ed25519_signature_virtual_badge
                }
              }
            }
          }
        },
        updater: "Object"
      },
      entries: []
    }
  }

  const entityDetails = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(EntityDetailsRequest, body)
      if (request.addresses.length === 0) return yield* invalidField("addresses", "At least 1 address is required")
      if (request.addresses.length > MAX_ADDRESSES) {
        return yield* invalidField("addresses", `The number of addresses must be at most ${MAX_ADDRESSES}`)
      }
      for (const [i, a] of request.addresses.entries()) yield* validateAddress(`addresses[${i}]`, a)
      const optIns = request.opt_ins
      yield* validateExplicit(optIns?.explicit_metadata)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      const aggregation = request.aggregation_level ?? "Global"
      const explicitKeys = optIns?.explicit_metadata
      const items = yield* Effect.forEach([...new Set(request.addresses)], (address) =>
        Effect.gen(function* () {
          const kind = addressKind(address)
          const metadataAll = yield* metadataItems(address, version)
          const metadata = paginate(metadataAll, 0, MAX_PAGE_SIZE)
          const explicit =
            explicitKeys === undefined || explicitKeys.length === 0
              ? {}
              : { explicit_metadata: yield* explicitMetadata(address, version, explicitKeys) }
          const emptyNonFungibles = { total_count: 0, items: [] }
          if ((yield* entityKindOf(address, version)) === "Component") {
            const isAccount = isAccountAddress(address)
            const fungibles = isAccount
              ? paginate(yield* fungibleItems(address, version, aggregation, explicitKeys), 0, MAX_PAGE_SIZE)
              : { total_count: 0, items: [] }
            return {
              address,
              fungible_resources: fungibles,
              non_fungible_resources: emptyNonFungibles,
              metadata,
              ...explicit,
              details: {
                type: "Component",
                package_address: isAccount
                  ? networkConfig.well_known_addresses.account_package
                  : networkConfig.well_known_addresses.identity_package,
                blueprint_name: isAccount ? "Account" : "Identity",
                blueprint_version: "1.0.0",
                ...(isAccount ? { state: { default_deposit_rule: "Accept" } } : {}),
                role_assignments: accountRoleAssignments(address)
              }
            }
          }
          if (kind === "GlobalFungibleResourceManager") {
            const resource = yield* ledger.resource(address)
            if (Option.isNone(resource) || resource.value.createdAtStateVersion > version) return undefined
            const r = resource.value
            return {
              address,
              fungible_resources: { total_count: 0, items: [] },
              non_fungible_resources: emptyNonFungibles,
              metadata,
              ...explicit,
              details: {
                type: "FungibleResource",
                role_assignments: { owner: { rule: { type: "DenyAll" }, updater: "None" }, entries: [] },
                divisibility: r.divisibility,
                total_supply: r.totalSupply,
                total_minted: r.totalSupply,
                total_burned: "0",
                ...(optIns?.native_resource_details === true && address === ledger.xrd
                  ? { native_resource_details: { kind: "Xrd" } }
                  : {})
              }
            }
          }
          if (kind === "InternalFungibleVault") {
            const owner = yield* ledger.vaultOwner(address)
            if (Option.isNone(owner)) return undefined
            const vaults = yield* ledger.accountVaults(owner.value.account, version)
            const vault = vaults.find((v) => v.resource === owner.value.resource)
            if (vault === undefined) return undefined
            return {
              address,
              metadata,
              ...explicit,
              ...(optIns?.ancestor_identities === true
                ? {
                    ancestor_identities: {
                      parent_address: vault.account,
                      owner_address: vault.account,
                      global_address: vault.account
                    }
                  }
                : {}),
              details: {
                type: "FungibleVault",
                resource_address: vault.resource,
                balance: {
                  vault_address: vault.vaultAddress,
                  amount: vault.amount,
                  last_updated_at_state_version: vault.lastUpdatedAtStateVersion
                }
              }
            }
          }
          const badge = nonFungibleBadge(address)
          if (badge !== undefined) {
            return {
              address,
              fungible_resources: { total_count: 0, items: [] },
              non_fungible_resources: emptyNonFungibles,
              metadata,
              ...explicit,
              details: {
                type: "NonFungibleResource",
                role_assignments: { owner: { rule: { type: "DenyAll" }, updater: "None" }, entries: [] },
                non_fungible_id_type: badge,
                total_supply: "0",
                total_minted: "0",
                total_burned: "0",
                non_fungible_data_mutable_fields: []
              }
            }
          }
          // Not on the ledger: omitted, as `EntityQuerier.GetEntities` leaves out what it cannot find.
          return undefined
        })
      )
      return { ledger_state: ledgerState, items: items.filter((item) => item !== undefined) }
    })

  const metadataPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(MetadataPageRequest, body)
      yield* validateAddress("address", request.address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      if ((yield* entityKindOf(request.address, version)) === undefined) return yield* entityNotFound(request.address)
      const all = yield* metadataItems(request.address, version)
      return { ledger_state: ledgerState, ...paginate(all, offset, limit), address: request.address }
    })

  const fungiblesPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(FungiblesPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateExplicit(request.opt_ins?.explicit_metadata)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      const all = isAccountAddress(request.address)
        ? yield* fungibleItems(
            request.address,
            version,
            request.aggregation_level ?? "Global",
            request.opt_ins?.explicit_metadata
          )
        : []
      return { ledger_state: ledgerState, ...paginate(all, offset, limit), address: request.address }
    })

  const fungibleVaultsPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(FungibleVaultsPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateAddress("resource_address", request.resource_address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      yield* requireEntity(request.resource_address, version, "FungibleResource")
      const vaults = isAccountAddress(request.address) ? yield* ledger.accountVaults(request.address, version) : []
      const all = vaults
        .filter((v) => v.resource === request.resource_address)
        .map((v) => ({
          vault_address: v.vaultAddress,
          amount: v.amount,
          last_updated_at_state_version: v.lastUpdatedAtStateVersion
        }))
      return {
        ledger_state: ledgerState,
        ...paginate(all, offset, limit),
        address: request.address,
        resource_address: request.resource_address
      }
    })

  return { entityDetails, metadataPage, fungiblesPage, fungibleVaultsPage } satisfies Record<string, RouteHandler>
}
