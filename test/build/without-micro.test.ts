import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { MICRO_LEFT_OUT, withoutMicro } from "../../build/withoutMicro"

// The real module the build rewrites, from the pinned effect package.
const esm = join(dirname(createRequire(import.meta.url).resolve("effect")), "..", "esm")
const fiberRuntimeId = join(esm, "internal", "fiberRuntime.js")
const fiberRuntime = readFileSync(fiberRuntimeId, "utf8")
const IMPORT = 'import * as Micro from "../Micro.js";'

const transform = (code: string, id: string): { code: string } | null => {
  const hook = withoutMicro().transform
  if (typeof hook !== "function") throw new Error("withoutMicro has no transform hook")
  return hook.call({} as never, code, id) as { code: string } | null
}

describe("build: effect's fiber runtime without Micro (build/withoutMicro.ts)", () => {
  it("replaces the Micro import of the real fiberRuntime.js with a stand-in, and nothing else", () => {
    expect(fiberRuntime).toContain(IMPORT)
    const out = transform(fiberRuntime, fiberRuntimeId)
    expect(out).not.toBeNull()
    expect(out?.code).not.toContain("../Micro.js")
    expect(out?.code.replace(/^const Micro = .*$/m, IMPORT)).toBe(fiberRuntime)
  })

  it("makes a Micro yielded inside an Effect fail with a clear message instead of running it", () => {
    const out = transform(fiberRuntime, fiberRuntimeId)
    const standIn = out?.code.match(/^const Micro = .*$/m)?.[0]
    expect(standIn).toBeDefined()
    const Micro = new Function(`${standIn ?? ""}; return Micro`)() as {
      provideContext: (m: unknown, c: unknown) => unknown
      runFork: (m: unknown) => unknown
    }
    const micro = { _op: "Micro" }
    expect(Micro.provideContext(micro, {})).toBe(micro)
    expect(() => Micro.runFork(micro)).toThrow(MICRO_LEFT_OUT)
  })

  it("leaves every other module alone", () => {
    expect(transform(fiberRuntime, join(esm, "internal", "core.js"))).toBeNull()
    expect(transform(IMPORT, "/src/app/live.tsx")).toBeNull()
  })

  it("fails the build when effect's module no longer has the expected shape", () => {
    expect(() => transform(fiberRuntime.replace(IMPORT, ""), fiberRuntimeId)).toThrow(/no longer uses Micro/)
    expect(() => transform(`${fiberRuntime}\nMicro.runSync(x)`, fiberRuntimeId)).toThrow(/no longer uses Micro/)
  })
})
