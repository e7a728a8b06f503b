/**
 * `npm run bench:app`: hSwap's `/` against the anchor stack (DESIGN §6 "Budgets"), in one run.
 *
 * 1. Bundles. Builds the app (our vite.config.ts) and the anchor dApp (bench/anchor: React + the official dApp toolkit
 *    with its lazily loaded connect button + the gateway SDK + TanStack Query + wouter + Radix UI) with Vite's JS API,
 *    each into a temporary directory. Prints the initial JS and CSS of `/` (what index.html loads: the module entry,
 *    its modulepreloads and stylesheets) raw and gzip, each lazy route chunk, and the ratio ours/anchor of initial JS
 *    gzip next to its budget (DESIGN §6, BUDGETS). It also prints the JS a load of `/` requested in Chromium in its
 *    first 10 s (the initial chunks, what starts loading at once and what loads on idle; the anchor's connect button).
 * 2. Paints and total blocking time in headless Chromium (/usr/bin/chromium), 4x CPU slowdown over CDP, median of 7 loads
 *    each, 1.5 s apart, every load in a fresh browser context (cold cache), driven over a pipe with no DevTools domain
 *    on that changes how the page's scripts run (cdp-pipe.ts; `--devtools`: through Playwright, whose pages run with
 *    the Runtime and Network domains on): ours from a plain static server (the built
 *    files only: what a production host serves) and the anchor from the same plain static server, interleaved in pairs
 *    whose order flips every round; then, for information, ours from the `npm start` stack (startStack), which injects
 *    the devnet wallet script (deferred, ahead of the app's entry; its evaluation is most of that row's blocking time),
 *    whose own panel can paint first, so there FCP need not be the app's (the budget line compares the static rows).
 *    The plain server forwards /api, /gateway, /relay and /devnet to the stack, so both pages' calls are answered.
 *    No server compresses. Each load is measured over its first 10 s: first contentful paint, the last
 *    largest-contentful-paint candidate (and its element) and total blocking time (the part above 50 ms of every long
 *    task that starts after FCP), each next to the anchor's and its budget; and, for the static rows, what the blocking
 *    after FCP was made of (long-animation-frame entries, each frame's blocking time given to its longest script).
 * 3. Requests of an idle `/` against the stack: after the page has loaded and the network went quiet, every request
 *    for 60 s (`--quick`: 15 s), grouped by path, next to what the spec's timers allow in that window.
 *
 * Everything binds to 127.0.0.1 on free ports, lives in a temporary directory, and is stopped and removed at the end
 * (also on Ctrl-C, and after a 15 minute watchdog). Chromium resolves no host but 127.0.0.1, so the toolkit's font
 * request fails at once for both pages instead of waiting on a network. Prints figures; asserts nothing: the exit
 * code is 0 whatever the figures are.
 *
 * Flags: `--quick` (15 s idle window), `--loads N` (paint loads per page, default 7), `--idle-seconds N`, `--trace`
 * (instead of the above: builds ours with source maps and prints the long tasks of `--loads` traced loads of `/`, with
 * what they are made of; see app-trace.ts), `--fetched` (instead of the above: builds ours and the anchor, lists every JS
 * file one load of our `/` requests in its first 10 s with its request time and gzip size, both totals, and our
 * initial JS),
 * `--devtools` (the measured loads through Playwright; see cdp-pipe.ts for why not by default),
 * `--compare <dirA> <dirB>` (instead of the above: two builds of ours, FCP, LCP and TBT side by side; see compareMain).
 * Playwright's launches here pass Playwright's own `--disable-features` list with the omnibox popup's two features
 * added, as the e2e suite does (e2e/chromium-switches.ts), so they run without the popup too.
 * `--trace` runs through Playwright too (its CPU profile needs the Profiler domain), so its script tasks read longer
 * than a user's: React's stage, for one, about three times (cdp-pipe.ts).
 * Idle requests are watched through Playwright in either case: they count requests, not time.
 */
import react from "@vitejs/plugin-react"
import { chromium, type Browser, type BrowserContext } from "playwright-core"
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { dirname, extname, join, normalize, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { minify } from "terser"
import { build } from "vite"
import { TERSER_OPTIONS } from "../build/terser"
import { ENTRY_ATTRIBUTE } from "../src/app/shell/entryLoader"
import { startStack, type RunningStack } from "../src/devnet/main"
import { traceLoads } from "./app-trace"
import { launchPipe, newPipePage, type PipeBrowser } from "./cdp-pipe"
import { disableFeaturesSwitch } from "../e2e/chromium-switches"

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}
const QUICK = process.argv.includes("--quick")
const TRACE = process.argv.includes("--trace")
const FETCHED = process.argv.includes("--fetched")
/** `--compare <dirA> <dirB>`: two builds of ours (`vite build --outDir …`), loaded in interleaved pairs. */
const COMPARE = ((i) => (i < 0 ? undefined : process.argv.slice(i + 1, i + 3)))(process.argv.indexOf("--compare"))
/** Measured loads through Playwright, whose pages run with DevTools' Runtime and Network domains on (see cdp-pipe.ts). */
const DEVTOOLS = process.argv.includes("--devtools")
const LOADS = Math.max(1, Number(argValue("--loads") ?? (TRACE ? 2 : COMPARE ? 20 : 7)))
const IDLE_S = Math.max(1, Number(argValue("--idle-seconds") ?? (QUICK ? 15 : 60)))
const CPU_SLOWDOWN = 4
/** DESIGN §6: each figure of `/` against the anchor's, same run. */
const BUDGETS = {
  initialJs: 0.6,
  fetchedJs: 1.05,
  fcp: 0.6,
  lcp: 0.8,
  tbt: 1.0
} as const
/** The window a load is measured in: paints, long tasks and fetched JS from navigation start. */
const WINDOW_MS = 10_000
/**
 * A pause after each measured load, before the next. Closing a context ends its renderer in the background, on the
 * same two cores as the next load's.
 */
const SETTLE_MS = 1_500
/** A task longer than this blocks input; the part above it counts towards total blocking time. */
const LONG_TASK_MS = 50
const WATCHDOG_MS = 15 * 60 * 1000
const QUIET_MS = 3000

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const ANCHOR_DIR = join(ROOT, "bench", "anchor")
const CHROMIUM = "/usr/bin/chromium"
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  // Only loopback resolves: a request to another host (the toolkit's web font) fails at once, the same for both pages.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
]

// ---------------------------------------------------------------------------------------------------------------------
// Formatting

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const pct = (x: number) => `${(x * 100).toFixed(0)}%`
/**
 * Ours against the anchor's figure and the bound on their ratio: "55%  <= 60%: holds". Judged as ours <= bound x
 * anchor, so two zeros (no blocking time on either side) hold; their ratio prints as n/a.
 */
