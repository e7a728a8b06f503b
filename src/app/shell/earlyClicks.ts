/**
 * Clicks on the prerendered page before the app is on it. Until `mountApp` has called `hydrateRoot`, nothing listens to
 * the markup that painted first: a click on its FAQ button or its swap button would do nothing, and the live chunk
 * loads in stages (runtime/inStages.ts), so that window lasts a moment on a slow phone. The entry script captures
 * such clicks on controls inside #root, keeps the last one (a double click is one action), and replays it once React
 * listens: on hydrated markup React then hydrates what was clicked and runs its handler. A page that is rendered anew
 * instead of hydrated has replaced the clicked element, so nothing is replayed there.
 *
 * Links are left alone (they navigate natively), and so are text fields (typing into them is kept by hydration).
 *
 * Before the entry runs, index.html's loader captures them the same way (shell/entryLoader.ts); the entry takes its
 * capture over, with the click it kept, in the same task as it starts its own.
 *
 * This module is in the initial bundle: no runtime imports but entryLoader.ts's strings.
 */
import { EARLY_CLICK_CONTROLS as CONTROLS, takeLoaderCapture } from "./entryLoader"

/**
 * Starts capturing; the returned function stops and replays the last captured click (at most once). Call it as soon
 * as React listens to `container`, whether the mount succeeded or not; with `replay` false (the app's files did not
 * load, so nothing will handle it), it only stops.
 */
export const captureEarlyClicks = (container: HTMLElement, doc: Document = document): ((replay?: boolean) => void) => {
  const kept = takeLoaderCapture(doc.defaultView ?? window)
  let pending: HTMLElement | undefined = kept !== undefined && container.contains(kept) ? kept : undefined
  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target.closest(CONTROLS) : null
    if (!(target instanceof HTMLElement) || !container.contains(target)) return
    // Nothing handles it yet: its default (a form's submit, a checkbox toggling under a control React will own) would
    // only put the markup out of step with the app.
    event.preventDefault()
    event.stopPropagation()
    pending = target
  }
  doc.addEventListener("click", onClick, true)
  let done = false
  return (replay = true) => {
    if (done) return
    done = true
    doc.removeEventListener("click", onClick, true)
    const target = pending
    pending = undefined
    if (!replay || target === undefined || !target.isConnected) return
    if (target.hasAttribute("disabled") || target.getAttribute("aria-disabled") === "true") return
    target.click()
  }
}
