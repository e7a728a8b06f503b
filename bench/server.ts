/**
 * `npm run bench:server`: the exchange server on the in-process devnet, served on 127.0.0.1.
 *
 * 1. Load: autocannon at 500 requests/s for 20 s against `/api/liveprice/{hUSDC}/{hETH}` and `/api/health`
 *    (alternating), with the rate limiter off. Prints p50/p99 latency, errors and throughput.
 * 2. Settlement: 200 swaps end to end (user deposits signed and committed on the devnet ledger, registered over
 *    HTTP, verified, paid out with the operator key and committed). Prints swaps per second.
 *
 * It prints figures; it never asserts times. The budget (DESIGN.md §6) is p99 under 50 ms at 500 requests/s.
 */
import autocannon from "autocannon"
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { Effect } from "effect"
import { startDevnetGateway } from "../src/devnet/gateway/node"
import { buildNotarizedTransaction } from "../src/devnet/ledger/build"
import { Ledger } from "../src/devnet/ledger/Ledger"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { devnetExchangeServerOptions } from "../src/server/devnet"
import { listenExchangeServer, startExchangeServer } from "../src/server/index"

const RATE = Number(process.env["BENCH_RATE"] ?? 500)
const DURATION_S = Number(process.env["BENCH_DURATION"] ?? 20)
const SWAPS = Number(process.env["BENCH_SWAPS"] ?? 200)
const CONCURRENCY = 8

const { hUSDC, hETH } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount

const fmt = (n: number, digits = 1) => n.toFixed(digits)

const main = async () => {
  const gateway = await startDevnetGateway({ dataDir: undefined })
  const server = await startExchangeServer({
    ...devnetExchangeServerOptions(undefined, gateway),
    rateLimitPerMinute: 0,
    logLevel: "error"
  })
  const http = await listenExchangeServer(server, 0, "127.0.0.1")
  try {
    // --- 1. load -------------------------------------------------------------------------------------------------
    console.log(`load: ${RATE} requests/s for ${DURATION_S} s on ${http.url} (liveprice + health, limiter off)`)
    const requests = [{ method: "GET" as const, path: `/api/liveprice/${hUSDC}/${hETH}` }, { method: "GET" as const, path: "/api/health" }]
    // The load generator runs in a worker thread, off the server's event loop; a short warm-up goes first.
    await autocannon({ url: http.url, connections: 10, overallRate: RATE, duration: 2, workers: 1, requests })
    const result = await autocannon({
      url: http.url,
      connections: 20,
      overallRate: RATE,
      duration: DURATION_S,
      workers: 1,
      requests
    })
    console.log(`  requests    ${result.requests.total} (${fmt(result.requests.average)} req/s average)`)
    console.log(`  latency     p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   max ${result.latency.max} ms`)
    console.log(`  errors      ${result.errors} (timeouts ${result.timeouts}, non-2xx ${result.non2xx})`)
    console.log(`  throughput  ${fmt(result.throughput.average / 1024)} KiB/s`)
    console.log(`  budget      p99 < 50 ms at 500 req/s: ${result.latency.p99 < 50 ? "met" : "NOT met"} (printed, not asserted)`)

    // --- 2. settlement ---------------------------------------------------------------------------------------------
    const ledger = await gateway.runtime.runPromise(Ledger)
    const users = ledger.genesis.users
    console.log(`settlement: ${SWAPS} swaps of 10 hUSDC -> hETH by ${users.length} devnet users`)
    const buildStart = performance.now()
    const { epoch } = await gateway.runtime.runPromise(ledger.state)
    const deposits: Array<{ readonly intentHash: string; readonly hex: string }> = []
    for (let i = 0; i < SWAPS; i++) {
      const user = users[i % users.length] ?? users[0]
      const built = await gateway.runtime.runPromise(
        buildNotarizedTransaction({
          manifest: new ManifestBuilder()
            .callMethod(user.address, "lock_fee", [decimal(5)])
            .callMethod(user.address, "withdraw", [address(hUSDC), decimal("10")])
            .takeAllFromWorktop(hUSDC, (b, id) => b.callMethod(exchange, "try_deposit_or_abort", [bucket(id), enumeration(0)]))
            .build(),
          signers: [user.key],
          notary: ledger.genesis.notary,
          startEpochInclusive: epoch,
          message: "hswap.app | Radix | hUSDC -> hETH"
        })
      )
      deposits.push({ intentHash: built.intentHash, hex: built.notarizedTransactionHex })
    }
    console.log(`  deposits signed in ${fmt((performance.now() - buildStart) / 1000, 2)} s (user side, not counted)`)

    const start = performance.now()
    let next = 0
    const statuses = new Map<string, number>()
    const worker = async () => {
      for (;;) {
        const deposit = deposits[next++]
        if (deposit === undefined) return
        await gateway.runtime.runPromise(ledger.submit(deposit.hex))
        const res = await fetch(`${http.url}/api/swap/${deposit.intentHash}`, {
          method: "POST",
          body: JSON.stringify({ tx_hash: deposit.intentHash })
        })
        const body = (await res.json()) as { status?: string }
        const key = `${res.status} ${body.status ?? "?"}`
        statuses.set(key, (statuses.get(key) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    // Registrations answer once settled (or `pending` after 20 s); wait for any still running.
    const completed = async () => {
      let done = 0
      for (const user of users) {
        const res = await fetch(`${http.url}/api/transactions/${user.address}`)
        const body = (await res.json()) as { transactions: ReadonlyArray<{ status: string }> }
        done += body.transactions.filter((t) => t.status === "completed").length
      }
      return done
    }
    let done = await completed()
    while (done < SWAPS && performance.now() - start < 300_000) {
      await Effect.runPromise(Effect.sleep("200 millis"))
      done = await completed()
    }
    const seconds = (performance.now() - start) / 1000
    console.log(`  answers     ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(", ")}`)
    console.log(`  completed   ${done}/${SWAPS} in ${fmt(seconds, 2)} s`)
    console.log(`  rate        ${fmt(done / seconds, 1)} swaps/s (deposit submit + register + verify + payout signed, submitted, committed)`)
  } finally {
    await http.close()
    await server.close()
    await gateway.dispose()
  }
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
