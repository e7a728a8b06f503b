import { ACCEPTED_ROUTES } from "../../../../exchange/swap"
import { Dialog } from "../../../ui/Dialog"

/** The accepted routes (spec §2, §3). */
export function RoutesDialog({
  open,
  onOpenChange
}: {
  readonly open: boolean
  readonly onOpenChange: (open: boolean) => void
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Accepted Routes"
      description="The pairs the exchange swaps. Any other pair is refused."
      testId="routes-dialog"
    >
      <ul className="space-y-2">
        {ACCEPTED_ROUTES.map((r) => (
          <li
            key={`${r.from}-${r.to}`}
            data-testid="accepted-route"
            className="flex items-center gap-3 rounded-lg border border-line bg-panel-2 px-3 py-2 text-sm font-semibold"
          >
            {r.from} → {r.to}
          </li>
        ))}
      </ul>
    </Dialog>
  )
}
