import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { transformSync } from "esbuild"
import { parseAst } from "vite"
import {
  BODY_POINT_CALLS,
  BODY_POINT_NAME,
  bodyPointOffsets,
  BUSY_MODULE_CALLS,
  callsAtLoad,
  wantsYieldPoint,
  YIELD_POINT_CHARS,
  YIELD_POINT_PREFIX,
  yieldPoints
} from "../../build/yieldPoints"

const ROOT = "/repo"
const esm = join(dirname(createRequire(import.meta.url).resolve("effect")), "..", "esm")
const real = (file: string) => ({ id: join(esm, file), code: readFileSync(join(esm, file), "utf8") })
const big = `export const table = ${JSON.stringify("x".repeat(YIELD_POINT_CHARS))}\n`

/** The plugin's hooks, called as Vite would, in the given environment. */
const plugin = () => {
  const p = yieldPoints()
  const hook = <T>(h: unknown): T => {
    const f = typeof h === "function" ? h : (h as { handler?: unknown } | undefined)?.handler
    if (typeof f !== "function") throw new Error("yieldPoints lacks a hook")
    return f as T
  }
  hook<(config: { root: string }) => void>(p.configResolved).call({} as never, { root: ROOT })
  return {
    transform: (code: string, id: string, environment = "client") =>
      hook<(code: string, id: string) => { code: string; map: null } | null>(p.transform).call(
        { environment: { name: environment } } as never,
        code,
        id
      ),
    resolveId: (id: string) => hook<(id: string) => string | null>(p.resolveId).call({} as never, id),
    load: (id: string) => hook<(id: string) => string | null>(p.load).call({} as never, id)
  }
}

