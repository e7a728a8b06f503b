import { createAppRouter, type AppRouter } from "./router"
import "./index.css"
import { makeLiveResource } from "./runtime/live-context"
import { loadLiveModule } from "./shell/islands"
import { mountApp } from "./shell/mount"

const router = createAppRouter()

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter
  }
}

const root = document.getElementById("root")
if (root === null) throw new Error("index.html has no #root element")

// The configuration and the one runtime of the app's lifetime come with the live chunk (a bad configuration or a
// failed load shows in the content area, never a blank page). The first paint is index.html's own markup, so the
// chunk is requested at once, alongside the page's.
const live = makeLiveResource(() => loadLiveModule().then((m) => m.boot(import.meta.env)))
live.start()
import.meta.hot?.dispose(() => {
  const boot = live.current()
  if (boot?._tag === "Ready") void boot.live.runtime.dispose()
})

void mountApp(root, router, live)
