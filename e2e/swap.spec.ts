import { expect, type Page, test } from "@playwright/test"
import { blockExternal, depositFlowOnly, closeWelcomeToast, snap } from "./helpers"

const action = (page: Page) => page.getByTestId("swap-action")

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
  await depositFlowOnly(page)
})

test("the swap page shows the card, the live prices and the panels", async ({ page }, info) => {
  await page.route("**/devnet/wallet.js", (r) => r.fulfill({ contentType: "text/javascript", body: "" }))
  await page.goto("/")
  await expect(page.getByRole("heading", { name: "Exchange Wrapped Assets" })).toBeVisible()
  await expect(action(page)).toHaveText("Connect Wallet")
  await expect(page.getByRole("heading", { name: "Your Transactions" })).toBeVisible()
  await expect(page.getByText("Connect wallet to view your transactions")).toBeVisible()
  await expect(page.getByRole("heading", { name: "Network Activity" })).toBeVisible()
  await expect(page.getByTestId("exchange-liquidity")).toContainText("hUSDC")
  await snap(page, info, "swap-disconnected")
})

test("swap hETH for hUSDC end to end: connect, quote, execute, the devnet wallet approves, the server pays", async ({
  page
}, info) => {
  test.setTimeout(120_000)
  await page.goto("/?devnetWallet=auto")
  // A newer toast replaces the one shown: the welcome toast (4 s after load) must not replace 'Swap Successful'.
  await closeWelcomeToast(page)
  await action(page).click()
  await expect(page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" })).toBeVisible({
    timeout: 20_000
  })
  await expect(action(page)).toHaveText("Enter Amount to Swap")
  await page.getByLabel("Amount to swap").fill("0.01")
  // The auto-estimate arrives within a second: the to-amount and the rate panel.
  await expect(page.getByTestId("rate-panel")).toBeVisible()
  await expect(page.getByTestId("rate-panel")).toContainText("< 0.01%")
  await expect(page.getByTestId("rate-panel")).toContainText("0.1% + 0.1 USD")
  await expect(action(page)).toHaveText("Prepare the exchange")
  await action(page).click()
  await expect(action(page)).toHaveText(/^Execute Swap \(Reload in \d+s\)$/)
  // The fee line is the transaction preview of this very deposit (the wallet's fee lock included).
  await expect(page.getByTestId("network-fee")).toHaveText("0.18 XRD (1 tx)")
  await snap(page, info, "swap-quoted")
  const reads: Array<string> = []
  page.on("request", (r) => {
    if (/\/api\/transactions\/account_/.test(r.url())) reads.push(r.url())
  })
  await action(page).click()
  await expect(page.getByTestId("toast").filter({ hasText: "Swap Successful" })).toBeVisible({ timeout: 60_000 })
  const latest = page.getByTestId("latest-transaction-dialog")
  await expect(latest).toBeVisible()
  await expect(latest).toContainText("completed", { timeout: 30_000 })
  await snap(page, info, "swap-latest-transaction")
  await page.keyboard.press("Escape")
  // 'Your Transactions' shows the record, completed, with the payout transaction.
  const row = page.getByTestId("transaction-row").first()
  await expect(row.getByTestId("transaction-status")).toHaveText(/completed/i, { timeout: 30_000 })
  await expect(row).toContainText("hETH")
  await snap(page, info, "swap-done")
  // The card's tracking reads the account's list once it is registered; the dialog and the panel reuse that read.
  expect(reads).toHaveLength(1)
  // The devnet dashboard shows the deposit's balance changes for this transaction.
  const txLink = row.locator('a[href*="/devnet/dashboard/transaction/"]').first()
  const href = await txLink.getAttribute("href")
  expect(href).toMatch(/\/devnet\/dashboard\/transaction\/txid_loc1/)
  await page.goto(href ?? "/")
  await expect(page.locator("body")).toContainText("-0.01")
  await snap(page, info, "swap-dashboard")
})
