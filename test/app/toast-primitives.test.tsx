// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { useState } from "react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Toaster } from "../../src/app/services/Toaster"
import { announcementOf } from "../../src/app/ui/Toasts"
import {
  isInToastRegion,
  SWIPE_START_MOUSE,
  SWIPE_START_TOUCH,
  SWIPE_THRESHOLD,
  ToastRoot,
  ToastViewport,
  VIEWPORT_LABEL
} from "../../src/app/ui/toast"
import { renderApp } from "./harness"

const noop = () => undefined

interface Spies {
  readonly onClose?: () => void
  readonly onPause?: () => void
  readonly onResume?: () => void
}

/** One open toast in the region, closed by its onClose as the app's are. */
function One(props: Spies & { readonly style?: React.CSSProperties }) {
  const [open, setOpen] = useState(true)
  return (
    <ToastViewport
      className="list"
      current={open ? "t1" : undefined}
      onPause={props.onPause ?? noop}
      onResume={props.onResume ?? noop}
      announcement={{ text: open ? "Notification Hello" : "", assertive: false }}
    >
      <ToastRoot
        open={open}
        data-testid="toast"
        onClose={() => {
          props.onClose?.()
          setOpen(false)
        }}
        {...(props.style === undefined ? {} : { style: props.style })}
      >
        Hello
      </ToastRoot>
    </ToastViewport>
  )
}

/** A drag on the toast: pointer down at x = 0, moves to each (x, y), then up. */
const drag = (toast: HTMLElement, moves: ReadonlyArray<readonly [number, number]>, pointerType = "mouse") => {
  fireEvent.pointerDown(toast, { button: 0, clientX: 0, clientY: 0, pointerId: 1, pointerType })
  for (const [x, y] of moves) fireEvent.pointerMove(toast, { clientX: x, clientY: y, pointerId: 1, pointerType })
  const last = moves.at(-1) ?? [0, 0]
  fireEvent.pointerUp(toast, { clientX: last[0], clientY: last[1], pointerId: 1, pointerType })
}

afterEach(() => vi.restoreAllMocks())

describe("toast region", () => {
  it("is a region named 'Notifications (F8)', and F8 moves focus to its list", async () => {
    render(<One />)
    const region = screen.getByRole("region", { name: "Notifications (F8)" })
    expect(VIEWPORT_LABEL).toBe("Notifications (F8)")
    expect(region.querySelector("ol")).not.toBeNull()
    expect(document.activeElement).toBe(document.body)
    fireEvent.keyDown(document.body, { key: "F8", code: "F8" })
    expect(document.activeElement).toBe(region.querySelector("ol"))
  })

  it("announces the toast in a polite live region (an assertive one for foreground toasts)", () => {
    render(<One />)
    const live = screen
      .getByRole("region", { name: VIEWPORT_LABEL })
      .querySelector('[aria-live="polite"][role="status"]')
    expect(live?.textContent).toBe("Notification Hello")
    expect(
      announcementOf({
        id: "1",
        title: "Swap Failed",
        description: `See <b>details</b><img src=x onerror="window.__bad=1">`,
        variant: "destructive",
        durationMillis: 5000,
        action: { label: "Retry", altText: "Retry the swap from the swap card", onAction: noop },
        open: true
      })
    ).toEqual({ text: "Notification Swap Failed See details Retry the swap from the swap card", assertive: true })
    expect((window as unknown as { __bad?: number }).__bad).toBeUndefined()
    expect(announcementOf(undefined)).toEqual({ text: "", assertive: false })
  })

  it("pauses on hover or focus inside, once, and resumes on leaving", () => {
    const onPause = vi.fn()
    const onResume = vi.fn()
    const { unmount } = render(<One onPause={onPause} onResume={onResume} />)
    const region = screen.getByRole("region", { name: VIEWPORT_LABEL })
    fireEvent.pointerMove(region)
    fireEvent.pointerMove(screen.getByTestId("toast"))
    expect(onPause).toHaveBeenCalledTimes(1)
    fireEvent.pointerLeave(region)
    expect(onResume).toHaveBeenCalledTimes(1)
    act(() => screen.getByTestId("toast").focus())
    expect(onPause).toHaveBeenCalledTimes(2)
    // Focus moving within the region keeps it paused; leaving it resumes.
    fireEvent.pointerLeave(region)
    expect(onResume).toHaveBeenCalledTimes(1)
    act(() => screen.getByTestId("toast").blur())
    expect(onResume).toHaveBeenCalledTimes(2)
    // The window losing focus pauses too; once the region is gone, nothing listens any more.
    fireEvent.blur(window)
    expect(onPause).toHaveBeenCalledTimes(3)
    fireEvent.focus(window)
    expect(onResume).toHaveBeenCalledTimes(3)
    unmount()
    fireEvent.blur(window)
    expect(onPause).toHaveBeenCalledTimes(3)
  })

  it("marks itself so that dialogs and popovers do not take a click on a toast for one outside them", () => {
    render(<One />)
    expect(isInToastRegion(screen.getByText("Hello"))).toBe(true)
    expect(isInToastRegion(document.body)).toBe(false)
    expect(isInToastRegion(null)).toBe(false)
  })
})