const verdict = (ours: number, anchor: number, bound: number) => {
  const ratio = ours / anchor
  const holds = ours <= bound * anchor
  return `${Number.isFinite(ratio) ? pct(ratio) : "n/a"}  <= ${pct(bound)}: ${holds ? "holds" : "does NOT hold"}`
}
const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length))
const lpad = (s: string, n: number) => (s.length >= n ? s : " ".repeat(n - s.length) + s)
const median = (xs: ReadonlyArray<number>): number => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
}
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : "n/a")

// ---------------------------------------------------------------------------------------------------------------------
// Bundles

interface Size {
  readonly raw: number
  readonly gzip: number
}
const zero: Size = { raw: 0, gzip: 0 }
const add = (a: Size, b: Size): Size => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip })
/** The gzip bytes of these files after terser with the app's options (build/terser.ts). */
const tersedGzip = async (files: ReadonlyArray<string>): Promise<number> => {
  let total = 0
  for (const file of files) {
    const out = await minify(readFileSync(file, "utf8"), {
      ...TERSER_OPTIONS,
      compress: { ...TERSER_OPTIONS.compress }
    })
    if (out.code === undefined) throw new Error(`terser gave no output for ${file}`)
    total += gzipSync(out.code).length
  }
  return total
}

const sizeOf = (file: string): Size => {
  const bytes = readFileSync(file)
  return { raw: bytes.length, gzip: gzipSync(bytes).length }
}
const fmtSize = (s: Size) => `${lpad(kB(s.gzip), 9)} gzip ${lpad(kB(s.raw), 9)} raw`

interface ManifestChunk {
  readonly file: string
  readonly src?: string
  readonly name?: string
  readonly isEntry?: boolean
  readonly isDynamicEntry?: boolean
  readonly imports?: ReadonlyArray<string>
  readonly dynamicImports?: ReadonlyArray<string>
  readonly css?: ReadonlyArray<string>
}
type Manifest = Readonly<Record<string, ManifestChunk>>

interface Bundle {
  readonly outDir: string
  readonly manifest: Manifest
  /** Files (relative to outDir, no leading slash) index.html loads: the module script, modulepreloads, stylesheets. */
  readonly initialJs: ReadonlyArray<string>
  readonly initialCss: ReadonlyArray<string>
  readonly js: Size
  readonly css: Size
  /** Initial files that the manifest's static-import closure of the entry does not explain (should be none). */
  readonly mismatch: ReadonlyArray<string>
}

/** Static-import closure of a manifest key (the key itself included). */
const closure = (manifest: Manifest, key: string, seen = new Set<string>()): Set<string> => {
  if (seen.has(key)) return seen
  seen.add(key)
  for (const i of manifest[key]?.imports ?? []) closure(manifest, i, seen)
  return seen
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1]

const analyse = (outDir: string): Bundle => {
  const manifest = JSON.parse(readFileSync(join(outDir, ".vite", "manifest.json"), "utf8")) as Manifest
  const html = readFileSync(join(outDir, "index.html"), "utf8")
  const initialJs: Array<string> = []
  // Each file once, by its path in the build (index.html's root-relative URL without the slash).
  const addInitialJs = (url: string) => {
    const file = url.replace(/^\//, "")
    if (!initialJs.includes(file)) initialJs.push(file)
    return file
  }
  const initialCss: Array<string> = []
  let loaderEntry: string | undefined
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const rel = attr(tag, "rel")
    const named = tag.startsWith("<script") ? attr(tag, ENTRY_ATTRIBUTE) : undefined
    if (named !== undefined) {
      // Ours: the loader at the end of the body names the entry (src/app/shell/entryLoader.ts); a modulepreload beside
      // it names the same file.
      loaderEntry = addInitialJs(named)
    } else if (tag.startsWith("<script") && attr(tag, "type") === "module") {
      const src = attr(tag, "src")
      if (src !== undefined) addInitialJs(src)
    } else if (rel === "modulepreload") {
      const href = attr(tag, "href")
      if (href !== undefined) addInitialJs(href)
    } else if (rel === "stylesheet") {
      const href = attr(tag, "href")
      if (href !== undefined) initialCss.push(href.replace(/^\//, ""))
    }
  }
  // index.html's own entry (ours has no module script in it, so its record holds the stylesheet only, without isEntry).
  const entry = Object.keys(manifest).find(
    (k) => k.endsWith("index.html") && manifest[k]?.src?.endsWith("index.html") === true
  )
  const expected = new Set<string>()
  // Ours: the entry requests its stages' files itself, all at once after the first paint (preloadEntryStages): the
  // chunks it imports dynamically, with what they import. They are what index.html loads in effect, so they count as
  // initial, as when index.html listed them.
  const ownEntry =
    loaderEntry === undefined ? undefined : Object.keys(manifest).find((k) => manifest[k]?.file === loaderEntry)
  if (loaderEntry !== undefined && ownEntry === undefined)
    throw new Error(`bench: the manifest has no chunk for the loader's entry ${loaderEntry}`)
  const stages = ownEntry === undefined ? [] : [ownEntry, ...(manifest[ownEntry]?.dynamicImports ?? [])]
  for (const stage of stages)
    for (const k of closure(manifest, stage)) {
      const file = manifest[k]?.file
      if (file !== undefined) addInitialJs(file)
    }
  for (const root of [...(entry === undefined ? [] : [entry]), ...stages]) {
    for (const k of closure(manifest, root)) {
      const c = manifest[k]
      if (c === undefined) continue
      expected.add(c.file)
      for (const css of c.css ?? []) expected.add(css)
    }
  }
  const mismatch = [...initialJs, ...initialCss].filter((f) => !expected.has(f))
  return {
    outDir,
    manifest,
    initialJs,
    initialCss,
    js: initialJs.map((f) => sizeOf(join(outDir, f))).reduce(add, zero),
    css: initialCss.map((f) => sizeOf(join(outDir, f))).reduce(add, zero),
    mismatch
  }
}

interface LazyChunk {
  readonly label: string
  readonly file: string
  readonly own: Size
  /** The chunk plus the static imports it pulls in that index.html does not already load. */
  readonly withImports: Size
}

const lazyChunks = (bundle: Bundle): ReadonlyArray<LazyChunk> => {
  const initial = new Set(bundle.initialJs)
  return Object.entries(bundle.manifest)
    .filter(([, c]) => c.isDynamicEntry === true)
    .map(([key, c]) => {
      const files = [...closure(bundle.manifest, key)]
        .map((k) => bundle.manifest[k]?.file)
        .filter((f): f is string => f !== undefined && !initial.has(f))
      const route = /src\/app\/routes\/(.+?)\.tsx/.exec(key)?.[1]
      const label =
        route === undefined
          ? (c.name ?? key.split("/").pop() ?? key)
          : route === "index"
            ? "/"
            : route.startsWith("__")
              ? `(${route})`
              : `/${route}`
      return {
        label,
        file: c.file,
        own: sizeOf(join(bundle.outDir, c.file)),
        withImports: files.map((f) => sizeOf(join(bundle.outDir, f))).reduce(add, zero)
      }
    })
    .sort((a, b) => a.label.localeCompare(b.label))
}

const isRouteChunk = (c: LazyChunk) => c.label.startsWith("/") || c.label.startsWith("(")

/** Rendered (tree-shaken, not yet minified) bytes of each module, by output file. */
type Rendered = ReadonlyMap<string, ReadonlyArray<{ readonly id: string; readonly bytes: number }>>

const renderedModules = (result: Awaited<ReturnType<typeof build>>): Rendered => {
  const outputs = Array.isArray(result) ? result : "output" in result ? [result] : []
  const map = new Map<string, Array<{ id: string; bytes: number }>>()
  for (const o of outputs)
    for (const c of o.output)
      if (c.type === "chunk")
        map.set(
          c.fileName,
          Object.entries(c.modules).map(([id, m]) => ({ id, bytes: m.renderedLength }))
        )
  return map
}

/** A module's owner: its npm package, or its folder under src/ (two levels). */
const owner = (id: string) => {
  const clean = id.replace(/\?.*$/, "").replace(/^\0/, "")
  const nm = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(clean)
  if (nm?.[1] !== undefined) return nm[1]
  const src = /\/src\/([^/]+)(\/[^/]+)?/.exec(clean)
  if (src !== null) return `src/${src[1] ?? ""}${src[2] !== undefined && !src[2].includes(".") ? src[2] : ""}`
  return clean.split("/").slice(-2).join("/")
}

const topOwners = (rendered: Rendered, files: ReadonlyArray<string>, n: number) => {
  const by = new Map<string, number>()
  let total = 0
  for (const f of files)
    for (const m of rendered.get(f) ?? []) {
      by.set(owner(m.id), (by.get(owner(m.id)) ?? 0) + m.bytes)
      total += m.bytes
    }
  return {
    total,
    top: [...by].sort((a, b) => b[1] - a[1]).slice(0, n)
  }
}

const buildOurs = async (outDir: string, sourcemap = false) =>
  await build({
    root: ROOT,
    configFile: join(ROOT, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, manifest: true, sourcemap, chunkSizeWarningLimit: 10_000 }
  })

/** The `npm start` stack over our build in `out`, and the plain static server of the same files in front of it. */
const startOurs = async (tmp: string, out: string) => {
  const stack: RunningStack = await startStack(
    { port: 0, host: "127.0.0.1", dist: out, dataDir: join(tmp, "data"), reset: true },
    { logLevel: "error" }
  )
  cleanups.push(stack.close)
  const plain = await serveBuilt(out, stack.url)
  cleanups.push(plain.close)
  return { stack, plain }
}

const launchChromium = async () => {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, disableFeaturesSwitch()] })
  cleanups.push(() => browser.close())
  return browser
}

