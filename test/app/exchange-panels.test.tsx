// @vitest-environment jsdom
import type { HttpClientRequest } from "@effect/platform"
import { cleanup, screen, waitFor, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { Effect } from "effect"
import type { ReactNode } from "react"
import { afterEach, describe, expect, it } from "vitest"
import type { TransactionRecord } from "../../src/exchange/api"
import { shortenAddressList } from "../../src/exchange/format"
import { SwapEvents, type SwapSubmitted } from "../../src/app/features/exchange/SwapEvents"
import { NetworkActivity } from "../../src/app/features/exchange/panels/NetworkActivity"
import { useNow } from "../../src/app/features/exchange/panels/now"
import { REFUND_NOTE, TransactionList, TransactionRow } from "../../src/app/features/exchange/panels/TransactionRow"
import { YourTransactions } from "../../src/app/features/exchange/panels/YourTransactions"
import { WalletSession } from "../../src/app/services/WalletSession"
import { ExchangeDetailsDialog } from "../../src/app/features/exchange/dialogs/ExchangeDetailsDialog"
import { FaqDialog } from "../../src/app/features/exchange/dialogs/FaqDialog"
import { LatestTransactionDialog } from "../../src/app/features/exchange/dialogs/LatestTransactionDialog"
import { LiquidityDialog } from "../../src/app/features/exchange/dialogs/LiquidityDialog"
import { RoutesDialog } from "../../src/app/features/exchange/dialogs/RoutesDialog"
import { BenefitsCard } from "../../src/app/features/exchange/panels/BenefitsCard"
import { liquidityOf, liquidityStream } from "../../src/app/features/exchange/liquidity"
import { useStream } from "../../src/app/runtime/app-runtime"
import { Loading } from "../../src/app/runtime/remote"
import type { LiquidityResponse } from "../../src/exchange/api"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { useState } from "react"
import { type HarnessOptions, json, messagesAt, renderWithServices } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})
const mount = async (ui: ReactNode, options: HarnessOptions = {}) => {
  // A second mount in one test replaces the first.
  cleanup()
  await dispose?.()
  const h = await renderWithServices(ui, options)
  dispose = () => h.runtime.dispose()
  return h
}

const A1 = "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp"
const A2 = "account_loc12yy6wjxu0vu5kmxh8hh0k5h4pmc4nmcy3uqjy0qzhxvdzxrl4ywpdg"
const EXCHANGE = "account_loc1cyzfj6p254jy6lhr237s7pcp8qqz6c8ahq9mn6nkdjxxxat5syrgz9"
const connected = (selected: string | undefined = A1) => ({
  accounts: [
    { address: A1, label: "Main" },
    { address: A2, label: "Savings" }
  ],
  selected
})

/**
 * The TestClock starts at the epoch; tests that show ages move it to T0 first (moving a clock that services already
 * sleep on by decades would wake their timers billions of times).
 */
const T0 = 100_000
const PREFIX = "hswap.app"

const record = (overrides: Partial<TransactionRecord> = {}): TransactionRecord => ({
  from: A1,
  to: EXCHANGE,
  asset_in: "hETH",
  asset_out: "hUSDC",
  amount_in: "0.5",
  amount_out: "1234.5",
  tx_in: "txid_loc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq01",
  tx_out: "txid_loc1pppppppppppppppppppppppppppppppppppppppppppppppppppp01",
  status: "completed",
  timestamp_finalized: T0 / 1000 - 42,
  message: `${PREFIX} | Radix | hETH -> hUSDC`,
  ...overrides
})

const noop = () => undefined
const rows = () => screen.queryAllByTestId("transaction-row")

/** Routes `GET /api/transactions/{key}` to `answer(key)`. */
const transactionsRoute =
  (answer: (key: string) => Response | undefined) =>
  (req: HttpClientRequest.HttpClientRequest): Response | undefined => {
    const m = /\/api\/transactions\/([^/?]+)$/.exec(req.url)
    return m === null ? undefined : answer(decodeURIComponent(m[1]!))
  }

/** A 200 whose body never arrives: the call stays in flight. */
const never = () => new Response(new ReadableStream({ start: () => undefined }), { status: 200 })

