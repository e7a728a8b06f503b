import { createRouter, type RouterHistory } from "@tanstack/react-router"
import { routeTree } from "./routeTree.gen"
import { PageSkeleton } from "./shell/views"

/**
 * The app's router. Every page is its own chunk; while one loads, the shell (the root route, in the initial bundle)
 * is already painted and the content area shows the page skeleton at once, for no minimum time. Hovering a link
 * preloads its page.
 *
 * `prerender`: the build's copy (shell/prerender.tsx), rendered on the server. It leaves out scroll restoration, whose
 * server render adds a script the browser's router does not render, so the markup is exactly what the client hydrates.
 */
export const createAppRouter = (history?: RouterHistory, options: { readonly prerender?: boolean } = {}) =>
  createRouter({
    routeTree,
    ...(history === undefined ? {} : { history }),
    ...(options.prerender === true ? { isServer: true } : {}),
    // A path matches exactly as written: "/SWAP" is no page of the app (the 404 page says so), as the spec's "any
    // other path" reads, and as the prerendered page and the static server already match it.
    caseSensitive: true,
    defaultPreload: "intent",
    defaultPendingComponent: PageSkeleton,
    defaultPendingMs: 0,
    defaultPendingMinMs: 0,
    scrollRestoration: options.prerender !== true
  })

export type AppRouter = ReturnType<typeof createAppRouter>
