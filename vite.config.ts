/// <reference types="vitest/config" />
import { decode, encode } from "@jridgewell/sourcemap-codec"
import tailwindcss from "@tailwindcss/vite"
import { tanstackRouter } from "@tanstack/router-plugin/vite"
import react from "@vitejs/plugin-react"
import { createServer, defineConfig, parseAst, type Plugin } from "vite"
import {
  FIRST_PAINT_MARK_ID,
  firstPaintScript,
  FIRST_PAINT_STYLE,
  PRERENDERED_SHELL_ID
} from "./src/app/shell/firstPaint"
import { ENTRY_STAGES_PLACEHOLDER, LIVE_CHUNKS_PLACEHOLDER } from "./src/app/runtime/inStages"
import { ENTRY_ATTRIBUTE, entryLoaderScript } from "./src/app/shell/entryLoader"

const ROOT_DIV = '<div id="root"></div>'

/**
 * Writes the first paint into index.html (see src/app/shell/firstPaint.ts and prerender.tsx), so it needs only the
 * HTML and the stylesheet:
 * - #root holds `/` as the app renders it with the live half ready; main.tsx hydrates it, so the page's largest text
 *   is in the first HTML and stays;
 * - after it, `#shell-prerender` holds the frame alone (static, inert, hidden from assistive technology, no ids or
 *   test ids), which every other path paints instead and the app's Layout removes when it commits;
 * - a blocking inline script in the head marks <html> with the copy for the path, and an inline style shows only that
 *   one. Inline, so the parser goes on at once: as a file of its own it held the body's parsing for a request (median
 *   FCP 404 → 368 ms at 4x in 30 interleaved loads; a second run showed less). The served Content-Security-Policy
 *   admits it by its hash (src/devnet/static.ts `withInlineScripts`);
 * - `<link rel="expect" blocking="render">` on an empty marker after both holds the first paint until they are parsed,
 *   so the page paints whole (its largest text included) instead of its first half when the parser yields.
 */
const prerenderPages = (): Plugin => {
  let root = process.cwd()
  let mode = "production"
  return {
    name: "hswap:prerender-pages",
    apply: "build",
    configResolved(config) {
      root = config.root
      mode = config.mode
    },
    async transformIndexHtml(html) {
      if (!html.includes(ROOT_DIV)) throw new Error(`index.html must contain ${ROOT_DIV} for the prerendered pages`)
      const server = await createServer({
        root,
        mode,
        configFile: false,
        logLevel: "error",
        appType: "custom",
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] }
      })
      try {
        const module = (await server.ssrLoadModule("/src/app/shell/prerender.tsx")) as {
          renderShellHtml?: () => Promise<string>
          renderPageHtml?: () => Promise<string>
        }
        if (module.renderShellHtml === undefined || module.renderPageHtml === undefined)
          throw new Error("src/app/shell/prerender.tsx must export renderShellHtml and renderPageHtml")
        const shell = (await module.renderShellHtml()).replace(/ (data-testid|id)="[^"]*"/g, "")
        const page = await module.renderPageHtml()
        return {
          html: html.replace(
            ROOT_DIV,
            [
              `<div id="root">${page}</div>`,
              `<div id="${PRERENDERED_SHELL_ID}" aria-hidden="true" inert>${shell}</div>`,
              `<span id="${FIRST_PAINT_MARK_ID}" hidden></span>`
            ].join("\n    ")
          ),
          tags: [
            { tag: "script", children: firstPaintScript(), injectTo: "head-prepend" },
            { tag: "style", children: FIRST_PAINT_STYLE, injectTo: "head" },
            // The first paint waits until both copies are parsed, instead of showing the first half of one.
            {
              tag: "link",
              attrs: { rel: "expect", href: `#${FIRST_PAINT_MARK_ID}`, blocking: "render" },
              injectTo: "head"
            }
          ]
        }
      } finally {
        await server.close()
      }
    }
  }
}

/**
 * Writes a list of files into a chunk's code in place of the string `placeholder` (quoted), as a JSON array; null (the
 * chunk unchanged) when the chunk does not hold it. `files` is only read when it does.
 */
const writeFileList = (code: string, placeholder: string, files: () => ReadonlySet<string>) => {
  const quoted = new RegExp(`(["'\`])${placeholder}\\1`, "g")
  if (!quoted.test(code)) return null
  return { code: code.replace(quoted, JSON.stringify([...files()])), map: null }
}

/**
 * The live chunk loads in stages, one import after another (src/app/runtime/inStages.ts), and the page of `/` after
 * it, but their files are all requested at once: the build writes the files of their graphs (live.tsx's chunk, the
 * page's, and every chunk they import) into the code in place of LIVE_CHUNKS_PLACEHOLDER, and the app adds a
 * modulepreload link for each when it starts loading.
 * The names are Rollup's placeholders here, which it replaces with the hashed names as it does in imports.
 */
