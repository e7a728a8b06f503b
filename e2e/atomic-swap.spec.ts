import { expect, type APIRequestContext, type Page, test } from "@playwright/test"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { formatTokenAmount } from "../src/exchange/format"
import { blockExternal, closeWelcomeToast } from "./helpers"

/**
 * The atomic swap on `npm start` (which offers atomic quotes), at 1280 and 390 px: the devnet wallet pre-authorises
 * "send exactly X, receive at least Y", the exchange adds its leg, and the ledger shows one transaction per swap in
 * which the account lost exactly X and gained exactly the quoted Y. A lapsed window moves nothing and says so.
 */

const R = DevnetAddresses.resources
const DECIMALS: Readonly<Record<string, number>> = { hUSDC: 6, hETH: 18 }
const action = (page: Page) => page.getByTestId("swap-action")
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `/work/shots/atomicapp/${test.info().project.name}-${name}.png`, fullPage: false })

interface SwapRecord {
  readonly from: string
  readonly tx_in: string
  readonly tx_out?: string | null
  readonly status: string
  readonly amount_in: string
  readonly amount_out?: string | null
  readonly quoted_amount_out?: string | null
  readonly flow?: string | null
  readonly asset_in: string
}

/** A decimal without its trailing zeros ("-25.000000" and "-25" are the same amount). */
const exact = (d: string) => (d.includes(".") ? d.replace(/0+$/, "").replace(/\.$/, "") : d)

const balanceChanges = async (request: APIRequestContext, tx: string, account: string) => {
  const details = await request.post("/gateway/transaction/committed-details", {
    data: { intent_hash: tx, opt_ins: { balance_changes: true } }
  })
  expect(details.ok()).toBe(true)
  const changes = (
    (await details.json()) as {
      transaction: { balance_changes: { fungible_balance_changes: ReadonlyArray<Record<string, string>> } }
    }
  ).transaction.balance_changes.fungible_balance_changes
  return changes
    .filter((c) => c["entity_address"] === account)
    .map((c) => [c["resource_address"] ?? "", exact(c["balance_change"] ?? "")] as const)
    .sort()
}

const balances = async (request: APIRequestContext, account: string) => {
  const r = await request.post("/gateway/state/entity/page/fungibles/", { data: { address: account } })
  expect(r.ok()).toBe(true)
  const items = ((await r.json()) as { items: ReadonlyArray<{ resource_address: string; amount: string }> }).items
  return Object.fromEntries(items.map((i) => [i.resource_address, exact(i.amount)]))
}

const connect = async (page: Page) => {
  await page.goto("/?devnetWallet=auto")
  await closeWelcomeToast(page)
  await action(page).click()
  await expect(page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" })).toBeVisible({
    timeout: 20_000
  })
}

/** Flips the pair first when asked (the card opens on hETH → hUSDC), types `amount` and prepares a quote. */
const prepare = async (page: Page, flip: boolean, amount: string) => {
  if (flip) await page.getByRole("button", { name: "Flip direction" }).click()
  await page.getByLabel("Amount to swap").fill(amount)
  await expect(action(page)).toHaveText("Prepare the exchange", { timeout: 15_000 })
  await action(page).click()
  await expect(action(page)).toHaveText(/^Execute Swap/)
}

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
})