describe("TransactionRow", () => {
  it("colours the status: completed/success green, pending yellow, canceled/failed red, other muted", async () => {
    const statuses = ["completed", "success", "pending", "canceled", "failed", "refunding?"]
    await mount(
      <TransactionList
        records={statuses.map((status, i) => record({ status, tx_in: `txid_${i}` }))}
        now={T0}
        onSelect={noop}
      />
    )
    const badges = screen.getAllByTestId("transaction-status")
    expect(badges.map((b) => [b.textContent, b.dataset.tone])).toEqual([
      ["completed", "success"],
      ["success", "success"],
      ["pending", "pending"],
      ["canceled", "failed"],
      ["failed", "failed"],
      ["refunding?", "other"]
    ])
    const colour = (i: number) => badges[i]!.className
    expect(colour(0)).toContain("text-green-400")
    expect(colour(1)).toContain("text-green-400")
    expect(colour(2)).toContain("text-yellow-400")
    expect(colour(3)).toContain("text-red-400")
    expect(colour(4)).toContain("text-red-400")
    expect(colour(5)).toContain("text-muted")
    expect(colour(5)).not.toMatch(/green|yellow|red/)
  })

  it("links accounts and transactions to the dashboard in a new tab, addresses 8+8, amounts formatted", async () => {
    const h = await mount(<TransactionList records={[record()]} now={T0} onSelect={noop} />)
    const row = rows()[0]!
    const links = within(row).getAllByRole("link")
    const dash = h.config.dashboardUrl
    expect(links.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      [shortenAddressList(A1), `${dash}/account/${A1}`],
      [shortenAddressList(EXCHANGE), `${dash}/account/${EXCHANGE}`],
      [shortenAddressList(record().tx_in), `${dash}/transaction/${record().tx_in}`],
      [shortenAddressList(record().tx_out!), `${dash}/transaction/${record().tx_out}`]
    ])
    for (const a of links) {
      expect(a).toHaveAttribute("target", "_blank")
      expect(a).toHaveAttribute("rel", "noopener noreferrer")
    }
    expect(links[0]!.textContent).toBe("account_...wyrnt3mp")
    expect(links[0]!.textContent).toHaveLength(19)
    expect(row).toHaveTextContent("0.50000000 hETH → 1.2345K hUSDC")
  })

  it("shows the age relative to Effect's Clock (s, m, h, d ago), and follows the clock", async () => {
    const Live = ({ r }: { readonly r: TransactionRecord }) => (
      <ul>
        <TransactionRow record={r} now={useNow()} onSelect={noop} />
      </ul>
    )
    const h = await mount(
      <>
        <Live r={record()} />
        <Live r={record({ timestamp_finalized: T0 / 1000 - 2 * 3600 - 59 })} />
        <Live r={record({ timestamp_finalized: T0 / 1000 - 3 * 86_400 - 1 })} />
      </>
    )
    const ages = () => screen.getAllByTestId("transaction-age").map((t) => t.textContent)
    // At the epoch the first one is in the future: "0s ago", never a negative age.
    expect(ages()).toEqual(["0s ago", "1h ago", "2d ago"])
    await h.advance(`${T0} millis`)
    expect(ages()).toEqual(["42s ago", "2h ago", "3d ago"])
    await h.advance("15 seconds")
    expect(ages()).toEqual(["57s ago", "2h ago", "3d ago"])
    await h.advance("5 seconds")
    expect(ages()).toEqual(["1m ago", "2h ago", "3d ago"])
  })

  it("has no age before the swap is final, and '…' for a missing output", async () => {
    await mount(
      <TransactionList
        records={[
          record({ status: "pending", timestamp_finalized: undefined, amount_out: undefined, tx_out: undefined })
        ]}
        now={T0}
        onSelect={noop}
      />
    )
    expect(screen.queryByTestId("transaction-age")).toBeNull()
    expect(rows()[0]).toHaveTextContent("0.50000000 hETH → … hUSDC")
    expect(within(rows()[0]!).getAllByRole("link")).toHaveLength(3)
  })

  it("carries the refund note on canceled and failed rows only, as a sentence", async () => {
    const statuses = ["completed", "pending", "canceled", "failed", "other"]
    await mount(
      <TransactionList
        records={statuses.map((status, i) => record({ status, tx_in: `txid_${i}` }))}
        now={T0}
        onSelect={noop}
      />
    )
    expect(REFUND_NOTE).toMatch(/^[A-Z].*will be refunded on request or automatically within 5 days\.$/)
    expect(rows().map((r) => within(r).queryByTestId("refund-note")?.textContent ?? null)).toEqual([
      null,
      null,
      REFUND_NOTE,
      REFUND_NOTE,
      null
    ])
  })

  it("a refunded row says so with the refund's link instead of 'will be refunded', and never calls it a payout", async () => {
    const refund = "txid_loc1rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr01"
    const h = await mount(
      <TransactionList
        records={[
          record({ status: "canceled", tx_out: refund, refund_tx: refund, amount_out: "0.5", asset_out: "hETH" })
        ]}
        now={T0}
        onSelect={noop}
      />
    )
    const row = rows()[0]!
    const note = within(row).getByTestId("refund-note")
    expect(note).toHaveAttribute("data-refunded", "true")
    expect(note).toHaveTextContent("Refunded: 0.50000000 hETH went back to your account")
    expect(note).not.toHaveTextContent("will be refunded")
    expect(within(note).getByRole("link")).toHaveAttribute("href", `${h.config.dashboardUrl}/transaction/${refund}`)
    expect(row).toHaveTextContent("0.50000000 hETH → refunded")
    expect(row).not.toHaveTextContent("Payout")
  })

  it("shows what a binding quote promised next to what was paid", async () => {
    await mount(
      <TransactionList
        records={[
          record({ quote_id: "qAbCdEf123.XyZ987654", quoted_amount_out: "1234.5", amount_out: "1234.5" }),
          record({ tx_in: "txid_2", status: "pending", quoted_amount_out: "99.25", amount_out: undefined }),
          record({ tx_in: "txid_3" })
        ]}
        now={T0}
        onSelect={noop}
      />
    )
    expect(rows().map((r) => within(r).queryByTestId("quote-line")?.textContent ?? null)).toEqual([
      "Quoted 1.2345K hUSDC · paid 1.2345K hUSDC",
      "Quoted 99.250000 hUSDC",
      null
    ])
  })

  it("shows a message only under the prefix rule, always as plain text", async () => {
    const messages = [
      `${PREFIX} | Radix | hETH -> hUSDC`,
      `<img src=x onerror="alert(1)">`,
      `${PREFIX} <img src=x onerror=alert(1)>`,
      `javascript:alert(1)`,
      `javascript:${PREFIX} | Radix`,
      `<a href="javascript:alert(1)">${PREFIX}</a>`,
      `Visit evil.example | Radix`,
      undefined
    ]
    const { container } = await mount(
      <TransactionList
        records={messages.map((message, i) => record({ message, tx_in: `txid_${i}` }))}
        now={T0}
        onSelect={noop}
      />
    )
    const shown = rows().map((r) => within(r).queryByTestId("transaction-message")?.textContent ?? null)
    expect(shown).toEqual([
      `${PREFIX} | Radix | hETH -> hUSDC`,
      null,
      `${PREFIX} <img src=x onerror=alert(1)>`,
      null,
      `javascript:${PREFIX} | Radix`,
      null,
      null,
      null
    ])
    expect(container.ownerDocument.querySelector("img")).toBeNull()
    expect(container.ownerDocument.querySelector('a[href^="javascript"], [onerror]')).toBeNull()
    for (const a of container.ownerDocument.querySelectorAll("a"))
      expect(a.getAttribute("href")).toMatch(/^(https?:\/\/|\/)/)
  })

  it("opens 'Exchange Details' with every field when a row is clicked, not when a link is", async () => {
    const h = await mount(<NetworkActivity />, {
      route: transactionsRoute((k) =>
        k === "latest"
          ? json({
              transactions: [
                record({ status: "failed", resource_in: "resource_loc1in", resource_out: "resource_loc1out" })
              ]
            })
          : undefined
      )
    })
    await h.advance(`${T0} millis`)
    const row = (await screen.findAllByTestId("transaction-row"))[0]!
    await userEvent.click(within(row).getAllByRole("link")[0]!)
    expect(screen.queryByRole("dialog")).toBeNull()
    await userEvent.click(row)
    const dialog = await screen.findByRole("dialog", { name: "Exchange Details" })
    const card = within(dialog).getByTestId("transaction-card")
    // The age reads Effect's Clock, which answers a moment after the card first renders.
    await waitFor(() => expect(card).toHaveTextContent("42s ago"))
    for (const text of [
      A1,
      EXCHANGE,
      "0.5 hETH",
      "1234.5 hUSDC",
      record().tx_in,
      record().tx_out!,
      "failed",
      "42s ago",
      "1970-01-01 00:00:58 UTC",
      "resource_loc1in",
      "resource_loc1out",
      `${PREFIX} | Radix | hETH -> hUSDC`,
      REFUND_NOTE
    ])
      expect(card).toHaveTextContent(text)
    const hrefs = within(card)
      .getAllByRole("link")
      .map((a) => a.getAttribute("href"))
    expect(hrefs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`/account/${A1}$`)),
        expect.stringMatching(new RegExp(`/account/${EXCHANGE}$`)),
        expect.stringMatching(new RegExp(`/transaction/${record().tx_in}$`)),
        expect.stringMatching(new RegExp(`/transaction/${record().tx_out!}$`))
      ])
    )
    await userEvent.keyboard("{Escape}")
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
  })
})

