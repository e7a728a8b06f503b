import type { Plugin } from "vite"

/**
 * A plugin that rewrites the files of the named stages once the minifier is done with them: `rewrite` gives each
 * file's new code, and how its source map's mappings change to match.
 */
export const rewriteStageFiles = (
  name: string,
  stages: ReadonlyArray<string>,
  rewrite: (
    code: string,
    fileName: string
  ) => { readonly code: string; readonly mappings: (mappings: string) => string }
): Plugin => {
  const rewrites = (chunk: { readonly isEntry: boolean; readonly name: string }) =>
    !chunk.isEntry && stages.includes(chunk.name)
  return {
    name,
    apply: "build",
    // A file's name is hashed before this rewrite: the rewrite's own code goes into the hash, so a file rewritten
    // differently (a plugin added, or its rewrite changed) gets a new name and no cache serves the old content under it.
    augmentChunkHash(chunk) {
      return rewrites(chunk) ? `${name}:${rewrite.toString()}` : undefined
    },
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== "chunk" || !rewrites(chunk)) continue
          const rewritten = rewrite(chunk.code, chunk.fileName)
          chunk.code = rewritten.code
          const mapFile = chunk.sourcemapFileName === null ? undefined : bundle[chunk.sourcemapFileName]
          if (mapFile?.type === "asset" && typeof mapFile.source === "string") {
            const map = JSON.parse(mapFile.source) as { mappings: string }
            mapFile.source = JSON.stringify({ ...map, mappings: rewritten.mappings(map.mappings) })
          }
        }
      }
    }
  }
}
