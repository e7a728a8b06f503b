import { lazy, Suspense } from "react"

import type { TooltipProps } from "./tooltipProps"

export { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, type TooltipProps } from "./tooltipProps"

const TooltipPanel = lazy(() => import("./TooltipPanel").then((m) => ({ default: m.TooltipPanel })))

/**
 * A tooltip on its trigger (`children`). Radix Tooltip and its positioning engine load when the first tooltip renders
 * (on `/`, when the rate panel appears with a quote), not with the page; until then the trigger shows without it.
 */
export function Tooltip({ content, children }: TooltipProps) {
  return (
    <Suspense fallback={children}>
      <TooltipPanel content={content}>{children}</TooltipPanel>
    </Suspense>
  )
}