describe("Your Transactions", () => {
  const perAccount = (data: Record<string, ReadonlyArray<TransactionRecord>>) =>
    transactionsRoute((k) => (k in data ? json({ transactions: data[k] }) : undefined))

  it("asks to connect a wallet when no account is selected, without calling the API", async () => {
    const h = await mount(<YourTransactions />, { route: perAccount({}) })
    expect(screen.getByText("Connect wallet to view your transactions")).toBeVisible()
    expect(screen.getByRole("button", { name: "Refresh" })).toBeDisabled()
    expect(h.requests.filter((r) => r.includes("/api/transactions/"))).toEqual([])
  })

  it("shows loading while the call is in flight", async () => {
    await mount(<YourTransactions />, { session: connected(), route: transactionsRoute(() => never()) })
    expect(within(screen.getByTestId("your-transactions")).getByRole("status")).toHaveTextContent(
      "Loading transactions..."
    )
    expect(rows()).toHaveLength(0)
  })

  it("shows the empty state, and the error state for an HTTP error or a rate limit", async () => {
    await mount(<YourTransactions />, { session: connected(), route: perAccount({ [A1]: [] }) })
    expect(await screen.findByText("No transactions found for this account")).toBeVisible()
    for (const status of [500, 429, 409]) {
      const h = await mount(<YourTransactions />, {
        session: connected(),
        route: transactionsRoute(() => json({ error: "nope", message: "nope" }, status))
      })
      expect(await screen.findByText("Failed to load wallet transactions")).toBeVisible()
      // The failure is logged once, as a warning (the test logger keeps it out of the output).
      expect(messagesAt(h.logs, "WARN").filter((m) => m === "Failed to load wallet transactions")).toHaveLength(1)
    }
  })

  it("shows the selected account's records and reloads when the account changes", async () => {
    const h = await mount(<YourTransactions />, {
      session: connected(A1),
      route: perAccount({
        [A1]: [record({ tx_in: "txid_a1" })],
        [A2]: [record({ from: A2, tx_in: "txid_a2_1" }), record({ from: A2, tx_in: "txid_a2_2", status: "pending" })]
      })
    })
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(rows()[0]).toHaveTextContent(shortenAddressList(A1))
    await h.run(Effect.flatMap(WalletSession, (w) => w.selectAccount(A2)))
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(rows()[0]).toHaveTextContent(shortenAddressList(A2))
    expect(h.requests.some((r) => r.endsWith(`/api/transactions/${A2}`))).toBe(true)
  })

  it("reloads on Refresh and keeps the list while reloading", async () => {
    let data: ReadonlyArray<TransactionRecord> = [record({ tx_in: "txid_1" })]
    const h = await mount(<YourTransactions />, {
      session: connected(),
      route: transactionsRoute((k) => (k === A1 ? json({ transactions: data }) : undefined))
    })
    await waitFor(() => expect(rows()).toHaveLength(1))
    const calls = () => h.requests.filter((r) => r.endsWith(`/api/transactions/${A1}`)).length
    const before = calls()
    data = [record({ tx_in: "txid_2", status: "pending" }), ...data]
    await userEvent.click(screen.getByRole("button", { name: "Refresh" }))
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(calls()).toBe(before + 1)
  })

  it("after a swap of the account, shows the list the swap card's tracking read, without asking again", async () => {
    const hash = "txid_loc1seen"
    const h = await mount(<YourTransactions />, {
      session: connected(),
      route: transactionsRoute((k) => (k === A1 ? json({ transactions: [] }) : undefined))
    })
    expect(await screen.findByText("No transactions found for this account")).toBeVisible()
    const calls = () => h.requests.filter((r) => r.endsWith(`/api/transactions/${A1}`)).length
    const atLoad = calls()
    const seen = [record({ tx_in: hash, amount_in: "0.5", tx_out: "txid_loc1paid" })]
    // Another account's swap does not concern this panel.
    await h.run(SwapEvents.publish({ txHash: hash, account: A2, from: "hETH", to: "hUSDC", amountIn: "0.5", seen }))
    await h.advance("0 millis")
    expect(screen.getByText("No transactions found for this account")).toBeVisible()
    await h.run(SwapEvents.publish({ txHash: hash, account: A1, from: "hETH", to: "hUSDC", amountIn: "0.5", seen }))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(rows()[0]).toHaveTextContent("txid_loc1paid")
    await h.advance("1 minute")
    expect(calls()).toBe(atLoad)
  })

  it("shows the tracking's last list even when the swap is not in it yet: the card already asked 3 times", async () => {
    const h = await mount(<YourTransactions />, {
      session: connected(),
      route: transactionsRoute((k) => (k === A1 ? json({ transactions: [] }) : undefined))
    })
    expect(await screen.findByText("No transactions found for this account")).toBeVisible()
    const calls = () => h.requests.filter((r) => r.endsWith(`/api/transactions/${A1}`)).length
    const atLoad = calls()
    const seen = [record({ tx_in: "txid_other" })]
    await h.run(
      SwapEvents.publish({ txHash: "txid_loc1unseen", account: A1, from: "hETH", to: "hUSDC", amountIn: "1", seen })
    )
    await waitFor(() => expect(rows()).toHaveLength(1))
    await h.advance("1 minute")
    expect(calls()).toBe(atLoad)
  })

  it("reloads once after a swap when none of the tracking's reads succeeded", async () => {
    let data: ReadonlyArray<TransactionRecord> = []
    const h = await mount(<YourTransactions />, {
      session: connected(),
      route: transactionsRoute((k) => (k === A1 ? json({ transactions: data }) : undefined))
    })
    expect(await screen.findByText("No transactions found for this account")).toBeVisible()
    const calls = () => h.requests.filter((r) => r.endsWith(`/api/transactions/${A1}`)).length
    const atLoad = calls()
    data = [record({ tx_in: "txid_x", status: "pending", tx_out: undefined })]
    await h.run(SwapEvents.publish({ txHash: "txid_x", account: A1, from: "hETH", to: "hUSDC", amountIn: "1" }))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(within(rows()[0]!).getByTestId("transaction-status")).toHaveTextContent("pending")
    await h.advance("1 minute")
    expect(calls()).toBe(atLoad + 1)
  })
})

