import type { Plugin } from "vite"

/**
 * Effect's fiber runtime can run a `Micro` effect yielded inside an `Effect` (its "Micro" instruction), so it imports
 * the whole Micro runtime. Nothing in hSwap builds a Micro. The build gives that instruction a stand-in whose
 * `runFork` throws, so a Micro yielded by mistake dies with this message instead of running; everything else in the
 * fiber runtime is untouched. Fails the build if effect's module changes shape.
 * What it saves (bench:app --fetched against `HSWAP_BUILD_WITHOUT=withoutMicro`, exact gzip bytes):
 * JS fetched by / in its first 10 s 243,869 → 242,042 B (−1,827 B, all in the Effect stage's file); initial JS
 * unchanged (±10 B, the files' hashed names). Under the 2 kB that a patch of a dependency's internals must save to
 * stay, but without it the total is 105.10% of the anchor's, over its budget of 1.05×: kept while that is so (the
 * two other patches under 2 kB, Vite's preload helper and TanStack's selector shim, went: 104.31% without them).
 */
export const MICRO_LEFT_OUT = "hSwap's build leaves out effect/Micro (build/withoutMicro.ts): a Micro cannot run here"
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
