/// <reference types="vitest/config" />
import tailwindcss from "@tailwindcss/vite"
import { tanstackRouter } from "@tanstack/router-plugin/vite"
import react from "@vitejs/plugin-react"
import { defineConfig, type Plugin } from "vite"
import { compileHints } from "./build/compileHints"
import { eagerWrappers } from "./build/eagerWrappers"
import { entryAfterMarkup } from "./build/entryAfterMarkup"
import { liveChunkList } from "./build/liveChunkList"
import { liveStageChunks } from "./build/liveStageChunks"
import { prerenderPages } from "./build/prerenderPages"
import { TERSER_OPTIONS } from "./build/terser"
import { withoutMicro } from "./build/withoutMicro"
import { yieldPoints } from "./build/yieldPoints"

// The build's performance layer lives in build/, one module per part; this file only puts them together.

/**
 * `HSWAP_BUILD_WITHOUT=<part>,<part>` builds without those parts of build/ (names as below): how each part's saving in
 * its header was measured (`HSWAP_BUILD_WITHOUT=withoutMicro npm run bench:app -- --fetched`). Never for a build that
 * ships: some parts need others (without entryAfterMarkup the entry finds no list of its stages).
 */
const PARTS = [
  "prerenderPages",
  "entryAfterMarkup",
  "liveChunkList",
  "liveStageChunks",
  "yieldPoints",
  "compileHints",
  "eagerWrappers",
  "withoutMicro"
] as const
type Part = (typeof PARTS)[number]
const left = (process.env.HSWAP_BUILD_WITHOUT ?? "").split(",").filter((name) => name !== "")
const unknown = left.filter((name) => !(PARTS as ReadonlyArray<string>).includes(name))
if (unknown.length > 0)
  throw new Error(`HSWAP_BUILD_WITHOUT names no part of build/: ${unknown.join(", ")} (parts: ${PARTS.join(", ")})`)
const on = (part: Part): boolean => !left.includes(part)
const plugin = (part: Part, make: () => Plugin): ReadonlyArray<Plugin> => (on(part) ? [make()] : [])

export default defineConfig({
  plugins: [
    // The router plugin must come before react(); the generated tree is committed.
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: "src/app/routes",
      generatedRouteTree: "src/app/routeTree.gen.ts",
      quoteStyle: "double",
      semicolons: false
    }),
    react(),
    tailwindcss(),
    ...plugin("withoutMicro", withoutMicro),
    ...plugin("yieldPoints", yieldPoints),
    ...plugin("prerenderPages", prerenderPages),
    ...plugin("entryAfterMarkup", entryAfterMarkup),
    ...plugin("liveChunkList", liveChunkList),
    ...plugin("eagerWrappers", eagerWrappers),
    ...plugin("compileHints", compileHints)
  ],
  build: {
    outDir: "dist",
    sourcemap: true,
    target: "es2022",
    minify: "terser",
    terserOptions: TERSER_OPTIONS,
    // No preload helper: Vite wraps every dynamic import in a helper that requests the chunk's own imports alongside it
    // (and lists them in each importing file), and ships a polyfill. On the first visit the files that matter are
    // requested by index.html (entryStagePreloads) and by the app's own list (liveChunkList); a lazy chunk (a route, a
    // dialog, the connect panel) is asked for on intent or on idle, and its browser requests its imports as it parses
    // it. The helper, its lists and the polyfill were 1.6 kB gzip of the first visit (bench:app --fetched).
    modulePreload: false,
    rollupOptions: {
      output: {
        ...(on("liveStageChunks") ? { manualChunks: liveStageChunks(import.meta.dirname) } : {}),
        // Only the modules liveStageChunks names go into the stages' files. By default Rollup adds every static
        // dependency of a named chunk's modules to it, including what lazy chunks take through an index that a stage
        // also imports: the HTTP client and FiberHandle rode in the first screen's files that way (with the walk through
        // indexes, −5.1 kB gzip fetched by /).
        onlyExplicitManualChunks: true
      }
    }
  },
  // `npm run dev` serves the app with hot reload; the local stack's paths go to a running `npm start`
  // (DEVNET_URL, default http://127.0.0.1:8080).
  server: {
    host: "127.0.0.1",
    port: 5173,
    proxy: Object.fromEntries(
      ["/gateway", "/api", "/relay", "/devnet"].map((prefix) => [
        prefix,
        { target: process.env.DEVNET_URL ?? "http://127.0.0.1:8080", changeOrigin: true }
      ])
    )
  },
  test: {
    include: ["test/**/*.test.{ts,tsx}"],
    environment: "node",
    testTimeout: 20_000,
    setupFiles: ["test/setup.ts"]
  }
})
