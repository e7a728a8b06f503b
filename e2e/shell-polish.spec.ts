import { expect, type Page, test } from "@playwright/test"
import { appMounted, blockExternal } from "./helpers"

/** Screenshots of this spec, for people to look at. */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: `e2e/screenshots/polish-${name}.png`, fullPage: false })

const pageReady = async (page: Page) => {
  await expect(page.locator("main h1").first()).toBeVisible({ timeout: 15_000 })
  await appMounted(page)
}

test.beforeEach(async ({ page }) => {
  await blockExternal(page)
})

// ---------------------------------------------------------------------------------------------------------------
// Each page's own title, one left edge for every page, a real favicon, "Season 1" kept together
// ---------------------------------------------------------------------------------------------------------------

const TITLES = [
  ["/", "Exchange Wrapped Assets | hSwap"],
  ["/swap", "Swap | hSwap"],
  ["/bridge", "Cross-Chain Bridge | hSwap"],
  ["/hbtc", "hBTC Bridge | hSwap"],
  ["/earn", "Earn Rewards | hSwap"],
  ["/airdrop", "Airdrop - Season 1 | hSwap"],
  ["/stats", "Stats | hSwap"],
  ["/proof-of-funds", "Proof of Funds | hSwap"],
  ["/no/such/page", "Page Not Found | hSwap"]
] as const

test("every page has its own document title, the brand after it, on load and after a client-side navigation", async ({
  page
}) => {
  test.setTimeout(120_000)
  for (const [path, title] of TITLES) {
    await page.goto(path)
    // The shell sets it once the app has mounted.
    await appMounted(page)
    await expect(page).toHaveTitle(title)
  }
  await page.goto("/stats")
  await pageReady(page)
  if ((page.viewportSize()?.width ?? 0) < 768) await page.getByTestId("menu-toggle").click()
  await page.getByTestId("sidebar").getByRole("link", { name: "Earn" }).click()
  await expect(page).toHaveTitle("Earn Rewards | hSwap")
})

test("every page starts at the same left edge at 390, 1280 and 1600 px", { tag: "@desktop-only" }, async ({ page }) => {
  test.setTimeout(180_000)
  const paths = ["/swap", "/bridge", "/earn", "/airdrop", "/stats", "/proof-of-funds"]
  for (const width of [390, 1280, 1600]) {
    await page.setViewportSize({ width, height: 800 })
    const lefts: Record<string, number> = {}
    for (const path of paths) {
      await page.goto(path)
      await pageReady(page)
      // The first thing in the page's frame: its title block.
      lefts[path] = await page
        .locator("main header")
        .first()
        .evaluate((el) => Math.round(el.getBoundingClientRect().left))
    }
    const first = lefts["/swap"]
    for (const path of paths) expect(lefts[path], `${path} at ${width} px: ${JSON.stringify(lefts)}`).toBe(first)
    await page.goto("/earn")
    await pageReady(page)
    await shot(page, `earn-${width}`)
  }
})

test("/favicon.ico is an icon, not the app's HTML", async ({ request }) => {
  const answer = await request.get("/favicon.ico")
  expect(answer.status()).toBe(200)
  expect(answer.headers()["content-type"]).toBe("image/x-icon")
  const body = await answer.body()
  // An ICO file's header: reserved 0, type 1 (icon), then at least one image.
  expect([...body.subarray(0, 4)]).toEqual([0, 0, 1, 0])
  expect(body.readUInt16LE(4)).toBeGreaterThan(0)
})

test("at 360 px the airdrop title keeps 'Season 1' on one line", { tag: "@desktop-only" }, async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 })
  await page.goto("/airdrop")
  await pageReady(page)
  const heading = page.getByRole("heading", { level: 1, name: "hSwap Airdrop - Season 1" })
  await expect(heading).toBeVisible()
  const season = heading.getByText("Season 1", { exact: true })
  // One line box for the words, and both on the heading's last line.
  expect(await season.evaluate((el) => el.getClientRects().length)).toBe(1)
  const [seasonBox, headingBox] = [await season.boundingBox(), await heading.boundingBox()]
  expect(Math.round((seasonBox?.y ?? 0) + (seasonBox?.height ?? 0))).toBeGreaterThanOrEqual(
    Math.round((headingBox?.y ?? 0) + (headingBox?.height ?? 0)) - 2
  )
  await shot(page, "airdrop-360")
})

