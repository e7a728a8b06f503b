import AxeBuilder from "@axe-core/playwright"
import { expect, type Locator, type Page, test } from "@playwright/test"
import { appMounted, blockExternal, closeWelcomeToast, forgetWelcomeShown, snap } from "./helpers"

/**
 * Accessibility and polish, as a keyboard user, a screen reader user and a phone user meet them. The app has
 * one (dark) theme, so axe runs once per route, at the project's width (1280 px desktop, 390 px mobile).
 */

const ROUTES = ["/", "/swap", "/bridge", "/hbtc", "/earn", "/airdrop", "/stats", "/proof-of-funds"]

/** axe's serious and critical findings, with the experimental rule the issue named (WCAG 2.5.3, label in name). */
const seriousViolations = async (page: Page, within?: string) => {
  const builder = new AxeBuilder({ page })
  const result = await (within === undefined ? builder : builder.include(within))
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze()
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
}

const pageReady = async (page: Page) => {
  await expect(page.locator("main h1").first()).toBeVisible({ timeout: 15_000 })
  // The h1 paints from the prerendered markup; the specs then click, which needs the app's own render.
  await appMounted(page)
}

/** The focused element draws an outline or a ring of at least 2 px (a 1 px border colour change does not count). */
const focusIndicatorPx = (locator: Locator) =>
  locator.evaluate((el) => {
    const style = getComputedStyle(el)
    const outline = style.outlineStyle !== "none" ? parseFloat(style.outlineWidth) : 0
    // Tailwind's ring is a box-shadow with a 0 blur and a spread: "rgb(…) 0px 0px 0px 2px".
    const spreads = [...style.boxShadow.matchAll(/0px 0px 0px (\d+(?:\.\d+)?)px/g)].map((m) => parseFloat(m[1] ?? "0"))
    return Math.max(outline, ...spreads, 0)
  })

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
})

test("axe: no serious or critical violation on any route, nor with a dialog open", async ({ page }, info) => {
  test.setTimeout(240_000)
  const found: Record<string, Array<string>> = {}
  for (const path of ROUTES) {
    await page.goto(path)
    await pageReady(page)
    found[path] = await seriousViolations(page)
  }
  // The 404 page leaves after 5 s (axe's own timers need the clock, so it cannot be paused): its content is checked
  // at once, the shell around it is the one checked above.
  await page.goto("/no/such/page")
  await pageReady(page)
  found["/no/such/page"] = await seriousViolations(page, "main")
  // The 404 page goes home by itself (window.location.assign after its countdown): wait for that navigation instead of
  // racing it with a goto, which the redirect aborts (net::ERR_ABORTED) when axe took close to the 5 s.
  await page.waitForURL((url) => url.pathname === "/", { timeout: 20_000 })
  await pageReady(page)
  for (const [open, testId] of [
    [page.getByRole("button", { name: "FAQ" }), "faq-dialog"],
    [page.getByRole("button", { name: "hETH From token" }), "token-dialog"]
  ] as const) {
    await open.click()
    await expect(page.getByTestId(testId)).toBeVisible()
    found[`/ with ${testId}`] = await seriousViolations(page)
    if (testId === "token-dialog") await snap(page, info, "a11y-token-dialog")
    // The Close button, not Escape: a toast that appeared meanwhile is the newest layer and takes Escape first.
    await page.getByTestId(testId).getByRole("button", { name: "Close" }).click()
    await expect(page.getByTestId(testId)).toBeHidden()
  }
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])))
})

test("keyboard: skip link, the swap card's Tab order, a visible indicator on every stop", async ({ page }, info) => {
  await page.goto("/")
  await pageReady(page)
  // The first Tab stop is the skip link; it shows, and it moves focus to the main content.
  await page.keyboard.press("Tab")
  const skip = page.getByRole("link", { name: "Skip to main content" })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await snap(page, info, "a11y-skip-link")
  await page.keyboard.press("Enter")
  await expect(page.locator("main#main")).toBeFocused()
  // From the main content, Tab walks the swap card in reading order.
  const card = page.getByTestId("swap-card")
  const expected = [
    card.getByRole("link", { name: /Regular exchange through our partners/ }),
    card.getByRole("button", { name: "Liquidity" }),
    card.getByRole("button", { name: "FAQ" }),
    card.getByRole("button", { name: "Routes" }),
    card.getByRole("button", { name: "hETH From token" }),
    card.getByLabel("Amount to swap"),
    card.getByRole("button", { name: "Flip direction" }),
    card.getByRole("button", { name: "hUSDC To token" }),
    card.getByTestId("swap-action")
  ]
  for (const stop of expected) {
    await page.keyboard.press("Tab")
    await expect(stop).toBeFocused()
    // Some controls ease their ring in (a 150 ms transition): it settles at 2 px or more.
    await expect.poll(() => focusIndicatorPx(stop), { timeout: 2_000 }).toBeGreaterThanOrEqual(2)
  }
  // 'Update balances' and MAX are disabled without a wallet, so they are no Tab stops here.
  await card.getByLabel("Amount to swap").focus()
  await snap(page, info, "a11y-amount-focus")
})

