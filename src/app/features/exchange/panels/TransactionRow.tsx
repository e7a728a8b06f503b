import type { MouseEvent, ReactNode } from "react"
import type { TransactionRecord } from "../../../../exchange/api"
import { divisibilityOf, formatRelativeTime, formatTokenAmount, shortenAddressList } from "../../../../exchange/format"
import { displayableMessage } from "../../../../exchange/swap"
import { dashboardLink } from "../../../config/AppConfig"
import { useAppConfig } from "../../../config/useAppConfig"

/** Spec §2/§4: completed/success green, pending yellow, canceled/failed red, anything else muted. */
export type StatusTone = "success" | "pending" | "failed" | "other"

export const statusTone = (status: string): StatusTone => {
  switch (status.trim().toLowerCase()) {
    case "completed":
    case "success":
      return "success"
    case "pending":
      return "pending"
    case "canceled":
    case "cancelled":
    case "failed":
      return "failed"
    default:
      return "other"
  }
}

export const STATUS_TONE_CLASS: Readonly<Record<StatusTone, string>> = {
  success: "text-green-400 border-green-400/40 bg-green-400/10",
  pending: "text-yellow-400 border-yellow-400/40 bg-yellow-400/10",
  failed: "text-red-400 border-red-400/40 bg-red-400/10",
  other: "text-muted border-line bg-panel-2"
}

/** Spec §2: the note a canceled or failed swap carries. */
export const REFUND_NOTE = "This swap will be refunded on request or automatically within 5 days."

export const needsRefundNote = (status: string) => statusTone(status) === "failed"

