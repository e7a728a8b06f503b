/**
 * `npm run bench:app -- --trace`: what the long tasks of a load of `/` are. One Chromium trace (devtools timeline) and
 * one sampling CPU profile per load, 4x CPU slowdown, cold cache, over the first 10 s. Prints every long task (over
 * 50 ms) with its start, its duration, whether it counts towards total blocking time (it starts after FCP), the
 * timeline events it is made of (script evaluation, function calls, timers, microtasks, layout, GC…) and where its
 * CPU went: self time by source module (through the build's source maps) and the busiest functions.
 *
 * A diagnostic: figures under tracing run slower than the plain loads bench:app measures.
 */
import type { Browser } from "playwright-core"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
// A dependency of Vite's (through PostCSS); used here only to read the build's own source maps.
import { SourceMapConsumer } from "source-map-js"

interface TraceEvent {
  readonly name: string
  readonly cat: string
  readonly ph: string
  readonly ts: number
  readonly dur?: number
  readonly pid: number
  readonly tid: number
  readonly args?: { readonly data?: Record<string, unknown>; readonly name?: string }
}

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber: number
}
interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: ReadonlyArray<number>
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly startTime: number
  readonly endTime: number
  readonly samples?: ReadonlyArray<number>
  readonly timeDeltas?: ReadonlyArray<number>
}

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "v8",
  "blink.user_timing",
  "loading",
  "toplevel"
]

/** Names of the events a long task is read by (the rest is summed as "other"). */
const PARTS = new Set([
  "EvaluateScript",
  "v8.compileModule",
  "v8.evaluateModule",
  "v8.compile",
  "FunctionCall",
  "TimerFire",
  "FireAnimationFrame",
  "RunMicrotasks",
  "ParseHTML",
  "Layout",
  "UpdateLayoutTree",
  "Paint",
  "PrePaint",
  "Commit",
  "MajorGC",
  "MinorGC",
  "V8.GC_SCAVENGER",
  "EventDispatch",
  "ResourceReceivedData",
  "HandlePostMessage"
])

const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, "").replace(/^\/assets\//, "")

/** Maps a minified position to its source module (node_modules/<pkg>/<file>, or src/…), through the chunk's map. */
const makeResolver = (outDir: string) => {
  const maps = new Map<string, SourceMapConsumer | null>()
  const consumer = (url: string): SourceMapConsumer | null => {
    const path = new URL(url).pathname
    if (!maps.has(path)) {
      const file = join(outDir, `${path.slice(1)}.map`)
      maps.set(path, existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, "utf8"))) : null)
    }
    return maps.get(path) ?? null
  }
  return (frame: CallFrame): { module: string; fn: string } => {
    if (frame.url === "") return { module: `(${frame.functionName || "program"})`, fn: frame.functionName }
    const map = frame.url.startsWith("http") ? consumer(frame.url) : null
    if (map === null) return { module: short(frame.url), fn: frame.functionName || "(anonymous)" }
    const pos = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber })
    const source = (pos.source ?? short(frame.url)).replace(/^(\.\.\/)+/, "").replace(/^.*node_modules\//, "")
    const fn = pos.name ?? (frame.functionName || "(anonymous)")
    return { module: source, fn: `${fn} ${source.split("/").slice(-1)[0]}:${pos.line ?? "?"}` }
  }
}

