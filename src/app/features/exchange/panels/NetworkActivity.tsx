import { Effect } from "effect"
import { useState } from "react"
import type { TransactionRecord } from "../../../../exchange/api"
import { ExchangeApi } from "../../../../exchange/ExchangeApi"
import { useEffectResult } from "../../../runtime/app-runtime"
import { Card, Spinner } from "../../../ui/kit"
import { ExchangeDetailsDialog } from "../dialogs/ExchangeDetailsDialog"
import { useNow } from "./now"
import { TransactionList } from "./TransactionRow"

/** Spec §2: the last 10 transactions of the exchange. */
export const NETWORK_ACTIVITY_SIZE = 10

/** `GET {api}/api/transactions/latest`, loaded once per mount (spec §7). */
export const latestTransactions = Effect.flatMap(ExchangeApi, (api) => api.latestTransactions).pipe(
  Effect.map((records) => records.slice(0, NETWORK_ACTIVITY_SIZE)),
  Effect.tapError((e) => Effect.logWarning("Failed to load transactions", e))
)

/** 'Network Activity': the exchange's latest swaps, for everyone (spec §2, §6, §8). */
export function NetworkActivity() {
  const result = useEffectResult(latestTransactions, [])
  const now = useNow()
  const [selected, setSelected] = useState<TransactionRecord | undefined>(undefined)
  return (
    <Card testId="network-activity">
      <h2 className="mb-3 text-lg font-semibold">Network Activity</h2>
      {result._tag === "Pending" ? (
        <Spinner label="Loading transactions..." />
      ) : result._tag === "Failure" ? (
        <p role="alert" className="text-sm text-danger">
          Failed to load transactions
        </p>
      ) : result.value.length === 0 ? (
        <p className="text-sm text-muted">No recent transactions</p>
      ) : (
        <TransactionList records={result.value} now={now} onSelect={setSelected} />
      )}
      <ExchangeDetailsDialog record={selected} onClose={() => setSelected(undefined)} />
    </Card>
  )
}