export function StatusBadge({ status }: { readonly status: string }) {
  const tone = statusTone(status)
  return (
    <span
      data-testid="transaction-status"
      data-tone={tone}
      className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold uppercase tracking-wide ${STATUS_TONE_CLASS[tone]}`}
    >
      {status}
    </span>
  )
}

/** Links inside a clickable row must not open the row's dialog as well. */
const stop = (e: MouseEvent) => e.stopPropagation()

/** A ledger dashboard link (spec §2): always a new tab, never with an opener. */
export function DashboardLink({
  kind,
  id,
  full = false,
  children
}: {
  readonly kind: "account" | "transaction"
  readonly id: string
  /** Show the whole id instead of 8+8 characters. */
  readonly full?: boolean
  readonly children?: ReactNode
}) {
  const config = useAppConfig()
  return (
    <a
      href={dashboardLink(config, kind, id)}
      target="_blank"
      rel="noopener noreferrer"
      title={id}
      onClick={stop}
      className={`font-mono text-accent hover:underline ${full ? "break-all" : ""}`}
    >
      {children ?? (full ? id : shortenAddressList(id))}
    </a>
  )
}

/** The record's message as plain text, only when it passes the prefix rule (spec §5). */
export function TransactionMessage({ message }: { readonly message: string | undefined | null }) {
  const { brand } = useAppConfig()
  const shown = displayableMessage(message, brand.messagePrefix)
  if (shown === undefined) return null
  return (
    <p data-testid="transaction-message" className="break-words text-xs text-muted">
      {shown}
    </p>
  )
}

/** An amount of a token named by symbol, by that token's display rule. */
export const amountOf = (value: string, symbol: string | undefined) => formatTokenAmount(value, divisibilityOf(symbol))

/** The refund's transaction once the exchange has refunded the deposit. */
export const refundOf = (r: Pick<TransactionRecord, "refund_tx">): string | undefined => r.refund_tx

/**
 * Under a canceled or failed swap: the spec's promise of a refund (§2) while none is made, and once the exchange
 * has refunded, that fact with the refund's link instead of "will be refunded".
 */
export function RefundNote({ record }: { readonly record: TransactionRecord }) {
  const refund = refundOf(record)
  if (refund !== undefined)
    return (
      <p data-testid="refund-note" data-refunded="true" className="text-xs text-muted">
        Refunded: {amountOf(record.amount_in, record.asset_in)} {record.asset_in} went back to your account ·{" "}
        <DashboardLink kind="transaction" id={refund} />
      </p>
    )
  if (!needsRefundNote(record.status)) return null
  return (
    <p data-testid="refund-note" className="text-xs text-red-300">
      {REFUND_NOTE}
    </p>
  )
}

/** What a binding quote promised next to what was paid (nothing when the deposit named no quote). */
export function QuoteLine({ record }: { readonly record: TransactionRecord }) {
  if (record.quoted_amount_out === undefined || refundOf(record) !== undefined) return null
  const symbol = record.asset_out === undefined ? "" : ` ${record.asset_out}`
  return (
    <p data-testid="quote-line" className="text-xs text-muted tabular-nums">
      Quoted {amountOf(record.quoted_amount_out, record.asset_out)}
      {symbol}
      {record.status === "completed" && record.amount_out !== undefined
        ? ` · paid ${amountOf(record.amount_out, record.asset_out)}${symbol}`
        : ""}
    </p>
  )
}

/** "0.5 hETH → 1,234.5 hUSDC"; the output is '…' until the swap has one. */
export const swapSummary = (r: TransactionRecord) =>
  refundOf(r) !== undefined
    ? `${amountOf(r.amount_in, r.asset_in)} ${r.asset_in} → refunded`
    : `${amountOf(r.amount_in, r.asset_in)} ${r.asset_in} → ${
        r.amount_out === undefined ? "…" : amountOf(r.amount_out, r.asset_out)
      }${r.asset_out === undefined ? "" : ` ${r.asset_out}`}`

/** "12s ago" from the Clock's `now`; nothing before the swap is final or before the first clock reading. */
export const relativeTime = (r: TransactionRecord, now: number | undefined) =>
  r.timestamp_finalized === undefined || now === undefined ? undefined : formatRelativeTime(r.timestamp_finalized, now)

/**
 * One swap in 'Your Transactions' or 'Network Activity'. The whole row opens the 'Exchange Details' dialog; the
 * summary is a real button for the keyboard, and the dashboard links keep to themselves.
 */
export function TransactionRow({
  record,
  now,
  onSelect
}: {
  readonly record: TransactionRecord
  /** Effect Clock time in epoch millis (see `useNow`). */
  readonly now: number | undefined
  readonly onSelect: (record: TransactionRecord) => void
}) {
  const age = relativeTime(record, now)
  return (
    <li
      data-testid="transaction-row"
      onClick={() => onSelect(record)}
      className="cursor-pointer space-y-1.5 rounded-xl border border-line bg-panel-2/60 p-3 transition hover:border-accent/50"
    >
      <div className="flex items-start justify-between gap-2">
        <button
          type="button"
          className="text-left text-sm font-semibold tabular-nums hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          {swapSummary(record)}
        </button>
        <StatusBadge status={record.status} />
      </div>
      <div className="flex flex-wrap items-center gap-x-1.5 text-xs text-muted">
        <DashboardLink kind="account" id={record.from} />
        <span aria-hidden>→</span>
        <DashboardLink kind="account" id={record.to} />
        {age !== undefined && (
          <>
            <span aria-hidden>·</span>
            <time data-testid="transaction-age">{age}</time>
          </>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-x-1.5 text-xs text-muted">
        <span>Tx</span>
        <DashboardLink kind="transaction" id={record.tx_in} />
        <span aria-hidden>·</span>
        <span data-testid="transaction-flow">{flowOf(record)}</span>
        {record.tx_out !== undefined && record.tx_out !== record.tx_in && refundOf(record) === undefined && (
          <>
            <span aria-hidden>·</span>
            <span>Payout</span>
            <DashboardLink kind="transaction" id={record.tx_out} />
          </>
        )}
      </div>
      <QuoteLine record={record} />
      <RefundNote record={record} />
      <TransactionMessage message={record.message} />
    </li>
  )
}

/**
 * How the swap settled, as the rows and dialogs say it: `atomic` (the user's pre-authorisation and the payout in one
 * transaction) or `deposit` (the user's deposit, then the exchange's payout).
 */
export const flowOf = (record: Pick<TransactionRecord, "flow">): "atomic" | "deposit" =>
  record.flow === "atomic" ? "atomic" : "deposit"

/** The list both panels share. */
export function TransactionList({
  records,
  now,
  onSelect
}: {
  readonly records: ReadonlyArray<TransactionRecord>
  readonly now: number | undefined
  readonly onSelect: (record: TransactionRecord) => void
}) {
  return (
    <ul className="space-y-2">
      {records.map((r, i) => (
        <TransactionRow key={`${r.tx_in}-${i}`} record={r} now={now} onSelect={onSelect} />
      ))}
    </ul>
  )
}
