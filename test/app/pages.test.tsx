// @vitest-environment jsdom
import { screen, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { afterEach, describe, expect, it } from "vitest"
import { json, messagesAt, renderApp } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})
const app = async (options: Parameters<typeof renderApp>[0] = {}) => {
  const h = await renderApp(options)
  dispose = () => h.runtime.dispose()
  return h
}
const connected = {
  accounts: [{ address: "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp", label: "Main" }],
  selected: "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp"
}

describe("404", () => {
  it("on the devnet counts down 5 s with a progress bar, then goes home (there is no internet)", async () => {
    const h = await app({ path: "/no/such/page" })
    expect(screen.getByText(/Redirecting to the home page in/)).toBeVisible()
    expect(screen.getByRole("heading", { name: "Page Not Found" })).toBeVisible()
    expect(screen.getByTestId("redirect-seconds")).toHaveTextContent("5")
    const bar = screen.getByRole("progressbar", { name: "Redirect countdown" })
    await h.advance("1 second")
    expect(screen.getByTestId("redirect-seconds")).toHaveTextContent("4")
    expect(bar).toHaveAttribute("aria-valuenow", "1")
    // Radix Progress's markup: the range, the value as a percentage, and the state.
    expect(bar).toHaveAttribute("aria-valuemin", "0")
    expect(bar).toHaveAttribute("aria-valuemax", "5")
    expect(bar).toHaveAttribute("aria-valuetext", "20%")
    expect(bar).toHaveAttribute("data-state", "loading")
    await h.advance("3999 millis")
    expect(h.navigations).toEqual([])
    await h.advance("1 millis")
    expect(screen.getByTestId("redirect-seconds")).toHaveTextContent("0")
    expect(h.navigations).toEqual(["redirect:/"])
  })

  it("goes to the configured target, named by the brand when it is the website", async () => {
    const h = await app({ path: "/gone", env: { VITE_NOT_FOUND_REDIRECT: "https://hswap.app" } })
    expect(screen.getByText(/Redirecting to hSwap in/)).toBeVisible()
    await h.advance("5 seconds")
    expect(h.navigations).toEqual(["redirect:https://hswap.app"])
  })

  it("'Go Back' goes back in history; 'Go Home' goes to / and cancels the redirect", async () => {
    const h = await app({ path: "/nope" })
    await userEvent.click(screen.getByRole("button", { name: "Go Back" }))
    expect(h.navigations).toEqual(["back"])
    await userEvent.click(screen.getByRole("button", { name: "Go Home" }))
    expect(await screen.findByRole("heading", { name: "Exchange Wrapped Assets" })).toBeVisible()
    expect(h.router.state.location.pathname).toBe("/")
    await h.advance("10 seconds")
    expect(h.navigations).toEqual(["back"])
  })
})

describe("airdrop", () => {
  it("shows 'Wallet Required' when claiming without a wallet", async () => {
    await app({ path: "/airdrop" })
    expect(screen.getByRole("heading", { name: "hSwap Airdrop - Season 1" })).toBeVisible()
    const claim = screen.getByRole("button", { name: "Claim GKS Tokens" })
    expect(claim).toHaveAttribute("aria-disabled", "true")
    await userEvent.click(claim)
    const toast = await screen.findByTestId("toast")
    expect(within(toast).getByText("Wallet Required")).toBeVisible()
    expect(within(toast).getByText("Please connect your wallet to claim GKS tokens")).toBeVisible()
  })

  it("simulates a claim: 2 s of 'Claiming...', then 'Claim Successful'", async () => {
    const h = await app({ path: "/airdrop", session: connected })
    expect(screen.getByTestId("airdrop-account")).toHaveTextContent(/^account_\.\.\.rnt3mp$/)
    await userEvent.click(screen.getByRole("button", { name: "Claim GKS Tokens" }))
    expect(screen.getByRole("button", { name: "Claiming..." })).toBeVisible()
    await h.advance("1999 millis")
    expect(screen.queryByText("Claim Successful")).toBeNull()
    await h.advance("1 millis")
    expect(await screen.findByText("Claim Successful")).toBeVisible()
    expect(screen.getByRole("button", { name: "Claim GKS Tokens" })).toBeVisible()
  })
})

