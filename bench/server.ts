/**
 * `npm run bench:server`: the exchange server on the in-process devnet, served on 127.0.0.1.
 *
 * 1. Load: autocannon at 500 requests/s for 20 s against `/api/liveprice/{hUSDC}/{hETH}` and `/api/health`
 *    (alternating), with the rate limiter off. Prints p50/p99 latency, errors and throughput.
 * 2. Settlement: 200 swaps end to end (user deposits signed and committed on the devnet ledger, registered over
 *    HTTP, verified, paid out with the operator key and committed). Prints swaps per second.
 * 3. Replicated (when PostgreSQL answers at HSWAP_BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test):
 *    what scaling costs on the same cores, 1 against 3 `npm run server` replicas, each on a fresh PostgreSQL database
 *    and a fresh devnet served over loopback, under the same offered load: the same BENCH_REPLICATED_SWAPS (600) swaps
 *    registered round-robin by the same 24 clients (BENCH_CLIENTS, in a process of their own: bench/clients.ts, which
 *    submits each deposit to the devnet's gateway and registers it), after 100 unmeasured warm-up swaps a replica
 *    (BENCH_WARMUP), then
 *    price + health at the same BENCH_REPLICATED_RATE (300) requests/s spread evenly over the replicas. Prints per run
 *    swaps per second, payouts against deposits on the ledger (must be equal), the CPU each process used (from /proc:
 *    the replicas, the bench process holding the devnet, PostgreSQL's backends for the run's database and its shared
 *    background processes, and the clients' own count) per swap, gateway calls per swap, and how busy the whole
 *    machine was (other work included). Both cases run BENCH_ROUNDS (2) times in alternating order (1, 3, 3, 1); then
 *    their means side by side against the budgets (3 replicas settle at least 0.9x the swaps per second of 1; CPU per
 *    swap over all processes with 3 at most 1.1x that with 1; p99 of price and health through the 3 replicas under
 *    50 ms), and the capacity model that follows from the CPU per swap.
 *
 * 4. Flows: the atomic flow beside the deposit flow, on one `npm run server` process (SQLite) against a fresh devnet
 *    served over loopback: BENCH_FLOW_SWAPS swaps of 2 hUSDC -> hETH each way, one after another (after
 *    BENCH_FLOW_WARMUP, 20, unmeasured of each), every one at a fresh quote. Prints, per flow, the time from the
 *    user's approval to the swap completed (deposit: the wallet signs and submits the deposit, the app registers it,
 *    the server pays it out and the payout commits; atomic: the wallet signs the pre-authorisation, the app posts it,
 *    the server's parent transaction commits both legs), p50 and p90, and the server process's CPU per swap (from
 *    /proc). The app's own waits (its status polls) are not in it.
 *
 * BENCH_PARTS (load, settlement, flows, replicated; all by default) picks parts; BENCH_PROFILE_DIR makes each replica
 * (and the flows' server) write a CPU profile there. BENCH_SWAPS, BENCH_REPLICATED_SWAPS, BENCH_WARMUP, BENCH_DURATION,
 * BENCH_RATE, BENCH_REPLICATED_RATE, BENCH_FLOW_SWAPS, BENCH_FLOW_WARMUP set the sizes; BENCH_ROUNDS (2) how many
 * times the replicated part runs 1 and 3 replicas, in alternating order, its figures the mean; BENCH_REPLICAS=1 runs
 * it with 1 replica only, once (no comparison); BENCH_INDEPENDENT=1 adds to each round 3 replicas that share nothing
 * (a database each, no watcher), which splits what 3 replicas cost into coordinating and being 3 processes.
 *
 * It prints figures; it never asserts times. The budget (DESIGN.md §6) is p99 under 50 ms at 500 requests/s.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import autocannon from "autocannon"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import * as os from "node:os"
import { join } from "node:path"
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { Effect, Redacted } from "effect"
import { type DevnetGateway, startDevnetGateway } from "../src/devnet/gateway/node"
import { type BuiltTransaction, buildNotarizedTransaction } from "../src/devnet/ledger/build"
import { Ledger } from "../src/devnet/ledger/Ledger"
import { DevnetAddresses } from "../src/exchange/devnet-addresses"
import { devnetExchangeServerOptions } from "../src/devnet/exchange"
import { makeWalletEmulator } from "../src/devnet/wallet/index"
import { atomicSubintentManifest, listenExchangeServer, startExchangeServer } from "../src/server/index"
import { quotedTerms } from "../src/server/Quotes"

const RATE = Number(process.env["BENCH_RATE"] ?? 500)
const DURATION_S = Number(process.env["BENCH_DURATION"] ?? 20)
const SWAPS = Number(process.env["BENCH_SWAPS"] ?? 200)
/** Swaps measured in each run of the replicated part: enough that steady state, not the first swaps, sets the figure. */
const REPLICATED_SWAPS = Number(process.env["BENCH_REPLICATED_SWAPS"] ?? 600)
/** Which parts run: any of load, settlement, replicated (comma-separated); all by default. */
const PARTS = new Set(
  (process.env["BENCH_PARTS"] ?? "load,settlement,flows,replicated").split(",").map((p) => p.trim())
)
/** Swaps of each flow in the flows part. */
const FLOW_SWAPS = Number(process.env["BENCH_FLOW_SWAPS"] ?? 30)
/**
 * Unmeasured swaps of each flow before the flows are measured (BENCH_FLOW_WARMUP): enough for the server's code on
 * both paths to be compiled, as a server that has been running has it; with 3, the measured swaps still paid for
 * compiling it.
 */
const FLOW_WARMUP = Number(process.env["BENCH_FLOW_WARMUP"] ?? 20)
/** Rounds of the replicated part: each runs 1 and 3 replicas, in alternating order. */
const ROUNDS = Math.max(1, Number(process.env["BENCH_ROUNDS"] ?? 2))
/** BENCH_INDEPENDENT=1: each round also runs 3 replicas that share nothing (the control case, see mainReplicated). */
const INDEPENDENT = process.env["BENCH_INDEPENDENT"] === "1"
/** When set, each replica runs with `--cpu-prof` and writes its profile here (it is stopped with SIGTERM). */
const PROFILE_DIR = process.env["BENCH_PROFILE_DIR"]
/** Node or V8 flags for the replicas alone (BENCH_REPLICA_FLAGS, space-separated), to compare runtime settings. */
const REPLICA_FLAGS = (process.env["BENCH_REPLICA_FLAGS"] ?? "").split(" ").filter((f) => f !== "")
const CONCURRENCY = 8
/** Clients registering deposits in the replicated case: the same for 1 and for 3 replicas (the same offered load). */
const CLIENTS = Number(process.env["BENCH_CLIENTS"] ?? 24)
/**
 * Warm-up swaps each replica settles before the replicated measurement (not counted, BENCH_WARMUP): 100 with 1
 * replica, 300 with 3, so every replica's code is as compiled as the single one's (its CPU per swap is the figure
 * compared), and the devnet and the database are warm in both runs. With 30, a replica still compiled its code
 * through the measured swaps and the figures swung by a third.
 */
