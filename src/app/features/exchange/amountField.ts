/**
 * The swap card's amount field, and who owns its text.
 *
 * The swap machine owns the amount, but its state reaches React later than a key does: the machine reads an input in
 * a fiber on the app's sliced scheduler (runtime/scheduler.ts), and its new state comes back through a stream. A
 * controlled input that shows the machine's amount is put back to the machine's last state by React right after
 * every change event and at every render until then, so a key typed in that window was overwritten, and the next
 * key's text (the older value plus that key) became the amount: "12345.678901" typed 20 ms apart arrived as
 * "1345.678901", "12345.8901" or "01". The window is widest while the page comes to life: the machine's stream and
 * fibers start after the hydrating commit, while the live chunk's islands mount, on a slow phone.
 *
 * So the field shows its own text while the machine has not read every input the field sent it, and the machine's
 * amount once it has: each input carries a number, increasing over the page's lifetime, and the machine records the
 * highest it has read, accepted or refused (SwapState.amountInput), and ignores an input that reaches it after a later
 * one (the input the hydrating commit sends can wait for the runtime's build while later keys' inputs are read). The field reads each input as the machine will
 * (`readAmountInput` from the same previous text), so what it shows meanwhile is what the machine will show. An amount
 * set another way (MAX, a flip, the reset after a swap) shows as soon as the machine has read the field's inputs.
 *
 * Before hydration the field is plain markup: what the user typed into it is in the DOM at the first commit, which
 * hands it to the machine as one input (React leaves a hydrated input's text as it is).
 */
import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from "react"
import { readAmountInput } from "../../../exchange/amount"

/** The numbers of the field's inputs: over the page's lifetime, as the machine's is (a card mounted again goes on). */
let lastInput = 0

interface Typed {
  /** What the field shows until the machine has read input `input`. */
  readonly text: string
  /** The number of the field's last input; 0 before the first. */
  readonly input: number
}

export interface AmountField {
  readonly ref: RefObject<HTMLInputElement | null>
  readonly value: string
  /** The field's change handler: its new text. */
  readonly onChange: (raw: string) => void
}

/**
 * `machine`: the machine's amount and the highest field input it has read. `send` hands an input (the field's raw
 * text) and its number to the machine.
 */
export const useAmountField = (
  machine: { readonly amount: string; readonly amountInput: number },
  send: (raw: string, input: number) => void
): AmountField => {
  const ref = useRef<HTMLInputElement>(null)
  const [typed, setTyped] = useState<Typed>({ text: machine.amount, input: 0 })
  const value = typed.input > machine.amountInput ? typed.text : machine.amount
  // What the field shows now, for an input read before React renders again.
  const shown = useRef(value)
  useLayoutEffect(() => {
    shown.current = value
  })
  const sendRef = useRef(send)
  useLayoutEffect(() => {
    sendRef.current = send
  })

  const onChange = useCallback((raw: string) => {
    const read = readAmountInput(raw, shown.current)
    lastInput += 1
    const next: Typed = { text: read._tag === "Accepted" ? read.value : shown.current, input: lastInput }
    shown.current = next.text
    setTyped(next)
    sendRef.current(raw, next.input)
  }, [])

  // What was typed into the prerendered field is the DOM's text at the first commit; once, though StrictMode runs
  // this twice in development (the second run finds the field's text already read, or normalised).
  const adopted = useRef(false)
  useLayoutEffect(() => {
    if (adopted.current) return
    adopted.current = true
    const text = ref.current?.value
    if (text !== undefined && text !== shown.current) onChange(text)
  }, [onChange])

  return { ref, value, onChange }
}
