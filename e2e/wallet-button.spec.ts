import { expect, test } from "@playwright/test"
import { blockExternal, snap } from "./helpers"

test("the header's ConnectButton explains how to connect when no Connector extension is installed", async ({
  page
}, info) => {
  await blockExternal(page)
  await page.goto("/earn")
  const slot = page.getByTestId("connect-button-slot")
  const button = slot.getByRole("button", { name: /connect/i })
  await expect(button).toBeVisible()
  await button.click()
  await expect(page.getByText(/Download and Setup Guide/i)).toBeVisible()
  await snap(page, info, "connect-popover")
})
