import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type HTMLAttributes,
  type PointerEvent as ReactPointerEvent,
  type ReactNode
} from "react"
import { isInToastRegion, TOAST_REGION_ATTRIBUTE } from "../../toolkit/toastRegion"

/**
 * The toast primitives: a notification region and its toasts, with the behaviour and defaults of Radix Toast that the
 * spec names (toolkit §9, app §9). They are ours because the welcome toast opens 4 s after every load, so the toast
 * code is part of every first visit: Radix Toast and the primitives it brings (presence, dismissable layer, portal,
 * collection, visually hidden) weigh about 8.6 kB gzip there, these about 1.5 kB (bench:app --fetched).
 *
 * What they keep of Radix Toast:
 * - the region: `role="region"` labelled "Notifications (F8)", F8 moves focus to the list, and the list is an `ol`;
 * - pausing: the pointer over the region, focus inside it, or the window losing focus pause the toast on screen;
 *   leaving resumes it (the timers are the Toaster service's, on Effect's Clock);
 * - the toast: a focusable `li` with `aria-live="off"`, `data-state` open or closed, and an exit animation before it
 *   leaves the page, as Radix's presence does; Escape or its close button close it, and focus inside it goes to the
 *   list. Unlike Radix's, the `li` has no `role="status"`: a list's items must be list items (axe's "list" rule, serious,
 *   found with the welcome toast on screen), and the live regions below announce it;
 * - swipe right: a drag starts after 10 px of touch or 2 px of a mouse or pen in the swipe's direction (a drag the
 *   other way first is not a swipe), follows the pointer (`data-swipe="move"`, `--toast-swipe-x`), and closes the
 *   toast beyond 50 px (`data-swipe="end"`) or springs back (`data-swipe="cancel"`); the click that ends a swipe is not
 *   a click;
 * - announcements: a polite live region (assertive for foreground toasts) reads "Notification", the title, the
 *   description and the action's alternative text, since a live region announces changes, not its first content.
 *
 * Where they differ: Radix makes the toast a dismissable layer, so that while one shows, Escape anywhere closes it
 * before an open dialog. Here Escape closes a toast when no dialog or popover took the key first (they take it in
 * the capture phase and mark it handled), and the region is marked {@link TOAST_REGION_ATTRIBUTE} so that those
 * layers do not treat a click on a toast as a click outside them (see {@link isInToastRegion}).
 */

/** Swipe right beyond this many pixels closes the toast (spec: 50 px). */
export const SWIPE_THRESHOLD = 50
/** Movement before a drag counts as a swipe (spec: 10 px touch, 2 px mouse). */
export const SWIPE_START_TOUCH = 10
export const SWIPE_START_MOUSE = 2
/** The key that moves focus to the notifications (spec: F8), as `KeyboardEvent.code`. */
export const VIEWPORT_HOTKEY = ["F8"]
export const VIEWPORT_LABEL = `Notifications (${VIEWPORT_HOTKEY.join("+")})`
/** The word the announcement starts with, as Radix's. */
export const ANNOUNCE_LABEL = "Notification"
export { isInToastRegion, TOAST_REGION_ATTRIBUTE }

export interface ToastViewportProps {
  readonly className: string
  /** The toast on screen, if any: the region takes no pointer events without one. */
  readonly current: string | undefined
  /** The region was hovered or focused, or the window lost focus. */
  readonly onPause: () => void
  readonly onResume: () => void
  /** What the live region says, "" for nothing; `assertive` for foreground toasts. */
  readonly announcement: { readonly text: string; readonly assertive: boolean }
  readonly children: ReactNode
}

export function ToastViewport(props: ToastViewportProps) {
  const region = useRef<HTMLDivElement>(null)
  const list = useRef<HTMLOListElement>(null)
  const paused = useRef(false)
  const handlers = useRef(props)
  handlers.current = props

  useEffect(() => {
    const pause = () => {
      if (paused.current) return
      paused.current = true
      handlers.current.onPause()
    }
    const resume = () => {
      if (!paused.current) return
      paused.current = false
      handlers.current.onResume()
    }
    const node = region.current
    if (node === null) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (VIEWPORT_HOTKEY.every((key) => event.code === key)) list.current?.focus()
    }
    const onFocusOut = (event: FocusEvent) => {
      if (!node.contains(event.relatedTarget as Node | null)) resume()
    }
    const onPointerLeave = () => {
      if (!node.contains(document.activeElement)) resume()
    }
    // One abort removes every listener below.
    const listening = new AbortController()
    const options = { signal: listening.signal }
    document.addEventListener("keydown", onKeyDown, options)
    node.addEventListener("focusin", pause, options)
    node.addEventListener("focusout", onFocusOut, options)
    node.addEventListener("pointermove", pause, options)
    node.addEventListener("pointerleave", onPointerLeave, options)
    window.addEventListener("blur", pause, options)
    window.addEventListener("focus", resume, options)
    return () => listening.abort()
  }, [])

  // A toast that takes the screen while the region is paused (hovered, focused) waits too.
  const current = props.current
  useEffect(() => {
    if (current !== undefined && paused.current) handlers.current.onPause()
  }, [current])

  return (
    <div
      ref={region}
      role="region"
      aria-label={VIEWPORT_LABEL}
      tabIndex={-1}
      {...{ [TOAST_REGION_ATTRIBUTE]: "" }}
      style={props.current !== undefined ? undefined : { pointerEvents: "none" }}
    >
      <ol ref={list} tabIndex={-1} className={props.className}>
        {props.children}
      </ol>
      <span role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {props.announcement.assertive ? "" : props.announcement.text}
      </span>
      <span role="alert" aria-live="assertive" aria-atomic="true" className="sr-only">
        {props.announcement.assertive ? props.announcement.text : ""}
      </span>
    </div>
  )
}

