/// <reference types="vitest/config" />
import tailwindcss from "@tailwindcss/vite"
import { tanstackRouter } from "@tanstack/router-plugin/vite"
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

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
    tailwindcss()
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
