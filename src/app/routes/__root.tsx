import { createRootRoute } from "@tanstack/react-router"
import { lazy } from "react"
import { Layout } from "../shell/Layout"

// The not-found page needs the runtime (its countdown), so it loads on first use, inside the shell's content area.
const NotFoundPage = lazy(() => import("../features/not-found/NotFoundPage").then((m) => ({ default: m.NotFoundPage })))

export const Route = createRootRoute({
  component: Layout,
  notFoundComponent: NotFoundPage
})