test("Escape closes each dialog and gives focus back to the control that opened it", async ({ page }, info) => {
  test.setTimeout(60_000)
  await page.goto("/")
  await pageReady(page)
  // A toast is the newest layer while it shows and takes Escape first: let the welcome toast come and go.
  await closeWelcomeToast(page)
  const card = page.getByTestId("swap-card")
  const dialogs: Array<[Locator, string]> = [
    [card.getByRole("button", { name: "Liquidity" }), "liquidity-dialog"],
    [card.getByRole("button", { name: "FAQ" }), "faq-dialog"],
    [card.getByRole("button", { name: "Routes" }), "routes-dialog"],
    [card.getByRole("button", { name: "hETH From token" }), "token-dialog"]
  ]
  for (const [trigger, testId] of dialogs) {
    await trigger.focus()
    await page.keyboard.press("Enter")
    await expect(page.getByTestId(testId)).toBeVisible()
    await page.keyboard.press("Escape")
    await expect(page.getByTestId(testId)).toBeHidden()
    await expect(trigger, `focus back on the trigger of ${testId}`).toBeFocused()
  }
  // Exchange Details, from a Network Activity row (the devnet seeds some swaps).
  const row = page.getByTestId("transaction-row").first().getByRole("button").first()
  if ((await row.count()) > 0) {
    await row.focus()
    await page.keyboard.press("Enter")
    await expect(page.getByRole("dialog", { name: "Exchange Details" })).toBeVisible()
    await page.keyboard.press("Escape")
    await expect(page.getByRole("dialog", { name: "Exchange Details" })).toBeHidden()
    await expect(row).toBeFocused()
  }
  // Add Route (wide screens show Add): the form's buttons are in view in an 800 px high window.
  if (info.project.name !== "mobile") {
    await page.setViewportSize({ width: 1280, height: 800 })
    // A new visit brings the welcome toast again 4 s later; as on /, let it come and go so it cannot take the Escape.
    await forgetWelcomeShown(page)
    await page.goto("/swap")
    await pageReady(page)
    await closeWelcomeToast(page)
    const add = page.getByRole("button", { name: "Add", exact: true })
    await add.focus()
    await page.keyboard.press("Enter")
    const dialog = page.getByTestId("route-dialog")
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole("button", { name: "Add Route" })).toBeInViewport()
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeInViewport()
    await page.screenshot({ path: `e2e/screenshots/${info.project.name}-a11y-add-route-800.png` })
    await page.keyboard.press("Escape")
    await expect(dialog).toBeHidden()
    await expect(add).toBeFocused()
  }
})

test("the validator dialog waits while another dialog is open, then opens once it has closed", async ({
  page
}, info) => {
  test.setTimeout(60_000)
  // Effect's Random is seeded from Math.random at start: a fixed seed whose first draw is under 0.9 (it opens).
  await page.addInitScript(() => {
    window.localStorage.removeItem("validator-support-dismissed")
    Math.random = () => 0.5
  })
  await page.goto("/earn")
  await pageReady(page)
  // Hold with the wallet popover (a dialog would do the same: both count as overlays).
  const connect = page.getByTestId("connect-button-slot").getByRole("button")
  await connect.click()
  await expect(page.getByTestId("connect-popover")).toBeVisible()
  // Well past the 10 s mark, the popover is still open: no validator dialog on top of it.
  await page.waitForTimeout(12_000)
  await expect(page.getByTestId("validator-dialog")).toHaveCount(0)
  await snap(page, info, "a11y-validator-held")
  // The button toggles the popover (Escape would first close the welcome toast, the newest layer).
  await connect.click()
  await expect(page.getByTestId("connect-popover")).toBeHidden()
  // A second of quiet, then it opens, once.
  await expect(page.getByTestId("validator-dialog")).toBeVisible({ timeout: 5_000 })
  await snap(page, info, "a11y-validator-after-hold")
})

test("toasts queue: a message shows at once over the welcome toast, which comes back after it", async ({
  page
}, info) => {
  test.setTimeout(60_000)
  await page.goto("/hbtc")
  await pageReady(page)
  const toasts = page.getByTestId("toast")
  const welcome = toasts.filter({ hasText: "Welcome to hSwap" })
  await expect(welcome).toBeVisible({ timeout: 15_000 })
  await page.getByLabel("From (BTC)").fill("0.5")
  // Not connected: the main button says so; the bridge toast comes from the direction's action.
  await page.getByTestId("hbtc-main").click()
  const bridge = toasts.filter({ hasText: "Bridge in Development" })
  await expect(bridge).toBeVisible()
  const shownAt = Date.now()
  await expect(welcome).toBeHidden()
  await snap(page, info, "a11y-toast-queued")
  // The bridge toast keeps its 5 s; then the welcome toast is back for the rest of its 10 s.
  await expect(welcome).toBeVisible({ timeout: 10_000 })
  expect(Date.now() - shownAt).toBeGreaterThanOrEqual(4_500)
  await expect(bridge).toBeHidden()
})

