import { type Browser, expect, type Locator, type Page, test, type TestInfo } from "@playwright/test"
import { appMounted, blockExternal, snap } from "./helpers"

const PAGES = [
  { path: "/", title: "Exchange Wrapped Assets", name: "exchange" },
  { path: "/swap", title: "Swap", name: "aggregator" },
  { path: "/bridge", title: "Cross-Chain Bridge", name: "bridge" },
  { path: "/hbtc", title: "hBTC Bridge", name: "hbtc" },
  { path: "/earn", title: "Earn Rewards", name: "earn" },
  { path: "/airdrop", title: "hSwap Airdrop - Season 1", name: "airdrop" },
  { path: "/stats", title: "Stats", name: "stats" },
  { path: "/proof-of-funds", title: "Proof of Funds", name: "proof-of-funds" }
] as const

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
})

for (const p of PAGES) {
  test(`${p.path} renders its title`, async ({ page }, info) => {
    await page.goto(p.path)
    await expect(page.getByRole("heading", { level: 1, name: p.title, exact: true })).toBeVisible()
    // Read as one phrase (a visually hidden copy; an aria-label on a <p> is prohibited).
    await expect(page.getByTestId("tagline").getByText("Swap, Bridge, Save and Earn", { exact: true })).toBeAttached()
    await snap(page, info, p.name)
  })
}

test("navigation highlights the current route", async ({ page }, info) => {
  const small = info.project.name === "mobile"
  await page.goto("/bridge")
  const sidebar = page.getByTestId("sidebar")
  if (small) await page.getByTestId("menu-toggle").click()
  await expect(sidebar.locator('[data-nav-id="bridge"]')).toHaveAttribute("aria-current", "page")
  await expect(sidebar.locator('[data-nav-id="exchange"]')).not.toHaveAttribute("aria-current", "page")
  await sidebar.getByRole("link", { name: "Stats" }).click()
  await expect(page).toHaveURL(/\/stats$/)
  if (small) await page.getByTestId("menu-toggle").click()
  await expect(sidebar.locator('[data-nav-id="stats"]')).toHaveAttribute("aria-current", "page")
  await expect(sidebar.locator('[data-nav-id="bridge"]')).not.toHaveAttribute("aria-current", "page")
  const labels = await sidebar
    .locator("[data-nav-id]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-nav-id")))
  expect(labels).toEqual(["exchange", "swap", "bridge", "hbtc", "earn", "airdrop", "stats", "proof-of-funds"])
  await expect(sidebar.locator('[data-nav-id="hbtc"]')).toContainText("Soon")
  await expect(sidebar.locator('[data-nav-id="earn"]')).toContainText("Soon")
  await snap(page, info, "nav-highlight")
})

test("under 768 px the sidebar is a drawer; on wide screens it is always shown", async ({ page }, info) => {
  await page.goto("/")
  if (info.project.name !== "mobile") {
    await expect(page.getByTestId("menu-toggle")).toBeHidden()
    await expect(page.getByTestId("sidebar")).toBeInViewport()
    await expect(page.locator("header").getByTestId("runs-on")).toBeVisible()
    return
  }
  const sidebar = page.getByTestId("sidebar")
  await expect(sidebar).toHaveAttribute("data-open", "false")
  await expect(sidebar).not.toBeInViewport()
  // The toggle is prerendered markup until the app has mounted.
  await appMounted(page)
  await page.getByTestId("menu-toggle").click()
  await expect(sidebar).toHaveAttribute("data-open", "true")
  await expect(sidebar).toBeInViewport()
  await expect(sidebar.getByTestId("runs-on")).toBeVisible()
  await snap(page, info, "drawer-open")
  await sidebar.getByRole("link", { name: "Airdrop" }).click()
  await expect(page).toHaveURL(/\/airdrop$/)
  await expect(sidebar).toHaveAttribute("data-open", "false")
  await expect(sidebar).not.toBeInViewport()
  // The backdrop and Escape close it too.
  await page.getByTestId("menu-toggle").click()
  await expect(sidebar).toBeInViewport()
  await page.keyboard.press("Escape")
  await expect(sidebar).not.toBeInViewport()
})

