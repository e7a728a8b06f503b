/**
 * Profiling helper for `bench:gateway`: runs only one client's 2,000-account read against the bench's fake gateway
 * (`bench/gateway.ts --serve`, in a child process), so a CPU profile of this process holds that client's work alone and
 * not the bench's decode micro-bench or the other clients.
 *
 *   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/gateway-profile.ts --client ours --runs 3
 *
 * `--client ours|node|sdk|ours,sdk` (default ours, over fetch; `node`: ours over Node's http, `layerNode`;
 * several alternate run by run), `--runs N` measured loads (default 3),
 * `--concurrency N` and `--max-concurrency N` (ours; default the client's). Each load is preceded by one unmeasured load
 * of a tenth of the accounts (JIT warm-up). Prints wall and
 * CPU (user+system of this process) per run. The child runs under tsx, without this process's `--cpu-prof`. For line
 * numbers in the profile, bundle this file first (`npx esbuild bench/gateway-profile.ts --bundle --platform=node
 * --format=esm --packages=external --outfile=/tmp/prof/run.mjs`) and run that with `--server bench/gateway.ts`.
 */
import { GatewayApiClient } from "@radixdlt/babylon-gateway-api-sdk"
import { Effect } from "effect"
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Gateway, GatewayDefaults } from "../src/gateway/index.js"
import { layerNode } from "../src/gateway/node.js"
import { accountAddress } from "../test/gateway/fake-gateway.js"

const ACCOUNTS = 2000

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}

type FromServer = { readonly type: "ready"; readonly port: number } | { readonly type: string }

const main = async () => {
  const clients = (argValue("--client") ?? "ours").split(",")
  const runs = Number(argValue("--runs") ?? 3)
  const concurrency = Number(argValue("--concurrency") ?? GatewayDefaults.concurrency)
  const maxConcurrency = Number(argValue("--max-concurrency") ?? GatewayDefaults.maxConcurrency)
  // `--server`: the bench's path, for when this file runs bundled elsewhere (to profile with real line numbers).
  const server = argValue("--server") ?? fileURLToPath(new URL("./gateway.ts", import.meta.url))
  const child = fork(server, ["--serve"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: ["--import", "tsx"]
  })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.on("message", (m: FromServer) => {
        if (m.type === "ready" && "port" in m) resolve(m.port)
      })
      child.once("exit", (code) => reject(new Error(`fake gateway exited (${code})`)))
    })
    const basePath = `http://127.0.0.1:${port}`
    const addresses = Array.from({ length: ACCOUNTS }, (_, i) => accountAddress(i))
    const sdk = GatewayApiClient.initialize({ basePath, applicationName: "hswap-bench" })
    const load = (which: string, accounts: ReadonlyArray<string>): Promise<ReadonlyArray<unknown>> => {
      if (which === "sdk") return sdk.state.getEntityDetailsVaultAggregated([...accounts])
      const config = { basePath, applicationName: "hswap-bench", concurrency, maxConcurrency }
      return Effect.runPromise(
        Effect.flatMap(Gateway, (g) => g.state.getEntityDetailsVaultAggregated(accounts)).pipe(
          Effect.provide(which === "node" ? layerNode(config) : Gateway.layerFetch(config))
        )
      )
    }
    for (const which of clients) await load(which, addresses.slice(0, ACCOUNTS / 10))
    const figures = new Map<string, Array<{ wall: number; cpu: number }>>()
    for (let run = 1; run <= runs; run++) {
      for (const which of clients) {
        const cpu = process.cpuUsage()
        const start = performance.now()
        const items = await load(which, addresses)
        const wall = performance.now() - start
        const used = process.cpuUsage(cpu)
        const row = { wall, cpu: (used.user + used.system) / 1000 }
        figures.set(which, [...(figures.get(which) ?? []), row])
        console.log(
          `${which} run ${run}/${runs}: ${items.length} accounts, wall ${wall.toFixed(0)} ms, cpu ${row.cpu.toFixed(0)} ms ` +
            `(user ${(used.user / 1000).toFixed(0)}, system ${(used.system / 1000).toFixed(0)})`
        )
      }
    }
    const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
    for (const [which, rows] of figures)
      console.log(
        `${which} median: wall ${median(rows.map((r) => r.wall)).toFixed(0)} ms, cpu ${median(rows.map((r) => r.cpu)).toFixed(0)} ms; ` +
          `min: wall ${Math.min(...rows.map((r) => r.wall)).toFixed(0)} ms, cpu ${Math.min(...rows.map((r) => r.cpu)).toFixed(0)} ms`
      )
  } finally {
    child.disconnect()
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exitCode = 1
})
