// @vitest-environment jsdom
import { KeyValueStore } from "@effect/platform"
import { it } from "@effect/vitest"
import { cleanup, screen, waitFor } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { Effect, Option, PubSub, Stream, SubscriptionRef, TestClock } from "effect"
import { afterEach, describe, expect } from "vitest"
import { VisitStore } from "../../src/app/services/flags"
import { Overlays } from "../../src/app/services/Overlays"
import { typing } from "../../src/app/services/UserInput"
import { VALIDATOR_AUTO_SHOWN_KEY, VALIDATOR_DISMISSED_KEY } from "../../src/app/services/ValidatorSupport"
import { WELCOME_SHOWN_KEY } from "../../src/app/shell/welcome"
import { documentTitle, NOT_FOUND_TITLE, PAGE_TITLES } from "../../src/app/shell/title"
import { NAV_ITEMS, PROOF_OF_FUNDS_ITEM } from "../../src/app/shell/nav"
import { storageKey } from "../../src/toolkit/config"
import { WalletRequest } from "../../src/toolkit/walletRequestTag"
import { messagesAt, renderApp, testConfig } from "./harness"

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

describe("typing (what holds the validator dialog)", () => {
  it.effect("is true while a field has focus, and for 2 s after each keystroke", () =>
    Effect.gen(function* () {
      const focused = yield* SubscriptionRef.make(false)
      const keys = yield* PubSub.unbounded<void>()
      const seen = yield* SubscriptionRef.make<ReadonlyArray<boolean>>([])
      yield* Effect.fork(
        Stream.runForEach(typing({ fieldFocused: focused.changes, keystrokes: Stream.fromPubSub(keys) }), (b) =>
          SubscriptionRef.update(seen, (xs) => [...xs, b])
        )
      )
      yield* TestClock.adjust("1 millis")
      expect(yield* SubscriptionRef.get(seen)).toEqual([false])
      yield* SubscriptionRef.set(focused, true)
      yield* TestClock.adjust("1 minute")
      expect(yield* SubscriptionRef.get(seen)).toEqual([false, true])
      yield* SubscriptionRef.set(focused, false)
      yield* TestClock.adjust("1 millis")
      expect(yield* SubscriptionRef.get(seen)).toEqual([false, true, false])
      // Keys outside a field: typing until 2 s after the last one.
      yield* PubSub.publish(keys, undefined)
      yield* TestClock.adjust("1500 millis")
      yield* PubSub.publish(keys, undefined)
      yield* TestClock.adjust("1999 millis")
      expect((yield* SubscriptionRef.get(seen)).at(-1)).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect(yield* SubscriptionRef.get(seen)).toEqual([false, true, false, true, false])
    })
  )
})

const connectedSession = {
  accounts: [{ address: "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp", label: "Main" }],
  selected: "account_loc1280mnedg87sme6vzaf2h5mxmwecrapmz4mxmf8tf9tymtfwyrnt3mp"
}
const welcomeOnScreen = () =>
  screen.queryAllByTestId("toast").find((t) => t.dataset.variant === "welcome" && t.dataset.state === "open")

describe("the validator dialog waits for the user", () => {
  it("stays closed while the amount field has focus and after keystrokes, and opens a second after both end", async () => {
    const h = await app({ random: [0.2] })
    const amount = screen.getByLabelText("Amount to swap")
    await userEvent.click(amount)
    await h.advance("30 seconds")
    expect(screen.queryByTestId("validator-dialog")).toBeNull()
    await userEvent.keyboard("0,5")
    // The keystrokes went where they were typed.
    expect(amount).toHaveValue("0.5")
    // Focus leaves the field right after the keys: 2 s after the last key, then a quiet second.
    await userEvent.click(screen.getByRole("heading", { name: "Exchange Wrapped Assets" }))
    await h.advance("1 second")
    expect(screen.queryByTestId("validator-dialog")).toBeNull()
    await h.advance("2 seconds")
    expect(await screen.findByTestId("validator-dialog")).toBeVisible()
  })

  it("opens by itself once per browser: a later visit with the stored flag stays closed", async () => {
    const first = await app({ random: [0.2] })
    await first.advance("10 seconds")
    expect(await screen.findByTestId("validator-dialog")).toBeVisible()
    const stored = await first.run(
      Effect.flatMap(KeyValueStore.KeyValueStore, (kv) => kv.get(VALIDATOR_AUTO_SHOWN_KEY))
    )
    expect(Option.getOrUndefined(stored)).toBe("true")
    await dispose?.()
    dispose = undefined
    cleanup()
    const second = await app({ random: [0.2], storage: { [VALIDATOR_AUTO_SHOWN_KEY]: "true" } })
    await second.advance("30 seconds")
    expect(screen.queryByTestId("validator-dialog")).toBeNull()
  })

  for (const corrupt of ["{oops", "yes", "1", "[true]", ""]) {
    it(`a stored flag that is not one (${JSON.stringify(corrupt)}) counts as unset, is logged and removed`, async () => {
      const h = await app({
        random: [0.2],
        storage: { [VALIDATOR_AUTO_SHOWN_KEY]: corrupt, [VALIDATOR_DISMISSED_KEY]: corrupt }
      })
      await h.advance("10 seconds")
      expect(await screen.findByTestId("validator-dialog")).toBeVisible()
      expect(messagesAt(h.logs, "WARN")).toContain(
        `the stored '${VALIDATOR_DISMISSED_KEY}' is not a flag; it is ignored and removed`
      )
      const dismissed = await h.run(
        Effect.flatMap(KeyValueStore.KeyValueStore, (kv) => kv.get(VALIDATOR_DISMISSED_KEY))
      )
      expect(Option.isNone(dismissed)).toBe(true)
    })
  }
})