export interface ToastRootProps extends Omit<HTMLAttributes<HTMLLIElement>, "onPointerDown" | "onPointerMove"> {
  readonly open: boolean
  /** Escape, the close button or a swipe beyond the threshold. */
  readonly onClose: () => void
  readonly children: ReactNode
}

type Point = { readonly x: number; readonly y: number }

/** One toast. Closed, it plays its exit animation (if it has one) and then leaves the page. */
export function ToastRoot({ open, onClose, children, ...rest }: ToastRootProps) {
  const node = useRef<HTMLLIElement>(null)
  const [gone, setGone] = useState(!open)
  const start = useRef<Point | null>(null)
  const delta = useRef<number | null>(null)
  const close = useRef(onClose)
  close.current = onClose

  useLayoutEffect(() => {
    if (open) return setGone(false)
    const li = node.current
    // Focus inside a closing toast goes to the list (as with Radix), not to the page's start.
    if (li?.contains(document.activeElement) === true) li.closest("ol")?.focus()
    // A native listener: React hears only a prefixed name where the environment has no AnimationEvent.
    const onEnd = (event: Event) => {
      if (event.target === li) setGone(true)
    }
    li?.addEventListener("animationend", onEnd)
    // Nothing to play out (no animation, reduced motion, no layout): off the page at once.
    if (li === null || ["", "none"].includes(getComputedStyle(li).animationName)) setGone(true)
    return () => li?.removeEventListener("animationend", onEnd)
  }, [open])

  // Escape closes the toast on screen, unless a dialog or popover took the key first (and marked it handled).
  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return
      event.preventDefault()
      close.current()
    }
    document.addEventListener("keydown", onKeyDown)
    return () => document.removeEventListener("keydown", onKeyDown)
  }, [open])

  const onPointerMove = (event: ReactPointerEvent<HTMLLIElement>) => {
    const from = start.current
    if (from === null) return
    const x = event.clientX - from.x
    const y = event.clientY - from.y
    const moved = Math.max(0, x)
    const li = event.currentTarget
    if (delta.current !== null) {
      delta.current = moved
      li.setAttribute("data-swipe", "move")
      li.style.setProperty("--toast-swipe-x", `${moved}px`)
      return
    }
    const buffer = event.pointerType === "touch" ? SWIPE_START_TOUCH : SWIPE_START_MOUSE
    if (moved > buffer) {
      delta.current = moved
      li.setAttribute("data-swipe", "start")
      li.setPointerCapture(event.pointerId)
    } else if (Math.abs(x) > buffer || Math.abs(y) > buffer) {
      // A drag the other way first is not a swipe.
      start.current = null
    }
  }

  const onPointerUp = (event: ReactPointerEvent<HTMLLIElement>) => {
    const moved = delta.current
    start.current = null
    delta.current = null
    if (moved === null) return
    const li = event.currentTarget
    if (li.hasPointerCapture(event.pointerId)) li.releasePointerCapture(event.pointerId)
    // The click that ends a swipe is not a click on what is under the pointer.
    li.addEventListener("click", (click) => click.preventDefault(), { once: true })
    if (moved > SWIPE_THRESHOLD) {
      li.setAttribute("data-swipe", "end")
      close.current()
    } else {
      li.setAttribute("data-swipe", "cancel")
      li.style.removeProperty("--toast-swipe-x")
    }
  }

  // Closed and played out: off the page (a later open brings it back).
  if (gone && !open) return null
  return (
    <li
      ref={node}
      aria-live="off"
      aria-atomic="true"
      tabIndex={0}
      data-state={open ? "open" : "closed"}
      data-swipe-direction="right"
      style={{ userSelect: "none", touchAction: "none" }}
      onPointerDown={(event) => {
        if (event.button === 0) start.current = { x: event.clientX, y: event.clientY }
      }}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      {...rest}
    >
      {children}
    </li>
  )
}