const liveChunkList = (): Plugin => ({
  name: "hswap:live-chunk-list",
  apply: "build",
  renderChunk(code, chunk, _options, meta) {
    return writeFileList(code, LIVE_CHUNKS_PLACEHOLDER, () => {
      // The live chunk, and the page of `/` (which index.html holds and the app hydrates once the live chunk is there).
      const files = filesReaching(meta.chunks, ["src/app/live.tsx", "src/app/features/exchange/ExchangePage.tsx"])
      // The chunk that asks for them is loaded already, and the entry requests its stages itself (entryAfterMarkup).
      files.delete(chunk.fileName)
      for (const file of filesReaching(meta.chunks, ENTRY_STAGE_ROOTS)) files.delete(file)
      return files
    })
  }
})

/**
 * The modules the entry's stages start from, in the order src/app/main.tsx imports them after the first paint (test/build
 * checks that the two lists agree): React, then the app's own start.
 */
export const ENTRY_STAGE_ROOTS = ["src/app/runtime/stages/react.ts", "src/app/start.tsx"] as const

interface ChunkOf {
  readonly fileName: string
  readonly moduleIds: ReadonlyArray<string>
  readonly imports: ReadonlyArray<string>
}

/** The files of the chunks that hold these modules (paths from the root) and every file they import statically. */
const filesReaching = (chunks: Readonly<Record<string, ChunkOf>>, paths: ReadonlyArray<string>): Set<string> => {
  const files = new Set<string>()
  const walk = (fileName: string) => {
    if (files.has(fileName)) return
    files.add(fileName)
    for (const i of chunks[fileName]?.imports ?? []) walk(i)
  }
  for (const path of paths) {
    const found = Object.values(chunks).find((c) => c.moduleIds.some((id) => id.split("?")[0]?.endsWith(`/${path}`)))
    if (found === undefined) throw new Error(`hswap: no chunk of the build holds ${path}`)
    walk(found.fileName)
  }
  return files
}

/**
 * The entry starts from the end of index.html's body (src/app/shell/entryLoader.ts says why): its module script, which
 * Vite writes into the head, becomes entryLoaderScript() there (an inline module script, so it runs after the first
 * frame), naming the entry's file in `data-entry`. The files of the entry's stages (ENTRY_STAGE_ROOTS and what they
 * import) go into the entry's code in place of ENTRY_STAGES_PLACEHOLDER, as Rollup's placeholders for the hashed
 * names: main.tsx requests them all after the first paint (preloadEntryStages). Vite lists only an entry's static imports, and the entry imports these dynamically so
 * that they do not run before the paint.
 */
const entryAfterMarkup = (): Plugin => ({
  name: "hswap:entry-after-markup",
  apply: "build",
  renderChunk(code, chunk, _options, meta) {
    return writeFileList(code, ENTRY_STAGES_PLACEHOLDER, () => {
      const files = filesReaching(meta.chunks, ENTRY_STAGE_ROOTS)
      files.delete(chunk.fileName)
      return files
    })
  },
  transformIndexHtml: {
    order: "post",
    handler(html, ctx) {
      if (ctx.bundle === undefined) return html
      const scripts = [...html.matchAll(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/g)]
      const entry = scripts[0]
      if (scripts.length !== 1 || entry?.[1] === undefined)
        throw new Error(`hswap: index.html should have one module script (the entry), found ${scripts.length}`)
      if (!html.includes("</body>")) throw new Error("hswap: index.html has no </body> for the entry's loader")
      // The entry's file is fetched (and compiled off the page's thread) as the HTML arrives; it runs when the loader adds it.
      const preload = `<link rel="modulepreload" crossorigin href="${entry[1]}">`
      const loader = `<script type="module" ${ENTRY_ATTRIBUTE}="${entry[1]}">${entryLoaderScript()}</script>`
      return html.replace(entry[0], "").replace("</body>", `  ${preload}\n    ${loader}\n  </body>`)
    }
  }
})

/**
 * The modules the live chunk's stages start from, in the order src/app/shell/islands.tsx imports them (test/build
 * checks that the two lists agree).
 */
export const LIVE_STAGE_ROOTS = [
  "src/app/runtime/stages/data.ts",
  "src/app/runtime/stages/effect.ts",
  "src/app/runtime/stages/schema.ts",
  "src/app/runtime/stages/stream.ts",
  "src/app/config/AppConfig.ts",
  "src/gateway/config.ts",
  "src/toolkit/transportErrors.ts",
  "src/exchange/ExchangeApi.ts",
  "src/app/features/exchange/machine/SwapMachine.ts",
  "src/app/live.tsx"
] as const

/**
 * Stages whose modules share an earlier stage's file: small enough that one file (gzip once, one request, one list of
 * imports) is worth evaluating them a stage early. A stage's import then finds its modules run already. The toolkit's
 * errors (0.5 kB) go with the Gateway's configuration (2 kB); AppConfig's stage stays apart: with both in its file, its
 * evaluation took one task of about 100 ms at 4× slowdown (bench:app --trace), for 0.3 kB less.
 */
export const LIVE_STAGE_FILES: Readonly<Record<string, string>> = {
  "src/toolkit/transportErrors.ts": "config"
}

