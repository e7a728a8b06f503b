import { createServer, type Plugin } from "vite"
import {
  FIRST_PAINT_MARK_ID,
  firstPaintScript,
  FIRST_PAINT_STYLE,
  PRERENDERED_SHELL_ID
} from "../src/app/shell/firstPaint"

export const ROOT_DIV = '<div id="root"></div>'

/**
 * Writes the first paint into index.html (see src/app/shell/firstPaint.ts and prerender.tsx), so it needs only the
 * HTML and the stylesheet:
 * - #root holds `/` as the app renders it with the live half ready; main.tsx hydrates it, so the page's largest text
 *   is in the first HTML and stays;
 * - after it, `#shell-prerender` holds the frame alone (static, inert, hidden from assistive technology, no ids or
 *   test ids), which every other path paints instead and the app's Layout removes when it commits;
 * - a blocking inline script in the head marks <html> with the copy for the path, and an inline style shows only that
 *   one. Inline, so the parser goes on at once: as a file of its own it held the body's parsing for a request (median
 *   FCP 404 → 368 ms at 4x in 30 interleaved loads; a second run showed less). The served Content-Security-Policy
 *   admits it by its hash (src/devnet/static.ts `withInlineScripts`);
 * - `<link rel="expect" blocking="render">` on an empty marker after both holds the first paint until they are parsed,
 *   so the page paints whole (its largest text included) instead of its first half when the parser yields.
 * It changes no JS (bench:app --fetched against `HSWAP_BUILD_WITHOUT=prerenderPages`: the same initial JS, 102,818 B
 * gzip, and JS fetched by / in its first 10 s, 247,261 B): it pays in paints. `bench:app --compare`, 10 loads each at
 * 4×, with it and without: FCP medians 356 and 840 ms, LCP 356 and 1576 ms, TBT 58 and 320 ms (indicative: a shared
 * 2-core machine, busy with other work then, moves them from run to run).
 */
export const prerenderPages = (): Plugin => {
  let root = process.cwd()
  let mode = "production"
  return {
    name: "hswap:prerender-pages",
    apply: "build",
    configResolved(config) {
      root = config.root
      mode = config.mode
    },
    async transformIndexHtml(html) {
      if (!html.includes(ROOT_DIV)) throw new Error(`index.html must contain ${ROOT_DIV} for the prerendered pages`)
      const server = await createServer({
        root,
        mode,
        configFile: false,
        logLevel: "error",
        appType: "custom",
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] }
      })
      try {
        const module = (await server.ssrLoadModule("/src/app/shell/prerender.tsx")) as {
          renderShellHtml?: () => Promise<string>
          renderPageHtml?: () => Promise<string>
        }
        if (module.renderShellHtml === undefined || module.renderPageHtml === undefined)
          throw new Error("src/app/shell/prerender.tsx must export renderShellHtml and renderPageHtml")
        const shell = (await module.renderShellHtml()).replace(/ (data-testid|id)="[^"]*"/g, "")
        const page = await module.renderPageHtml()
        return {
          html: html.replace(
            ROOT_DIV,
            [
              `<div id="root">${page}</div>`,
              `<div id="${PRERENDERED_SHELL_ID}" aria-hidden="true" inert>${shell}</div>`,
              `<span id="${FIRST_PAINT_MARK_ID}" hidden></span>`
            ].join("\n    ")
          ),
          tags: [
            { tag: "script", children: firstPaintScript(), injectTo: "head-prepend" },
            { tag: "style", children: FIRST_PAINT_STYLE, injectTo: "head" },
            // The first paint waits until both copies are parsed, instead of showing the first half of one.
            {
              tag: "link",
              attrs: { rel: "expect", href: `#${FIRST_PAINT_MARK_ID}`, blocking: "render" },
              injectTo: "head"
            }
          ]
        }
      } finally {
        await server.close()
      }
    }
  }
}
