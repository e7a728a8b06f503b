import { decode, encode } from "@jridgewell/sourcemap-codec"
import { parseAst, type Plugin } from "vite"
import { rewriteStageFiles } from "./rewriteStageFiles"
import { isNode } from "./syntax"

/**
 * React DOM's client is one CommonJS module (200 kB minified), which the CommonJS plugin wraps in a function that the
 * React stage's file calls once, as it evaluates. V8 compiles a function on its first call: that whole body was
 * parsed and compiled in the middle of the stage's evaluation, one task of 130–350 ms at 4× slowdown after the first
 * paint (long-animation-frame entries of `react.js (module-script)`). The build puts that function in parentheses, so
 * V8 compiles it with the file (its rule for a function expression called at once), which index.html requests ahead
 * of the paint (entryStagePreloads); the stage's evaluation is then the body's run only. Only the wrapper: the
 * functions inside it still compile on their first call (with the compile hint on the whole file, its task grew).
 * Interleaved loads on bench:app's static server, 12 each at 4×: TBT median 221 → 109 ms (mean 229 → 104 ms), React's
 * evaluation counted after FCP in 5 loads of 12 before and 1 after; FCP medians 1150 and 1218 ms (means 1163 and 1153).
 * These times are indicative: a shared 2-core machine moves them from run to run.
 * What it costs (bench:app --fetched against `HSWAP_BUILD_WITHOUT=eagerWrappers`, exact gzip bytes): +17 B of initial
 * JS and +38 B of JS fetched by / in its first 10 s (two parentheses, and the files' hashed names). It pays in blocking
 * time.
 */
export const EAGER_WRAPPER_STAGES: ReadonlyArray<string> = ["react"]

/** The largest function expression called where it stands (`function(){…}()`), in `code`'s syntax tree. */
export const largestCalledFunction = (code: string): { readonly start: number; readonly end: number } | undefined => {
  let best: { start: number; end: number } | undefined
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (!isNode(node)) return
    const callee = node.type === "CallExpression" ? node.callee : undefined
    if (isNode(callee) && callee.type === "FunctionExpression") {
      const { start, end } = callee
      if (
        typeof start === "number" &&
        typeof end === "number" &&
        (best === undefined || end - start > best.end - best.start)
      )
        best = { start, end }
    }
    for (const [key, value] of Object.entries(node)) if (key !== "type" && typeof value === "object") walk(value)
  }
  walk(parseAst(code))
  return best
}

/**
 * `mappings` (a source map's) with the generated columns moved for text inserted into the code: `inserted` lists
 * where (offsets into the code before the insertion, in order) and how many characters.
 */
export const mappingsWithInsertions = (
  code: string,
  mappings: string,
  inserted: ReadonlyArray<{ readonly at: number; readonly length: number }>
): string => {
  const lines = decode(mappings)
  for (const { at, length } of [...inserted].reverse()) {
    const line = code.slice(0, at).split("\n").length - 1
    const column = at - (code.lastIndexOf("\n", at - 1) + 1)
    for (const segment of lines[line] ?? []) if (segment[0] >= column) segment[0] += length
  }
  return encode(lines)
}

/** Puts the largest called function of each EAGER_WRAPPER_STAGES file in parentheses, and moves its source map to match. */
export const eagerWrappers = (): Plugin =>
  rewriteStageFiles("hswap:eager-wrappers", EAGER_WRAPPER_STAGES, (code, fileName) => {
    const fn = largestCalledFunction(code)
    if (fn === undefined) throw new Error(`hswap:eager-wrappers: ${fileName} has no function called where it stands`)
    const inserted = [
      { at: fn.start, length: 1 },
      { at: fn.end, length: 1 }
    ]
    return {
      code: `${code.slice(0, fn.start)}(${code.slice(fn.start, fn.end)})${code.slice(fn.end)}`,
      mappings: (mappings) => mappingsWithInsertions(code, mappings, inserted)
    }
  })
