import { describe, expect, it } from "vitest"
import { COMPILE_HINT, compileHints, EAGER_COMPILE_STAGES } from "../../build/compileHints"
import { ENTRY_STAGE_ROOTS, LIVE_STAGE_ROOTS, stageFileName } from "../../build/stages"

interface FakeChunk {
  type: "chunk"
  name: string
  isEntry: boolean
  code: string
  sourcemapFileName: string | null
}
interface FakeAsset {
  type: "asset"
  source: string
}

const chunk = (name: string, code: string, map: boolean, isEntry = false): FakeChunk => ({
  type: "chunk",
  name,
  isEntry,
  code,
  sourcemapFileName: map ? `assets/${name}-x.js.map` : null
})
const mapOf = (mappings: string): FakeAsset => ({
  type: "asset",
  source: JSON.stringify({ version: 3, sources: ["a.ts"], names: [], mappings })
})

const generate = (bundle: Record<string, FakeChunk | FakeAsset>) => {
  const hook = compileHints().generateBundle
  const handler = typeof hook === "function" ? hook : hook?.handler
  if (handler === undefined) throw new Error("compileHints has no generateBundle hook")
  handler.call({} as never, {} as never, bundle as never, false)
}

describe("build: the compile hint on the start's file (build/compileHints.ts)", () => {
  it("puts the hint on the first line of each named stage's file and moves its source map down a line", () => {
    const bundle = {
      "assets/start-x.js": chunk("start", 'import{a}from"./data-x.js";a()', true),
      "assets/start-x.js.map": mapOf("AAAA,CAAC"),
      "assets/schema-x.js": chunk("schema", "export const s=1", true),
      "assets/effect-x.js": chunk("effect", "export const e=1", false),
      "assets/schema-x.js.map": mapOf("AAAA"),
      "assets/index-x.js": chunk("start", "entry()", false, true)
    }
    generate(bundle)
    expect(bundle["assets/start-x.js"].code).toBe(`${COMPILE_HINT}\nimport{a}from"./data-x.js";a()`)
    expect(JSON.parse(bundle["assets/start-x.js.map"].source).mappings).toBe(";AAAA,CAAC")
    // Every other file, and an entry whatever its name, as it was.
    expect(bundle["assets/schema-x.js"].code).toBe("export const s=1")
    expect(JSON.parse(bundle["assets/schema-x.js.map"].source).mappings).toBe("AAAA")
    expect(bundle["assets/effect-x.js"].code).toBe("export const e=1")
    expect(bundle["assets/index-x.js"].code).toBe("entry()")
  })

  it("hints a file without a source map too", () => {
    const bundle = { "assets/start-x.js": chunk("start", "a()", false) }
    generate(bundle)
    expect(bundle["assets/start-x.js"].code).toBe(`${COMPILE_HINT}\na()`)
  })

  it("names only files the build has: the entry's or the live chunk's stages", () => {
    const stages = [...ENTRY_STAGE_ROOTS, ...LIVE_STAGE_ROOTS].map((p) => stageFileName(p))
    for (const name of EAGER_COMPILE_STAGES) expect(stages).toContain(name)
    // The Effect stage's evaluation is cut by yield points; its hinted compile was one long task no point cuts.
    expect(EAGER_COMPILE_STAGES).toEqual(["start"])
  })
})
