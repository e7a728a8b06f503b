// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest"
import { captureEarlyClicks } from "../../src/app/shell/earlyClicks"
import { EARLY_CLICK_KEY, takeLoaderCapture } from "../../src/app/shell/entryLoader"
import { runEntryLoader } from "./entry-loader"

/** Counts the form's submits, each stopped before it navigates. */
const countSubmits = (): { readonly count: () => number } => {
  let submitted = 0
  document.querySelector("form")?.addEventListener("submit", (e) => {
    e.preventDefault()
    submitted += 1
  })
  return { count: () => submitted }
}

/** Clicks a link, plain text and a button outside #root: what no capture holds. Returns what the document saw. */
const clickUncapturable = (byId: (id: string) => HTMLElement): ReadonlyArray<string> => {
  const seen: Array<string> = []
  document.addEventListener("click", (e) => seen.push((e.target as HTMLElement).id))
  for (const id of ["link", "text", "outside"]) byId(id).click()
  return seen
}

const page = () => {
  document.body.innerHTML = `
    <div id="root">
      <form><button id="faq" type="button">FAQ</button><button id="submit" type="submit">Go</button></form>
      <button id="off" disabled>Off</button>
      <a id="link" href="#elsewhere">Elsewhere</a>
      <p id="text">Some text</p>
    </div>
    <button id="outside">Outside</button>`
  const root = document.getElementById("root") as HTMLElement
  const byId = (id: string) => document.getElementById(id) as HTMLElement
  return { root, byId }
}

afterEach(() => {
  vi.restoreAllMocks()
  document.body.innerHTML = ""
  document.head.innerHTML = ""
  // A loader's capture left by a test stops here, or its listener would hold the next test's clicks.
  takeLoaderCapture()
  delete (window as unknown as Record<string, unknown>)[EARLY_CLICK_KEY]
})

/** Runs index.html's loader (entry-loader.ts), naming this entry unless told another. */
const runLoader = (entry = "/assets/index-abc.js") => runEntryLoader(entry)

describe("clicks before the app listens", () => {
  it("keeps the last click on a control in #root and replays it once, after the capture stops", () => {
    const { root, byId } = page()
    const replay = captureEarlyClicks(root)
    const seen: Array<string> = []
    // What the app will be: a listener that, before the replay, must not see the captured clicks.
    root.addEventListener("click", (e) => seen.push((e.target as HTMLElement).id))
    byId("submit").click()
    byId("faq").click()
    byId("faq").click()
    expect(seen).toEqual([])
    replay()
    expect(seen).toEqual(["faq"])
    replay()
    expect(seen).toEqual(["faq"])
    byId("submit").click()
    expect(seen).toEqual(["faq", "submit"])
  })

  it("with replay off (the app's files did not load), only stops: the captured click is dropped, later clicks pass", () => {
    const { root, byId } = page()
    const submits = countSubmits()
    const stop = captureEarlyClicks(root)
    byId("submit").click()
    stop(false)
    expect(submits.count()).toBe(0)
    stop()
    expect(submits.count()).toBe(0)
    byId("submit").click()
    expect(submits.count()).toBe(1)
  })

  it("stops a captured click's default (a form's submit) until the app owns it", () => {
    const { root, byId } = page()
    const submits = countSubmits()
    const replay = captureEarlyClicks(root)
    byId("submit").click()
    expect(submits.count()).toBe(0)
    replay()
    expect(submits.count()).toBe(1)
  })

  it("leaves links, plain text and what is outside #root alone, and replays nothing for them", () => {
    const { root, byId } = page()
    const replay = captureEarlyClicks(root)
    const seen = clickUncapturable(byId)
    expect(seen).toEqual(["link", "text", "outside"])
    replay()
    expect(seen).toEqual(["link", "text", "outside"])
  })

  it("does not replay on an element that is gone (a page rendered anew) or disabled by the app", () => {
    const { root, byId } = page()
    const replay = captureEarlyClicks(root)
    const faq = byId("faq")
    let clicks = 0
    faq.addEventListener("click", () => (clicks += 1))
    faq.click()
    faq.remove()
    replay()
    expect(clicks).toBe(0)

    const again = page()
    const replayAgain = captureEarlyClicks(again.root)
    const submit = again.byId("submit")
    let submits = 0
    submit.addEventListener("click", () => (submits += 1))
    submit.click()
    submit.setAttribute("aria-disabled", "true")
    replayAgain()
    expect(submits).toBe(0)
  })
})

