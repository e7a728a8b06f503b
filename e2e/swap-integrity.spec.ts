import { expect, type APIRequestContext, type Page, test } from "@playwright/test"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { formatTokenAmount } from "../src/exchange/format"
import { blockExternal, depositFlowOnly, closeWelcomeToast, snap } from "./helpers"

/**
 * On `npm start`: the binding quote is paid exactly after a slow approval, one press is one swap, a
 * rejection reads as a cancel, and the amount input means what the user typed, down to 360 px.
 */

const action = (page: Page) => page.getByTestId("swap-action")
const walletCard = (page: Page) => page.getByTestId("devnet-wallet-request")

interface SwapRecord {
  readonly tx_in: string
  readonly tx_out?: string | null
  readonly status: string
  readonly amount_in: string
  readonly amount_out?: string | null
  readonly quote_id?: string | null
  readonly quoted_amount_out?: string | null
}

const records = async (request: APIRequestContext, account: string): Promise<ReadonlyArray<SwapRecord>> => {
  const r = await request.get(`/api/transactions/${account}`)
  expect(r.ok()).toBe(true)
  return ((await r.json()) as { transactions: ReadonlyArray<SwapRecord> }).transactions
}

const hEthPrice = async (request: APIRequestContext): Promise<number> => {
  const r = await request.get("/api/health")
  return ((await r.json()) as { pairs_status: Record<string, { price_usd: number }> }).pairs_status["hETH"]!.price_usd
}

/** Connects through the app's button with the devnet wallet in manual mode, sharing only `account`. */
const connectManually = async (page: Page, account: string) => {
  await page.goto("/?devnetWallet=manual")
  await closeWelcomeToast(page)
  await action(page).click()
  const card = walletCard(page)
  await expect(card).toContainText("Login request", { timeout: 20_000 })
  const boxes = card.getByTestId("devnet-wallet-account")
  for (let i = 0; i < (await boxes.count()); i++) {
    const box = boxes.nth(i)
    if ((await box.getAttribute("value")) === account) await box.check()
    else await box.uncheck()
  }
  await card.getByTestId("devnet-wallet-approve").click()
  await expect(page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" })).toBeVisible({
    timeout: 20_000
  })
}

/** Types an amount and prepares a binding quote. */
const prepare = async (page: Page, amount: string) => {
  await page.getByLabel("Amount to swap").fill(amount)
  await expect(action(page)).toHaveText("Prepare the exchange", { timeout: 15_000 })
  await action(page).click()
  await expect(action(page)).toHaveText(/^Execute Swap/)
  await expect(page.getByTestId("quote-binding")).toBeVisible()
}

// The ledger-side specs swap from one account each, so they run once: the mobile project does not load this file.
test.beforeEach(async ({ page }) => {
  await blockExternal(page)
  await depositFlowOnly(page)
})

test("a slow approval after the price moved is paid exactly the quoted output", async ({ page, request }, info) => {
  test.setTimeout(150_000)
  const account = DevnetAddresses.users[1]
  await connectManually(page, account)
  await prepare(page, "0.01")
  const shown = (await page.getByTestId("to-amount").innerText()).trim()
  await expect(page.getByTestId("network-fee")).toHaveText("0.18 XRD (1 tx)")
  const priceAtQuote = await hEthPrice(request)
  await action(page).click()
  await expect(walletCard(page)).toContainText("Transaction request")
  const pending = page.getByTestId("wallet-pending")
  await expect(pending).toContainText("Approve in your wallet")
  await expect(page.getByTestId("rate-held")).toHaveText(/^The rate is held for [0-2]:\d\d$/)
  await expect(page.getByTestId("swap-cancel")).toBeVisible()
  await snap(page, info, "swap-approve-in-wallet")
  // The devnet's price feed moves every 15 s: approve only once it has.
  await expect.poll(() => hEthPrice(request), { timeout: 45_000, intervals: [1000] }).not.toBe(priceAtQuote)
  await walletCard(page).getByTestId("devnet-wallet-approve").click()
  await expect(page.getByTestId("toast").filter({ hasText: "Swap Successful" })).toBeVisible({ timeout: 60_000 })
  let record: SwapRecord | undefined
  await expect
    .poll(
      async () => {
        record = (await records(request, account)).find(
          (r) => r.amount_in === "0.01" && r.quote_id !== undefined && r.status === "completed"
        )
        return record?.status
      },
      { timeout: 30_000 }
    )
    .toBe("completed")
  expect(record?.amount_out).toBe(record?.quoted_amount_out)
  expect(formatTokenAmount(record?.amount_out ?? "0")).toBe(shown)
  // The ledger itself: the payout moved exactly that much hUSDC into the account.
  const details = await request.post("/gateway/transaction/committed-details", {
    data: { intent_hash: record?.tx_out, opt_ins: { balance_changes: true } }
  })
  const changes = (
    (await details.json()) as {
      transaction: { balance_changes: { fungible_balance_changes: ReadonlyArray<Record<string, string>> } }
    }
  ).transaction.balance_changes.fungible_balance_changes
  const received = changes.find(
    (c) => c["entity_address"] === account && c["resource_address"] === DevnetAddresses.resources.hUSDC
  )
  expect(received?.["balance_change"]).toBe(record?.amount_out)
  await snap(page, info, "swap-paid-as-quoted")
})

