import type { ReactNode } from "react"
import type { TransactionRecord } from "../../../../exchange/api"
import { formatRelativeTime } from "../../../../exchange/format"
import { useNow } from "../panels/now"
import { DashboardLink, flowOf, refundOf, RefundNote, StatusBadge, TransactionMessage } from "../panels/TransactionRow"

/** The fields the card lays out itself; any other field of the record is listed after them as plain text. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  "from",
  "to",
  "asset_in",
  "asset_out",
  "amount_in",
  "amount_out",
  "tx_in",
  "tx_out",
  "status",
  "timestamp_finalized",
  "message",
  "resource_in",
  "resource_out",
  "quote_id",
  "quoted_amount_out",
  "minimum_received",
  "refund_tx"
])

const utc = (epochSeconds: number) => {
  const date = new Date(epochSeconds * 1000)
  return Number.isNaN(date.getTime()) ? undefined : `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`
}

const label = (key: string) => key.replace(/_/g, " ").replace(/^\w/, (c) => c.toUpperCase())

function Field({ name, children }: { readonly name: string; readonly children: ReactNode }) {
  return (
    <div className="grid grid-cols-[7.5rem_1fr] gap-2 py-1.5 text-sm">
      <dt className="text-muted">{name}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  )
}

const amount = (value: string | undefined, symbol: string | undefined) =>
  value === undefined ? "—" : `${value}${symbol === undefined ? "" : ` ${symbol}`}`

/**
 * The transaction card of 'Exchange Details' and 'Latest Transaction': every field of the record, with dashboard
 * links for the accounts and the transactions. Exact amounts (not the list's rounded ones).
 */
export function TransactionCard({
  record,
  now
}: {
  readonly record: TransactionRecord
  /** Effect Clock time in epoch millis, for the relative age. */
  readonly now: number | undefined
}) {
  const finalized = record.timestamp_finalized
  const refund = refundOf(record)
  const flow = flowOf(record)
  const extra = Object.entries(record as Readonly<Record<string, unknown>>).filter(
    ([k, v]) => !KNOWN_FIELDS.has(k) && (typeof v === "string" || typeof v === "number" || typeof v === "boolean")
  )
  return (
    <div data-testid="transaction-card" className="space-y-3">
      <dl className="divide-y divide-line">
        <Field name="Status">
          <StatusBadge status={record.status} />
        </Field>
        <Field name="From">
          <DashboardLink kind="account" id={record.from} full />
        </Field>
        <Field name="To">
          <DashboardLink kind="account" id={record.to} full />
        </Field>
        <Field name="Amount in">
          <span className="tabular-nums">{amount(record.amount_in, record.asset_in)}</span>
        </Field>
        {record.quoted_amount_out !== undefined && (
          <Field name="Quoted">
            <span data-testid="card-quoted" className="tabular-nums">
              {amount(record.quoted_amount_out, refund === undefined ? record.asset_out : undefined)}
            </span>
          </Field>
        )}
        {record.minimum_received !== undefined && refund === undefined && (
          <Field name="Minimum received">
            <span className="tabular-nums">{amount(record.minimum_received, record.asset_out)}</span>
          </Field>
        )}
        <Field name={refund === undefined ? "Amount out" : "Refunded"}>
          <span data-testid="card-amount-out" className="tabular-nums">
            {refund === undefined
              ? amount(record.amount_out, record.asset_out)
              : amount(record.amount_in, record.asset_in)}
          </span>
        </Field>
        <Field name="Flow">
          <span data-testid="card-flow">{flow}</span>
        </Field>
        {/* An atomic swap is one transaction: both legs are in tx_in. */}
        <Field name={flow === "atomic" ? "Transaction" : "Deposit tx"}>
          <DashboardLink kind="transaction" id={record.tx_in} full />
        </Field>
        {flow === "atomic" ? null : refund === undefined ? (
          <Field name="Payout tx">
            {record.tx_out === undefined ? "—" : <DashboardLink kind="transaction" id={record.tx_out} full />}
          </Field>
        ) : (
          <Field name="Refund tx">
            <DashboardLink kind="transaction" id={refund} full />
          </Field>
        )}
        {record.quote_id !== undefined && (
          <Field name="Quote">
            <span className="break-all font-mono text-xs">{record.quote_id}</span>
          </Field>
        )}
        <Field name="Finalized">
          {finalized === undefined ? (
            "Not yet"
          ) : (
            <span>
              {now !== undefined && <span>{formatRelativeTime(finalized, now)} </span>}
              <span className="text-muted">{utc(finalized) ?? String(finalized)}</span>
            </span>
          )}
        </Field>
        {record.resource_in !== undefined && (
          <Field name="Resource in">
            <span className="break-all font-mono text-xs">{record.resource_in}</span>
          </Field>
        )}
        {record.resource_out !== undefined && (
          <Field name="Resource out">
            <span className="break-all font-mono text-xs">{record.resource_out}</span>
          </Field>
        )}
        {extra.map(([k, v]) => (
          <Field key={k} name={label(k)}>
            {String(v)}
          </Field>
        ))}
      </dl>
      <RefundNote record={record} />
      <TransactionMessage message={record.message} />
    </div>
  )
}

/** The card with its own clock reading: the clock only ticks while a dialog shows it. */
export function LiveTransactionCard({ record }: { readonly record: TransactionRecord }) {
  const now = useNow()
  return <TransactionCard record={record} now={now} />
}
