/** `/state/*` requests and responses. */
import { Schema } from "effect"
import {
  AtLedgerState,
  CursorLimit,
  EntityMetadataCollection,
  EntityMetadataItem,
  JsonObject,
  ProgrammaticScryptoSborValue,
  PublicKey,
  ScryptoSborValue,
  WithLedgerState,
  collection,
  opt,
  pageResponse,
  taggedUnion
} from "./common"
import {
  AccountResourcePreferenceRule,
  NativeResourceKind,
  NonFungibleIdType,
  ObjectModuleId,
  PackageVmType,
  ResourceAggregationLevel,
  RoleAssignmentResolution
} from "./enums"

// ---------------------------------------------------------------------------------------------------------------------
// Resource collections

export const FungibleResourcesCollectionItemGloballyAggregated = Schema.Struct({
  aggregation_level: Schema.Literal("Global"),
  resource_address: Schema.String,
  explicit_metadata: opt(EntityMetadataCollection),
  amount: Schema.String,
  last_updated_at_state_version: Schema.Number
})

export const FungibleResourcesCollectionItemVaultAggregatedVaultItem = Schema.Struct({
  vault_address: Schema.String,
  amount: Schema.String,
  last_updated_at_state_version: Schema.Number
})
export type FungibleResourcesCollectionItemVaultAggregatedVaultItem =
  typeof FungibleResourcesCollectionItemVaultAggregatedVaultItem.Type

export const FungibleResourcesCollectionItemVaultAggregated = Schema.Struct({
  aggregation_level: Schema.Literal("Vault"),
  resource_address: Schema.String,
  explicit_metadata: opt(EntityMetadataCollection),
  vaults: collection(FungibleResourcesCollectionItemVaultAggregatedVaultItem)
})
export type FungibleResourcesCollectionItemVaultAggregated = typeof FungibleResourcesCollectionItemVaultAggregated.Type

export const FungibleResourcesCollectionItem = taggedUnion(
  "aggregation_level",
  FungibleResourcesCollectionItemGloballyAggregated,
  FungibleResourcesCollectionItemVaultAggregated
)
export type FungibleResourcesCollectionItem = typeof FungibleResourcesCollectionItem.Type
export const FungibleResourcesCollection = collection(FungibleResourcesCollectionItem)
export type FungibleResourcesCollection = typeof FungibleResourcesCollection.Type

export const NonFungibleResourcesCollectionItemGloballyAggregated = Schema.Struct({
  aggregation_level: Schema.Literal("Global"),
  resource_address: Schema.String,
  explicit_metadata: opt(EntityMetadataCollection),
  amount: Schema.Number,
  last_updated_at_state_version: Schema.Number
})

export const NonFungibleResourcesCollectionItemVaultAggregatedVaultItem = Schema.Struct({
  vault_address: Schema.String,
  total_count: Schema.Number,
  last_updated_at_state_version: Schema.Number,
  next_cursor: opt(Schema.String),
  items: opt(Schema.Array(Schema.String))
})
export type NonFungibleResourcesCollectionItemVaultAggregatedVaultItem =
  typeof NonFungibleResourcesCollectionItemVaultAggregatedVaultItem.Type

export const NonFungibleResourcesCollectionItemVaultAggregated = Schema.Struct({
  aggregation_level: Schema.Literal("Vault"),
  resource_address: Schema.String,
  explicit_metadata: opt(EntityMetadataCollection),
  vaults: collection(NonFungibleResourcesCollectionItemVaultAggregatedVaultItem)
})
export type NonFungibleResourcesCollectionItemVaultAggregated =
  typeof NonFungibleResourcesCollectionItemVaultAggregated.Type

export const NonFungibleResourcesCollectionItem = taggedUnion(
  "aggregation_level",
  NonFungibleResourcesCollectionItemGloballyAggregated,
  NonFungibleResourcesCollectionItemVaultAggregated
)
export type NonFungibleResourcesCollectionItem = typeof NonFungibleResourcesCollectionItem.Type
export const NonFungibleResourcesCollection = collection(NonFungibleResourcesCollectionItem)
export type NonFungibleResourcesCollection = typeof NonFungibleResourcesCollection.Type

// ---------------------------------------------------------------------------------------------------------------------
// Entity details

