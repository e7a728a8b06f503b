import { lazy, Suspense, useState, type ReactNode } from "react"

export interface DialogProps {
  readonly open: boolean
  readonly onOpenChange: (open: boolean) => void
  readonly title: ReactNode
  readonly description?: ReactNode
  readonly children?: ReactNode
  readonly testId?: string
}

const DialogPanel = lazy(() => import("./DialogPanel").then((m) => ({ default: m.DialogPanel })))

/**
 * A modal dialog. Radix Dialog and its focus and scroll locks load the first time any dialog opens, not with the page
 * (DESIGN §6: dialogs are lazy); from then on the dialog stays mounted so Radix can play its close transition.
 */
export function Dialog(props: DialogProps) {
  const [opened, setOpened] = useState(props.open)
  if (props.open && !opened) setOpened(true)
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <DialogPanel {...props} />
    </Suspense>
  )
}
