/** `/transaction/*` requests and responses, and the committed-transaction shapes shared with `/stream/transactions`. */
import { Schema } from "effect"
import {
  AtLedgerState,
  JsonObject,
  ProgrammaticScryptoSborValue,
  PublicKey,
  WithLedgerState,
  opt,
  taggedUnion
} from "./common"
import {
  AccountDefaultDepositRule,
  AccountResourcePreferenceRule,
  ManifestClass,
  SubintentStatus,
  TransactionFungibleFeeBalanceChangeType,
  TransactionIntentStatus,
  TransactionPayloadGatewayHandlingStatus,
  TransactionPayloadStatus,
  TransactionStatus
} from "./enums"

// ---------------------------------------------------------------------------------------------------------------------
// Opt-ins

export const TransactionDetailsOptIns = Schema.Struct({
  raw_hex: opt(Schema.Boolean),
  receipt_state_changes: opt(Schema.Boolean),
  receipt_fee_summary: opt(Schema.Boolean),
  receipt_fee_source: opt(Schema.Boolean),
  receipt_fee_destination: opt(Schema.Boolean),
  receipt_costing_parameters: opt(Schema.Boolean),
  receipt_events: opt(Schema.Boolean),
  detailed_events: opt(Schema.Boolean),
  receipt_output: opt(Schema.Boolean),
  affected_global_entities: opt(Schema.Boolean),
  manifest_instructions: opt(Schema.Boolean),
  balance_changes: opt(Schema.Boolean)
})
export type TransactionDetailsOptIns = typeof TransactionDetailsOptIns.Type

// ---------------------------------------------------------------------------------------------------------------------
// Committed transaction

/** One of `receipt.detailed_events` (the `detailed_events` opt-in). */
export const DetailedEventsItem = Schema.Struct({
  identifier: Schema.Struct({ package: Schema.String, blueprint: Schema.String, event: Schema.String }),
  payload_type_definition: taggedUnion(
    "kind",
    Schema.Struct({
      kind: Schema.Literal("SchemaLocal"),
      local_type_id: Schema.Number,
      entity: Schema.String,
      schema_hash_hex: Schema.String
    }),
    Schema.Struct({ kind: Schema.Literal("WellKnown"), well_known_type_id: Schema.Number })
  ),
  emitter: taggedUnion(
    "type",
    Schema.Struct({
      type: Schema.Literal("EntityMethod"),
      method_emitter: Schema.Struct({ entity: Schema.String, module: Schema.String }),
      outer_emitter: opt(Schema.String),
      global_emitter: Schema.String
    }),
    Schema.Struct({
      type: Schema.Literal("PackageFunction"),
      function_emitter: Schema.Struct({ blueprint: Schema.String })
    })
  ),
  payload: Schema.Struct({ programmatic_json: JsonObject })
})
export type DetailedEventsItem = typeof DetailedEventsItem.Type

export const TransactionReceipt = Schema.Struct({
  status: opt(TransactionStatus),
  fee_summary: opt(JsonObject),
  costing_parameters: opt(JsonObject),
  fee_destination: opt(JsonObject),
  fee_source: opt(JsonObject),
  state_updates: opt(JsonObject),
  next_epoch: opt(JsonObject),
  output: opt(Schema.Unknown),
  events: opt(
    Schema.Array(Schema.Struct({ name: Schema.String, emitter: JsonObject, data: ProgrammaticScryptoSborValue }))
  ),
  detailed_events: opt(Schema.Array(DetailedEventsItem)),
  error_message: opt(Schema.String)
})
export type TransactionReceipt = typeof TransactionReceipt.Type

export const TransactionFungibleFeeBalanceChanges = Schema.Struct({
  type: TransactionFungibleFeeBalanceChangeType,
  entity_address: Schema.String,
  resource_address: Schema.String,
  balance_change: Schema.String
})
export const TransactionFungibleBalanceChanges = Schema.Struct({
  entity_address: Schema.String,
  resource_address: Schema.String,
  balance_change: Schema.String
})
export const TransactionNonFungibleBalanceChanges = Schema.Struct({
  entity_address: Schema.String,
  resource_address: Schema.String,
  added: Schema.Array(Schema.String),
  removed: Schema.Array(Schema.String)
})
export const TransactionBalanceChanges = Schema.Struct({
  fungible_fee_balance_changes: Schema.Array(TransactionFungibleFeeBalanceChanges),
  fungible_balance_changes: Schema.Array(TransactionFungibleBalanceChanges),
  non_fungible_balance_changes: Schema.Array(TransactionNonFungibleBalanceChanges)
})
export type TransactionBalanceChanges = typeof TransactionBalanceChanges.Type

