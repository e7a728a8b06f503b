import { readFileSync } from "node:fs"
import { join } from "node:path"
import { minify } from "terser"
import { describe, expect, it } from "vitest"
import { radixWithoutKeepNames } from "../../build/radixWithoutKeepNames"
import { TERSER_OPTIONS } from "../../build/terser"

const HELPER = 'var __name = (target, value) => __defProp(target, "name", { value, configurable: true });'

const transform = (code: string, id: string): { code: string } | null => {
  const hook = radixWithoutKeepNames().transform
  if (typeof hook !== "function") throw new Error("radixWithoutKeepNames has no transform hook")
  return hook.call({} as never, code, id) as { code: string } | null
}

/** A published Radix module, as the build reads it (the package exports no package.json to resolve). */
const real = (pkg: string) => {
  const id = join(import.meta.dirname, "..", "..", "node_modules", pkg, "dist", "index.mjs")
  return { id, code: readFileSync(id, "utf8") }
}

/** The module's exports, evaluated. */
const load = async (code: string): Promise<Record<string, unknown>> =>
  (await import(/* @vite-ignore */ `data:text/javascript,${encodeURIComponent(code)}`)) as Record<string, unknown>

describe("build: Radix UI without its keepNames helper (build/radixWithoutKeepNames.ts)", () => {
  it("turns the helper of a published Radix module into the identity, and changes nothing else", () => {
    const { id, code } = real("@radix-ui/number")
    expect(code).toContain(HELPER)
    const out = transform(code, id)
    expect(out).not.toBeNull()
    expect(out?.code).not.toContain('__defProp(target, "name"')
    expect(out?.code.replace("var __name = (target, _value) => target;", HELPER)).toBe(code)
  })

  it("leaves a function's name as it was, where the helper would have set it", async () => {
    const code = `var __defProp = Object.defineProperty;\n${HELPER}\nexport const f = __name(() => 1, "renamed");\n`
    expect(((await load(code)).f as () => number).name).toBe("renamed")
    const out = transform(code, "/repo/node_modules/@radix-ui/react-x/dist/index.mjs")
    const f = (await load(out?.code ?? "")).f as () => number
    expect(f.name).not.toBe("renamed")
    expect(f()).toBe(1)
  })

  it("lets the minifier drop the calls and their names", async () => {
    const { id, code } = real("@radix-ui/number")
    const before = await minify(code, TERSER_OPTIONS)
    const after = await minify(transform(code, id)?.code ?? "", TERSER_OPTIONS)
    expect(before.code).toContain('"clamp"')
    expect(after.code).not.toContain('"clamp"')
    expect(after.code?.length).toBeLessThan(before.code?.length ?? 0)
  })

  it("touches no module outside @radix-ui, nor a Radix module without the helper", () => {
    const { code } = real("@radix-ui/number")
    expect(transform(code, "/repo/node_modules/other/dist/index.mjs")).toBeNull()
    expect(transform(code, "/repo/src/app/ui/Button.tsx")).toBeNull()
    expect(transform("export const x = 1\n", "/repo/node_modules/@radix-ui/react-x/dist/index.mjs")).toBeNull()
  })
})
