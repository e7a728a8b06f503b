/**
 * Renders the shell as it looks before the live chunk has loaded (header, navigation, placeholders, the page
 * skeleton) to static HTML. The build writes it into index.html's #root (see vite.config.ts), so the first paint needs
 * only the HTML and the stylesheet; the app then renders the same frame over it with createRoot.
 *
 * It renders at a path no route matches, so no navigation entry is marked current before the router knows the URL.
 */
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router"
import { renderToString } from "react-dom/server"
import { LiveProvider, makeLiveResource } from "../runtime/live-context"
import { Layout } from "./Layout"
import { PageSkeleton } from "./views"

export const PRERENDER_PATH = "/__shell"

export const renderShellHtml = async (): Promise<string> => {
  const rootRoute = createRootRoute({
    component: () => (
      <Layout>
        <PageSkeleton />
      </Layout>
    )
  })
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: [PRERENDER_PATH] }),
    isServer: true
  })
  await router.load()
  // Never started: every island shows its placeholder and the content area its skeleton.
  const pending = makeLiveResource(() => new Promise(() => undefined))
  return renderToString(
    <LiveProvider resource={pending}>
      <RouterProvider router={router} />
    </LiveProvider>
  )
}