test("a double click and a double Enter on Execute each give one wallet request and one deposit", async ({
  page,
  request
}, info) => {
  test.setTimeout(150_000)
  const account = DevnetAddresses.users[2]
  const before = (await records(request, account)).length
  await connectManually(page, account)
  for (const press of ["double click", "double Enter"] as const) {
    await prepare(page, "0.01")
    if (press === "double click") await action(page).dblclick()
    else {
      await action(page).focus()
      await page.keyboard.press("Enter")
      await page.keyboard.press("Enter")
    }
    await expect(walletCard(page)).toHaveCount(1)
    // A second request would have arrived by now.
    await page.waitForTimeout(1500)
    await expect(walletCard(page)).toHaveCount(1)
    await expect(action(page)).toHaveText("Swapping...")
    await walletCard(page).getByTestId("devnet-wallet-approve").click()
    await expect(page.getByTestId("toast").filter({ hasText: "Swap Successful" })).toBeVisible({ timeout: 60_000 })
    // The Latest Transaction dialog opens after a swap; close it to go on (its own Close: Escape goes to the toast
    // that is showing first).
    const latest = page.getByTestId("latest-transaction-dialog")
    await expect(latest).toBeVisible()
    await latest.getByRole("button", { name: "Close" }).first().click()
    await expect(latest).toHaveCount(0)
    // The card resets 5 s after a swap.
    await expect(page.getByLabel("Amount to swap")).toHaveValue("", { timeout: 15_000 })
  }
  await expect.poll(async () => (await records(request, account)).length, { timeout: 30_000 }).toBe(before + 2)
  await snap(page, info, "swap-single-flight")
})

test("a rejection in the wallet reads as a cancel; Cancel withdraws the request", async ({ page, request }, info) => {
  test.setTimeout(120_000)
  const account = DevnetAddresses.users[0]
  // An amount no other spec uses: other specs swap from this account at the same time.
  const amount = "0.0123"
  const sentNone = async () => (await records(request, account)).every((r) => r.amount_in !== amount)
  await connectManually(page, account)
  await prepare(page, amount)
  await action(page).click()
  await walletCard(page).getByTestId("devnet-wallet-reject").click()
  const toast = page.getByTestId("toast").filter({ hasText: "Swap canceled" })
  await expect(toast).toContainText("You rejected the transaction in your wallet. Nothing was sent.")
  await expect(page.getByTestId("swap-notice")).toContainText("Nothing was sent")
  await expect(page.getByText("Transaction failed")).toHaveCount(0)
  await expect(page.getByText("check your balance")).toHaveCount(0)
  await snap(page, info, "swap-rejected")
  // Prepare again, then withdraw the request from the card.
  await action(page).click()
  await expect(action(page)).toHaveText(/^Execute Swap/)
  await action(page).click()
  await expect(walletCard(page)).toContainText("Transaction request")
  await page.getByTestId("swap-cancel").click()
  // The wallet had the transaction already: it is asked to drop it, and the devnet wallet does.
  await expect(walletCard(page)).toHaveCount(0)
  await expect(page.getByTestId("swap-notice")).toContainText("Swap canceled")
  await expect(page.getByTestId("swap-notice")).toContainText("settled at this quote")
  await expect(action(page)).toHaveText("Prepare the exchange")
  await snap(page, info, "swap-canceled")
  expect(await sentNone()).toBe(true)
})

