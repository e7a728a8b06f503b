import { parseAst, type Plugin } from "vite"
import { bodyOf, isFrom, isNode } from "./syntax"

/**
 * Yield points: where a stage's evaluation may let the browser have its turn (DESIGN §6, total blocking time). A
 * dynamic import evaluates its whole graph in one task, and the stages (runtime/inStages.ts) cut the graph only where a
 * stage's own file begins: the Effect stage still took one task of 150–230 ms at 4× slowdown (bench:app, blocked after
 * FCP), and the app's configuration stages 100–150 ms each. So each larger module of the app's graph (YIELD_POINT_CHARS
 * of code and more, comments aside) gets one more import, last: a module of its own, `await yieldIfLate()`. It
 * evaluates after the module's other imports and before its body, and where the task has run for its slice, the rest
 * of the evaluation goes on in a later task. In the built file the point is one top-level `await`, which holds the rest
 * of the file, as the modules of a file run in order. The entry's own modules get none (the entry must not wait), nor
 * do React's (one CommonJS module each, nothing to cut between), other CommonJS modules, indexes, or the modules of the
 * prerender (another environment).
 * A point cuts the evaluation, not a file's compile (compileHints). Between modules only, one module's body ran whole;
 * the body points below cut the larger ones too.
 * Under `bench:app --trace` the Effect stage's evaluation went from one task to slices under 50 ms (times here are
 * indicative: a shared 2-core machine moves them from run to run).
 * What it costs (bench:app --fetched against `HSWAP_BUILD_WITHOUT=yieldPoints`, exact gzip bytes): JS fetched by / in
 * its first 10 s 246,385 → 247,261 B (+876 B, the points and their imports across the live stages' files); initial JS
 * 102,701 → 102,818 B (+117 B). It pays in blocking time, not bytes.
 */
export const YIELD_POINT_PREFIX = "hswap-yield-point:"
export const YIELD_POINT_CHARS = 1500
/**
 * Points inside a module's body too: one module's body runs whole between two points, and a module that builds many
 * Schemas as it loads (Effect's Schema.js, the app's schema modules) took one task of 60–230 ms at 4× slowdown (bench:app,
 * blocked after FCP, under a CPU profile). Before a top-level statement that does work as it loads, once the statements
 * since the last point made BODY_POINT_CALLS calls or more (calls and `new`s outside function bodies), the build adds
 * `await yieldIfLate()`. Statements that only define functions count nothing, so a module of functions gets none.
 */
export const BODY_POINT_CALLS = 16
/**
 * A smaller module gets its point too when it does this much as it loads: the toolkit's errors (15 calls: Schema's
 * tagged errors) were a task of their own of 100 ms under a CPU profile at 4×, at 1.1 kB of code.
 */
export const BUSY_MODULE_CALLS = 8
/** The local name of `yieldIfLate` in a module with body points. */
export const BODY_POINT_NAME = "__hswapYieldIfLate"

const FUNCTION_NODES = new Set(["FunctionExpression", "ArrowFunctionExpression", "FunctionDeclaration"])
const CALL_NODES = new Set(["CallExpression", "NewExpression", "TaggedTemplateExpression"])

/** The calls a statement makes as its module loads: those in function bodies and methods wait for a call. */
export const callsAtLoad = (node: unknown): number => {
  if (Array.isArray(node)) return node.reduce((sum: number, x) => sum + callsAtLoad(x), 0)
  if (!isNode(node) || FUNCTION_NODES.has(node.type)) return 0
  if (node.type === "MethodDefinition" || (node.type === "PropertyDefinition" && node.static !== true)) return 0
  let n = CALL_NODES.has(node.type) ? 1 : 0
  for (const [key, value] of Object.entries(node))
    if (key !== "type" && typeof value === "object" && value !== null) n += callsAtLoad(value)
  return n
}

