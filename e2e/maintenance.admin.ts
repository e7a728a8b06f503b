import { expect, test } from "@playwright/test"
import { blockExternal, snap } from "./helpers"

// Runs in its own project after every other spec: maintenance is server-wide.
test("maintenance, toggled on the server's loopback admin, shows the 'Service Temporarily Unavailable' card", async ({
  page,
  request
}, info) => {
  await blockExternal(page)
  const on = await request.post("/api/admin/maintenance", { data: { enabled: true } })
  expect(await on.json()).toEqual({ maintenance: true })
  try {
    await page.goto("/")
    await expect(page.getByTestId("service-mode")).toContainText("Service Temporarily Unavailable")
    await snap(page, info, "swap-maintenance")
    expect((await request.get("/api/health")).status()).toBe(409)
  } finally {
    await request.post("/api/admin/maintenance", { data: { enabled: false } })
  }
  await page.reload()
  await expect(page.getByTestId("swap-card")).toBeVisible({ timeout: 20_000 })
})
