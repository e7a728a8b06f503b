import { expect, type Page, test } from "@playwright/test"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { blockExternal, depositFlowOnly, closeWelcomeToast, snap } from "./helpers"

const action = (page: Page) => page.getByTestId("swap-action")
const panel = (page: Page) => page.getByRole("region", { name: "Devnet Wallet" })

const connect = async (page: Page, mode: "auto" | "manual") => {
  await page.goto(`/?devnetWallet=${mode}`)
  // These specs check toasts raised by their own actions; the welcome toast would replace them.
  await closeWelcomeToast(page)
  await action(page).click()
  if (mode === "manual") await page.getByTestId("devnet-wallet-request").getByTestId("devnet-wallet-approve").click()
  await expect(page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" })).toBeVisible({
    timeout: 20_000
  })
}

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
  await depositFlowOnly(page)
})

test("rejecting in the wallet: 'Swap canceled', nothing sent, and nothing is recorded", async ({ page }, info) => {
  test.setTimeout(90_000)
  await connect(page, "manual")
  await page.getByLabel("Amount to swap").fill("0.011")
  await expect(action(page)).toHaveText("Prepare the exchange")
  await action(page).click()
  await expect(action(page)).toHaveText(/^Execute Swap/)
  await action(page).click()
  const request = page.getByTestId("devnet-wallet-request")
  await expect(request).toContainText("0.011")
  await request.getByTestId("devnet-wallet-reject").click()
  // A rejection is the user's choice, not a failure: no 'Transaction Failed', no 'check your balance'.
  await expect(page.getByTestId("toast").filter({ hasText: "Swap canceled" })).toContainText(
    "You rejected the transaction in your wallet. Nothing was sent."
  )
  await expect(page.getByTestId("swap-notice")).toContainText("Nothing was sent")
  await expect(page.getByTestId("swap-error")).toHaveCount(0)
  await snap(page, info, "swap-rejected")
  await expect(panel(page)).toContainText("rejectedByUser")
  // Nothing reached the exchange: no record of a 0.011 hETH swap.
  for (const account of DevnetAddresses.users) {
    const res = await page.request.get(`/api/transactions/${account}`)
    const body = (await res.json()) as { transactions: Array<{ amount_in: string }> }
    expect(body.transactions.some((t) => t.amount_in === "0.011")).toBe(false)
  }
})

test("a pair outside the accepted routes cannot be picked: the token is greyed with why", async ({ page }, info) => {
  // Connecting with the auto-approving wallet alone takes 15-20 s on a loaded 2-core machine.
  test.setTimeout(60_000)
  await connect(page, "auto")
  await page.getByRole("button", { name: "hUSDC To token" }).click()
  await page.getByPlaceholder("Search tokens...").fill("btc")
  const hbtc = page.getByTestId("token-dialog").getByRole("button", { name: /hBTC/ })
  await expect(hbtc).toBeDisabled()
  await expect(hbtc).toContainText("No route from hETH")
  await snap(page, info, "swap-token-unpaired")
  await page.keyboard.press("Escape")
  await expect(page.getByRole("button", { name: "hUSDC To token" })).toBeVisible()
  await expect(action(page)).not.toHaveText("Invalid route")
  await page.getByRole("button", { name: "hETH From token" }).click()
  await page.getByPlaceholder("Search tokens...").fill("zzz")
  await expect(page.getByText("No tokens found")).toBeVisible()
  await snap(page, info, "swap-token-search-empty")
  await page.keyboard.press("Escape")
  await snap(page, info, "swap-invalid-route")
})

test("an amount above the balance: orange border and the orange reason while typing, no quote, the balance toast on a press", async ({
  page
}, info) => {
  await connect(page, "auto")
  await page.getByLabel("Amount to swap").fill("5")
  await expect(page.getByLabel("Amount to swap")).toHaveAttribute("data-exceeds", "true")
  // Said at once, before any quote: one reason, not the 200 USD limit beside it and no rate panel.
  await expect(action(page)).toHaveText(/^Amount exceeds balance \([\d.]+ hETH\): lower it or press MAX$/)
  await expect(action(page)).toHaveAttribute("data-state", "err_balance")
  await page.waitForTimeout(2000)
  await expect(action(page)).toHaveAttribute("data-state", "err_balance")
  await expect(page.getByTestId("rate-panel")).toHaveCount(0)
  await expect(page.getByText(/Maximum amount allowed/)).toHaveCount(0)
  await action(page).click()
  await expect(page.getByTestId("toast").filter({ hasText: "Amount exceeds balance" })).toContainText(
    /You have only [\d.]+ hETH in your wallet\./
  )
  // The press prepared nothing: no binding quote.
  await expect(page.getByTestId("quote-binding")).toHaveCount(0)
  await snap(page, info, "swap-exceeds-balance")
})

