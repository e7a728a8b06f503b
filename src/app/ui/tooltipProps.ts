/** The tooltip's timings and props, apart from Tooltip.tsx so that its lazily loaded panel can use them without importing it. */
import type { ReactNode } from "react"

/** Spec §9: tooltip delay 700 ms, skip delay 300 ms. */
export const TOOLTIP_DELAY_MS = 700
export const TOOLTIP_SKIP_DELAY_MS = 300

export interface TooltipProps {
  readonly content: ReactNode
  readonly children: ReactNode
}
