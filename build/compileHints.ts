import type { Plugin } from "vite"
import { rewriteStageFiles } from "./rewriteStageFiles"

/**
 * The stages whose files ask V8 to compile every function as the file is loaded (the explicit compile hint, a magic
 * comment on the file's first line, Chromium 136 and later; other engines read a comment). V8 otherwise compiles each
 * function on its first call, on the main thread, in the middle of the module's evaluation. The hint's compile is one
 * task of its own, which no yield point cuts; without it a lazy function's compile falls in its module's slice.
 * - The app's start (the router, the shell): TBT medians 152 → 110 ms and 160 → 77 ms (interleaved loads at 4× on
 *   bench:app's static server, 10 each). Under `--trace`, none of the start hinted and no file hinted gave 617, 1226
 *   and 907 ms of blocking after FCP, the start hinted 522, 688 and 548 ms.
 * - The Effect stage's file carried it until the yield points cut its evaluation: its compile was then a task of 38–106
 *   ms under tracing (5 ms without the hint) and 150–340 ms in plain loads (long-animation-frame entries). TBT medians
 *   with and without its hint 356 → 266 ms (means 431 → 342 ms, 12 interleaved loads each, body points in both).
 * React's stage defines far more than it calls at load, and with the hint its task grew; hinting every live stage
 * gave no clear change. These times are indicative: a shared 2-core machine moves them from run to run.
 * What it costs (bench:app --fetched against `HSWAP_BUILD_WITHOUT=compileHints`, exact gzip bytes): +24 B of initial JS
 * and +28 B of JS fetched by / in its first 10 s (the comment, in the start's file). It pays in blocking time.
 */
export const EAGER_COMPILE_STAGES: ReadonlyArray<string> = ["start"]
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad"

/**
 * Puts the compile hint on the first line of the EAGER_COMPILE_STAGES' files, once the minifier is done with them, and
 * moves their source maps down a line to match.
 */
export const compileHints = (): Plugin =>
  rewriteStageFiles("hswap:compile-hints", EAGER_COMPILE_STAGES, (code) => ({
    code: `${COMPILE_HINT}\n${code}`,
    mappings: (mappings) => `;${mappings}`
  }))