test("a 429 from the exchange shows the 'Rate Limit Reached' card and its 10 s toast", async ({ page }, info) => {
  await page.route("**/api/health", (route) =>
    route.fulfill({
      status: 429,
      contentType: "application/json",
      body: JSON.stringify({ error: "rate_limited", message: "Rate limit exceeded" })
    })
  )
  await page.route("**/devnet/wallet.js", (r) => r.fulfill({ contentType: "text/javascript", body: "" }))
  await page.goto("/")
  // A cold first load of the app on a busy machine can take longer than the default 7 s to ask for health.
  await expect(page.getByTestId("service-mode")).toContainText("Rate Limit Reached", { timeout: 20_000 })
  await expect(page.getByTestId("toast").filter({ hasText: "Rate Limit Exceeded" })).toContainText(
    "Your device is overloading the request system. Please keep only one window open or avoid refreshing too frequently."
  )
  await snap(page, info, "swap-rate-limited")
})

test("two shared accounts: the wallet button's Sharing tab picks the one the app uses, with 'Account Changed'", async ({
  page
}, info) => {
  // A connect, a toast that may queue behind 'Wallet Connected' (5 s) and a reload that reconnects: 20-30 s on a
  // loaded 2-core machine, where it timed out at 30 s (seen in CI and once while a benchmark ran beside it).
  test.setTimeout(60_000)
  await page.goto("/?devnetWallet=manual")
  await closeWelcomeToast(page)
  await action(page).click()
  const request = page.getByTestId("devnet-wallet-request")
  await request.getByTestId("devnet-wallet-account").nth(1).check()
  await request.getByTestId("devnet-wallet-approve").click()
  const face = page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" })
  await expect(face).toBeVisible({ timeout: 20_000 })
  await face.click()
  const shared = page.getByRole("list", { name: "Shared accounts" })
  const choices = shared.getByRole("button")
  await expect(choices).toHaveCount(2)
  await expect(choices.nth(0)).toHaveAttribute("aria-pressed", "true")
  await expect(choices.nth(1)).toHaveAttribute("aria-pressed", "false")
  const second = DevnetAddresses.users[1]!
  // 'Your Transactions' follows the selected account (it reloads on account change).
  const reload = page.waitForRequest((r) => r.url().endsWith(`/api/transactions/${second}`))
  await choices.nth(1).click()
  await reload
  await expect(choices.nth(1)).toHaveAttribute("aria-pressed", "true")
  await expect(choices.nth(0)).toHaveAttribute("aria-pressed", "false")
  const toast = page.getByTestId("toast").filter({ hasText: "Account Changed" })
  // One toast at a time: it follows the 5 s 'Wallet Connected' toast when that is still on screen.
  await expect(toast).toContainText(`${second.slice(0, 15)}...${second.slice(-5)}`, { timeout: 12_000 })
  await snap(page, info, "wallet-account-picked")
  // A reload keeps working with the picked account. Every toast the reloaded page shows is recorded as it appears.
  await page.addInitScript(() => {
    const seen: Array<string> = []
    Object.assign(window, { toastsSeen: seen })
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="toast"]')) {
        const text = el.textContent ?? ""
        if (!seen.includes(text)) seen.push(text)
      }
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  const again = page.waitForRequest((r) => r.url().endsWith(`/api/transactions/${second}`))
  await page.reload()
  await again
  await face.click()
  await expect(choices.nth(1)).toHaveAttribute("aria-pressed", "true")
  await expect(choices.nth(0)).toHaveAttribute("aria-pressed", "false")
  // The session restored by the reload is no new connection: no 'Wallet Connected' toast, before or after the next one.
  await choices.nth(0).click()
  await expect(page.getByTestId("toast").filter({ hasText: "Account Changed" })).toBeVisible({ timeout: 12_000 })
  const seen = await page.evaluate(() => (window as unknown as { toastsSeen: Array<string> }).toastsSeen)
  expect(seen.some((t) => t.includes("Account Changed"))).toBe(true)
  expect(seen.filter((t) => t.includes("Wallet Connected"))).toEqual([])
  await snap(page, info, "wallet-reloaded")
})
