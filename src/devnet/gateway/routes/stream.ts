/** The Stream group: `/stream/transactions` over the ledger's committed transactions. */
import { Effect, Schema } from "effect"
import { TransactionDetailsOptIns } from "../../../gateway/index"
import type { StreamQuery } from "../../ledger/Ledger"
import { transactionInfo } from "../committedTransaction"
import type { EmulatorContext } from "../context"
import { MAX_PAGE_SIZE, MAX_STREAM_FILTERS, type Routes, invalidField } from "../failure"
import {
  Address,
  Paging,
  LedgerStateSelector,
  StreamCursor,
  decodeBody,
  decodeCursor,
  encodeCursor,
  opt
} from "../request"

export const STREAM_PATHS = ["/stream/transactions"] as const

const StreamRequest = Schema.Struct({
  ...Paging,
  from_ledger_state: opt(LedgerStateSelector),
  kind_filter: opt(Schema.Literal("User", "EpochChange", "All")),
  manifest_accounts_withdrawn_from_filter: opt(Schema.Array(Address)),
  manifest_accounts_deposited_into_filter: opt(Schema.Array(Address)),
  manifest_resources_filter: opt(Schema.Array(Address)),
  affected_global_entities_filter: opt(Schema.Array(Address)),
  balance_change_resources_filter: opt(Schema.Array(Address)),
  transaction_status_filter: opt(Schema.Literal("Success", "Failure", "All")),
  order: opt(Schema.Literal("Asc", "Desc")),
  opt_ins: opt(TransactionDetailsOptIns),
  // Filters the devnet cannot evaluate: accepted by the schema, refused with a clear message when non-empty.
  manifest_badges_presented_filter: opt(Schema.Array(Schema.Unknown)),
  events_filter: opt(Schema.Array(Schema.Unknown)),
  accounts_with_manifest_owner_method_calls: opt(Schema.Array(Schema.Unknown)),
  accounts_without_manifest_owner_method_calls: opt(Schema.Array(Schema.Unknown)),
  manifest_class_filter: opt(Schema.Unknown),
  event_global_emitters_filter: opt(Schema.Array(Schema.Unknown))
})

export const streamRoutes = (ctx: EmulatorContext): Routes<typeof STREAM_PATHS> => {
  const { atState, ledger } = ctx

  const streamTransactions = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(StreamRequest, body)
      const unsupported = (
        [
          ["manifest_badges_presented_filter", request.manifest_badges_presented_filter],
          ["events_filter", request.events_filter],
          ["accounts_with_manifest_owner_method_calls", request.accounts_with_manifest_owner_method_calls],
          ["accounts_without_manifest_owner_method_calls", request.accounts_without_manifest_owner_method_calls],
          ["event_global_emitters_filter", request.event_global_emitters_filter]
        ] as const
      ).filter(([, v]) => v !== undefined && v.length > 0)
      if (unsupported.length > 0 || request.manifest_class_filter !== undefined) {
        const names = [
          ...unsupported.map(([n]) => n),
          ...(request.manifest_class_filter === undefined ? [] : ["manifest_class_filter"])
        ]
        return yield* invalidField(names[0] ?? "$", `${names.join(", ")} is not supported by devnet`)
      }
      const withdrawn = request.manifest_accounts_withdrawn_from_filter ?? []
      const deposited = request.manifest_accounts_deposited_into_filter ?? []
      const affected = request.affected_global_entities_filter ?? []
      const resources = [
        ...(request.manifest_resources_filter ?? []),
        ...(request.balance_change_resources_filter ?? [])
      ]
      const filterCount = withdrawn.length + deposited.length + affected.length + resources.length
      if (filterCount > MAX_STREAM_FILTERS) {
        return yield* invalidField("$", `The total number of filter items must be at most ${MAX_STREAM_FILTERS}`)
      }
      if (request.limit_per_page !== undefined && request.limit_per_page <= 0) {
        return yield* invalidField("limit_per_page", "must be greater than 0")
      }
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      let fromStateVersion: number | undefined
      if (request.from_ledger_state !== undefined) {
        const from = yield* atState(request.from_ledger_state)
        fromStateVersion = from.version
      }
      const after = request.cursor === undefined ? undefined : (yield* decodeCursor(StreamCursor, request.cursor)).v
      const query: StreamQuery = {
        atStateVersion: version,
        ...(fromStateVersion === undefined ? {} : { fromStateVersion }),
        ...(after === undefined ? {} : { after }),
        order: request.order ?? "Desc",
        kind: request.kind_filter ?? "User",
        status: request.transaction_status_filter ?? "All",
        withdrawnFrom: withdrawn,
        depositedInto: deposited,
        affected,
        resources,
        limit: Math.min(request.limit_per_page ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE)
      }
      const page = yield* ledger.transactions(query)
      return {
        ledger_state: ledgerState,
        ...(page.next === undefined ? {} : { next_cursor: encodeCursor({ v: page.next }) }),
        items: page.items.map((tx) => transactionInfo(tx, request.opt_ins))
      }
    })

  return { "/stream/transactions": streamTransactions }
}