/**
 * `--fetched`: ours and the anchor, each built and loaded from the plain static server once without slowdown (after a
 * warm-up load): every JS file ours fetched in the window, and both totals.
 */
const fetchedMain = async (tmp: string) => {
  const out = join(tmp, "ours")
  const anchorOut = join(tmp, "anchor")
  await buildOurs(out)
  await buildAnchor(anchorOut)
  const { stack, plain } = await startOurs(tmp, out)
  const anchorPlain = await serveBuilt(anchorOut, stack.url)
  cleanups.push(anchorPlain.close)
  const load = await pageLoader()
  const fetched = async (url: string, dir: string, print: boolean) => {
    await load(url, 1)
    const paint = await load(url, 1)
    const seen = new Set<string>()
    let total = zero
    for (const s of paint.scripts) {
      if (!s.path.startsWith("/assets/") || seen.has(s.path)) continue
      seen.add(s.path)
      const size = sizeOf(join(dir, s.path.slice(1)))
      total = add(total, size)
      if (print)
        console.log(
          `  ${lpad((s.at / 1000).toFixed(2), 6)} s  ${lpad(kB(size.gzip), 9)}  ${s.path.replace(/^\/assets\//, "")}`
        )
    }
    return { files: seen.size, total }
  }
  const ours = await fetched(`${plain.url}/`, out, true)
  const anchor = await fetched(`${anchorPlain.url}/`, anchorOut, false)
  const initial = analyse(out)
  console.log(
    `initial JS of / (entry + stages), gzip: ours ${kB(initial.js.gzip)} (${initial.initialJs.length} files, ${initial.js.gzip} B)`
  )
  console.log(
    `JS fetched by / in its first ${WINDOW_MS / 1000} s, gzip: ours ${kB(ours.total.gzip)} (${ours.files} files, ${ours.total.gzip} B), ` +
      `the anchor's ${kB(anchor.total.gzip)} (${anchor.files} files, ${anchor.total.gzip} B): ${verdict(ours.total.gzip, anchor.total.gzip, BUDGETS.fetchedJs)}`
  )
}

/** One measured load at 4x, then SETTLE_MS: the closed context's renderer exits in the background before the next. */
const measureOnce = async (load: PageLoad, url: string): Promise<Paint> => {
  const paint = await load(url, CPU_SLOWDOWN)
  await new Promise((settled) => setTimeout(settled, SETTLE_MS))
  return paint
}

/**
 * Two pages loaded LOADS times each, in pairs whose order flips every round (first then second, then second then
 * first), so each page comes after each page as often. Returns each page's paints, in the order of `urls`.
 */
const measurePaired = async (load: PageLoad, urls: readonly [string, string]) => {
  const paints: [Array<Paint>, Array<Paint>] = [[], []]
  for (let i = 0; i < LOADS; i++)
    for (const k of i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const))
      paints[k].push(await measureOnce(load, urls[k]))
  return paints
}

/**
 * `--compare <dirA> <dirB>`: two builds of ours side by side, for telling a change from the noise. Each is served by
 * the plain static server (API calls forwarded to one `npm start` stack over the first), and loaded `--loads` times
 * (default 20) at 4x in pairs whose order flips every round, as the budget run loads ours and the anchor. Prints FCP,
 * LCP and TBT per build: median, quartiles and mean. A difference in FCP medians of a few percent is within what
 * this machine's drift moves between runs; run it twice before believing one.
 */