export const StateEntityDetailsOptIns = Schema.Struct({
  ancestor_identities: opt(Schema.Boolean),
  component_royalty_config: opt(Schema.Boolean),
  component_royalty_vault_balance: opt(Schema.Boolean),
  package_royalty_vault_balance: opt(Schema.Boolean),
  non_fungible_include_nfids: opt(Schema.Boolean),
  explicit_metadata: opt(Schema.Array(Schema.String)),
  dapp_two_way_links: opt(Schema.Boolean),
  native_resource_details: opt(Schema.Boolean)
})
export type StateEntityDetailsOptIns = typeof StateEntityDetailsOptIns.Type

export const StateEntityDetailsRequest = Schema.Struct({
  ...AtLedgerState,
  addresses: Schema.Array(Schema.String),
  aggregation_level: opt(ResourceAggregationLevel),
  opt_ins: opt(StateEntityDetailsOptIns)
})
export type StateEntityDetailsRequest = typeof StateEntityDetailsRequest.Type

export const RoleKey = Schema.Struct({ name: Schema.String, module: ObjectModuleId })
export type RoleKey = typeof RoleKey.Type

/** `resolution: "Explicit"` carries its `explicit_rule` (a Core API `AccessRule`); `"Owner"` defers to the owner role. */
export const ComponentEntityRoleAssignmentEntryAssignment = taggedUnion(
  "resolution",
  Schema.Struct({ resolution: Schema.Literal(RoleAssignmentResolution.Explicit), explicit_rule: JsonObject }),
  Schema.Struct({ resolution: Schema.Literal(RoleAssignmentResolution.Owner) })
)
export type ComponentEntityRoleAssignmentEntryAssignment = typeof ComponentEntityRoleAssignmentEntryAssignment.Type

export const ComponentEntityRoleAssignmentEntry = Schema.Struct({
  role_key: RoleKey,
  assignment: ComponentEntityRoleAssignmentEntryAssignment,
  updater_roles: opt(Schema.Array(RoleKey))
})
export const ComponentEntityRoleAssignments = Schema.Struct({
  owner: JsonObject,
  entries: Schema.Array(ComponentEntityRoleAssignmentEntry)
})
export type ComponentEntityRoleAssignments = typeof ComponentEntityRoleAssignments.Type

export const NativeResourceRedemptionValueItem = Schema.Struct({
  resource_address: Schema.String,
  amount: opt(Schema.String)
})
export type NativeResourceRedemptionValueItem = typeof NativeResourceRedemptionValueItem.Type

const redemption = {
  redemption_resource_count: Schema.Number,
  unit_redemption_value: Schema.Array(NativeResourceRedemptionValueItem)
}
const K = NativeResourceKind

/** `native_resource_details`, discriminated by `kind` (the 16 kinds of v1.10.1). */
export const NativeResourceDetails = taggedUnion(
  "kind",
  Schema.Struct({
    kind: Schema.Literal(
      K.Xrd,
      K.PackageOwnerBadge,
      K.AccountOwnerBadge,
      K.IdentityOwnerBadge,
      K.ValidatorOwnerBadge,
      K.Secp256k1SignatureResource,
      K.Ed25519SignatureResource,
      K.GlobalCallerResource,
      K.PackageOfDirectCallerResource,
      K.SystemExecutionResource
    )
  }),
  Schema.Struct({ kind: Schema.Literal(K.AccessControllerRecoveryBadge), access_controller_address: Schema.String }),
  Schema.Struct({ kind: Schema.Literal(K.ValidatorClaimNft), validator_address: Schema.String }),
  Schema.Struct({ kind: Schema.Literal(K.ValidatorLiquidStakeUnit), validator_address: Schema.String, ...redemption }),
  Schema.Struct({
    kind: Schema.Literal(K.OneResourcePoolUnit, K.TwoResourcePoolUnit, K.MultiResourcePoolUnit),
    pool_address: Schema.String,
    ...redemption
  })
)
export type NativeResourceDetails = typeof NativeResourceDetails.Type

export const TwoWayLinkedDappsCollection = Schema.Struct({
  items: Schema.Array(Schema.Struct({ dapp_address: Schema.String }))
})
export type TwoWayLinkedDappsCollection = typeof TwoWayLinkedDappsCollection.Type

