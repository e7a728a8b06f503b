import { bodyOf, isFrom, nameOf, type StatementNode } from "./syntax"
import { ENTRY_STAGE_ROOTS, LIVE_STAGE_FILES, LIVE_STAGE_ROOTS, stageFileName } from "./stages"

/** Rollup's `getModuleInfo`, as far as this reads it. */
export type ModuleInfoOf = (id: string) => {
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
 * What it saves (bench:app --fetched, exact gzip bytes, against `HSWAP_BUILD_WITHOUT=liveStageChunks,eagerWrappers,
 * compileHints`, as those two rewrite stage files by name, beside a build without those two alone): JS fetched by / in
 * its first 10 s 257,252 → 247,215 B (−10,037 B; 68 files → 14); initial JS 107,545 → 102,779 B (−4,766 B).
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