describe("index.html's loader (the entry runs after the markup paints)", () => {
  it("adds the entry's module script, named by its data-entry, to the head", () => {
    page()
    runLoader("/assets/index-B5neltCl.js")
    const added = [...document.head.querySelectorAll("script")]
    expect(added).toHaveLength(1)
    expect(added[0]?.type).toBe("module")
    expect(added[0]?.getAttribute("src")).toBe("/assets/index-B5neltCl.js")
    expect(added[0]?.crossOrigin).toBe("")
  })

  it("captures clicks on controls in #root until the entry takes over, which replays the last one once", () => {
    const { root, byId } = page()
    const submits = countSubmits()
    runLoader()
    const seen: Array<string> = []
    root.addEventListener("click", (e) => seen.push((e.target as HTMLElement).id))
    byId("submit").click()
    byId("faq").click()
    // Nothing reacts yet: no listener below, no form submit.
    expect(seen).toEqual([])
    expect(submits.count()).toBe(0)
    // The entry: its capture takes the loader's over, with the click it kept.
    const replay = captureEarlyClicks(root)
    expect((window as unknown as Record<string, unknown>)[EARLY_CLICK_KEY]).toBeUndefined()
    replay()
    expect(seen).toEqual(["faq"])
    replay()
    expect(seen).toEqual(["faq"])
  })

  it("after the take-over, only the entry's capture holds clicks: the loader's listener is gone", () => {
    const { root, byId } = page()
    runLoader()
    const replay = captureEarlyClicks(root)
    byId("submit").click()
    const seen: Array<string> = []
    root.addEventListener("click", (e) => seen.push((e.target as HTMLElement).id))
    replay()
    // The entry's capture kept the click (the loader's kept nothing), and the replay passes through.
    expect(seen).toEqual(["submit"])
    byId("faq").click()
    expect(seen).toEqual(["submit", "faq"])
  })

  it("leaves links, text and what is outside #root alone, as the entry's capture does", () => {
    const { byId } = page()
    runLoader()
    const seen = clickUncapturable(byId)
    expect(seen).toEqual(["link", "text", "outside"])
    expect(takeLoaderCapture()).toBeUndefined()
  })

  it("a capture the loader kept on what is gone by then, or a malformed global, gives nothing to replay", () => {
    const { root, byId } = page()
    runLoader()
    byId("faq").click()
    byId("faq").remove()
    let clicks = 0
    root.addEventListener("click", () => (clicks += 1))
    captureEarlyClicks(root)()
    expect(clicks).toBe(0)

    for (const hostile of [null, "x", 42, { target: "nope" }, { stop: "nope" }]) {
      ;(window as unknown as Record<string, unknown>)[EARLY_CLICK_KEY] = hostile
      expect(takeLoaderCapture()).toBeUndefined()
    }
    ;(window as unknown as Record<string, unknown>)[EARLY_CLICK_KEY] = { target: "nope", stop: () => undefined }
    expect(takeLoaderCapture()).toBeUndefined()
  })

  it("if the entry's file cannot load, stops capturing (the markup acts as plain HTML) and says which file failed", () => {
    // The notice it puts up: test/app/entry-stages.test.ts.
    const { byId } = page()
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
    runLoader("/assets/index-gone.js")
    document.head.querySelector("script")?.dispatchEvent(new Event("error"))
    expect(logged).toHaveBeenCalledWith(
      "hSwap: the entry could not load:",
      expect.stringContaining("/assets/index-gone.js")
    )
    // The notice took the place of #root's content (this page has no <main>); a control there is not held back.
    expect(byId("faq")).toBeNull()
    const late = document.createElement("button")
    late.id = "late"
    byId("root").append(late)
    const seen: Array<string> = []
    document.addEventListener("click", (e) => seen.push((e.target as HTMLElement).id))
    late.click()
    expect(seen).toEqual(["late"])
  })
})