export const TransactionSubintentDetails = Schema.Struct({
  subintent_hash: Schema.String,
  manifest_instructions: opt(Schema.String),
  message: opt(JsonObject),
  child_subintent_hashes: opt(Schema.Array(Schema.String))
})

export const CommittedTransactionInfo = Schema.Struct({
  state_version: Schema.Number,
  epoch: Schema.Number,
  round: Schema.Number,
  round_timestamp: Schema.String,
  transaction_status: TransactionStatus,
  payload_hash: opt(Schema.String),
  intent_hash: opt(Schema.String),
  fee_paid: opt(Schema.String),
  affected_global_entities: opt(Schema.Array(Schema.String)),
  confirmed_at: opt(Schema.String),
  error_message: opt(Schema.String),
  raw_hex: opt(Schema.String),
  receipt: opt(TransactionReceipt),
  manifest_instructions: opt(Schema.String),
  manifest_classes: opt(Schema.Array(ManifestClass)),
  message: opt(JsonObject),
  balance_changes: opt(TransactionBalanceChanges),
  subintent_details: opt(Schema.Array(TransactionSubintentDetails)),
  child_subintent_hashes: opt(Schema.Array(Schema.String))
})
export type CommittedTransactionInfo = typeof CommittedTransactionInfo.Type

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints

export const TransactionConstructionResponse = Schema.Struct({ ...WithLedgerState })
export type TransactionConstructionResponse = typeof TransactionConstructionResponse.Type

export const TransactionPreviewRequest = Schema.Struct({
  manifest: Schema.String,
  opt_ins: opt(Schema.Struct({ radix_engine_toolkit_receipt: opt(Schema.Boolean) })),
  blobs_hex: opt(Schema.Array(Schema.String)),
  start_epoch_inclusive: opt(Schema.Number),
  end_epoch_exclusive: opt(Schema.Number),
  notary_public_key: opt(PublicKey),
  notary_is_signatory: opt(Schema.Boolean),
  tip_percentage: opt(Schema.Number),
  nonce: opt(Schema.Number),
  signer_public_keys: opt(Schema.Array(PublicKey)),
  message: opt(JsonObject),
  flags: opt(
    Schema.Struct({
      use_free_credit: opt(Schema.Boolean),
      assume_all_signature_proofs: opt(Schema.Boolean),
      skip_epoch_check: opt(Schema.Boolean),
      disable_auth_checks: opt(Schema.Boolean)
    })
  )
})
export type TransactionPreviewRequest = typeof TransactionPreviewRequest.Type

const PreviewLog = Schema.Struct({ level: Schema.String, message: Schema.String })

export const TransactionPreviewResponse = Schema.Struct({
  encoded_receipt: Schema.String,
  radix_engine_toolkit_receipt: opt(JsonObject),
  receipt: JsonObject,
  resource_changes: Schema.Array(JsonObject),
  logs: Schema.Array(PreviewLog)
})
export type TransactionPreviewResponse = typeof TransactionPreviewResponse.Type

/** `PreviewTransaction`, discriminated by `type` (only `Compiled` in v1.10.1). */
export const PreviewTransaction = taggedUnion(
  "type",
  Schema.Struct({ type: Schema.Literal("Compiled"), preview_transaction_hex: Schema.String })
)
export type PreviewTransaction = typeof PreviewTransaction.Type

export const TransactionPreviewV2Request = Schema.Struct({
  preview_transaction: PreviewTransaction,
  flags: opt(
    Schema.Struct({
      use_free_credit: opt(Schema.Boolean),
      assume_all_signature_proofs: opt(Schema.Boolean),
      skip_epoch_check: opt(Schema.Boolean),
      disable_auth_checks: opt(Schema.Boolean)
    })
  ),
  opt_ins: opt(
    Schema.Struct({
      core_api_receipt: opt(Schema.Boolean),
      radix_engine_toolkit_receipt: opt(Schema.Boolean),
      logs: opt(Schema.Boolean)
    })
  )
})
export type TransactionPreviewV2Request = typeof TransactionPreviewV2Request.Type

export const TransactionPreviewV2Response = Schema.Struct({
  at_ledger_state_version: Schema.Number,
  receipt: opt(JsonObject),
  radix_engine_toolkit_receipt: opt(JsonObject),
  logs: opt(Schema.Array(PreviewLog))
})
export type TransactionPreviewV2Response = typeof TransactionPreviewV2Response.Type

