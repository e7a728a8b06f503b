import { readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { LIVE_STAGE_ROOTS, liveStageChunks } from "../../vite.config"

const ROOT = "/app"

/** A module graph of static imports, paths relative to ROOT. */
const graphOf = (edges: Record<string, ReadonlyArray<string>>) => {
  const ids = new Map(Object.entries(edges).map(([from, to]) => [`${ROOT}/${from}`, to.map((t) => `${ROOT}/${t}`)]))
  return (id: string) => {
    const importedIds = ids.get(id)
    return importedIds === undefined ? null : { importedIds }
  }
}

const assignAll = (
  edges: Record<string, ReadonlyArray<string>>,
  roots: ReadonlyArray<string>
): Record<string, string | undefined> => {
  const chunkOf = liveStageChunks(ROOT, roots)
  const getModuleInfo = graphOf(edges)
  return Object.fromEntries(Object.keys(edges).map((path) => [path, chunkOf(`${ROOT}/${path}`, { getModuleInfo })]))
}

describe("build: one file per stage of the live chunk (vite.config.ts liveStageChunks)", () => {
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

  it("fails the build when a stage's root is not in the graph", () => {
    const chunkOf = liveStageChunks(ROOT, ["src/stages/gone.ts"])
    const getModuleInfo = graphOf({ "src/app/main.tsx": [] })
    expect(() => chunkOf(`${ROOT}/src/app/main.tsx`, { getModuleInfo })).toThrow(
      "hswap:live-stage-chunks: src/stages/gone.ts is not in the build's graph"
    )
  })

  it("lists the stages in the order src/app/shell/islands.tsx imports them", () => {
    const islands = resolve(import.meta.dirname, "../../src/app/shell/islands.tsx")
    const source = readFileSync(islands, "utf8")
    const list = source.slice(
      source.indexOf("importInStages("),
      source.indexOf(")\n})", source.indexOf("importInStages("))
    )
    const imported = [...list.matchAll(/import\("([^"]+)"\)/g)].map((m) => {
      const path = relative(resolve(import.meta.dirname, "../.."), join(dirname(islands), m[1] ?? ""))
      return LIVE_STAGE_ROOTS.find((root) => root.replace(/\.tsx?$/, "") === path) ?? path
    })
    expect(imported).toEqual([...LIVE_STAGE_ROOTS])
  })
})
