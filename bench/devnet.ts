/**
 * `npm run bench:devnet`: 500 transfer transactions submitted through the devnet gateway emulator over HTTP
 * (127.0.0.1, a free port) from 4 concurrent clients, on a fresh SQLite ledger in a temporary directory.
 * Prints throughput, p50/p99 commit latency (submit request to committed answer) and peak RSS. Asserts no time.
 */
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { startDevnetGateway } from "../src/devnet/gateway/node.js"
import { buildNotarizedTransaction, type BuiltTransaction } from "../src/devnet/ledger/build.js"
import type { GenesisAccount } from "../src/devnet/ledger/genesis.js"
import { Ledger } from "../src/devnet/ledger/Ledger.js"

const TRANSACTIONS = 500
const CLIENTS = 4

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN

const main = async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hswap-bench-devnet-"))
  const gateway = await startDevnetGateway({ dataDir, reset: true })
  const server = createServer((req, res) => {
    gateway.mount.handle(req, res).catch((e: unknown) => {
      res.writeHead(500)
      res.end(String(e))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const base = `http://127.0.0.1:${port}/gateway`
  try {
    const ledger = await gateway.runtime.runPromise(Ledger)
    const { genesis } = ledger
    const xrd = ledger.xrd
    const { epoch } = await gateway.runtime.runPromise(ledger.state)
    // One sending account per client, so the clients never contend for the same vault.
    const senders: ReadonlyArray<GenesisAccount> = [...genesis.users, genesis.fund]
    const receiver = genesis.exchange.address

    const buildStart = performance.now()
    const perClient: Array<Array<BuiltTransaction>> = Array.from({ length: CLIENTS }, () => [])
    for (let i = 0; i < TRANSACTIONS; i++) {
      const c = i % CLIENTS
      const sender = senders[c % senders.length] as GenesisAccount
      const built = await gateway.runtime.runPromise(
        buildNotarizedTransaction({
          manifest: new ManifestBuilder()
            .callMethod(sender.address, "lock_fee", [decimal(1)])
            .callMethod(sender.address, "withdraw", [address(xrd), decimal("0.5")])
            .takeAllFromWorktop(xrd, (b, id) =>
              b.callMethod(receiver, "try_deposit_or_abort", [bucket(id), enumeration(0)])
            )
            .build(),
          signers: [sender.key],
          notary: genesis.notary,
          startEpochInclusive: epoch,
          endEpochExclusive: epoch + 100,
          nonce: i + 1
        })
      )
      perClient[c]?.push(built)
    }
    const buildMs = performance.now() - buildStart

    const latencies: Array<number> = []
    let committed = 0
    let failures = 0
    const client = async (queue: ReadonlyArray<BuiltTransaction>) => {
      for (const tx of queue) {
        const t0 = performance.now()
        const res = await fetch(`${base}/transaction/submit`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ notarized_transaction_hex: tx.notarizedTransactionHex })
        })
        const body: unknown = await res.json()
        latencies.push(performance.now() - t0)
        if (
          res.status === 200 &&
          typeof body === "object" &&
          body !== null &&
          "duplicate" in body &&
          body.duplicate === false
        ) {
          committed += 1
        } else {
          failures += 1
        }
      }
    }
    const start = performance.now()
    await Promise.all(perClient.map(client))
    const elapsedMs = performance.now() - start

    const check = await fetch(`${base}/stream/transactions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ manifest_accounts_deposited_into_filter: [receiver], limit_per_page: 1 })
    })
    const stream = (await check.json()) as { ledger_state?: { state_version?: number } }

    const sorted = [...latencies].sort((a, b) => a - b)
    const peakRssMb = process.resourceUsage().maxRSS / 1024
    console.log(
      `devnet ledger: ${TRANSACTIONS} XRD transfers through the gateway emulator, ${CLIENTS} concurrent clients`
    )
    console.log(
      `  committed             ${committed} (failed ${failures}), ledger state version ${stream.ledger_state?.state_version ?? "?"}`
    )
    console.log(
      `  throughput            ${((committed / elapsedMs) * 1000).toFixed(1)} tx/s (${(elapsedMs / 1000).toFixed(2)} s)`
    )
    console.log(
      `  commit latency        p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted[sorted.length - 1] ?? 0).toFixed(1)} ms`
    )
    console.log(`  peak RSS              ${peakRssMb.toFixed(0)} MB`)
    console.log(
      `  (building + signing the ${TRANSACTIONS} transactions beforehand took ${(buildMs / 1000).toFixed(2)} s, not counted)`
    )
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await gateway.dispose()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e)
    process.exit(1)
  }
)
