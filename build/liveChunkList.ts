import type { Plugin } from "vite"
import { LIVE_CHUNKS_PLACEHOLDER } from "../src/app/runtime/inStages"
import { filesReaching, writeFileList } from "./fileLists"
import { ENTRY_STAGE_ROOTS } from "./stages"

/**
 * The live chunk loads in stages, one import after another (src/app/runtime/inStages.ts), and the page of `/` after
 * it, but their files are all requested at once: the build writes the files of their graphs (live.tsx's chunk, the
 * page's, and every chunk they import) into the code in place of LIVE_CHUNKS_PLACEHOLDER, and the app adds a
 * modulepreload link for each when it starts loading.
 * The names are Rollup's placeholders here, which it replaces with the hashed names as it does in imports.
 * What it costs (bench:app --fetched against `HSWAP_BUILD_WITHOUT=liveChunkList`, exact gzip bytes): the list, +151 B
 * of initial JS and +168 B of JS fetched by / in its first 10 s; the same files are fetched without it, one stage's
 * import after another instead of at once. It pays in time to the live half.
 */
export const liveChunkList = (): Plugin => ({
  name: "hswap:live-chunk-list",
  apply: "build",
  renderChunk(code, chunk, _options, meta) {
    return writeFileList(code, LIVE_CHUNKS_PLACEHOLDER, () => {
      // The live chunk, and the page of `/` (which index.html holds and the app hydrates once the live chunk is there).
      const files = filesReaching(meta.chunks, ["src/app/live.tsx", "src/app/features/exchange/ExchangePage.tsx"])
      // The chunk that asks for them is loaded already, and the entry requests its stages itself (entryAfterMarkup).
      files.delete(chunk.fileName)
      for (const file of filesReaching(meta.chunks, ENTRY_STAGE_ROOTS)) files.delete(file)
      return files
    })
  }
})