/** Where in `code` (offsets of top-level statements) a body point goes. */
export const bodyPointOffsets = (code: string): ReadonlyArray<number> => {
  const offsets: Array<number> = []
  let since = 0
  let first = true
  // Imports and re-exports run nothing of the module's own.
  for (const statement of (bodyOf(parseAst(code)) ?? []).filter((s) => !isFrom(s))) {
    const calls = callsAtLoad(statement)
    // The module's own point (the import below) comes before its first statement.
    if (!first && calls > 0 && since >= BODY_POINT_CALLS && statement.start !== undefined) {
      offsets.push(statement.start)
      since = 0
    }
    first = false
    since += calls
  }
  return offsets
}
const IN_STAGES = "src/app/runtime/inStages.ts"
/** Modules never cut before: the entry's graph, which the yield points import, and React's, evaluated whole. */
const WITHOUT_YIELD_POINT = [
  /\/src\/app\/main\.tsx$/,
  /\/src\/app\/runtime\/inStages\.ts$/,
  /\/src\/app\/shell\/(earlyClicks|entryLoader|firstPaint|loadFailure)\.ts$/,
  /\/node_modules\/(react|react-dom|scheduler)\//
]
/** Re-exports (`export * from`, `export * as X from`, `export { a } from`): an index that holds only these runs nothing. */
const RE_EXPORT = /export\s*(\*(\s*as\s+[\w$]+)?|\{[^}]*\})\s*from\s*["'][^"']*["'];?/g
const COMMONJS = /\brequire\s*\(|\bmodule\.exports\b|\bexports\.[\w$]+\s*=|\bexports\[/
export const wantsYieldPoint = (id: string, code: string): boolean => {
  if (id.startsWith("\0") || id.includes("?") || !/\.(m?js|tsx?)$/.test(id)) return false
  if (WITHOUT_YIELD_POINT.some((pattern) => pattern.test(id))) return false
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
  // A CommonJS module (use-sync-external-store's shim, say) with an import of its own would read as an ES module to
  // the CommonJS plugin, which then leaves its `require` calls as they are.
  if (COMMONJS.test(withoutComments)) return false
  // An index is left as it is: liveStageChunks reads it as one (barrelOf) only while it holds nothing but re-exports.
  if (withoutComments.replace(RE_EXPORT, "").trim() === "") return false
  return withoutComments.length >= YIELD_POINT_CHARS || callsAtLoad(parseAst(code).body) >= BUSY_MODULE_CALLS
}

export const yieldPoints = (): Plugin => {
  let root = process.cwd()
  return {
    name: "hswap:yield-points",
    apply: "build",
    configResolved(config) {
      root = config.root
    },
    resolveId(id) {
      return id.startsWith(YIELD_POINT_PREFIX) ? `\0${id}` : null
    },
    load(id) {
      if (!id.startsWith(`\0${YIELD_POINT_PREFIX}`)) return null
      return `import { yieldIfLate } from ${JSON.stringify(`${root}/${IN_STAGES}`)}\nawait yieldIfLate()\n`
    },
    transform(code, id) {
      if (this.environment.name !== "client" || !wantsYieldPoint(id, code)) return null
      const point = `${YIELD_POINT_PREFIX}${id.startsWith(`${root}/`) ? id.slice(root.length + 1) : id}`
      // Each body point goes in where its statement starts, on its line, and the imports are appended: no line moves,
      // so the module's source map stays as it was (a column on a point's line shifts).
      const offsets = bodyPointOffsets(code)
      let out = code
      for (const at of [...offsets].reverse()) out = `${out.slice(0, at)};await ${BODY_POINT_NAME}();${out.slice(at)}`
      const own =
        offsets.length === 0
          ? ""
          : `\nimport { yieldIfLate as ${BODY_POINT_NAME} } from ${JSON.stringify(`${root}/${IN_STAGES}`)};`
      return { code: `${out}${own}\nimport ${JSON.stringify(point)};\n`, map: null }
    }
  }
}
