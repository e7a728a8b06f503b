/** `/stream/transactions`. */
import { Schema } from "effect"
import { AtLedgerState, CursorLimit, LedgerStateSelector, WithLedgerState, opt } from "./common"
import {
  ManifestClass,
  StreamEventFilterEvent,
  StreamOrder,
  TransactionKindFilter,
  TransactionStatusFilter
} from "./enums"
import { CommittedTransactionInfo, TransactionDetailsOptIns } from "./transaction"

const Addresses = Schema.Array(Schema.String)

export const StreamTransactionsRequest = Schema.Struct({
  ...AtLedgerState,
  from_ledger_state: opt(LedgerStateSelector),
  ...CursorLimit,
  kind_filter: opt(TransactionKindFilter),
  manifest_accounts_withdrawn_from_filter: opt(Addresses),
  manifest_accounts_deposited_into_filter: opt(Addresses),
  manifest_badges_presented_filter: opt(Addresses),
  manifest_resources_filter: opt(Addresses),
  affected_global_entities_filter: opt(Addresses),
  events_filter: opt(
    Schema.Array(
      Schema.Struct({
        event: StreamEventFilterEvent,
        emitter_address: opt(Schema.String),
        resource_address: opt(Schema.String)
      })
    )
  ),
  accounts_with_manifest_owner_method_calls: opt(Addresses),
  accounts_without_manifest_owner_method_calls: opt(Addresses),
  manifest_class_filter: opt(Schema.Struct({ class: ManifestClass, match_only_most_specific: opt(Schema.Boolean) })),
  event_global_emitters_filter: opt(Addresses),
  balance_change_resources_filter: opt(Addresses),
  transaction_status_filter: opt(TransactionStatusFilter),
  order: opt(StreamOrder),
  opt_ins: opt(TransactionDetailsOptIns)
})
export type StreamTransactionsRequest = typeof StreamTransactionsRequest.Type

export const StreamTransactionsResponse = Schema.Struct({
  ...WithLedgerState,
  next_cursor: opt(Schema.String),
  items: Schema.Array(CommittedTransactionInfo)
})
export type StreamTransactionsResponse = typeof StreamTransactionsResponse.Type