describe("the welcome toast", () => {
  it("opens by itself for a visitor who is not connected, once per visit", async () => {
    const h = await app()
    await h.advance("4 seconds")
    expect(welcomeOnScreen()).toBeDefined()
    expect(welcomeOnScreen()).toHaveTextContent("Connect your Radix Wallet to start")
    const stored = await h.run(Effect.flatMap(VisitStore, (kv) => kv.get(WELCOME_SHOWN_KEY)))
    expect(Option.getOrUndefined(stored)).toBe("true")
    await dispose?.()
    dispose = undefined
    cleanup()
    const again = await app({ visit: { [WELCOME_SHOWN_KEY]: "true" } })
    await again.advance("30 seconds")
    expect(welcomeOnScreen()).toBeUndefined()
  })

  it("does not open by itself for a connected user; the info button shows it without asking to connect", async () => {
    // The validator dialog's draw keeps it closed here (it would hide the page's controls).
    const h = await app({ session: connectedSession, random: [0.95] })
    await h.advance("30 seconds")
    expect(screen.queryAllByTestId("toast").filter((t) => t.dataset.variant === "welcome")).toEqual([])
    await userEvent.click(screen.getByRole("button", { name: "Welcome message" }))
    await waitFor(() => expect(welcomeOnScreen()).toBeDefined())
    expect(welcomeOnScreen()).not.toHaveTextContent(/connect/i)
    expect(welcomeOnScreen()).toHaveTextContent("Use only the official hSwap interface.")
  })

  it("opens for a visitor with nothing stored even while the wallet toolkit loads and never answers", async () => {
    // A slow network: the toolkit's module never arrives, and the connect button has asked for it.
    const h = await app({ random: [0.95], toolkitLoad: () => new Promise(() => {}) })
    await h.run(Effect.flatMap(WalletRequest, (w) => w.prepare))
    await h.advance("4 seconds")
    await waitFor(() => expect(welcomeOnScreen()).toBeDefined())
    expect(welcomeOnScreen()).toHaveTextContent("Connect your Radix Wallet to start")
  })

  it("a stored session the loading toolkit has not confirmed after 10 s counts as connected: no toast", async () => {
    const state = JSON.stringify({
      loggedInTimestamp: "1700000000000",
      walletData: {
        accounts: [{ address: connectedSession.selected, label: "Main", appearanceId: 0 }],
        personaData: [],
        persona: { identityAddress: "identity_loc1p", label: "Persona" },
        proofs: []
      },
      sharedData: {}
    })
    const config = testConfig()
    const h = await app({
      random: [0.95],
      toolkitLoad: () => new Promise(() => {}),
      storage: { [storageKey(config.dAppDefinitionAddress, config.networkId, "state")]: state }
    })
    await h.advance("30 seconds")
    expect(screen.queryAllByTestId("toast").filter((t) => t.dataset.variant === "welcome")).toEqual([])
  })

  it("waits while a dialog is open, and steps aside when one opens over it", async () => {
    const h = await app({ random: [0.95] })
    await userEvent.click(screen.getByRole("button", { name: "FAQ" }))
    expect(await screen.findByRole("dialog", { name: /FAQ|Frequently/i })).toBeVisible()
    await h.advance("10 seconds")
    expect(welcomeOnScreen()).toBeUndefined()
    await userEvent.keyboard("{Escape}")
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    const overlays = await h.run(Effect.flatMap(Overlays, (o) => o.current))
    expect(overlays).toBe(0)
    await h.advance("1 millis")
    await waitFor(() => expect(welcomeOnScreen()).toBeDefined())
    await userEvent.click(screen.getByRole("button", { name: "Liquidity" }))
    await h.advance("1 millis")
    await waitFor(() => expect(welcomeOnScreen()).toBeUndefined())
  })
})