describe("build: yield points between the larger modules of a stage (build/yieldPoints.ts)", () => {
  it("gives a point to a larger module of the app or of a package, counting code, not comments", () => {
    expect(wantsYieldPoint(`${ROOT}/src/gateway/schemas/spec.ts`, big)).toBe(true)
    const core = real("internal/core.js")
    expect(wantsYieldPoint(core.id, core.code)).toBe(true)
    // Small modules go on in the same slice.
    expect(wantsYieldPoint(`${ROOT}/src/app/brand.ts`, "export const NAME = 'hSwap'\n")).toBe(false)
    const comment = `/** ${"doc ".repeat(YIELD_POINT_CHARS)} */\n// ${"line ".repeat(YIELD_POINT_CHARS)}\nexport const a = 1\n`
    expect(wantsYieldPoint(`${ROOT}/src/a.ts`, comment)).toBe(false)
  })

  it("leaves alone an index of re-exports, the entry's own modules, React's, virtual modules and queries", () => {
    // effect's index only re-exports (liveStageChunks reads it as an index only as long as it does).
    const index = real("index.js")
    expect(index.code.length).toBeGreaterThan(YIELD_POINT_CHARS)
    expect(wantsYieldPoint(index.id, index.code)).toBe(false)
    for (const id of [
      `${ROOT}/src/app/main.tsx`,
      `${ROOT}/src/app/runtime/inStages.ts`,
      `${ROOT}/src/app/shell/earlyClicks.ts`,
      `${ROOT}/src/app/shell/loadFailure.ts`,
      `${ROOT}/node_modules/react-dom/cjs/react-dom-client.production.js`,
      `${ROOT}/node_modules/react/cjs/react.production.js`,
      `${ROOT}/node_modules/scheduler/cjs/scheduler.production.js`,
      `\0commonjsHelpers.js`,
      `${ROOT}/src/app/index.css?direct`,
      `${ROOT}/src/app/index.css`
    ])
      expect(wantsYieldPoint(id, big), id).toBe(false)
    // A CommonJS module, whatever its size: an import in it would make the CommonJS plugin leave its `require`s.
    const shimDir = dirname(createRequire(import.meta.url).resolve("use-sync-external-store/shim"))
    const shim = readFileSync(join(shimDir, "..", "cjs", "use-sync-external-store-shim.production.js"), "utf8")
    expect(shim.length).toBeGreaterThan(YIELD_POINT_CHARS)
    expect(wantsYieldPoint(`${ROOT}/node_modules/use-sync-external-store/cjs/shim.js`, shim)).toBe(false)
    for (const cjs of ["module.exports = x", "exports.a = 1", "const b = require('b')"])
      expect(wantsYieldPoint(`${ROOT}/node_modules/x/index.js`, `${big}${cjs}\n`), cjs).toBe(false)
  })

  it("appends the point as the module's last import, in the browser's build only, leaving the code before it", () => {
    const { transform } = plugin()
    const id = `${ROOT}/src/gateway/schemas/spec.ts`
    const out = transform(big, id)
    expect(out?.code.startsWith(big)).toBe(true)
    expect(out?.code.slice(big.length)).toBe(`\nimport "${YIELD_POINT_PREFIX}src/gateway/schemas/spec.ts";\n`)
    expect(out?.map).toBeNull()
    expect(transform(big, id, "ssr")).toBeNull()
    expect(transform("export const a = 1\n", id)).toBeNull()
  })

  it("makes each point a module of its own that awaits the loader's yieldIfLate", () => {
    const { resolveId, load } = plugin()
    const a = resolveId(`${YIELD_POINT_PREFIX}src/a.ts`)
    const b = resolveId(`${YIELD_POINT_PREFIX}src/b.ts`)
    expect(a).toBe(`\0${YIELD_POINT_PREFIX}src/a.ts`)
    // One module per point: a module runs once, so two points in one module would yield once.
    expect(b).not.toBe(a)
    expect(resolveId("./other.js")).toBeNull()
    expect(load(a ?? "")).toBe(
      `import { yieldIfLate } from "${ROOT}/src/app/runtime/inStages.ts"\nawait yieldIfLate()\n`
    )
    expect(load(`${ROOT}/src/a.ts`)).toBeNull()
  })

  it("counts the calls a statement makes as its module loads, not those in functions and methods", () => {
    const calls = (code: string) => callsAtLoad(parseAst(code).body)
    expect(calls("export const A = S.Struct({ a: S.String.pipe(S.minLength(1)) })")).toBe(3)
    expect(calls("const b = new Map([[1, f()]]); const t = tag`x`")).toBe(3)
    // Function bodies wait for a call; a class's `extends` and static fields run at load, its methods do not.
    expect(calls("export const f = (x) => g(h(x)); function k() { return m() }; const o = { p() { q() } }")).toBe(0)
    expect(
      calls("class E extends T('E')({ a: S.Number }) { static x = make(); y = other(); m() { return z() } }")
    ).toBe(3)
  })

  it("puts body points before the statements that do work, once enough calls have run since the last point", () => {
    // Two calls a statement, BODY_POINT_CALLS statements: one point, before the statement that finds enough run since.
    const statement = (i: number) => `export const S${i} = Schema.Struct(Schema.fields(${i}))\n`
    const code = `import * as Schema from "effect/Schema"\n${Array.from({ length: BODY_POINT_CALLS }, (_, i) => statement(i)).join("")}`
    expect(bodyPointOffsets(code)).toEqual([code.indexOf(`export const S${BODY_POINT_CALLS / 2} `)])
    // None before a statement that calls nothing, however much ran before it.
    const quiet = `${code}export const g = (x) => x\n`
    expect(bodyPointOffsets(quiet)).toEqual(bodyPointOffsets(code))
    // A module of functions does nothing at load.
    const functions = Array.from({ length: 50 }, (_, i) => `export const f${i} = (x) => g(h(x))\n`).join("")
    expect(bodyPointOffsets(functions)).toEqual([])
  })

  it("writes the body points into the module on their statements' lines, and the module still parses", () => {
    const { transform } = plugin()
    const code = Array.from({ length: BODY_POINT_CALLS * 2 }, (_, i) => `export const S${i} = make(${i})\n`).join("")
    const out = transform(code, `${ROOT}/src/exchange/api.ts`)?.code ?? ""
    const points = out.split(`;await ${BODY_POINT_NAME}();`).length - 1
    expect(points).toBe(bodyPointOffsets(code).length)
    expect(points).toBeGreaterThan(0)
    // No line moves: the source map stays right.
    const lines = code.split("\n")
    out
      .split("\n")
      .slice(0, lines.length - 1)
      .forEach((line, i) => expect(line.endsWith(lines[i] ?? "?")).toBe(true))
    expect(out).toContain(`import { yieldIfLate as ${BODY_POINT_NAME} } from "${ROOT}/src/app/runtime/inStages.ts";`)
    expect(() => parseAst(out)).not.toThrow()
  })

  it("gives a point to a small module that does much as it loads: the toolkit's errors, Effect's Schema in slices", () => {
    const file = join(import.meta.dirname, "..", "..", "src", "toolkit", "transportErrors.ts")
    const errors = transformSync(readFileSync(file, "utf8"), { loader: "ts" }).code
    expect(errors.length).toBeLessThan(YIELD_POINT_CHARS)
    expect(callsAtLoad(parseAst(errors).body)).toBeGreaterThanOrEqual(BUSY_MODULE_CALLS)
    expect(wantsYieldPoint(file, errors)).toBe(true)
    expect(wantsYieldPoint(`${ROOT}/src/a.ts`, "export const a = f(1)\n")).toBe(false)
    const schema = real("Schema.js")
    expect(bodyPointOffsets(schema.code).length).toBeGreaterThan(5)
  })
})