test("an unknown path counts down and redirects home (the devnet's target; the website on mainnet)", async ({
  page
}, info) => {
  await page.goto("/definitely/not/here")
  await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible()
  await expect(page.getByTestId("redirect-seconds")).toHaveText("5")
  await expect(page.getByRole("progressbar", { name: "Redirect countdown" })).toBeVisible()
  await snap(page, info, "not-found")
  await expect(page.getByText(/Redirecting to the home page in/)).toBeVisible()
  await page.waitForURL((url) => url.pathname === "/", { timeout: 9_000 })
  await expect(page.getByRole("heading", { name: "Exchange Wrapped Assets" })).toBeVisible()
})

test("a path that does not decode, holds a NUL, or differs only in case gets the 404 page", async ({ page }, info) => {
  const errors: Array<string> = []
  page.on("pageerror", (e) => errors.push(e.message))
  for (const [path, name] of [
    ["/%E0%A4%A", "undecodable"],
    ["/%00", "nul"],
    ["/SWAP", "upper-case"]
  ] as const) {
    const response = await page.goto(path)
    expect([path, response?.status()]).toEqual([path, 200])
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible()
    await expect(page.getByTestId("redirect-seconds")).toBeVisible()
    await snap(page, info, `not-found-${name}`)
  }
  expect(errors).toEqual([])
})

/** 40 digits: as long as the amount fields take. */
const LONG_AMOUNT = "1234567890123456789012345678901234567890"

/** The page's widest point against the viewport: nothing may scroll sideways. */
const overflowOf = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/** "$74,214,…,276.50" has its digits; a floating-point product ends in ",000,000,000,000.00". */
const significantDigits = (usd: string) => usd.replace(/[^\d]/g, "").replace(/0+$/, "").length

test("a 40-digit amount stays inside the card and the screen, with its exact USD estimate", async ({ page }, info) => {
  await page.setViewportSize({ width: info.project.name === "mobile" ? 360 : 1280, height: 860 })
  await page.goto("/")
  await appMounted(page)
  const card = page.getByTestId("swap-card")
  await page.getByLabel("Amount to swap").fill(LONG_AMOUNT)
  await expect(page.getByTestId("to-amount")).not.toHaveText("0.0")
  await expect(page.getByTestId("from-usd")).not.toHaveText("≈ $0.00")
  expect(significantDigits((await page.getByTestId("from-usd").textContent()) ?? "")).toBeGreaterThan(30)
  expect(significantDigits((await page.getByTestId("to-usd").textContent()) ?? "")).toBeGreaterThan(30)
  expect(await overflowOf(page)).toBe(0)
  const cardBox = await card.boundingBox()
  for (const id of ["from-usd", "to-usd", "to-amount", "exchange-liquidity"]) {
    const box = await page.getByTestId(id).boundingBox()
    expect([id, box !== null && cardBox !== null && box.x + box.width <= cardBox.x + cardBox.width + 0.5]).toEqual([
      id,
      true
    ])
  }
  await snap(page, info, "long-amount-exchange")

  await page.goto("/hbtc")
  await appMounted(page)
  await page.getByLabel("From (BTC)").fill(LONG_AMOUNT)
  await expect(page.getByTestId("hbtc-to-amount")).toHaveText(LONG_AMOUNT)
  await expect(page.getByTestId("hbtc-usd")).not.toHaveText("≈ $0.00")
  expect(significantDigits((await page.getByTestId("hbtc-usd").textContent()) ?? "")).toBeGreaterThan(30)
  expect(await overflowOf(page)).toBe(0)
  await snap(page, info, "long-amount-hbtc")
})

test("hBTC labels change with the amount and the direction", async ({ page }, info) => {
  await page.goto("/hbtc")
  const main = page.getByTestId("hbtc-main")
  await expect(main).toHaveText("Connect Wallet")
  // The exchange server's Bitcoin price.
  await expect(page.getByTestId("btc-price")).toHaveText(/^BTC price: \$[\d,]+\.\d\d$/)
  const input = page.getByLabel("From (BTC)")
  await input.fill("0.25")
  await expect(input).toHaveValue("0.25")
  await page.getByTestId("hbtc-direction").click()
  await expect(page.getByLabel("From (hBTC)")).toHaveValue("")
  await expect(page.getByTestId("hbtc-destination")).toBeVisible()
  await page.getByLabel("From (hBTC)").pressSequentially("1.2.3")
  await expect(page.getByLabel("From (hBTC)")).toHaveValue("1.23")
  // One toast at a time: let the welcome toast (4 s after load) come first, so it cannot replace ours.
  await expect(page.getByTestId("toast").filter({ hasText: "Welcome to hSwap" })).toBeVisible({ timeout: 15_000 })
  await main.click()
  await expect(page.getByTestId("toast").filter({ hasText: "Bridge in Development" })).toBeVisible()
  await snap(page, info, "hbtc-export")
})