export const TransactionSubmitRequest = Schema.Struct({ notarized_transaction_hex: Schema.String })
export type TransactionSubmitRequest = typeof TransactionSubmitRequest.Type
export const TransactionSubmitResponse = Schema.Struct({ duplicate: Schema.Boolean })
export type TransactionSubmitResponse = typeof TransactionSubmitResponse.Type

export const TransactionStatusRequest = Schema.Struct({ intent_hash: Schema.String })
export type TransactionStatusRequest = typeof TransactionStatusRequest.Type

export const TransactionStatusResponseKnownPayloadItem = Schema.Struct({
  payload_hash: Schema.String,
  status: TransactionStatus,
  payload_status: opt(TransactionPayloadStatus),
  payload_status_description: opt(Schema.String),
  error_message: opt(Schema.String),
  latest_error_message: opt(Schema.String),
  handling_status: opt(TransactionPayloadGatewayHandlingStatus),
  handling_status_reason: opt(Schema.String),
  submission_error: opt(Schema.String)
})
export type TransactionStatusResponseKnownPayloadItem = typeof TransactionStatusResponseKnownPayloadItem.Type

export const TransactionStatusResponse = Schema.Struct({
  ...WithLedgerState,
  status: TransactionStatus,
  intent_status: TransactionIntentStatus,
  intent_status_description: Schema.String,
  known_payloads: Schema.Array(TransactionStatusResponseKnownPayloadItem),
  committed_state_version: opt(Schema.Number),
  permanently_rejects_at_epoch: opt(Schema.Number),
  error_message: opt(Schema.String)
})
export type TransactionStatusResponse = typeof TransactionStatusResponse.Type

export const TransactionSubintentStatusRequest = Schema.Struct({ subintent_hash: Schema.String })
export type TransactionSubintentStatusRequest = typeof TransactionSubintentStatusRequest.Type
export const TransactionSubintentStatusResponse = Schema.Struct({
  ...WithLedgerState,
  subintent_status: SubintentStatus,
  subintent_status_description: Schema.String,
  finalized_at_state_version: opt(Schema.Number),
  finalized_at_transaction_intent_hash: opt(Schema.String)
})
export type TransactionSubintentStatusResponse = typeof TransactionSubintentStatusResponse.Type

export const TransactionCommittedDetailsRequest = Schema.Struct({
  ...AtLedgerState,
  intent_hash: Schema.String,
  opt_ins: opt(TransactionDetailsOptIns)
})
export type TransactionCommittedDetailsRequest = typeof TransactionCommittedDetailsRequest.Type
export const TransactionCommittedDetailsResponse = Schema.Struct({
  ...WithLedgerState,
  transaction: CommittedTransactionInfo
})
export type TransactionCommittedDetailsResponse = typeof TransactionCommittedDetailsResponse.Type

export const AccountDepositPreValidationBadge = taggedUnion(
  "badge_type",
  Schema.Struct({ badge_type: Schema.Literal("ResourceBadge"), resource_address: Schema.String }),
  Schema.Struct({
    badge_type: Schema.Literal("NonFungibleBadge"),
    resource_address: Schema.String,
    non_fungible_id: Schema.String
  })
)
export const TransactionAccountDepositPreValidationRequest = Schema.Struct({
  account_address: Schema.String,
  resource_addresses: Schema.Array(Schema.String),
  badge: opt(AccountDepositPreValidationBadge)
})
export type TransactionAccountDepositPreValidationRequest = typeof TransactionAccountDepositPreValidationRequest.Type
export const TransactionAccountDepositPreValidationResponse = Schema.Struct({
  ...WithLedgerState,
  allows_try_deposit_batch: Schema.Boolean,
  resource_specific_behaviour: opt(
    Schema.Array(Schema.Struct({ resource_address: Schema.String, allows_try_deposit: Schema.Boolean }))
  ),
  deciding_factors: Schema.Struct({
    is_badge_authorized_depositor: opt(Schema.Boolean),
    default_deposit_rule: AccountDefaultDepositRule,
    resource_specific_details: opt(
      Schema.Array(
        Schema.Struct({
          resource_address: Schema.String,
          vault_exists: Schema.Boolean,
          is_xrd: Schema.Boolean,
          resource_preference_rule: opt(AccountResourcePreferenceRule)
        })
      )
    )
  })
})
export type TransactionAccountDepositPreValidationResponse = typeof TransactionAccountDepositPreValidationResponse.Type