const compareMain = async (tmp: string, dirs: ReadonlyArray<string>) => {
  const [a, b] = dirs.map((d) => resolve(d))
  if (a === undefined || b === undefined || ![a, b].every((d) => existsSync(join(d, "index.html"))))
    throw new Error("--compare needs two build directories, each with an index.html (vite build --outDir <dir>)")
  const { stack, plain } = await startOurs(tmp, a)
  const other = await serveBuilt(b, stack.url)
  cleanups.push(other.close)
  const builds = [
    { name: a, url: `${plain.url}/` },
    { name: b, url: `${other.url}/` }
  ] as const
  console.log(
    `(compare: ${LOADS} loads per build at ${CPU_SLOWDOWN}x CPU slowdown, over the first ${WINDOW_MS / 1000} s…)`
  )
  const load = await pageLoader()
  for (const x of builds) await load(x.url, 1)
  const paints = await measurePaired(load, [builds[0].url, builds[1].url])
  /** `seen` holds finite figures only (describe filters them). */
  const quartile = (seen: ReadonlyArray<number>, q: number) =>
    [...seen].sort((x, y) => x - y)[Math.round((seen.length - 1) * q)] ?? Number.NaN
  const describe = (xs: ReadonlyArray<number>) => {
    // A load with no paint in its window (NaN) is left out of every figure, the mean too, and counted.
    const seen = xs.filter(Number.isFinite)
    const missing = xs.length - seen.length
    return `${lpad(ms(median(seen)), 7)} (${ms(quartile(seen, 0.25))}–${ms(quartile(seen, 0.75))}, mean ${ms(seen.reduce((t, x) => t + x, 0) / seen.length)})${missing > 0 ? ` [${missing} loads without one]` : ""}`
  }
  builds.forEach((x, k) => {
    const ps = paints[k] ?? []
    console.log(`  ${x.name}`)
    console.log(
      `    FCP ${describe(ps.map((p) => p.fcp))}   LCP ${describe(ps.map((p) => p.lcp))}   TBT ${describe(ps.map((p) => p.tbt))}`
    )
  })
  const [fa, fb] = paints.map((ps) => median(ps.map((p) => p.fcp)))
  if (fa !== undefined && fb !== undefined) console.log(`  FCP median, second build against the first: ${pct(fb / fa)}`)
}

/** `--trace`: ours alone, built with source maps, from the plain static server; see app-trace.ts. */
const traceMain = async (tmp: string) => {
  const out = join(tmp, "ours")
  await buildOurs(out, true)
  const { plain } = await startOurs(tmp, out)
  const browser = await launchChromium()
  await traceLoads(browser, `${plain.url}/`, out, { loads: LOADS, slowdown: CPU_SLOWDOWN, windowMs: WINDOW_MS })
}

/** The anchor's minimal Vite config: React, an app build, same target as ours. */
const buildAnchor = async (outDir: string) =>
  await build({
    root: ANCHOR_DIR,
    configFile: false,
    base: "/",
    logLevel: "warn",
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      sourcemap: false,
      target: "es2022",
      chunkSizeWarningLimit: 10_000
    }
  })

/**
 * The stack floor: what React plus the Effect features this app is built on weigh on their own, one step at a time
 * (bench/floor/*.tsx, each a few lines of real use), built like the anchor. It tells how much of the budget is left
 * for the router, the UI kit and the app once the stack itself is paid for.
 */
const FLOOR_STEPS = [
  ["react.tsx", "React + react-dom"],
  ["effect-runtime.tsx", "+ Effect runtime (Layer, ManagedRuntime, fibers)"],
  ["effect-schema.tsx", "+ Schema"],
  ["effect-streams.tsx", "+ SubscriptionRef, PubSub, Stream, Schedule"],
  ["effect-http.tsx", "+ @effect/platform HttpClient"],
  ["router.tsx", "+ TanStack Router"],
  ["radix.tsx", "+ Radix UI dialog, toast, tooltip (as the anchor)"]
] as const

const buildFloor = async (): Promise<ReadonlyArray<readonly [string, Size]>> => {
  const sizes: Array<readonly [string, Size]> = []
  for (const [file, label] of FLOOR_STEPS) {
    const result = await build({
      root: join(ROOT, "bench", "floor"),
      configFile: false,
      logLevel: "error",
      plugins: [react()],
      build: { write: false, target: "es2022", rollupOptions: { input: join(ROOT, "bench", "floor", file) } }
    })
    const outputs = Array.isArray(result) ? result.flatMap((r) => r.output) : "output" in result ? result.output : []
    const code = outputs.flatMap((o) => (o.type === "chunk" ? [o.code] : [])).join("\n")
    const bytes = Buffer.from(code)
    sizes.push([label, { raw: bytes.length, gzip: gzipSync(bytes).length }])
  }
  return sizes
}

// ---------------------------------------------------------------------------------------------------------------------
// A plain static server for a built app, forwarding the stack's paths to the stack

const MIME: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".mp3": "audio/mpeg"
}
const FORWARDED = ["/api", "/gateway", "/relay", "/devnet"]

interface Served {
  readonly url: string
  readonly close: () => Promise<void>
}

const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Served> => {
  const server = createServer(handler)
  await new Promise<void>((ok, fail) => {
    server.once("error", fail)
    server.listen(0, "127.0.0.1", () => ok())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok())
        server.closeAllConnections()
      })
  }
}

const forward = (upstream: string, req: IncomingMessage, res: ServerResponse) => {
  const target = new URL(req.url ?? "/", upstream)
  const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  out.on("error", () => {
    if (!res.headersSent) res.writeHead(502)
    res.end()
  })
  req.pipe(out)
}

const serveBuilt = (root: string, upstream: string): Promise<Served> =>
  listen((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    if (FORWARDED.some((p) => path === p || path.startsWith(`${p}/`))) return forward(upstream, req, res)
    let file = normalize(join(root, decodeURIComponent(path)))
    const inside = file.startsWith(root + sep)
    if (!inside || !existsSync(file) || !statSync(file).isFile()) {
      if (path.startsWith("/assets/")) {
        res.writeHead(404).end()
        return
      }
      file = join(root, "index.html")
    }
    res.writeHead(200, {
      "content-type": MIME[extname(file)] ?? "application/octet-stream",
      "content-length": statSync(file).size,
      "cache-control": "no-cache"
    })
    createReadStream(file).pipe(res)
  })

// ---------------------------------------------------------------------------------------------------------------------
// Chromium