test("stats show the error state while the exchange API is absent, and the figures when it answers", async ({
  page
}, info) => {
  await page.route("**/api/stats", (route) => route.abort("connectionrefused"))
  await page.goto("/stats")
  await expect(page.getByText("Error loading data")).toHaveCount(4)
  await snap(page, info, "stats-error")
  await page.unroute("**/api/stats")
  await page.reload()
  await expect(page.getByTestId("stat-Total Volume")).toContainText("$")
  await expect(page.getByText("Error loading data")).toHaveCount(0)
  await snap(page, info, "stats")
})

test("hBTC shows 'Price unavailable' while the price call fails", async ({ page }, info) => {
  await page.route("**/api/btcbridge/price", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ message: "No price yet" }) })
  )
  await page.goto("/hbtc")
  await expect(page.getByTestId("btc-price")).toHaveText("Price unavailable")
  await expect(page.getByTestId("btc-price")).toHaveAttribute("title", "No price yet")
  await snap(page, info, "hbtc-price-unavailable")
})

test("the welcome toast opens by itself, and the validator dialog can be opened from the sidebar", async ({
  page
}, info) => {
  await page.addInitScript(() => window.localStorage.removeItem("validator-support-dismissed"))
  await page.goto("/earn")
  await expect(page.getByTestId("toast").filter({ hasText: "Welcome to hSwap" })).toBeVisible({ timeout: 15_000 })
  await snap(page, info, "welcome-toast")
  await page.keyboard.press("F8")
  await page.keyboard.press("Escape")
  if (info.project.name === "mobile") await page.getByTestId("menu-toggle").click()
  await page.getByRole("button", { name: "Support our validator" }).click()
  await expect(page.getByTestId("validator-dialog")).toBeVisible()
  await snap(page, info, "validator-dialog")
  await page.getByRole("button", { name: "Maybe later" }).click()
  await expect(page.getByTestId("validator-dialog")).toBeHidden()
  expect(await page.evaluate(() => localStorage.getItem("validator-support-dismissed"))).toBe("true")
})

/** `/` as the build wrote it, loaded with scripts off in a context of its own (close it after). */
const prerenderedPage = async (browser: Browser, info: TestInfo) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: info.project.use.viewport ?? { width: 1280, height: 800 }
  })
  const page = await context.newPage()
  await page.goto("/")
  return { context, page }
}

test("the built page paints / itself before any script runs", async ({ browser }, info) => {
  const { context, page } = await prerenderedPage(browser, info)
  // The page as it renders before any data: its heading and cards, the wallet button's placeholder; the frame-only
  // copy (for other paths) stays hidden.
  const root = page.locator("#root")
  await expect(root.getByRole("heading", { name: "Exchange Wrapped Assets" })).toBeVisible()
  await expect(root.getByTestId("swap-card")).toBeVisible()
  await expect(root.getByTestId("wallet-button-loading")).toBeAttached()
  await expect(page.locator("#shell-prerender")).toBeHidden()
  await snap(page, info, "prerendered-page")
  await context.close()
})

test("with JavaScript off, the page says it needs it, at the bottom of the screen; with it on, no such notice", async ({
  browser,
  page
}, info) => {
  const off = await prerenderedPage(browser, info)
  const notice = off.page.getByTestId("no-script")
  await expect(notice).toHaveText("This app needs JavaScript. Turn it on for this site, then reload the page.")
  await expect(notice).toHaveAttribute("role", "alert")
  await expect(notice).toBeInViewport()
  // At the bottom of the screen, and beside the sidebar where it shows (768 px and up), not over its links.
  const box = await notice.boundingBox()
  const viewport = off.page.viewportSize()
  expect(box !== null && viewport !== null && Math.round(box.y + box.height)).toBe(viewport?.height)
  const sidebar = await off.page.getByTestId("sidebar").boundingBox()
  if (info.project.name !== "mobile")
    expect(sidebar !== null && box !== null && box.x >= sidebar.x + sidebar.width).toBe(true)
  await snap(off.page, info, "no-script")
  await off.context.close()
  // With scripts on, a <noscript>'s content is never built: nothing to hide, nothing to cover the page.
  await page.goto("/")
  await appMounted(page)
  await expect(page.getByTestId("no-script")).toHaveCount(0)
})