describe("Network Activity", () => {
  it("shows the last 10 transactions, loaded at once and again every 30 s", async () => {
    const records = Array.from({ length: 12 }, (_, i) => record({ tx_in: `txid_${i}` }))
    const h = await mount(<NetworkActivity />, {
      route: transactionsRoute((k) => (k === "latest" ? json({ transactions: records }) : undefined))
    })
    expect(screen.getByRole("heading", { name: "Network Activity" })).toBeVisible()
    await waitFor(() => expect(rows()).toHaveLength(10))
    const calls = () => h.requests.filter((r) => r.endsWith("/api/transactions/latest")).length
    const atLoad = calls()
    expect(atLoad).toBeGreaterThanOrEqual(1)
    await h.advance("29999 millis")
    expect(calls()).toBe(atLoad)
    await h.advance("1 millis")
    expect(calls()).toBe(atLoad + 1)
    await h.advance("90 seconds")
    expect(calls()).toBe(atLoad + 4)
  })

  it("reloads after the user's own swap, and on its Refresh button; a failed reload keeps the list", async () => {
    let latest: ReadonlyArray<TransactionRecord> = []
    let down = false
    const h = await mount(<NetworkActivity />, {
      route: transactionsRoute((k) =>
        k !== "latest" ? undefined : down ? json({ error: "down" }, 503) : json({ transactions: latest })
      )
    })
    const calls = () => h.requests.filter((r) => r.endsWith("/api/transactions/latest")).length
    expect(await screen.findByText("No recent transactions")).toBeVisible()
    const atLoad = calls()
    // The swap card publishes the swap once its tracking is done; the server lists it by then.
    latest = [record({ tx_in: "txid_mine", status: "pending" })]
    const swap: SwapSubmitted = { txHash: "txid_mine", account: A1, from: "hETH", to: "hUSDC", amountIn: "0.5" }
    await h.run(Effect.flatMap(SwapEvents, (e) => e.publish(swap)))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(calls()).toBe(atLoad + 1)
    expect(within(rows()[0]!).getByTestId("transaction-status")).toHaveTextContent("pending")
    // Settled meanwhile: Refresh shows it, without waiting for the timer.
    latest = [record({ tx_in: "txid_mine", status: "completed" })]
    await userEvent.click(within(screen.getByTestId("network-activity")).getByRole("button", { name: "Refresh" }))
    await waitFor(() => expect(within(rows()[0]!).getByTestId("transaction-status")).toHaveTextContent("completed"))
    expect(calls()).toBe(atLoad + 2)
    // The server is down at the next tick: the list stays, the failure is logged.
    down = true
    await h.advance("30 seconds")
    expect(calls()).toBe(atLoad + 3)
    expect(rows()).toHaveLength(1)
    expect(screen.queryByText("Failed to load transactions")).toBeNull()
    expect(messagesAt(h.logs, "WARN")).toContain("Failed to load transactions")
  })

  it("shows loading, then 'No recent transactions' for an empty list", async () => {
    await mount(<NetworkActivity />, { route: transactionsRoute(() => never()) })
    expect(within(screen.getByTestId("network-activity")).getByRole("status")).toHaveTextContent(
      "Loading transactions..."
    )
    await mount(<NetworkActivity />, { route: transactionsRoute(() => json({ transactions: [] })) })
    expect(await screen.findByText("No recent transactions")).toBeVisible()
  })

  it("shows 'Failed to load transactions' on an error or an undecodable answer", async () => {
    const down = await mount(<NetworkActivity />, { route: transactionsRoute(() => json({ error: "down" }, 503)) })
    expect(await screen.findByText("Failed to load transactions")).toBeVisible()
    expect(messagesAt(down.logs, "WARN")).toContain("Failed to load transactions")
    const garbled = await mount(<NetworkActivity />, {
      route: transactionsRoute(() => json({ transactions: [{ from: 1 }] }))
    })
    expect(await screen.findByText("Failed to load transactions")).toBeVisible()
    // The warning carries the decode failure it is about.
    const warning = garbled.logs.find((l) => l.level === "WARN" && l.message === "Failed to load transactions")
    expect(JSON.stringify(warning?.details)).toContain("ExchangeDecodeError")
  })

  it("opens the row's details with the keyboard too", async () => {
    await mount(<NetworkActivity />, {
      route: transactionsRoute((k) => (k === "latest" ? json({ transactions: [record()] }) : undefined))
    })
    const row = (await screen.findAllByTestId("transaction-row"))[0]!
    const summary = within(row).getByRole("button")
    summary.focus()
    await userEvent.keyboard("{Enter}")
    expect(await screen.findByRole("dialog", { name: "Exchange Details" })).toBeVisible()
  })
})

