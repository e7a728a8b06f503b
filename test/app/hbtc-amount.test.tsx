// @vitest-environment jsdom
import { screen } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { afterEach, describe, expect, it } from "vitest"
import { REFUSED_DECIMAL_SEPARATORS, REFUSED_EXPONENT, REFUSED_SIGN } from "../../src/exchange/amount"
import { json, renderApp } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

const connected = {
  accounts: [{ address: "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp", label: "Main" }],
  selected: "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp"
}

const bridge = async () => {
  const h = await renderApp({
    path: "/hbtc",
    session: connected,
    route: (req) => (req.url.endsWith("/api/btcbridge/price") ? json({ price: 65000 }) : undefined)
  })
  dispose = () => h.runtime.dispose()
  return {
    input: () => screen.getByLabelText(/^From \((BTC|hBTC)\)$/),
    main: () => screen.getByTestId("hbtc-main"),
    refusal: () => screen.getByTestId("hbtc-amount-refusal")
  }
}

/** Selects the whole field and pastes `text` over it, as one edit. */
const pasteOver = async (input: HTMLElement, text: string) => {
  await userEvent.tripleClick(input)
  await userEvent.paste(text)
}

describe("hBTC bridge amount input", () => {
  it("reads a typed decimal comma as a point: '0,5' is 0.5", async () => {
    const page = await bridge()
    await userEvent.type(page.input(), "0,5")
    expect(page.input()).toHaveValue("0.5")
    expect(page.main()).toHaveTextContent("Import 0.5 BTC to Radix")
    expect(screen.getAllByText("≈ $32,500.00")).toHaveLength(2)
    expect(page.refusal()).toBeEmptyDOMElement()
    expect(page.input()).not.toHaveAttribute("aria-describedby")
  })

  it("refuses '1e5' with a reason under the field, keeps the previous value, and clears the reason on the next accepted edit", async () => {
    const page = await bridge()
    await userEvent.type(page.input(), "0,5")
    await pasteOver(page.input(), "1e5")
    expect(page.input()).toHaveValue("0.5")
    expect(page.main()).toHaveTextContent("Import 0.5 BTC to Radix")
    expect(page.refusal()).toHaveTextContent(REFUSED_EXPONENT)
    expect(page.refusal()).toHaveAttribute("aria-live", "polite")
    expect(page.input()).toHaveAccessibleDescription(REFUSED_EXPONENT)
    // A refused key typed at the end leaves the field as it was too.
    await userEvent.type(page.input(), "-")
    expect(page.input()).toHaveValue("0.5")
    expect(page.input()).toHaveAccessibleDescription(REFUSED_SIGN)
    await userEvent.type(page.input(), "1")
    expect(page.input()).toHaveValue("0.51")
    expect(page.main()).toHaveTextContent("Import 0.51 BTC to Radix")
    expect(page.refusal()).toBeEmptyDOMElement()
    expect(page.input()).not.toHaveAttribute("aria-describedby")
  })

  it("reads a pasted formatted number by position, and refuses a second decimal separator typed after the point", async () => {
    const page = await bridge()
    await pasteOver(page.input(), "1 234,5")
    expect(page.input()).toHaveValue("1234.5")
    expect(page.main()).toHaveTextContent("Import 1234.5 BTC to Radix")
    await pasteOver(page.input(), "1.234,56")
    expect(page.input()).toHaveValue("1234.56")
    // Typed key by key, "1,234" shows 1.234 at once; one more "," is a second decimal separator, not a jump to 1234.
    await userEvent.clear(page.input())
    await userEvent.type(page.input(), "1,234,")
    expect(page.input()).toHaveValue("1.234")
    expect(page.input()).toHaveAccessibleDescription(REFUSED_DECIMAL_SEPARATORS)
    expect(page.main()).toHaveTextContent("Import 1.234 BTC to Radix")
  })

  it("switching direction clears the amount and the reason", async () => {
    const page = await bridge()
    await userEvent.type(page.input(), "2+")
    expect(page.input()).toHaveValue("2")
    expect(page.refusal()).toHaveTextContent(REFUSED_SIGN)
    await userEvent.click(screen.getByTestId("hbtc-direction"))
    expect(screen.getByLabelText("From (hBTC)")).toHaveValue("")
    expect(page.refusal()).toBeEmptyDOMElement()
    expect(page.main()).toHaveTextContent("Enter Amount")
  })
})
