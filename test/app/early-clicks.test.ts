// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest"
import { captureEarlyClicks } from "../../src/app/shell/earlyClicks"

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
  document.body.innerHTML = ""
})

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
    let submitted = 0
    document.querySelector("form")?.addEventListener("submit", (e) => {
      e.preventDefault()
      submitted += 1
    })
    const stop = captureEarlyClicks(root)
    byId("submit").click()
    stop(false)
    expect(submitted).toBe(0)
    stop()
    expect(submitted).toBe(0)
    byId("submit").click()
    expect(submitted).toBe(1)
  })

  it("stops a captured click's default (a form's submit) until the app owns it", () => {
    const { root, byId } = page()
    let submitted = 0
    document.querySelector("form")?.addEventListener("submit", (e) => {
      e.preventDefault()
      submitted += 1
    })
    const replay = captureEarlyClicks(root)
    byId("submit").click()
    expect(submitted).toBe(0)
    replay()
    expect(submitted).toBe(1)
  })

  it("leaves links, plain text and what is outside #root alone, and replays nothing for them", () => {
    const { root, byId } = page()
    const replay = captureEarlyClicks(root)
    const seen: Array<string> = []
    document.addEventListener("click", (e) => seen.push((e.target as HTMLElement).id))
    byId("link").click()
    byId("text").click()
    byId("outside").click()
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
