// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest"
import { afterFirstPaint, nextTask } from "../../src/app/runtime/inStages"
import { ENTRY_FAILED_MESSAGE, takeLoaderCapture } from "../../src/app/shell/entryLoader"
import { DRAWER } from "../../src/app/shell/drawer"
import {
  LOAD_FAILURE,
  LOAD_FAILURE_KEY,
  LOAD_FAILURE_NOTICE,
  LOAD_FAILURE_TITLE,
  showLoadFailure,
  STOPPED_PLACEHOLDER
} from "../../src/app/shell/loadFailure"
import { runEntryLoader } from "./entry-loader"

const visibility = (state: DocumentVisibilityState) =>
  vi.spyOn(document, "visibilityState", "get").mockImplementation(() => state)

const holder = window as unknown as Record<string, unknown>

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
  delete holder[LOAD_FAILURE_KEY]
  document.body.innerHTML = ""
  document.head.innerHTML = ""
  document.documentElement.removeAttribute("data-first-paint")
  takeLoaderCapture()
})

/**
 * index.html as the head's script left it: `/`'s copy in #root, and the frame-only copy, which shows on other paths
 * (`copy` "shell") while #root waits.
 */
const prerenderedFrame = (copy: "page" | "shell" = "shell") => {
  document.documentElement.setAttribute("data-first-paint", copy)
  // Each copy has its menu button and its sidebar, closed (a drawer under 768 px), as Layout and Sidebar render them.
  const frame = (nav: string) =>
    `<header><button type="button" aria-controls="sidebar" aria-expanded="false" aria-label="${DRAWER.closedLabel}">≡</button>` +
    `<div data-testid="wallet-button-loading" class="h-10 animate-pulse"></div></header>` +
    `<nav aria-label="Main" data-open="false" class="fixed ${DRAWER.closedClass}">${nav}</nav>`
  document.body.innerHTML = `<div id="root">${frame('<a aria-current="page">Exchange hAssets</a>')}
    <main><p>Exchange hAssets</p><div class="animate-pulse"></div></main></div>
    <div id="shell-prerender" aria-hidden="true" inert>${frame("<a>Exchange hAssets</a>")}<main><div class="animate-pulse"></div></main></div>`
  return document.getElementById("root") as HTMLElement
}

