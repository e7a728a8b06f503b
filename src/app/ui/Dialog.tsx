import { Effect } from "effect"
import { lazy, Suspense, useLayoutEffect, useRef, useState } from "react"
import { useEffectResult } from "../runtime/app-runtime"
import { Overlays } from "../services/Overlays"
import type { DialogProps } from "./dialogProps"

export type { DialogPanelProps, DialogProps } from "./dialogProps"

const DialogPanel = lazy(() => import("./DialogPanel").then((m) => ({ default: m.DialogPanel })))

/**
 * A modal dialog. Radix Dialog and its focus and scroll locks load the first time any dialog opens, not with the page
 * (DESIGN §6: dialogs are lazy); from then on the dialog stays mounted so Radix can play its close transition.
 * While open it counts as an overlay (see Overlays), and closing it puts focus back on the control that opened it.
 */
export function Dialog(props: DialogProps) {
  const [opened, setOpened] = useState(props.open)
  if (props.open && !opened) setOpened(true)
  const opener = useRef<HTMLElement | null>(null)
  // Before Radix moves focus into the dialog (its effects run after this layout effect), remember where it was.
  useLayoutEffect(() => {
    if (!props.open) return
    const active = document.activeElement
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null
  }, [props.open])
  useEffectResult(props.open ? Overlays.holdWhileRunning : Effect.void, [props.open])
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <DialogPanel {...props} opener={opener} />
    </Suspense>
  )
}
