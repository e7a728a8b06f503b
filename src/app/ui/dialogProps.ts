/** The dialog's props, apart from Dialog.tsx so that its lazily loaded panel can name them without importing it. */
import type { ReactNode, RefObject } from "react"

export interface DialogProps {
  readonly open: boolean
  readonly onOpenChange: (open: boolean) => void
  readonly title: ReactNode
  readonly description?: ReactNode
  readonly children?: ReactNode
  readonly testId?: string
  /** Wider panel (up to 2xl) for forms that would otherwise scroll. */
  readonly wide?: boolean
}

export interface DialogPanelProps extends DialogProps {
  /** The control that had focus when the dialog opened; focus goes back to it when the dialog closes. */
  readonly opener: RefObject<HTMLElement | null>
}
