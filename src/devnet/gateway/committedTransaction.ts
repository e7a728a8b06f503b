/** `CommittedTransactionInfo` of a committed devnet transaction, shared by `/transaction/*` and `/stream/*`. */
import type { TransactionDetailsOptIns } from "../../gateway/index"
import { formatPlain } from "../../lib/decimalText"
import type { CommittedTransaction } from "../ledger/Ledger"
import { costingParameters, emptyStateUpdates, feeDestination, feeSummary, vaultReference } from "./preview"

/**
 * `CommittedTransactionInfo` by babylon-gateway v1.10.1 `TransactionQuerier.MapSingleTransaction`: the receipt
 * carries `status` and `error_message` always, `next_epoch` when the transaction ended an epoch, `output` unless
 * `receipt_output: false` (it defaults to true), and `fee_summary`, `fee_source`, `fee_destination`,
 * `costing_parameters`, `state_updates`, `events`, `detailed_events` only when opted in; `affected_global_entities`,
 * `raw_hex`, `manifest_instructions` and `balance_changes` are opt-ins too; `payload_hash`, `intent_hash`,
 * `message` and `manifest_classes` belong to user transactions only.
 *
 * The devnet keeps no substates or SBOR events: `state_updates` has empty lists and `events`/`detailed_events`
 * are empty lists. A user transaction's `output` has one entry per instruction (unit, or the bucket it returned).
 */
export const transactionInfo = (tx: CommittedTransaction, optIns: TransactionDetailsOptIns | undefined) => {
  const fee = tx.feePaid
  const receipt = {
    status: tx.status,
    ...(optIns?.receipt_output !== false && tx.kind === "User"
      ? { output: tx.outputs.map((hex) => ({ hex, programmatic_json: null })) }
      : {}),
    ...(optIns?.receipt_fee_summary === true ? { fee_summary: feeSummary(fee) } : {}),
    ...(optIns?.receipt_fee_source === true
      ? {
          fee_source: {
            from_vaults: tx.feeBalanceChanges.map((c) => ({
              vault_entity: vaultReference(c.entity, c.resource),
              xrd_amount: c.change.startsWith("-") ? c.change.slice(1) : c.change
            }))
          }
        }
      : {}),
    ...(optIns?.receipt_fee_destination === true ? { fee_destination: feeDestination(fee) } : {}),
    ...(optIns?.receipt_costing_parameters === true ? { costing_parameters: costingParameters(0) } : {}),
    ...(tx.nextEpoch === undefined
      ? {}
      : { next_epoch: { epoch: tx.nextEpoch, validators: [], significant_protocol_update_readiness: [] } }),
    ...(optIns?.receipt_state_changes === true ? { state_updates: emptyStateUpdates } : {}),
    ...(optIns?.receipt_events === true ? { events: [] } : {}),
    ...(optIns?.detailed_events === true ? { detailed_events: [] } : {}),
    ...(tx.errorMessage === undefined ? {} : { error_message: tx.errorMessage })
  }
  return {
    state_version: tx.stateVersion,
    epoch: tx.epoch,
    round: tx.round,
    round_timestamp: tx.roundTimestamp,
    transaction_status: tx.status,
    ...(tx.payloadHash === undefined ? {} : { payload_hash: tx.payloadHash }),
    ...(tx.intentHash === undefined ? {} : { intent_hash: tx.intentHash }),
    fee_paid: formatPlain(tx.feePaid),
    ...(optIns?.affected_global_entities === true ? { affected_global_entities: tx.affectedGlobalEntities } : {}),
    confirmed_at: tx.roundTimestamp,
    ...(tx.errorMessage === undefined ? {} : { error_message: tx.errorMessage }),
    ...(optIns?.raw_hex === true && tx.rawHex !== undefined ? { raw_hex: tx.rawHex } : {}),
    receipt,
    ...(optIns?.manifest_instructions === true && tx.manifest !== undefined
      ? { manifest_instructions: tx.manifest }
      : {}),
    ...(tx.kind === "User" ? { manifest_classes: tx.manifestClasses } : {}),
    // V2 transactions only (`subintent_details`, `child_subintent_hashes`); a subintent's manifest is an opt-in.
    ...(tx.subintentDetails === undefined
      ? {}
      : {
          subintent_details: tx.subintentDetails.map((d) => ({
            subintent_hash: d.subintentHash,
            ...(optIns?.manifest_instructions === true ? { manifest_instructions: d.manifest } : {}),
            ...(d.message === undefined ? {} : { message: d.message }),
            child_subintent_hashes: d.childSubintentHashes
          }))
        }),
    ...(tx.childSubintentHashes === undefined ? {} : { child_subintent_hashes: tx.childSubintentHashes }),
    ...(tx.message !== undefined ? { message: tx.message } : {}),
    ...(optIns?.balance_changes === true
      ? {
          balance_changes: {
            fungible_fee_balance_changes: tx.feeBalanceChanges.map((c) => ({
              type: "FeePayment",
              entity_address: c.entity,
              resource_address: c.resource,
              balance_change: c.change
            })),
            fungible_balance_changes: tx.balanceChanges.map((c) => ({
              entity_address: c.entity,
              resource_address: c.resource,
              balance_change: c.change
            })),
            non_fungible_balance_changes: []
          }
        }
      : {})
  }
}