/**
 * The first screen's type scale: each size and weight its text is set in (a font strike) costs the first layout a font
 * lookup of its own, 3–4 ms of CPU each in Chromium on Linux and about twice that at 4× slowdown (traced:
 * FontCache::GetFontPlatformData), all ahead of the first paint. Two weights (normal and semibold) and a few sizes:
 * on a wide screen thirteen strikes were seven (on a phone the title is 20 px, not 24). bench:app's FCP went from
 * 59–68% of the anchor's to 48–59%.
 */
const FIRST_SCREEN_STRIKES = [
  "12px/400",
  "12px/600",
  "14px/400",
  "14px/600",
  "16px/600",
  "18px/600",
  "20px/600",
  "24px/600"
]

test("the prerendered / sets its text in the type scale's few strikes", async ({ browser }, info) => {
  const { context, page } = await prerenderedPage(browser, info)
  const strikes = await page.evaluate(() => {
    const seen = new Set<string>()
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const element = node.parentElement
      if (element === null || (node.textContent ?? "").trim() === "") continue
      // What the layout sets in a font: text with a box (visually hidden text has one too; display: none has none).
      if (element.getClientRects().length === 0) continue
      const style = getComputedStyle(element)
      seen.add(`${style.fontSize}/${style.fontWeight}`)
    }
    return [...seen].sort()
  })
  await context.close()
  expect(strikes.length).toBeGreaterThan(0)
  for (const strike of strikes) expect(FIRST_SCREEN_STRIKES, strike).toContain(strike)
})

test("the app keeps the prerendered page: the first heading is the one on screen after hydration", async ({
  page
}, info) => {
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(e.message))
  await page.addInitScript(() =>
    document.addEventListener("DOMContentLoaded", () => {
      ;(window as unknown as { firstHeading: Element | null }).firstHeading = document.querySelector("#root h1")
    })
  )
  await page.goto("/")
  await expect(page.getByTestId("wallet-button-loading")).toHaveCount(0, { timeout: 15_000 })
  expect(
    await page.evaluate(
      () => (window as unknown as { firstHeading: Element | null }).firstHeading === document.querySelector("#root h1")
    )
  ).toBe(true)
  await expect(page.locator("#shell-prerender")).toHaveCount(0)
  // A navigation right away (React hydrates the page's boundaries at idle priority unless asked) is clean too.
  if (info.project.name === "mobile") await page.getByTestId("menu-toggle").click()
  await page.getByTestId("sidebar").getByRole("link", { name: "Stats" }).click()
  await expect(page.getByRole("heading", { name: "Stats" })).toBeVisible({ timeout: 15_000 })
  expect(errors).toEqual([])
})

test("a navigation at the app's first commit, before the page is hydrated, is clean", async ({ page }) => {
  // React hydrates the page's boundaries after the shell's commit; a navigation that reached them first made React
  // drop the prerendered page with error #422 (TanStack's Match found no match of its own in the next location).
  const errors: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(e.message))
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      if (document.documentElement.hasAttribute("data-first-paint")) return
      seen.disconnect()
      const first = document.querySelector("main")?.firstElementChild
      // React keeps its fiber on a node it has hydrated: whether the page was still to be hydrated at the click.
      ;(window as unknown as { pageHydratedAtClick: boolean }).pageHydratedAtClick =
        first !== null && first !== undefined && Object.keys(first).some((key) => key.startsWith("__reactFiber$"))
      const stats = [...document.querySelectorAll("a")].find((a) => a.getAttribute("href") === "/stats")
      stats?.click()
    })
    document.addEventListener("DOMContentLoaded", () =>
      seen.observe(document.documentElement, { attributes: true, attributeFilter: ["data-first-paint"] })
    )
  })
  await page.goto("/")
  await expect(page.getByRole("heading", { name: "Stats" })).toBeVisible({ timeout: 15_000 })
  expect(await page.evaluate(() => (window as unknown as { pageHydratedAtClick: boolean }).pageHydratedAtClick)).toBe(
    false
  )
  expect(errors).toEqual([])
})

