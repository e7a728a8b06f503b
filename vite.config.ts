/// <reference types="vitest/config" />
import tailwindcss from "@tailwindcss/vite"
import { tanstackRouter } from "@tanstack/router-plugin/vite"
import react from "@vitejs/plugin-react"
import { createServer, defineConfig, type Plugin } from "vite"

const ROOT_DIV = '<div id="root"></div>'

/**
 * Writes the shell as it looks before the live chunk has loaded (src/app/shell/prerender.tsx) into index.html, next to
 * #root, so the first paint needs only the HTML and the stylesheet. It is static, inert and hidden from assistive
 * technology (no test ids either); the app's Layout removes it when its own shell commits, in the same frame.
 */
const prerenderShell = (): Plugin => {
  let root = process.cwd()
  let mode = "production"
  return {
    name: "hswap:prerender-shell",
    apply: "build",
    configResolved(config) {
      root = config.root
      mode = config.mode
    },
    async transformIndexHtml(html) {
      if (!html.includes(ROOT_DIV)) throw new Error(`index.html must contain ${ROOT_DIV} for the prerendered shell`)
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
        const module: unknown = await server.ssrLoadModule("/src/app/shell/prerender.tsx")
        const render = (module as { renderShellHtml?: () => Promise<string> }).renderShellHtml
        if (render === undefined) throw new Error("src/app/shell/prerender.tsx does not export renderShellHtml")
        const shell = (await render()).replace(/ (data-testid|id)="[^"]*"/g, "")
        return html.replace(
          ROOT_DIV,
          `<div id="shell-prerender" aria-hidden="true" inert>${shell}</div>\n    ${ROOT_DIV}`
        )
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
    prerenderShell()
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