// ---------------------------------------------------------------------------------------------------------------
// The tagline's letters stand still while they "bounce"; with reduced motion nothing plays
// ---------------------------------------------------------------------------------------------------------------

/** Every letter's top and left, to the pixel, and how many of them are animating. */
const letterBoxes = (page: Page) =>
  page.getByTestId("tagline").evaluate((p) => {
    const letters = [...p.querySelectorAll<HTMLElement>("span[aria-hidden]")]
    // Each letter's place within the tagline's own box: the header's rows may settle on a phone while the islands
    // mount (the whole line moves), which is not a letter leaving its place.
    const line = p.getBoundingClientRect()
    return {
      boxes: letters.map((l) => {
        const r = l.getBoundingClientRect()
        return `${Math.round((r.left - line.left) * 10) / 10},${Math.round((r.top - line.top) * 10) / 10}`
      }),
      transforms: letters.map((l) => getComputedStyle(l).transform).filter((t) => t !== "none"),
      running: letters.reduce((n, l) => n + l.getAnimations().filter((a) => a.playState === "running").length, 0)
    }
  })

test("the tagline's letters keep their place in every frame of the bounce", async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto("/earn")
  await pageReady(page)
  const tagline = page.getByTestId("tagline")
  // The places at rest are read once the letters are laid out: right after the page is ready, the tagline's island may
  // still be swapping in its letters, whose boxes then all read 0,0 for a frame.
  await expect.poll(async () => new Set((await letterBoxes(page)).boxes).size, { timeout: 10_000 }).toBeGreaterThan(1)
  const rest = await letterBoxes(page)
  await expect(tagline).toHaveAttribute("data-bouncing", "true", { timeout: 35_000 })
  let sawRunning = false
  // Sampled through the whole wave (27 letters: 3.56 s), every 100 ms.
  for (let i = 0; i < 36; i++) {
    const now = await letterBoxes(page)
    sawRunning ||= now.running > 0
    expect(now.boxes).toEqual(rest.boxes)
    expect(now.transforms).toEqual([])
    if (i === 5) await shot(page, "tagline-mid-bounce")
    await page.waitForTimeout(100)
  }
  // It did play: the letters light up in turn.
  expect(sawRunning).toBe(true)
})

test("with reduced motion the tagline plays nothing", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" })
  await page.goto("/earn")
  const tagline = page.getByTestId("tagline")
  await expect(tagline).toHaveAttribute("data-bouncing", "true", { timeout: 15_000 })
  for (let i = 0; i < 10; i++) {
    expect((await letterBoxes(page)).running).toBe(0)
    await page.waitForTimeout(100)
  }
})

// ---------------------------------------------------------------------------------------------------------------
// The liquidity table reads at a phone's width
// ---------------------------------------------------------------------------------------------------------------