const R = DevnetAddresses.resources
const liquidity = (overrides: Partial<Record<string, string>> = {}): LiquidityResponse => ({
  assets: [
    {
      symbol: "hUSDC",
      resource_address: R.hUSDC,
      amount: overrides.hUSDC ?? "12345.678901",
      amount_usd: 12345.68,
      allocation_percentage: 50.2,
      decimals: 6
    },
    {
      symbol: "hETH",
      resource_address: R.hETH,
      amount: "3.123456789",
      amount_usd: 9000,
      allocation_percentage: 45,
      decimals: 18
    },
    {
      symbol: "hBTC",
      resource_address: R.hBTC,
      amount: "0.12345678",
      amount_usd: 3000.5,
      allocation_percentage: 44.99,
      decimals: 8
    },
    {
      symbol: "XRD",
      resource_address: R.XRD,
      amount: "1000.5",
      amount_usd: 20,
      allocation_percentage: 0.08,
      decimals: 18
    }
  ],
  total_usd_value: 24366.18
})
const liquidityRoute =
  (answer: () => Response) =>
  (req: HttpClientRequest.HttpClientRequest): Response | undefined =>
    req.url.endsWith("/api/liquidity") ? answer() : undefined

describe("liquidity", () => {
  it("liquidityOf reads a symbol's amount from a response or a Remote, undefined without data", () => {
    const l = liquidity()
    expect(liquidityOf(l, "hETH")).toBe("3.123456789")
    expect(liquidityOf({ _tag: "Success", value: l }, "hBTC")).toBe("0.12345678")
    expect(liquidityOf(l, "hUSDT")).toBeUndefined()
    expect(liquidityOf(undefined, "hETH")).toBeUndefined()
    expect(liquidityOf(Loading, "hETH")).toBeUndefined()
  })

  it("liquidityStream loads when subscribed and re-fetches every 30 s on the Clock", async () => {
    let amount = "100"
    const Figure = () => {
      const l = useStream(liquidityStream, Loading)
      return <p data-testid="figure">{l._tag === "Loading" ? "loading" : (liquidityOf(l, "hUSDC") ?? l._tag)}</p>
    }
    const h = await mount(<Figure />, { route: liquidityRoute(() => json(liquidity({ hUSDC: amount }))) })
    await waitFor(() => expect(screen.getByTestId("figure")).toHaveTextContent("100"))
    const calls = () => h.requests.filter((r) => r.endsWith("/api/liquidity")).length
    const atLoad = calls()
    expect(atLoad).toBeGreaterThanOrEqual(1)
    amount = "250.5"
    await h.advance("29999 millis")
    expect(calls()).toBe(atLoad)
    expect(screen.getByTestId("figure")).toHaveTextContent("100")
    await h.advance("1 millis")
    expect(calls()).toBe(atLoad + 1)
    expect(screen.getByTestId("figure")).toHaveTextContent("250.5")
    await h.advance("30 seconds")
    expect(calls()).toBe(atLoad + 2)
  })

  it("liquidityStream keeps polling after a failure", async () => {
    let up = false
    const Figure = () => {
      const l = useStream(liquidityStream, Loading)
      return <p data-testid="figure">{l._tag === "Success" ? liquidityOf(l, "hUSDC") : l._tag}</p>
    }
    const h = await mount(<Figure />, {
      route: liquidityRoute(() => (up ? json(liquidity()) : json({ error: "x" }, 500)))
    })
    await waitFor(() => expect(screen.getByTestId("figure")).toHaveTextContent("Failure"))
    expect(messagesAt(h.logs, "WARN")).toContain("liquidity failed")
    up = true
    await h.advance("30 seconds")
    expect(screen.getByTestId("figure")).toHaveTextContent("12345.678901")
  })
})

