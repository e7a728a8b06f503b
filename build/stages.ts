/**
 * The stages the first visit loads in (src/app/runtime/inStages.ts): the entry's (React, then the app's start), then
 * the live chunk's. Several plugins name the same modules: liveStageChunks gives each stage its file, entryAfterMarkup
 * and liveChunkList list those files, compileHints and eagerWrappers rewrite some of them.
 */

/**
 * The modules the entry's stages start from, in the order src/app/main.tsx imports them after the first paint (test/build
 * checks that the two lists agree): React, then the app's own start.
 */
export const ENTRY_STAGE_ROOTS = ["src/app/runtime/stages/react.ts", "src/app/start.tsx"] as const

/**
 * The modules the live chunk's stages start from, in the order src/app/shell/islands.tsx imports them (test/build
 * checks that the two lists agree).
 */
export const LIVE_STAGE_ROOTS = [
  "src/app/runtime/stages/data.ts",
  "src/app/runtime/stages/effect.ts",
  "src/app/runtime/stages/schema.ts",
  "src/app/runtime/stages/stream.ts",
  "src/app/config/AppConfig.ts",
  "src/gateway/config.ts",
  "src/toolkit/transportErrors.ts",
  "src/exchange/ExchangeApi.ts",
  "src/app/features/exchange/machine/SwapMachine.ts",
  "src/app/live.tsx"
] as const

/**
 * Stages whose modules share an earlier stage's file: small enough that one file (gzip once, one request, one list of
 * imports) is worth evaluating them a stage early. A stage's import then finds its modules run already. The toolkit's
 * errors (0.5 kB) go with the Gateway's configuration (2 kB); AppConfig's stage stays apart: with both in its file, its
 * evaluation took one task of about 100 ms at 4× slowdown (bench:app --trace), for 0.3 kB less.
 */
export const LIVE_STAGE_FILES: Readonly<Record<string, string>> = {
  "src/toolkit/transportErrors.ts": "config"
}

/** The name of a stage's file (before its hash): the root module's own, unless it shares an earlier stage's (`files`). */
export const stageFileName = (path: string, files: Readonly<Record<string, string>> = LIVE_STAGE_FILES): string =>
  files[path] ?? path.slice(path.lastIndexOf("/") + 1).replace(/\.tsx?$/, "")
