/**
 * What the page shows when the app's own files (the entry's stages, see main.tsx) could not load: React is not there
 * to render BootFailure (views.tsx), so this builds the same notice with the DOM, in the content area of the
 * prerendered frame, instead of leaving a page that looks ready and does nothing. Both take their words and classes
 * from LOAD_FAILURE here.
 *
 * This module is in the initial bundle: it imports only firstPaint.ts.
 */
import { firstPaintDone, PRERENDERED_SHELL_ID } from "./firstPaint"

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) => {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

export const LOAD_FAILURE_TITLE = "The app could not load"

/** The notice's words and classes, shared with BootFailure (views.tsx). */
export const LOAD_FAILURE = {
  box: "mx-auto mt-8 max-w-xl rounded-2xl border border-danger/50 bg-panel p-6",
  title: "text-xl font-semibold",
  message: "mt-3 break-words font-mono text-sm text-danger",
  hint: "mt-3 text-sm text-muted",
  hintText: "Check your connection, then reload the page.",
  reload:
    "mt-4 rounded-xl bg-accent px-4 py-2 text-sm font-semibold text-accent-ink hover:brightness-110 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
} as const

/** The class a placeholder has, instead of its pulse, once the app cannot run (WalletButtonPlaceholder's too). */
export const STOPPED_PLACEHOLDER = "opacity-50"

/** Shows the notice in `root`'s content area (the whole of `root` when it has none) and shows `root`. */
export const showLoadFailure = (root: HTMLElement, error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  const notice = element("div", LOAD_FAILURE.box)
  notice.setAttribute("role", "alert")
  notice.dataset.testid = "load-failure"
  const reload = element("button", LOAD_FAILURE.reload, "Reload")
  reload.type = "button"
  reload.addEventListener("click", () => window.location.reload())
  notice.append(
    element("h1", LOAD_FAILURE.title, LOAD_FAILURE_TITLE),
    element("p", LOAD_FAILURE.message, message),
    element("p", LOAD_FAILURE.hint, LOAD_FAILURE.hintText),
    reload
  )
  const content = root.querySelector("main") ?? root
  content.replaceChildren(notice)
  // Nothing is loading any more: the frame's placeholders (the wallet button's) stop pulsing, as in BootFailure's.
  for (const pulsing of root.querySelectorAll<HTMLElement>(".animate-pulse")) {
    pulsing.classList.replace("animate-pulse", STOPPED_PLACEHOLDER)
    if (pulsing.dataset.testid === "wallet-button-loading") pulsing.dataset.testid = "wallet-button-unavailable"
  }
  // #root holds the frame of every page; the frame-only copy (firstPaint.ts) goes, and #root shows.
  document.getElementById(PRERENDERED_SHELL_ID)?.remove()
  firstPaintDone()
}
