import { afterEach, describe, expect, it, vi } from "vitest"

/** vite.config.ts read afresh with HSWAP_BUILD_WITHOUT set to `without`: the names of its hSwap plugins, in order. */
const configWithout = async (without: string) => {
  vi.resetModules()
  vi.stubEnv("HSWAP_BUILD_WITHOUT", without)
  const config = (await import("../../vite.config")).default as {
    plugins: ReadonlyArray<unknown>
    build: { rollupOptions: { output: { manualChunks?: unknown } } }
  }
  const names = config.plugins
    .flat(3)
    .map((p) => (typeof p === "object" && p !== null && "name" in p ? String(p.name) : ""))
    .filter((name) => name.startsWith("hswap:"))
  return { names, config }
}
afterEach(() => {
  vi.unstubAllEnvs()
})

describe("vite.config.ts: the build's parts, and HSWAP_BUILD_WITHOUT", () => {
  it("composes every part of build/ by default", async () => {
    const { names, config } = await configWithout("")
    expect(names).toEqual([
      "hswap:without-micro",
      "hswap:yield-points",
      "hswap:prerender-pages",
      "hswap:entry-after-markup",
      "hswap:live-chunk-list",
      "hswap:eager-wrappers",
      "hswap:compile-hints"
    ])
    expect(typeof config.build.rollupOptions.output.manualChunks).toBe("function")
  })

  it("leaves out the parts it names, and only those", async () => {
    const { names, config } = await configWithout("withoutMicro,compileHints,liveStageChunks")
    expect(names).not.toContain("hswap:without-micro")
    expect(names).not.toContain("hswap:compile-hints")
    expect(names).toContain("hswap:yield-points")
    expect(names).toHaveLength(5)
    expect(config.build.rollupOptions.output.manualChunks).toBeUndefined()
  })

  it("refuses a name that is no part", async () => {
    await expect(configWithout("withoutMacro")).rejects.toThrow(/names no part of build\/: withoutMacro/)
  })
})