test("hUSDC → hETH and hETH → hUSDC atomically: one transaction each, exactly X out and the quoted Y in", async ({
  page,
  request
}) => {
  test.setTimeout(180_000)
  await connect(page)
  for (const [from, to, amount] of [
    ["hUSDC", "hETH", "25"],
    ["hETH", "hUSDC", "0.01"]
  ] as const) {
    // hETH → hUSDC first flips to hUSDC → hETH, then back.
    await prepare(page, true, amount)
    const shownOut = (await page.getByTestId("to-amount").innerText()).trim()
    const terms = page.getByTestId("atomic-terms")
    await expect(terms).toHaveText(
      `You send exactly ${formatTokenAmount(amount, DECIMALS[from])} ${from}. You receive at least ${shownOut} ${to}, or nothing moves.`
    )
    await shot(page, `${from}-quoted`)
    await action(page).click()
    // This swap's toast (the previous swap's may still be showing).
    const toast = page
      .getByTestId("toast")
      .filter({ hasText: "Swap Successful" })
      .filter({ hasText: `You sent exactly ${formatTokenAmount(amount, DECIMALS[from])} ${from}` })
    await expect(toast).toBeVisible({ timeout: 60_000 })
    await expect(toast).toContainText(`received ${shownOut} ${to}, in one transaction.`)
    const latest = page.getByTestId("latest-transaction-dialog")
    await expect(latest).toBeVisible()
    await expect(latest.getByTestId("latest-transaction-flow")).toHaveText("atomic: one transaction, both legs")
    // Every transaction link in it is the one transaction.
    const links = await latest
      .locator('a[href*="/devnet/dashboard/transaction/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")))
    expect(new Set(links).size).toBe(1)
    await shot(page, `${from}-done`)
    await page.keyboard.press("Escape")

    // The exchange's record: one transaction, flow atomic, paid exactly what was quoted.
    const record = await expect
      .poll(
        async () => {
          const r = await request.get("/api/transactions/latest")
          const rows = ((await r.json()) as { transactions: ReadonlyArray<SwapRecord> }).transactions
          return rows.find((t) => t.flow === "atomic" && t.asset_in === from && t.amount_in === amount)
        },
        { timeout: 20_000 }
      )
      .toBeDefined()
      .then(async () => {
        const r = await request.get("/api/transactions/latest")
        return ((await r.json()) as { transactions: ReadonlyArray<SwapRecord> }).transactions.find(
          (t) => t.flow === "atomic" && t.asset_in === from && t.amount_in === amount
        )
      })
    expect(record?.status).toBe("completed")
    expect(record?.tx_out).toBe(record?.tx_in)
    expect(record?.amount_out).toBe(record?.quoted_amount_out)
    expect(formatTokenAmount(record?.amount_out ?? "0", DECIMALS[to])).toBe(shownOut)
    // The ledger: in that one transaction the account lost exactly X of FROM and gained exactly Y of TO, nothing else.
    const account = record?.from ?? ""
    expect(await balanceChanges(request, record?.tx_in ?? "", account)).toEqual(
      [
        [R[from], exact(`-${amount}`)],
        [R[to], exact(record?.quoted_amount_out ?? "")]
      ].sort()
    )
    // Your Transactions shows it as one transaction, flow atomic.
    const row = page.getByTestId("transaction-row").filter({ hasText: from }).first()
    await expect(row.getByTestId("transaction-flow")).toHaveText("atomic", { timeout: 30_000 })
    await expect(row.locator('a[href*="/devnet/dashboard/transaction/"]')).toHaveCount(1)
    expect(await row.locator('a[href*="/devnet/dashboard/transaction/"]').getAttribute("href")).toContain(
      record?.tx_in ?? "?"
    )
    await row.scrollIntoViewIfNeeded()
    await shot(page, `${from}-history`)
    // The form resets 5 s after the swap.
    await expect(page.getByLabel("Amount to swap")).toHaveValue("", { timeout: 15_000 })
  }
})

test("a lapsed window: nothing moved, the balances are untouched, and the card says so", async ({ page, request }) => {
  test.setTimeout(120_000)
  await connect(page)
  // The exchange answers that the window closed before it could submit (what it says when the wallet approved too
  // late): the pre-authorisation never reaches the ledger.
  let posted = 0
  await page.route(/\/api\/atomic-swap$/, async (route) => {
    posted++
    const body = JSON.parse(route.request().postData() ?? "{}") as { amount: string }
    return route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({
        subintent_id: "subtxid_loc1lapsedlapsedlapsedlapsedlapsedlapsedlapsedlapsedlapsed",
        state: "lapsed",
        account: DevnetAddresses.users[0],
        asset_in: "hETH",
        amount_in: body.amount,
        asset_out: "hUSDC",
        quoted_out: "0",
        window_end_ms: Date.now(),
        message: "The pre-authorisation lapsed: nothing moved."
      })
    })
  })
  await prepare(page, false, "0.01")
  const accountsBefore = await Promise.all(DevnetAddresses.users.map((a) => balances(request, a)))
  await action(page).click()
  const notice = page.getByTestId("swap-notice")
  await expect(notice).toContainText("Nothing moved", { timeout: 60_000 })
  await expect(notice).toContainText("your balances are as they were")
  expect(posted).toBe(1)
  await expect(page.getByTestId("toast").filter({ hasText: "Nothing moved" })).toBeVisible()
  await shot(page, "lapsed")
  expect(await Promise.all(DevnetAddresses.users.map((a) => balances(request, a)))).toEqual(accountsBefore)
  await expect(action(page)).toHaveText("Prepare the exchange")
})
