import { expect, test } from "@playwright/test"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { snap } from "./helpers"

/**
 * What the app finds in localStorage is input like any other: unreadable, of the wrong shape, or hostile (markup, a
 * right-to-left override, 3,000 characters, an account that is no address). Each load comes up whole: no page error,
 * no dialog, the card usable; and nothing that is not an account address on this network is used as one.
 */
const d = DevnetAddresses.dAppDefinition
const user = DevnetAddresses.users[0]!
const hostile = `<img src=x onerror=alert(1)>\u202e${"W".repeat(3000)}`
const partitions = ["state", "requests", "sessions", "identities", "walletResponses", "connectorExtension"]

const cases: ReadonlyArray<{
  readonly name: string
  readonly entries: Readonly<Record<string, string>>
  readonly action: string
}> = [
  {
    name: "unreadable",
    entries: {
      ...Object.fromEntries(partitions.map((p) => [`rdt:${d}:240:${p}`, "{garbage"])),
      "hswap:selectedAccount": "{",
      "hswap:migrations": "{",
      tradingRoutes: "{",
      "hswap:devnetWallet:autoApprove": "{"
    },
    action: "Connect Wallet"
  },
  {
    name: "wrong-shape",
    entries: {
      [`rdt:${d}:240:state`]: JSON.stringify({ walletData: { accounts: "no", persona: 5 }, sharedData: [] }),
      [`rdt:${d}:240:requests`]: JSON.stringify({ x: { status: "pending", interactionId: 5 } }),
      [`rdt:${d}:240:sessions`]: JSON.stringify([1, 2, 3]),
      tradingRoutes: JSON.stringify({ a: 1 }),
      "tradingRoutes.selected": JSON.stringify(null)
    },
    action: "Connect Wallet"
  },
  {
    name: "hostile",
    entries: {
      [`rdt:${d}:240:state`]: JSON.stringify({
        loggedInTimestamp: "x",
        walletData: {
          accounts: [
            { address: hostile, label: hostile, appearanceId: 99 },
            { address: user, label: hostile, appearanceId: -1 }
          ],
          persona: { identityAddress: hostile, label: hostile },
          personaData: [],
          proofs: []
        },
        sharedData: {}
      }),
      "hswap:selectedAccount": hostile,
      "hswap:welcome-shown": hostile,
      tradingRoutes: JSON.stringify([{ id: hostile, name: hostile }]),
      "tradingRoutes.selected": hostile
    },
    action: "Enter Amount to Swap"
  }
]

for (const c of cases) {
  test(`storage that is ${c.name}: the app comes up whole`, async ({ page }, info) => {
    const problems: Array<string> = []
    page.on("pageerror", (e) => problems.push(`page error: ${String(e)}`))
    page.on("dialog", (dialog) => {
      problems.push(`dialog: ${dialog.message()}`)
      void dialog.dismiss()
    })
    const requested: Array<string> = []
    page.on("request", (r) => requested.push(decodeURIComponent(r.url())))
    await page.goto("/?devnetWallet=manual")
    await page.evaluate((entries) => {
      for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v)
    }, c.entries)
    const transactions =
      c.name === "hostile" ? page.waitForRequest((r) => r.url().includes("/api/transactions/account_")) : undefined
    await page.reload()
    await expect(page.getByTestId("swap-action")).toHaveText(c.action, { timeout: 20_000 })
    await expect(page.getByTestId("exchange-liquidity")).toContainText("hUSDC", { timeout: 20_000 })
    if (transactions !== undefined) {
      // The one real account is the one used; the markup is shown as text, if at all.
      expect((await transactions).url()).toContain(`/api/transactions/${user}`)
      await expect(page.locator("img[src='x']")).toHaveCount(0)
      // The wallet panel lists the one account too: the markup is no account, so it is neither shown nor linked.
      await page.getByTestId("connect-button").click()
      const listed = page.getByRole("list", { name: "Shared accounts" }).getByRole("listitem")
      await expect(listed).toHaveCount(1)
      await expect(listed.getByRole("link")).toHaveAttribute("title", user)
      // The persona's label, 3,000 characters long, is cut (with an ellipsis) to its box inside the panel rather
      // than running out of the panel over the page.
      const panel = await page.getByTestId("connect-popover").boundingBox()
      const label = page.getByTestId("persona-label")
      const box = await label.boundingBox()
      expect(box!.x + box!.width).toBeLessThanOrEqual(panel!.x + panel!.width)
      expect(
        await label.evaluate((e) => {
          const style = getComputedStyle(e)
          return { overflow: style.overflowX, cut: style.textOverflow, longer: e.scrollWidth > e.clientWidth }
        })
      ).toEqual({ overflow: "hidden", cut: "ellipsis", longer: true })
      await snap(page, info, "storage-hostile-sharing")
      await page.keyboard.press("Escape")
    }
    expect(requested.filter((u) => u.includes("onerror") || u.includes("WWWWWWWWWW"))).toEqual([])
    expect(problems).toEqual([])
    await snap(page, info, `storage-${c.name}`)
  })
}