interface Paint {
  readonly fcp: number
  /** The last largest-contentful-paint candidate within the window (no input is made, so none is final earlier). */
  readonly lcp: number
  /** What the LCP element is (tag and the start of its text), to tell a prerendered candidate from a late one. */
  readonly lcpElement: string
  /** Sum over long tasks that start after FCP within the window of (duration - 50 ms). */
  readonly tbt: number
  /** The same over every long task of the window, those before FCP included (context for TBT: see the printout). */
  readonly blocking: number
  /** Paths of the JS files requested within the window, with their request time after navigation start. */
  readonly scripts: ReadonlyArray<{ readonly path: string; readonly at: number }>
  /**
   * What blocked after FCP, from the long-animation-frame entries that start after it within the window: each frame's
   * blocking time goes to its longest script (file name without its hash, and how it was invoked), or to "rendering
   * and other" when no script took 5 ms. Summed per cause over the load.
   */
  readonly blockedBy: Readonly<Record<string, number>>
}

/**
 * Registered before any of the page's scripts: collects LCP candidates and long tasks from navigation start. Strings,
 * not functions: tsx would wrap a function's inner helpers in its own `__name`, unknown in the page.
 */
const OBSERVE_SCRIPT = `(() => {
  const seen = { lcp: [], long: [] }
  Object.defineProperty(window, "__benchPaint", { value: seen })
  // The JS files a load requests are read from its resource timing entries (the pipe's loads watch no requests).
  performance.setResourceTimingBufferSize(1000)
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const el = e.element
      seen.lcp.push({ at: e.startTime, what: el ? el.tagName.toLowerCase() + " " + JSON.stringify((el.textContent || "").trim().slice(0, 32)) : "(removed)" })
    }
  }).observe({ type: "largest-contentful-paint", buffered: true })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen.long.push({ at: e.startTime, duration: e.duration })
  }).observe({ type: "longtask", buffered: true })
  seen.frames = []
  if (PerformanceObserver.supportedEntryTypes.includes("long-animation-frame"))
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        seen.frames.push({
          at: e.startTime,
          blocking: e.blockingDuration,
          scripts: e.scripts.map((x) => ({ src: x.sourceURL || x.invoker || "", invoker: x.invokerType, duration: x.duration }))
        })
    }).observe({ type: "long-animation-frame", buffered: true })
})()`

/** Reads FCP, the last LCP candidate and TBT at the end of the window. */
const READ_SCRIPT = `(() => {
  const seen = window.__benchPaint
  const fcpEntry = performance.getEntriesByName("first-contentful-paint")[0]
  const fcp = fcpEntry ? fcpEntry.startTime : NaN
  const last = seen.lcp.filter((e) => e.at <= ${WINDOW_MS}).at(-1)
  const over = (tasks) => tasks
    .filter((t) => t.at < ${WINDOW_MS})
    .reduce((sum, t) => sum + Math.max(0, Math.min(t.duration, ${WINDOW_MS} - t.at) - ${LONG_TASK_MS}), 0)
  const tbt = over(seen.long.filter((t) => t.at >= fcp))
  const blockedBy = {}
  for (const f of seen.frames.filter((f) => f.at >= fcp && f.at < ${WINDOW_MS} && f.blocking > 0)) {
    const top = f.scripts.reduce((a, b) => (b.duration > (a ? a.duration : 0) ? b : a), undefined)
    const cause = top && top.duration >= 5
      ? top.src.split("/").pop().replace(/-[A-Za-z0-9_-]{8}[.]js$/, ".js") + " (" + top.invoker + ")"
      : "rendering and other"
    blockedBy[cause] = (blockedBy[cause] || 0) + f.blocking
  }
  return { fcp, lcp: last ? last.at : NaN, lcpElement: last ? last.what : "none", tbt, blocking: over(seen.long), blockedBy }
})()`

const newContext = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: "block" })

/**
 * One cold load in a fresh context with the CPU slowed down, measured over the first WINDOW_MS after navigation start:
 * FCP, the last LCP candidate, total blocking time, and the JS files requested.
 */
const paintOnce = async (browser: Browser, url: string, slowdown: number): Promise<Paint> => {
  const context = await newContext(browser)
  try {
    const scripts: Array<{ path: string; at: number }> = []
    let started = Number.NaN
    context.on("request", (r) => {
      const u = new URL(r.url())
      if (u.pathname.endsWith(".js")) scripts.push({ path: u.pathname, at: performance.now() - started })
    })
    const page = await context.newPage()
    await page.addInitScript(OBSERVE_SCRIPT)
    const cdp = await context.newCDPSession(page)
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown })
    started = performance.now()
    await page.goto(url, { waitUntil: "load", timeout: 120_000 })
    // The page's clock starts a little before ours; wait out the window on ours, plus a margin.
    const left = WINDOW_MS + 250 - (performance.now() - started)
    if (left > 0) await page.waitForTimeout(left)
    const read = await page.evaluate<{
      fcp: number
      lcp: number
      lcpElement: string
      tbt: number
      blocking: number
      blockedBy: Record<string, number>
    }>(READ_SCRIPT)
    return { ...read, scripts: scripts.filter((s) => s.at < WINDOW_MS) }
  } finally {
    await context.close()
  }
}

/** The JS files the page requested, from its resource timing entries, with their start after navigation start. */
const RESOURCES_SCRIPT = `performance.getEntriesByType("resource")
  .map((e) => ({ path: new URL(e.name).pathname, at: e.startTime }))
  .filter((e) => e.path.endsWith(".js"))`

/**
 * The same load as paintOnce over the pipe (cdp-pipe.ts): a page in a fresh browser context with only the Page and
 * Emulation domains in use, so its scripts run as in a user's browser, not under DevTools' Runtime and Network domains.
 */
const paintOncePipe = async (browser: PipeBrowser, url: string, slowdown: number): Promise<Paint> => {
  const page = await newPipePage(browser, { width: 1280, height: 800 })
  try {
    await browser.send("Page.enable", {}, page.sessionId)
    await browser.send("Page.addScriptToEvaluateOnNewDocument", { source: OBSERVE_SCRIPT }, page.sessionId)
    await browser.send("Emulation.setCPUThrottlingRate", { rate: slowdown }, page.sessionId)
    const started = performance.now()
    const navigated = (await browser.send("Page.navigate", { url }, page.sessionId)) as { errorText?: string }
    if (navigated.errorText !== undefined) throw new Error(`${url}: ${navigated.errorText}`)
    // As paintOnce: the window on our clock, plus a margin.
    const left = WINDOW_MS + 250 - (performance.now() - started)
    if (left > 0) await new Promise((waited) => setTimeout(waited, left))
    const read = await page.evaluate<Omit<Paint, "scripts">>(READ_SCRIPT)
    const scripts = await page.evaluate<Array<{ path: string; at: number }>>(RESOURCES_SCRIPT)
    return { ...read, scripts: scripts.filter((x) => x.at < WINDOW_MS) }
  } finally {
    await page.close()
  }
}

