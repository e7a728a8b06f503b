/**
 * What the build writes into index.html (see build/prerenderPages.ts), rendered to static HTML at build time:
 *
 * - `renderPageHtml()`: the whole app at `/` as the browser renders it before any data arrives: the shell with every
 *   island's placeholder, and the page with the live half ready and every service in its initial state (the
 *   runtime is built but never runs: no effect runs on the server). The browser hydrates this markup (main.tsx), so
 *   the first HTML already holds the page's largest text and the client keeps it.
 * - `renderShellHtml()`: the frame alone (header, navigation, placeholders, the page skeleton), at a path no route
 *   matches, so no navigation entry is marked current. Every other path paints this copy first; the app renders
 *   over it (a client render, not a hydration) and its Layout removes it in the same frame.
 */
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router"
import type { ReactNode } from "react"
import { prerenderToNodeStream } from "react-dom/static"
import type { Env } from "../config/AppConfig"
import { boot } from "../live"
import { createAppRouter } from "../router"
import { LiveProvider, makeLiveResource, readyLiveResource } from "../runtime/live-context"
import { PRERENDERED_PAGE_PATH } from "./firstPaint"
import { Layout } from "./Layout"
import { PageSkeleton } from "./views"

export const PRERENDER_PATH = "/__shell"

/**
 * Renders to a string once everything (lazy parts included) has resolved, so no boundary is left to the client. No
 * boundary is outlined either (React streams a large one as its fallback plus an inline script that swaps it in, which
 * the served Content-Security-Policy would block): the markup is final as it is.
 */
const renderComplete = async (element: ReactNode): Promise<string> => {
  const errors: Array<unknown> = []
  const { prelude } = await prerenderToNodeStream(element, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => {
      errors.push(error)
    }
  })
  const chunks: Array<Buffer> = []
  for await (const chunk of prelude) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  if (errors.length > 0) throw new Error("the prerender failed", { cause: errors[0] })
  const html = Buffer.concat(chunks).toString("utf8")
  // A boundary left to the client (`<!--$?-->`, `<!--$!-->`) or a script would not be the markup the client hydrates.
  if (/<!--\$[?!]-->|<script/.test(html)) throw new Error("the prerender left a boundary or a script in the markup")
  return html
}

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
  return renderComplete(
    <LiveProvider resource={pending}>
      <RouterProvider router={router} />
    </LiveProvider>
  )
}

/**
 * `/` with the live half ready: the configuration decoded from the build's environment (as the browser's boot does)
 * and a runtime that is never run. Fails when the configuration is invalid, so a misconfigured build stops here.
 */
export const renderPageHtml = async (env: Env = import.meta.env): Promise<string> => {
  const booted = boot(env)
  if (booted._tag !== "Ready") throw new Error(`cannot prerender ${PRERENDERED_PAGE_PATH}: ${booted.message}`)
  const router = createAppRouter(createMemoryHistory({ initialEntries: [PRERENDERED_PAGE_PATH] }), {
    prerender: true
  })
  await router.load()
  try {
    return await renderComplete(
      <LiveProvider resource={readyLiveResource(booted.live)}>
        <RouterProvider router={router} />
      </LiveProvider>
    )
  } finally {
    await booted.live.runtime.dispose()
  }
}