const WARMUP = Number(process.env["BENCH_WARMUP"] ?? 100)
/** Seconds the replicas are watched idle after the warm-up: what a replica costs doing nothing (its polls, timers). */
const IDLE_S = 3
/** Price + health requests per second spread over the replicas in the replicated part, the same with 1 and with 3. */
const REPLICATED_RATE = Number(process.env["BENCH_REPLICATED_RATE"] ?? 300)
/** Load connections in the replicated part: a multiple of 3 so each of 3 replicas gets exactly a third of the rate. */
const REPLICATED_CONNECTIONS = 12

const { hUSDC, hETH } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount

const fmt = (n: number, digits = 1) => n.toFixed(digits)

const main = async () => {
  if (!PARTS.has("load") && !PARTS.has("settlement")) return
  const gateway = await startDevnetGateway({ dataDir: undefined })
  const server = await startExchangeServer({
    ...devnetExchangeServerOptions(undefined, gateway),
    rateLimitPerMinute: 0,
    logLevel: "error"
  })
  const http = await listenExchangeServer(server, 0, "127.0.0.1")
  try {
    if (PARTS.has("load")) await load(http.url)
    if (PARTS.has("settlement")) await settlement(gateway, http.url)
  } finally {
    await http.close()
    await server.close()
    await gateway.dispose()
  }
}