/** The name of a stage's file (before its hash): the root module's own, unless it shares an earlier stage's (`files`). */
export const stageFileName = (path: string, files: Readonly<Record<string, string>> = LIVE_STAGE_FILES): string =>
  files[path] ?? path.slice(path.lastIndexOf("/") + 1).replace(/\.tsx?$/, "")

/** The parts of an ES module's syntax tree (Rollup's `ModuleInfo.ast`) that name what it imports and re-exports. */
interface NameNode {
  readonly type: string
  readonly name?: string
  readonly value?: unknown
}
interface StatementNode {
  readonly type: string
  /** Where the statement begins in its module's code. */
  readonly start?: number
  readonly source?: { readonly value: unknown } | null
  readonly specifiers?: ReadonlyArray<{
    readonly type: string
    readonly imported?: NameNode
    readonly local?: NameNode
    readonly exported?: NameNode
  }>
  readonly exported?: NameNode | null
}
type ModuleInfoOf = (id: string) => {
  readonly importedIds: ReadonlyArray<string>
  /** Rollup's ESTree `Program`; read through `bodyOf`. */
  readonly ast?: unknown
} | null

/** Every export of a module, or only these. */
type Wanted = "all" | ReadonlySet<string>
interface Edge {
  readonly id: string
  readonly wanted: Wanted
}

const nameOf = (node: NameNode | null | undefined): string | undefined =>
  node === null || node === undefined
    ? undefined
    : (node.name ?? (typeof node.value === "string" ? node.value : undefined))

const bodyOf = (ast: unknown): ReadonlyArray<StatementNode> | undefined => {
  const body = typeof ast === "object" && ast !== null && "body" in ast ? ast.body : undefined
  return Array.isArray(body) ? (body as ReadonlyArray<StatementNode>) : undefined
}

const isFrom = (s: StatementNode): boolean =>
  s.type === "ImportDeclaration" ||
  s.type === "ExportAllDeclaration" ||
  (s.type === "ExportNamedDeclaration" && s.source !== null && s.source !== undefined)

/**
 * A module's static imports, each with the names taken from it, from its syntax tree: Rollup lists `importedIds` in the
 * order the sources first appear. Without a tree, or when the two do not line up, every import counts whole.
 */
const edgesOf = (module: NonNullable<ReturnType<ModuleInfoOf>>): ReadonlyArray<Edge> => {
  const whole = () => module.importedIds.map((id) => ({ id, wanted: "all" as const }))
  const body = bodyOf(module.ast)
  if (body === undefined) return whole()
  const wanted = new Map<string, Set<string> | "all">()
  for (const s of body.filter(isFrom)) {
    const source = s.source?.value
    if (typeof source !== "string") return whole()
    const names = wanted.get(source) ?? new Set<string>()
    if (names === "all") continue
    const specifiers = s.specifiers ?? []
    // `import "x"`, `import * as X from "x"` and `export * from "x"` take the whole module.
    const all =
      s.type === "ExportAllDeclaration" ||
      specifiers.length === 0 ||
      specifiers.some((x) => x.type === "ImportNamespaceSpecifier")
    if (all) {
      wanted.set(source, "all")
      continue
    }
    for (const x of specifiers) {
      const name =
        x.type === "ImportDefaultSpecifier" ? "default" : nameOf(x.type === "ExportSpecifier" ? x.local : x.imported)
      if (name === undefined) return whole()
      names.add(name)
    }
    wanted.set(source, names)
  }
  if (wanted.size !== module.importedIds.length) return whole()
  return [...wanted.values()].map((w, i) => ({ id: module.importedIds[i] ?? "", wanted: w }))
}

/**
 * A module that only re-exports (like `effect`'s and `@effect/platform`'s index): which of its sources hold each of its
 * names. Taking a name from it reaches that source, not every module it lists.
 */
const barrelOf = (module: NonNullable<ReturnType<ModuleInfoOf>>) => {
  const body = bodyOf(module.ast)
  if (body === undefined || body.length === 0 || !body.every((s) => s.type !== "ImportDeclaration" && isFrom(s)))
    return undefined
  const edges = edgesOf(module)
  const sources = [...new Set(body.map((s) => s.source?.value))]
  const edgeFor = (s: StatementNode) => edges[sources.indexOf(s.source?.value)]
  const named = new Map<string, Array<Edge>>()
  const stars: Array<Edge> = []
  for (const s of body) {
    const edge = edgeFor(s)
    if (edge === undefined) return undefined
    const exported = nameOf(s.exported)
    if (s.type === "ExportAllDeclaration" && exported === undefined) stars.push(edge)
    else if (s.type === "ExportAllDeclaration") named.set(exported!, [{ id: edge.id, wanted: "all" }])
    else
      for (const x of s.specifiers ?? []) {
        const local = nameOf(x.local)
        const name = nameOf(x.exported) ?? local
        if (local === undefined || name === undefined) return undefined
        named.set(name, [...(named.get(name) ?? []), { id: edge.id, wanted: new Set([local]) }])
      }
  }
  return (name: string): ReadonlyArray<Edge> =>
    named.get(name) ?? stars.map((edge) => ({ id: edge.id, wanted: new Set([name]) }))
}