const top = <K>(m: Map<K, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
const msOf = (us: number) => `${(us / 1000).toFixed(0)} ms`

/** One traced load: prints its long tasks. Returns the TBT the trace shows (from FCP), for a summary line. */
const traceOnce = async (browser: Browser, url: string, outDir: string, slowdown: number, windowMs: number) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: "block" })
  try {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown })
    await cdp.send("Profiler.enable")
    await cdp.send("Profiler.setSamplingInterval", { interval: 250 })
    await browser.startTracing(page, { categories: CATEGORIES })
    await cdp.send("Profiler.start")
    const started = Date.now()
    await page.goto(url, { waitUntil: "load", timeout: 120_000 })
    const left = windowMs + 250 - (Date.now() - started)
    if (left > 0) await page.waitForTimeout(left)
    const { profile } = (await cdp.send("Profiler.stop")) as { profile: Profile }
    const buffer = await browser.stopTracing()
    const events = (JSON.parse(buffer.toString("utf8")) as { traceEvents: ReadonlyArray<TraceEvent> }).traceEvents

    // The page's renderer main thread: where its first contentful paint is reported.
    const fcpEvent = events.find((e) => e.name === "firstContentfulPaint")
    const nav =
      events.find(
        (e) =>
          e.name === "navigationStart" &&
          (fcpEvent === undefined || e.pid === fcpEvent.pid) &&
          e.args?.data?.["isLoadingMainFrame"] === true
      ) ?? events.find((e) => e.name === "navigationStart" && (fcpEvent === undefined || e.pid === fcpEvent.pid))
    if (fcpEvent === undefined || nav === undefined) {
      console.log("  (no firstContentfulPaint or navigationStart in the trace)")
      return Number.NaN
    }
    const main = events.find((e) => e.pid === fcpEvent.pid && e.ph === "M" && e.args?.name === "CrRendererMain")
    const tid = main?.tid ?? fcpEvent.tid
    const t0 = nav.ts
    const fcp = fcpEvent.ts
    const end = t0 + windowMs * 1000
    const onMain = events.filter((e) => e.pid === fcpEvent.pid && e.tid === tid && e.ph === "X" && e.dur !== undefined)
    const tasks = onMain
      .filter((e) => e.name === "RunTask" && (e.dur ?? 0) > 50_000 && e.ts >= t0 && e.ts < end)
      .sort((a, b) => a.ts - b.ts)

    // CPU samples on the page's clock (the profile's timestamps are the trace's).
    const resolve = makeResolver(outDir)
    const byId = new Map(profile.nodes.map((n) => [n.id, n]))
    const parent = new Map<number, number>()
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
    const samples: Array<{ ts: number; node: number; dt: number }> = []
    let ts = profile.startTime
    const deltas = profile.timeDeltas ?? []
    const ids = profile.samples ?? []
    for (let i = 0; i < ids.length; i++) {
      ts += deltas[i] ?? 0
      const next = deltas[i + 1] ?? 0
      samples.push({ ts, node: ids[i] ?? 0, dt: next })
    }
    const resolved = new Map<number, { module: string; fn: string }>()
    const where = (id: number) => {
      let r = resolved.get(id)
      if (r === undefined) {
        const n = byId.get(id)
        r = n === undefined ? { module: "?", fn: "?" } : resolve(n.callFrame)
        resolved.set(id, r)
      }
      return r
    }

    let tbt = 0
    console.log(
      `  FCP ${msOf(fcp - t0)}; ${tasks.length} long tasks in ${windowMs / 1000} s (start, duration, counted in TBT from FCP):`
    )
    for (const task of tasks) {
      const from = task.ts
      const to = task.ts + (task.dur ?? 0)
      const counted = from >= fcp
      if (counted) tbt += (task.dur ?? 0) - 50_000
      // Its parts: the outermost named events inside it.
      const inside = onMain.filter((e) => e !== task && e.ts >= from && e.ts + (e.dur ?? 0) <= to && PARTS.has(e.name))
      const outer = inside.filter(
        (e) =>
          !inside.some(
            (o) => o !== e && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) && (o.dur ?? 0) > (e.dur ?? 0)
          )
      )
      const parts = outer.map((e) => {
        const d = e.args?.data ?? {}
        const what =
          typeof d["url"] === "string" && d["url"] !== ""
            ? short(d["url"])
            : typeof d["functionName"] === "string" && d["functionName"] !== ""
              ? String(d["functionName"])
              : ""
        return `${e.name}${what === "" ? "" : ` ${what}`} ${msOf(e.dur ?? 0)}`
      })
      console.log(
        `  - at ${msOf(from - t0)}, ${msOf(task.dur ?? 0)}${counted ? "" : " (before FCP)"}: ${parts.slice(0, 10).join("; ")}${parts.length > 10 ? `; … ${parts.length - 10} more` : ""}`
      )
      const modules = new Map<string, number>()
      const fns = new Map<string, number>()
      const ours = new Map<string, number>()
      for (const s of samples) {
        if (s.ts < from || s.ts >= to) continue
        const w = where(s.node)
        modules.set(w.module, (modules.get(w.module) ?? 0) + s.dt)
        fns.set(w.fn, (fns.get(w.fn) ?? 0) + s.dt)
        // The innermost frame of the app's own code (src/…) on the stack: what a library's time was spent for.
        let id: number | undefined = s.node
        let mine = "(no app frame)"
        while (id !== undefined) {
          const m = where(id).module
          if (/(^|\/)src\//.test(m)) {
            mine = m.replace(/^.*?src\//, "src/")
            break
          }
          id = parent.get(id)
        }
        ours.set(mine, (ours.get(mine) ?? 0) + s.dt)
      }
      console.log(
        `      by the app's innermost module on the stack: ${top(ours, 10)
          .map(([m, d]) => `${m} ${msOf(d)}`)
          .join(", ")}`
      )
      console.log(
        `      self time by module: ${top(modules, 14)
          .map(([m, d]) => `${m} ${msOf(d)}`)
          .join(", ")}`
      )
      console.log(
        `      busiest functions: ${top(fns, 6)
          .map(([f, d]) => `${f} ${msOf(d)}`)
          .join(", ")}`
      )
    }
    console.log(`  TBT from FCP under tracing: ${msOf(tbt)}`)
    return tbt / 1000
  } finally {
    await context.close()
  }
}

export const traceLoads = async (
  browser: Browser,
  url: string,
  outDir: string,
  options: { readonly loads: number; readonly slowdown: number; readonly windowMs: number }
) => {
  console.log(`long tasks of ${url}, ${options.slowdown}x CPU slowdown, cold cache, traced, ${options.loads} load(s)`)
  // A warm-up load without tracing (it also warms the servers).
  const warm = await browser.newContext()
  await (await warm.newPage()).goto(url, { waitUntil: "load" })
  await warm.close()
  for (let i = 0; i < options.loads; i++) {
    console.log(`load ${i + 1}`)
    await traceOnce(browser, url, outDir, options.slowdown, options.windowMs)
  }
}