describe("toast", () => {
  it("is a focusable list item, open, then closed and off the page at once when it has no exit animation", async () => {
    const onClose = vi.fn()
    render(<One onClose={onClose} />)
    const toast = screen.getByTestId("toast")
    expect(toast.tagName).toBe("LI")
    // A list item of the region's list, as axe's "list" rule wants: no role of its own (Radix gave it "status").
    expect(toast).not.toHaveAttribute("role")
    expect(within(screen.getByRole("list")).getByRole("listitem")).toBe(toast)
    expect(toast).toHaveAttribute("aria-live", "off")
    expect(toast).toHaveAttribute("tabindex", "0")
    expect(toast).toHaveAttribute("data-state", "open")
    expect(toast).toBeVisible()
    await userEvent.keyboard("{Escape}")
    expect(onClose).toHaveBeenCalledTimes(1)
    expect(toast).toHaveAttribute("data-state", "closed")
    // Gone, as with Radix's presence: a closed toast is not left in the page for queries to find.
    expect(screen.queryByTestId("toast")).toBeNull()
  })

  it("gives focus inside it to the list when it closes, so a keyboard user is not sent back to the page's start", async () => {
    render(<One />)
    const close = document.createElement("button")
    screen.getByTestId("toast").append(close)
    act(() => close.focus())
    await userEvent.keyboard("{Escape}")
    expect(screen.queryByTestId("toast")).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole("region", { name: VIEWPORT_LABEL }).querySelector("ol"))
  })

  it("plays its exit animation out before it leaves the page", () => {
    render(<One style={{ animationName: "toast-out" }} />)
    const toast = screen.getByTestId("toast")
    fireEvent.keyDown(document, { key: "Escape" })
    expect(toast).toHaveAttribute("data-state", "closed")
    expect(toast).toBeVisible()
    // The end of an animation inside it is not the toast's own.
    fireEvent.animationEnd(toast.firstChild ?? toast)
    expect(screen.getByTestId("toast")).toBe(toast)
    fireEvent.animationEnd(toast)
    expect(screen.queryByTestId("toast")).toBeNull()
  })

  it("leaves Escape to a dialog or popover that took it first", () => {
    const onClose = vi.fn()
    render(<One onClose={onClose} />)
    // Radix's dismissable layers take Escape in the capture phase and mark it handled.
    const layer = (event: KeyboardEvent) => event.preventDefault()
    document.addEventListener("keydown", layer, { capture: true })
    try {
      fireEvent.keyDown(document.body, { key: "Escape" })
      expect(onClose).not.toHaveBeenCalled()
    } finally {
      document.removeEventListener("keydown", layer, { capture: true })
    }
    fireEvent.keyDown(document.body, { key: "Escape" })
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it(`closes on a swipe right beyond ${SWIPE_THRESHOLD} px, and springs back short of it`, () => {
    const onClose = vi.fn()
    render(<One onClose={onClose} />)
    const toast = screen.getByTestId("toast")
    expect(toast).toHaveAttribute("data-swipe-direction", "right")
    drag(toast, [
      [SWIPE_START_MOUSE, 0],
      [SWIPE_START_MOUSE + 1, 0],
      [SWIPE_THRESHOLD, 0]
    ])
    expect(toast).toHaveAttribute("data-swipe", "cancel")
    expect(toast.style.getPropertyValue("--toast-swipe-x")).toBe("")
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.pointerDown(toast, { button: 0, clientX: 0, clientY: 0, pointerId: 1 })
    fireEvent.pointerMove(toast, { clientX: 10, clientY: 0, pointerId: 1 })
    expect(toast).toHaveAttribute("data-swipe", "start")
    fireEvent.pointerMove(toast, { clientX: 40, clientY: 3, pointerId: 1 })
    expect(toast).toHaveAttribute("data-swipe", "move")
    expect(toast.style.getPropertyValue("--toast-swipe-x")).toBe("40px")
    fireEvent.pointerUp(toast, { clientX: SWIPE_THRESHOLD + 1, clientY: 0, pointerId: 1 })
    // The distance is the last move's: 40 px springs back.
    expect(toast).toHaveAttribute("data-swipe", "cancel")
    drag(toast, [
      [10, 0],
      [SWIPE_THRESHOLD + 1, 0]
    ])
    expect(toast).toHaveAttribute("data-swipe", "end")
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it(`starts a swipe after ${SWIPE_START_TOUCH} px of touch or ${SWIPE_START_MOUSE} px of a mouse, and not on a drag the other way first`, () => {
    const onClose = vi.fn()
    render(<One onClose={onClose} />)
    const toast = screen.getByTestId("toast")
    fireEvent.pointerDown(toast, { button: 0, clientX: 0, clientY: 0, pointerId: 1, pointerType: "touch" })
    fireEvent.pointerMove(toast, { clientX: SWIPE_START_TOUCH, clientY: 0, pointerId: 1, pointerType: "touch" })
    expect(toast).not.toHaveAttribute("data-swipe")
    fireEvent.pointerMove(toast, { clientX: SWIPE_START_TOUCH + 1, clientY: 0, pointerId: 1, pointerType: "touch" })
    expect(toast).toHaveAttribute("data-swipe", "start")
    fireEvent.pointerUp(toast, { clientX: 11, clientY: 0, pointerId: 1, pointerType: "touch" })
    // Down first (a scroll), then right: not a swipe.
    drag(toast, [
      [0, SWIPE_START_MOUSE + 1],
      [SWIPE_THRESHOLD + 20, 0]
    ])
    expect(toast).toHaveAttribute("data-swipe", "cancel")
    // Left: never a swipe.
    drag(toast, [
      [-5, 0],
      [-(SWIPE_THRESHOLD + 20), 0]
    ])
    expect(onClose).not.toHaveBeenCalled()
    // A secondary button does not drag.
    fireEvent.pointerDown(toast, { button: 2, clientX: 0, clientY: 0, pointerId: 1 })
    fireEvent.pointerMove(toast, { clientX: SWIPE_THRESHOLD + 20, clientY: 0, pointerId: 1 })
    fireEvent.pointerUp(toast, { clientX: SWIPE_THRESHOLD + 20, clientY: 0, pointerId: 1 })
    expect(onClose).not.toHaveBeenCalled()
  })

  it("does not count the click that ends a swipe", () => {
    const clicked = vi.fn()
    render(
      <ToastViewport
        className=""
        current="t"
        onPause={noop}
        onResume={noop}
        announcement={{ text: "", assertive: false }}
      >
        <ToastRoot open data-testid="toast" onClose={noop} onClick={(e) => !e.defaultPrevented && clicked()}>
          x
        </ToastRoot>
      </ToastViewport>
    )
    const toast = screen.getByTestId("toast")
    drag(toast, [
      [10, 0],
      [20, 0]
    ])
    fireEvent.click(toast)
    expect(clicked).not.toHaveBeenCalled()
    fireEvent.click(toast)
    expect(clicked).toHaveBeenCalledTimes(1)
  })
})

describe("toasts in the app", () => {
  let dispose: (() => Promise<void>) | undefined
  afterEach(async () => {
    await dispose?.()
    dispose = undefined
  })

  it("the action runs and closes its toast; the region announces the toast on screen", async () => {
    const h = await renderApp({ path: "/earn" })
    dispose = () => h.runtime.dispose()
    const onAction = vi.fn()
    await h.run(
      Toaster.show({
        title: "Route Selected",
        description: "Now using <b>Ociswap</b>",
        action: { label: "Undo", altText: "Select the previous route again", onAction }
      })
    )
    const toast = await screen.findByTestId("toast")
    const region = screen.getByRole("region", { name: VIEWPORT_LABEL })
    await waitFor(() =>
      expect(region.querySelector('[aria-live="polite"]')?.textContent).toBe(
        "Notification Route Selected Now using Ociswap Select the previous route again"
      )
    )
    await userEvent.click(within(toast).getByRole("button", { name: "Undo" }))
    expect(onAction).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(screen.queryByTestId("toast")).toBeNull())
    await waitFor(() => expect(region.querySelector('[aria-live="polite"]')?.textContent).toBe(""))
  })

  it("a click on a toast's close button leaves an open dialog open", async () => {
    const h = await renderApp({ path: "/earn" })
    dispose = () => h.runtime.dispose()
    await userEvent.click(screen.getByRole("button", { name: "Welcome message" }))
    await screen.findByText("Welcome to hSwap")
    await userEvent.click(screen.getByRole("button", { name: "Support our validator" }))
    const dialog = await screen.findByTestId("validator-dialog")
    const close = within(screen.getByTestId("toast")).getByRole("button", { name: "Close" })
    fireEvent.pointerDown(close)
    fireEvent.click(close)
    await waitFor(() => expect(screen.queryByTestId("toast")).toBeNull())
    expect(dialog).toBeInTheDocument()
    expect(screen.getByTestId("validator-dialog")).toBe(dialog)
  })
})
