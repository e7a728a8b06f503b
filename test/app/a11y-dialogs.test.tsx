// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Overlays } from "../../src/app/services/Overlays"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { type FakeRoute, json, renderApp } from "./harness"

const R = DevnetAddresses.resources

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

const asset = (symbol: string, resource_address: string) => ({
  symbol,
  resource_address,
  amount: "1000",
  amount_usd: 1000,
  allocation_percentage: 25,
  decimals: 6
})

/** The exchange lists hUSDT among its assets; the selector must not offer it. */
const api: FakeRoute = (req) => {
  const path = new URL(req.url, "http://localhost").pathname
  if (path === "/api/health") return json({ status: "healthy", pairs_status: {} })
  if (path === "/api/liquidity")
    return json({ assets: [asset("hUSDC", R.hUSDC), asset("hUSDT", R.hUSDT)], total_usd_value: 2000 })
  if (path.startsWith("/api/transactions/")) return json({ transactions: [] })
  return undefined
}

const app = async () => {
  const h = await renderApp({ path: "/", route: api })
  dispose = () => h.runtime.dispose()
  return h
}

describe("the token selector", () => {
  it("offers hUSDC, hETH and hBTC; XRD, which has no route here, is greyed with why; hUSDT is listed as 'Not available'; neither can be picked", async () => {
    await app()
    const from = screen.getByRole("button", { name: "hETH From token" })
    await userEvent.click(from)
    const dialog = await screen.findByTestId("token-dialog")
    await waitFor(() => expect(within(dialog).getByRole("button", { name: /hUSDT/ })).toBeInTheDocument())
    const usdt = within(dialog).getByRole("button", { name: /hUSDT/ })
    expect(usdt).toBeDisabled()
    expect(usdt).toHaveTextContent("Not available")
    for (const symbol of ["hUSDC", "hETH", "hBTC"]) {
      const button = within(dialog).getByRole("button", { name: new RegExp(`^${symbol}`) })
      expect(button).toBeEnabled()
      expect(button).not.toHaveTextContent("Not available")
    }
    // XRD is listed, but the exchange has no route from it: greyed, with the reason under its name.
    const xrd = within(dialog).getByRole("button", { name: /^XRD/ })
    expect(xrd).toBeDisabled()
    expect(xrd).toHaveTextContent("No route from XRD on this exchange")
    expect(xrd).toHaveAccessibleDescription("No route from XRD on this exchange")
    // The available ones come first.
    const order = within(dialog)
      .getAllByRole("button")
      .map((b) => b.getAttribute("data-available"))
      .filter((a) => a !== null)
    expect(order.slice(0, 3)).toEqual(["true", "true", "true"])
    expect(order.slice(3)).not.toContain("true")
    // A press on it picks nothing: the dialog stays, and the from-token is still hETH once it is closed.
    await userEvent.click(usdt)
    expect(screen.getByTestId("token-dialog")).toBeInTheDocument()
    await userEvent.keyboard("{Escape}")
    await waitFor(() => expect(screen.getByRole("button", { name: "hETH From token" })).toBeInTheDocument())
  })
})

describe("dialogs", () => {
  it("Escape closes a dialog opened from the keyboard and gives focus back to its button; open, it counts as an overlay", async () => {
    const h = await app()
    const faq = screen.getByRole("button", { name: "FAQ" })
    faq.focus()
    await userEvent.keyboard("{Enter}")
    const dialog = await screen.findByTestId("faq-dialog")
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement))
    expect(await h.run(Effect.flatMap(Overlays, (o) => o.current))).toBe(1)
    await userEvent.keyboard("{Escape}")
    await waitFor(() => expect(screen.queryByTestId("faq-dialog")).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "FAQ" })))
    await waitFor(async () => expect(await h.run(Effect.flatMap(Overlays, (o) => o.current))).toBe(0))
  })

  it("the token dialog gives focus back to the token button after a pick", async () => {
    await app()
    const from = screen.getByRole("button", { name: "hETH From token" })
    from.focus()
    await userEvent.keyboard("{Enter}")
    const dialog = await screen.findByTestId("token-dialog")
    await userEvent.click(within(dialog).getByRole("button", { name: /^hBTC/ }))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "hBTC From token" })))
  })
})
