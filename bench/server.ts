/**
 * `npm run bench:server`: the exchange server on the in-process devnet, served on 127.0.0.1.
 *
 * 1. Load: autocannon at 500 requests/s for 20 s against `/api/liveprice/{hUSDC}/{hETH}` and `/api/health`
 *    (alternating), with the rate limiter off. Prints p50/p99 latency, errors and throughput.
 * 2. Settlement: 200 swaps end to end (user deposits signed and committed on the devnet ledger, registered over
 *    HTTP, verified, paid out with the operator key and committed). Prints swaps per second.
 * 3. Replicated (when PostgreSQL answers at HSWAP_BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test):
 *    the same settlement with 1 and with 3 `npm run server` replicas on a fresh PostgreSQL database and a fresh devnet
 *    served over loopback, deposits registered round-robin; then the load of 1. spread over the 3 replicas. Prints
 *    swaps per second for each, p50/p99 per replica, and payouts against deposits on the ledger (must be equal).
 *    Budget: 3 replicas settle at least 2x the swaps per second of one; p99 < 50 ms.
 *
 * It prints figures; it never asserts times. The budget (DESIGN.md §6) is p99 under 50 ms at 500 requests/s.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { Effect, Redacted } from "effect"
import { type DevnetGateway, startDevnetGateway } from "../src/devnet/gateway/node"
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
    const requests = [
      { method: "GET" as const, path: `/api/liveprice/${hUSDC}/${hETH}` },
      { method: "GET" as const, path: "/api/health" }
    ]
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
    console.log(
      `  latency     p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   max ${result.latency.max} ms`
    )
    console.log(`  errors      ${result.errors} (timeouts ${result.timeouts}, non-2xx ${result.non2xx})`)
    console.log(`  throughput  ${fmt(result.throughput.average / 1024)} KiB/s`)
    console.log(
      `  budget      p99 < 50 ms at 500 req/s: ${result.latency.p99 < 50 ? "met" : "NOT met"} (printed, not asserted)`
    )

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
            .takeAllFromWorktop(hUSDC, (b, id) =>
              b.callMethod(exchange, "try_deposit_or_abort", [bucket(id), enumeration(0)])
            )
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
    console.log(
      `  rate        ${fmt(done / seconds, 1)} swaps/s (deposit submit + register + verify + payout signed, submitted, committed)`
    )
  } finally {
    await http.close()
    await server.close()
    await gateway.dispose()
  }
}

// --- 3. replicated ---------------------------------------------------------------------------------------------------

const PG_URL = process.env["HSWAP_BENCH_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

const pgAdmin = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, f).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(PG_URL), maxConnections: 1, connectTimeout: "3 seconds" })),
      Effect.scoped
    )
  )

/** Signs `count` deposits of 10 hUSDC -> hETH by the genesis users (not submitted). */
const signDeposits = async (gateway: DevnetGateway, count: number) => {
  const ledger = await gateway.runtime.runPromise(Ledger)
  const { epoch } = await gateway.runtime.runPromise(ledger.state)
  const out: Array<{ readonly intentHash: string; readonly hex: string }> = []
  for (let i = 0; i < count; i++) {
    const user = ledger.genesis.users[i % ledger.genesis.users.length] ?? ledger.genesis.users[0]
    const built = await gateway.runtime.runPromise(
      buildNotarizedTransaction({
        manifest: new ManifestBuilder()
          .callMethod(user.address, "lock_fee", [decimal(5)])
          .callMethod(user.address, "withdraw", [address(hUSDC), decimal("10")])
          .takeAllFromWorktop(hUSDC, (b, id) =>
            b.callMethod(exchange, "try_deposit_or_abort", [bucket(id), enumeration(0)])
          )
          .build(),
        signers: [user.key],
        notary: ledger.genesis.notary,
        startEpochInclusive: epoch,
        message: "hswap.app | Radix | hUSDC -> hETH"
      })
    )
    out.push({ intentHash: built.intentHash, hex: built.notarizedTransactionHex })
  }
  return out
}