test("at 360 px a newcomer swaps with a slow approval and gets exactly what the card promised", async ({
  page,
  request
}, info) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 360, height: 780 })
  const account = DevnetAddresses.users[1]
  const amount = "0.0111"
  await connectManually(page, account)
  await prepare(page, amount)
  const shown = (await page.getByTestId("to-amount").innerText()).trim()
  await action(page).click()
  await expect(page.getByTestId("wallet-pending")).toContainText("Approve in your wallet")
  // The devnet wallet's panel covers a phone's screen: fold it away to look at the card, then unfold to approve.
  await page.getByTestId("devnet-wallet-toggle").click()
  await page
    .getByTestId("swap-card")
    .screenshot({ path: `e2e/screenshots/${info.project.name}-swap-360-approve-in-wallet.png` })
  await page.waitForTimeout(3000)
  await page.getByTestId("devnet-wallet-toggle").click()
  await walletCard(page).getByTestId("devnet-wallet-approve").click()
  await expect(page.getByTestId("toast").filter({ hasText: "Swap Successful" })).toBeVisible({ timeout: 60_000 })
  await page
    .getByTestId("latest-transaction-dialog")
    .screenshot({ path: `e2e/screenshots/${info.project.name}-swap-360-latest.png` })
  let record: SwapRecord | undefined
  await expect
    .poll(
      async () => {
        record = (await records(request, account)).find((r) => r.amount_in === amount && r.status === "completed")
        return record?.status
      },
      { timeout: 30_000 }
    )
    .toBe("completed")
  expect(record?.amount_out).toBe(record?.quoted_amount_out)
  expect(formatTokenAmount(record?.amount_out ?? "0")).toBe(shown)
})

test("the amount input: '0,5' is 0.5, '1e5' is refused visibly, and 360-390 px show the whole amount", async ({
  page
}, info) => {
  await page.goto("/")
  // The page is prerendered: wait until the app has hydrated it (the first commit clears the first-paint mark).
  await expect(page.locator("html")).not.toHaveAttribute("data-first-paint", /.*/)
  const input = page.getByLabel("Amount to swap")
  await input.fill("0,5")
  await expect(input).toHaveValue("0.5")
  await input.fill("1e5")
  await expect(input).toHaveValue("0.5")
  await expect(page.getByTestId("amount-notice")).not.toBeEmpty()
  await input.fill("1,234.5")
  await expect(input).toHaveValue("1234.5")
  await expect(page.getByTestId("amount-notice")).toBeEmpty()
  for (const width of [360, 375, 390]) {
    await page.setViewportSize({ width, height: 800 })
    await input.fill("12345.678901")
    await expect(input).toHaveValue("12345.678901")
    const { scroll, client } = await input.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(scroll).toBeLessThanOrEqual(client)
    await page.getByTestId("swap-card").screenshot({ path: `e2e/screenshots/${info.project.name}-amount-${width}.png` })
  }
})

test("keystrokes typed into the prerendered page before it hydrates are kept", async ({ page }) => {
  // Hold the scripts back so the static page is there, and typable, well before the app hydrates it.
  await page.route("**/assets/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    await route.continue()
  })
  await page.goto("/", { waitUntil: "commit" })
  const input = page.getByLabel("Amount to swap")
  await input.waitFor()
  await expect(page.locator("html")).toHaveAttribute("data-first-paint", "page")
  await input.pressSequentially("0,05")
  await expect(page.locator("html")).not.toHaveAttribute("data-first-paint", /.*/, { timeout: 20_000 })
  await expect(input).toHaveValue("0.05")
})
