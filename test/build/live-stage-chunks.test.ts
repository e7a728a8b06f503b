import { readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { liveStageChunks } from "../../build/liveStageChunks"
import { ENTRY_STAGE_ROOTS, LIVE_STAGE_ROOTS } from "../../build/stages"

const ROOT = "/app"

/** A module graph of static imports, paths relative to ROOT. */
const graphOf = (edges: Record<string, ReadonlyArray<string>>) => {
  const ids = new Map(Object.entries(edges).map(([from, to]) => [`${ROOT}/${from}`, to.map((t) => `${ROOT}/${t}`)]))
  return (id: string) => {
    const importedIds = ids.get(id)
    return importedIds === undefined ? null : { importedIds }
  }
}

/** A statement of a module's syntax tree (ESTree, as Rollup's `ModuleInfo.ast`) that names a source. */
interface Name {
  readonly type: string
  readonly name: string
}
interface Statement {
  readonly type: string
  readonly source: { readonly type: "Literal"; readonly value: string }
  readonly specifiers?: ReadonlyArray<{
    readonly type: string
    readonly imported?: Name
    readonly local?: Name
    readonly exported?: Name
  }>
  readonly exported?: Name | null
}
const literal = (path: string) => ({ type: "Literal" as const, value: path })
const identifier = (name: string) => ({ type: "Identifier", name })
const importFrom = (path: string, names: ReadonlyArray<string>): Statement => ({
  type: "ImportDeclaration",
  source: literal(path),
  specifiers: names.map((name) => ({ type: "ImportSpecifier", imported: identifier(name), local: identifier(name) }))
})
const importNamespace = (path: string): Statement => ({
  type: "ImportDeclaration",
  source: literal(path),
  specifiers: [{ type: "ImportNamespaceSpecifier", local: identifier("ns") }]
})
const importBare = (path: string): Statement => ({ type: "ImportDeclaration", source: literal(path), specifiers: [] })
const exportFrom = (path: string, names: ReadonlyArray<string>): Statement =>
  exportNamesFrom(
    path,
    names.map((name) => [name, name])
  )
/** `export { local as exported } from "path"` */
const exportNamesFrom = (path: string, pairs: ReadonlyArray<readonly [string, string]>): Statement => ({
  type: "ExportNamedDeclaration",
  source: literal(path),
  specifiers: pairs.map(([local, exported]) => ({
    type: "ExportSpecifier",
    local: identifier(local),
    exported: identifier(exported)
  }))
})
const exportAllAs = (path: string, name: string): Statement => ({
  type: "ExportAllDeclaration",
  source: literal(path),
  exported: identifier(name)
})
const exportAll = (path: string): Statement => ({ type: "ExportAllDeclaration", source: literal(path), exported: null })

/**
 * A module graph with syntax trees: each module's statements name their sources by path relative to ROOT (the tree
 * keeps the path as written; `importedIds` has the resolved ids, in the order the sources first appear).
 */
const astGraphOf = (modules: Record<string, ReadonlyArray<Statement>>) => (id: string) => {
  const body = modules[id.slice(ROOT.length + 1)]
  if (body === undefined) return null
  const importedIds = [...new Set(body.map((s) => s.source.value))].map((path) => `${ROOT}/${path}`)
  return { importedIds, ast: { body } }
}

const assignAll = (
  edges: Record<string, ReadonlyArray<string>>,
  roots: ReadonlyArray<string>,
  files: Record<string, string> = {}
): Record<string, string | undefined> => {
  const chunkOf = liveStageChunks(ROOT, roots, files)
  const getModuleInfo = graphOf(edges)
  return Object.fromEntries(Object.keys(edges).map((path) => [path, chunkOf(`${ROOT}/${path}`, { getModuleInfo })]))
}

describe("build: one file per stage of the live chunk (build/liveStageChunks.ts)", () => {
  it("puts each module in the first stage that reaches it, keeps the entry's in the entry's file, leaves lazy-only modules to Rollup", () => {
    const chunks = assignAll(
      {
        "src/app/main.tsx": ["node_modules/react/index.js", "src/app/shell/views.tsx"],
        "node_modules/react/index.js": [],
        "src/app/shell/views.tsx": ["node_modules/react/index.js"],
        "src/stages/a.ts": ["node_modules/effect/Option.js"],
        "node_modules/effect/Option.js": [],
        "src/stages/b.ts": ["node_modules/effect/Option.js", "src/format.ts", "node_modules/react/index.js"],
        "src/format.ts": ["node_modules/effect/Option.js"],
        "src/live.tsx": ["src/format.ts", "src/app/shell/views.tsx", "src/toast.tsx"],
        "src/toast.tsx": [],
        // Only a dynamic import reaches it: not in the static graph of any root.
        "src/lazy/Dialog.tsx": ["src/format.ts"]
      },
      ["src/stages/a.ts", "src/stages/b.ts", "src/live.tsx"]
    )
    expect(chunks).toEqual({
      "src/app/main.tsx": "index",
      "node_modules/react/index.js": "index",
      "src/app/shell/views.tsx": "index",
      "src/stages/a.ts": "a",
      "node_modules/effect/Option.js": "a",
      "src/stages/b.ts": "b",
      "src/format.ts": "b",
      "src/live.tsx": "live",
      "src/toast.tsx": "live",
      "src/lazy/Dialog.tsx": undefined
    })
  })

  it("follows a name taken from an index to the module that holds it, and leaves the index and its other modules to Rollup", () => {
    const chunkOf = liveStageChunks(ROOT, ["src/stages/a.ts", "src/live.tsx"], {})
    const getModuleInfo = astGraphOf({
      "src/app/main.tsx": [],
      // import { Option } from "effect"
      "src/stages/a.ts": [importFrom("node_modules/effect/index.js", ["Option"])],
      // import { Stream, pipe as p } from "effect"; export { Duration } from "effect"
      "src/live.tsx": [
        importFrom("node_modules/effect/index.js", ["Stream", "pipe"]),
        exportFrom("node_modules/effect/index.js", ["Duration"])
      ],
      "node_modules/effect/index.js": [
        exportAllAs("node_modules/effect/Option.js", "Option"),
        exportAllAs("node_modules/effect/Stream.js", "Stream"),
        exportAllAs("node_modules/effect/Duration.js", "Duration"),
        exportAllAs("node_modules/effect/FiberHandle.js", "FiberHandle"),
        exportNamesFrom("node_modules/effect/Function.js", [["pipe", "pipe"]]),
        exportAll("node_modules/effect/More.js")
      ],
      "node_modules/effect/Option.js": [importFrom("node_modules/effect/internal/option.js", ["make"])],
      "node_modules/effect/internal/option.js": [],
      "node_modules/effect/Stream.js": [importFrom("node_modules/effect/Option.js", ["none"])],
      "node_modules/effect/Duration.js": [],
      "node_modules/effect/FiberHandle.js": [],
      "node_modules/effect/Function.js": [],
      "node_modules/effect/More.js": []
    })
    const chunks = Object.fromEntries(
      [
        "node_modules/effect/index.js",
        "node_modules/effect/Option.js",
        "node_modules/effect/internal/option.js",
        "node_modules/effect/Stream.js",
        "node_modules/effect/Duration.js",
        "node_modules/effect/FiberHandle.js",
        "node_modules/effect/Function.js",
        "node_modules/effect/More.js"
      ].map((path) => [path, chunkOf(`${ROOT}/${path}`, { getModuleInfo })])
    )
    expect(chunks).toEqual({
      "node_modules/effect/index.js": undefined,
      "node_modules/effect/Option.js": "a",
      "node_modules/effect/internal/option.js": "a",
      "node_modules/effect/Stream.js": "live",
      "node_modules/effect/Duration.js": "live",
      // Only a lazy chunk takes it through the index.
      "node_modules/effect/FiberHandle.js": undefined,
      "node_modules/effect/Function.js": "live",
      "node_modules/effect/More.js": undefined
    })
  })

  it("takes a whole index on a namespace import, a bare import or `export *`, and reaches a name it does not list through its `export *`", () => {
    const index = [
      exportAllAs("node_modules/lib/A.js", "A"),
      exportAllAs("node_modules/lib/B.js", "B"),
      exportAll("node_modules/lib/C.js")
    ]
    const leaves = { "node_modules/lib/A.js": [], "node_modules/lib/B.js": [], "node_modules/lib/C.js": [] }
    const assigned = (root: ReadonlyArray<Statement>) => {
      const chunkOf = liveStageChunks(ROOT, ["src/live.tsx"], {})
      const getModuleInfo = astGraphOf({
        "src/app/main.tsx": [],
        "src/live.tsx": root,
        "node_modules/lib/index.js": index,
        ...leaves
      })
      return Object.keys(leaves).filter((path) => chunkOf(`${ROOT}/${path}`, { getModuleInfo }) === "live")
    }
    const all = ["node_modules/lib/A.js", "node_modules/lib/B.js", "node_modules/lib/C.js"]
    expect(assigned([importNamespace("node_modules/lib/index.js")])).toEqual(all)
    expect(assigned([importBare("node_modules/lib/index.js")])).toEqual(all)
    expect(assigned([exportAll("node_modules/lib/index.js")])).toEqual(all)
    // Not one of the index's own names: it can only come through `export * from "./C.js"`.
    expect(assigned([importFrom("node_modules/lib/index.js", ["c"])])).toEqual(["node_modules/lib/C.js"])
  })

  it("counts every import whole when the syntax tree and Rollup's list of imports do not line up", () => {
    const chunkOf = liveStageChunks(ROOT, ["src/live.tsx"], {})
    const graph = astGraphOf({
      "src/app/main.tsx": [],
      "src/live.tsx": [importFrom("node_modules/lib/index.js", ["A"])],
      "node_modules/lib/index.js": [
        exportAllAs("node_modules/lib/A.js", "A"),
        exportAllAs("node_modules/lib/B.js", "B")
      ],
      "node_modules/lib/A.js": [],
      "node_modules/lib/B.js": []
    })
    // Rollup lists one more import than the tree shows (a helper a plugin added, say).
    const getModuleInfo = (id: string) => {
      const module = graph(id)
      return id === `${ROOT}/src/live.tsx` && module !== null
        ? { ...module, importedIds: [...module.importedIds, `${ROOT}/node_modules/lib/B.js`] }
        : module
    }
    expect(chunkOf(`${ROOT}/node_modules/lib/B.js`, { getModuleInfo })).toBe("live")
  })

  it("puts a stage that shares an earlier stage's file into that file", () => {
    const chunks = assignAll(
      {
        "src/app/main.tsx": [],
        "src/config.ts": ["src/networks.ts"],
        "src/networks.ts": [],
        "src/errors.ts": [],
        "src/live.tsx": ["src/errors.ts", "src/toast.tsx"],
        "src/toast.tsx": []
      },
      ["src/config.ts", "src/errors.ts", "src/live.tsx"],
      { "src/errors.ts": "config" }
    )
    expect(chunks).toEqual({
      "src/app/main.tsx": "index",
      "src/config.ts": "config",
      "src/networks.ts": "config",
      "src/errors.ts": "config",
      "src/live.tsx": "live",
      "src/toast.tsx": "live"
    })
  })

  it("fails the build when a stage's root is not in the graph", () => {
    const chunkOf = liveStageChunks(ROOT, ["src/stages/gone.ts"])
    const getModuleInfo = graphOf({ "src/app/main.tsx": [] })
    expect(() => chunkOf(`${ROOT}/src/app/main.tsx`, { getModuleInfo })).toThrow(
      "hswap:live-stage-chunks: src/stages/gone.ts is not in the build's graph"
    )
  })

  /**
   * The modules `file` (from the project root) imports in its `importInStages(` call, up to `end`, as paths from the
   * root without their extension.
   */
  const stagesImportedBy = (file: string, end: string) => {
    const path = resolve(import.meta.dirname, "../..", file)
    const source = readFileSync(path, "utf8")
    const start = source.indexOf("importInStages(")
    return [...source.slice(start, source.indexOf(end, start)).matchAll(/import\("([^"]+)"\)/g)].map((m) =>
      relative(resolve(import.meta.dirname, "../.."), join(dirname(path), m[1] ?? ""))
    )
  }
  const withoutExtension = (roots: ReadonlyArray<string>) => roots.map((root) => root.replace(/\.tsx?$/, ""))

  it("lists the stages in the order src/app/shell/islands.tsx imports them", () => {
    expect(stagesImportedBy("src/app/shell/islands.tsx", ")\n)")).toEqual(withoutExtension(LIVE_STAGE_ROOTS))
  })

  it("lists the entry's stages in the order src/app/main.tsx imports them after the first paint", () => {
    expect(stagesImportedBy("src/app/main.tsx", "\n")).toEqual(withoutExtension(ENTRY_STAGE_ROOTS))
  })
})
