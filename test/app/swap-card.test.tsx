// @vitest-environment jsdom
import { act, screen, waitFor, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { afterEach, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { type FakeRoute, json, renderApp } from "./harness"

const R = DevnetAddresses.resources
const alice = DevnetAddresses.users[0]!
const connected = { accounts: [{ address: alice, label: "Main" }], selected: alice }

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})

const api =
  (overrides: { price?: () => Response; health?: () => Response } = {}): FakeRoute =>
  (req) => {
    const path = new URL(req.url, "http://localhost").pathname
    if (path === "/api/health")
      return (
        overrides.health ??
        (() =>
          json({
            status: "healthy",
            pairs_status: {
              hUSDC: { price_available: true, price_usd: 1 },
              hETH: { price_available: true, price_usd: 3000 }
            }
          }))
      )()
    if (path.startsWith("/api/liveprice/"))
      return (
        overrides.price ??
        (() =>
          json({
            in_symbol: "hETH",
            out_symbol: "hUSDC",
            effective_rate: "2997",
            min_amount_in: "0.0003",
            max_amount_in: "0.066"
          }))
      )()
    if (path === "/api/liquidity")
      return json({
        assets: [
          {
            symbol: "hUSDC",
            resource_address: R.hUSDC,
            amount: "50000",
            amount_usd: 50000,
            allocation_percentage: 60,
            decimals: 6
          }
        ],
        total_usd_value: 50000
      })
    if (path.startsWith("/api/transactions/")) return json({ transactions: [] })
    return undefined
  }

const app = async (options: Parameters<typeof renderApp>[0]) => {
  const h = await renderApp({ path: "/", ...options })
  dispose = () => h.runtime.dispose()
  return h
}
const action = () => screen.getByTestId("swap-action")
/** Puts a whole amount into the field at once (a paste): one input event, whatever the machine's load. */
const enter = async (amount: string) => {
  const input = screen.getByLabelText("Amount to swap")
  await userEvent.clear(input)
  await userEvent.click(input)
  await userEvent.paste(amount)
  await waitFor(() => expect(input).toHaveValue(amount))
}

