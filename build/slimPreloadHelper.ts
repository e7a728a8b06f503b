import type { Plugin } from "vite"

/**
 * Vite wraps every dynamic import in its preload helper (`__vitePreload`), `modulePreload: false` or not; the lists it
 * passes then hold only the CSS files of the chunk imported (vitejs/vite#13952, #18551). This app has one stylesheet,
 * which index.html links, so every list is empty, and the helper did nothing but dispatch `vite:preloadError` on a
 * failed import, which nothing here listens to: a failed import rejects as it did (main.tsx, islands.tsx). The build
 * gives the helper a body that only imports, and fails if a lazily loaded chunk ever brings CSS of its own, which the
 * full helper would have loaded.
 * What it saves (bench:app --fetched against `HSWAP_BUILD_WITHOUT=slimPreloadHelper`, exact gzip bytes):
 * initial JS 103,295 → 102,818 B (−477 B, the entry's file); JS fetched by / in its first 10 s 247,723 → 247,261 B
 * (−462 B). Under the 2 kB that a patch of a dependency's internals must save to stay: kept only while the fetched
 * total without it would be over its budget (1.05× the anchor's).
 */
export const PRELOAD_HELPER_ID = "\0vite/preload-helper.js"
export const SLIM_PRELOAD_HELPER = "export const __vitePreload = (load) => load()\n"
export const slimPreloadHelper = (): Plugin => ({
  name: "hswap:slim-preload-helper",
  apply: "build",
  enforce: "pre",
  load(id) {
    return id === PRELOAD_HELPER_ID ? { code: SLIM_PRELOAD_HELPER, moduleSideEffects: false } : null
  },
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== "chunk" || chunk.isEntry) continue
      const css = [...(chunk.viteMetadata?.importedCss ?? [])]
      if (css.length > 0)
        this.error(
          `hswap:slim-preload-helper: ${chunk.fileName} brings CSS of its own (${css.join(", ")}), which the slim preload helper does not load`
        )
    }
  }
})
