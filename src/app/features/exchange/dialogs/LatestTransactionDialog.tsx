import { Effect, Stream } from "effect"
import { useState } from "react"
import type { TransactionRecord } from "../../../../exchange/api"
import { useAppConfig } from "../../../config/useAppConfig"
import { useStream } from "../../../runtime/app-runtime"
import { divisibilityOf, formatTokenAmountFull } from "../../../../exchange/format"
import { CopyButton } from "../../../ui/CopyButton"
import { Dialog } from "../../../ui/Dialog"
import { SwapEvents, type SwapSubmitted } from "../SwapEvents"
import { amountOf, DashboardLink, flowOf } from "../panels/TransactionRow"
import { LiveTransactionCard } from "./TransactionCard"

/** What the dialog knows of the latest swap: what was signed, and the exchange's record when tracking saw one. */
export interface LatestSwap {
  readonly submitted: SwapSubmitted
  readonly record: TransactionRecord | undefined
}

/**
 * Every submitted swap, with the record the swap card's tracking read for its hash (spec §7: up to 3 reads, 5 s
 * apart, until the record appears). The dialog makes no request of its own; a newer swap replaces the one shown.
 */
export const latestSwapStream: Stream.Stream<LatestSwap, never, SwapEvents> = Stream.unwrap(
  Effect.map(SwapEvents, (events) =>
    Stream.map(events.submitted, (submitted): LatestSwap => ({
      submitted,
      record: submitted.seen?.find((r) => r.tx_in === submitted.txHash)
    }))
  )
)

/** What was signed, as a record: pending, to the exchange account, the hash as the deposit transaction. */
export const submittedRecord = (s: SwapSubmitted, exchangeAccount: string): TransactionRecord => ({
  from: s.account,
  to: exchangeAccount,
  asset_in: s.from,
  asset_out: s.to,
  amount_in: s.amountIn,
  tx_in: s.txHash,
  // An atomic swap is known committed when it is published: its one transaction moved both legs.
  ...(s.atomic === undefined
    ? { status: "pending" }
    : { status: "completed", flow: "atomic", tx_out: s.txHash, amount_out: s.atomic.amountOut })
})

/**
 * 'Latest Transaction' (spec §2): opens by itself when a swap is submitted, shows the exchange's record for its hash
 * once there is one, else what was signed with status pending. Closing it keeps it closed until the next swap.
 */
export function LatestTransactionDialog() {
  const config = useAppConfig()
  const latest = useStream(latestSwapStream, undefined)
  const [dismissed, setDismissed] = useState<string | undefined>(undefined)
  const open = latest !== undefined && latest.submitted.txHash !== dismissed
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && latest !== undefined) setDismissed(latest.submitted.txHash)
      }}
      title="Latest Transaction"
      description={
        latest?.submitted.atomic === undefined
          ? "Your swap was signed and sent to the exchange."
          : "Your swap was made in one transaction: you sent and received in it."
      }
      testId="latest-transaction-dialog"
    >
      {latest !== undefined && (
        <div className="space-y-3">
          {latest.record === undefined && (
            <p className="text-sm text-muted" data-testid="latest-transaction-note">
              The exchange has not listed this swap yet. It will appear in Your Transactions shortly.
            </p>
          )}
          <SwapSummary record={latest.record ?? submittedRecord(latest.submitted, config.exchangeAccount)} />
          {/* Addresses, the quote and the exact fields are there for whoever asks. */}
          <details data-testid="latest-transaction-details" className="rounded-lg border border-line px-3 py-2">
            <summary className="cursor-pointer text-sm font-semibold text-muted">Details</summary>
            <LiveTransactionCard record={latest.record ?? submittedRecord(latest.submitted, config.exchangeAccount)} />
          </details>
        </div>
      )}
    </Dialog>
  )
}

/** An amount with every decimal its token has: what a copy button copies. */
const exact = (value: string, symbol: string | undefined) => formatTokenAmountFull(value, divisibilityOf(symbol))

/** What the user cares about first: what was sent, what was (or will be) received, and the transaction's link. */
function SwapSummary({ record }: { readonly record: TransactionRecord }) {
  const received = record.amount_out ?? record.quoted_amount_out
  const paid = record.amount_out !== undefined
  return (
    <dl data-testid="latest-transaction-summary" className="space-y-1 text-sm">
      <div className="flex justify-between gap-3">
        <dt className="text-muted">Sent</dt>
        <dd className="flex flex-wrap items-center justify-end gap-x-2 tabular-nums">
          <span>
            {amountOf(record.amount_in, record.asset_in)} {record.asset_in}
          </span>
          <CopyButton value={exact(record.amount_in, record.asset_in)} label="Copy the exact amount sent" />
        </dd>
      </div>
      <div className="flex justify-between gap-3">
        <dt className="text-muted">{paid ? "Received" : "To receive"}</dt>
        <dd className="flex flex-wrap items-center justify-end gap-x-2 tabular-nums">
          <span>
            {received === undefined ? "…" : `${amountOf(received, record.asset_out)} ${record.asset_out ?? ""}`}
          </span>
          {received !== undefined && (
            <CopyButton
              value={exact(received, record.asset_out)}
              label={paid ? "Copy the exact amount received" : "Copy the exact amount to receive"}
            />
          )}
        </dd>
      </div>
      <div className="flex justify-between gap-3">
        <dt className="text-muted">Status</dt>
        <dd data-testid="latest-transaction-status" className="capitalize">
          {record.status}
        </dd>
      </div>
      <div className="flex justify-between gap-3">
        <dt className="text-muted">Flow</dt>
        <dd data-testid="latest-transaction-flow">
          {flowOf(record) === "atomic" ? "atomic: one transaction, both legs" : "deposit"}
        </dd>
      </div>
      <div className="flex justify-between gap-3">
        <dt className="text-muted">Transaction</dt>
        <dd>
          <DashboardLink kind="transaction" id={record.tx_in} />
        </dd>
      </div>
    </dl>
  )
}
