/**
 * Bundles the in-page wallet script (`page/main.ts`) with esbuild, which vite ships, when the devnet starts. The
 * app's production build never imports it: the devnet server serves it at `/devnet/wallet.js` and injects the tag.
 */
import { build } from "esbuild"
import { fileURLToPath } from "node:url"

export const WALLET_SCRIPT_ENTRY = fileURLToPath(new URL("./page/main.ts", import.meta.url))

/** The script as one minified IIFE for browsers (ES2022). */
export const bundleWalletScript = async (): Promise<string> => {
  const result = await build({
    entryPoints: [WALLET_SCRIPT_ENTRY],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
    banner: {
      js: "/* hSwap devnet wallet emulator: injected by the devnet server only, never part of the app build. */"
    }
  })
  const file = result.outputFiles[0]
  if (file === undefined) throw new Error("esbuild produced no output for the devnet wallet script")
  return file.text
}