/** One cold load of a URL at a CPU slowdown, measured (paintOnce or paintOncePipe). */
type PageLoad = (url: string, slowdown: number) => Promise<Paint>

/**
 * How the measured loads run: over the pipe, unless `--devtools` asks for Playwright's pages (whose Runtime domain
 * made React's stage alone take three times as long: cdp-pipe.ts).
 */
const pageLoader = async (browser?: Browser): Promise<PageLoad> => {
  if (DEVTOOLS) {
    const playwright = browser ?? (await launchChromium())
    return (url, slowdown) => paintOnce(playwright, url, slowdown)
  }
  const pipe = launchPipe(CHROMIUM, CHROMIUM_ARGS)
  cleanups.push(pipe.close)
  return (url, slowdown) => paintOncePipe(pipe, url, slowdown)
}

interface Hit {
  readonly at: number
  readonly method: string
  readonly path: string
  readonly status: number | undefined
  readonly duplicate: boolean
}

/** Groups a path: addresses and hashes become placeholders so a timer's calls land on one row. */
const groupPath = (path: string) =>
  path
    .replace(/\/(account|resource|component|identity|package|validator)_[a-z0-9_]+/g, "/:$1")
    .replace(/\/(txid_[a-z0-9_]+|[0-9a-f]{64})/g, "/:hash")

interface Expectation {
  readonly perMinute: number
  readonly why: string
}
/** What the spec's timers make an idle, disconnected `/` ask for (spec app.md §7 and §9). */
const EXPECTED: Readonly<Record<string, Expectation>> = {
  "GET /api/health": { perMinute: 4, why: "health cycle 15 s" },
  "GET /api/liveprice/:resource/:resource": { perMinute: 4, why: "price cycle 15 s" },
  "GET /api/liquidity": { perMinute: 2, why: "liquidity on the card 30 s" }
}