/**
 * One file per stage of the entry (ENTRY_STAGE_ROOTS: React, then the app's start) and of the live chunk, in that
 * order. Left to itself, Rollup gives every set of importers its own chunk, so the
 * stages' graph came as about 30 files, half of them under 0.5 kB: each file is compressed on its own (gzip starts
 * over) and names what it imports and exports (bench:app --fetched: 39 files before, 15 after). Here each module that
 * a stage's root reaches by static imports goes into the file of the first stage that reaches it, and the modules the
 * entry (main.tsx) reaches stay in the entry's file, which must be named too: Rollup adds the unnamed static
 * dependencies of a named chunk to it, so React would otherwise move into a stage. Every stage's modules are loaded on
 * every first visit anyway (islands.tsx), so nothing loads earlier than before, and a stage's file imports only the
 * entry's and earlier stages' files. Modules that only lazy code reaches are left to Rollup.
 * A name taken from a module that only re-exports (`import { Effect } from "effect"`) reaches the module that holds
 * it, not the whole index: through the index, a stage would hold every module of `effect` and `@effect/platform` that
 * any lazy chunk uses (the HTTP client, FiberHandle), and the first screen would load them.
 * Effect's stages (runtime/stages/*.ts) import its modules by path: through the `effect` index, the first stage would
 * reach, and hold, all of Effect, and the later stages could no longer evaluate in tasks of their own.
 */
export const liveStageChunks = (
  root: string,
  roots: ReadonlyArray<string> = [...ENTRY_STAGE_ROOTS, ...LIVE_STAGE_ROOTS],
  files: Readonly<Record<string, string>> = LIVE_STAGE_FILES
) => {
  let chunkOf: Map<string, string> | undefined
  const assign = (info: ModuleInfoOf) => {
    const barrels = new Map<string, ReturnType<typeof barrelOf>>()
    const reached = (from: string, taken: ReadonlySet<string>) => {
      const found = new Set<string>()
      const whole = new Set<string>()
      const namesSeen = new Map<string, Set<string>>()
      const stack: Array<Edge> = [{ id: from, wanted: "all" }]
      while (stack.length > 0) {
        const { id, wanted } = stack.pop()!
        if (whole.has(id)) continue
        const module = info(id)
        if (module === null) continue
        if (!barrels.has(id)) barrels.set(id, barrelOf(module))
        const barrel = barrels.get(id)
        if (barrel !== undefined && wanted !== "all") {
          // An index: only what the names reach. The index itself is left to Rollup, which would add to its file every
          // module that any chunk takes through it.
          const seen = namesSeen.get(id) ?? new Set<string>()
          namesSeen.set(id, seen)
          for (const name of wanted)
            if (!seen.has(name)) {
              seen.add(name)
              stack.push(...barrel(name))
            }
          continue
        }
        if (taken.has(id)) continue
        whole.add(id)
        found.add(id)
        stack.push(...edgesOf(module))
      }
      return found
    }
    const idOf = (path: string) => {
      const id = `${root}/${path}`
      if (info(id) === null) throw new Error(`hswap:live-stage-chunks: ${path} is not in the build's graph`)
      return id
    }
    const taken = reached(idOf("src/app/main.tsx"), new Set())
    const chunks = new Map<string, string>()
    for (const id of taken) chunks.set(id, "index")
    for (const path of roots) {
      const name = stageFileName(path, files)
      for (const id of reached(idOf(path), taken)) {
        chunks.set(id, name)
        taken.add(id)
      }
    }
    return chunks
  }
  return (id: string, meta: { readonly getModuleInfo: ModuleInfoOf }): string | undefined =>
    (chunkOf ??= assign(meta.getModuleInfo)).get(id)
}

/**
 * The minifier's settings (also used by bench:app for the anchor's comparison build). ES modules, so top-level names
 * may be mangled; two compress passes. No "unsafe" transforms.
 */
export const TERSER_OPTIONS = {
  module: true,
  toplevel: true,
  ecma: 2020,
  compress: { passes: 2 },
  format: { comments: false }
} as const

/**
 * The stages whose files ask V8 to compile every function as the file is loaded (the explicit compile hint, a magic
 * comment on the file's first line, Chromium 136 and later; other engines read a comment). V8 otherwise compiles each
 * function on its first call, on the main thread, in the middle of the module's evaluation. The hint's compile is one
 * task of its own, which no yield point cuts; without it a lazy function's compile falls in its module's slice.
 * - The app's start (the router, the shell): TBT medians 152 → 110 ms and 160 → 77 ms (interleaved loads at 4× on
 *   bench:app's static server, 10 each). Under `--trace`, none of the start hinted and no file hinted gave 617, 1226
 *   and 907 ms of blocking after FCP, the start hinted 522, 688 and 548 ms.
 * - The Effect stage's file carried it until the yield points cut its evaluation: its compile was then a task of 38–106
 *   ms under tracing (5 ms without the hint) and 150–340 ms in plain loads (long-animation-frame entries). TBT medians
 *   with and without its hint 356 → 266 ms (means 431 → 342 ms, 12 interleaved loads each, body points in both).
 * React's stage defines far more than it calls at load, and with the hint its task grew; hinting every live stage
 * gave no clear change.
 */
