/**
 * The entry: small on purpose. index.html's own markup is the first paint (see shell/firstPaint.ts), and nothing of
 * the app runs before it: index.html's loader adds this module once the markup is parsed (shell/entryLoader.ts), and
 * the entry waits for that paint, then evaluates React's stage and the app's (start.tsx), each in a task of its own
 * (runtime/inStages.ts). Their files are all requested at once as it starts (preloadEntryStages), so a stage waits for
 * its turn, not for a request. Before the first paint a module graph of this size evaluated in one task of 40–120 ms at
 * 4× CPU slowdown, and the paint waited for it.
 */
import { afterFirstPaint, importInStages, nextTask, preloadEntryStages, preloadLiveChunks } from "./runtime/inStages"
import { captureEarlyClicks } from "./shell/earlyClicks"
import { showLoadFailure } from "./shell/loadFailure"

const root = document.getElementById("root")
if (root === null) throw new Error("index.html has no #root element")

// A click on the prerendered page before React listens to it is kept and replayed once it does (shell/earlyClicks.ts).
const replayEarlyClick = captureEarlyClicks(root)

/** A user-timing mark where the app's own code starts to run: after the first paint (e2e/shell.spec.ts checks). */
const STAGES_MARK = "hswap:entry-stages"

void afterFirstPaint()
  .then(() => {
    performance.mark(STAGES_MARK)
    preloadEntryStages(import.meta.env.BASE_URL)
    // The live chunk's files, a link a task, alongside the stages below (shell/islands.tsx loads them).
    void nextTask().then(() => preloadLiveChunks(import.meta.env.BASE_URL))
    return importInStages([() => import("./runtime/stages/react")], () => import("./start"))
  })
  .then(
    (m) => m.start(root, () => replayEarlyClick()),
    (error: unknown) => {
      replayEarlyClick(false)
      console.error("hSwap: the app's files could not load", error)
      showLoadFailure(root, error)
    }
  )
  .catch((error: unknown) => {
    // The router or the mount failed (a defect): whatever was clicked meanwhile has nothing to go to.
    replayEarlyClick(false)
    console.error("hSwap: the app could not start", error)
  })
