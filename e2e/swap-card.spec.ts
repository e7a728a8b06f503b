import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test"
import { mkdirSync } from "node:fs"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { formatBalance } from "../src/exchange/format"
import { appMounted, blockExternal, depositFlowOnly } from "./helpers"

/**
 * The swap card as a demanding user finds it, on `npm start`: a new amount survives the reset after a swap, pairs
 * that do not exist cannot be picked, the balance is said while typing, one number format per token, what must be
 * acted on is in view, the result dialog leads with what happened, and the network fee line never shows a figure
 * the preview of this very deposit has not given.
 */

/** Where the screenshots go: E2E_SHOTS_DIR, or beside the other specs' under e2e/screenshots. */
const SHOTS = process.env["E2E_SHOTS_DIR"] ?? "e2e/screenshots/swap-card"
const action = (page: Page) => page.getByTestId("swap-action")
const amountInput = (page: Page) => page.getByLabel("Amount to swap")
const walletCard = (page: Page) => page.getByTestId("devnet-wallet-request")
const tokenDialog = (page: Page) => page.getByTestId("token-dialog")
const tokenOption = (page: Page, symbol: string) => tokenDialog(page).getByTestId(`token-option-${symbol}`)
const latestDialog = (page: Page) => page.getByTestId("latest-transaction-dialog")

/** The spec's balance message on the action button (§5), for an amount above the balance. */
const BALANCE_LABEL = /^Amount exceeds balance \(([\d.]+) hETH\): lower it or press MAX$/
/** An hUSDC amount by its one display rule: 6 decimals, the token's divisibility (never 8 or 18). */
const HUSDC_AMOUNT = /^\d+\.\d{6}$/

