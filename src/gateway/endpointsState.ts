/**
 * The state paths' endpoints with their request and response Schemas: what the client's first reads need (an
 * account's resources, metadata). The other groups are in `endpointsOther.ts`, loaded with their first call.
 */
import * as State from "./schemas/state"
import { endpoint } from "./http"

export const StateEndpoints = {
  entityDetails: endpoint(
    "/state/entity/details",
    "stateEntityDetailsRequest",
    State.StateEntityDetailsRequest,
    State.StateEntityDetailsResponse
  ),
  entityMetadataPage: endpoint(
    "/state/entity/page/metadata",
    "stateEntityMetadataPageRequest",
    State.StateEntityMetadataPageRequest,
    State.StateEntityMetadataPageResponse
  ),
  entitySchemaPage: endpoint(
    "/state/entity/page/schemas",
    "stateEntitySchemaPageRequest",
    State.StateEntitySchemaPageRequest,
    State.StateEntitySchemaPageResponse
  ),
  entityFungiblesPage: endpoint(
    "/state/entity/page/fungibles/",
    "stateEntityFungiblesPageRequest",
    State.StateEntityFungiblesPageRequest,
    State.StateEntityFungiblesPageResponse
  ),
  entityFungibleVaultsPage: endpoint(
    "/state/entity/page/fungible-vaults/",
    "stateEntityFungibleResourceVaultsPageRequest",
    State.StateEntityFungibleResourceVaultsPageRequest,
    State.StateEntityFungibleResourceVaultsPageResponse
  ),
  entityNonFungiblesPage: endpoint(
    "/state/entity/page/non-fungibles/",
    "stateEntityNonFungiblesPageRequest",
    State.StateEntityNonFungiblesPageRequest,
    State.StateEntityNonFungiblesPageResponse
  ),
  entityNonFungibleVaultsPage: endpoint(
    "/state/entity/page/non-fungible-vaults/",
    "stateEntityNonFungibleResourceVaultsPageRequest",
    State.StateEntityNonFungibleResourceVaultsPageRequest,
    State.StateEntityNonFungibleResourceVaultsPageResponse
  ),
  entityNonFungibleVaultIdsPage: endpoint(
    "/state/entity/page/non-fungible-vault/ids",
    "stateEntityNonFungibleIdsPageRequest",
    State.StateEntityNonFungibleIdsPageRequest,
    State.StateEntityNonFungibleIdsPageResponse
  ),
  keyValueStoreKeys: endpoint(
    "/state/key-value-store/keys",
    "stateKeyValueStoreKeysRequest",
    State.StateKeyValueStoreKeysRequest,
    State.StateKeyValueStoreKeysResponse
  ),
  keyValueStoreData: endpoint(
    "/state/key-value-store/data",
    "stateKeyValueStoreDataRequest",
    State.StateKeyValueStoreDataRequest,
    State.StateKeyValueStoreDataResponse
  ),
  nonFungibleIds: endpoint(
    "/state/non-fungible/ids",
    "stateNonFungibleIdsRequest",
    State.StateNonFungibleIdsRequest,
    State.StateNonFungibleIdsResponse
  ),
  nonFungibleData: endpoint(
    "/state/non-fungible/data",
    "stateNonFungibleDataRequest",
    State.StateNonFungibleDataRequest,
    State.StateNonFungibleDataResponse
  ),
  nonFungibleLocation: endpoint(
    "/state/non-fungible/location",
    "stateNonFungibleLocationRequest",
    State.StateNonFungibleLocationRequest,
    State.StateNonFungibleLocationResponse
  ),
  packageBlueprintsPage: endpoint(
    "/state/package/page/blueprints",
    "statePackageBlueprintPageRequest",
    State.StatePackageBlueprintPageRequest,
    State.StatePackageBlueprintPageResponse
  ),
  packageCodesPage: endpoint(
    "/state/package/page/codes",
    "statePackageCodePageRequest",
    State.StatePackageCodePageRequest,
    State.StatePackageCodePageResponse
  ),
  validatorsList: endpoint(
    "/state/validators/list",
    "stateValidatorsListRequest",
    State.StateValidatorsListRequest,
    State.StateValidatorsListResponse
  ),
  accountResourcePreferencesPage: endpoint(
    "/state/account/page/resource-preferences",
    "stateAccountResourcePreferencesPageRequest",
    State.StateAccountResourcePreferencesPageRequest,
    State.StateAccountResourcePreferencesPageResponse
  ),
  accountAuthorizedDepositorsPage: endpoint(
    "/state/account/page/authorized-depositors",
    "stateAccountAuthorizedDepositorsPageRequest",
    State.StateAccountAuthorizedDepositorsPageRequest,
    State.StateAccountAuthorizedDepositorsPageResponse
  ),
  accountLockerVaultsPage: endpoint(
    "/state/account-locker/page/vaults",
    "stateAccountLockerPageVaultsRequest",
    State.StateAccountLockerPageVaultsRequest,
    State.StateAccountLockerPageVaultsResponse
  ),
  accountLockersTouchedAt: endpoint(
    "/state/account-lockers/touched-at",
    "stateAccountLockersTouchedAtRequest",
    State.StateAccountLockersTouchedAtRequest,
    State.StateAccountLockersTouchedAtResponse
  )
} as const