test("another path paints the frame, never /'s page, and renders its own", async ({ page }) => {
  // Whether #root (which holds /'s page) would show, read as the parser inserts it, before anything can paint.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      const root = document.getElementById("root")
      if (root === null) return
      ;(window as unknown as { rootShown: boolean }).rootShown = getComputedStyle(root).display !== "none"
      seen.disconnect()
    })
    seen.observe(document, { childList: true, subtree: true })
  })
  await page.goto("/stats")
  await expect(page.getByRole("heading", { name: "Stats" })).toBeVisible({ timeout: 15_000 })
  expect(await page.evaluate(() => (window as unknown as { rootShown: boolean }).rootShown)).toBe(false)
  await expect(page.getByText("Exchange Wrapped Assets")).toHaveCount(0)
  await expect(page.locator("#shell-prerender")).toHaveCount(0)
})

test("the prerendered copy is gone once the app's own shell is there", async ({ page }) => {
  await page.goto("/")
  await expect(page.getByTestId("swap-card")).toBeVisible()
  await expect(page.locator("#shell-prerender")).toHaveCount(0)
})

test("a live chunk that cannot load leaves the shell and says so, with Reload", async ({ page }, info) => {
  await page.route(/\/assets\/live-[^/]*\.js$/, (route) => route.abort("failed"))
  await page.goto("/")
  const alert = page.getByRole("alert")
  await expect(alert.getByRole("heading", { name: "The app could not load" })).toBeVisible()
  await expect(alert.getByRole("button", { name: "Reload" })).toBeEnabled()
  await expect(page.getByTestId("sidebar").getByText("Exchange hAssets")).toBeAttached()
  // Nothing is loading any more, so nothing pulses: the wallet button's place stays still.
  await expect(page.getByTestId("wallet-button-unavailable")).toBeAttached()
  await expect(page.locator(".animate-pulse")).toHaveCount(0)
  await snap(page, info, "live-chunk-failed")
  await page.unroute(/\/assets\/live-[^/]*\.js$/)
  await alert.getByRole("button", { name: "Reload" }).click()
  await expect(page.getByTestId("swap-card")).toBeVisible()
})

test("the app's own code runs only after the first paint", async ({ page }) => {
  // As bench:app loads it: on a slow CPU the entry's files are there before the parser is done, and ran before the paint.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 })
  await page.goto("/")
  await appMounted(page)
  const { paint, stages } = await page.evaluate(() => {
    const first = performance.getEntriesByName("first-paint")[0] as
      (PerformanceEntry & { paintTime?: number }) | undefined
    const mark = performance.getEntriesByName("hswap:entry-stages")[0]
    return { paint: first === undefined ? undefined : (first.paintTime ?? first.startTime), stages: mark?.startTime }
  })
  expect(paint).toBeDefined()
  expect(stages).toBeDefined()
  expect(stages!).toBeGreaterThanOrEqual(paint!)
})

/**
 * Under 768 px, the notice's page keeps a working menu button: the sidebar of the copy that shows (its links, the
 * support links at its foot) opens and closes without React (shell/loadFailure.ts, shell/entryLoader.ts).
 */
const menuStillOpens = async (page: Page, copy: Locator, info: TestInfo, name: string) => {
  if (info.project.name !== "mobile") return
  const button = copy.locator('header [aria-controls="sidebar"]')
  const sidebar = copy.locator('nav[aria-label="Main"]')
  await expect(sidebar).not.toBeInViewport()
  await button.click()
  await expect(button).toHaveAttribute("aria-expanded", "true")
  await expect(button).toHaveAttribute("aria-label", "Close menu")
  // Wholly on screen: the drawer's slide-in is over.
  await expect(sidebar).toBeInViewport({ ratio: 1 })
  await snap(page, info, name)
  await button.click()
  await expect(button).toHaveAttribute("aria-expanded", "false")
  await expect(sidebar).not.toBeInViewport()
}

