import { expect, test } from "@playwright/test"
import { blockExternal, snap } from "./helpers"

test("the header's ConnectButton explains how to connect when no Connector extension is installed", async ({
  page
}, info) => {
  await blockExternal(page)
  // Without the devnet's wallet emulator, the page has no Connector extension, as for a user who never installed it.
  await page.route("**/devnet/wallet.js", (r) => r.fulfill({ contentType: "text/javascript", body: "" }))
  await page.goto("/earn")
  const slot = page.getByTestId("connect-button-slot")
  const button = slot.getByRole("button", { name: /connect/i })
  await expect(button).toBeVisible()
  await button.click()
  await expect(page.getByText(/Download and Setup Guide/i)).toBeVisible()
  await snap(page, info, "connect-popover")
})
