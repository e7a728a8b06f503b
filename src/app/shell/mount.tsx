/**
 * Puts the app on the page: hydrates the prerendered `/` when that is what painted and what the app renders now, and
 * otherwise renders anew over the frame-only copy (see firstPaint.ts). main.tsx is the caller; tests call it with
 * their own router and live half.
 */
import { RouterProvider } from "@tanstack/react-router"
import { type ReactNode, startTransition, StrictMode, useLayoutEffect } from "react"
import { createRoot, hydrateRoot, type Root } from "react-dom/client"
import type { AppRouter } from "../router"
import { nextTask } from "../runtime/inStages"
import { LiveProvider, type LiveResource } from "../runtime/live-context"
import { FIRST_PAINT_ATTRIBUTE, firstPaint, firstPaintDone, hydratable } from "./firstPaint"

/**
 * The first commit shows #root again (see firstPaint.ts); later commits find nothing to do. It wraps the app (one
 * child, no sibling), so the tree, and the ids React derives from it, stay the prerender's.
 */
function FirstPaintDone({ children }: { readonly children: ReactNode }) {
  useLayoutEffect(firstPaintDone, [])
  return children
}

export const appTree = (router: AppRouter, live: LiveResource) => (
  <StrictMode>
    <FirstPaintDone>
      <LiveProvider resource={live}>
        <RouterProvider router={router} />
      </LiveProvider>
    </FirstPaintDone>
  </StrictMode>
)

/** React's hydration root can be asked to hydrate a node's boundary first (an unstable API of react-dom 19). */
const scheduleHydration = (root: Root, target: HTMLElement) => {
  const schedule = (root as Root & { unstable_scheduleHydration?: (target: Node) => void }).unstable_scheduleHydration
  if (typeof schedule === "function") schedule.call(root, target)
}

export interface Mounted {
  readonly root: Root
  readonly hydrated: boolean
}

/**
 * index.html holds `/` as it renders with the live half ready (prerender.tsx). When this load painted that page, the
 * router resolved `/` and the live half is ready, the markup is hydrated, so what painted first stays. Anywhere else
 * (another route, a 404, a live half that cannot run) the app renders anew: the frame-only copy shows meanwhile and
 * the app's Layout removes it when it commits. Either way React works in slices (a transition), so the main thread is
 * never blocked for long.
 */
export const mountApp = async (container: HTMLElement, router: AppRouter, live: LiveResource): Promise<Mounted> => {
  const app = appTree(router, live)
  if (firstPaint() === "page") {
    // The page's chunk after the live half: its graph is mostly the live chunk's, which loads in stages (one task
    // each, see runtime/inStages.ts); loading it alongside would evaluate that whole graph in one task.
    const boot = await live.promise
    // And in a task of its own: the last stage of the live chunk and the boot were the task before.
    await nextTask()
    await router.load()
    if (hydratable(router, boot)) {
      // Render the router's tree as its server render did (TanStack's own hydration marks the router the same way).
      router.ssr = { manifest: undefined }
      let root: Root | undefined
      startTransition(() => {
        root = hydrateRoot(container, app)
      })
      if (root === undefined) throw new Error("hydrateRoot did not run")
      // React leaves the page's Suspense boundaries (the router's) to hydrate at idle priority; a navigation before
      // they are would make it drop them and render anew, with an error on the console. Ask for the page at once.
      const page = container.querySelector("main")?.firstElementChild
      if (page instanceof HTMLElement) scheduleHydration(root, page)
      return { root, hydrated: true }
    }
    // The page painted but cannot be kept: the frame-only copy shows until the app's own render commits.
    document.documentElement.setAttribute(FIRST_PAINT_ATTRIBUTE, "shell")
  }
  container.replaceChildren()
  const root = createRoot(container)
  startTransition(() => root.render(app))
  return { root, hydrated: false }
}
