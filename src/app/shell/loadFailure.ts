/**
 * What the page shows when the app's own files (the entry's, or its stages', see main.tsx) could not load: React is
 * not there to render BootFailure (views.tsx), so this puts the same notice up with the DOM, in the content area of the
 * prerendered frame, instead of leaving a page that looks ready and does nothing. Both take their words and classes
 * from LOAD_FAILURE here.
 *
 * This module is in the initial bundle: it imports only firstPaint.ts and drawer.ts (strings).
 */
import { firstPaint, firstPaintDone, PRERENDERED_SHELL_ID } from "./firstPaint"
import { DRAWER } from "./drawer"

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

/**
 * The notice as markup, from the words and classes above and nothing else (the message goes in afterwards, as text):
 * the entry's showLoadFailure and index.html's loader (shell/entryLoader.ts, when the entry's own file cannot load) put
 * the same notice up. Its first `<p>` holds the message.
 */
export const LOAD_FAILURE_NOTICE =
  `<div class="${LOAD_FAILURE.box}" role="alert" data-testid="load-failure">` +
  `<h1 class="${LOAD_FAILURE.title}">${LOAD_FAILURE_TITLE}</h1><p class="${LOAD_FAILURE.message}"></p>` +
  `<p class="${LOAD_FAILURE.hint}">${LOAD_FAILURE.hintText}</p>` +
  `<button type="button" class="${LOAD_FAILURE.reload}">Reload</button></div>`

/** The test id of the wallet button's placeholder while the toolkit loads, and once it cannot. */
export const WALLET_PLACEHOLDER_LOADING = "wallet-button-loading"
export const WALLET_PLACEHOLDER_STOPPED = "wallet-button-unavailable"

/**
 * Where index.html's loader leaves its own function that puts the notice up, `(message: string) => void`
 * (shell/entryLoader.ts): in a build, showLoadFailure hands the message to it.
 */
export const LOAD_FAILURE_KEY = "__hswapLoadFailure"

/** The menu button and the sidebar it opens, found in either copy (the frame-only copy has no ids or test ids). */
export const MENU_BUTTON_SELECTOR = '[aria-controls="sidebar"]'
export const SIDEBAR_SELECTOR = 'nav[aria-label="Main"]'

/**
 * Makes the copy's menu button open and close its sidebar (a drawer under 768 px) as Layout does, without React:
 * once the app cannot run, the sidebar's links and the support links at its foot are still what the user can reach.
 */
const menuWithoutReact = (host: ParentNode) => {
  const button = host.querySelector(MENU_BUTTON_SELECTOR)
  const sidebar = host.querySelector(SIDEBAR_SELECTOR)
  if (button === null || sidebar === null) return
  button.addEventListener("click", () => {
    const open = sidebar.classList.toggle(DRAWER.openClass)
    sidebar.classList.toggle(DRAWER.closedClass, !open)
    sidebar.setAttribute("data-open", String(open))
    button.setAttribute("aria-expanded", String(open))
    button.setAttribute("aria-label", open ? DRAWER.openLabel : DRAWER.closedLabel)
  })
}

/**
 * Shows the notice in the content area of the copy that shows (the whole copy when it has none): #root, or on another
 * path than `/` the frame-only copy, whose navigation marks no page (#root's marks `/`'s), made live (it is inert and
 * hidden from assistive technology while the app is to render over it). When #root is the one, the frame-only copy
 * goes and #root shows, as when the app commits. index.html's loader does the same steps in its own
 * words (entryLoaderScript); test/app/entry-stages.test.ts holds the two to one result. The copy's menu button opens
 * and closes its sidebar.
 *
 * In a build the loader is always there (it is what started the entry), so this hands the message to the loader's
 * function and the steps below are left out of the entry's file: one copy of them in what a user loads, in index.html.
 * Dev and the unit tests have no loader and run them here.
 */
export const showLoadFailure = (root: HTMLElement, error: unknown) => {
  const text = error instanceof Error ? error.message : String(error)
  if (!import.meta.env.DEV) {
    const fromLoader = (window as unknown as Record<string, unknown>)[LOAD_FAILURE_KEY]
    if (typeof fromLoader === "function") fromLoader(text)
    else console.error("hSwap: index.html's loader is not on the page, so the load-failure notice cannot show:", text)
    return
  }
  const frame = firstPaint() === "shell" ? document.getElementById(PRERENDERED_SHELL_ID) : null
  const host = frame ?? root
  const content = host.querySelector("main") ?? host
  content.innerHTML = LOAD_FAILURE_NOTICE
  const message = content.querySelector("p")
  if (message !== null) message.textContent = text
  content.querySelector("button")?.addEventListener("click", () => window.location.reload())
  menuWithoutReact(host)
  // Nothing is loading any more: the frame's placeholders (the wallet button's) stop pulsing, as in BootFailure's.
  for (const pulsing of host.querySelectorAll<HTMLElement>(".animate-pulse")) {
    pulsing.classList.replace("animate-pulse", STOPPED_PLACEHOLDER)
    if (pulsing.dataset.testid === WALLET_PLACEHOLDER_LOADING) pulsing.dataset.testid = WALLET_PLACEHOLDER_STOPPED
  }
  if (frame !== null) {
    // Until now a picture of the frame for the app to render over; now the page the user acts on (Reload, its links).
    frame.removeAttribute("inert")
    frame.removeAttribute("aria-hidden")
    return
  }
  document.getElementById(PRERENDERED_SHELL_ID)?.remove()
  firstPaintDone()
}