describe("hBTC bridge", () => {
  const price =
    (body: unknown, status = 200) =>
    (req: { url: string }) =>
      req.url.endsWith("/api/btcbridge/price") ? json(body, status) : undefined

  it("says 'Connect Wallet' without a wallet, whatever the amount", async () => {
    await app({ path: "/hbtc", route: price({ price: 65000 }) })
    await userEvent.type(screen.getByLabelText("From (BTC)"), "2")
    expect(screen.getByTestId("hbtc-main")).toHaveTextContent("Connect Wallet")
  })

  it("connected: 'Enter Amount', then Import/Export labels; the toggle clears the amount", async () => {
    await app({ path: "/hbtc", session: connected, route: price({ price: 65000 }) })
    const main = screen.getByTestId("hbtc-main")
    expect(main).toHaveTextContent("Enter Amount")
    const input = screen.getByLabelText("From (BTC)")
    await userEvent.type(input, "0.5")
    expect(main).toHaveTextContent("Import 0.5 BTC to Radix")
    expect(screen.getAllByText("≈ $32,500.00")).toHaveLength(2)
    await userEvent.click(screen.getByTestId("hbtc-direction"))
    expect(screen.getByLabelText("From (hBTC)")).toHaveValue("")
    expect(main).toHaveTextContent("Enter Amount")
    expect(screen.getByTestId("hbtc-destination")).toBeVisible()
    await userEvent.type(screen.getByLabelText("From (hBTC)"), "1.2.5")
    expect(screen.getByLabelText("From (hBTC)")).toHaveValue("1.25")
    expect(main).toHaveTextContent("Export 1.25 hBTC to Bitcoin/Lightning")
    await userEvent.click(main)
    const toast = await screen.findByTestId("toast")
    expect(within(toast).getByText("Bridge in Development")).toBeVisible()
    expect(within(toast).getByText("This feature is currently under development. Stay tuned!")).toBeVisible()
  })

  it("shows the price, and re-fetches it every 600,000 ms", async () => {
    const h = await app({ path: "/hbtc", route: price({ price: 64321.5, symbol: "BTC" }) })
    expect(await screen.findByText("$64,321.50")).toBeVisible()
    const fetches = () => h.requests.filter((r) => r.endsWith("/api/btcbridge/price")).length
    // StrictMode mounts twice in development: the first subscription is interrupted at once.
    const atLoad = fetches()
    expect(atLoad).toBeGreaterThanOrEqual(1)
    await h.advance("599999 millis")
    expect(fetches()).toBe(atLoad)
    await h.advance("1 millis")
    expect(fetches()).toBe(atLoad + 1)
  })

  it("shows a loading state, not 'Price unavailable', while the price call has no answer yet", async () => {
    await app({ path: "/hbtc", route: (req) => (req.url.endsWith("/api/btcbridge/price") ? "hang" : undefined) })
    const line = await screen.findByTestId("btc-price")
    expect(line).toHaveTextContent("Loading BTC price...")
    expect(within(line).getByRole("status")).toBeVisible()
    expect(screen.queryByText("Price unavailable")).toBeNull()
  })

  it("shows 'Price unavailable' with the server's message on failure", async () => {
    const h = await app({ path: "/hbtc", route: price({ message: "Price feed down" }, 503) })
    const line = await screen.findByText("Price unavailable")
    expect(line).toHaveAttribute("title", "Price feed down")
    expect(messagesAt(h.logs, "WARN")).toContain("Price feed down")
  })

  it("shows 'Price unavailable' with the default message when the body has none", async () => {
    const h = await app({ path: "/hbtc", route: price("oops", 500) })
    expect(await screen.findByText("Price unavailable")).toHaveAttribute("title", "Failed to fetch Bitcoin price")
    expect(messagesAt(h.logs, "WARN")).toContain("Failed to fetch Bitcoin price")
  })
})

describe("stats", () => {
  it("shows 'Error loading data' when the API fails, and the figures once it answers", async () => {
    let up = false
    const h = await app({
      path: "/stats",
      route: (req) =>
        req.url.endsWith("/api/stats")
          ? up
            ? json({ total_volume: 12345.678, active_users: 42, tvl: "98765.4", total_transactions: 1500 })
            : json({ error: "down" }, 500)
          : undefined
    })
    expect(await screen.findAllByText("Error loading data")).toHaveLength(4)
    up = true
    await h.advance("30 seconds")
    expect(await screen.findByText("$12,345.68")).toBeVisible()
    expect(screen.getByText("42")).toBeVisible()
    expect(screen.getByText("$98,765.4")).toBeVisible()
    expect(screen.getByText("1,500")).toBeVisible()
    // The four labels, word for word (spec §2).
    expect(
      ["Total Volume", "Active Users", "TVL", "Total Transactions"].map(
        (label) => screen.getByTestId(`stat-${label}`).querySelector("p")?.textContent
      )
    ).toEqual(["Total Volume (USD)", "Active Users (unique addresses)", "TVL (USD)", "Total Transactions"])
    expect(screen.getByText("Advanced Analytics")).toBeVisible()
  })

  it("treats a malformed body as an error, not a crash", async () => {
    await app({ path: "/stats", route: (req) => (req.url.endsWith("/api/stats") ? json({ tvl: "lots" }) : undefined) })
    expect(await screen.findAllByText("Error loading data")).toHaveLength(4)
  })
})

describe("informational pages", () => {
  it("bridge: partner cards with Visit and 'Bridge with …' opening new tabs, and our own bridge in development", async () => {
    const h = await app({ path: "/bridge" })
    expect(screen.getByRole("heading", { name: "Cross-Chain Bridge" })).toBeVisible()
    const card = screen.getByTestId("partner-hyperlane-nexus")
    for (const asset of ["hETH", "hWBTC", "hUSDC", "hUSDT"]) expect(within(card).getByText(asset)).toBeVisible()
    await userEvent.click(within(card).getByRole("button", { name: "Visit" }))
    await userEvent.click(within(card).getByRole("button", { name: "Bridge with Hyperlane Nexus" }))
    expect(h.navigations).toEqual(["open:https://nexus.hyperlane.xyz", "open:https://nexus.hyperlane.xyz"])
    expect(within(screen.getByTestId("own-bridge")).getByText("In Development")).toBeVisible()
  })

  it("proof of funds: Details opens the fund account on the dashboard in a new tab", async () => {
    await app({ path: "/proof-of-funds" })
    const details = screen.getByRole("link", { name: "Details" })
    expect(details).toHaveAttribute(
      "href",
      "/devnet/dashboard/account/account_loc1284dmtccz65yyhl94fzulz7zsef466fk2myu2l58tvq8vec9a6wawh"
    )
    expect(details).toHaveAttribute("target", "_blank")
    expect(details).toHaveAttribute("rel", "noopener noreferrer")
    expect(screen.getByText("Radix Account Funds")).toBeVisible()
  })

  it("earn: the spec's figures", async () => {
    await app({ path: "/earn" })
    expect(screen.getByRole("heading", { name: "Earn Rewards" })).toBeVisible()
    for (const text of ["Flexible", "No Lock", "In Development", "Staking features coming soon"])
      expect(screen.getByText(text)).toBeVisible()
  })
})