/** What a failure left: the document's markup (the loader's script elements aside) and whether the frame shows. */
const leftOver = () => {
  for (const script of document.querySelectorAll("script")) script.remove()
  return {
    markup: document.documentElement.outerHTML,
    marked: document.documentElement.hasAttribute("data-first-paint")
  }
}

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
  it("builds its notice from the words and classes of LOAD_FAILURE as they are (nothing in them read as markup)", () => {
    const parsed = document.createElement("template")
    parsed.innerHTML = LOAD_FAILURE_NOTICE
    const box = parsed.content.firstElementChild
    expect(parsed.content.childElementCount).toBe(1)
    expect(box?.className).toBe(LOAD_FAILURE.box)
    expect(box?.getAttribute("role")).toBe("alert")
    const [title, message, hint, reload] = [...(box?.children ?? [])]
    expect(box?.childElementCount).toBe(4)
    expect([title?.tagName, title?.className, title?.textContent]).toEqual([
      "H1",
      LOAD_FAILURE.title,
      LOAD_FAILURE_TITLE
    ])
    expect([message?.tagName, message?.className, message?.textContent]).toEqual(["P", LOAD_FAILURE.message, ""])
    expect([hint?.tagName, hint?.className, hint?.textContent]).toEqual(["P", LOAD_FAILURE.hint, LOAD_FAILURE.hintText])
    expect([reload?.tagName, reload?.className, reload?.textContent]).toEqual(["BUTTON", LOAD_FAILURE.reload, "Reload"])
    expect(reload?.getAttribute("type")).toBe("button")
  })

  it("puts the notice in #root's content area, as text, and shows #root when `/`'s copy painted", () => {
    document.documentElement.setAttribute("data-first-paint", "page")
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

  it("on another path, puts it in the frame-only copy that shows (its navigation marks no page), and #root stays hidden", () => {
    const root = prerenderedFrame()
    showLoadFailure(root, new TypeError("Failed to fetch"))
    const frame = document.getElementById("shell-prerender")
    expect(frame?.querySelector('main > [role="alert"] h1')?.textContent).toBe(LOAD_FAILURE_TITLE)
    expect(frame?.querySelectorAll(".animate-pulse")).toHaveLength(0)
    expect(frame?.querySelector('[data-testid="wallet-button-unavailable"]')).not.toBeNull()
    expect(root.querySelector('[role="alert"]')).toBeNull()
    expect(root.textContent).toContain("Exchange hAssets")
    expect(document.documentElement.getAttribute("data-first-paint")).toBe("shell")
    expect(frame?.hasAttribute("inert")).toBe(false)
    expect(frame?.hasAttribute("aria-hidden")).toBe(false)
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

describe("index.html's loader, when the entry's own file cannot load", () => {
  it.each(["page", "shell"] as const)(
    "puts up the notice the entry shows for a stage, naming the file, by the same steps as showLoadFailure (%s copy)",
    (copy) => {
      vi.spyOn(console, "error").mockImplementation(() => undefined)
      prerenderedFrame(copy)
      const script = runEntryLoader("/assets/index-gone.js")
      script.dispatchEvent(new Event("error"))
      const shown = document.getElementById(copy === "page" ? "root" : "shell-prerender") as HTMLElement
      const alert = shown.querySelector('main > [role="alert"]')
      expect(alert?.querySelector("h1")?.textContent).toBe(LOAD_FAILURE_TITLE)
      expect(alert?.querySelector("p")?.textContent).toBe(`${ENTRY_FAILED_MESSAGE}${script.src}`)
      expect(script.src).toContain("/assets/index-gone.js")
      expect(alert?.textContent).toContain("Check your connection, then reload the page.")
      expect(alert?.querySelector("button")?.textContent).toBe("Reload")
      expect(shown.querySelector('[data-testid="wallet-button-unavailable"]')?.className).toBe(
        `h-10 ${STOPPED_PLACEHOLDER}`
      )
      expect(shown.querySelectorAll(".animate-pulse")).toHaveLength(0)
      const byLoader = leftOver()
      expect(byLoader.marked).toBe(copy === "shell")
      expect(document.getElementById("shell-prerender") === null).toBe(copy === "page")

      prerenderedFrame(copy)
      showLoadFailure(
        document.getElementById("root") as HTMLElement,
        new TypeError(`${ENTRY_FAILED_MESSAGE}${script.src}`)
      )
      expect(leftOver()).toEqual(byLoader)
    }
  )

  it("puts the file's name in as text, however it reads", () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined)
    prerenderedFrame()
    const script = runEntryLoader('/assets/<img src=x onerror="window.pwned=1">.js')
    script.dispatchEvent(new Event("error"))
    expect(document.querySelector("img")).toBeNull()
    expect(document.querySelector('[role="alert"] p')?.textContent).toContain(ENTRY_FAILED_MESSAGE)
    expect((window as unknown as Record<string, unknown>).pwned).toBeUndefined()
  })

  it("puts the notice up when the entry's file came but cannot run (its SyntaxError goes to the window)", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
    prerenderedFrame("page")
    const script = runEntryLoader("/assets/index-truncated.js")
    window.dispatchEvent(
      new ErrorEvent("error", { filename: script.src, message: "SyntaxError: Unexpected end of input" })
    )
    const alert = document.querySelector('#root main > [role="alert"]')
    expect(alert?.querySelector("p")?.textContent).toBe(`${ENTRY_FAILED_MESSAGE}${script.src}`)
    expect(logged).toHaveBeenCalledWith(
      "hSwap: the entry could not load:",
      script.src,
      "SyntaxError: Unexpected end of input"
    )
    // The capture stopped with it: a click on the notice's Reload is not held back.
    const seen: Array<string> = []
    document.addEventListener("click", (e) => seen.push((e.target as HTMLElement).tagName))
    alert?.querySelector("button")?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }))
    expect(seen).toEqual(["BUTTON"])
  })

  it("leaves another file's error alone, and the entry's own once the entry has taken over", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const root = prerenderedFrame("page")
    const script = runEntryLoader("/assets/index-abc.js")
    window.dispatchEvent(new ErrorEvent("error", { filename: `${location.origin}/devnet/wallet.js`, message: "boom" }))
    expect(root.querySelector('[role="alert"]')).toBeNull()
    takeLoaderCapture()
    window.dispatchEvent(new ErrorEvent("error", { filename: script.src, message: "a bug in a click handler" }))
    expect(root.querySelector('[role="alert"]')).toBeNull()
    expect(root.textContent).toContain("Exchange hAssets")
    expect(logged).not.toHaveBeenCalled()
  })

  it("shows nothing while the entry loads, and nothing once it has", () => {
    const root = prerenderedFrame()
    const script = runEntryLoader("/assets/index-abc.js")
    script.dispatchEvent(new Event("load"))
    expect(root.querySelector('[role="alert"]')).toBeNull()
    expect(root.textContent).toContain("Exchange hAssets")
    expect(document.getElementById("shell-prerender")).not.toBeNull()
  })
})

