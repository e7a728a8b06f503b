import type { TransactionRecord } from "../../../../exchange/api"
import { Dialog } from "../../../ui/Dialog"
import { LiveTransactionCard } from "./TransactionCard"

/** 'Exchange Details': the transaction card of one record; open while `record` is defined. */
export function ExchangeDetailsDialog({
  record,
  onClose
}: {
  readonly record: TransactionRecord | undefined
  readonly onClose: () => void
}) {
  return (
    <Dialog
      open={record !== undefined}
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      title="Exchange Details"
      testId="exchange-details-dialog"
    >
      {record !== undefined && <LiveTransactionCard record={record} />}
    </Dialog>
  )
}