test("an entry stage that cannot load leaves the prerendered frame and says so, with Reload", async ({
  page
}, info) => {
  await blockExternal(page)
  const errors: Array<string> = []
  page.on("pageerror", (e) => errors.push(e.message))
  await page.route(/\/assets\/start-[^/]*\.js$/, (route) => route.abort("failed"))
  await page.goto("/")
  const alert = page.getByRole("alert")
  await expect(alert.getByRole("heading", { name: "The app could not load" })).toBeVisible()
  await expect(alert.getByText("Check your connection, then reload the page.")).toBeVisible()
  await expect(page.getByTestId("sidebar").getByText("Exchange hAssets")).toBeVisible()
  await expect(page.locator("#shell-prerender")).toHaveCount(0)
  await expect(page.getByTestId("wallet-button-unavailable")).toBeAttached()
  await expect(page.locator(".animate-pulse")).toHaveCount(0)
  await snap(page, info, "entry-stage-failed")
  await menuStillOpens(page, page.locator("#root"), info, "entry-stage-failed-menu")
  expect(errors).toEqual([])
  await page.unroute(/\/assets\/start-[^/]*\.js$/)
  await alert.getByRole("button", { name: "Reload" }).click()
  await appMounted(page)
  await expect(page.getByTestId("swap-card")).toBeVisible()
  // The notice is gone (the toasts' region has an alert of its own, empty, for what it announces).
  await expect(page.getByRole("heading", { name: "The app could not load" })).toHaveCount(0)
})

/** The entry's file, as index.html's loader names it in its `data-entry` (src/app/shell/entryLoader.ts). */
const entryNamedIn = (html: string) => /<script type="module" data-entry="([^"]+)">/.exec(html)?.[1]

test("an entry file that cannot load gets the same notice from index.html's loader, with Reload", async ({
  page
}, info) => {
  await blockExternal(page)
  const errors: Array<string> = []
  page.on("pageerror", (e) => errors.push(e.message))
  const logged: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error") logged.push(m.text())
  })
  const entry = entryNamedIn(await (await page.request.get("/stats")).text())
  expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/)
  // The preload at the end of the body and the loader's script both ask for it; neither gets it.
  await page.route(`**${entry}`, (route) => route.abort("failed"))
  // Another path than `/`: the frame-only copy paints first, and the notice takes its content area; #root (`/`'s
  // copy, whose navigation marks Exchange hAssets as the current page) stays hidden.
  await page.goto("/stats", { waitUntil: "domcontentloaded" })
  const alert = page.getByRole("alert")
  await expect(alert.getByRole("heading", { name: "The app could not load" })).toBeVisible()
  await expect(alert.getByText(`The app's entry did not load: `)).toContainText(entry!)
  await expect(alert.getByText("Check your connection, then reload the page.")).toBeVisible()
  const frame = page.locator("#shell-prerender")
  await expect(frame.getByRole("main").getByRole("alert")).toBeVisible()
  await expect(page.locator("#root")).toBeHidden()
  await expect(frame.locator('[aria-current="page"]')).toHaveCount(0)
  // Nothing is loading any more: no placeholder pulses (the frame-only copy's markup carries no test ids).
  await expect(frame.locator("header .opacity-50")).toBeVisible()
  await expect(frame.locator(".animate-pulse")).toHaveCount(0)
  await snap(page, info, "entry-failed")
  await menuStillOpens(page, frame, info, "entry-failed-menu")
  expect(errors).toEqual([])
  expect(logged.some((text) => text.includes("hSwap: the entry could not load:") && text.includes(entry!))).toBe(true)
  await page.unroute(`**${entry}`)
  await alert.getByRole("button", { name: "Reload" }).click()
  await appMounted(page)
  await expect(page.getByRole("heading", { name: "The app could not load" })).toHaveCount(0)
  await expect(page).toHaveURL(/\/stats$/)
})

test("an entry file that arrives cut short (it cannot run) gets the notice too, on /", async ({ page }) => {
  await blockExternal(page)
  const logged: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error") logged.push(m.text())
  })
  const entry = entryNamedIn(await (await page.request.get("/")).text())
  expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/)
  const whole = await (await page.request.get(entry!)).text()
  // Half the file, as a dropped connection behind a proxy that still answered 200 would leave it: a SyntaxError.
  await page.route(`**${entry}`, (route) =>
    route.fulfill({ status: 200, contentType: "text/javascript", body: whole.slice(0, whole.length / 2) })
  )
  await page.goto("/", { waitUntil: "domcontentloaded" })
  const alert = page.locator("#root").getByRole("main").getByRole("alert")
  await expect(alert.getByRole("heading", { name: "The app could not load" })).toBeVisible()
  await expect(alert.getByText(`The app's entry did not load: `)).toContainText(entry!)
  await expect(page.locator("#shell-prerender")).toHaveCount(0)
  await expect(page.getByTestId("wallet-button-unavailable")).toBeAttached()
  await expect(page.locator(".animate-pulse")).toHaveCount(0)
  expect(logged.some((text) => text.includes("hSwap: the entry could not load:") && text.includes("SyntaxError"))).toBe(
    true
  )
  await page.unroute(`**${entry}`)
  await alert.getByRole("button", { name: "Reload" }).click()
  await appMounted(page)
  await expect(page.getByTestId("swap-card")).toBeVisible()
})