/** 1. Load on the single SQLite process. */
const load = async (url: string) => {
  console.log(`load: ${RATE} requests/s for ${DURATION_S} s on ${url} (liveprice + health, limiter off)`)
  const requests = [
    { method: "GET" as const, path: `/api/liveprice/${hUSDC}/${hETH}` },
    { method: "GET" as const, path: "/api/health" }
  ]
  // The load generator runs in a worker thread, off the server's event loop; a short warm-up goes first.
  await autocannon({ url, connections: 10, overallRate: RATE, duration: 2, workers: 1, requests })
  const result = await autocannon({
    url,
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
}

/** 2. Settlement on the single SQLite process. */
const settlement = async (gateway: DevnetGateway, url: string) => {
  const ledger = await gateway.runtime.runPromise(Ledger)
  const users = ledger.genesis.users
  console.log(`settlement: ${SWAPS} swaps of ${DEPOSIT_HUSDC} hUSDC -> hETH by ${users.length} devnet users`)
  const buildStart = performance.now()
  const { epoch } = await gateway.runtime.runPromise(ledger.state)
  const deposits: Array<{ readonly intentHash: string; readonly hex: string }> = []
  for (let i = 0; i < SWAPS; i++) {
    const built = await signDeposit(gateway, ledger, epoch, i, "hswap.app | Radix | hUSDC -> hETH")
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
      const res = await fetch(`${url}/api/swap/${deposit.intentHash}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
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
      const res = await fetch(`${url}/api/transactions/${user.address}`)
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
}

// --- 4. flows ------------------------------------------------------------------------------------------------------

interface FlowQuote {
  readonly quote_id: string
  readonly quote_expires_at: number
  readonly effective_rate: string
  readonly fee_out: string
  readonly atomic?: boolean
}

const postJson = async (url: string, body: unknown) => {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000)
  })
  return { status: r.status, json: (await r.json()) as Record<string, unknown> }
}

const getJson = async (url: string) => {
  const r = await fetch(url, { signal: AbortSignal.timeout(60_000) })
  return { status: r.status, json: (await r.json()) as Record<string, unknown> }
}

/** The atomic flow beside the deposit flow: approve-to-completed and the server's CPU per swap (see the header). */
const flows = async () => {
  if (!PARTS.has("flows")) return
  const dir = mkdtempSync(join(os.tmpdir(), "hswap-bench-flows-"))
  const gateway = await startDevnetGateway({ dataDir: undefined })
  const gw = createServer((req, res) => void gateway.mount.handle(req, res))
  await new Promise<void>((ok) => gw.listen(0, "127.0.0.1", ok))
  const gwAddress = gw.address()
  const gatewayUrl = `http://127.0.0.1:${typeof gwAddress === "object" && gwAddress !== null ? gwAddress.port : 0}/gateway`
  const proc = spawn(
    process.execPath,
    [
      ...(PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]),
      "--import",
      "tsx",
      "src/server/main.ts"
    ],
    {
      env: {
        ...process.env,
        HSWAP_GATEWAY_URL: gatewayUrl,
        HSWAP_DB_PATH: join(dir, "exchange.sqlite"),
        HSWAP_PORT: "0",
        HSWAP_RATE_LIMIT: "0",
        HSWAP_LOG_LEVEL: "error"
      },
      stdio: ["ignore", "pipe", "inherit"]
    }
  )
  try {
    const url = await new Promise<string>((ok, fail) => {
      let out = ""
      proc.stdout.on("data", (b: Buffer) => {
        out += b.toString()
        const m = /hSwap exchange server on (\S+)\/api/.exec(out)
        if (m?.[1] !== undefined) ok(m[1])
      })
      proc.once("exit", (code) => fail(new Error(`the server exited ${code}`)))
    })
    const ledger = await gateway.runtime.runPromise(Ledger)
    const wallet = await gateway.runtime.runPromise(makeWalletEmulator)
    const users = ledger.genesis.users
    const amount = DEPOSIT_HUSDC
    let nonce = 1_000_000
    let interaction = 0
    const quote = async () => {
      const q = await getJson(`${url}/api/liveprice/${hUSDC}/${hETH}`)
      if (q.status !== 200) throw new Error(`liveprice answered ${q.status}`)
      return q.json as unknown as FlowQuote
    }

    /** One deposit swap; its approve-to-completed time in ms. */
    const depositSwap = async () => {
      const q = await quote()
      const { epoch } = await gateway.runtime.runPromise(ledger.state)
      const t0 = performance.now()
      const built = await signDeposit(
        gateway,
        ledger,
        epoch,
        nonce++,
        `hswap.app | Radix | hUSDC -> hETH | quote ${q.quote_id}`
      )
      await gateway.runtime.runPromise(ledger.submit(built.notarizedTransactionHex))
      const registered = await postJson(`${url}/api/swap/${built.intentHash}`, { tx_hash: built.intentHash })
      let status = String(registered.json["status"])
      while (status !== "completed") {
        if (status !== "pending") throw new Error(`deposit ${built.intentHash}: ${JSON.stringify(registered.json)}`)
        await Effect.runPromise(Effect.sleep("20 millis"))
        const again = await postJson(`${url}/api/swap/${built.intentHash}`, { tx_hash: built.intentHash })
        status = String(again.json["status"])
      }
      return performance.now() - t0
    }

    /** One atomic swap; its approve-to-completed time in ms. */
    const atomicSwap = async (i: number) => {
      const q = await quote()
      if (q.atomic !== true) throw new Error("the server does not offer atomic swaps")
      const user = users[i % users.length] ?? users[0]
      const quoted = quotedTerms(amount, { rate: q.effective_rate, fee_out: q.fee_out }, 18)?.quoted ?? ""
      const t0 = performance.now()
      const answer = await gateway.runtime.runPromise(
        wallet.answer(
          {
            items: {
              discriminator: "preAuthorizationRequest",
              request: {
                discriminator: "subintent",
                version: 1,
                manifestVersion: 2,
                subintentManifest: atomicSubintentManifest(
                  { fromResource: hUSDC, toResource: hETH, amountIn: amount, quotedOut: quoted },
                  user.address
                ),
                expiration: { discriminator: "expireAtTime", unixTimestampSeconds: q.quote_expires_at }
              }
            },
            interactionId: `00000000-0000-4000-9000-${String(++interaction).padStart(12, "0")}`,
            metadata: {
              version: 2,
              dAppDefinitionAddress: DevnetAddresses.dAppDefinition,
              networkId: 240,
              origin: "http://127.0.0.1:8080"
            }
          },
          { approve: true }
        )
      )
      if (answer.discriminator !== "success" || answer.items.discriminator !== "preAuthorizationResponse")
        throw new Error(`the wallet did not sign: ${JSON.stringify(answer)}`)
      const signed = answer.items.response
      if (signed === undefined) throw new Error("the wallet answered no signed partial transaction")
      let r = await postJson(`${url}/api/atomic-swap`, {
        quote_id: q.quote_id,
        amount,
        signed_partial_transaction: signed.signedPartialTransaction
      })
      while (r.status === 202) {
        await Effect.runPromise(Effect.sleep("20 millis"))
        r = await getJson(`${url}/api/atomic-swap/${signed.subintentHash}`)
      }
      if (r.json["state"] !== "committed") throw new Error(`atomic swap: ${r.status} ${JSON.stringify(r.json)}`)
      return performance.now() - t0
    }

    // Warm-up, not measured: code loaded and compiled, the toolkit loaded, connections open.
    for (let i = 0; i < FLOW_WARMUP; i++) {
      await depositSwap()
      await atomicSwap(i)
    }
    const measure = async (swap: (i: number) => Promise<number>) => {
      const cpu0 = cpuSecondsOf(proc.pid)
      const times: Array<number> = []
      for (let i = 0; i < FLOW_SWAPS; i++) times.push(await swap(i))
      const cpu = cpuSecondsOf(proc.pid) - cpu0
      const sorted = [...times].sort((a, b) => a - b)
      const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
      return { p50: pct(50), p90: pct(90), cpuMs: (cpu * 1000) / FLOW_SWAPS }
    }
    const deposit = await measure(depositSwap)
    const atomic = await measure(atomicSwap)
    console.log(
      `flows: ${FLOW_SWAPS} swaps of ${amount} hUSDC -> hETH each, one at a time, one server process (SQLite), devnet over loopback`
    )
    for (const [name, f, what] of [
      ["deposit", deposit, "deposit signed, committed, registered, payout committed"],
      ["atomic ", atomic, "pre-authorisation signed, posted, one transaction committed"]
    ] as const) {
      console.log(
        `  ${name}     approve to completed p50 ${fmt(f.p50, 0)} ms, p90 ${fmt(f.p90, 0)} ms; server CPU ${fmt(f.cpuMs, 1)} ms a swap (${what})`
      )
    }
    console.log(
      `  atomic/deposit  time ${fmt(atomic.p50 / deposit.p50, 2)}x, server CPU ${fmt(atomic.cpuMs / deposit.cpuMs, 2)}x`
    )
  } finally {
    // SIGTERM lets the server exit normally, which is when --cpu-prof writes its profile.
    await new Promise<void>((ok) =>
      proc.exitCode !== null
        ? ok()
        : (proc.once("exit", () => ok()), proc.kill(PROFILE_DIR === undefined ? "SIGKILL" : "SIGTERM"))
    )
    gw.close()
    await gateway.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

// --- 3. replicated ---------------------------------------------------------------------------------------------------

const PG_URL = process.env["HSWAP_BENCH_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/test"

/** `f` on a connection of its own to the database at `url`. */
const pgAt = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.flatMap(SqlClient.SqlClient, f).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, connectTimeout: "3 seconds" })),
      Effect.scoped
    )
  )

const pgAdmin = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => pgAt(PG_URL, f)

/**
 * After the warm-up, the replicas are waited for until they are quiet: under QUIET_CORES of CPU each over two
 * half-seconds in a row (QUIET_MAX_MS at most), so that what the warm-up left running is not counted as the
 * measurement's work.
 */
const QUIET_CORES = 0.03
const QUIET_MAX_MS = 60_000

// CPU accounting from /proc (Linux): seconds of CPU (user + system) a process has used, and the machine's busy time.

const TICKS_PER_SECOND = 100

/**
 * CPU seconds in a /proc `stat` file, in all (user + system) and in the kernel (system) alone; 0 when it is gone or
 * /proc is not there.
 */
const statTimes = (path: string): { readonly total: number; readonly kernel: number } => {
  try {
    const stat = readFileSync(path, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command name.
    const kernel = Number(fields[12])
    return { total: (Number(fields[11]) + kernel) / TICKS_PER_SECOND, kernel: kernel / TICKS_PER_SECOND }
  } catch {
    return { total: 0, kernel: 0 }
  }
}

/** CPU seconds process `pid` has used so far, in all and in the kernel (system calls, wake-ups, page faults). */
const cpuTimesOf = (pid: number | undefined) =>
  pid === undefined ? { total: 0, kernel: 0 } : statTimes(`/proc/${pid}/stat`)

/** CPU seconds used by process `pid` so far. */
const cpuSecondsOf = (pid: number | undefined): number => cpuTimesOf(pid).total

/** CPU seconds process `pid` has used so far on its main thread (the event loop) alone: the rest went to V8's and libuv's threads (GC, compiling, the thread pool). */
const mainThreadSecondsOf = (pid: number | undefined): number =>
  pid === undefined ? 0 : statTimes(`/proc/${pid}/task/${pid}/stat`).total

/**
 * Context switches of a process so far (all its threads, from /proc/<pid>/status of each task): voluntary (it waited:
 * an event loop with nothing to run) and involuntary (preempted by another process wanting the core).
 */
const switchesOf = (pid: number | undefined): { readonly voluntary: number; readonly involuntary: number } => {
  let voluntary = 0
  let involuntary = 0
  if (pid === undefined) return { voluntary, involuntary }
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const status = readFileSync(`/proc/${pid}/task/${task}/status`, "utf8")
      voluntary += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0)
      involuntary += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0)
    }
  } catch {
    // The process is gone: what it did is lost with it.
  }
  return { voluntary, involuntary }
}

