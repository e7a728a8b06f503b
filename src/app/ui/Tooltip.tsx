import { lazy, Suspense, type ReactNode } from "react"

/** Spec §9: tooltip delay 700 ms, skip delay 300 ms. */
export const TOOLTIP_DELAY_MS = 700
export const TOOLTIP_SKIP_DELAY_MS = 300

export interface TooltipProps {
  readonly content: ReactNode
  readonly children: ReactNode
}

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