/** Saves what the user sees (the viewport, not the full page) as {SHOTS}/{name}-{width}.png. */
const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true })
  const width = page.viewportSize()?.width ?? 0
  await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` })
}

/** Loads `/` with the devnet wallet in manual mode and connects through the app's button, sharing only `account`. */
const connect = async (page: Page, account: string) => {
  await page.goto("/?devnetWallet=manual")
  await connectHere(page, account)
}

/** Connects the page as it stands, sharing only `account`. */
const connectHere = async (page: Page, account: string) => {
  await appMounted(page)
  await action(page).click()
  const card = walletCard(page)
  // The wallet prepares its first request on a cold stack: seconds, 20+ on a loaded 2-core machine.
  await expect(card).toContainText("Login request", { timeout: 45_000 })
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
  // The balances have been read: the from-token's balance is a figure, not the dash.
  await expect(page.getByTestId("from-balance")).toContainText(/Balance: \d/, { timeout: 20_000 })
}

/** Types an amount and prepares a binding quote. */
const prepare = async (page: Page, amount: string) => {
  await amountInput(page).fill(amount)
  await expect(action(page)).toHaveText("Prepare the exchange", { timeout: 15_000 })
  await action(page).click()
  await expect(action(page)).toHaveText(/^Execute Swap/)
  await expect(page.getByTestId("quote-binding")).toBeVisible()
}

/** What the ledger holds of `resource` in `account`, by the Gateway the app reads (vault-aggregated). */
const ledgerBalance = async (request: APIRequestContext, account: string, resource: string) => {
  const answer = await request.post("/gateway/state/entity/details", {
    data: { addresses: [account], aggregation_level: "Vault" }
  })
  expect(answer.ok()).toBe(true)
  const body = (await answer.json()) as {
    items: ReadonlyArray<{
      fungible_resources: {
        items: ReadonlyArray<{ resource_address: string; vaults: { items: ReadonlyArray<{ amount: string }> } }>
      }
    }>
  }
  const item = body.items[0]?.fungible_resources.items.find((r) => r.resource_address === resource)
  return item?.vaults.items[0]?.amount ?? "0"
}

/** The element lies wholly inside the viewport, as the page stands (the test scrolls nothing). */
const wholeInView = (locator: Locator) => expect(locator).toBeInViewport({ ratio: 1 })

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
  await depositFlowOnly(page)
  // The screen to itself: the welcome toast counts as already shown in this visit (it would cover toasts the specs
  // read, and whether it shows at all depends on how fast the wallet toolkit loads).
  await page.addInitScript(() => window.sessionStorage.setItem("hswap:welcome-shown", "true"))
})

// ---------------------------------------------------------------------------------------------------------------
// A swap: the result dialog, one format per token, exact amounts on request, and the new amount kept
// ---------------------------------------------------------------------------------------------------------------

test("after a swap: the result dialog leads with sent, received and the link; a new amount typed before the reset is kept", async ({
  page,
  context
}, info) => {
  test.setTimeout(150_000)
  await context.grantPermissions(["clipboard-read", "clipboard-write"])
  // The other ledger specs swap from users[1] and [2] and count their records; this one swaps from users[0], with an
  // amount of its own per project.
  const account = DevnetAddresses.users[0]
  const amount = info.project.name === "mobile" ? "0.0132" : "0.0131"
  // The page's timers run on Playwright's clock: at the real pace until the test stops it, so that what the user
  // does "within the 5 s" is within them however slow the machine (Effect's Clock reads Date and sleeps on timers).
  await page.clock.install()
  await connect(page, account)

  // One rule per token: hUSDC's balance has 6 decimals (not 8), hETH's 8.
  await expect(page.getByTestId("from-balance")).toContainText(/Balance: \d+\.\d{8} /)
  const toBalance = page.getByTestId("swap-card").getByRole("region", { name: "To" })
  await expect(toBalance).toContainText(/Balance: \d+\.\d{6}(?!\d)/)

  await prepare(page, amount)
  await expect(page.getByTestId("rate-panel")).toContainText(/Minimum received\s*\d+\.\d{6} hUSDC/)
  const promised = (await page.getByTestId("to-amount").innerText()).trim()
  expect(promised).toMatch(HUSDC_AMOUNT)

  await action(page).click()
  await expect(walletCard(page)).toContainText("Transaction request")
  // From the approval on, the page's time moves only as the test moves it, 100 ms at a time and no faster than real
  // time, until the swap's end opens the result dialog: time then stops within 100 ms of it, however fast or slow
  // the machine, and whatever toast is on screen then (a toast waits its turn, so the success toast is no measure of
  // when the swap ended). The 5 s reset (after the confetti's 2 s) cannot run until the clock moves again.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100)
  await walletCard(page).getByTestId("devnet-wallet-approve").click()
  const dialog = latestDialog(page)
  const until = Date.now() + 60_000
  while (!(await dialog.isVisible())) {
    expect(Date.now(), "the swap ends within 60 s").toBeLessThan(until)
    await page.clock.runFor(100)
    await page.waitForTimeout(100)
  }
  // The live prices' countdown shows that time stands still.
  const countdown = page.getByTestId("live-prices").getByText(/^Refresh in \d+s$/)
  const standing = await countdown.innerText()
  await page.waitForTimeout(2500)
  await expect(countdown).toHaveText(standing)

  // The result dialog leads with what happened; the addresses and the quote are behind 'Details'.
  const summary = dialog.getByTestId("latest-transaction-summary")
  await expect(summary).toContainText("Sent")
  await expect(summary).toContainText(`${Number(amount).toFixed(8)} hETH`)
  await expect(summary).toContainText(/(Received|To receive)\s*\d+\.\d{6} hUSDC/)
  await expect(summary.getByRole("link")).toHaveAttribute("href", /\/transaction\/txid_loc1/)
  const details = dialog.getByTestId("latest-transaction-details")
  await expect(details).not.toHaveAttribute("open")
  const upFront = await dialog.evaluate((el) => (el as HTMLElement).innerText)
  expect(upFront).not.toMatch(/account_loc1|resource_loc1|quote_|[0-9a-f]{32}/)
  expect(upFront).not.toMatch(/\d\.\d{9,}/)

  // The exact amount is there for whoever asks: the copy button puts it on the clipboard and says so.
  const copySent = dialog.getByRole("button", { name: "Copy the exact amount sent" })
  await copySent.click()
  await expect(copySent.locator("..").getByRole("status")).toHaveText("Copied")
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(amount)

  // The 5 s reset has not run yet: the swapped amount is still in the field behind the dialog.
  await expect(amountInput(page)).toHaveValue(amount)
  await dialog.getByRole("button", { name: "Close" }).first().click()
  await expect(dialog).toHaveCount(0)
  // A new amount, typed within the 5 s.
  const next = "0.02"
  await amountInput(page).fill(next)
  await expect(amountInput(page)).toHaveValue(next)
  // Time moves again. The reset runs 5 s after the swap's end (the confetti's 2 s and the payout's balances read
  // first): well past it, the new amount, its estimate and the tokens are as the user left them.
  await page.clock.resume()
  await expect(page.getByTestId("toast").filter({ hasText: "Swap Successful" })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByTestId("rate-panel")).toBeVisible()
  await page.waitForTimeout(10_000)
  await expect(amountInput(page)).toHaveValue(next)
  await expect(page.getByTestId("rate-panel")).toBeVisible()
  await expect(page.getByTestId("to-amount")).toHaveText(HUSDC_AMOUNT)
  await expect(action(page)).toHaveText("Prepare the exchange")
  await expect(page.getByRole("button", { name: "hETH From token" })).toBeVisible()

  // 'Your Transactions' reads the record the same way: hUSDC with 6 decimals.
  const row = page.getByTestId("transaction-row").filter({ hasText: "hUSDC" }).first()
  await expect(row).toContainText(/\d+\.\d{6} hUSDC/, { timeout: 30_000 })
})

// ---------------------------------------------------------------------------------------------------------------
// The token list
// ---------------------------------------------------------------------------------------------------------------

test("the token list greys the tokens that make no route, with why, and shows the account's balance of each", async ({
  page,
  request
}) => {
  test.setTimeout(60_000)
  const account = DevnetAddresses.users[0]
  await connect(page, account)
  await page.getByRole("button", { name: "hETH From token" }).click()
  await expect(tokenDialog(page)).toBeVisible()

  // hETH → hUSDC: XRD pairs with nothing on this exchange; hUSDC and hBTC pair with hUSDC (hUSDC by flipping).
  const xrd = tokenOption(page, "XRD")
  await expect(xrd).toBeDisabled()
  await expect(xrd).toHaveAttribute("data-available", "false")
  await expect(xrd.getByTestId("token-unpaired")).toHaveText("No route from XRD on this exchange")
  await expect(xrd).toHaveAccessibleDescription("No route from XRD on this exchange")
  expect(Number(await xrd.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(1)
  for (const symbol of ["hETH", "hUSDC", "hBTC"]) {
    await expect(tokenOption(page, symbol)).toBeEnabled()
    await expect(tokenOption(page, symbol).getByTestId("token-unpaired")).toHaveCount(0)
  }

  // Each token shows the connected account's balance, by the token's one rule.
  const hbtc = await ledgerBalance(request, account, DevnetAddresses.resources.hBTC)
  await expect(tokenOption(page, "hBTC").getByTestId("token-balance")).toHaveText(formatBalance(hbtc, 8))
  const xrdHeld = await ledgerBalance(request, account, DevnetAddresses.resources.XRD)
  expect(Number(xrdHeld)).toBeGreaterThan(0)
  await expect(xrd.getByTestId("token-balance")).toHaveText(/^\d+(\.\d+)?[KM]?$|^\d+\.\d{8}$/)
  await expect(tokenOption(page, "hUSDC").getByTestId("token-balance")).toHaveText(HUSDC_AMOUNT)
  const fromBalance = (await page.getByTestId("from-balance").innerText()).match(/Balance: ([\d.]+)/)?.[1]
  await expect(tokenOption(page, "hETH").getByTestId("token-balance")).toHaveText(fromBalance ?? "?")

  // A greyed token cannot be picked, not even by a forced click: the pair stays.
  await xrd.click({ force: true })
  await expect(tokenDialog(page)).toBeVisible()
  await page.keyboard.press("Escape")
  await expect(page.getByRole("button", { name: "hETH From token" })).toBeVisible()

  // The To side: hBTC has no route from hETH, XRD none at all.
  await page.getByRole("button", { name: "hUSDC To token" }).click()
  await expect(tokenOption(page, "hBTC")).toBeDisabled()
  await expect(tokenOption(page, "hBTC").getByTestId("token-unpaired")).toHaveText("No route from hETH")
  await expect(tokenOption(page, "XRD").getByTestId("token-unpaired")).toHaveText("No route to XRD on this exchange")
  await page.keyboard.press("Escape")
  await expect(action(page)).not.toHaveText("Invalid route")
})

// ---------------------------------------------------------------------------------------------------------------
// Above the balance, said while typing
// ---------------------------------------------------------------------------------------------------------------

test("above the balance and the 200 USD limit: the balance is said while typing, before any quote, as the one reason", async ({
  page
}) => {
  test.setTimeout(60_000)
  await connect(page, DevnetAddresses.users[0])
  // No price answers while the amount is typed: what the card says cannot come from a quote.
  const held: Array<() => void> = []
  let pricesAsked = 0
  await page.route("**/api/liveprice/**", async (route) => {
    pricesAsked += 1
    await new Promise<void>((resume) => held.push(resume))
    await route.continue().catch(() => undefined)
  })
  const balance = (await page.getByTestId("from-balance").innerText()).match(/Balance: ([\d.]+)/)?.[1] ?? ""
  expect(Number(balance)).toBeGreaterThan(0)
  expect(Number(balance)).toBeLessThan(5)
  await amountInput(page).pressSequentially("5", { delay: 50 })
  await expect(amountInput(page)).toHaveAttribute("data-exceeds", "true")
  await expect(action(page)).toHaveAttribute("data-state", "err_balance")
  // The balance in the message reads as the Balance line does.
  await expect(action(page)).toHaveText(BALANCE_LABEL)
  expect((await action(page).innerText()).match(BALANCE_LABEL)?.[1]).toBe(balance)
  await expect(page.getByTestId("to-amount")).toHaveText("0.0")
  await expect(page.getByTestId("rate-panel")).toHaveCount(0)
  // Above the 200 USD limit too, yet one reason only: no limit message, no rate panel, even once prices answer.
  for (const resume of held.splice(0)) resume()
  await page.waitForTimeout(2500)
  for (const resume of held.splice(0)) resume()
  await expect(action(page)).toHaveAttribute("data-state", "err_balance")
  await expect(page.getByTestId("rate-panel")).toHaveCount(0)
  await expect(page.getByText(/Maximum amount allowed/)).toHaveCount(0)
  await expect(page.getByTestId("quote-binding")).toHaveCount(0)
  // A press says the spec's toast, and issues no binding quote.
  const asked = pricesAsked
  await action(page).click()
  await expect(page.getByTestId("toast").filter({ hasText: "Amount exceeds balance" })).toContainText(
    `You have only ${balance} hETH in your wallet.`
  )
  await expect(page.getByTestId("quote-binding")).toHaveCount(0)
  expect(pricesAsked).toBe(asked)
  await page.unrouteAll({ behavior: "ignoreErrors" })
})

// ---------------------------------------------------------------------------------------------------------------
// What the user must act on is in view
// ---------------------------------------------------------------------------------------------------------------

test(
  "at 1280×800 the balance message, 'Approve in your wallet', the rate held and Cancel are in view without scrolling",
  {
    tag: "@desktop-only"
  },
  async ({ page }) => {
    test.setTimeout(90_000)
    await page.setViewportSize({ width: 1280, height: 800 })
    await connect(page, DevnetAddresses.users[0])
    await amountInput(page).fill("5")
    await expect(action(page)).toHaveText(BALANCE_LABEL)
    await wholeInView(action(page))
    await amountInput(page).fill("0.0133")
    await expect(action(page)).toHaveText("Prepare the exchange", { timeout: 15_000 })
    await wholeInView(action(page))
    await action(page).click()
    await expect(action(page)).toHaveText(/^Execute Swap/)
    await wholeInView(action(page))
    await action(page).click()
    await expect(walletCard(page)).toContainText("Transaction request")
    const pending = page.getByTestId("wallet-pending")
    await expect(pending).toContainText("Approve in your wallet")
    await expect(page.getByTestId("rate-held")).toHaveText(/^The rate is held for [0-2]:\d\d$/)
    await wholeInView(pending.getByText("Approve in your wallet"))
    await wholeInView(page.getByTestId("rate-held"))
    await wholeInView(page.getByTestId("swap-cancel"))
    // Nothing was sent: Cancel withdraws the request.
    await page.getByTestId("swap-cancel").click()
    await expect(page.getByTestId("swap-notice")).toContainText("Swap canceled")
  }
)

// ---------------------------------------------------------------------------------------------------------------
// The network fee line and a slow preview
// ---------------------------------------------------------------------------------------------------------------

test("with a slow preview the fee line says it is estimating, and then shows the figure the preview gave", async ({
  page
}) => {
  test.setTimeout(90_000)
  // Every text the fee line ever shows, from the first render on.
  await page.addInitScript(() => {
    const seen: Array<string> = []
    ;(window as unknown as { feeTexts: Array<string> }).feeTexts = seen
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="network-fee"]')?.textContent
      if (text != null && seen[seen.length - 1] !== text) seen.push(text)
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  // The preview answers only when released, with a fee of its own (0.2 + 0.05 + 0.0123 = 0.2623 XRD): a figure that
  // can come from nowhere else (the real preview gives 0.18, the spec's text says 0.1).
  let release: () => void = () => undefined
  const released = new Promise<void>((resume) => (release = resume))
  let previews = 0
  await page.route("**/transaction/preview", async (route) => {
    previews += 1
    const answer = await route.fetch()
    const body = (await answer.json()) as { receipt: Record<string, unknown> }
    expect(body.receipt["status"]).toBe("Succeeded")
    body.receipt["fee_summary"] = {
      xrd_total_execution_cost: "0.2",
      xrd_total_finalization_cost: "0.05",
      xrd_total_royalty_cost: "0",
      xrd_total_storage_cost: "0.0123",
      xrd_total_tipping_cost: "0"
    }
    await released
    await route.fulfill({ response: answer, json: body }).catch(() => undefined)
  })
  await connect(page, DevnetAddresses.users[0])
  await amountInput(page).fill("0.0134")
  await expect(page.getByTestId("rate-panel")).toBeVisible({ timeout: 15_000 })
  const fee = page.getByTestId("network-fee")
  await expect(fee).toHaveText("Estimating...")
  await expect.poll(() => previews).toBeGreaterThan(0)
  // Prepared, at the moment Execute can be pressed, it still says so.
  await action(page).click()
  await expect(action(page)).toHaveText(/^Execute Swap/)
  await page.waitForTimeout(2000)
  await expect(fee).toHaveText("Estimating...")
  await shot(page, "fee-estimating")
  release()
  await expect(fee).toHaveText("0.27 XRD (1 tx)")
  const texts = await page.evaluate(() => (window as unknown as { feeTexts: Array<string> }).feeTexts)
  expect(texts).toEqual(["Estimating...", "0.27 XRD (1 tx)"])
  await page.unrouteAll({ behavior: "ignoreErrors" })
})

// ---------------------------------------------------------------------------------------------------------------
// Screenshots at 360, 390 and 1280 px, and nothing cut off
// ---------------------------------------------------------------------------------------------------------------

const WIDTHS = [360, 390, 1280] as const

/**
 * At each width: the screenshot, after checking that nothing is cut off: the page does not scroll sideways, and no
 * element of the header or the card, nor of an open dialog, lies outside the viewport's sides or hides text in its
 * own box (ellipses included).
 */
const atEachWidth = async (page: Page, name: string) => {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 780 })
    // Let the layout settle at the new width.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
    const cut = await page.evaluate(() => {
      const found: Array<string> = []
      if (document.documentElement.scrollWidth > window.innerWidth) found.push("the page scrolls sideways")
      const roots = document.querySelectorAll('header, [data-testid="swap-card"], [role="dialog"]')
      for (const root of roots)
        for (const el of root.querySelectorAll<HTMLElement>("*")) {
          const box = el.getBoundingClientRect()
          if (box.width === 0 || box.height === 0 || el.closest(".sr-only") !== null) continue
          const style = getComputedStyle(el)
          const what = `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 30)}"`
          if (box.left < -0.5 || box.right > window.innerWidth + 0.5) found.push(`${what} leaves the viewport`)
          const clips = style.overflowX !== "visible" && style.overflowX !== "auto" && style.overflowX !== "scroll"
          if (clips && el.scrollWidth > el.clientWidth + 1) found.push(`${what} is cut off`)
        }
      return found
    })
    expect(cut, `${name} at ${width} px`).toEqual([])
    await shot(page, name)
  }
}

