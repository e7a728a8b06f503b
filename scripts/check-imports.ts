/**
 * The layering check that `npm test` runs: no import cycles in `src/` and `build/`, no import from a lower layer to a
 * higher one (DESIGN §2), and one import style (our modules named without an extension). `build/` (the build's
 * plugins) sits above the app: it reads the app's constants, and nothing in `src/` imports it. It reads every module's static and dynamic imports with TypeScript's own pre-processor, so a
 * lazily loaded module counts as an edge too: a cycle through `import()` still ties the modules together.
 *
 *   tsx scripts/check-imports.ts          prints the problems and exits 1 if there are any
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"

const root = resolve(dirname(new URL(import.meta.url).pathname), "..")
const src = join(root, "src")
const buildDir = join(root, "build")

/**
 * What each top-level folder of `src/` may import, besides itself: a folder, or one file of a folder (`txv2` and
 * `toolkit` use the dependency-free bech32m codec that the app's address checks use, rather than a copy of it).
 * `lib` holds the few helpers every floor shares (loading a chunk once) and imports nothing of ours.
 */
export const ALLOWED: Readonly<Record<string, ReadonlyArray<string>>> = {
  build: ["app"],
  lib: [],
  txv2: ["exchange/bech32m.ts", "lib"],
  gateway: ["lib"],
  exchange: ["gateway", "lib"],
  toolkit: ["exchange/bech32m.ts", "gateway", "lib"],
  app: ["toolkit", "gateway", "exchange", "lib"],
  server: ["gateway", "exchange", "txv2", "lib"],
  devnet: ["server", "gateway", "exchange", "txv2", "toolkit", "app", "lib"]
}

const files = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return files(path)
    return /\.(ts|tsx)$/.test(name) && !name.endsWith(".d.ts") ? [path] : []
  })

const resolveImport = (from: string, spec: string): string | undefined => {
  if (!spec.startsWith(".")) return undefined
  const base = resolve(dirname(from), spec).replace(/\.(js|jsx)$/, "")
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

export interface Problem {
  readonly kind: "cycle" | "layer" | "unresolved" | "style"
  readonly text: string
}

export const check = (): ReadonlyArray<Problem> => {
  const problems: Array<Problem> = []
  const graph = new Map<string, Array<string>>()
  /** A file's layer: `build`, or its top-level folder of `src/` (`..` for a file outside both). */
  const layerOf = (file: string) =>
    relative(buildDir, file).startsWith("..") ? (relative(src, file).split("/")[0] ?? "") : "build"
  for (const file of [...files(src), ...files(buildDir)]) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true)
    const edges: Array<string> = []
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith(".")) continue
      // One import style across src/ and build/: a module is named without its extension (Vite and tsx resolve it).
      if (/\.(js|jsx|ts|tsx)$/.test(ref.fileName)) {
        problems.push({
          kind: "style",
          text: `${relative(root, file)} imports ${ref.fileName}: name our modules without an extension`
        })
      }
      const target = resolveImport(file, ref.fileName)
      if (target === undefined) {
        problems.push({ kind: "unresolved", text: `${relative(root, file)} imports ${ref.fileName}, which is no file` })
        continue
      }
      edges.push(target)
      const fromLayer = layerOf(file)
      const toPath = relative(src, target)
      const toLayer = layerOf(target)
      const allowed = ALLOWED[fromLayer]
      if (
        fromLayer !== toLayer &&
        (allowed === undefined || !(allowed.includes(toLayer) || allowed.includes(toPath)))
      ) {
        problems.push({
          kind: "layer",
          text: `${relative(root, file)} imports ${relative(root, target)}: ${fromLayer} may not import ${toLayer}`
        })
      }
    }
    graph.set(file, edges)
  }
  // Tarjan's strongly connected components: each component of more than one module is a cycle.
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const visit = (v: string): void => {
    indices.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, indices.get(w) ?? 0))
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: Array<string> = []
      for (;;) {
        const w = stack.pop()
        if (w === undefined) break
        onStack.delete(w)
        component.push(w)
        if (w === v) break
      }
      const selfLoop = (graph.get(v) ?? []).includes(v)
      if (component.length > 1 || selfLoop) {
        problems.push({
          kind: "cycle",
          text: component
            .map((f) => relative(root, f))
            .sort()
            .join(" <-> ")
        })
      }
    }
  }
  for (const v of graph.keys()) if (!indices.has(v)) visit(v)
  return problems
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const problems = check()
  for (const p of problems) console.log(`${p.kind}: ${p.text}`)
  if (problems.length > 0) {
    console.log(
      `\n${problems.length} import problem(s) in src/ and build/ (DESIGN §2: imports go down the layers, no cycles)`
    )
    process.exit(1)
  }
  console.log("imports: no cycles, no upward imports in src/ and build/")
}
