/**
 * Puts the app on the page: hydrates the prerendered `/` when that is what painted and what the app renders now, and
 * otherwise renders anew over the frame-only copy (see firstPaint.ts). main.tsx is the caller; tests call it with
 * their own router and live half.
 */
import { RouterProvider } from "@tanstack/react-router"
import { createContext, type ReactNode, startTransition, StrictMode, useEffect, useLayoutEffect, useState } from "react"
import { flushSync } from "react-dom"
import { createRoot, hydrateRoot, type Root } from "react-dom/client"
import type { AppRouter } from "../router"
import { nextTask } from "../runtime/inStages"
import { IslandsOpen, LiveProvider, type LiveResource } from "../runtime/live-context"
import { FIRST_PAINT_ATTRIBUTE, firstPaint, firstPaintDone, hydratable } from "./firstPaint"

/**
 * The first commit shows #root again (see firstPaint.ts); later commits find nothing to do. It wraps the app (one
 * child, no sibling), so the tree, and the ids React derives from it, stay the prerender's.
 */
function FirstPaintDone({ children }: { readonly children: ReactNode }) {
  useLayoutEffect(firstPaintDone, [])
  return children
}

/**
 * The app. `hydrating` is given when the app hydrates the prerendered `/`, with the page's first node (see
 * HydrateSoon). The wrappers have one child each and render no node, so the tree and the ids React derives from it
 * stay the prerender's.
 */
export const appTree = (router: AppRouter, live: LiveResource, hydrating?: { readonly page: Element | null }) => {
  const app = (
    <LiveProvider resource={live}>
      <RouterProvider router={router} />
    </LiveProvider>
  )
  return (
    <StrictMode>
      <FirstPaintDone>
        {hydrating === undefined ? app : <HydrateSoon page={hydrating.page}>{app}</HydrateSoon>}
      </FirstPaintDone>
    </StrictMode>
  )
}

/**
 * A context whose change tells React that something above the page's Suspense boundaries changed. Nothing reads it:
 * React cannot know whether a boundary it has not hydrated yet reads it, so it hydrates that boundary first, at the
 * lane of the change (a transition: in slices), and only then renders the change (which changes nothing).
 */
const HydrationNudge = createContext(0)

/** React keeps its fiber on every node it has hydrated (an own key `__reactFiber$…`), and on none it has not. */
const isHydrated = (node: Element) => Object.keys(node).some((key) => key.startsWith("__reactFiber$"))

/**
 * At most this many nudges: one per level of nested boundaries around the page (two on `/`: the router's), with room
 * for a hydration that a higher-priority update interrupted.
 */
const MAX_NUDGES = 6

/**
 * What follows the hydrating commit, in transitions (rendered in slices of a few milliseconds):
 * - the first opens the islands (IslandsOpen), which hydrated as their placeholders;
 * - each, until the page's first node is hydrated, gets the next of the page's Suspense boundaries (the router's)
 *   hydrated. React leaves a dehydrated boundary for idle priority, so a navigation right after load could reach the
 *   page before it is hydrated (see hydrateBeforeNavigating). Asking for the page with `unstable_scheduleHydration`
 *   hydrated it at the default lane, which React renders without yielding: one task of 55–100 ms at 4× slowdown
 *   (bench:app). A change of HydrationNudge makes React hydrate the next boundary down at a transition's hydration
 *   lane instead, before anything else of lower priority.
 */
function HydrateSoon({ page, children }: { readonly page: Element | null; readonly children: ReactNode }) {
  const [nudges, setNudges] = useState(0)
  useEffect(() => {
    const pageLeft = page !== null && page.isConnected && !isHydrated(page)
    if (nudges === 0 || (pageLeft && nudges < MAX_NUDGES)) startTransition(() => setNudges(nudges + 1))
  }, [page, nudges])
  return (
    <IslandsOpen value={nudges > 0}>
      <HydrationNudge value={nudges}>{children}</HydrationNudge>
    </IslandsOpen>
  )
}

/**
 * A navigation must not reach the page before React has hydrated it: the router's components under the page's
 * boundaries would hydrate with the next location's matches, fail to find their own (a TypeError inside TanStack's
 * Match), and React would drop the prerendered page and render anew with error #422 on the console. So the first
 * navigation that changes the location, if the page is not hydrated by then, first hydrates it at once (synchronously,
 * before the router changes its matches); that happens only in the short window HydrateSoon leaves.
 */
const hydrateBeforeNavigating = (router: AppRouter, root: Root, page: Element) => {
  const unsubscribe = router.subscribe("onBeforeNavigate", (event) => {
    if (!event.hrefChanged) return
    unsubscribe()
    if (isHydrated(page) || !page.isConnected) return
    const schedule = (root as Root & { unstable_scheduleHydration?: (target: Node) => void }).unstable_scheduleHydration
    if (typeof schedule === "function") flushSync(() => schedule.call(root, page))
  })
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
      // The page's Suspense boundaries hydrate soon after the shell, in slices (HydrateSoon).
      const page = container.querySelector("main")?.firstElementChild ?? null
      let root: Root | undefined
      startTransition(() => {
        root = hydrateRoot(container, appTree(router, live, { page }))
      })
      if (root === undefined) throw new Error("hydrateRoot did not run")
      if (page !== null) hydrateBeforeNavigating(router, root, page)
      return { root, hydrated: true }
    }
    // The page painted but cannot be kept: the frame-only copy shows until the app's own render commits.
    document.documentElement.setAttribute(FIRST_PAINT_ATTRIBUTE, "shell")
  }
  container.replaceChildren()
  const root = createRoot(container)
  startTransition(() => root.render(appTree(router, live)))
  return { root, hydrated: false }
}