/** Busy and total CPU seconds of the whole machine (all cores) so far. */
const machineCpu = (): { readonly busy: number; readonly total: number } => {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? ""
    const ticks = line.trim().split(/\s+/).slice(1).map(Number)
    const total = ticks.reduce((a, b) => a + b, 0)
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0)
    return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND }
  } catch {
    return { busy: 0, total: 0 }
  }
}

/** The bench's own process: the devnet ledger, its gateway over loopback and the clients (deposits, registrations). */
const selfCpuSeconds = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

/**
 * PostgreSQL's processes working for the databases `names`: its backends (and autovacuum workers), and the server's shared
 * background processes (WAL writer, checkpointer, background writer, launchers; no database), which write the run's
 * WAL and pages too. The shared ones also serve whatever else uses this PostgreSQL, so they are printed apart.
 */
const pgProcessesOf = (names: ReadonlyArray<string>) =>
  pgAdmin(
    (sql) =>
      sql<{ pid: number; shared: boolean }>`SELECT pid, datname IS NULL AS shared FROM pg_stat_activity
      WHERE datname IN ${sql.in(names)} OR datname IS NULL`
  ).then(
    (rows) => rows.map((r) => ({ pid: Number(r.pid), shared: Boolean(r.shared) })),
    (e: unknown) => {
      // The CPU figures then leave PostgreSQL out: say so instead of printing a silent 0.
      console.log(
        `  (PostgreSQL processes not read, their CPU is not counted: ${e instanceof Error ? e.message : String(e)})`
      )
      return []
    }
  )

/**
 * The hUSDC of every bench deposit: 2, so that the devnet users' 5,000 hUSDC each last for long warm-ups (the
 * replicated part with BENCH_WARMUP=1000 and 3 replicas deposits 3,600 times).
 */
const DEPOSIT_HUSDC = "2"

const signDeposit = (gateway: DevnetGateway, ledger: Ledger, epoch: number, i: number, message: string | undefined) => {
  const user = ledger.genesis.users[i % ledger.genesis.users.length] ?? ledger.genesis.users[0]
  return gateway.runtime.runPromise(
    buildNotarizedTransaction({
      manifest: new ManifestBuilder()
        .callMethod(user.address, "lock_fee", [decimal(5)])
        .callMethod(user.address, "withdraw", [address(hUSDC), decimal(DEPOSIT_HUSDC)])
        .takeAllFromWorktop(hUSDC, (b, id) =>
          b.callMethod(exchange, "try_deposit_or_abort", [bucket(id), enumeration(0)])
        )
        .build(),
      signers: [user.key],
      notary: ledger.genesis.notary,
      startEpochInclusive: epoch,
      ...(message === undefined ? {} : { message }),
      nonce: i + 1
    })
  )
}

/**
 * The devnet's commit rate on its own: `count` transfers like the swaps' deposits (no swap message), submitted
 * in process from CONCURRENCY clients to a fresh devnet with nothing else running. Each swap commits two
 * transactions (the deposit and the payout), so half of it is a ceiling on swaps per second.
 */
const devnetCeiling = async (count: number) => {
  const gateway = await startDevnetGateway({ dataDir: undefined })
  try {
    const ledger = await gateway.runtime.runPromise(Ledger)
    const { epoch } = await gateway.runtime.runPromise(ledger.state)
    const txs: Array<BuiltTransaction> = []
    for (let i = 0; i < count; i++) txs.push(await signDeposit(gateway, ledger, epoch, i, undefined))
    const cpu0 = selfCpuSeconds()
    const start = performance.now()
    let next = 0
    const client = async () => {
      for (let tx = txs[next++]; tx !== undefined; tx = txs[next++]) {
        await gateway.runtime.runPromise(ledger.submit(tx.notarizedTransactionHex))
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, client))
    const seconds = (performance.now() - start) / 1000
    return { txPerSecond: count / seconds, cpuPerTx: (selfCpuSeconds() - cpu0) / count }
  } finally {
    await gateway.dispose()
  }
}

/**
 * `replicas` server processes on a fresh database and devnet: settles REPLICATED_SWAPS swaps, then loads them with
 * price + health.
 */
