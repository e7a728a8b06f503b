// Stack floor, step 6: step 5 + TanStack Router (a root and one route, rendered by RouterProvider).
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router"
import { createRoot } from "react-dom/client"
import { startEffectStack } from "./effect-stack"

startEffectStack()
const root = createRootRoute({ component: () => <Outlet /> })
const index = createRoute({ getParentRoute: () => root, path: "/", component: () => <p>hello</p> })
const router = createRouter({ routeTree: root.addChildren([index]) })
createRoot(document.body).render(<RouterProvider router={router} />)
