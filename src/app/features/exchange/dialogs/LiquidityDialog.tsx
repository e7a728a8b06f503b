import { Cause, Option } from "effect"
import { useState } from "react"
import { formatPercent, formatTokenAmountList, formatUsd } from "../../../../exchange/format"
import { useAppConfig } from "../../../config/useAppConfig"
import { useEffectResult } from "../../../runtime/app-runtime"
import { Dialog } from "../../../ui/Dialog"
import { Button, Spinner } from "../../../ui/kit"
import {
  HIGH_ALLOCATION_PERCENT,
  liquidityDigits,
  liquidityErrorMessage,
  loadLiquidity,
  nativeFirst
} from "../liquidity"

/** The dialog's body: mounted only while the dialog is open, so it loads on opening (spec §7). */
function LiquidityBody() {
  const config = useAppConfig()
  const [reloads, setReloads] = useState(0)
  const result = useEffectResult(loadLiquidity, [reloads])
  const pending = result._tag === "Pending"
  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Button
          variant="ghost"
          className="px-2 py-1 text-xs"
          disabled={pending}
          aria-busy={pending}
          onClick={() => setReloads((n) => n + 1)}
        >
          Refresh
        </Button>
      </div>
      {result._tag === "Pending" ? (
        <Spinner label="Loading liquidity..." />
      ) : result._tag === "Failure" ? (
        <p role="alert" className="text-sm text-danger">
          {liquidityErrorMessage(Option.getOrUndefined(Cause.failureOption(result.cause)))}
        </p>
      ) : (
        <>
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-xs text-muted">
                <th className="pb-2 font-semibold">Asset</th>
                <th className="pb-2 text-right font-semibold">Amount</th>
                <th className="pb-2 text-right font-semibold">USD</th>
                <th className="pb-2 text-right font-semibold">Allocation</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {nativeFirst(result.value.assets, config.tokenResources.XRD).map((a) => {
                const high = a.allocation_percentage >= HIGH_ALLOCATION_PERCENT
                return (
                  <tr key={`${a.symbol}-${a.resource_address}`} data-testid="liquidity-asset" className="tabular-nums">
                    <td className="py-2">
                      <span className="font-semibold">{a.symbol}</span>
                      {a.native && <span className="block text-xs text-muted">Gas balance</span>}
                    </td>
                    <td className="py-2 text-right">{formatTokenAmountList(a.amount, liquidityDigits(a.symbol))}</td>
                    <td className="py-2 text-right">{formatUsd(a.amount_usd)}</td>
                    <td
                      data-testid="liquidity-allocation"
                      data-high={high}
                      className={`py-2 text-right ${high ? "font-semibold text-orange-400" : ""}`}
                    >
                      {formatPercent(a.allocation_percentage)}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
          <p className="flex justify-between border-t border-line pt-3 text-sm font-semibold">
            <span>Total value</span>
            <span data-testid="liquidity-total" className="tabular-nums">
              {formatUsd(result.value.total_usd_value)}
            </span>
          </p>
        </>
      )}
    </div>
  )
}

/** The exchange's liquidity (spec §2): each asset's amount, USD value and allocation, and the total. */
export function LiquidityDialog({
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
      title="Exchange Liquidity"
      description="The operator's own liquidity that backs every swap."
      testId="liquidity-dialog"
    >
      {open && <LiquidityBody />}
    </Dialog>
  )
}
