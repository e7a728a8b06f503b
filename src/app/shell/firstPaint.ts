/**
 * Which prerendered copy paints first. index.html holds two (see build/prerenderPages.ts and shell/prerender.tsx): `/` itself in
 * #root, which the app hydrates, and the frame alone (`#shell-prerender`, header, navigation and the page skeleton),
 * for every other path. A small blocking script in the head (firstPaintScript(), before any of the body is parsed)
 * marks <html> with the copy for this path, and FIRST_PAINT_STYLE shows only that one, so a load of `/stats` never
 * paints `/`'s page for a moment. Without scripts nothing is marked and `/` shows.
 *
 * This module is in the initial bundle: it holds only strings and one check.
 */
import type { AnyRouter } from "@tanstack/react-router"
import type { Boot } from "../runtime/live-context"

/** The path whose page index.html holds (and main.tsx hydrates). */
export const PRERENDERED_PAGE_PATH = "/"

/** The frame-only copy's id (the app's Layout removes it when it commits). */
export const PRERENDERED_SHELL_ID = "shell-prerender"

export const FIRST_PAINT_ATTRIBUTE = "data-first-paint"

/** An empty element after both copies; the head's `<link rel="expect" blocking="render">` waits for it. */
export const FIRST_PAINT_MARK_ID = "first-paint-ready"

export type FirstPaint = "page" | "shell"

/** The head script's body: marks <html> before the body is parsed (a function: the bundle never needs the text). */
export const firstPaintScript = (): string =>
  `document.documentElement.setAttribute(${JSON.stringify(FIRST_PAINT_ATTRIBUTE)},location.pathname===${JSON.stringify(PRERENDERED_PAGE_PATH)}?"page":"shell");`

/**
 * Shows the copy the head script chose. The frame-only copy comes after #root in the document, so the page's markup is
 * parsed (and can paint) first; #root shows again when the app's own render commits (`firstPaintDone`).
 */
export const FIRST_PAINT_STYLE = `html:not([${FIRST_PAINT_ATTRIBUTE}="shell"]) #${PRERENDERED_SHELL_ID}{display:none}html[${FIRST_PAINT_ATTRIBUTE}="shell"] #root{display:none}`

/**
 * Called in the layout effects of the app's first commit, the same commit whose Layout removes the frame-only copy:
 * #root shows in that frame.
 */
export const firstPaintDone = () => document.documentElement.removeAttribute(FIRST_PAINT_ATTRIBUTE)

/** The copy that painted first; `undefined` when the document holds no prerendered page (`npm run dev`). */
export const firstPaint = (): FirstPaint | undefined => {
  const value = document.documentElement.getAttribute(FIRST_PAINT_ATTRIBUTE)
  return value === "page" || value === "shell" ? value : undefined
}

/**
 * Whether #root's markup is what the app renders now: the page copy painted, the router resolved `/` (nothing else:
 * no not-found, no error), and the live half is ready (the page was prerendered with it ready).
 */
export const hydratable = (router: AnyRouter, boot: Boot): boolean => {
  const matches = router.state.matches
  const leaf = matches.at(-1)
  return (
    firstPaint() === "page" &&
    boot._tag === "Ready" &&
    router.state.location.pathname === PRERENDERED_PAGE_PATH &&
    leaf?.routeId === PRERENDERED_PAGE_PATH &&
    matches.every((m) => m.status === "success")
  )
}