describe("the notice's menu button, once the app cannot run", () => {
  const failBy = {
    "the entry's showLoadFailure": () => showLoadFailure(document.getElementById("root") as HTMLElement, "offline"),
    "index.html's loader": () => {
      vi.spyOn(console, "error").mockImplementation(() => undefined)
      runEntryLoader("/assets/index-gone.js").dispatchEvent(new Event("error"))
    }
  } as const
  const cases = (["page", "shell"] as const).flatMap((copy) =>
    (Object.keys(failBy) as Array<keyof typeof failBy>).map((by) => [by, copy] as const)
  )

  it.each(cases)("%s: opens and closes the sidebar of the copy that shows (%s copy)", (by, copy) => {
    prerenderedFrame(copy)
    failBy[by]()
    const shown = document.getElementById(copy === "page" ? "root" : "shell-prerender") as HTMLElement
    const button = shown.querySelector('[aria-controls="sidebar"]') as HTMLElement
    const sidebar = shown.querySelector('nav[aria-label="Main"]') as HTMLElement
    const state = () => ({
      open: sidebar.classList.contains(DRAWER.openClass),
      closed: sidebar.classList.contains(DRAWER.closedClass),
      data: sidebar.dataset.open,
      expanded: button.getAttribute("aria-expanded"),
      label: button.getAttribute("aria-label")
    })
    const closed = { open: false, closed: true, data: "false", expanded: "false", label: DRAWER.closedLabel }
    expect(state()).toEqual(closed)
    button.click()
    expect(state()).toEqual({ open: true, closed: false, data: "true", expanded: "true", label: DRAWER.openLabel })
    button.click()
    expect(state()).toEqual(closed)
  })
})

describe("showLoadFailure in a build: the loader's function puts the notice up", () => {
  it("hands the message to index.html's loader, which shows what the entry's own steps show", () => {
    const root = prerenderedFrame("page")
    const script = runEntryLoader("/assets/index-abc.js")
    script.dispatchEvent(new Event("load"))
    takeLoaderCapture()
    expect(typeof holder[LOAD_FAILURE_KEY]).toBe("function")
    vi.stubEnv("DEV", false)
    showLoadFailure(root, new TypeError("Failed to fetch dynamically imported module: /assets/react-x.js"))
    expect(root.querySelector('main > [role="alert"] p')?.textContent).toBe(
      "Failed to fetch dynamically imported module: /assets/react-x.js"
    )
    const byLoader = leftOver()

    vi.unstubAllEnvs()
    prerenderedFrame("page")
    showLoadFailure(
      document.getElementById("root") as HTMLElement,
      new TypeError("Failed to fetch dynamically imported module: /assets/react-x.js")
    )
    expect(leftOver()).toEqual(byLoader)
  })

  it("passes the message on as it is, and does nothing to the page itself", () => {
    const root = prerenderedFrame("page")
    const fromLoader = vi.fn()
    holder[LOAD_FAILURE_KEY] = fromLoader
    vi.stubEnv("DEV", false)
    showLoadFailure(root, "offline")
    expect(fromLoader).toHaveBeenCalledExactlyOnceWith("offline")
    expect(root.querySelector('[role="alert"]')).toBeNull()
  })

  it("says on the console why no notice shows when the loader is not on the page", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const root = prerenderedFrame("page")
    vi.stubEnv("DEV", false)
    showLoadFailure(root, new TypeError("Failed to fetch"))
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("loader is not on the page"), "Failed to fetch")
    expect(root.querySelector('[role="alert"]')).toBeNull()
  })
})