export const TwoWayLinkedEntitiesCollection = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({ entity_address: Schema.String, auto_link_blueprints: opt(Schema.Array(Schema.String)) })
  )
})
export type TwoWayLinkedEntitiesCollection = typeof TwoWayLinkedEntitiesCollection.Type

export const TwoWayLinkedDappOnLedgerDetails = Schema.Struct({
  dapps: opt(TwoWayLinkedDappsCollection),
  entities: opt(TwoWayLinkedEntitiesCollection),
  primary_locker: opt(Schema.String)
})
export type TwoWayLinkedDappOnLedgerDetails = typeof TwoWayLinkedDappOnLedgerDetails.Type

export const RoyaltyAmount = Schema.Struct({ amount: Schema.String, unit: Schema.Literal("XRD", "USD") })
export type RoyaltyAmount = typeof RoyaltyAmount.Type

/** `ComponentRoyaltyConfig` and `BlueprintRoyaltyConfig` (the same shape). */
export const RoyaltyConfig = Schema.Struct({
  is_enabled: Schema.Boolean,
  method_rules: opt(Schema.Array(Schema.Struct({ method_name: Schema.String, royalty_amount: opt(RoyaltyAmount) })))
})
export type RoyaltyConfig = typeof RoyaltyConfig.Type
export const ComponentRoyaltyConfig = RoyaltyConfig
export const BlueprintRoyaltyConfig = RoyaltyConfig

export const PackageCodeCollectionItem = Schema.Struct({
  vm_type: PackageVmType,
  code_hash_hex: Schema.String,
  code_hex: Schema.String
})
export type PackageCodeCollectionItem = typeof PackageCodeCollectionItem.Type

export const PackageBlueprintCollectionItem = Schema.Struct({
  name: Schema.String,
  version: Schema.String,
  definition: JsonObject,
  dependant_entities: opt(Schema.Array(Schema.String)),
  auth_template: opt(JsonObject),
  auth_template_is_locked: opt(Schema.Boolean),
  royalty_config: opt(BlueprintRoyaltyConfig),
  royalty_config_is_locked: opt(Schema.Boolean)
})
export type PackageBlueprintCollectionItem = typeof PackageBlueprintCollectionItem.Type

export const EntitySchemaCollectionItem = Schema.Struct({ schema_hash_hex: Schema.String, schema_hex: Schema.String })
export type EntitySchemaCollectionItem = typeof EntitySchemaCollectionItem.Type

export const StateEntityDetailsResponseFungibleResourceDetails = Schema.Struct({
  type: Schema.Literal("FungibleResource"),
  role_assignments: ComponentEntityRoleAssignments,
  divisibility: Schema.Number,
  total_supply: Schema.String,
  total_minted: Schema.String,
  total_burned: Schema.String,
  two_way_linked_dapps: opt(TwoWayLinkedDappsCollection),
  native_resource_details: opt(NativeResourceDetails)
})

export const StateEntityDetailsResponseNonFungibleResourceDetails = Schema.Struct({
  type: Schema.Literal("NonFungibleResource"),
  role_assignments: ComponentEntityRoleAssignments,
  non_fungible_id_type: NonFungibleIdType,
  total_supply: Schema.String,
  total_minted: Schema.String,
  total_burned: Schema.String,
  non_fungible_data_mutable_fields: Schema.Array(Schema.String),
  two_way_linked_dapps: opt(TwoWayLinkedDappsCollection),
  native_resource_details: opt(NativeResourceDetails)
})

export const StateEntityDetailsResponseFungibleVaultDetails = Schema.Struct({
  type: Schema.Literal("FungibleVault"),
  resource_address: Schema.String,
  balance: FungibleResourcesCollectionItemVaultAggregatedVaultItem
})

export const StateEntityDetailsResponseNonFungibleVaultDetails = Schema.Struct({
  type: Schema.Literal("NonFungibleVault"),
  resource_address: Schema.String,
  balance: NonFungibleResourcesCollectionItemVaultAggregatedVaultItem
})