test("a click on the prerendered page before the app mounts is kept and replayed once it has", async ({
  page
}, info) => {
  await blockExternal(page)
  // Hold the live chunk back, so that the click surely lands while nothing but the entry script runs.
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/live-[^/]*\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto("/")
  const faq = page.locator("#root").getByRole("button", { name: "FAQ", exact: true })
  await expect(faq).toBeVisible()
  await expect(page.locator("html")).toHaveAttribute("data-first-paint", "page")
  // Twice, as an impatient user would: it is one action, replayed once.
  await faq.click()
  await faq.click()
  await expect(page.locator("html")).toHaveAttribute("data-first-paint", "page")
  await expect(page.getByTestId("faq-dialog")).toHaveCount(0)
  release()
  await appMounted(page)
  const dialog = page.getByTestId("faq-dialog")
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole("heading", { name: "Frequently Asked Questions" })).toBeVisible()
  await snap(page, info, "early-click-replayed")
  // Closing it leaves nothing else open: the second click was not replayed as another action.
  await page.keyboard.press("Escape")
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole("dialog")).toHaveCount(0)
})

test("the entry starts from the end of the markup, and a click made before it runs is kept and replayed", async ({
  page
}, info) => {
  await blockExternal(page)
  const violations: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error") violations.push(m.text())
  })
  const html = await (await page.request.get("/")).text()
  const entry = entryNamedIn(html)
  expect(entry).toMatch(/^\/assets\/index-[\w-]+\.js$/)
  // Nothing in the head asks for JS before the markup: no module script and no modulepreload.
  const head = html.slice(0, html.indexOf("</head>"))
  expect(head).not.toContain('type="module"')
  expect(head).not.toContain("modulepreload")
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  let entryRequests = 0
  await page.route(`**${entry}`, async (route) => {
    entryRequests += 1
    await held
    await route.continue()
  })
  // The entry's script holds the load event back (it was added before it), so only the markup is waited for.
  await page.goto("/", { waitUntil: "domcontentloaded" })
  const faq = page.locator("#root").getByRole("button", { name: "FAQ", exact: true })
  await expect(faq).toBeVisible()
  // The end of the body preloads the entry's file, and the loader's script reuses that one request.
  expect(await page.locator(`body > link[rel="modulepreload"][href="${entry}"]`).count()).toBe(1)
  // Only the loader runs: the entry's stages are not requested yet, and nothing has mounted.
  expect(await page.locator("link[data-entry-stage]").count()).toBe(0)
  await faq.click()
  await faq.click()
  await expect(page.getByTestId("faq-dialog")).toHaveCount(0)
  release()
  await appMounted(page)
  const dialog = page.getByTestId("faq-dialog")
  await expect(dialog).toBeVisible()
  await snap(page, info, "click-before-entry-replayed")
  expect(entryRequests).toBe(1)
  // The entry asked for its stages' files (React's and the start's) in one go.
  const stages = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>("link[data-entry-stage]")].map((l) => new URL(l.href).pathname)
  )
  for (const name of ["react", "start"])
    expect(
      stages.some((p) => new RegExp(`^/assets/${name}-[\\w-]+\\.js$`).test(p)),
      name
    ).toBe(true)
  await page.keyboard.press("Escape")
  await expect(page.getByRole("dialog")).toHaveCount(0)
  // The served policy admits the loader by its hash: no script was refused.
  expect(violations.filter((v) => /Content Security Policy|Refused to/.test(v))).toEqual([])
})

