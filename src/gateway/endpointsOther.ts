/**
 * The endpoints of every group but state (status, transaction, stream, statistics, extensions) with their request and
 * response Schemas. The client loads this module with the first call of one of them (`Gateway.ts`), so a client that
 * only reads state (the app's first screen) does not fetch their Schemas.
 */
import * as Ext from "./schemas/extensions"
import * as Statistics from "./schemas/statistics"
import * as Status from "./schemas/status"
import * as Stream from "./schemas/stream"
import * as Tx from "./schemas/transaction"
import { bodilessEndpoint, endpoint } from "./http"

export const OtherEndpoints = {
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
