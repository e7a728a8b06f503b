import { createRootRoute } from "@tanstack/react-router"
import { NotFoundPage } from "../features/not-found/NotFoundPage"
import { Layout } from "../shell/Layout"

export const Route = createRootRoute({
  component: Layout,
  notFoundComponent: NotFoundPage
})
