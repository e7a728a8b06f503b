// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { Effect, Option } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { KeyValueStore } from "@effect/platform"
import { VALIDATOR_DISMISSED_KEY } from "../../src/app/services/ValidatorSupport"
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

describe("tagline", () => {
  it("bounces at 1 s until the last letter's 2 s bounce ends, then every 30 s, with a 0.06 s delay per letter", async () => {
    const h = await app()
    const tagline = screen.getByTestId("tagline")
    // One phrase for assistive technology (no aria-label on a <p>: axe aria-prohibited-attr); the letters are hidden.
    expect(tagline).not.toHaveAttribute("aria-label")
    expect(within(tagline).getByText("Swap, Bridge, Save and Earn")).toHaveClass("sr-only")
    expect(tagline.dataset.bouncing).toBe("false")
    await h.advance("999 millis")
    expect(tagline.dataset.bouncing).toBe("false")
    await h.advance("1 millis")
    expect(tagline.dataset.bouncing).toBe("true")
    const letters = tagline.querySelectorAll("span[aria-hidden]")
    expect(letters).toHaveLength("Swap, Bridge, Save and Earn".length)
    const delay = (i: number) => parseFloat((letters[i] as HTMLElement).style.animationDelay)
    expect(delay(0)).toBe(0)
    expect(delay(1)).toBeCloseTo(0.06)
    expect(delay(10)).toBeCloseTo(0.6)
    // 27 letters: the last starts 26 × 0.06 = 1.56 s in and bounces for 2 s, so the letters animate for 3.56 s.
    await h.advance("3559 millis")
    expect(tagline.dataset.bouncing).toBe("true")
    await h.advance("1 millis")
    expect(tagline.dataset.bouncing).toBe("false")
    await h.advance("26439 millis")
    expect(tagline.dataset.bouncing).toBe("false")
    await h.advance("1 millis") // 31 s
    expect(tagline.dataset.bouncing).toBe("true")
    await h.advance("3560 millis")
    expect(tagline.dataset.bouncing).toBe("false")
  })
})

describe("welcome toast", () => {
  it("opens by itself 4 s after load and closes after 10 s", async () => {
    // The validator dialog's draw keeps it closed: opening by itself at 11 s, it would close the toast (it steps aside).
    const h = await app({ random: [0.95] })
    await h.advance("3999 millis")
    expect(screen.queryByText(/Welcome to hSwap/)).toBeNull()
    await h.advance("1 millis")
    const toast = await screen.findByTestId("toast")
    expect(toast).toHaveAttribute("data-variant", "welcome")
    expect(within(toast).getByText("Welcome to hSwap")).toBeVisible()
    // The description is HTML through the sanitiser: the <b> survives.
    await waitFor(() => expect(toast.querySelector("b")?.textContent).toBe("fixed rate"))
    await h.advance("9999 millis")
    expect(screen.getByTestId("toast")).toHaveAttribute("data-state", "open")
    await h.advance("1 millis")
    expect(screen.queryByTestId("toast")?.getAttribute("data-state") ?? "closed").toBe("closed")
  })

  it("opens from the header's info button", async () => {
    await app()
    await userEvent.click(screen.getByRole("button", { name: "Welcome message" }))
    expect(await screen.findByText("Welcome to hSwap")).toBeVisible()
  })
})

describe("validator-support dialog", () => {
  it("opens by itself once, 10 s after load, when the draw is under 90%", async () => {
    const h = await app({ random: [0.2] })
    await h.advance("9999 millis")
    expect(screen.queryByTestId("validator-dialog")).toBeNull()
    await h.advance("1 millis")
    expect(await screen.findByTestId("validator-dialog")).toBeVisible()
  })

  it("stays closed when the draw is 90% or more", async () => {
    const h = await app({ random: [0.9] })
    await h.advance("15 seconds")
    expect(screen.queryByTestId("validator-dialog")).toBeNull()
  })

  it("stays closed when the dismissed flag is stored", async () => {
    const h = await app({ storage: { [VALIDATOR_DISMISSED_KEY]: "true" }, random: [0.1] })
    await h.advance("15 seconds")
    expect(screen.queryByTestId("validator-dialog")).toBeNull()
  })

  it("stores the flag when dismissed, and can be opened by hand from the sidebar", async () => {
    const h = await app()
    await userEvent.click(screen.getByRole("button", { name: "Support our validator" }))
    const dialog = await screen.findByTestId("validator-dialog")
    expect(within(dialog).getByRole("link", { name: "View validator on the dashboard" })).toHaveAttribute(
      "rel",
      "noopener noreferrer"
    )
    await userEvent.click(within(dialog).getByRole("button", { name: "Maybe later" }))
    expect(screen.queryByTestId("validator-dialog")).toBeNull()
    const stored = await h.run(Effect.flatMap(KeyValueStore.KeyValueStore, (kv) => kv.get(VALIDATOR_DISMISSED_KEY)))
    expect(Option.getOrUndefined(stored)).toBe("true")
  })
})

describe("balance badge", () => {
  it("is hidden without an account", async () => {
    await app()
    expect(screen.queryByTestId("balance-badge")).toBeNull()
  })
  it("shows '...' while loading", async () => {
    await app({ balance: { _tag: "Loading" } })
    expect(screen.getByTestId("balance-badge")).toHaveTextContent("...GKS")
  })
  it("shows the GKS balance with 2 decimals", async () => {
    await app({ balance: { _tag: "Ready", amount: "1234.5678" } })
    expect(screen.getByTestId("balance-badge")).toHaveTextContent("1234.56GKS")
  })
})

describe("wallet button", () => {
  it("the header shows the toolkit's ConnectButton, which tells a desktop user without the extension how to get it", async () => {
    const h = await app()
    const slot = screen.getByTestId("connect-button-slot")
    const button = within(slot).getByRole("button", { name: /connect/i })
    expect(button).toBeVisible()
    // The extension is detected within 200 ms; the fake environment has none.
    await h.advance("200 millis")
    await userEvent.click(button)
    expect(await screen.findByText(/Download and Setup Guide/i)).toBeVisible()
  })
})
