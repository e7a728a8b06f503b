import { RouterProvider, createRouter } from "@tanstack/react-router"
import { Either, ManagedRuntime } from "effect"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { decodeAppConfig } from "./config/AppConfig"
import { ConfigProvider } from "./config/useAppConfig"
import "./index.css"
import { routeTree } from "./routeTree.gen"
import { RuntimeProvider } from "./runtime/app-runtime"
import { makeAppLayer } from "./runtime/layers"

const router = createRouter({ routeTree, defaultPreload: "intent", scrollRestoration: true })

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router
  }
}

const root = document.getElementById("root")
if (root === null) throw new Error("index.html has no #root element")

const config = decodeAppConfig(import.meta.env)

if (Either.isLeft(config)) {
  // A bad configuration stops here, naming the variable, instead of a blank page.
  console.error(config.left.message)
  createRoot(root).render(
    <main role="alert" className="mx-auto mt-24 max-w-xl rounded-2xl border border-danger/50 bg-panel p-6">
      <h1 className="text-xl font-bold">This build of the app is misconfigured</h1>
      <p className="mt-3 font-mono text-sm text-danger">{config.left.message}</p>
      <p className="mt-3 text-sm text-muted">Fix the variable in the build environment and rebuild.</p>
    </main>
  )
} else {
  // One runtime for the app's lifetime, built outside React.
  const runtime = ManagedRuntime.make(makeAppLayer(config.right))
  import.meta.hot?.dispose(() => runtime.dispose())
  createRoot(root).render(
    <StrictMode>
      <ConfigProvider config={config.right}>
        <RuntimeProvider runtime={runtime}>
          <RouterProvider router={router} />
        </RuntimeProvider>
      </ConfigProvider>
    </StrictMode>
  )
}