// Phone width here; e2e/shell-polish.spec.ts has the wide screen (the popover closes there too, off Your Transactions).
test(
  "on a phone the connect popover closes once the wallet has connected",
  { tag: "@mobile-only" },
  async ({ page }, info) => {
    await page.goto("/?devnetWallet=auto")
    await pageReady(page)
    const slot = page.getByTestId("connect-button-slot")
    await slot.getByRole("button", { name: /connect/i }).click()
    await page.getByRole("button", { name: "Connect Now" }).click()
    await expect(slot.getByRole("button", { name: "Devnet Persona" })).toBeVisible({ timeout: 15_000 })
    await expect(page.getByTestId("connect-popover")).toBeHidden()
    await expect(slot.getByRole("button", { name: "Devnet Persona" })).toBeFocused()
    await snap(page, info, "a11y-connected-phone")
  }
)

// Sets its own widths, so it runs once: the mobile project leaves @desktop-only out.
test(
  "headers at 360, 390 and 1280 px: wordmark, tagline, badges on one line, the persona's name",
  {
    tag: "@desktop-only"
  },
  async ({ page }) => {
    test.setTimeout(60_000)
    await page.goto("/?devnetWallet=auto")
    await pageReady(page)
    const slot = page.getByTestId("connect-button-slot")
    await slot.getByRole("button", { name: /connect/i }).click()
    await page.getByRole("button", { name: "Connect Now" }).click()
    await expect(slot.getByRole("button", { name: "Devnet Persona" })).toBeVisible({ timeout: 15_000 })
    for (const width of [360, 390, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto("/hbtc")
      await pageReady(page)
      const header = page.locator("header").first()
      await expect(header.getByText("hSwap", { exact: true })).toBeVisible()
      await expect(page.getByTestId("tagline")).toBeVisible()
      await expect(page.getByTestId("balance-badge")).toBeVisible()
      // Nothing in the header spills out of the window, and it keeps to its rows: one on wide screens, two on phones
      // (the wallet button on the first, beside the brand).
      const overflow = await header.evaluate((h) => h.scrollWidth - h.clientWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      const brandTop = (await header.getByText("hSwap", { exact: true }).boundingBox())?.y ?? 0
      const buttonBox = await slot.boundingBox()
      expect(Math.abs((buttonBox?.y ?? 0) + (buttonBox?.height ?? 0) / 2 - brandTop - 12)).toBeLessThan(16)
      // The page starts below the header.
      const headerBottom = await header.evaluate((h) => h.getBoundingClientRect().bottom)
      const titleTop = await page
        .locator("main h1")
        .first()
        .evaluate((h) => h.getBoundingClientRect().top)
      expect(titleTop).toBeGreaterThanOrEqual(headerBottom)
      const face = slot.getByRole("button", { name: "Devnet Persona" }).locator("span")
      const cut = await face.evaluate((s) => s.scrollWidth > s.clientWidth)
      // At 1280 px there is room for the whole name.
      if (width === 1280) expect(cut).toBe(false)
      if (width < 768) await page.getByTestId("menu-toggle").click()
      const soon = page.locator('[data-nav-id="hbtc"]').getByText("Soon")
      const lines = await soon.evaluate((el) =>
        Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight))
      )
      expect(lines).toBeLessThanOrEqual(1)
      await page.screenshot({ path: `e2e/screenshots/desktop-a11y-header-${width}.png` })
      if (width < 768) await page.keyboard.press("Escape")
    }
    // 404 on the devnet: the countdown goes home, not to the website.
    await page.goto("/no/such/page")
    await expect(page.getByText(/Redirecting to the home page in/)).toBeVisible()
    await page.waitForURL((url) => url.pathname === "/", { timeout: 9_000 })
  }
)

// One swap is enough: desktop only.
test(
  "a successful swap celebrates without a CSP violation (confetti draws without a blob: worker)",
  {
    tag: "@desktop-only"
  },
  async ({ page }) => {
    test.setTimeout(120_000)
    const violations: Array<string> = []
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
    })
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) =>
        console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`)
      )
      // Counts the canvases added to the page (the confetti's own, removed again when it ends).
      const w = window as unknown as { canvases: number }
      w.canvases = 0
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n instanceof HTMLCanvasElement) w.canvases++
      }).observe(document, { childList: true, subtree: true })
    })
    await page.goto("/?devnetWallet=auto")
    await pageReady(page)
    const action = page.getByTestId("swap-action")
    await action.click()
    await expect(page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" })).toBeVisible({
      timeout: 20_000
    })
    await page.getByLabel("Amount to swap").fill("0.012")
    await expect(action).toHaveText("Prepare the exchange")
    await action.click()
    await expect(action).toHaveText(/^Execute Swap/)
    await action.click()
    await expect(page.getByTestId("latest-transaction-dialog")).toBeVisible({ timeout: 60_000 })
    // The confetti runs for 2 s after the swap; a canvas of its own is drawn on the main thread.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { canvases: number }).canvases))
      .toBeGreaterThan(0)
    await page.waitForTimeout(2_500)
    expect(violations).toEqual([])
  }
)