const idleRequests = async (browser: Browser, url: string, seconds: number) => {
  const context = await newContext(browser)
  const hits: Array<Hit> = []
  const inFlight = new Map<string, number>()
  let t0 = Number.POSITIVE_INFINITY
  let sockets = 0
  try {
    const started = new Map<object, Hit & { key: string }>()
    context.on("request", (r) => {
      const u = new URL(r.url())
      const key = `${r.method()} ${u.href}`
      const open = inFlight.get(key) ?? 0
      inFlight.set(key, open + 1)
      const hit = {
        at: performance.now(),
        method: r.method(),
        path: u.pathname,
        status: undefined,
        duplicate: open > 0,
        key
      }
      started.set(r, hit)
      hits.push(hit)
    })
    const done = (r: object, status: number | undefined) => {
      const hit = started.get(r)
      if (hit === undefined) return
      started.delete(r)
      inFlight.set(hit.key, Math.max(0, (inFlight.get(hit.key) ?? 1) - 1))
      const i = hits.indexOf(hit)
      if (i >= 0) hits[i] = { ...hit, status }
    }
    context.on("requestfinished", (r) => {
      void r.response().then((res) => done(r, res?.status()))
    })
    context.on("requestfailed", (r) => done(r, undefined))
    const page = await context.newPage()
    page.on("websocket", () => {
      sockets += 1
    })
    await page.goto(url, { waitUntil: "load", timeout: 60_000 })
    // "After load": nothing in flight and no new request for QUIET_MS (the app's start-up calls come well after the
    // load event on a busy machine, so Playwright's 500 ms networkidle is not enough), at most 30 s.
    const loaded = performance.now()
    for (;;) {
      const now = performance.now()
      const last = hits.at(-1)?.at ?? loaded
      const busy = [...inFlight.values()].some((n) => n > 0)
      if ((!busy && now - last >= QUIET_MS && now - loaded >= QUIET_MS) || now - loaded > 30_000) break
      await page.waitForTimeout(250)
    }
    t0 = performance.now()
    await page.waitForTimeout(seconds * 1000)
  } finally {
    await context.close()
  }
  const t1 = t0 + seconds * 1000
  return {
    atLoad: hits.filter((h) => h.at < t0),
    idle: hits.filter((h) => h.at >= t0 && h.at < t1),
    sockets
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The run

const cleanups: Array<() => Promise<void>> = []
const cleanup = async () => {
  while (cleanups.length > 0) {
    const c = cleanups.pop()
    await c?.().catch((e: unknown) => console.error("cleanup failed:", e))
  }
}

const main = async () => {
  const tmp = mkdtempSync(join(tmpdir(), "hswap-bench-app-"))
  cleanups.push(async () => rmSync(tmp, { recursive: true, force: true }))
  if (TRACE) return traceMain(tmp)
  if (FETCHED) return fetchedMain(tmp)
  if (COMPARE !== undefined) return compareMain(tmp, COMPARE)
  const oursOut = join(tmp, "ours")
  const anchorOut = join(tmp, "anchor")

  let t = performance.now()
  const oursRendered = renderedModules(await buildOurs(oursOut))
  const oursBuildS = (performance.now() - t) / 1000
  t = performance.now()
  const anchorRendered = renderedModules(await buildAnchor(anchorOut))
  const anchorBuildS = (performance.now() - t) / 1000
  const floor = await buildFloor()
  const ours = analyse(oursOut)
  const anchor = analyse(anchorOut)
  const oursLazy = lazyChunks(ours)
  const anchorLazy = lazyChunks(anchor)

  const { stack, plain: oursPlain } = await startOurs(tmp, oursOut)
  const anchorPlain = await serveBuilt(anchorOut, stack.url)
  cleanups.push(anchorPlain.close)

  const browser = await launchChromium()

  // Idle requests first, while the exchange server's per-IP limiter (on, as users get it) has seen nothing yet.
  console.log(
    `(built ours in ${oursBuildS.toFixed(1)} s, anchor in ${anchorBuildS.toFixed(1)} s; idle / for ${IDLE_S} s…)`
  )
  const idle = await idleRequests(browser, `${stack.url}/`, IDLE_S)

  // What a load of / fetches, without slowdown (one warm-up load each, which also warms the servers).
  const pages = [
    { name: "ours (npm start stack)", url: `${stack.url}/` },
    { name: "ours (static files)", url: `${oursPlain.url}/` },
    { name: "anchor (static files)", url: `${anchorPlain.url}/` }
  ] as const
  console.log(`(paint: ${LOADS} loads per page at ${CPU_SLOWDOWN}x CPU slowdown…)`)
  const load = await pageLoader(browser)
  const warm: Array<Paint> = []
  for (const p of pages) warm.push(await load(p.url, 1))
  // The two pages the budgets compare, in pairs whose order flips every round (ours first, then the anchor first), so
  // each page comes after each page as often. The stack's page, the heaviest, for information only, after them: in one
  // rotation of all three it came before ours in two rounds of three, and before the anchor in one.
  const [oursPaints, anchorPaints] = await measurePaired(load, [pages[1].url, pages[2].url])
  const stackPaints: Array<Paint> = []
  for (let i = 0; i < LOADS; i++) stackPaints.push(await measureOnce(load, pages[0].url))
  const paints = [stackPaints, oursPaints, anchorPaints]

  // --- printing ------------------------------------------------------------------------------------------------------
  const fetchedJs = (paint: Paint | undefined, outDir: string): { files: number; size: Size } => {
    const files = [...new Set((paint?.scripts ?? []).map((s) => s.path))].filter((p) => p.startsWith("/assets/"))
    return {
      files: files.length,
      size: files.map((p) => sizeOf(join(outDir, p.slice(1)))).reduce(add, zero)
    }
  }
  const oursFetched = fetchedJs(warm[1], oursOut)
  const anchorFetched = fetchedJs(warm[2], anchorOut)
  // Ours is minified by terser (build/terser.ts), the anchor by Vite's default (esbuild). For a like-for-like figure, the
  // anchor's fetched files once more through terser with our options (on top of esbuild's output: if anything, kinder
  // to the anchor than a terser build from source).
  const anchorTersed = await tersedGzip(
    [...new Set((warm[2]?.scripts ?? []).map((s) => s.path))]
      .filter((p) => p.startsWith("/assets/"))
      .map((p) => join(anchorOut, p.slice(1)))
  )

  const W = 44
  console.log("")
  console.log(`bundle of /  (gzip: zlib default level; kB = 1000 bytes)`)
  console.log(`  ${pad("", W)}${pad("ours", 34)}anchor`)
  console.log(
    `  ${pad(`initial JS (${ours.initialJs.length} / ${anchor.initialJs.length} files)`, W)}${pad(fmtSize(ours.js), 34)}${fmtSize(anchor.js)}`
  )
  console.log(
    `  ${pad(`initial CSS (${ours.initialCss.length} / ${anchor.initialCss.length} files)`, W)}${pad(fmtSize(ours.css), 34)}${fmtSize(anchor.css)}`
  )
  console.log(
    `  ${pad(`JS fetched in ${WINDOW_MS / 1000} s (${oursFetched.files} / ${anchorFetched.files} files)`, W)}${pad(fmtSize(oursFetched.size), 34)}${fmtSize(anchorFetched.size)}`
  )
  console.log(
    `  ratio initial JS gzip ours/anchor (what index.html loads): ${verdict(ours.js.gzip, anchor.js.gzip, BUDGETS.initialJs)}`
  )
  console.log(
    `  ratio JS fetched by / in its first ${WINDOW_MS / 1000} s, gzip (the anchor's counts its connect button; ours what loads on idle): ${verdict(oursFetched.size.gzip, anchorFetched.size.gzip, BUDGETS.fetchedJs)}`
  )
  console.log(
    `  the same with the anchor's files through our minifier too (terser, build/terser.ts): ${kB(oursFetched.size.gzip)} / ${kB(anchorTersed)} = ${pct(oursFetched.size.gzip / anchorTersed)} (for information)`
  )
  console.log(
    `  fetched by ours in ${WINDOW_MS / 1000} s: ${[...new Set((warm[1]?.scripts ?? []).map((x) => `${x.path.replace(/^\/assets\//, "").replace(/-[\w-]{8}\.js$/, "")}@${(x.at / 1000).toFixed(1)}s ${kB(sizeOf(join(oursOut, x.path.slice(1))).gzip)}`))].join(", ")}`
  )
  for (const [name, b] of [
    ["ours", ours],
    ["anchor", anchor]
  ] as const)
    if (b.mismatch.length > 0)
      console.log(
        `  note: ${name}'s index.html loads files outside the entry's import closure: ${b.mismatch.join(", ")}`
      )

  for (const [name, b, r] of [
    ["ours", ours, oursRendered],
    ["anchor", anchor, anchorRendered]
  ] as const) {
    const { total, top } = topOwners(r, b.initialJs, 8)
    console.log(
      `  ${name} initial JS by owner (share of pre-minify bytes): ${top.map(([o, n]) => `${o} ${pct(n / total)}`).join(", ")}`
    )
  }
  const bound = anchorFetched.size.gzip * BUDGETS.fetchedJs
  console.log(
    `stack floor (each step alone, built like the anchor), against ${pct(BUDGETS.fetchedJs)} of the anchor's fetched JS: ${kB(bound)}`
  )
  for (const [label, size] of floor)
    console.log(`  ${pad(label, 52)}${fmtSize(size)}   ${pct(size.gzip / bound)} of that bound`)
  console.log(`lazy route chunks, ours (chunk; with its imports not in the initial set)`)
  for (const c of oursLazy.filter(isRouteChunk))
    console.log(
      `  ${pad(c.label, 18)}${lpad(kB(c.own.gzip), 9)} gzip ${lpad(kB(c.own.raw), 9)} raw   (${kB(c.withImports.gzip)} gzip with imports)`
    )
  const others = oursLazy.filter((c) => !isRouteChunk(c))
  if (others.length > 0)
    console.log(
      `  other lazy chunks: ${others.map((c) => `${c.label} ${kB(c.withImports.gzip)}`).join(", ")} (gzip with imports)`
    )
  console.log(`lazy chunks, anchor`)
  for (const c of anchorLazy)
    console.log(
      `  ${pad(c.label, 18)}${lpad(kB(c.own.gzip), 9)} gzip ${lpad(kB(c.own.raw), 9)} raw   (${kB(c.withImports.gzip)} gzip with imports)`
    )

  console.log(
    `paints and total blocking time of /, ${CPU_SLOWDOWN}x CPU slowdown, cold cache, first ${WINDOW_MS / 1000} s of each load, median of ${LOADS} (min–max), ${DEVTOOLS ? "through Playwright (DevTools' Runtime and Network domains on)" : "over the pipe (no DevTools domain on in the page)"}`
  )
  const stat = (ps: ReadonlyArray<Paint>, pick: (p: Paint) => number) => {
    const xs = ps.map(pick).filter(Number.isFinite)
    return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) }
  }
  const row = (x: { median: number; min: number; max: number }) =>
    `${lpad(ms(x.median), 8)} (${ms(x.min)}–${ms(x.max)})`
  const figures = pages.map((_, k) => {
    const ps = paints[k] ?? []
    return {
      fcp: stat(ps, (p) => p.fcp),
      lcp: stat(ps, (p) => p.lcp),
      tbt: stat(ps, (p) => p.tbt),
      blocking: stat(ps, (p) => p.blocking)
    }
  })
  pages.forEach((p, k) => {
    const f = figures[k]
    if (f === undefined) return
    const elements = [...new Set((paints[k] ?? []).map((x) => x.lcpElement))].join(" | ")
    console.log(`  ${pad(p.name, 26)} FCP ${row(f.fcp)}   LCP ${row(f.lcp)}   TBT ${row(f.tbt)}`)
    console.log(`  ${pad("", 26)} blocking time from navigation start ${row(f.blocking)}; LCP element: ${elements}`)
  })
  const oursStatic = figures[1]
  const anchorStatic = figures[2]
  if (oursStatic !== undefined && anchorStatic !== undefined)
    for (const [name, key] of [
      ["first contentful paint", "fcp"],
      ["largest contentful paint", "lcp"],
      ["total blocking time", "tbt"]
    ] as const)
      console.log(
        `  ${pad(name, 26)} ours (static files) / anchor: ${ms(oursStatic[key].median)} / ${ms(anchorStatic[key].median)} = ${verdict(oursStatic[key].median, anchorStatic[key].median, BUDGETS[key])}`
      )
  // What the blocking time after FCP is made of: per cause, the median over the loads of its blocking time in a load.
  for (const k of [1, 2]) {
    const ps = paints[k] ?? []
    const causes = [...new Set(ps.flatMap((p) => Object.keys(p.blockedBy)))]
    const byCause = causes
      .map((c) => [c, median(ps.map((p) => p.blockedBy[c] ?? 0))] as const)
      .filter(([, m]) => m > 0)
      .sort((a, b) => b[1] - a[1])
    console.log(
      `  blocked after FCP, ${pages[k]?.name} (long animation frames, median per load): ${byCause.length === 0 ? "nothing" : byCause.map(([c, m]) => `${c} ${ms(m)}`).join(", ")}`
    )
  }
  console.log(
    `  (TBT counts from FCP, as Lighthouse does: a page that paints before its scripts run has its script work counted, one that runs them before its first paint has not; the blocking time from navigation start counts both alike)`
  )
  console.log(
    `  (the stack injects the devnet wallet script, deferred: it runs before the app's entry, and its panel can paint before the app does, so the stack's FCP need not be the app's; LCP is)`
  )

  console.log(
    `requests of an idle / on the npm start stack, ${IDLE_S} s from the moment it went quiet after load (${QUIET_MS / 1000} s without a request), Chromium`
  )
  const groups = new Map<string, Array<Hit>>()
  const assets: Array<Hit> = []
  for (const h of idle.idle) {
    if (h.path.startsWith("/assets/")) {
      assets.push(h)
      continue
    }
    const k = `${h.method} ${groupPath(h.path)}`
    groups.set(k, [...(groups.get(k) ?? []), h])
  }
  const rows = new Set([...Object.keys(EXPECTED), ...groups.keys()])
  console.log(`  ${pad("path", 44)}${lpad("seen", 5)}${lpad("spec", 6)}  median gap   verdict`)
  for (const k of [...rows].sort()) {
    const hs = groups.get(k) ?? []
    const e = EXPECTED[k]
    // A timer of period P fires floor(W/P) or ceil(W/P) times in a window W, depending on its phase.
    const allowed = e === undefined ? 0 : Math.ceil((e.perMinute * IDLE_S) / 60 - 1e-9)
    const gaps = hs.slice(1).map((h, i) => h.at - (hs[i]?.at ?? h.at))
    const devnet = k.split(" ")[1]?.startsWith("/devnet") === true
    const verdict = hs.length <= allowed ? "ok" : devnet ? "devnet wallet emulator (not in a production build)" : "over"
    const gap = gaps.length === 0 ? "" : `${(median(gaps) / 1000).toFixed(1)} s`
    console.log(
      `  ${pad(k, 44)}${lpad(String(hs.length), 5)}${lpad(String(allowed), 6)}  ${pad(gap, 11)}  ${verdict}${e === undefined ? "" : `  [${e.why}]`}`
    )
  }
  if (assets.length > 0) {
    const names = assets.map((h) => h.path.replace(/^\/assets\//, "").replace(/-[\w-]{8}\.(js|css)$/, ".$1"))
    // Compared by full path: several chunks share a short name (Rollup calls many `index-<hash>.js`).
    const unique = new Set(assets.map((h) => h.path)).size === assets.length
    console.log(
      `  ${pad("GET /assets/* (lazy chunks)", 44)}${lpad(String(assets.length), 5)}${lpad("-", 6)}  ${pad("", 11)}  ${unique ? "each once (not a timer)" : "a chunk fetched again"}: ${names.join(", ")}`
    )
  }
  const statuses = [...new Set(idle.idle.map((h) => String(h.status ?? "failed")))].join(", ")
  const dups = idle.idle.filter((h) => h.duplicate).length + idle.atLoad.filter((h) => h.duplicate).length
  console.log(
    `  total ${idle.idle.length} in ${IDLE_S} s (statuses: ${statuses || "none"}); at load: ${idle.atLoad.length} requests; duplicate in-flight requests: ${dups}; websockets: ${idle.sockets}`
  )
  const loadGroups = new Map<string, number>()
  for (const h of idle.atLoad) {
    const k = `${h.method} ${groupPath(h.path).replace(/\/assets\/.*/, "/assets/*")}`
    loadGroups.set(k, (loadGroups.get(k) ?? 0) + 1)
  }
  console.log(`  at load: ${[...loadGroups].map(([k, n]) => `${k} ×${n}`).join(", ")}`)
}

const watchdog = setTimeout(() => {
  console.error(`bench:app: still running after ${WATCHDOG_MS / 60000} minutes, stopping`)
  void cleanup().then(() => process.exit(1))
}, WATCHDOG_MS)
watchdog.unref()
process.once("SIGINT", () => {
  void cleanup().then(() => process.exit(130))
})

main()
  .catch((e: unknown) => {
    console.error("bench:app failed:", e)
    process.exitCode = 1
  })
  .finally(async () => {
    await cleanup()
    clearTimeout(watchdog)
    // The stack's parts may keep timers of their own; everything we started is closed, so leave now.
    process.exit()
  })