export const StateEntityDetailsResponsePackageDetails = Schema.Struct({
  type: Schema.Literal("Package"),
  codes: collection(PackageCodeCollectionItem),
  vm_type: PackageVmType,
  code_hash_hex: Schema.String,
  code_hex: Schema.String,
  royalty_vault_balance: opt(Schema.String),
  blueprints: opt(collection(PackageBlueprintCollectionItem)),
  schemas: opt(collection(EntitySchemaCollectionItem)),
  role_assignments: opt(ComponentEntityRoleAssignments),
  two_way_linked_dapp_address: opt(Schema.String)
})

export const StateEntityDetailsResponseComponentDetails = Schema.Struct({
  type: Schema.Literal("Component"),
  package_address: opt(Schema.String),
  blueprint_name: Schema.String,
  blueprint_version: Schema.String,
  state: opt(JsonObject),
  role_assignments: opt(ComponentEntityRoleAssignments),
  royalty_vault_balance: opt(Schema.String),
  royalty_config: opt(ComponentRoyaltyConfig),
  two_way_linked_dapp_address: opt(Schema.String),
  direct_linked_dapp_address: opt(Schema.String),
  blueprint_linked_dapp_address: opt(Schema.String),
  two_way_linked_dapp_details: opt(TwoWayLinkedDappOnLedgerDetails),
  native_resource_details: opt(NativeResourceDetails)
})

export const StateEntityDetailsResponseItemDetails = taggedUnion(
  "type",
  StateEntityDetailsResponseFungibleResourceDetails,
  StateEntityDetailsResponseNonFungibleResourceDetails,
  StateEntityDetailsResponseFungibleVaultDetails,
  StateEntityDetailsResponseNonFungibleVaultDetails,
  StateEntityDetailsResponsePackageDetails,
  StateEntityDetailsResponseComponentDetails
)
export type StateEntityDetailsResponseItemDetails = typeof StateEntityDetailsResponseItemDetails.Type

export const StateEntityDetailsResponseItemAncestorIdentities = Schema.Struct({
  parent_address: opt(Schema.String),
  owner_address: opt(Schema.String),
  global_address: opt(Schema.String)
})

export const StateEntityDetailsResponseItem = Schema.Struct({
  address: Schema.String,
  fungible_resources: opt(FungibleResourcesCollection),
  non_fungible_resources: opt(NonFungibleResourcesCollection),
  ancestor_identities: opt(StateEntityDetailsResponseItemAncestorIdentities),
  metadata: EntityMetadataCollection,
  explicit_metadata: opt(EntityMetadataCollection),
  details: opt(StateEntityDetailsResponseItemDetails)
})
export type StateEntityDetailsResponseItem = typeof StateEntityDetailsResponseItem.Type

export const StateEntityDetailsResponse = Schema.Struct({
  ...WithLedgerState,
  items: Schema.Array(StateEntityDetailsResponseItem)
})
export type StateEntityDetailsResponse = typeof StateEntityDetailsResponse.Type

// ---------------------------------------------------------------------------------------------------------------------
// Entity pages

export const StateEntityMetadataPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  address: Schema.String
})
export type StateEntityMetadataPageRequest = typeof StateEntityMetadataPageRequest.Type
export const StateEntityMetadataPageResponse = pageResponse(EntityMetadataItem, { address: Schema.String })
export type StateEntityMetadataPageResponse = typeof StateEntityMetadataPageResponse.Type

export const StateEntitySchemaPageRequest = StateEntityMetadataPageRequest
export type StateEntitySchemaPageRequest = typeof StateEntitySchemaPageRequest.Type
export const StateEntitySchemaPageResponse = pageResponse(EntitySchemaCollectionItem, { address: Schema.String })
export type StateEntitySchemaPageResponse = typeof StateEntitySchemaPageResponse.Type

export const StateEntityFungiblesPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  address: Schema.String,
  aggregation_level: opt(ResourceAggregationLevel),
  opt_ins: opt(Schema.Struct({ explicit_metadata: opt(Schema.Array(Schema.String)) }))
})
export type StateEntityFungiblesPageRequest = typeof StateEntityFungiblesPageRequest.Type
export const StateEntityFungiblesPageResponse = pageResponse(FungibleResourcesCollectionItem, {
  address: Schema.String
})
export type StateEntityFungiblesPageResponse = typeof StateEntityFungiblesPageResponse.Type

export const StateEntityFungibleResourceVaultsPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  address: Schema.String,
  resource_address: Schema.String
})
export type StateEntityFungibleResourceVaultsPageRequest = typeof StateEntityFungibleResourceVaultsPageRequest.Type
export const StateEntityFungibleResourceVaultsPageResponse = pageResponse(
  FungibleResourcesCollectionItemVaultAggregatedVaultItem,
  { address: Schema.String, resource_address: Schema.String }
)
export type StateEntityFungibleResourceVaultsPageResponse = typeof StateEntityFungibleResourceVaultsPageResponse.Type

export const StateEntityNonFungiblesPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  address: Schema.String,
  aggregation_level: opt(ResourceAggregationLevel),
  opt_ins: opt(
    Schema.Struct({
      non_fungible_include_nfids: opt(Schema.Boolean),
      explicit_metadata: opt(Schema.Array(Schema.String))
    })
  )
})
export type StateEntityNonFungiblesPageRequest = typeof StateEntityNonFungiblesPageRequest.Type
export const StateEntityNonFungiblesPageResponse = pageResponse(NonFungibleResourcesCollectionItem, {
  address: Schema.String
})
export type StateEntityNonFungiblesPageResponse = typeof StateEntityNonFungiblesPageResponse.Type

export const StateEntityNonFungibleResourceVaultsPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  address: Schema.String,
  resource_address: Schema.String,
  opt_ins: opt(Schema.Struct({ non_fungible_include_nfids: opt(Schema.Boolean) }))
})
export type StateEntityNonFungibleResourceVaultsPageRequest =
  typeof StateEntityNonFungibleResourceVaultsPageRequest.Type
export const StateEntityNonFungibleResourceVaultsPageResponse = pageResponse(
  NonFungibleResourcesCollectionItemVaultAggregatedVaultItem,
  { address: Schema.String, resource_address: Schema.String }
)
export type StateEntityNonFungibleResourceVaultsPageResponse =
  typeof StateEntityNonFungibleResourceVaultsPageResponse.Type

export const StateEntityNonFungibleIdsPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  address: Schema.String,
  vault_address: Schema.String,
  resource_address: Schema.String
})
export type StateEntityNonFungibleIdsPageRequest = typeof StateEntityNonFungibleIdsPageRequest.Type
export const StateEntityNonFungibleIdsPageResponse = pageResponse(Schema.String, {
  address: Schema.String,
  resource_address: Schema.String
})
export type StateEntityNonFungibleIdsPageResponse = typeof StateEntityNonFungibleIdsPageResponse.Type

// ---------------------------------------------------------------------------------------------------------------------
// Key-value stores

export const StateKeyValueStoreKeysRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  key_value_store_address: Schema.String
})
export type StateKeyValueStoreKeysRequest = typeof StateKeyValueStoreKeysRequest.Type
export const StateKeyValueStoreKeysResponse = pageResponse(
  Schema.Struct({ key: ScryptoSborValue, last_updated_at_state_version: Schema.Number }),
  { key_value_store_address: Schema.String }
)
export type StateKeyValueStoreKeysResponse = typeof StateKeyValueStoreKeysResponse.Type

export const StateKeyValueStoreDataRequest = Schema.Struct({
  ...AtLedgerState,
  key_value_store_address: Schema.String,
  keys: Schema.Array(Schema.Struct({ key_hex: opt(Schema.String), key_json: opt(ProgrammaticScryptoSborValue) }))
})
export type StateKeyValueStoreDataRequest = typeof StateKeyValueStoreDataRequest.Type
export const StateKeyValueStoreDataResponse = Schema.Struct({
  ...WithLedgerState,
  key_value_store_address: Schema.String,
  entries: Schema.Array(
    Schema.Struct({
      key: ScryptoSborValue,
      value: ScryptoSborValue,
      last_updated_at_state_version: Schema.Number,
      is_locked: Schema.Boolean
    })
  )
})
export type StateKeyValueStoreDataResponse = typeof StateKeyValueStoreDataResponse.Type

// ---------------------------------------------------------------------------------------------------------------------
// Non-fungibles

export const StateNonFungibleIdsRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  resource_address: Schema.String
})
export type StateNonFungibleIdsRequest = typeof StateNonFungibleIdsRequest.Type
export const NonFungibleIdsCollection = collection(Schema.String)
export const StateNonFungibleIdsResponse = Schema.Struct({
  ...WithLedgerState,
  resource_address: Schema.String,
  non_fungible_ids: NonFungibleIdsCollection
})
export type StateNonFungibleIdsResponse = typeof StateNonFungibleIdsResponse.Type

