/// <reference types="vitest/config" />
import tailwindcss from "@tailwindcss/vite"
import { tanstackRouter } from "@tanstack/router-plugin/vite"
import react from "@vitejs/plugin-react"
import { createHash } from "node:crypto"
import { createServer, defineConfig, type Plugin } from "vite"
import {
  FIRST_PAINT_MARK_ID,
  FIRST_PAINT_SCRIPT,
  FIRST_PAINT_STYLE,
  PRERENDERED_SHELL_ID
} from "./src/app/shell/firstPaint"

const ROOT_DIV = '<div id="root"></div>'

/**
 * Writes the first paint into index.html (see src/app/shell/firstPaint.ts and prerender.tsx), so it needs only the
 * HTML and the stylesheet:
 * - #root holds `/` as the app renders it with the live half ready; main.tsx hydrates it, so the page's largest text
 *   is in the first HTML and stays;
 * - after it, `#shell-prerender` holds the frame alone (static, inert, hidden from assistive technology, no ids or
 *   test ids), which every other path paints instead and the app's Layout removes when it commits;
 * - a blocking script in the head (an asset of its own, as the served Content-Security-Policy allows no inline
 *   script) marks <html> with the copy for the path, and an inline style shows only that one;
 * - `<link rel="expect" blocking="render">` on an empty marker after both holds the first paint until they are parsed,
 *   so the page paints whole (its largest text included) instead of its first half when the parser yields.
 */
const prerenderPages = (): Plugin => {
  let root = process.cwd()
  let mode = "production"
  let scriptFile = ""
  return {
    name: "hswap:prerender-pages",
    apply: "build",
    configResolved(config) {
      root = config.root
      mode = config.mode
    },
    buildStart() {
      const hash = createHash("sha256").update(FIRST_PAINT_SCRIPT).digest("hex").slice(0, 8)
      scriptFile = `assets/first-paint-${hash}.js`
      this.emitFile({ type: "asset", fileName: scriptFile, source: FIRST_PAINT_SCRIPT })
    },
    async transformIndexHtml(html, ctx) {
      if (!html.includes(ROOT_DIV)) throw new Error(`index.html must contain ${ROOT_DIV} for the prerendered pages`)
      const base = ctx.server?.config.base ?? "/"
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
            { tag: "script", attrs: { src: `${base}${scriptFile}` }, injectTo: "head-prepend" },
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
    prerenderPages()
  ],
  build: {
    outDir: "dist",
    sourcemap: true,
    target: "es2022"
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
