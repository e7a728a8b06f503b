/** Every Gateway path this client speaks (36), with its request and response schemas. */
import * as Ext from "./schemas/extensions.js"
import * as State from "./schemas/state.js"
import * as Statistics from "./schemas/statistics.js"
import * as Status from "./schemas/status.js"
import * as Stream from "./schemas/stream.js"
import * as Tx from "./schemas/transaction.js"
import { bodilessEndpoint, endpoint } from "./http.js"

export const Endpoints = {
  status: {
    gatewayStatus: bodilessEndpoint("/status/gateway-status", Status.GatewayStatusResponse),
    networkConfiguration: bodilessEndpoint("/status/network-configuration", Status.NetworkConfigurationResponse)
  },
  transaction: {
    construction: bodilessEndpoint("/transaction/construction", Tx.TransactionConstructionResponse),
    preview: endpoint(
      "/transaction/preview",
      "transactionPreviewRequest",
      Tx.TransactionPreviewRequest,
      Tx.TransactionPreviewResponse
    ),
    previewV2: endpoint(
      "/transaction/preview-v2",
      "transactionPreviewV2Request",
      Tx.TransactionPreviewV2Request,
      Tx.TransactionPreviewV2Response
    ),
    submit: endpoint(
      "/transaction/submit",
      "transactionSubmitRequest",
      Tx.TransactionSubmitRequest,
      Tx.TransactionSubmitResponse,
      { retry: false }
    ),
    status: endpoint(
      "/transaction/status",
      "transactionStatusRequest",
      Tx.TransactionStatusRequest,
      Tx.TransactionStatusResponse
    ),
    subintentStatus: endpoint(
      "/transaction/subintent-status",
      "transactionSubintentStatusRequest",
      Tx.TransactionSubintentStatusRequest,
      Tx.TransactionSubintentStatusResponse
    ),
    committedDetails: endpoint(
      "/transaction/committed-details",
      "transactionCommittedDetailsRequest",
      Tx.TransactionCommittedDetailsRequest,
      Tx.TransactionCommittedDetailsResponse
    ),
    accountDepositPreValidation: endpoint(
      "/transaction/account-deposit-pre-validation",
      "transactionAccountDepositPreValidationRequest",
      Tx.TransactionAccountDepositPreValidationRequest,
      Tx.TransactionAccountDepositPreValidationResponse
    )
  },
  stream: {
    transactions: endpoint(
      "/stream/transactions",
      "streamTransactionsRequest",
      Stream.StreamTransactionsRequest,
      Stream.StreamTransactionsResponse
    )
  },
  state: {
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
  },
  statistics: {
    validatorsUptime: endpoint(
      "/statistics/validators/uptime",
      "validatorsUptimeRequest",
      Statistics.ValidatorsUptimeRequest,
      Statistics.ValidatorsUptimeResponse
    )
  },
  extensions: {
    resourceHoldersPage: endpoint(
      "/extensions/resource-holders/page",
      "resourceHoldersRequest",
      Ext.ResourceHoldersRequest,
      Ext.ResourceHoldersResponse
    ),
    entitiesByRoleRequirementPage: endpoint(
      "/extensions/entities-by-role-requirement/page",
      "entitiesByRoleRequirementPageRequest",
      Ext.EntitiesByRoleRequirementPageRequest,
      Ext.EntitiesByRoleRequirementPageResponse
    ),
    entitiesByRoleRequirementLookup: endpoint(
      "/extensions/entities-by-role-requirement/lookup",
      "entitiesByRoleRequirementLookupRequest",
      Ext.EntitiesByRoleRequirementLookupRequest,
      Ext.EntitiesByRoleRequirementLookupResponse
    ),
    implicitRequirementsLookup: endpoint(
      "/extensions/implicit-requirements/lookup",
      "implicitRequirementsLookupRequest",
      Ext.ImplicitRequirementsLookupRequest,
      Ext.ImplicitRequirementsLookupResponse
    )
  }
} as const
