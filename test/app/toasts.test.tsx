// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Toaster } from "../../src/app/services/Toaster"
import { isBareMarkup } from "../../src/app/ui/markup"
import { sanitizeHtml } from "../../src/app/ui/sanitize"
import { renderApp } from "./harness"

let dispose: (() => Promise<void>) | undefined
afterEach(async () => {
  await dispose?.()
  dispose = undefined
  vi.restoreAllMocks()
})
const app = async () => {
  const h = await renderApp({ path: "/earn" })
  dispose = () => h.runtime.dispose()
  return h
}

describe("sanitizeHtml", () => {
  it("keeps the allowlist and removes scripts, handlers, styles and javascript: links", () => {
    const out = sanitizeHtml(
      `<b>bold</b><img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a><a href="https://ok.example" onclick="y()">ok</a><iframe src="https://evil"></iframe><span style="color:red">s</span>`
    )
    expect(out).toContain("<b>bold</b>")
    expect(out).not.toMatch(/onerror|<script|javascript:|onclick|<iframe|<img|style=/)
    expect(out).toContain('<a href="https://ok.example" target="_blank" rel="noopener noreferrer">ok</a>')
  })
})

describe("isBareMarkup", () => {
  it("accepts text and attribute-free allowlisted tags only", () => {
    for (const ok of [
      "",
      "plain text",
      "Swap at a <b>fixed rate</b>, now",
      "<p>a<br>b</p><i>c</i><em>d</em>",
      'quote\'s "x"'
    ])
      expect(isBareMarkup(ok)).toBe(true)
    for (const bad of [
      "<b onclick=x>hi</b>",
      '<a href="https://x">x</a>',
      "<img src=x onerror=alert(1)>",
      "<script>1</script>",
      "a &lt; b",
      "1 < 2",
      "2 > 1",
      "<br/>",
      "<B>caps</B>",
      "<b >spaced</b>",
      "<style>*{}</style>",
      "<svg><b></b></svg>"
    ])
      expect(isBareMarkup(bad)).toBe(false)
  })
})

describe("toasts", () => {
  it("render text and bare allowlisted tags at once, without the sanitiser", async () => {
    const h = await app()
    await h.run(Toaster.show({ title: "t", description: "Swap at a <b>fixed rate</b> with no slippage" }))
    const toast = await screen.findByTestId("toast")
    // No waiting: the markup is there in the first render.
    expect(toast.querySelector("b")?.textContent).toBe("fixed rate")
    expect(toast).toHaveTextContent("Swap at a fixed rate with no slippage")
  })

  it("render hostile descriptions as harmless HTML", async () => {
    const h = await app()
    await h.run(
      Toaster.show({
        title: "<img src=x onerror=alert(1)>",
        description: `<b>hi</b><script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2">`
      })
    )
    const toast = await screen.findByTestId("toast")
    // The title is text, never markup.
    expect(within(toast).getByText("<img src=x onerror=alert(1)>")).toBeVisible()
    expect(toast.querySelector("script, img")).toBeNull()
    // The sanitiser is its own chunk: until it has loaded the description is plain text, then the allowed markup.
    await waitFor(() => expect(toast.querySelector("b")?.textContent).toBe("hi"))
    expect(toast.querySelector("script, img")).toBeNull()
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined()
  })

  it("the close button and Escape dismiss a toast", async () => {
    const h = await app()
    await h.run(Toaster.show({ title: "one", duration: "1 hour" }))
    const close = within(await screen.findByTestId("toast")).getByRole("button", { name: "Close" })
    // Radix makes its region interactive once it has counted the toast (jsdom has no Tailwind to override that).
    await waitFor(() => expect(getComputedStyle(close).pointerEvents).not.toBe("none"))
    await userEvent.click(close)
    // The dismissal goes through the Toaster service and back as a (transition) render.
    await waitFor(() => expect(screen.queryByTestId("toast")?.getAttribute("data-state") ?? "closed").toBe("closed"))
    await h.run(Toaster.show({ title: "two", duration: "1 hour" }))
    const two = await screen.findByText("two")
    two.closest("li")?.focus()
    await userEvent.keyboard("{Escape}")
    await waitFor(() =>
      expect(screen.queryByText("two")?.closest("li")?.getAttribute("data-state") ?? "closed").toBe("closed")
    )
  })

  it("an action without alt text logs an error and renders nothing; with alt text it renders", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const h = await app()
    const t = await h.run(
      Toaster.show({ title: "t", action: { label: "Undo", altText: " ", onAction: () => undefined } })
    )
    await screen.findByText("t")
    expect(screen.queryByRole("button", { name: "Undo" })).toBeNull()
    expect(error).toHaveBeenCalledWith(expect.stringContaining("altText"))
    let clicked = 0
    // One toast at a time: the next one shows once this one is closed.
    await h.run(Toaster.dismiss(t))
    await h.run(
      Toaster.show({
        title: "u",
        action: { label: "Retry", altText: "Retry the swap", onAction: () => void clicked++ }
      })
    )
    await userEvent.click(await screen.findByRole("button", { name: "Retry" }))
    expect(clicked).toBe(1)
  })
})