describe("LiquidityDialog", () => {
  it("does not load while closed; on opening lists the assets, native first as the gas balance", async () => {
    const Host = () => {
      const [open, setOpen] = useState(false)
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Liquidity
          </button>
          <LiquidityDialog open={open} onOpenChange={setOpen} />
        </>
      )
    }
    const h = await mount(<Host />, { route: liquidityRoute(() => json(liquidity())) })
    const calls = () => h.requests.filter((r) => r.endsWith("/api/liquidity")).length
    expect(calls()).toBe(0)
    await userEvent.click(screen.getByRole("button", { name: "Liquidity" }))
    const dialog = await screen.findByRole("dialog", { name: "Exchange Liquidity" })
    await waitFor(() => expect(within(dialog).getAllByTestId("liquidity-asset")).toHaveLength(4))
    expect(calls()).toBeGreaterThanOrEqual(1)
    const cells = within(dialog)
      .getAllByTestId("liquidity-asset")
      .map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.textContent))
    // Digits: 2 for USD-type, 4 for ETH-type, 6 for BTC-type (truncated); XRD first, as the gas balance.
    expect(cells).toEqual([
      ["XRDGas balance", "1.00K", "$20.00", "0.08%"],
      ["hUSDC", "12.34K", "$12,345.68", "50.20%"],
      ["hETH", "3.1234", "$9,000.00", "45.00%"],
      ["hBTC", "0.123456", "$3,000.50", "44.99%"]
    ])
    const high = within(dialog)
      .getAllByTestId("liquidity-allocation")
      .map((td) => [td.dataset.high, td.className.includes("text-orange-400")])
    expect(high).toEqual([
      ["false", false],
      ["true", true],
      ["true", true],
      ["false", false]
    ])
    expect(within(dialog).getByTestId("liquidity-total")).toHaveTextContent("$24,366.18")
  })

  it("re-fetches on its refresh control", async () => {
    let amount = "1"
    const h = await mount(<LiquidityDialog open onOpenChange={noop} />, {
      route: liquidityRoute(() => json(liquidity({ hUSDC: amount })))
    })
    const dialog = await screen.findByRole("dialog", { name: "Exchange Liquidity" })
    await waitFor(() => expect(within(dialog).getAllByTestId("liquidity-asset")[1]).toHaveTextContent("1.00"))
    const calls = () => h.requests.filter((r) => r.endsWith("/api/liquidity")).length
    const before = calls()
    amount = "2500"
    await userEvent.click(within(dialog).getByRole("button", { name: "Refresh" }))
    await waitFor(() => expect(within(dialog).getAllByTestId("liquidity-asset")[1]).toHaveTextContent("2.50K"))
    expect(calls()).toBe(before + 1)
  })

  it("says 'Failed to load liquidity data' on an HTTP error and 'Invalid response format from API' on a bad shape", async () => {
    for (const [response, text] of [
      [() => json({ error: "down" }, 500), "Failed to load liquidity data"],
      [() => json({ error: "slow down" }, 429), "Failed to load liquidity data"],
      [() => json({ assets: "none", total_usd_value: 1 }), "Invalid response format from API"],
      [() => json({ assets: [{ symbol: "hETH" }], total_usd_value: 1 }), "Invalid response format from API"]
    ] as const) {
      await mount(<LiquidityDialog open onOpenChange={noop} />, { route: liquidityRoute(response) })
      const dialog = await screen.findByRole("dialog", { name: "Exchange Liquidity" })
      expect(await within(dialog).findByRole("alert")).toHaveTextContent(new RegExp(`^${text}$`))
    }
  })
})

