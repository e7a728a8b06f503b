// @vitest-environment jsdom
import { screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { documentTitle, NOT_FOUND_TITLE, PAGE_TITLES } from "../../src/app/shell/title"
import { NAV_ITEMS, PROOF_OF_FUNDS_ITEM } from "../../src/app/shell/nav"
import { renderApp } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
})
const app = async (options: Parameters<typeof renderApp>[0] = {}) => {
  const h = await renderApp(options)
  dispose = () => h.runtime.dispose()
  return h
}

describe("document titles", () => {
  it("name every page of the navigation, then the brand; any other path is the 404 page's", () => {
    for (const item of [...NAV_ITEMS, PROOF_OF_FUNDS_ITEM]) {
      expect(documentTitle(item.to, "Acme")).toBe(`${PAGE_TITLES[item.to]} | Acme`)
      expect(PAGE_TITLES[item.to]).not.toBe("")
    }
    expect(new Set(Object.values(PAGE_TITLES)).size).toBe(Object.keys(PAGE_TITLES).length)
    expect(documentTitle("/earn/", "hSwap")).toBe("Earn Rewards | hSwap")
    expect(documentTitle("/", "hSwap")).toBe("Exchange Wrapped Assets | hSwap")
    expect(documentTitle("/earnings", "hSwap")).toBe(`${NOT_FOUND_TITLE} | hSwap`)
    // Not a key of the table, though every object has it.
    expect(documentTitle("/constructor", "hSwap")).toBe(`${NOT_FOUND_TITLE} | hSwap`)
  })

  it("the shell sets the title of the page it shows", async () => {
    await app({ path: "/proof-of-funds" })
    expect(screen.getByRole("heading", { level: 1, name: "Proof of Funds" })).toBeVisible()
    expect(document.title).toBe("Proof of Funds | hSwap")
  })
})