/** `replicas` server processes on a fresh database and devnet: settles SWAPS swaps, optionally loads them. */
const replicated = async (replicas: number, load: boolean) => {
  const name = `hswap_bench_${randomBytes(5).toString("hex")}`
  await pgAdmin((sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  const dbUrl = new URL(PG_URL)
  dbUrl.pathname = `/${name}`
  const gateway = await startDevnetGateway({ dataDir: undefined })
  const gw = createServer((req, res) => void gateway.mount.handle(req, res))
  await new Promise<void>((ok) => gw.listen(0, "127.0.0.1", ok))
  const gwAddress = gw.address()
  const gatewayUrl = `http://127.0.0.1:${typeof gwAddress === "object" && gwAddress !== null ? gwAddress.port : 0}/gateway`
  const procs = Array.from({ length: replicas }, (_, i) =>
    spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      env: {
        ...process.env,
        HSWAP_GATEWAY_URL: gatewayUrl,
        HSWAP_DATABASE_URL: dbUrl.toString(),
        HSWAP_PORT: "0",
        HSWAP_REPLICA_ID: `bench-${i + 1}`,
        HSWAP_RATE_LIMIT: "0",
        HSWAP_LOG_LEVEL: "error"
      },
      stdio: ["ignore", "pipe", "inherit"]
    })
  )
  try {
    const urls = await Promise.all(
      procs.map(
        (p) =>
          new Promise<string>((ok, fail) => {
            let out = ""
            p.stdout.on("data", (b: Buffer) => {
              out += b.toString()
              const m = /hSwap exchange server on (\S+)\/api/.exec(out)
              if (m?.[1] !== undefined) ok(m[1])
            })
            p.once("exit", (code) => fail(new Error(`replica exited ${code}`)))
          })
      )
    )
    const deposits = await signDeposits(gateway, SWAPS)
    const ledger = await gateway.runtime.runPromise(Ledger)
    const start = performance.now()
    let next = 0
    const worker = async (w: number) => {
      for (;;) {
        const i = next++
        const deposit = deposits[i]
        if (deposit === undefined) return
        await gateway.runtime.runPromise(ledger.submit(deposit.hex))
        await fetch(`${urls[(i + w) % urls.length]}/api/swap/${deposit.intentHash}`, { method: "POST" })
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY * replicas }, (_, w) => worker(w)))
    const payouts = async () =>
      (
        await gateway.runtime.runPromise(
          ledger.transactions({
            order: "Asc",
            kind: "User",
            status: "Success",
            withdrawnFrom: [exchange],
            depositedInto: [],
            affected: [],
            resources: [],
            limit: 10_000
          })
        )
      ).items.filter((t) =>
        (t.message as { content?: { value?: unknown } } | undefined)?.content?.value
          ?.toString()
          .startsWith("hSwap payout for")
      )
    let paid = (await payouts()).length
    while (paid < SWAPS && performance.now() - start < 300_000) {
      await Effect.runPromise(Effect.sleep("200 millis"))
      paid = (await payouts()).length
    }
    const seconds = (performance.now() - start) / 1000
    const distinct = new Set(
      (await payouts()).map((t) => (t.message as { content?: { value?: unknown } }).content?.value)
    ).size
    console.log(
      `  ${replicas} replica${replicas === 1 ? " " : "s"}  ${fmt(paid / seconds, 1)} swaps/s (${paid}/${SWAPS} in ${fmt(seconds, 2)} s); payouts ${paid} for ${SWAPS} deposits, ${distinct} distinct`
    )
    if (load) {
      const requests = [
        { method: "GET" as const, path: `/api/liveprice/${hUSDC}/${hETH}` },
        { method: "GET" as const, path: "/api/health" }
      ]
      const results = await Promise.all(
        urls.map((url) =>
          autocannon({
            url,
            connections: 10,
            overallRate: Math.round(RATE / urls.length),
            duration: DURATION_S,
            workers: 1,
            requests
          })
        )
      )
      results.forEach((r, i) =>
        console.log(
          `  load via ${i + 1}  ${r.requests.total} requests at ~${Math.round(RATE / urls.length)}/s: p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   errors ${r.errors} non-2xx ${r.non2xx}`
        )
      )
      const worst = Math.max(...results.map((r) => r.latency.p99))
      console.log(
        `  budget      p99 < 50 ms at ${RATE} req/s over ${urls.length} replicas: ${worst < 50 ? "met" : "NOT met"} (worst p99 ${worst} ms)`
      )
    }
    return paid / seconds
  } finally {
    for (const p of procs) p.kill("SIGKILL")
    gw.close()
    await gateway.dispose()
    await pgAdmin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch((e: unknown) =>
      console.error(`dropping ${name}:`, e)
    )
  }
}

const mainReplicated = async () => {
  const reachable = await pgAdmin((sql) => sql`SELECT 1`).then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e.message : String(e))
  )
  if (reachable !== undefined) {
    console.log(`replicated: SKIPPED, PostgreSQL does not answer at ${PG_URL} (${reachable})`)
    return
  }
  console.log(
    `replicated: ${SWAPS} swaps on PostgreSQL, replicas as separate processes, deposits registered round-robin`
  )
  const one = await replicated(1, false)
  const three = await replicated(3, true)
  console.log(
    `  budget      3 replicas at least 2x one: ${three >= 2 * one ? "met" : "NOT met"} (${fmt(three / one, 2)}x; printed, not asserted)`
  )
}

main()
  .then(mainReplicated)
  .catch((e: unknown) => {
    console.error(e)
    process.exit(1)
  })