describe("FAQ, Routes and the benefits card", () => {
  it("the FAQ states the 0.3% spread and explains the swap", async () => {
    await mount(<FaqDialog open onOpenChange={noop} />)
    const dialog = await screen.findByRole("dialog")
    expect(dialog).toHaveTextContent("0.3% spread")
    expect(dialog).toHaveTextContent("How does a swap work?")
    expect(dialog).toHaveTextContent("refunded on request or automatically within 5 days")
    expect(dialog).toHaveTextContent("hUSDC to hETH, hUSDC to hBTC, hBTC to hUSDC, hETH to hUSDC")
  })

  it("the Routes dialog lists the accepted routes", async () => {
    const onOpenChange: Array<boolean> = []
    await mount(<RoutesDialog open onOpenChange={(o) => onOpenChange.push(o)} />)
    const dialog = await screen.findByRole("dialog", { name: "Accepted Routes" })
    expect(
      within(dialog)
        .getAllByTestId("accepted-route")
        .map((li) => li.textContent)
    ).toEqual(["hUSDC → hETH", "hUSDC → hBTC", "hBTC → hUSDC", "hETH → hUSDC"])
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }))
    expect(onOpenChange).toEqual([false])
  })

  it("the benefits card names the fixed rate, no slippage, operator liquidity and the fees", async () => {
    await mount(<BenefitsCard />)
    const card = screen.getByTestId("benefits-card")
    for (const text of ["Fixed rate", "No slippage", "Operator liquidity", "0.1% + 0.1 USD"])
      expect(card).toHaveTextContent(text)
  })
})

describe("ExchangeDetailsDialog", () => {
  it("is closed without a record and calls onClose when dismissed", async () => {
    let closed = 0
    const pending = record({ status: "pending", tx_out: undefined, timestamp_finalized: undefined })
    const Host = () => {
      const [r, setR] = useState<TransactionRecord | undefined>(undefined)
      return (
        <>
          <button type="button" onClick={() => setR(pending)}>
            Show
          </button>
          <ExchangeDetailsDialog
            record={r}
            onClose={() => {
              closed++
              setR(undefined)
            }}
          />
        </>
      )
    }
    await mount(<Host />)
    expect(screen.queryByRole("dialog")).toBeNull()
    await userEvent.click(screen.getByRole("button", { name: "Show" }))
    const dialog = await screen.findByRole("dialog", { name: "Exchange Details" })
    expect(within(dialog).getByTestId("transaction-status")).toHaveTextContent("pending")
    expect(dialog).toHaveTextContent("Not yet")
    expect(dialog).toHaveTextContent("—")
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }))
    expect(closed).toBe(1)
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
  })
  it("shows a hostile message only as text, under the prefix rule", async () => {
    const hostile = `${PREFIX} | Radix <img src=x onerror=alert(1)><script>alert(2)</script>`
    const Host = ({ message }: { readonly message: string }) => {
      const [open, setOpen] = useState(true)
      return open ? <ExchangeDetailsDialog record={record({ message })} onClose={() => setOpen(false)} /> : null
    }
    await mount(<Host message={hostile} />)
    const dialog = await screen.findByRole("dialog", { name: "Exchange Details" })
    expect(within(dialog).getByTestId("transaction-message").textContent).toBe(hostile)
    expect(document.querySelector("img, script")).toBeNull()
    await mount(<Host message={`<img src=x onerror=alert(1)> javascript:alert(1)`} />)
    const second = await screen.findByRole("dialog", { name: "Exchange Details" })
    expect(within(second).queryByTestId("transaction-message")).toBeNull()
    expect(document.querySelector("img, script")).toBeNull()
  })
})

