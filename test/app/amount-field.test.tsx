// @vitest-environment jsdom
import { act, fireEvent, render } from "@testing-library/react"
import { StrictMode } from "react"
import { hydrateRoot, type Root } from "react-dom/client"
import { renderToString } from "react-dom/server"
import { afterEach, describe, expect, it } from "vitest"
import { useAmountField } from "../../src/app/features/exchange/amountField"
import { initialSwapState, reduce, type SwapState } from "../../src/app/features/exchange/machine/state"
import { REFUSED_SIGN } from "../../src/exchange/amount"

/** The machine's side as the card sees it: its amount and the highest field input it has read. */
interface Machine {
  readonly amount: string
  readonly amountInput: number
}

interface Sent {
  readonly raw: string
  readonly input: number
}

function Field({ machine, sent }: { readonly machine: Machine; readonly sent: Array<Sent> }) {
  const field = useAmountField(machine, (raw, input) => sent.push({ raw, input }))
  return (
    <input
      ref={field.ref}
      aria-label="Amount to swap"
      value={field.value}
      onChange={(e) => field.onChange(e.target.value)}
    />
  )
}

/** A key as a browser types it: the field's text now, plus the key, then the input event. */
const press = (input: HTMLInputElement, keys: string) => {
  for (const key of keys) fireEvent.input(input, { target: { value: input.value + key } })
}

let roots: Array<Root> = []
afterEach(() => {
  for (const root of roots) act(() => root.unmount())
  roots = []
  document.body.replaceChildren()
})

const field = () => document.querySelector("input") as HTMLInputElement

describe("the amount field, whose text the swap machine reads later than the keys arrive", () => {
  it("keeps every key typed faster than the machine reads them, and sends each, numbered, in order", () => {
    const sent: Array<Sent> = []
    const idle: Machine = { amount: "", amountInput: 0 }
    const view = render(
      <StrictMode>
        <Field machine={idle} sent={sent} />
      </StrictMode>
    )
    press(field(), "12345.678901")
    expect(field().value).toBe("12345.678901")
    // The machine's state arrives late, and more than once before it has read everything: nothing is put back.
    view.rerender(
      <StrictMode>
        <Field machine={{ amount: "12", amountInput: sent[1]!.input }} sent={sent} />
      </StrictMode>
    )
    expect(field().value).toBe("12345.678901")
    expect(sent.map((s) => s.raw)).toEqual([...Array(12).keys()].map((i) => "12345.678901".slice(0, i + 1)))
    const numbers = sent.map((s) => s.input)
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
    expect(new Set(numbers).size).toBe(numbers.length)
    // Once the machine has read the last input, the field shows the machine's amount.
    view.rerender(
      <StrictMode>
        <Field machine={{ amount: "12345.678901", amountInput: numbers.at(-1)! }} sent={sent} />
      </StrictMode>
    )
    expect(field().value).toBe("12345.678901")
  })

  it("shows an input read as the machine reads it: a decimal comma as a point, a refused key not at all", () => {
    const sent: Array<Sent> = []
    render(<Field machine={{ amount: "", amountInput: 0 }} sent={sent} />)
    press(field(), "0,5-")
    expect(field().value).toBe("0.5")
    // The refused key still goes to the machine, which says why under the field.
    expect(sent.map((s) => s.raw)).toEqual(["0", "0,", "0.5", "0.5-"])
  })

  it("shows an amount the machine set another way (MAX, a flip) once it has read the field's inputs", () => {
    const sent: Array<Sent> = []
    const view = render(<Field machine={{ amount: "", amountInput: 0 }} sent={sent} />)
    press(field(), "12")
    const last = sent.at(-1)!.input
    // MAX while the machine had not read "12" yet: the field keeps what was typed until it has.
    view.rerender(<Field machine={{ amount: "7.5", amountInput: last - 1 }} sent={sent} />)
    expect(field().value).toBe("12")
    view.rerender(<Field machine={{ amount: "7.5", amountInput: last }} sent={sent} />)
    expect(field().value).toBe("7.5")
    // And with nothing typed since, a later change of the machine's shows at once.
    view.rerender(<Field machine={{ amount: "", amountInput: last }} sent={sent} />)
    expect(field().value).toBe("")
  })

  it("keeps what was typed into the prerendered field, and every key typed after hydration before the machine reads it", async () => {
    const sent: Array<Sent> = []
    const idle: Machine = { amount: "", amountInput: 0 }
    const container = document.createElement("div")
    container.innerHTML = renderToString(<Field machine={idle} sent={[]} />)
    document.body.append(container)
    // Typed into the static markup: nothing listens yet, the DOM keeps the text.
    field().value = "123"
    let root: Root | undefined
    await act(async () => {
      root = hydrateRoot(
        container,
        <StrictMode>
          <Field machine={idle} sent={sent} />
        </StrictMode>
      )
    })
    if (root !== undefined) roots.push(root)
    // The hydrating commit hands the typed text to the machine as one input, once (StrictMode runs effects twice).
    expect(sent.map((s) => s.raw)).toEqual(["123"])
    expect(field().value).toBe("123")
    press(field(), "45")
    expect(field().value).toBe("12345")
    // Renders with the machine's state from before it read anything leave the field alone.
    await act(async () => {
      root?.render(
        <StrictMode>
          <Field machine={{ amount: "", amountInput: 0 }} sent={sent} />
        </StrictMode>
      )
    })
    press(field(), ".6")
    expect(field().value).toBe("12345.6")
    expect(sent.map((s) => s.raw)).toEqual(["123", "1234", "12345", "12345.", "12345.6"])
  })
})

describe("the swap machine's side: which of the field's inputs it has read", () => {
  it("records the highest input read, accepted, refused, unchanged or ignored under a swap", () => {
    const typed = reduce(initialSwapState, { _tag: "AmountChanged", raw: "1", input: 4 })
    expect(typed).toMatchObject({ amount: "1", amountInput: 4 })
    const refused = reduce(typed, { _tag: "AmountChanged", raw: "1-", input: 5 })
    expect(refused).toMatchObject({ amount: "1", amountInput: 5, amountNotice: REFUSED_SIGN })
    expect(reduce(refused, { _tag: "AmountChanged", raw: "1", input: 6 })).toMatchObject({
      amount: "1",
      amountInput: 6,
      amountNotice: undefined
    })
    // Under a swap the amount cannot change, but the field must still learn its input was read.
    const swapping: SwapState = { ...typed, swap: { _tag: "wallet" } }
    expect(reduce(swapping, { _tag: "AmountChanged", raw: "12", input: 7 })).toEqual({ ...swapping, amountInput: 7 })
    // An amount set another way (MAX) leaves the count.
    expect(reduce(typed, { _tag: "AmountChanged", raw: "7.5" })).toMatchObject({ amount: "7.5", amountInput: 4 })
  })

  it("ignores an input that arrives after a later one: the later one holds the whole field", () => {
    // The hydrating commit's input was forked before the runtime was built, and waited for the build; the two keys
    // typed next were forked on the built runtime and were read first.
    const inputs = [
      { raw: "12345.67890", input: 2 },
      { raw: "12345.678901", input: 3 },
      { raw: "12345.6789", input: 1 }
    ]
    const read = inputs.reduce<SwapState>(
      (s, { raw, input }) => reduce(s, { _tag: "AmountChanged", raw, input }),
      initialSwapState
    )
    expect(read).toMatchObject({ amount: "12345.678901", amountInput: 3 })
    expect(reduce(read, { _tag: "AmountChanged", raw: "1", input: 3 })).toBe(read)
  })
})
