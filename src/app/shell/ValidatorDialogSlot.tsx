import { Effect, Stream } from "effect"
import { lazy, Suspense, useState } from "react"
import { useStream } from "../runtime/app-runtime"
import { ValidatorSupport } from "../services/ValidatorSupport"

const openStream = Stream.unwrap(Effect.map(ValidatorSupport, (v) => v.open))
const ValidatorDialog = lazy(() => import("./ValidatorDialog").then((m) => ({ default: m.ValidatorDialog })))

/** Loads the dialog's code the first time it opens (by hand or by itself), then keeps it mounted. */
export function ValidatorDialogSlot() {
  const open = useStream(openStream, false)
  const [wanted, setWanted] = useState(false)
  if (open && !wanted) setWanted(true)
  if (!wanted) return null
  return (
    <Suspense fallback={null}>
      <ValidatorDialog />
    </Suspense>
  )
}
