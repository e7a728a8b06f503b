import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { startStack } from "../src/devnet/main"

/** Starts the `npm start` stack on a free port with a fresh data directory; the returned teardown stops it. */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), "hswap-e2e-"))
  // The specs share one IP: the per-IP limiter is off here (the 429 card is tested with an intercepted answer).
  const devnet = await startStack(
    { port: 0, host: "127.0.0.1", dist: resolve("dist"), dataDir, reset: true },
    { rateLimitPerMinute: 0 }
  )
  process.env.E2E_BASE_URL = devnet.url
  return async () => {
    await devnet.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