export const EAGER_COMPILE_STAGES: ReadonlyArray<string> = ["start"]
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad"

/**
 * Puts the compile hint on the first line of the EAGER_COMPILE_STAGES' files, once the minifier is done with them, and
 * moves their source maps down a line to match.
 */
export const compileHints = (): Plugin =>
  rewriteStageFiles("hswap:compile-hints", EAGER_COMPILE_STAGES, (code) => ({
    code: `${COMPILE_HINT}\n${code}`,
    mappings: (mappings) => `;${mappings}`
  }))

/**
 * A plugin that rewrites the files of the named stages once the minifier is done with them: `rewrite` gives each
 * file's new code, and how its source map's mappings change to match.
 */
const rewriteStageFiles = (
  name: string,
  stages: ReadonlyArray<string>,
  rewrite: (
    code: string,
    fileName: string
  ) => { readonly code: string; readonly mappings: (mappings: string) => string }
): Plugin => {
  const rewrites = (chunk: { readonly isEntry: boolean; readonly name: string }) =>
    !chunk.isEntry && stages.includes(chunk.name)
  return {
    name,
    apply: "build",
    // A file's name is hashed before this rewrite: the rewrite's own code goes into the hash, so a file rewritten
    // differently (a plugin added, or its rewrite changed) gets a new name and no cache serves the old content under it.
    augmentChunkHash(chunk) {
      return rewrites(chunk) ? `${name}:${rewrite.toString()}` : undefined
    },
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !rewrites(chunk)) continue
          const rewritten = rewrite(chunk.code, chunk.fileName)
          chunk.code = rewritten.code
          const mapFile = chunk.sourcemapFileName === null ? undefined : bundle[chunk.sourcemapFileName]
          if (mapFile?.type === "asset" && typeof mapFile.source === "string") {
            const map = JSON.parse(mapFile.source) as { mappings: string }
            mapFile.source = JSON.stringify({ ...map, mappings: rewritten.mappings(map.mappings) })
          }
        }
      }
    }
  }
}

/**
 * React DOM's client is one CommonJS module (200 kB minified), which the CommonJS plugin wraps in a function that the
 * React stage's file calls once, as it evaluates. V8 compiles a function on its first call: that whole body was
 * parsed and compiled in the middle of the stage's evaluation, one task of 130–350 ms at 4× slowdown after the first
 * paint (long-animation-frame entries of `react.js (module-script)`). The build puts that function in parentheses, so
 * V8 compiles it with the file (its rule for a function expression called at once), which index.html requests ahead
 * of the paint (entryStagePreloads); the stage's evaluation is then the body's run only. Only the wrapper: the
 * functions inside it still compile on their first call (with the compile hint on the whole file, its task grew).
 * Interleaved loads on bench:app's static server, 12 each at 4×: TBT median 221 → 109 ms (mean 229 → 104 ms), React's
 * evaluation counted after FCP in 5 loads of 12 before and 1 after; FCP medians 1150 and 1218 ms (means 1163 and 1153).
 */
export const EAGER_WRAPPER_STAGES: ReadonlyArray<string> = ["react"]

/** The largest function expression called where it stands (`function(){…}()`), in `code`'s syntax tree. */
export const largestCalledFunction = (code: string): { readonly start: number; readonly end: number } | undefined => {
  let best: { start: number; end: number } | undefined
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!isNode(node)) return
    const callee = node.type === "CallExpression" ? node.callee : undefined
    if (isNode(callee) && callee.type === "FunctionExpression") {
      const { start, end } = callee
      if (
        typeof start === "number" &&
        typeof end === "number" &&
        (best === undefined || end - start > best.end - best.start)
      )
        best = { start, end }
    }
    for (const [key, value] of Object.entries(node)) if (key !== "type" && typeof value === "object") walk(value)
  }
  walk(parseAst(code))
  return best
}

/**
 * `mappings` (a source map's) with the generated columns moved for text inserted into the code: `inserted` lists
 * where (offsets into the code before the insertion, in order) and how many characters.
 */
export const mappingsWithInsertions = (
  code: string,
  mappings: string,
  inserted: ReadonlyArray<{ readonly at: number; readonly length: number }>
): string => {
  const lines = decode(mappings)
  for (const { at, length } of [...inserted].reverse()) {
    const line = code.slice(0, at).split("\n").length - 1
    const column = at - (code.lastIndexOf("\n", at - 1) + 1)
    for (const segment of lines[line] ?? []) if (segment[0] >= column) segment[0] += length
  }
  return encode(lines)
}

