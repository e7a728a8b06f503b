/** `/extensions/*` (no `at_ledger_state`, no `ledger_state`). */
import { Schema } from "effect"
import { CursorLimit, NonFungibleGlobalId, opt, taggedUnion } from "./common"

export const ResourceHoldersRequest = Schema.Struct({ ...CursorLimit, resource_address: opt(Schema.String) })
export type ResourceHoldersRequest = typeof ResourceHoldersRequest.Type

export const ResourceHoldersCollectionItem = taggedUnion(
  "type",
  Schema.Struct({
    type: Schema.Literal("FungibleResource"),
    holder_address: Schema.String,
    last_updated_at_state_version: Schema.Number,
    amount: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("NonFungibleResource"),
    holder_address: Schema.String,
    last_updated_at_state_version: Schema.Number,
    non_fungible_ids_count: Schema.Number
  })
)
export type ResourceHoldersCollectionItem = typeof ResourceHoldersCollectionItem.Type

export const ResourceHoldersResponse = Schema.Struct({
  total_count: opt(Schema.Number),
  next_cursor: opt(Schema.String),
  items: Schema.Array(ResourceHoldersCollectionItem)
})
export type ResourceHoldersResponse = typeof ResourceHoldersResponse.Type

export const EntitiesByRoleRequirementItem = Schema.Struct({
  entity_address: Schema.String,
  first_seen_state_version: Schema.Number
})

export const EntitiesByRoleRequirementPageRequest = Schema.Struct({
  ...CursorLimit,
  resource_address: Schema.String,
  non_fungible_id: opt(Schema.String)
})
export type EntitiesByRoleRequirementPageRequest = typeof EntitiesByRoleRequirementPageRequest.Type
export const EntitiesByRoleRequirementPageResponse = Schema.Struct({
  total_count: opt(Schema.Number),
  next_cursor: opt(Schema.String),
  entities: Schema.Array(EntitiesByRoleRequirementItem)
})
export type EntitiesByRoleRequirementPageResponse = typeof EntitiesByRoleRequirementPageResponse.Type

const Requirement = Schema.Struct({ resource_address: Schema.String, non_fungible_id: opt(Schema.String) })

export const EntitiesByRoleRequirementLookupRequest = Schema.Struct({ requirements: Schema.Array(Requirement) })
export type EntitiesByRoleRequirementLookupRequest = typeof EntitiesByRoleRequirementLookupRequest.Type
export const EntitiesByRoleRequirementLookupResponse = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      total_count: opt(Schema.Number),
      next_cursor: opt(Schema.String),
      requirement: Requirement,
      entities: Schema.Array(EntitiesByRoleRequirementItem)
    })
  )
})
export type EntitiesByRoleRequirementLookupResponse = typeof EntitiesByRoleRequirementLookupResponse.Type

export const ImplicitRequirementsLookupRequest = Schema.Struct({ requirements: Schema.Array(NonFungibleGlobalId) })
export type ImplicitRequirementsLookupRequest = typeof ImplicitRequirementsLookupRequest.Type

export const ResolvedImplicitRequirement = taggedUnion(
  "type",
  Schema.Struct({
    type: Schema.Literal("Secp256k1PublicKey", "Ed25519PublicKey"),
    first_seen_state_version: Schema.Number,
    public_key_bytes_hex: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("GlobalCallerBlueprint"),
    first_seen_state_version: Schema.Number,
    package_address: Schema.String,
    blueprint_name: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("GlobalCallerEntity"),
    first_seen_state_version: Schema.Number,
    entity_address: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("PackageOfDirectCaller"),
    first_seen_state_version: Schema.Number,
    package_address: Schema.String
  }),
  Schema.Struct({ type: Schema.Literal("ProtocolExecution", "ValidatorExecution") })
)
export type ResolvedImplicitRequirement = typeof ResolvedImplicitRequirement.Type

export const ImplicitRequirementsLookupResponse = Schema.Struct({
  resolved_requirements: Schema.Array(
    Schema.Struct({ requirement: NonFungibleGlobalId, resolved: opt(ResolvedImplicitRequirement) })
  )
})
export type ImplicitRequirementsLookupResponse = typeof ImplicitRequirementsLookupResponse.Type
