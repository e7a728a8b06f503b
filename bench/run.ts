/**
 * `npm run bench`: runs every benchmark the project has, one after another, in one run. Each prints its own figures
 * side by side with its anchor; none asserts a time.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"

const BENCHES = [
  { script: "bench:gateway", file: "bench/gateway.ts", what: "Gateway client vs the official SDK" },
  { script: "bench:devnet", file: "bench/devnet.ts", what: "devnet ledger throughput" },
  { script: "bench:server", file: "bench/server.ts", what: "exchange server latency" },
  { script: "bench:app", file: "bench/app.ts", what: "app bundle and paint vs the anchor stack" }
] as const

const only = process.argv.slice(2)
let failed = 0
for (const b of BENCHES) {
  if (only.length > 0 && !only.some((o) => b.script.endsWith(o))) continue
  if (!existsSync(b.file)) {
    console.log(`\n== ${b.script}: not built yet (${b.file} is missing)`)
    continue
  }
  console.log(`\n== ${b.script}: ${b.what}`)
  const r = spawnSync("npx", ["tsx", b.file], { stdio: "inherit" })
  if (r.status !== 0) {
    failed += 1
    console.log(`== ${b.script} exited with ${r.status ?? r.signal}`)
  }
}
process.exit(failed > 0 ? 1 : 0)
