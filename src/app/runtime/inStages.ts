/**
 * Loading a large module graph in stages, each evaluated in a task of its own (DESIGN §6, total blocking time).
 *
 * A dynamic import evaluates every module of its graph that has not run yet in one task: the live chunk's graph
 * (Effect's core, Schema, Stream, the app's services and their Schemas) took one task of about 150 ms on a slow
 * phone, the Gateway client's about 70 ms. Importing parts of it first, one after another with the browser's turn in
 * between, splits that work into several shorter tasks; the modules are the same and each runs once. Their files are
 * requested at once all the same (preloadLiveChunks), so a stage waits for its turn, not for a request.
 *
 * This module is in the initial bundle: no runtime imports but the import-free lib/loadOnce.
 */
import { loadOnce } from "../../lib/loadOnce"

/** What the build replaces with the live chunk's files (build/liveChunkList.ts); it stays as it is in dev. */
export const LIVE_CHUNKS_PLACEHOLDER = "__HSWAP_LIVE_CHUNKS__"

/**
 * How many preload links go in per task: one. The browser's work for each (the request it starts) took 1–42 ms at 4×
 * CPU slowdown, measured around `append` in Chromium, so four a task made tasks of 70–100 ms (bench:app --trace).
 */
const PRELOAD_BATCH = 1

/**
 * What the build replaces with the files of the entry's stages, React's and the app's start
 * (build/entryAfterMarkup.ts); it stays as it is in dev.
 */
export const ENTRY_STAGES_PLACEHOLDER = "__HSWAP_ENTRY_STAGES__"

/** Adds a modulepreload link for each of `hrefs` not listed yet, `batch` a task, each marked with `mark`. */
const preloadFiles = (hrefs: ReadonlyArray<string>, batch: number, mark: string) => {
  const insert = (from: number) => {
    const links = document.createDocumentFragment()
    for (const href of hrefs.slice(from, from + batch)) {
      // Listed already: by Vite, as a stage imported it.
      if (document.querySelector(`link[rel="modulepreload"][href="${href}"]`) !== null) continue
      const link = document.createElement("link")
      link.rel = "modulepreload"
      link.href = href
      link.setAttribute(mark, "")
      links.append(link)
    }
    document.head.append(links)
    if (from + batch < hrefs.length) postTask(() => insert(from + batch))
  }
  insert(0)
}

/** The build's list in `files` (a placeholder in dev and tests: not an array), as paths under `base`. */
const listed = (files: unknown, base: string): ReadonlyArray<string> | undefined =>
  Array.isArray(files) && typeof document !== "undefined"
    ? files.filter((file): file is string => typeof file === "string").map((file) => `${base}${file}`)
    : undefined

/**
 * Requests every file of the live chunk's graph and of the page of `/` at once (modulepreload: fetched and parsed,
 * not run), so the stages wait for their turn only, not for a request each. The links go in a few at a time, a task
 * each, marked `data-live-chunk`. Does nothing where the build did not list them (dev, tests).
 */
export const preloadLiveChunks = (base: string) => {
  const files: unknown = "__HSWAP_LIVE_CHUNKS__"
  const hrefs = listed(files, base)
  if (hrefs !== undefined) preloadFiles(hrefs, PRELOAD_BATCH, "data-live-chunk")
}

/**
 * Requests the files of the entry's stages (React's, then the app's start, with what they import) at once, marked
 * `data-entry-stage`: main.tsx calls it after the first paint, before it imports the first stage, so the second waits
 * for its turn, not for a request. index.html no longer lists them (shell/entryLoader.ts says why). Does nothing where
 * the build did not list them (dev, tests).
 */
export const preloadEntryStages = (base: string) => {
  const files: unknown = "__HSWAP_ENTRY_STAGES__"
  const hrefs = listed(files, base)
  if (hrefs !== undefined) preloadFiles(hrefs, hrefs.length, "data-entry-stage")
}