describe("the swap card", () => {
  it("says 'Connect Wallet' without an account", async () => {
    await app({ route: api() })
    expect(action()).toHaveTextContent("Connect Wallet")
    expect(action()).toHaveAttribute("data-state", "disconnected")
  })

  it("walks from 'Enter Amount to Swap' to an estimate and 'Prepare the exchange' within the balance", async () => {
    const h = await app({ route: api(), session: connected, balances: { [R.hETH]: "1" } })
    expect(action()).toHaveTextContent("Enter Amount to Swap")
    await enter("0.05")
    // The auto-estimate waits for typing to pause (checked every second): within 2 s.
    await h.advance("2 seconds")
    expect(screen.getByTestId("to-amount")).toHaveTextContent("149.750000")
    const panel = screen.getByTestId("rate-panel")
    expect(panel).toHaveTextContent("1 hETH = 2,997 hUSDC")
    expect(panel).toHaveTextContent("< 0.01%")
    expect(panel).toHaveTextContent("0.1% + 0.1 USD")
    expect(panel).toHaveTextContent("148.252500 hUSDC")
    expect(screen.getByTestId("from-usd")).toHaveTextContent("$150.00")
    expect(action()).toHaveTextContent("Prepare the exchange")
  })

  it.each([true, false])(
    "an atomic quote (%s): the card says plainly what the pre-authorisation binds",
    async (atomic) => {
      const quote = (atomic: boolean) => () =>
        json({
          effective_rate: "2997",
          min_amount_in: "0.0003",
          max_amount_in: "0.066",
          quote_id: "qAtomic01.signaturesignature",
          quote_expires_at: 2_000_000_000,
          quote_valid_seconds: 120,
          fee_out: "0.1",
          atomic
        })
      {
        const h = await app({ route: api({ price: quote(atomic) }), session: connected, balances: { [R.hETH]: "1" } })
        await enter("0.05")
        await h.advance("2 seconds")
        await userEvent.click(action())
        await waitFor(() => expect(screen.getByTestId("quote-binding")).toBeVisible())
        if (atomic) {
          expect(screen.getByTestId("atomic-terms")).toHaveTextContent(
            "You send exactly 0.05000000 hETH. You receive at least 149.750000 hUSDC, or nothing moves."
          )
          // The least the ledger would accept is the quoted output, and the details say the same.
          expect(screen.getByTestId("minimum-received")).toHaveTextContent("149.750000 hUSDC")
        } else {
          expect(screen.queryByTestId("atomic-terms")).toBeNull()
          expect(screen.getByTestId("minimum-received")).toHaveTextContent("148.252500 hUSDC")
        }
      }
    }
  )

  it("above the balance says so while typing, before any quote; above the limit too, it gives that one reason", async () => {
    const h = await app({ route: api(), session: connected, balances: { [R.hETH]: "1" } })
    const prices = () => h.requests.filter((r) => r.includes("/api/liveprice/")).length
    // 5 hETH: above the 1 held and above the 200 USD maximum (0.066). No time passes: no quote has been asked for.
    await enter("5")
    expect(prices()).toBe(0)
    // The balance reads as the Balance line does: one rule per token.
    expect(action()).toHaveTextContent(/^Amount exceeds balance \(1\.00000000 hETH\): lower it or press MAX$/)
    expect(screen.getByTestId("from-balance")).toHaveTextContent("Balance: 1.00000000")
    expect(action()).toHaveAttribute("data-state", "err_balance")
    expect(screen.getByLabelText("Amount to swap")).toHaveAttribute("data-exceeds", "true")
    await h.advance("2 seconds")
    // Still the one reason, never the limit's text beside it, and no rate panel for a trade that cannot happen.
    expect(action()).toHaveAttribute("data-state", "err_balance")
    expect(screen.queryByText(/Maximum amount allowed/)).toBeNull()
    expect(screen.queryByTestId("rate-panel")).toBeNull()
    // A press explains with the spec's toast; no quote is prepared.
    await userEvent.click(action())
    expect(await screen.findByText("You have only 1.00000000 hETH in your wallet.")).toBeVisible()
    await h.advance("1 second")
    expect(action()).toHaveAttribute("data-state", "err_balance")
    expect(screen.queryByTestId("quote-binding")).toBeNull()
  })

  it("explains the spread and fee in a tooltip that opens on keyboard focus", async () => {
    // jsdom has no ResizeObserver, which Radix's positioning uses to follow the trigger's size.
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    const h = await app({ route: api(), session: connected, balances: { [R.hETH]: "1" } })
    await enter("0.05")
    await h.advance("2 seconds")
    // The rate panel's tooltip loads its chunk when the panel first renders; the trigger is there meanwhile.
    const trigger = () => within(screen.getByTestId("rate-panel")).getByText("Spread + fee")
    await waitFor(() => expect(trigger()).toHaveAttribute("data-state", "closed"), { timeout: 5000 })
    act(() => trigger().focus())
    const tip = await screen.findByRole("tooltip", {}, { timeout: 5000 })
    expect(tip).toHaveTextContent(
      "A 0.1% spread is included in the rate, and 0.1 USD worth of the received token is deducted from the payout to cover the network fee."
    )
  })

  it("shows the server's limits in the spec's words", async () => {
    const h = await app({ route: api(), session: connected, balances: { [R.hETH]: "2" } })
    await userEvent.type(screen.getByLabelText("Amount to swap"), "0.0001")
    await h.advance("2 seconds")
    // N by the spec's token rules (under 1: 8 decimals).
    await waitFor(() => expect(action()).toHaveTextContent("Minimum amount required 1 USD$ (0.00030000 hETH)"))
    await userEvent.clear(screen.getByLabelText("Amount to swap"))
    await userEvent.type(screen.getByLabelText("Amount to swap"), "1")
    await h.advance("2 seconds")
    await waitFor(() => expect(action()).toHaveTextContent("Maximum amount allowed 200 USD$ (0.06600000 hETH)"))
  })

  it("greys out, with why, the tokens that make no route with the other side; lists each token's balance", async () => {
    await app({ route: api(), session: connected, balances: { [R.hETH]: "1.5", [R.hUSDC]: "4800" } })
    await userEvent.click(screen.getByRole("button", { name: "hUSDC To token" }))
    const dialog = await screen.findByTestId("token-dialog")
    const option = (symbol: string) => within(dialog).getByTestId(`token-option-${symbol}`)
    // From hETH the exchange only goes to hUSDC; choosing hETH itself swaps the pair into hUSDC → hETH.
    expect(option("hBTC")).toBeDisabled()
    expect(option("hBTC")).toHaveAccessibleDescription("No route from hETH")
    expect(option("XRD")).toBeDisabled()
    expect(option("XRD")).toHaveTextContent("No route to XRD on this exchange")
    expect(option("hETH")).toBeEnabled()
    expect(option("hUSDC")).toBeEnabled()
    expect(option("hETH")).toHaveTextContent("1.50000000")
    expect(option("hUSDC")).toHaveTextContent("4800.")
    await userEvent.click(option("hETH"))
    expect(screen.getByRole("button", { name: "hUSDC From token" })).toBeVisible()
    // Now from hUSDC: hBTC pairs; no selectable pair leads to 'Invalid route'.
    await userEvent.click(screen.getByRole("button", { name: "hETH To token" }))
    const again = await screen.findByTestId("token-dialog")
    expect(within(again).getByTestId("token-option-hBTC")).toBeEnabled()
    await userEvent.click(within(again).getByTestId("token-option-hBTC"))
    expect(action()).toHaveTextContent("Enter Amount to Swap")
    await userEvent.click(screen.getByRole("button", { name: "hUSDC From token" }))
    await userEvent.type(
      within(await screen.findByTestId("token-dialog")).getByPlaceholderText("Search tokens..."),
      "zzz"
    )
    expect(screen.getByText("No tokens found")).toBeVisible()
  })

  it("409 shows 'Service Temporarily Unavailable'", async () => {
    await app({ route: api({ health: () => json({ error: "maintenance" }, 409) }) })
    expect(await screen.findByText("Service Temporarily Unavailable")).toBeVisible()
    expect(screen.getByTestId("service-mode-message")).toHaveTextContent(/^Service in maintenance$/)
  })

  it("429 shows 'Rate Limit Reached' and the 10 s toast", async () => {
    await app({ route: api({ health: () => json({ error: "rate" }, 429) }) })
    expect(await screen.findByText("Rate Limit Reached")).toBeVisible()
    expect(screen.getByTestId("service-mode-message")).toHaveTextContent(/^Rate limit exceeded$/)
    expect(screen.getByText("Rate Limit Exceeded")).toBeVisible()
  })

  it("an unreachable price API shows the 'API Unavailable' banner; a later answer clears it", async () => {
    let down = true
    const h = await app({
      session: connected,
      route: (req) => (down && req.url.includes("/api/liveprice/") ? "network-error" : api()(req))
    })
    await userEvent.type(screen.getByLabelText("Amount to swap"), "0.05")
    await h.advance("1 second")
    const banner = screen.getByTestId("api-unavailable")
    expect(banner).toHaveTextContent("API Unavailable")
    expect(banner).toHaveTextContent("Cannot connect to price API")
    down = false
    await userEvent.type(screen.getByLabelText("Amount to swap"), "1")
    await userEvent.clear(screen.getByLabelText("Amount to swap"))
    await userEvent.type(screen.getByLabelText("Amount to swap"), "0.05")
    await h.advance("1 second")
    expect(screen.queryByTestId("api-unavailable")).toBeNull()
  })
})