/** Puts the largest called function of each EAGER_WRAPPER_STAGES file in parentheses, and moves its source map to match. */
export const eagerWrappers = (): Plugin =>
  rewriteStageFiles("hswap:eager-wrappers", EAGER_WRAPPER_STAGES, (code, fileName) => {
    const fn = largestCalledFunction(code)
    if (fn === undefined) throw new Error(`hswap:eager-wrappers: ${fileName} has no function called where it stands`)
    const inserted = [
      { at: fn.start, length: 1 },
      { at: fn.end, length: 1 }
    ]
    return {
      code: `${code.slice(0, fn.start)}(${code.slice(fn.start, fn.end)})${code.slice(fn.end)}`,
      mappings: (mappings) => mappingsWithInsertions(code, mappings, inserted)
    }
  })

/**
 * Radix UI's published modules wrap each function in `__name(fn, "fn")` (their bundler's keepNames), which sets
 * `fn.name` at load. Nothing here reads those names, so the helper becomes the identity and the minifier drops the calls.
 */
const radixWithoutKeepNames = (): Plugin => ({
  name: "hswap:radix-without-keep-names",
  apply: "build",
  transform(code, id) {
    if (!id.includes("/node_modules/@radix-ui/")) return null
    const helper = /var __name = \(target, value\) => __defProp\(target, "name", \{ value, configurable: true \}\);/
    if (!helper.test(code)) return null
    return { code: code.replace(helper, "var __name = (target, _value) => target;"), map: null }
  }
})

/**
 * Effect's fiber runtime can run a `Micro` effect yielded inside an `Effect` (its "Micro" instruction), so it imports
 * the whole Micro runtime (about 1.8 kB gzip on the first screen). Nothing in hSwap builds a Micro. The build gives that
 * instruction a stand-in whose `runFork` throws, so a Micro yielded by mistake dies with this message instead of
 * running; everything else in the fiber runtime is untouched. Fails the build if effect's module changes shape.
 */
export const MICRO_LEFT_OUT =
  "hSwap's build leaves out effect/Micro (vite.config.ts withoutMicro): a Micro cannot run here"
export const withoutMicro = (): Plugin => ({
  name: "hswap:without-micro",
  apply: "build",
  transform(code, id) {
    // A virtual module (a "\0" id, such as a yield-point stand-in named after this file) is not the file itself.
    if (
      id.startsWith("\0") ||
      !/\/node_modules\/effect\/dist\/esm\/internal\/fiberRuntime\.js$/.test(id.split("?")[0] ?? "")
    )
      return null
    const line = 'import * as Micro from "../Micro.js";'
    // The import once, and one use: `Micro.runFork(Micro.provideContext(op, this.currentContext))`.
    if (code.split(line).length !== 2 || code.replace(line, "").split("Micro.").length !== 3)
      throw new Error("hswap:without-micro: effect's internal/fiberRuntime.js no longer uses Micro as expected")
    const standIn = `const Micro = { provideContext: (micro) => micro, runFork: () => { throw new Error(${JSON.stringify(MICRO_LEFT_OUT)}) } };`
    return { code: code.replace(line, standIn), map: null }
  }
})

/**
 * Yield points: where a stage's evaluation may let the browser have its turn (DESIGN §6, total blocking time). A
 * dynamic import evaluates its whole graph in one task, and the stages (runtime/inStages.ts) cut the graph only where a
 * stage's own file begins: the Effect stage still took one task of 150–230 ms at 4× slowdown (bench:app, blocked after
 * FCP), and the app's configuration stages 100–150 ms each. So each larger module of the app's graph (YIELD_POINT_CHARS
 * of code and more, comments aside) gets one more import, last: a module of its own, `await yieldIfLate()`. It
 * evaluates after the module's other imports and before its body, and where the task has run for its slice, the rest
 * of the evaluation goes on in a later task. In the built file the point is one top-level `await`, which holds the rest
 * of the file, as the modules of a file run in order. The entry's own modules get none (the entry must not wait), nor
 * do React's (one CommonJS module each, nothing to cut between), other CommonJS modules, indexes, or the modules of the
 * prerender (another environment).
 * A point cuts the evaluation, not a file's compile (compileHints). Between modules only, one module's body ran whole;
 * the body points below cut the larger ones too.
 * Under `bench:app --trace` the Effect stage's evaluation went from one task to slices under 50 ms; at 1500 characters
 * and a 15 ms slice, the Effect stage's file had about 55 points for 0.1 kB gzip. With the body points, the first
 * visit's files hold about 150 more, for 0.17 kB gzip more.
 */
export const YIELD_POINT_PREFIX = "hswap-yield-point:"
export const YIELD_POINT_CHARS = 1500
/**
 * Points inside a module's body too: one module's body runs whole between two points, and a module that builds many
 * Schemas as it loads (Effect's Schema.js, the app's schema modules) took one task of 60–230 ms at 4× slowdown (bench:app,
 * blocked after FCP, under a CPU profile). Before a top-level statement that does work as it loads, once the statements
 * since the last point made BODY_POINT_CALLS calls or more (calls and `new`s outside function bodies), the build adds
 * `await yieldIfLate()`. Statements that only define functions count nothing, so a module of functions gets none.
 */