describe("LatestTransactionDialog", () => {
  const hash = "txid_loc1latestswap"
  const submitted: SwapSubmitted = { txHash: hash, account: A1, from: "hETH", to: "hUSDC", amountIn: "0.25" }

  it("opens after a swap with the record the swap card's tracking read for the hash, without a lookup", async () => {
    const h = await mount(<LatestTransactionDialog />, {
      route: transactionsRoute(() => json({ transactions: [] }))
    })
    expect(screen.queryByRole("dialog")).toBeNull()
    const seen = [
      record({ tx_in: "txid_other", amount_in: "9" }),
      record({ tx_in: hash, amount_in: "0.25", amount_out: "617.25", tx_out: "txid_loc1payout" })
    ]
    await h.run(SwapEvents.publish({ ...submitted, seen }))
    const dialog = await screen.findByRole("dialog", { name: "Latest Transaction" })
    const card = within(dialog).getByTestId("transaction-card")
    expect(within(card).getByTestId("transaction-status")).toHaveTextContent("completed")
    expect(card).toHaveTextContent("txid_loc1payout")
    expect(card).toHaveTextContent("617.25 hUSDC")
    // The summary leads: sent and received by each token's display rule; the exact card is behind 'Details'.
    const summary = within(dialog).getByTestId("latest-transaction-summary")
    expect(summary).toHaveTextContent("Sent0.25000000 hETH")
    expect(summary).toHaveTextContent("Received617.250000 hUSDC")
    expect(within(dialog).getByTestId("latest-transaction-details")).not.toHaveAttribute("open")
    expect(within(dialog).queryByTestId("latest-transaction-note")).toBeNull()
    await h.advance("1 minute")
    expect(h.requests.filter((r) => r.endsWith(`/api/transactions/${A1}`))).toHaveLength(0)
  })

  it("copies the exact amounts on request: every decimal the token has, and says 'Copied'", async () => {
    const h = await mount(<LatestTransactionDialog />, {
      route: transactionsRoute(() => json({ transactions: [] }))
    })
    const seen = [record({ tx_in: hash, amount_in: "0.0123456789", amount_out: "24.6913578" })]
    await h.run(SwapEvents.publish({ ...submitted, amountIn: "0.0123456789", seen }))
    const dialog = await screen.findByRole("dialog", { name: "Latest Transaction" })
    const summary = within(dialog).getByTestId("latest-transaction-summary")
    // Shown by each token's rule; the copy buttons hold the rest (hUSDC's 6 decimals are all it has).
    expect(summary).toHaveTextContent("Sent0.01234567 hETH")
    expect(summary).toHaveTextContent("Received24.691357 hUSDC")
    await userEvent.click(within(summary).getByRole("button", { name: "Copy the exact amount sent" }))
    expect(h.navigations).toEqual(["copy:0.0123456789"])
    await waitFor(() => expect(within(summary).getByText("Copied")).toBeVisible())
    await userEvent.click(within(summary).getByRole("button", { name: "Copy the exact amount received" }))
    expect(h.navigations).toEqual(["copy:0.0123456789", "copy:24.691357"])
  })

  it("says so when the clipboard refuses, and logs why", async () => {
    const h = await mount(<LatestTransactionDialog />, {
      route: transactionsRoute(() => json({ transactions: [] })),
      clipboard: false
    })
    await h.run(SwapEvents.publish({ ...submitted, seen: [record({ tx_in: hash, amount_out: undefined })] }))
    const dialog = await screen.findByRole("dialog", { name: "Latest Transaction" })
    await userEvent.click(within(dialog).getByRole("button", { name: "Copy the exact amount sent" }))
    await waitFor(() => expect(within(dialog).getByText("Could not copy")).toBeVisible())
    expect(within(dialog).queryByText("Copied")).toBeNull()
    expect(h.logs.some((l) => l.message.includes("copy failed"))).toBe(true)
  })

  it("shows a pending record as pending: the tracking stopped once the record appeared (spec §7)", async () => {
    const h = await mount(<LatestTransactionDialog />, {
      route: transactionsRoute(() => json({ transactions: [] }))
    })
    const seen = [record({ tx_in: hash, amount_out: "617.25", status: "pending", tx_out: undefined })]
    await h.run(SwapEvents.publish({ ...submitted, seen }))
    const dialog = await screen.findByRole("dialog", { name: "Latest Transaction" })
    expect(within(dialog).getByTestId("transaction-status")).toHaveTextContent("pending")
    expect(within(dialog).getByTestId("transaction-card")).toHaveTextContent("617.25 hUSDC")
    await h.advance("1 minute")
    expect(h.requests.filter((r) => r.endsWith(`/api/transactions/${A1}`))).toHaveLength(0)
  })

  it("never loses the hash: without a record it shows the signed facts as pending, and says so", async () => {
    const h = await mount(<LatestTransactionDialog />, {
      route: transactionsRoute(() => json({ error: "busy" }, 429))
    })
    await h.run(SwapEvents.publish({ ...submitted, seen: [record({ tx_in: "txid_other" })] }))
    const dialog = await screen.findByRole("dialog", { name: "Latest Transaction" })
    const card = within(dialog).getByTestId("transaction-card")
    expect(card).toHaveTextContent(hash)
    expect(card).toHaveTextContent("0.25 hETH")
    expect(card).toHaveTextContent(A1)
    expect(within(card).getByTestId("transaction-status")).toHaveTextContent("pending")
    expect(within(dialog).getByTestId("latest-transaction-note")).toHaveTextContent(
      "The exchange has not listed this swap yet."
    )
    const tx = within(card)
      .getAllByRole("link")
      .find((a) => a.getAttribute("href")?.endsWith(`/transaction/${hash}`))
    expect(tx).toBeDefined()
    await h.advance("1 minute")
    expect(h.requests.filter((r) => r.endsWith(`/api/transactions/${A1}`))).toHaveLength(0)
  })

  it("stays closed once dismissed, and opens again for the next swap", async () => {
    const h = await mount(<LatestTransactionDialog />, {
      route: transactionsRoute(() => json({ transactions: [] }))
    })
    await h.run(SwapEvents.publish(submitted))
    const dialog = await screen.findByRole("dialog", { name: "Latest Transaction" })
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    await h.advance("10 seconds")
    expect(screen.queryByRole("dialog")).toBeNull()
    await h.run(SwapEvents.publish({ ...submitted, txHash: "txid_loc1next", amountIn: "7" }))
    const next = await screen.findByRole("dialog", { name: "Latest Transaction" })
    expect(next).toHaveTextContent("txid_loc1next")
    expect(next).toHaveTextContent("7 hETH")
  })
})