test(
  "the liquidity table at 360, 390 and 1280 px: no two cells run together, nothing spills out",
  {
    tag: "@desktop-only"
  },
  async ({ page }) => {
    test.setTimeout(60_000)
    for (const width of [360, 390, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto("/")
      await pageReady(page)
      await page.getByTestId("swap-card").getByRole("button", { name: "Liquidity" }).click()
      const dialog = page.getByTestId("liquidity-dialog")
      await expect(dialog.getByTestId("liquidity-asset").first()).toBeVisible({ timeout: 15_000 })
      const problems = await dialog.locator("table").evaluate((table) => {
        const found: Array<string> = []
        const box = table.getBoundingClientRect()
        const frame = table.parentElement?.getBoundingClientRect() ?? box
        if (box.right > frame.right + 0.5 || box.left < frame.left - 0.5) found.push(`table ${box.left}-${box.right}`)
        for (const row of table.querySelectorAll("tr")) {
          const cells = [...row.querySelectorAll("th, td")].map((c) => ({
            text: c.textContent ?? "",
            r: c.getBoundingClientRect(),
            clipped: c.scrollWidth > c.clientWidth + 1
          }))
          for (const c of cells) if (c.clipped) found.push(`clipped: ${c.text}`)
          // Texts on one line of the row: at least 8 px of space between each and the next.
          for (const a of cells)
            for (const b of cells) {
              if (a === b || a.r.left > b.r.left) continue
              const sameLine = a.r.top < b.r.bottom - 2 && b.r.top < a.r.bottom - 2
              const texts = (c: (typeof cells)[number]) => {
                const range = document.createRange()
                const cell = [...row.querySelectorAll("th, td")].find((x) => x.textContent === c.text)
                if (cell === undefined) return c.r
                range.selectNodeContents(cell)
                return range.getBoundingClientRect()
              }
              const [ta, tb] = [texts(a), texts(b)]
              if (sameLine && tb.left - ta.right < 8)
                found.push(`"${a.text}" and "${b.text}" ${tb.left - ta.right} px apart`)
            }
        }
        return found
      })
      expect(problems, `at ${width} px`).toEqual([])
      await shot(page, `liquidity-${width}`)
      await page.keyboard.press("Escape")
    }
  }
)

// ---------------------------------------------------------------------------------------------------------------
// Header: the persona's whole name on a phone; the connect popover closes once connected
// ---------------------------------------------------------------------------------------------------------------

const connectFromHeader = async (page: Page) => {
  await page.goto("/?devnetWallet=auto")
  await pageReady(page)
  const slot = page.getByTestId("connect-button-slot")
  await slot.getByRole("button", { name: /connect/i }).click()
  await page.getByRole("button", { name: "Connect Now" }).click()
  await expect(slot.getByRole("button", { name: "Devnet Persona" })).toBeVisible({ timeout: 20_000 })
}

test("connecting from the header's popover closes it, off 'Your Transactions'", async ({ page }) => {
  test.setTimeout(90_000)
  await connectFromHeader(page)
  await expect(page.getByTestId("connect-popover")).toBeHidden()
  const panel = page.getByTestId("your-transactions")
  await expect(panel.getByRole("heading", { name: "Your Transactions" })).toBeVisible()
  // On a phone the panel is below the card: in view first ('Wallet Connected' may still be up, at the top).
  await panel.getByRole("heading", { name: "Your Transactions" }).scrollIntoViewIfNeeded()
  await expect(page.getByTestId("toast").filter({ hasText: "Wallet Connected" })).toHaveCount(0, { timeout: 10_000 })
  // Nothing on top of the panel's heading: the element at its centre is the heading (or inside it).
  const covered = await panel.getByRole("heading", { name: "Your Transactions" }).evaluate((h) => {
    const r = h.getBoundingClientRect()
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return top === null || !h.contains(top)
  })
  expect(covered).toBe(false)
  // The button opens it again, on the sharing tab.
  await page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" }).click()
  await expect(page.getByTestId("connect-popover")).toBeVisible()
  await shot(page, `popover-reopened-${page.viewportSize()?.width ?? 0}`)
})

test(
  "the wallet button shows the persona's whole name at 360, 390 and 1280 px, the header on its rows",
  {
    tag: "@desktop-only"
  },
  async ({ page }) => {
    test.setTimeout(150_000)
    await connectFromHeader(page)
    for (const width of [360, 390, 1280]) {
      await page.setViewportSize({ width, height: 800 })
      await page.goto("/")
      await pageReady(page)
      const slot = page.getByTestId("connect-button-slot")
      const face = slot.getByRole("button", { name: "Devnet Persona" })
      await expect(face).toBeVisible({ timeout: 15_000 })
      await expect(face).toHaveText("Devnet Persona")
      expect(await face.locator("span").evaluate((s) => s.scrollWidth > s.clientWidth)).toBe(false)
      const header = page.locator("header").first()
      expect(await header.evaluate((h) => h.scrollWidth - h.clientWidth)).toBeLessThanOrEqual(0)
      // Brand and button share the first row; the tagline and the info button share the next one on a phone.
      const [brand, button, tagline, info] = await Promise.all([
        header.getByText("hSwap", { exact: true }).boundingBox(),
        face.boundingBox(),
        page.getByTestId("tagline").boundingBox(),
        page.getByTestId("welcome-info").boundingBox()
      ])
      const middle = (b: typeof brand) => (b?.y ?? 0) + (b?.height ?? 0) / 2
      expect(Math.abs(middle(button) - middle(brand))).toBeLessThan(16)
      expect(Math.abs(middle(info) - middle(tagline))).toBeLessThan(12)
      await shot(page, `header-connected-${width}`)
    }
  }
)

// ---------------------------------------------------------------------------------------------------------------
// Pop-ups wait for the user: the validator dialog, the welcome toast
// ---------------------------------------------------------------------------------------------------------------

const welcomeToast = (page: Page) => page.getByTestId("toast").filter({ hasText: "Welcome to hSwap" })

const boxesMeet = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

test("the welcome toast: once per visit, not over the card's action, and it steps aside for the drawer", async ({
  page
}) => {
  test.setTimeout(60_000)
  await page.goto("/")
  await pageReady(page)
  const welcome = welcomeToast(page)
  await expect(welcome).toBeVisible({ timeout: 15_000 })
  await expect
    .poll(() => welcome.evaluate((el) => el.getAnimations().filter((a) => a.playState === "running").length))
    .toBe(0)
  await shot(page, `welcome-${page.viewportSize()?.width ?? 0}`)
  const [toast, action, header] = await Promise.all([
    welcome.boundingBox(),
    page.getByTestId("swap-action").boundingBox(),
    page.locator("header").first().boundingBox()
  ])
  expect(toast).not.toBeNull()
  expect(action).not.toBeNull()
  if (toast === null || action === null || header === null) return
  expect(boxesMeet(toast, action), `toast ${JSON.stringify(toast)}, action ${JSON.stringify(action)}`).toBe(false)
  // Never over the header (its menu, brand and wallet button).
  expect(toast.y).toBeGreaterThanOrEqual(header.y + header.height)
  if ((page.viewportSize()?.width ?? 0) < 768) {
    // The drawer opens: the welcome toast steps aside instead of covering it.
    await page.getByTestId("menu-toggle").click()
    await expect(page.getByTestId("sidebar")).toHaveAttribute("data-open", "true")
    await expect(welcome).toBeHidden()
    await page.keyboard.press("Escape")
  }
  // Once per visit: a reload in the same tab does not bring it back by itself.
  await page.reload()
  await pageReady(page)
  await page.waitForTimeout(8_000)
  await expect(welcome).toHaveCount(0)
  // The info button still shows it.
  await page.getByRole("button", { name: "Welcome message" }).click()
  await expect(welcome).toBeVisible()
})

test("a connected user is not told to connect: no welcome toast by itself on a new visit", async ({ page }) => {
  test.setTimeout(60_000)
  await connectFromHeader(page)
  // A new visit: the tab's session flag gone, the wallet's session kept.
  await page.evaluate(() => window.sessionStorage.clear())
  await page.reload()
  await pageReady(page)
  await expect(page.getByTestId("connect-button-slot").getByRole("button", { name: "Devnet Persona" })).toBeVisible({
    timeout: 15_000
  })
  await page.waitForTimeout(8_000)
  await expect(welcomeToast(page)).toHaveCount(0)
  await shot(page, `connected-reload-${page.viewportSize()?.width ?? 0}`)
})

test("the validator dialog waits until nobody types and no field has focus, and opens by itself once per browser", async ({
  page
}) => {
  test.setTimeout(120_000)
  // The spec's 90% draw, made the same on every run: Effect's default Random is seeded from Math.random at load.
  await page.addInitScript(() => {
    Math.random = () => 0.25
    window.localStorage.removeItem("validator-support-dismissed")
  })
  await page.goto("/")
  await pageReady(page)
  const dialog = page.getByTestId("validator-dialog")
  const amount = page.getByLabel("Amount to swap")
  await amount.click()
  await page.keyboard.type("0.5")
  // Past the 10 s mark with the field focused, pressing keys now and then.
  for (let i = 0; i < 6; i++) {
    await page.waitForTimeout(2_000)
    await page.keyboard.press("End")
    await expect(dialog).toHaveCount(0)
  }
  await expect(amount).toHaveValue("0.5")
  // Focus leaves the field: 2 s after the last key and a quiet second, it opens.
  await page.locator("main h1").first().click()
  await expect(dialog).toBeVisible({ timeout: 10_000 })
  await expect(amount).toHaveValue("0.5")
  await shot(page, `validator-${page.viewportSize()?.width ?? 0}`)
  expect(await page.evaluate(() => window.localStorage.getItem("validator-support-auto-shown"))).toBe("true")
  // Once per browser: the next visit, never dismissed, stays without it.
  await page.reload()
  await pageReady(page)
  await page.waitForTimeout(14_000)
  await expect(dialog).toHaveCount(0)
  // Corrupt flags do not break the page: they count as unset (and it may open once more).
  await page.evaluate(() => {
    window.localStorage.setItem("validator-support-auto-shown", "{oops")
    window.localStorage.setItem("validator-support-dismissed", "yes")
  })
  await page.reload()
  await pageReady(page)
  await expect(dialog).toBeVisible({ timeout: 40_000 })
  // The page under the modal is still there (the modal hides it from the accessibility tree while open).
  await expect(page.getByRole("heading", { name: "Exchange Wrapped Assets", includeHidden: true })).toBeAttached()
})