export const StateNonFungibleDataRequest = Schema.Struct({
  ...AtLedgerState,
  resource_address: Schema.String,
  non_fungible_ids: Schema.Array(Schema.String)
})
export type StateNonFungibleDataRequest = typeof StateNonFungibleDataRequest.Type
export const StateNonFungibleDetailsResponseItem = Schema.Struct({
  is_burned: Schema.Boolean,
  non_fungible_id: Schema.String,
  data: opt(ScryptoSborValue),
  last_updated_at_state_version: Schema.Number
})
export type StateNonFungibleDetailsResponseItem = typeof StateNonFungibleDetailsResponseItem.Type
export const StateNonFungibleDataResponse = Schema.Struct({
  ...WithLedgerState,
  resource_address: Schema.String,
  non_fungible_id_type: NonFungibleIdType,
  non_fungible_ids: Schema.Array(StateNonFungibleDetailsResponseItem)
})
export type StateNonFungibleDataResponse = typeof StateNonFungibleDataResponse.Type

export const StateNonFungibleLocationRequest = StateNonFungibleDataRequest
export type StateNonFungibleLocationRequest = typeof StateNonFungibleLocationRequest.Type
export const StateNonFungibleLocationResponseItem = Schema.Struct({
  non_fungible_id: Schema.String,
  owning_vault_address: opt(Schema.String),
  owning_vault_parent_ancestor_address: opt(Schema.String),
  owning_vault_global_ancestor_address: opt(Schema.String),
  is_burned: Schema.Boolean,
  last_updated_at_state_version: Schema.Number
})
export type StateNonFungibleLocationResponseItem = typeof StateNonFungibleLocationResponseItem.Type
export const StateNonFungibleLocationResponse = Schema.Struct({
  ...WithLedgerState,
  resource_address: Schema.String,
  non_fungible_ids: Schema.Array(StateNonFungibleLocationResponseItem)
})
export type StateNonFungibleLocationResponse = typeof StateNonFungibleLocationResponse.Type

// ---------------------------------------------------------------------------------------------------------------------
// Packages

export const StatePackageBlueprintPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  package_address: Schema.String
})
export type StatePackageBlueprintPageRequest = typeof StatePackageBlueprintPageRequest.Type
export const StatePackageBlueprintPageResponse = pageResponse(PackageBlueprintCollectionItem, {
  package_address: Schema.String
})
export type StatePackageBlueprintPageResponse = typeof StatePackageBlueprintPageResponse.Type

export const StatePackageCodePageRequest = StatePackageBlueprintPageRequest
export type StatePackageCodePageRequest = typeof StatePackageCodePageRequest.Type
export const StatePackageCodePageResponse = pageResponse(PackageCodeCollectionItem, {
  package_address: Schema.String
})
export type StatePackageCodePageResponse = typeof StatePackageCodePageResponse.Type

// ---------------------------------------------------------------------------------------------------------------------
// Validators

export const StateValidatorsListRequest = Schema.Struct({ ...AtLedgerState, cursor: opt(Schema.String) })
export type StateValidatorsListRequest = typeof StateValidatorsListRequest.Type

const ValidatorVaultItem = Schema.Struct({
  balance: Schema.String,
  last_changed_at_state_version: Schema.Number,
  address: Schema.String
})
export const ValidatorCollectionItem = Schema.Struct({
  address: Schema.String,
  stake_vault: ValidatorVaultItem,
  pending_xrd_withdraw_vault: ValidatorVaultItem,
  locked_owner_stake_unit_vault: ValidatorVaultItem,
  pending_owner_stake_unit_unlock_vault: ValidatorVaultItem,
  state: opt(Schema.Unknown),
  active_in_epoch: opt(Schema.Struct({ stake: Schema.String, stake_percentage: Schema.Number, key: PublicKey })),
  metadata: EntityMetadataCollection,
  effective_fee_factor: Schema.Struct({
    current: Schema.Struct({ fee_factor: Schema.String }),
    pending: opt(Schema.Struct({ fee_factor: Schema.String, effective_at_epoch: Schema.Number }))
  })
})
export type ValidatorCollectionItem = typeof ValidatorCollectionItem.Type
export const ValidatorCollection = collection(ValidatorCollectionItem)
export type ValidatorCollection = typeof ValidatorCollection.Type
export const StateValidatorsListResponse = Schema.Struct({ ...WithLedgerState, validators: ValidatorCollection })
export type StateValidatorsListResponse = typeof StateValidatorsListResponse.Type

