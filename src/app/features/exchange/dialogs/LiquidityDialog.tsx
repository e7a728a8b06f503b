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

/** A row as a 2 × 2 grid under 640 px (see the table below); a table row from there up. */
const TWO_LINES = "max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-4"
/**
 * Where each column goes: on a phone, asset and allocation on the first line, amount (under the asset, left) and USD
 * value (under the allocation) on the second; from 640 px up, four columns with room between them.
 */
const AT = {
  asset: "max-sm:col-start-1 max-sm:row-start-1",
  amount: "pl-3 max-sm:col-start-1 max-sm:row-start-2 max-sm:pl-0 max-sm:text-left",
  usd: "pl-3 max-sm:col-start-2 max-sm:row-start-2",
  allocation: "pl-3 max-sm:col-start-2 max-sm:row-start-1"
} as const

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
          {/* Under 640 px each row is two lines, the header row too: asset and allocation, then amount and USD value.
              Four columns side by side ran together on a phone ("USDAllocation"). The roles keep the table a table
              for assistive technology, whatever its display. */}
          <table role="table" className="w-full text-sm max-sm:block">
            <thead role="rowgroup" className="max-sm:block">
              <tr role="row" className={`text-left text-xs text-muted ${TWO_LINES}`}>
                <th role="columnheader" className={`pb-2 font-semibold ${AT.asset}`}>
                  Asset
                </th>
                <th role="columnheader" className={`pb-2 text-right font-semibold ${AT.amount}`}>
                  Amount
                </th>
                <th role="columnheader" className={`pb-2 text-right font-semibold ${AT.usd}`}>
                  USD
                </th>
                <th role="columnheader" className={`pb-2 text-right font-semibold ${AT.allocation}`}>
                  Allocation
                </th>
              </tr>
            </thead>
            <tbody role="rowgroup" className="divide-y divide-line max-sm:block">
              {nativeFirst(result.value.assets, config.tokenResources.XRD).map((a) => {
                const high = a.allocation_percentage >= HIGH_ALLOCATION_PERCENT
                return (
                  <tr
                    key={`${a.symbol}-${a.resource_address}`}
                    role="row"
                    data-testid="liquidity-asset"
                    className={`tabular-nums ${TWO_LINES} max-sm:py-2`}
                  >
                    <td role="cell" className={`min-w-0 py-2 max-sm:py-0 ${AT.asset}`}>
                      {/* A symbol is the exchange's word: a long one is cut to its cell, shown whole on hover. */}
                      <span className="block truncate font-semibold" title={a.symbol}>
                        {a.symbol}
                      </span>
                      {a.native && <span className="block text-xs text-muted">Gas balance</span>}
                    </td>
                    <td role="cell" className={`whitespace-nowrap py-2 text-right max-sm:py-0 ${AT.amount}`}>
                      {formatTokenAmountList(a.amount, liquidityDigits(a.symbol))}
                    </td>
                    <td role="cell" className={`whitespace-nowrap py-2 text-right max-sm:py-0 ${AT.usd}`}>
                      {formatUsd(a.amount_usd)}
                    </td>
                    <td
                      role="cell"
                      data-testid="liquidity-allocation"
                      data-high={high}
                      className={`whitespace-nowrap py-2 text-right max-sm:py-0 ${AT.allocation} ${high ? "font-semibold text-orange-400" : ""}`}
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
