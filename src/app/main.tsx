import { createAppRouter, type AppRouter } from "./router"
import "./index.css"
import { nextTask } from "./runtime/inStages"
import { makeLiveResource } from "./runtime/live-context"
import { captureEarlyClicks } from "./shell/earlyClicks"
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

// A click on the prerendered page before React listens to it is kept and replayed once it does (shell/earlyClicks.ts).
const replayEarlyClick = captureEarlyClicks(root)

// The configuration and the one runtime of the app's lifetime come with the live chunk (a bad configuration or a
// failed load shows in the content area, never a blank page). The first paint is index.html's own markup, so the
// chunk is requested at once, in stages (shell/islands.tsx); the page's chunk follows it (shell/mount.tsx). The boot
// (decoding the configuration, then making the runtime) runs in two tasks after the chunk's last stage.
const live = makeLiveResource(() =>
  loadLiveModule().then(async (m) => {
    await nextTask()
    return m.bootInTasks(import.meta.env, nextTask)
  })
)
live.start()
import.meta.hot?.dispose(() => {
  const boot = live.current()
  if (boot?._tag === "Ready") void boot.live.runtime.dispose()
})

void mountApp(root, router, live).finally(replayEarlyClick)
