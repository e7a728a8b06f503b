import { expect, type Page, type TestInfo } from "@playwright/test"
import { mkdirSync } from "node:fs"

/** Saves a full-page screenshot under e2e/screenshots/{project}-{name}.png for people to look at. */
export const snap = async (page: Page, info: TestInfo, name: string) => {
  mkdirSync("e2e/screenshots", { recursive: true })
  await page.screenshot({ path: `e2e/screenshots/${info.project.name}-${name}.png`, fullPage: true })
}

/**
 * Stops anything from leaving the machine (external hosts answer with a small page naming themselves), and keeps
 * the validator-support dialog from opening by itself 10 s in (90% of loads), which would cover long specs. The
 * spec that tests the dialog removes the flag again.
 */
export const blockExternal = async (page: Page) => {
  await page.addInitScript(() => window.localStorage.setItem("validator-support-dismissed", "true"))
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      body: `<h1>external: ${new URL(route.request().url()).host}</h1>`
    })
  )
}

/**
 * The welcome toast opens 4 s after the first load of a visit (for a visitor who is not connected); toasts show one
 * at a time, the others wait (the welcome toast steps back for any other). A spec that wants the screen to itself
 * waits for the welcome toast and closes it first, right after loading. The 4 s count from when the live chunk has
 * started the shell, which on a loaded CI machine can be many seconds after load: so first the app's own mount.
 */
export const closeWelcomeToast = async (page: Page) => {
  await appMounted(page)
  const welcome = page.getByTestId("toast").filter({ hasText: "Welcome to" })
  await welcome.waitFor({ state: "visible", timeout: 15_000 })
  await welcome.getByRole("button", { name: "Close" }).click()
  await welcome.waitFor({ state: "hidden" })
}

/**
 * The welcome toast opens by itself once per visit (sessionStorage `hswap:welcome-shown`, src/app/shell/welcome.ts).
 * A spec that reloads and wants it to open by itself again starts a new visit for it.
 */
export const forgetWelcomeShown = (page: Page) =>
  page.evaluate(() => window.sessionStorage.removeItem("hswap:welcome-shown"))

/**
 * The app has put its own render on the page: the first commit (hydrating `/`, or rendering over the frame-only copy
 * elsewhere) clears the first-paint mark on <html> (src/app/shell/firstPaint.ts). Before that, the page is the
 * prerendered markup, whose buttons do nothing yet; a click meant for the app waits for this.
 */
export const appMounted = (page: Page) =>
  expect(page.locator("html")).not.toHaveAttribute("data-first-paint", /.*/, { timeout: 20_000 })

/**
 * `npm start` offers atomic quotes: this makes every live price say `atomic: false`, as a server with atomic swaps
 * off does, so the app takes the deposit flow (the specs written for it keep asserting it, and the server-off
 * fallback is exercised with it).
 */
export const depositFlowOnly = async (page: Page) => {
  await page.route(/\/api\/liveprice\//, async (route) => {
    const answer = await route.fetch()
    const text = await answer.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return route.fulfill({ response: answer, body: text })
    }
    const patched =
      typeof body === "object" && body !== null && !Array.isArray(body) ? { ...body, atomic: false } : body
    return route.fulfill({ response: answer, body: JSON.stringify(patched) })
  })
}
