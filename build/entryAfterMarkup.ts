import type { Plugin } from "vite"
import { ENTRY_STAGES_PLACEHOLDER } from "../src/app/runtime/inStages"
import { ENTRY_ATTRIBUTE, entryLoaderScript } from "../src/app/shell/entryLoader"
import { filesReaching, writeFileList } from "./fileLists"
import { ENTRY_STAGE_ROOTS } from "./stages"

/**
 * The entry starts from the end of index.html's body (src/app/shell/entryLoader.ts says why): its module script, which
 * Vite writes into the head, becomes entryLoaderScript() there (an inline module script, so it runs after the first
 * frame), naming the entry's file in `data-entry`. The files of the entry's stages (ENTRY_STAGE_ROOTS and what they
 * import) go into the entry's code in place of ENTRY_STAGES_PLACEHOLDER, as Rollup's placeholders for the hashed
 * names: main.tsx requests them all after the first paint (preloadEntryStages). Vite lists only an entry's static
 * imports, and the entry imports these dynamically so that they do not run before the paint.
 * Bytes are not what it is for (bench:app --fetched against `HSWAP_BUILD_WITHOUT=entryAfterMarkup`, exact gzip bytes:
 * JS fetched by / in its first 10 s 247,273 → 247,261 B, the same files): it decides when the entry runs (after the
 * markup) and that the stages' files are requested at once rather than one import after another.
 */
export const entryAfterMarkup = (): Plugin => ({
  name: "hswap:entry-after-markup",
  apply: "build",
  renderChunk(code, chunk, _options, meta) {
    return writeFileList(code, ENTRY_STAGES_PLACEHOLDER, () => {
      const files = filesReaching(meta.chunks, ENTRY_STAGE_ROOTS)
      files.delete(chunk.fileName)
      return files
    })
  },
  transformIndexHtml: {
    order: "post",
    handler(html, ctx) {
      if (ctx.bundle === undefined) return html
      const scripts = [...html.matchAll(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/g)]
      const entry = scripts[0]
      if (scripts.length !== 1 || entry?.[1] === undefined)
        throw new Error(`hswap: index.html should have one module script (the entry), found ${scripts.length}`)
      if (!html.includes("</body>")) throw new Error("hswap: index.html has no </body> for the entry's loader")
      // The entry's file is fetched (and compiled off the page's thread) as the HTML arrives; it runs when the loader adds it.
      const preload = `<link rel="modulepreload" crossorigin href="${entry[1]}">`
      const loader = `<script type="module" ${ENTRY_ATTRIBUTE}="${entry[1]}">${entryLoaderScript()}</script>`
      return html.replace(entry[0], "").replace("</body>", `  ${preload}\n    ${loader}\n  </body>`)
    }
  }
})
