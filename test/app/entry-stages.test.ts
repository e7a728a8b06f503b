// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest"
import { afterFirstPaint, nextTask } from "../../src/app/runtime/inStages"
import { LOAD_FAILURE_TITLE, showLoadFailure, STOPPED_PLACEHOLDER } from "../../src/app/shell/loadFailure"

const visibility = (state: DocumentVisibilityState) =>
  vi.spyOn(document, "visibilityState", "get").mockImplementation(() => state)

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  document.body.innerHTML = ""
  document.documentElement.removeAttribute("data-first-paint")
})

describe("afterFirstPaint (main.tsx waits for it before the app's own code runs)", () => {
  it("resolves in a task after the next animation frame, not before", async () => {
    visibility("visible")
    const frames: Array<FrameRequestCallback> = []
    vi.stubGlobal("requestAnimationFrame", (f: FrameRequestCallback) => frames.push(f))
    let done = false
    const waiting = afterFirstPaint().then(() => (done = true))
    await nextTask()
    await nextTask()
    expect(done).toBe(false)
    expect(frames).toHaveLength(1)
    frames[0]?.(0)
    // The frame's callback runs before the paint: still not done in its own turn.
    await Promise.resolve()
    expect(done).toBe(false)
    await waiting
    expect(done).toBe(true)
  })

  it("does not wait for a frame on a hidden page, which paints none", async () => {
    visibility("hidden")
    const raf = vi.fn()
    vi.stubGlobal("requestAnimationFrame", raf)
    await afterFirstPaint()
    expect(raf).not.toHaveBeenCalled()
  })

  it("stops waiting when the page is hidden while it waits", async () => {
    const state = visibility("visible")
    vi.stubGlobal("requestAnimationFrame", () => 1)
    const waiting = afterFirstPaint()
    state.mockImplementation(() => "hidden")
    document.dispatchEvent(new Event("visibilitychange"))
    await waiting
  })
})

describe("showLoadFailure (an entry stage that cannot load)", () => {
  it("puts the notice in the frame's content area, as text, and shows the frame", () => {
    document.documentElement.setAttribute("data-first-paint", "shell")
    document.body.innerHTML = `<div id="root"><header>hSwap</header><main><p>Exchange hAssets</p></main></div>
      <div id="shell-prerender">frame</div>`
    const root = document.getElementById("root") as HTMLElement
    const hostile = '<img src=x onerror="window.pwned=1">Failed to fetch'
    showLoadFailure(root, new TypeError(hostile))
    const alert = root.querySelector('[role="alert"]')
    expect(alert?.parentElement?.tagName).toBe("MAIN")
    expect(alert?.querySelector("h1")?.textContent).toBe(LOAD_FAILURE_TITLE)
    expect(alert?.textContent).toContain(hostile)
    expect(alert?.textContent).toContain("Check your connection, then reload the page.")
    expect(root.querySelector("img")).toBeNull()
    expect(root.querySelector("header")?.textContent).toBe("hSwap")
    expect(root.textContent).not.toContain("Exchange hAssets")
    expect(document.getElementById("shell-prerender")).toBeNull()
    expect(document.documentElement.hasAttribute("data-first-paint")).toBe(false)
    const reload = alert?.querySelector("button")
    expect(reload?.textContent).toBe("Reload")
  })

  it("stops the frame's placeholders pulsing: nothing is loading any more", () => {
    document.body.innerHTML = `<div id="root"><header><div data-testid="wallet-button-loading" class="h-10 animate-pulse"></div></header>
      <main><div class="animate-pulse"></div></main></div>`
    const root = document.getElementById("root") as HTMLElement
    showLoadFailure(root, new TypeError("Failed to fetch"))
    expect(root.querySelectorAll(".animate-pulse")).toHaveLength(0)
    expect(root.querySelector('[data-testid="wallet-button-loading"]')).toBeNull()
    const wallet = root.querySelector('header [data-testid="wallet-button-unavailable"]')
    expect(wallet?.className).toBe(`h-10 ${STOPPED_PLACEHOLDER}`)
  })

  it("says what was thrown when it is not an Error", () => {
    document.body.innerHTML = `<div id="root"></div>`
    const root = document.getElementById("root") as HTMLElement
    showLoadFailure(root, "offline")
    expect(root.querySelector('[role="alert"] p')?.textContent).toBe("offline")
  })
})
