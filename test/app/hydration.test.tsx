// @vitest-environment jsdom
import { createMemoryHistory } from "@tanstack/react-router"
import { act, fireEvent, screen } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { createAppRouter } from "../../src/app/router"
import { makeLiveResource, readyLiveResource } from "../../src/app/runtime/live-context"
import { FIRST_PAINT_ATTRIBUTE, PRERENDERED_SHELL_ID } from "../../src/app/shell/firstPaint"
import { loadLiveModule } from "../../src/app/shell/islands"
import { mountApp, type Mounted } from "../../src/app/shell/mount"
import { renderPageHtml, renderShellHtml } from "../../src/app/shell/prerender"
import { type FakeRoute, json, makeHarnessRuntime } from "./harness"

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanup.reverse()) await c()
  cleanup = []
  document.body.replaceChildren()
  document.documentElement.removeAttribute(FIRST_PAINT_ATTRIBUTE)
  vi.restoreAllMocks()
})

/**
 * console.error calls, but React's dev-only note that two renderers (here the prerender's and the browser's, which
 * never share a page) touched the same context: an artefact of running both in one test.
 */
const consoleErrors = () => {
  const original = console.error.bind(console)
  const artefact = (args: ReadonlyArray<unknown>) =>
    typeof args[0] === "string" && args[0].startsWith("Detected multiple renderers concurrently")
  const seen: Array<ReadonlyArray<unknown>> = []
  vi.spyOn(console, "error").mockImplementation((...args: Array<unknown>) => {
    if (artefact(args)) return
    seen.push(args)
    original(...args)
  })
  return () => seen
}

const flush = () =>
  act(async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0))
  })

/** index.html as the build writes it, and <html> as the head script marks it for `firstPaint`. */
const loadIndexHtml = async (firstPaint: "page" | "shell") => {
  document.body.innerHTML = `<div id="root">${await renderPageHtml()}</div><div id="${PRERENDERED_SHELL_ID}" aria-hidden="true" inert>${await renderShellHtml()}</div>`
  document.documentElement.setAttribute(FIRST_PAINT_ATTRIBUTE, firstPaint)
  const root = document.getElementById("root")
  if (root === null) throw new Error("no #root")
  return root
}

const mount = async (
  path: string,
  firstPaint: "page" | "shell",
  options: { readonly route?: FakeRoute; readonly beforeHydration?: (container: HTMLElement) => void } = {}
) => {
  const container = await loadIndexHtml(firstPaint)
  options.beforeHydration?.(container)
  const heading = container.querySelector("h1")
  const h = makeHarnessRuntime({ route: options.route ?? (() => json({ status: "ok" })) })
  cleanup.push(() => h.runtime.dispose())
  await h.runtime.runtime()
  await loadLiveModule()
  const errors = consoleErrors()
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }))
  let mounted: Mounted | undefined
  await act(async () => {
    mounted = await mountApp(container, router, readyLiveResource({ config: h.config, runtime: h.runtime }))
  })
  cleanup.push(() => act(() => mounted?.root.unmount()))
  await flush()
  return { container, heading, errors, mounted }
}

describe("the first paint is what the app keeps", () => {
  it("hydrates the prerendered / without a mismatch: the page's nodes stay, the islands fill in", async () => {
    const { container, heading, errors, mounted } = await mount("/", "page")
    expect(mounted?.hydrated).toBe(true)
    expect(errors()).toEqual([])
    // The prerendered heading is the node on screen now, not a copy rendered over it.
    expect(heading?.textContent).toBe("Exchange Wrapped Assets")
    expect(container.querySelector("h1")).toBe(heading)
    expect(heading?.isConnected).toBe(true)
    // The islands' placeholders were hydrated, then replaced by the live parts; the frame-only copy is gone.
    expect(screen.queryByTestId("wallet-button-loading")).toBeNull()
    expect(screen.getByTestId("welcome-info")).toBeEnabled()
    expect(document.getElementById(PRERENDERED_SHELL_ID)).toBeNull()
    expect(document.documentElement.hasAttribute(FIRST_PAINT_ATTRIBUTE)).toBe(false)
  })

  it("keeps the keys typed into the prerendered amount field, and those typed before the swap machine has read them", async () => {
    // hETH at $3,000: the card's USD figure shows which amount the swap machine has.
    const route: FakeRoute = (req) =>
      new URL(req.url, "http://localhost").pathname === "/api/health"
        ? json({ status: "healthy", pairs_status: { hETH: { price_available: true, price_usd: 3000 } } })
        : json({ status: "ok" })
    const amount = () => screen.getByLabelText<HTMLInputElement>("Amount to swap")
    const { errors, mounted } = await mount("/", "page", {
      route,
      // Typed into the static markup, before the app is on the page: the DOM holds the text.
      beforeHydration: (container) => {
        const input = container.querySelector<HTMLInputElement>('input[aria-label="Amount to swap"]')
        if (input === null) throw new Error("the prerendered page has no amount field")
        input.value = "12"
      }
    })
    expect(mounted?.hydrated).toBe(true)
    expect(amount()).toHaveValue("12")
    // Keys in one burst, each before the machine has read the one before (its fibers run after the burst).
    for (const key of "34.5") fireEvent.input(amount(), { target: { value: amount().value + key } })
    expect(amount()).toHaveValue("1234.5")
    await flush()
    expect(amount()).toHaveValue("1234.5")
    expect(screen.getByTestId("from-usd")).toHaveTextContent("≈ $3,703,500.00")
    expect(errors()).toEqual([])
  })

  it("renders anew on another path, over the frame-only copy, without a hydration error", async () => {
    const { container, errors, mounted } = await mount("/stats", "shell")
    expect(mounted?.hydrated).toBe(false)
    expect(errors()).toEqual([])
    expect(await screen.findByRole("heading", { name: "Stats" })).toBeInTheDocument()
    expect(container.textContent).not.toContain("Exchange Wrapped Assets")
    expect(document.getElementById(PRERENDERED_SHELL_ID)).toBeNull()
    expect(document.documentElement.hasAttribute(FIRST_PAINT_ATTRIBUTE)).toBe(false)
  })

  it("renders anew when the page painted but the live half cannot run, and says why", async () => {
    const container = await loadIndexHtml("page")
    const errors = consoleErrors()
    const router = createAppRouter(createMemoryHistory({ initialEntries: ["/"] }))
    const down = makeLiveResource(() => Promise.resolve({ _tag: "Unavailable", message: "Failed to fetch" }))
    down.start()
    let mounted: Mounted | undefined
    await act(async () => {
      mounted = await mountApp(container, router, down)
    })
    cleanup.push(() => act(() => mounted?.root.unmount()))
    await flush()
    expect(mounted?.hydrated).toBe(false)
    expect(errors()).toEqual([])
    expect(screen.getByRole("alert")).toHaveTextContent("The app could not load")
    expect(container.textContent).not.toContain("Exchange Wrapped Assets")
  })
})