test("the live chunk's files are preloaded before the stages ask for them, each listed and fetched once", async ({
  page
}) => {
  const fetched: Array<string> = []
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname
    if (path.startsWith("/assets/") && path.endsWith(".js")) fetched.push(path)
  })
  // Each insertion of modulepreload links into the head, as one batch per mutation record.
  await page.addInitScript(() => {
    const batches: Array<Array<string>> = []
    ;(window as unknown as { preloadBatches: typeof batches }).preloadBatches = batches
    new MutationObserver((records) => {
      for (const record of records) {
        const hrefs = [...record.addedNodes]
          .filter((n): n is HTMLLinkElement => n instanceof HTMLLinkElement && n.rel === "modulepreload")
          .map((l) => new URL(l.href).pathname)
        if (hrefs.length > 0) batches.push(hrefs)
      }
    }).observe(document, { childList: true, subtree: true })
  })
  await page.goto("/")
  await appMounted(page)
  const batches = await page.evaluate(
    () => (window as unknown as { preloadBatches: Array<Array<string>> }).preloadBatches
  )
  // The build's list (build/liveChunkList.ts) goes in a few links a task, from the task after the entry's, ahead
  // of the later stages: the live chunk, the swap machine's stage and the page of `/` among them. (Vite lists the
  // first stages' files itself as it imports them, whichever comes first.)
  const ours = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>("link[data-live-chunk]")].map((l) => new URL(l.href).pathname)
  )
  for (const name of ["live", "SwapMachine", "ExchangeApi"])
    expect(
      ours.some((p) => new RegExp(`^/assets/${name}-[\\w-]+\\.js$`).test(p)),
      name
    ).toBe(true)
  const preloaded = batches.flat()
  expect(new Set(preloaded).size).toBe(preloaded.length)
  // A link inserted just now (the Gateway client's files, as its start-up read loads it) has its request reported a
  // moment later: wait for each.
  for (const p of preloaded) await expect.poll(() => fetched, { message: p }).toContain(p)
  expect(new Set(fetched).size).toBe(fetched.length)
})

/** Loads `/` until the app runs, with the body of every JS file under /assets/ that the load fetched, by path. */
const firstVisitScripts = async (page: Page): Promise<ReadonlyMap<string, Promise<string>>> => {
  const bodies = new Map<string, Promise<string>>()
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname
    if (/^\/assets\/[^/]+\.js$/.test(path)) bodies.set(path, r.text())
  })
  await page.goto("/")
  await appMounted(page)
  await expect(page.getByTestId("swap-card")).toBeVisible()
  return bodies
}

test("the start's file asks V8 to compile it whole, and no other file of the first visit does", async ({ page }) => {
  const bodies = await firstVisitScripts(page)
  const hinted: Array<string> = []
  for (const [path, body] of bodies) if ((await body).startsWith("//# allFunctionsCalledOnLoad\n")) hinted.push(path)
  expect(hinted.map((p) => p.replace(/^\/assets\/(\w+)-[\w-]+\.js$/, "$1")).sort()).toEqual(["start"])
})

test("the stages' files let the browser in between their larger modules (yield points), and the app still runs", async ({
  page
}) => {
  const bodies = await firstVisitScripts(page)
  const entry = await page.evaluate(
    () => new URL(document.querySelector<HTMLScriptElement>("script[type=module]")!.src).pathname
  )
  const entryFile = entry.slice(entry.lastIndexOf("/") + 1)
  // A point is a top-level `await f();` of a function the file takes from the entry (inStages.ts yieldIfLate).
  const points = new Map<string, number>()
  let entryPoints: number | undefined
  for (const [path, pending] of bodies) {
    const body = await pending
    const fromEntry = new RegExp(`import\\{([^}]*)\\}from"\\./${entryFile.replace(/[.$]/g, "\\$&")}"`).exec(body)?.[1]
    const names = new Set((fromEntry ?? "").split(",").map((s) => s.split(" as ").at(-1)!.trim()))
    const count = [...body.matchAll(/(?:^|[;}\n])await ([\w$]+)\(\);/g)].filter((m) => names.has(m[1]!)).length
    if (path === entry) entryPoints = [...body.matchAll(/(?:^|[;}\n])await [\w$]+\(\);/g)].length
    else points.set(path.replace(/^\/assets\/(\w+)-[\w-]+\.js$/, "$1"), count)
  }
  // Effect's core is the first visit's largest evaluation: it is cut in many places; so is every Effect stage.
  expect(points.get("effect")).toBeGreaterThanOrEqual(20)
  for (const stage of ["data", "schema", "stream", "start", "live"]) expect(points.get(stage), stage).toBeGreaterThan(0)
  // React's stage is one CommonJS module each, and the entry waits for nothing.
  expect(points.get("react")).toBe(0)
  expect(entryPoints).toBe(0)
})