const replicated = async (replicas: number, independent = false) => {
  // Coordinated replicas share one database; independent ones (the control case) have one each.
  const names = Array.from(
    { length: independent ? replicas : 1 },
    () => `hswap_bench_${randomBytes(5).toString("hex")}`
  )
  for (const name of names) await pgAdmin((sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  const dbUrls = names.map((name) => {
    const url = new URL(PG_URL)
    url.pathname = `/${name}`
    return url.toString()
  })
  const gateway = await startDevnetGateway({ dataDir: undefined })
  // The replicas' gateway calls by path, to show what a swap reads (a read repeated is waste).
  const calls = new Map<string, number>()
  const gw = createServer((req, res) => {
    const path = (req.url ?? "").replace(/\?.*$/, "")
    calls.set(path, (calls.get(path) ?? 0) + 1)
    void gateway.mount.handle(req, res)
  })
  // The clients submit their deposits to the same devnet through a gateway address of their own (not counted).
  const clientGw = createServer((req, res) => void gateway.mount.handle(req, res))
  await new Promise<void>((ok) => gw.listen(0, "127.0.0.1", ok))
  await new Promise<void>((ok) => clientGw.listen(0, "127.0.0.1", ok))
  const portOf = (s: typeof gw) => {
    const a = s.address()
    return typeof a === "object" && a !== null ? a.port : 0
  }
  const gatewayUrl = `http://127.0.0.1:${portOf(gw)}/gateway`
  const clientGatewayUrl = `http://127.0.0.1:${portOf(clientGw)}/gateway`
  // The registering clients, in a process of their own (bench/clients.ts): started now, they wait for their job.
  const clients = spawn(process.execPath, ["--import", "tsx", "bench/clients.ts"], {
    stdio: ["pipe", "pipe", "inherit"]
  })
  let clientsOut = ""
  clients.stdout.on("data", (b: Buffer) => (clientsOut += b.toString()))
  const clientsDone = new Promise<{ readonly answered: ReadonlyArray<number>; readonly cpuSeconds: number }>(
    (ok, fail) =>
      clients.once("exit", (code) => {
        if (code !== 0) return fail(new Error(`the clients exited ${code}`))
        try {
          ok(JSON.parse(clientsOut) as { answered: ReadonlyArray<number>; cpuSeconds: number })
        } catch (e) {
          fail(e instanceof Error ? e : new Error(String(e)))
        }
      })
  )
  const procs = Array.from({ length: replicas }, (_, i) =>
    spawn(
      process.execPath,
      [
        ...(PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]),
        ...REPLICA_FLAGS,
        "--import",
        "tsx",
        "src/server/main.ts"
      ],
      {
        env: {
          ...process.env,
          HSWAP_GATEWAY_URL: gatewayUrl,
          HSWAP_DATABASE_URL: dbUrls[independent ? i : 0] ?? "",
          // Independent replicas each see every deposit on the ledger and know only their own: the watcher makes its
          // first pass at start (the ledger's tip then, no deposits yet) and its next one after the case is over.
          ...(independent ? { HSWAP_WATCHER_POLL_MS: "60000" } : {}),
          HSWAP_PORT: "0",
          HSWAP_REPLICA_ID: `bench-${i + 1}`,
          HSWAP_RATE_LIMIT: "0",
          HSWAP_LOG_LEVEL: "error"
        },
        stdio: ["ignore", "pipe", "inherit"]
      }
    )
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
    const ledger = await gateway.runtime.runPromise(Ledger)
    const { epoch } = await gateway.runtime.runPromise(ledger.state)
    const deposits: Array<BuiltTransaction> = []
    for (let i = 0; i < REPLICATED_SWAPS + WARMUP * replicas; i++) {
      deposits.push(await signDeposit(gateway, ledger, epoch, i, "hswap.app | Radix | hUSDC -> hETH"))
    }
    /** Submits a deposit to the devnet in process; a submit that hangs is an error naming it. */
    const submit = (deposit: BuiltTransaction) =>
      gateway.runtime.runPromise(
        ledger.submit(deposit.notarizedTransactionHex).pipe(
          Effect.timeoutFail({
            duration: "60 seconds",
            onTimeout: () => new Error(`the devnet did not answer the submit of ${deposit.intentHash} in 60 s`)
          })
        )
      )
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
    // Warm-up, not measured: each replica settles WARMUP swaps first (its code loaded and compiled, its connections
    // open), as a long-running replica would be.
    const warm = deposits.splice(REPLICATED_SWAPS)
    // Submitted one at a time (the measured clients below submit at most CLIENTS at once), registered together.
    for (const deposit of warm) await submit(deposit)
    const warmAnswers = await Promise.all(
      warm.map(async (deposit, i) => {
        const r = await fetch(`${urls[i % urls.length]}/api/swap/${deposit.intentHash}`, {
          method: "POST",
          signal: AbortSignal.timeout(120_000)
        })
        return `${r.status} ${((await r.json()) as { status?: string; error?: string }).status ?? "?"}`
      })
    )
    const warmStart = performance.now()
    while ((await payouts()).length < warm.length) {
      if (performance.now() - warmStart > 120_000) throw new Error(`warm-up not settled: ${warmAnswers.join(", ")}`)
      await Effect.runPromise(Effect.sleep("50 millis"))
    }
    // The warm-up's tail is not the measurement's: every warm-up swap final in the database (its payout's status
    // read and its completion written), and the replicas quiet (the watcher past the warm-up's transactions).
    const finalWarm = async () => {
      let n = 0
      for (const url of dbUrls)
        n += await pgAt(
          url,
          (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM swaps WHERE state IN ('completed', 'refunded')`
        ).then((rows) => Number(rows[0]?.n ?? 0))
      return n
    }
    while ((await finalWarm()) < warm.length) {
      if (performance.now() - warmStart > 180_000) throw new Error("warm-up swaps not final in the database")
      await Effect.runPromise(Effect.sleep("100 millis"))
    }
    const quietStart = performance.now()
    for (let quietFor = 0; quietFor < 2 && performance.now() - quietStart < QUIET_MAX_MS;) {
      const before = procs.reduce((sum, p) => sum + cpuSecondsOf(p.pid), 0)
      await Effect.runPromise(Effect.sleep("500 millis"))
      const cores = (procs.reduce((sum, p) => sum + cpuSecondsOf(p.pid), 0) - before) / 0.5
      quietFor = cores < QUIET_CORES * replicas ? quietFor + 1 : 0
    }
    const warmTail = (performance.now() - quietStart) / 1000
    const idle0 = procs.map((p) => cpuSecondsOf(p.pid))
    const idleStart = performance.now()
    await Effect.runPromise(Effect.sleep(`${IDLE_S} seconds`))
    const idleSeconds = (performance.now() - idleStart) / 1000
    const idleCores = procs.map((p, i) => (cpuSecondsOf(p.pid) - (idle0[i] ?? 0)) / idleSeconds)
    const pg0 = await pgProcessesOf(names)
    const replicas0 = procs.map((p) => cpuTimesOf(p.pid))
    const cpu0 = {
      self: selfCpuSeconds(),
      replicas: replicas0.map((t) => t.total),
      replicasMain: procs.map((p) => mainThreadSecondsOf(p.pid)),
      replicasKernel: replicas0.map((t) => t.kernel),
      switches: procs.map((p) => switchesOf(p.pid)),
      pg: new Map(pg0.map(({ pid }) => [pid, cpuSecondsOf(pid)])),
      machine: machineCpu()
    }
    calls.clear()
    const start = performance.now()
    clients.stdin.end(
      JSON.stringify({
        gateway: clientGatewayUrl,
        replicas: urls,
        deposits: deposits.map((d) => ({ hex: d.notarizedTransactionHex, hash: d.intentHash })),
        clients: CLIENTS
      })
    )
    const { answered, cpuSeconds: clientsCpu } = await clientsDone
    let paid = (await payouts()).length - warm.length
    while (paid < REPLICATED_SWAPS && performance.now() - start < 300_000) {
      await Effect.runPromise(Effect.sleep("50 millis"))
      paid = (await payouts()).length - warm.length
    }
    const seconds = (performance.now() - start) / 1000
    const callsPerSwap = [...calls]
      .sort((a, b) => b[1] - a[1])
      .map(([path, n]) => `${path.replace(/^\/gateway/, "")} ${fmt(n / Math.max(1, paid), 2)}`)
    const pg1 = await pgProcessesOf(names)
    // A backend that started during the run counts from 0; one that ended during it is lost (the pools keep theirs).
    const pgCpu = (shared: boolean) =>
      pg1
        .filter((p) => p.shared === shared)
        .reduce((sum, { pid }) => sum + cpuSecondsOf(pid) - (cpu0.pg.get(pid) ?? 0), 0)
    const replicas1 = procs.map((p) => cpuTimesOf(p.pid))
    const cpu = {
      self: selfCpuSeconds() - cpu0.self,
      replicas: replicas1.map((t, i) => t.total - (cpu0.replicas[i] ?? 0)),
      replicasMain: procs.map((p, i) => mainThreadSecondsOf(p.pid) - (cpu0.replicasMain[i] ?? 0)),
      replicasKernel: replicas1.map((t, i) => t.kernel - (cpu0.replicasKernel[i] ?? 0)),
      switches: procs.map((p, i) => {
        const now = switchesOf(p.pid)
        const then = cpu0.switches[i] ?? { voluntary: 0, involuntary: 0 }
        return { voluntary: now.voluntary - then.voluntary, involuntary: now.involuntary - then.involuntary }
      }),
      pg: pgCpu(false),
      pgShared: pgCpu(true),
      machine: machineCpu()
    }
    const distinct =
      new Set((await payouts()).map((t) => (t.message as { content?: { value?: unknown } }).content?.value)).size -
      warm.length
    const sorted = [...answered].sort((a, b) => a - b)
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
    const cores = (s: number) => fmt(s / seconds, 2)
    const machineBusy = cpu.machine.busy - cpu0.machine.busy
    const machineCores = (cpu.machine.total - cpu0.machine.total) / seconds
    console.log(
      `  ${replicas} replica${replicas === 1 ? " " : "s"}${independent ? " independent, a database each:" : ""}  ${fmt(paid / seconds, 1)} swaps/s (${paid}/${REPLICATED_SWAPS} in ${fmt(seconds, 2)} s); payouts ${paid} for ${REPLICATED_SWAPS} deposits, ${distinct} distinct`
    )
    console.log(
      `    latency   submit + registration answered: p50 ${fmt(pct(50), 0)} ms, p99 ${fmt(pct(99), 0)} ms (${CLIENTS} clients)`
    )
    console.log(
      `    devnet    ${fmt((2 * paid) / seconds, 1)} commits/s (deposits + payouts), bench process (the devnet: its ledger and gateway) ${cores(cpu.self)} cores; the clients' process ${cores(clientsCpu)} cores`
    )
    console.log(
      `    cpu       replicas ${cpu.replicas.map(cores).join(" + ")} cores, PostgreSQL ${cores(cpu.pg)} + shared ${cores(cpu.pgShared)} cores; machine busy ${cores(machineBusy)} of ${fmt(machineCores, 1)} cores (other work included)`
    )
    const rate = paid / seconds
    const perSwapMs = (cpuSeconds: number) => (paid > 0 ? (cpuSeconds * 1000) / paid : NaN)
    const replicasMs = perSwapMs(cpu.replicas.reduce((a, b) => a + b, 0))
    const benchMs = perSwapMs(cpu.self)
    const clientsMs = perSwapMs(clientsCpu)
    const pgMs = perSwapMs(cpu.pg + cpu.pgShared)
    const totalMs = replicasMs + benchMs + pgMs + clientsMs
    const voluntaryPerSwap = cpu.switches.reduce((a, b) => a + b.voluntary, 0) / Math.max(1, paid)
    const involuntaryPerSwap = cpu.switches.reduce((a, b) => a + b.involuntary, 0) / Math.max(1, paid)
    console.log(
      `    per swap  CPU: replicas ${fmt(replicasMs, 1)} ms + devnet (bench process) ${fmt(benchMs, 1)} ms + PostgreSQL ${fmt(perSwapMs(cpu.pg), 1)} ms (+ shared background ${fmt(perSwapMs(cpu.pgShared), 1)} ms) + clients ${fmt(clientsMs, 1)} ms = ${fmt(totalMs, 1)} ms: at most ${fmt((os.cpus().length * 1000) / totalMs, 1)} swaps/s on ${os.cpus().length} cores with nothing else running`
    )
    const mainMs = perSwapMs(cpu.replicasMain.reduce((a, b) => a + b, 0))
    const kernelMs = perSwapMs(cpu.replicasKernel.reduce((a, b) => a + b, 0))
    console.log(
      `    threads   the replicas' CPU a swap: ${fmt(mainMs, 1)} ms on their event loops, ${fmt(replicasMs - mainMs, 1)} ms on other threads (V8's GC and compilers, libuv's pool); ${fmt(kernelMs, 1)} ms of it in the kernel`
    )
    console.log(
      `    warm-up   its tail (swaps made final, the replicas quiet): ${fmt(warmTail, 1)} s${warmTail * 1000 >= QUIET_MAX_MS ? " (not quiet at the limit)" : ""}`
    )
    console.log(
      `    idle      before the measurement, ${IDLE_S} s doing nothing: replicas ${idleCores.map((c) => fmt(c, 3)).join(" + ")} cores (${fmt((idleCores.reduce((a, b) => a + b, 0) * seconds * 1000) / Math.max(1, paid), 1)} ms a swap over this run's ${fmt(seconds, 1)} s)`
    )
    console.log(
      `    switches  per swap, the replicas': ${fmt(voluntaryPerSwap, 1)} waits (an event loop with nothing to run), ${fmt(involuntaryPerSwap, 1)} preemptions`
    )
    console.log(`    gateway   calls per swap by the replicas: ${callsPerSwap.join(", ")}`)
    // The control case (independent replicas) is measured for its settling alone.
    const load = independent ? undefined : await loadThrough(urls, procs)
    return {
      rate,
      totalMs,
      idleMs: (idleCores.reduce((a, b) => a + b, 0) * seconds * 1000) / Math.max(1, paid),
      replicasMs,
      mainMs,
      kernelMs,
      voluntaryPerSwap,
      involuntaryPerSwap,
      benchMs,
      clientsMs,
      pgMs,
      loadP99: load?.p99 ?? NaN,
      loadFailed: load?.failed ?? 0,
      loadBusy: load?.busy ?? NaN,
      machineBusy: machineBusy / seconds,
      ours: (cpu.self + clientsCpu + cpu.pg + cpu.replicas.reduce((a, b) => a + b, 0)) / seconds
    }
  } finally {
    if (PROFILE_DIR === undefined) for (const p of procs) p.kill("SIGKILL")
    else {
      // SIGTERM lets each replica exit normally, which is when --cpu-prof writes its profile.
      await Promise.all(
        procs.map(
          (p) =>
            new Promise<void>((ok) => (p.exitCode !== null ? ok() : (p.once("exit", () => ok()), p.kill("SIGTERM"))))
        )
      )
    }
    clients.kill("SIGKILL")
    gw.close()
    clientGw.close()
    await gateway.dispose()
    for (const name of names)
      await pgAdmin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch((e: unknown) =>
        console.error(`dropping ${name}:`, e)
      )
  }
}

/**
 * Price + health at REPLICATED_RATE over all the replicas at `urls` at once: one load generator (in a worker thread,
 * off this process's event loop) whose connections go round-robin to the replicas, each at the same rate, so each of
 * 3 replicas gets exactly a third; its latencies form one histogram, the p99 over all the replicas. Returns it with
 * the errors and how busy the machine was.
 */
const loadThrough = async (urls: ReadonlyArray<string>, procs: ReadonlyArray<ChildProcess>) => {
  const replicas = procs.length
  const requests = [
    { method: "GET" as const, path: `/api/liveprice/${hUSDC}/${hETH}` },
    { method: "GET" as const, path: "/api/health" }
  ]
  const loadOptions = {
    // autocannon takes a list of URLs (its README: "More than one URL is allowed"); its types say one string.
    url: urls as unknown as string,
    connections: REPLICATED_CONNECTIONS,
    overallRate: REPLICATED_RATE,
    workers: 1,
    requests
  }
  await autocannon({ ...loadOptions, duration: 2 })
  const loadMachine0 = machineCpu()
  const loadReplicas0 = procs.map((p) => cpuSecondsOf(p.pid))
  const loadStart = performance.now()
  const loaded = await autocannon({ ...loadOptions, duration: DURATION_S })
  const loadSeconds = (performance.now() - loadStart) / 1000
  const loadMachine = machineCpu()
  // Each replica's CPU under the load: shows the requests were spread (equal shares) and what they cost.
  const loadReplicas = procs.map((p, i) => fmt((cpuSecondsOf(p.pid) - (loadReplicas0[i] ?? 0)) / loadSeconds, 2))
  const loadBusy = (loadMachine.busy - loadMachine0.busy) / loadSeconds
  console.log(
    `    load      price + health at ${REPLICATED_RATE} req/s over ${replicas} (${fmt(REPLICATED_RATE / replicas, 0)}/s each) for ${DURATION_S} s: ${loaded.requests.total} requests (${fmt(loaded.requests.average, 1)}/s), p50 ${loaded.latency.p50} ms, p99 ${loaded.latency.p99} ms, max ${loaded.latency.max} ms; errors ${loaded.errors} (timeouts ${loaded.timeouts}, non-2xx ${loaded.non2xx}); replicas ${loadReplicas.join(" + ")} cores, machine busy ${fmt(loadBusy, 2)} of ${fmt((loadMachine.total - loadMachine0.total) / loadSeconds, 1)} cores`
  )
  return { p99: loaded.latency.p99, failed: loaded.errors + loaded.non2xx, busy: loadBusy }
}

type Replicated = Awaited<ReturnType<typeof replicated>>

/** The mean of each figure over `runs`; the worst p99 and every failed request. */
const meanOf = (runs: ReadonlyArray<Replicated>): Replicated => {
  const mean = (key: keyof Replicated) => runs.reduce((sum, r) => sum + r[key], 0) / runs.length
  return {
    rate: mean("rate"),
    totalMs: mean("totalMs"),
    idleMs: mean("idleMs"),
    replicasMs: mean("replicasMs"),
    mainMs: mean("mainMs"),
    kernelMs: mean("kernelMs"),
    voluntaryPerSwap: mean("voluntaryPerSwap"),
    involuntaryPerSwap: mean("involuntaryPerSwap"),
    benchMs: mean("benchMs"),
    clientsMs: mean("clientsMs"),
    pgMs: mean("pgMs"),
    loadP99: Math.max(...runs.map((r) => r.loadP99)),
    loadFailed: runs.reduce((sum, r) => sum + r.loadFailed, 0),
    loadBusy: mean("loadBusy"),
    machineBusy: mean("machineBusy"),
    ours: mean("ours")
  }
}

const mainReplicated = async () => {
  if (!PARTS.has("replicated")) return
  const reachable = await pgAdmin((sql) => sql`SELECT 1`).then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e.message : String(e))
  )
  if (reachable !== undefined) {
    console.log(`replicated: SKIPPED, PostgreSQL does not answer at ${PG_URL} (${reachable})`)
    return
  }
  const ceiling = await devnetCeiling(REPLICATED_SWAPS)
  console.log(
    `replicated: ${REPLICATED_SWAPS} swaps on PostgreSQL, replicas as separate processes, deposits registered round-robin; ${os.cpus().length} cores`
  )
  console.log(
    `  devnet      alone: ${fmt(ceiling.txPerSecond, 1)} commits/s, ${fmt(ceiling.cpuPerTx * 1000, 1)} ms of CPU each (one process): at most ${fmt(ceiling.txPerSecond / 2, 1)} swaps/s (a deposit and a payout each)`
  )
  // BENCH_REPLICAS=1: the single replica's run alone (to profile it), no comparison.
  if (process.env["BENCH_REPLICAS"] === "1") return void (await replicated(1))
  // The machine's speed drifts over minutes (every process's CPU per swap moves together), so the two cases are run
  // in ROUNDS rounds in alternating order (1, 3, then 3, 1, …): a steady drift weighs on both alike. Each case's
  // figures are the mean of its runs; the p99 is the worse one.
  // BENCH_INDEPENDENT=1 adds a control case to each round: 3 replicas that share nothing (a database each, their
  // watchers idle), so what 3 replicas cost over 1 splits into what coordinating costs and what 3 processes cost.
  const runs: { 1: Array<Replicated>; 3: Array<Replicated>; independent: Array<Replicated> } = {
    1: [],
    3: [],
    independent: []
  }
  const cases = INDEPENDENT ? ([1, 3, "independent"] as const) : ([1, 3] as const)
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of round % 2 === 0 ? cases : [...cases].reverse())
      runs[c].push(c === "independent" ? await replicated(3, true) : await replicated(c))
  }
  const one = meanOf(runs[1])
  const three = meanOf(runs[3])
  const order = cases.map((c) => (c === "independent" ? "3 apart" : String(c)))
  const cores = os.cpus().length
  const rateRatio = three.rate / one.rate
  const cpuRatio = three.totalMs / one.totalMs
  const verdict = (holds: boolean) => (holds ? "met" : "NOT met")
  const row = (what: string, a: string, b: string, ratio: string, budget: string, holds: string) =>
    console.log(
      `    ${what.padEnd(34)}${a.padStart(11)}${b.padStart(12)}${ratio.padStart(8)}   ${budget.padEnd(9)}${holds}`
    )
  console.log(
    `  scaling     1 against 3 replicas, the same ${REPLICATED_SWAPS} swaps from ${CLIENTS} clients after ${WARMUP} warm-up swaps a replica, each run on a fresh database and devnet; the mean of ${ROUNDS} run${ROUNDS === 1 ? "" : "s"} each, in the order ${Array.from({ length: ROUNDS }, (_, r) => (r % 2 === 0 ? order : [...order].reverse()).join(", ")).join(", ")} (printed, not asserted)`
  )
  row("", "1 replica", "3 replicas", "ratio", "budget", "verdict")
  row(
    "swaps/s settled",
    fmt(one.rate, 1),
    fmt(three.rate, 1),
    `${fmt(rateRatio, 2)}x`,
    ">= 0.9x",
    verdict(rateRatio >= 0.9)
  )
  row(
    "CPU per swap, all processes",
    `${fmt(one.totalMs, 1)} ms`,
    `${fmt(three.totalMs, 1)} ms`,
    `${fmt(cpuRatio, 2)}x`,
    "<= 1.1x",
    verdict(cpuRatio <= 1.1)
  )
  for (const [what, key] of [
    ["  replicas", "replicasMs"],
    ["    on their event loops", "mainMs"],
    ["    in the kernel", "kernelMs"],
    ["  devnet (bench process)", "benchMs"],
    ["  clients (a process of their own)", "clientsMs"],
    ["  PostgreSQL (+ shared background)", "pgMs"],
    ["  of the replicas', idle cost", "idleMs"]
  ] as const)
    row(what, `${fmt(one[key], 1)} ms`, `${fmt(three[key], 1)} ms`, `${fmt(three[key] / one[key], 2)}x`, "", "")
  for (const [what, key] of [
    ["  replicas' waits per swap", "voluntaryPerSwap"],
    ["  replicas' preemptions per swap", "involuntaryPerSwap"]
  ] as const)
    row(what, fmt(one[key], 1), fmt(three[key], 1), `${fmt(three[key] / one[key], 2)}x`, "", "")
  row(
    `price + health p99 at ${REPLICATED_RATE} req/s`,
    `${one.loadP99} ms`,
    `${three.loadP99} ms`,
    "",
    "< 50 ms",
    `${verdict(three.loadP99 < 50 && three.loadFailed === 0)} (3 replicas${three.loadFailed === 0 ? "" : `; ${three.loadFailed} failed`})`
  )
  row(
    "machine busy, settling / load",
    `${fmt(one.machineBusy, 2)} / ${fmt(one.loadBusy, 2)}`,
    `${fmt(three.machineBusy, 2)} / ${fmt(three.loadBusy, 2)}`,
    "",
    `of ${cores}`,
    `cores, other work included (ours while settling: ${fmt(one.ours, 2)} / ${fmt(three.ours, 2)})`
  )
  // The capacity model: the replicas and the shared database each scale by their CPU per swap; the devnet stands for
  // the ledger, which is not ours to scale, so it is left out.
  const replicaPerCore = 1000 / three.replicasMs
  const pgPerCore = 1000 / three.pgMs
  const perMachine = cores * replicaPerCore
  const database = cores * pgPerCore
  if (runs.independent.length > 0) {
    const apart = meanOf(runs.independent)
    console.log(
      `  coordination  3 replicas sharing one database (claims, the watcher's lease, one watcher) against 3 that share nothing (a database each, no watcher), the same swaps, the mean of ${runs.independent.length} run${runs.independent.length === 1 ? "" : "s"} each`
    )
    row("", "shared", "apart", "ratio", "", "")
    row("swaps/s settled", fmt(three.rate, 1), fmt(apart.rate, 1), `${fmt(three.rate / apart.rate, 2)}x`, "", "")
    for (const [what, key] of [
      ["CPU per swap, all processes", "totalMs"],
      ["  replicas", "replicasMs"],
      ["  devnet (bench process)", "benchMs"],
      ["  PostgreSQL (+ shared background)", "pgMs"]
    ] as const)
      row(what, `${fmt(three[key], 1)} ms`, `${fmt(apart[key], 1)} ms`, `${fmt(three[key] / apart[key], 2)}x`, "", "")
    row(
      "  replicas' waits per swap",
      fmt(three.voluntaryPerSwap, 1),
      fmt(apart.voluntaryPerSwap, 1),
      `${fmt(three.voluntaryPerSwap / apart.voluntaryPerSwap, 2)}x`,
      "",
      ""
    )
    console.log(
      `    3 processes apart against 1: swaps/s ${fmt(apart.rate / one.rate, 2)}x, CPU per swap ${fmt(apart.totalMs / one.totalMs, 2)}x (replicas ${fmt(apart.replicasMs / one.replicasMs, 2)}x)`
    )
  }
  console.log(
    `  capacity    at the 3-replica run's CPU per swap: a replica ${fmt(three.replicasMs, 1)} ms -> ${fmt(replicaPerCore, 1)} swaps/s a core; PostgreSQL ${fmt(three.pgMs, 1)} ms -> ${fmt(pgPerCore, 1)} swaps/s a core`
  )
  console.log(
    `              N ${cores}-core machines of replicas settle N x ${fmt(perMachine, 1)} swaps/s; one ${cores}-core database settles at most ${fmt(database, 1)} swaps/s, the limit from N = ${fmt(database / perMachine, 1)} on (the ledger's own rate aside)`
  )
  console.log(
    `  ceilings    devnet process ${fmt(ceiling.txPerSecond / 2, 1)} swaps/s alone (one process, two commits a swap); this machine ${fmt((cores * 1000) / three.totalMs, 1)} swaps/s at ${fmt(three.totalMs, 1)} ms of CPU a swap with nothing else running`
  )
}

main()
  .then(flows)
  .then(mainReplicated)
  .catch((e: unknown) => {
    console.error(e)
    process.exit(1)
  })