export const BODY_POINT_CALLS = 16
/**
 * A smaller module gets its point too when it does this much as it loads: the toolkit's errors (15 calls: Schema's
 * tagged errors) were a task of their own of 100 ms under a CPU profile at 4×, at 1.1 kB of code.
 */
export const BUSY_MODULE_CALLS = 8
/** The local name of `yieldIfLate` in a module with body points. */
export const BODY_POINT_NAME = "__hswapYieldIfLate"

interface SyntaxNode {
  readonly type: string
  readonly static?: boolean
  readonly [key: string]: unknown
}
const isNode = (x: unknown): x is SyntaxNode =>
  typeof x === "object" && x !== null && typeof (x as { type?: unknown }).type === "string"
const FUNCTION_NODES = new Set(["FunctionExpression", "ArrowFunctionExpression", "FunctionDeclaration"])
const CALL_NODES = new Set(["CallExpression", "NewExpression", "TaggedTemplateExpression"])

/** The calls a statement makes as its module loads: those in function bodies and methods wait for a call. */
export const callsAtLoad = (node: unknown): number => {
  if (Array.isArray(node)) return node.reduce((sum: number, x) => sum + callsAtLoad(x), 0)
  if (!isNode(node) || FUNCTION_NODES.has(node.type)) return 0
  if (node.type === "MethodDefinition" || (node.type === "PropertyDefinition" && node.static !== true)) return 0
  let n = CALL_NODES.has(node.type) ? 1 : 0
  for (const [key, value] of Object.entries(node))
    if (key !== "type" && typeof value === "object" && value !== null) n += callsAtLoad(value)
  return n
}

/** Where in `code` (offsets of top-level statements) a body point goes. */
export const bodyPointOffsets = (code: string): ReadonlyArray<number> => {
  const offsets: Array<number> = []
  let since = 0
  let first = true
  // Imports and re-exports run nothing of the module's own.
  for (const statement of (bodyOf(parseAst(code)) ?? []).filter((s) => !isFrom(s))) {
    const calls = callsAtLoad(statement)
    // The module's own point (the import below) comes before its first statement.
    if (!first && calls > 0 && since >= BODY_POINT_CALLS && statement.start !== undefined) {
      offsets.push(statement.start)
      since = 0
    }
    first = false
    since += calls
  }
  return offsets
}
const IN_STAGES = "src/app/runtime/inStages.ts"
/** Modules never cut before: the entry's graph, which the yield points import, and React's, evaluated whole. */
const WITHOUT_YIELD_POINT = [
  /\/src\/app\/main\.tsx$/,
  /\/src\/app\/runtime\/inStages\.ts$/,
  /\/src\/app\/shell\/(earlyClicks|entryLoader|firstPaint|loadFailure)\.ts$/,
  /\/node_modules\/(react|react-dom|scheduler)\//
]
/** Re-exports (`export * from`, `export * as X from`, `export { a } from`): an index that holds only these runs nothing. */
const RE_EXPORT = /export\s*(\*(\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["'][^"']*["'];?/g
const COMMONJS = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.[\w$]+\s*=|\bexports\[/
export const wantsYieldPoint = (id: string, code: string): boolean => {
  if (id.startsWith("\0") || id.includes("?") || !/\.(m?js|tsx?)$/.test(id)) return false
  if (WITHOUT_YIELD_POINT.some((pattern) => pattern.test(id))) return false
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
  // A CommonJS module (use-sync-external-store's shim, say) with an import of its own would read as an ES module to
  // the CommonJS plugin, which then leaves its `require` calls as they are.
  if (COMMONJS.test(withoutComments)) return false
  // An index is left as it is: liveStageChunks reads it as one (barrelOf) only while it holds nothing but re-exports.
  if (withoutComments.replace(RE_EXPORT, "").trim() === "") return false
  return withoutComments.length >= YIELD_POINT_CHARS || callsAtLoad(parseAst(code).body) >= BUSY_MODULE_CALLS
}

export const yieldPoints = (): Plugin => {
  let root = process.cwd()
  return {
    name: "hswap:yield-points",
    apply: "build",
    configResolved(config) {
      root = config.root
    },
    resolveId(id) {
      return id.startsWith(YIELD_POINT_PREFIX) ? `\0${id}` : null
    },
    load(id) {
      if (!id.startsWith(`\0${YIELD_POINT_PREFIX}`)) return null
      return `import { yieldIfLate } from ${JSON.stringify(`${root}/${IN_STAGES}`)}\nawait yieldIfLate()\n`
    },
    transform(code, id) {
      if (this.environment.name !== "client" || !wantsYieldPoint(id, code)) return null
      const point = `${YIELD_POINT_PREFIX}${id.startsWith(`${root}/`) ? id.slice(root.length + 1) : id}`
      // Each body point goes in where its statement starts, on its line, and the imports are appended: no line moves,
      // so the module's source map stays as it was (a column on a point's line shifts).
      const offsets = bodyPointOffsets(code)
      let out = code
      for (const at of [...offsets].reverse()) out = `${out.slice(0, at)};await ${BODY_POINT_NAME}();${out.slice(at)}`
      const own =
        offsets.length === 0
          ? ""
          : `\nimport { yieldIfLate as ${BODY_POINT_NAME} } from ${JSON.stringify(`${root}/${IN_STAGES}`)};`
      return { code: `${out}${own}\nimport ${JSON.stringify(point)};\n`, map: null }
    }
  }
}

/**
 * Vite wraps every dynamic import in its preload helper (`__vitePreload`), `modulePreload: false` or not; the lists it
 * passes then hold only the CSS files of the chunk imported (vitejs/vite#13952, #18551). This app has one stylesheet,
 * which index.html links, so every list is empty, and the helper (0.3 kB gzip in the entry) did nothing but dispatch
 * `vite:preloadError` on a failed import, which nothing here listens to: a failed import rejects as it did (main.tsx,
 * islands.tsx). The build gives the helper a body that only imports, and fails if a lazily loaded chunk ever brings
 * CSS of its own, which the full helper would have loaded.
 */
export const PRELOAD_HELPER_ID = "\0vite/preload-helper.js"
export const SLIM_PRELOAD_HELPER = "export const __vitePreload = (load) => load()\n"
export const slimPreloadHelper = (): Plugin => ({
  name: "hswap:slim-preload-helper",
  apply: "build",
  enforce: "pre",
  load(id) {
    return id === PRELOAD_HELPER_ID ? { code: SLIM_PRELOAD_HELPER, moduleSideEffects: false } : null
  },
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== "chunk" || chunk.isEntry) continue
      const css = [...(chunk.viteMetadata?.importedCss ?? [])]
      if (css.length > 0)
        this.error(
          `hswap:slim-preload-helper: ${chunk.fileName} brings CSS of its own (${css.join(", ")}), which the slim preload helper does not load`
        )
    }
  }
})