// ---------------------------------------------------------------------------------------------------------------------
// Accounts and lockers

export const StateAccountResourcePreferencesPageRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  account_address: Schema.String
})
export type StateAccountResourcePreferencesPageRequest = typeof StateAccountResourcePreferencesPageRequest.Type
export const StateAccountResourcePreferencesPageResponse = pageResponse(
  Schema.Struct({
    resource_address: Schema.String,
    resource_preference_rule: AccountResourcePreferenceRule,
    last_updated_at_state_version: Schema.Number
  }),
  { account_address: Schema.String }
)
export type StateAccountResourcePreferencesPageResponse = typeof StateAccountResourcePreferencesPageResponse.Type

export const StateAccountAuthorizedDepositorsPageRequest = StateAccountResourcePreferencesPageRequest
export type StateAccountAuthorizedDepositorsPageRequest = typeof StateAccountAuthorizedDepositorsPageRequest.Type
export const AccountAuthorizedDepositorsResponseItem = taggedUnion(
  "badge_type",
  Schema.Struct({
    badge_type: Schema.Literal("ResourceBadge"),
    resource_address: Schema.String,
    last_updated_at_state_version: Schema.Number
  }),
  Schema.Struct({
    badge_type: Schema.Literal("NonFungibleBadge"),
    resource_address: Schema.String,
    non_fungible_id: Schema.String,
    last_updated_at_state_version: Schema.Number
  })
)
export type AccountAuthorizedDepositorsResponseItem = typeof AccountAuthorizedDepositorsResponseItem.Type
export const StateAccountAuthorizedDepositorsPageResponse = pageResponse(AccountAuthorizedDepositorsResponseItem, {
  account_address: Schema.String
})
export type StateAccountAuthorizedDepositorsPageResponse = typeof StateAccountAuthorizedDepositorsPageResponse.Type

export const StateAccountLockerPageVaultsRequest = Schema.Struct({
  ...AtLedgerState,
  ...CursorLimit,
  locker_address: Schema.String,
  account_address: Schema.String
})
export type StateAccountLockerPageVaultsRequest = typeof StateAccountLockerPageVaultsRequest.Type
export const AccountLockerVaultCollectionItem = taggedUnion(
  "type",
  Schema.Struct({
    type: Schema.Literal("Fungible"),
    resource_address: Schema.String,
    vault_address: Schema.String,
    last_updated_at_state_version: Schema.Number,
    amount: Schema.String
  }),
  Schema.Struct({
    type: Schema.Literal("NonFungible"),
    resource_address: Schema.String,
    vault_address: Schema.String,
    last_updated_at_state_version: Schema.Number,
    total_count: Schema.Number
  })
)
export type AccountLockerVaultCollectionItem = typeof AccountLockerVaultCollectionItem.Type
export const StateAccountLockerPageVaultsResponse = pageResponse(AccountLockerVaultCollectionItem, {
  locker_address: Schema.String,
  account_address: Schema.String
})
export type StateAccountLockerPageVaultsResponse = typeof StateAccountLockerPageVaultsResponse.Type

export const StateAccountLockersTouchedAtRequest = Schema.Struct({
  ...AtLedgerState,
  account_lockers: Schema.Array(Schema.Struct({ locker_address: Schema.String, account_address: Schema.String }))
})
export type StateAccountLockersTouchedAtRequest = typeof StateAccountLockersTouchedAtRequest.Type
export const StateAccountLockersTouchedAtResponse = Schema.Struct({
  ...WithLedgerState,
  items: Schema.Array(
    Schema.Struct({
      locker_address: Schema.String,
      account_address: Schema.String,
      last_touched_at_state_version: Schema.Number
    })
  )
})
export type StateAccountLockersTouchedAtResponse = typeof StateAccountLockersTouchedAtResponse.Type
