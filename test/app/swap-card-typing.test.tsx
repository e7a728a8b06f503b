// @vitest-environment jsdom
import { fireEvent, screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { type FakeRoute, json, renderApp } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

/** hETH at $3,000 (the card's USD figure shows which amount the swap machine has); no estimate is asked for here. */
const route: FakeRoute = (req) => {
  const path = new URL(req.url, "http://localhost").pathname
  if (path === "/api/health")
    return json({ status: "healthy", pairs_status: { hETH: { price_available: true, price_usd: 3000 } } })
  if (path.startsWith("/api/transactions/")) return json({ transactions: [] })
  return undefined
}

/**
 * Keys as a browser types them, one after another in one go: the field's text now plus the key, then the input event.
 * The swap machine's fibers run after them (on the runtime's scheduler), as on a slow phone they run after a burst.
 */
const press = (input: HTMLInputElement, keys: string) => {
  for (const key of keys) fireEvent.input(input, { target: { value: input.value + key } })
}

describe("typing into the swap card's amount field", () => {
  it("keeps every key typed before the swap machine has read the ones before it, and the machine gets the amount", async () => {
    const h = await renderApp({ path: "/", route })
    dispose = () => h.runtime.dispose()
    const input = screen.getByLabelText<HTMLInputElement>("Amount to swap")
    press(input, "12.5")
    expect(input).toHaveValue("12.5")
    await h.advance("1 second")
    expect(input).toHaveValue("12.5")
    expect(screen.getByTestId("from-usd")).toHaveTextContent("≈ $37,500.00")
    // More keys, a refused one among them, then a deletion, in one burst again.
    press(input, "-0")
    fireEvent.input(input, { target: { value: "12.5" } })
    press(input, "7")
    expect(input).toHaveValue("12.57")
    await h.advance("1 second")
    expect(input).toHaveValue("12.57")
    expect(screen.getByTestId("from-usd")).toHaveTextContent("≈ $37,710.00")
  })
})