/**
 * TanStack's store selects through use-sync-external-store's shim, which stands in for React's own
 * useSyncExternalStore before React 18 and only re-exports it after. The package's selector module without the shim
 * uses React's at once: the same hook, without the stand-in's code in the first visit (0.2 kB gzip, bench:app
 * --fetched).
 */
export const SELECTOR_WITHOUT_SHIM = {
  find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
  replacement: "use-sync-external-store/with-selector.js"
}

export default defineConfig({
  plugins: [
    // The router plugin must come before react(); the generated tree is committed.
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: "src/app/routes",
      generatedRouteTree: "src/app/routeTree.gen.ts",
      quoteStyle: "double",
      semicolons: false
    }),
    react(),
    tailwindcss(),
    radixWithoutKeepNames(),
    withoutMicro(),
    yieldPoints(),
    slimPreloadHelper(),
    prerenderPages(),
    entryAfterMarkup(),
    liveChunkList(),
    eagerWrappers(),
    compileHints()
  ],
  resolve: { alias: [SELECTOR_WITHOUT_SHIM] },
  build: {
    outDir: "dist",
    sourcemap: true,
    target: "es2022",
    // terser after Vite's transform: about 4% fewer gzip bytes than esbuild's minifier on this app (bench:app).
    minify: "terser",
    terserOptions: TERSER_OPTIONS,
    // No preload helper: Vite wraps every dynamic import in a helper that requests the chunk's own imports alongside it
    // (and lists them in each importing file), and ships a polyfill. On the first visit the files that matter are
    // requested by index.html (entryStagePreloads) and by the app's own list (liveChunkList); a lazy chunk (a route, a
    // dialog, the connect panel) is asked for on intent or on idle, and its browser requests its imports as it parses
    // it. The helper, its lists and the polyfill were 1.6 kB gzip of the first visit (bench:app --fetched).
    modulePreload: false,
    rollupOptions: {
      output: {
        manualChunks: liveStageChunks(import.meta.dirname),
        // Only the modules liveStageChunks names go into the stages' files. By default Rollup adds every static
        // dependency of a named chunk's modules to it, including what lazy chunks take through an index that a stage
        // also imports: the HTTP client and FiberHandle rode in the first screen's files that way (with the walk through
        // indexes, −5.1 kB gzip fetched by /).
        onlyExplicitManualChunks: true
      }
    }
  },
  // `npm run dev` serves the app with hot reload; the local stack's paths go to a running `npm start`
  // (DEVNET_URL, default http://127.0.0.1:8080).
  server: {
    host: "127.0.0.1",
    port: 5173,
    proxy: Object.fromEntries(
      ["/gateway", "/api", "/relay", "/devnet"].map((prefix) => [
        prefix,
        { target: process.env.DEVNET_URL ?? "http://127.0.0.1:8080", changeOrigin: true }
      ])
    )
  },
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    environment: "node",
    testTimeout: 20_000,
    setupFiles: ["test/setup.ts"]
  }
})
