import * as RadixTooltip from "@radix-ui/react-tooltip"
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS, type TooltipProps } from "./tooltipProps"

/**
 * The tooltip itself, on Radix Tooltip, with its own provider (spec §9 delays): loaded by {@link Tooltip} with the
 * first tooltip a page shows.
 */
export function TooltipPanel({ content, children }: TooltipProps) {
  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            sideOffset={6}
            className="z-50 max-w-xs rounded-md border border-line bg-panel-2 px-3 py-2 text-xs text-ink shadow-xl"
          >
            {content}
            <RadixTooltip.Arrow className="fill-panel-2" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  )
}
