/**
 * The app's start, the entry's last stage (main.tsx imports it after the first paint and React's stage): the router,
 * the live half and the mount.
 */
import { createBrowserHistory } from "@tanstack/react-router"
import { createAppRouter, type AppRouter } from "./router"
import { nextTask } from "./runtime/inStages"
import { makeLiveResource } from "./runtime/live-context"
import { loadLiveModule } from "./shell/islands"
import { mountApp } from "./shell/mount"

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter
  }
}

/**
 * Starts the app on `root`. `mounted` runs once React listens to `root`, whether the mount succeeded or not (main.tsx
 * replays a click captured before it there).
 */
export const start = async (root: HTMLElement, mounted: () => void) => {
  // A task after the one that evaluated the app's modules, then the browser history and the router over it a task
  // apart: history and router were one task of about 65 ms at 4× CPU slowdown (bench:app --trace), most of it the
  // first run of TanStack's code.
  await nextTask()
  const history = createBrowserHistory()
  await nextTask()
  const router = createAppRouter(history)
  // The configuration and the one runtime of the app's lifetime come with the live chunk (a bad configuration or a
  // failed load shows in the content area, never a blank page). The first paint is index.html's own markup, so the
  // chunk is requested at once, in stages (shell/islands.tsx); the page's chunk follows it (shell/mount.tsx). The boot
  // (decoding the configuration, then making the runtime) runs in tasks of its own after the chunk's last stage.
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
  return await mountApp(root, router, live).finally(mounted)
}