/**
 * Folds the devnet wallet's panel (it covers a phone's screen while open). A press that is not a pointer's: a pointer
 * on the panel is outside an open dialog, which closes on it.
 */
const foldWalletPanel = async (page: Page) => {
  const toggle = page.getByTestId("devnet-wallet-toggle")
  if ((await toggle.getAttribute("aria-expanded")) === "true")
    await toggle.evaluate((el) => (el as HTMLElement).click())
  await expect(toggle).toHaveAttribute("aria-expanded", "false")
}

test(
  "the card's states at 360, 390 and 1280 px: idle, the token list, above the balance, the approval, the result",
  {
    tag: "@desktop-only"
  },
  async ({ page }) => {
    // Six states at three widths, a connect and a swap: 2-3 minutes on a loaded 2-core machine.
    test.setTimeout(300_000)
    await page.goto("/?devnetWallet=manual")
    await appMounted(page)
    await expect(page.getByTestId("exchange-liquidity")).toContainText("hUSDC", { timeout: 20_000 })
    await atEachWidth(page, "disconnected")
    await page.setViewportSize({ width: 1280, height: 800 })
    await connectHere(page, DevnetAddresses.users[0])
    const connected = page.getByTestId("toast").filter({ hasText: "Wallet Connected" })
    await connected.getByRole("button", { name: "Close" }).click()
    await expect(connected).toHaveCount(0)
    await foldWalletPanel(page)
    await atEachWidth(page, "idle")
    await page.getByRole("button", { name: "hETH From token" }).click()
    await expect(tokenOption(page, "XRD").getByTestId("token-unpaired")).toBeVisible()
    await atEachWidth(page, "token-list")
    await page.keyboard.press("Escape")
    await amountInput(page).fill("5")
    await expect(action(page)).toHaveText(BALANCE_LABEL)
    await atEachWidth(page, "above-balance")
    await page.setViewportSize({ width: 1280, height: 800 })
    await prepare(page, "0.0135")
    await action(page).click()
    await expect(page.getByTestId("wallet-pending")).toContainText("Approve in your wallet")
    await atEachWidth(page, "approve-wallet-open")
    await foldWalletPanel(page)
    await atEachWidth(page, "approve")
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 780 })
      await wholeInView(page.getByTestId("swap-cancel"))
      await wholeInView(page.getByTestId("rate-held"))
    }
    await page.getByTestId("devnet-wallet-toggle").click()
    await walletCard(page).getByTestId("devnet-wallet-approve").click()
    await expect(latestDialog(page)).toBeVisible({ timeout: 60_000 })
    await expect(latestDialog(page).getByTestId("latest-transaction-summary")).toContainText("hUSDC")
    await foldWalletPanel(page)
    await atEachWidth(page, "result")
    await latestDialog(page).getByTestId("latest-transaction-details").locator("summary").click()
    await atEachWidth(page, "result-details")
  }
)
