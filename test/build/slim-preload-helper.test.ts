import { describe, expect, it } from "vitest"
import { PRELOAD_HELPER_ID, SLIM_PRELOAD_HELPER, slimPreloadHelper } from "../../build/slimPreloadHelper"

const hook = <T>(h: unknown): T => {
  const f = typeof h === "function" ? h : (h as { handler?: unknown } | undefined)?.handler
  if (typeof f !== "function") throw new Error("slimPreloadHelper lacks a hook")
  return f as T
}

const chunk = (fileName: string, isEntry: boolean, css: ReadonlyArray<string>) => ({
  type: "chunk" as const,
  fileName,
  isEntry,
  viteMetadata: { importedCss: new Set(css), importedAssets: new Set<string>() }
})

const generate = (bundle: Record<string, unknown>) => {
  const errors: Array<string> = []
  hook<(o: unknown, b: unknown) => void>(slimPreloadHelper().generateBundle).call(
    {
      error: (message: string) => {
        errors.push(message)
        throw new Error(message)
      }
    } as never,
    {},
    bundle
  )
  return errors
}

describe("build: Vite's preload helper, slim (build/slimPreloadHelper.ts)", () => {
  it("gives Vite's helper module a body that only imports, and leaves every other module to Vite", async () => {
    const load = hook<(id: string) => { code: string; moduleSideEffects: boolean } | null>(slimPreloadHelper().load)
    const out = load.call({} as never, PRELOAD_HELPER_ID)
    expect(out).toEqual({ code: SLIM_PRELOAD_HELPER, moduleSideEffects: false })
    expect(load.call({} as never, "/repo/src/app/main.tsx")).toBeNull()
    // The body, run: the import's own promise, its value and its failure as they are.
    const { __vitePreload } = (await import(`data:text/javascript,${encodeURIComponent(SLIM_PRELOAD_HELPER)}`)) as {
      __vitePreload: (load: () => Promise<unknown>, deps?: ReadonlyArray<string>) => Promise<unknown>
    }
    await expect(__vitePreload(async () => ({ stage: 1 }), [])).resolves.toEqual({ stage: 1 })
    const failure = new Error("Failed to fetch dynamically imported module")
    await expect(__vitePreload(() => Promise.reject(failure), [])).rejects.toBe(failure)
  })

  it("fails the build when a lazily loaded chunk brings CSS of its own, which the slim helper would not load", () => {
    expect(
      generate({
        "assets/index-x.js": chunk("assets/index-x.js", true, ["assets/index-x.css"]),
        "assets/live-x.js": chunk("assets/live-x.js", false, []),
        "assets/index-x.css": { type: "asset" }
      })
    ).toEqual([])
    expect(() =>
      generate({ "assets/Dialog-x.js": chunk("assets/Dialog-x.js", false, ["assets/Dialog-x.css"]) })
    ).toThrow("assets/Dialog-x.js brings CSS of its own (assets/Dialog-x.css)")
  })
})
