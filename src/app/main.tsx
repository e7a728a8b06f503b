import { RouterProvider } from "@tanstack/react-router"
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import "./index.css"
import { type AppRouter, createAppRouter } from "./router"
import { LiveProvider, makeLiveResource } from "./runtime/live-context"
import { loadLiveModule } from "./shell/islands"

const router = createAppRouter()

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter
  }
}

const root = document.getElementById("root")
if (root === null) throw new Error("index.html has no #root element")

// The shell paints from this bundle; the configuration and the one runtime of the app's lifetime come with the live
// chunk, requested as soon as the shell has committed (a bad configuration or a failed load shows in the content
// area, never a blank page).
const live = makeLiveResource(() => loadLiveModule().then((m) => m.boot(import.meta.env)))
import.meta.hot?.dispose(() => {
  const boot = live.current()
  if (boot?._tag === "Ready") void boot.live.runtime.dispose()
})

createRoot(root).render(
  <StrictMode>
    <LiveProvider resource={live}>
      <RouterProvider router={router} />
    </LiveProvider>
  </StrictMode>
)