/**
 * A poster of new tasks through one MessageChannel: no 4 ms clamp, and it still runs in a background tab (the app's
 * Effect scheduler uses one too, runtime/scheduler.ts). The channel is made on first use; in Node (the build's
 * prerender, the tests) its port keeps the process alive only while a task is pending.
 */
export const postMacrotask = (): ((f: () => void) => void) => {
  if (typeof MessageChannel === "undefined")
    return (f) =>
      setTimeout(() => {
        markTaskStart()
        f()
      }, 0)
  let port: (MessagePort & { ref?: () => void; unref?: () => void }) | undefined
  let poster: MessagePort | undefined
  const queue: Array<() => void> = []
  return (f) => {
    if (port === undefined || poster === undefined) {
      const channel = new MessageChannel()
      port = channel.port1
      poster = channel.port2
      const receiver = port
      receiver.onmessage = () => {
        const next = queue.shift()
        if (queue.length === 0) receiver.unref?.()
        markTaskStart()
        next?.()
      }
    }
    queue.push(f)
    port.ref?.()
    poster.postMessage(null)
  }
}

/**
 * When the latest task that a poster of this module's ran began (performance.now()); -Infinity before the first.
 * That is never later than the start of the task running now, so an evaluation that began in some other task (a
 * module script, an event) yields no later than its slice, and at its first point when that task of ours is long past.
 */
let taskStart = Number.NEGATIVE_INFINITY
const markTaskStart = () => {
  taskStart = typeof performance === "undefined" ? 0 : performance.now()
}

/** When the latest task that a poster of this module's ran began (for tests and the yield points). */
export const taskStartedAt = (): number => taskStart

const postTask = postMacrotask()

/** Resolves in a later task, once the browser has had its turn. */
export const nextTask = (): Promise<void> => new Promise((resolve) => postTask(resolve))

/**
 * How long a module graph's evaluation may run in one task before its next yield point lets the browser have its turn:
 * well under the 50 ms of a long task, as the module after a point runs whole.
 */
export const EVALUATION_SLICE_MS = 15

/**
 * Where the build's yield points call (build/yieldPoints.ts, `await yieldIfLate()` before the body of each larger
 * module): once the task has run for EVALUATION_SLICE_MS, a promise that resolves in a later task, so the modules after
 * the point evaluate there; before that, `undefined`, and the evaluation goes on in this task. `now` is
 * performance.now(): the loader runs before Effect (and its Clock) is evaluated, and measures the task the browser
 * runs, as the scheduler does.
 */
export const yieldIfLate = (
  now: () => number = () => performance.now(),
  next: () => Promise<void> = nextTask
): Promise<void> | undefined => (now() - taskStart < EVALUATION_SLICE_MS ? undefined : next())

/**
 * Resolves in the first task after the browser has painted the page: the next animation frame runs just before a
 * paint, and a task posted from it runs after. A page that is not visible paints no frames, so there it resolves in
 * the next task, and so it does when the page is hidden while it waits.
 */
export const afterFirstPaint = (): Promise<void> =>
  new Promise((resolve) => {
    if (typeof requestAnimationFrame !== "function" || document.visibilityState !== "visible") {
      postTask(resolve)
      return
    }
    const hidden = () => {
      if (document.visibilityState === "visible") return
      document.removeEventListener("visibilitychange", hidden)
      postTask(resolve)
    }
    document.addEventListener("visibilitychange", hidden)
    requestAnimationFrame(() => {
      document.removeEventListener("visibilitychange", hidden)
      postTask(resolve)
    })
  })

/** Imports `stages` one after another, each in a later task than the one before, then `last`. */
export const importInStages = async <M>(
  stages: ReadonlyArray<() => Promise<unknown>>,
  last: () => Promise<M>
): Promise<M> => {
  for (const stage of stages) {
    await stage()
    await nextTask()
  }
  return last()
}

/**
 * `load` once: calls share the promise. A failed load is forgotten, so the next call loads again (a deploy that
 * replaced the files, a network that came back).
 */
export const once = <M>(load: () => Promise<M>): (() => Promise<M>) => loadOnce(load).load
