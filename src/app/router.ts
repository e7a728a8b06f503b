import { createRouter, type RouterHistory } from "@tanstack/react-router"
import { routeTree } from "./routeTree.gen"
import { PageSkeleton } from "./shell/views"

/**
 * The app's router. Every page is its own chunk; while one loads, the shell (the root route, in the initial bundle)
 * is already painted and the content area shows the page skeleton at once, for no minimum time. Hovering a link
 * preloads its page.
 */
export const createAppRouter = (history?: RouterHistory) =>
  createRouter({
    routeTree,
    ...(history === undefined ? {} : { history }),
    defaultPreload: "intent",
    defaultPendingComponent: PageSkeleton,
    defaultPendingMs: 0,
    defaultPendingMinMs: 0,
    scrollRestoration: true
  })

export type AppRouter = ReturnType<typeof createAppRouter>
