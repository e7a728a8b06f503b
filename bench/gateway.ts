/**
 * `npm run bench:gateway`: our Gateway client vs the official SDK (@radixdlt/babylon-gateway-api-sdk 1.10.1) loading
 * the vault-aggregated details of 2,000 accounts × 150 fungibles from a fake gateway (20 ms per request, page size
 * 100, so every account's fungible collection needs a second page: 100 details + 2,000 page requests).
 *
 * The fake gateway runs in a child process (this file with `--serve`) on 127.0.0.1 and a free port, so its JSON work
 * does not share the clients' thread; it counts requests, peak in flight and errors, and exits when this process
 * disconnects. Client CPU is `process.cpuUsage()` of this process over the run. Prints figures, asserts nothing.
 *
 * Before the first round every selected client loads all the accounts once, unmeasured: the first HTTP client in
 * this process would otherwise pay the one-time JIT warm-up of fetch (undici), JSON and its own code, and ours always
 * runs first. (A tenth of the accounts was not enough: ours was 1.20–1.48× the SDK's CPU in the first
 * round of every run and 0.98–1.14× in the others.)
 *
 * Every measured load (here and with `--instructions`) starts after a full garbage collection: the clients alternate in
 * one process, and without it each load paid for collecting the garbage of the load before it, another client's.
 *
 * Then a rate-limited run: the fake gateway answers 429 with `Retry-After` past RATE_LIMIT requests per second (fixed
 * one-second windows, like the real Gateway's limiter); it prints whether each client got every item.
 *
 * Rows: ours over `fetch` itself (`Gateway.layerFetch`, the browser's client), the same over Node's http
 * (`layerNode`, src/gateway/node.ts, the exchange server's client), over `FetchHttpClient` (`Gateway.layer`, for
 * information), ours starting at 16 in flight, and the SDK (over Node's `fetch`, its only transport).
 *
 * The measured rows alternate their order: odd rounds run ours first, even rounds the SDK first.
 *
 * Flags: `--rounds N` (default 2), `--clients ours,node,http,high,sdk,limited` (which rows to run), `--decode` (only the
 * in-process decode micro-bench).
 *
 * `--instructions` (needs valgrind): instead of CPU seconds, which a shared machine makes noisy, counts the instructions
 * each client's process executes for one load (callgrind, all threads: JIT and GC included), ours over fetch, ours over
 * Node's http and the SDK's side by side (`--clients ours,node,sdk`), `--accounts N` (default 200) after `--warm N`
 * unmeasured loads (default 3), `--runs N` measured (default 2).
 */
import { FetchHttpClient } from "@effect/platform"
import { GatewayApiClient } from "@radixdlt/babylon-gateway-api-sdk"
import { Effect, Layer, ParseResult, Schema } from "effect"
import { execFile, fork, spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import {
  Gateway,
  GatewayDefaults,
  StateEntityDetailsResponse,
  StateEntityFungiblesPageResponse
} from "../src/gateway/index.js"
import { decodeJson } from "../src/gateway/decode.js"
import { layerNode } from "../src/gateway/node.js"
import { accountAddress, makeFakeGateway } from "../test/gateway/fake-gateway.js"

const ACCOUNTS = 2000
const FUNGIBLES = 150
const PAGE_SIZE = 100
const LATENCY_MS = 20
/** Requests per second the rate-limited run allows. */
const RATE_LIMIT = 400
/** The server stops by itself after this long even if the parent never disconnects. */
const SERVER_DEADLINE_MS = 15 * 60 * 1000

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i < 0 ? undefined : process.argv[i + 1]
}

// ---------------------------------------------------------------------------------------------------------------------
// Server side (child process)

interface ServerStats {
  readonly requests: number
  readonly peak: number
  readonly errors: number
  readonly cpuMs: number
}

/** `ratePerSecond`: answer 429 with `Retry-After` past that many requests in a one-second window (0: no limit). */
type ToServer = { readonly type: "reset"; readonly ratePerSecond?: number } | { readonly type: "stats" }
type FromServer =
  | { readonly type: "ready"; readonly port: number }
  | { readonly type: "reset" }
  | ({ readonly type: "stats" } & ServerStats)

const serve = () => {
  const fake = makeFakeGateway({ accounts: ACCOUNTS, fungiblesPerAccount: FUNGIBLES, pageSize: PAGE_SIZE })
  const stats = { requests: 0, inFlight: 0, peak: 0, errors: 0 }
  let cpu = process.cpuUsage()
  let ratePerSecond = 0
  let window = { start: 0, count: 0 }
  const send = (message: FromServer) => process.send?.(message)
  const server = createServer((req, res) => {
    stats.requests += 1
    if (ratePerSecond > 0) {
      // Like the real Gateway's rate limiter: a fixed window, 429 with Retry-After (whole seconds) past the limit.
      const now = Date.now()
      if (now - window.start >= 1000) window = { start: now, count: 0 }
      window.count += 1
      if (window.count > ratePerSecond) {
        stats.errors += 1
        req.resume()
        const retryAfter = Math.max(1, Math.ceil((window.start + 1000 - now) / 1000))
        res.writeHead(429, { "content-type": "application/json", "retry-after": String(retryAfter) })
        res.end(JSON.stringify({ message: "Too many requests", code: 429 }))
        return
      }
    }
    stats.inFlight += 1
    stats.peak = Math.max(stats.peak, stats.inFlight)
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      setTimeout(() => {
        let reply: { status: number; body: unknown }
        try {
          reply = fake.handle(req.url ?? "/", (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>)
        } catch (e) {
          reply = { status: 500, body: { message: String(e) } }
        }
        if (reply.status < 200 || reply.status > 299) stats.errors += 1
        stats.inFlight -= 1
        res.writeHead(reply.status, { "content-type": "application/json" })
        res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body))
      }, LATENCY_MS)
    })
  })
  let open = 0
  server.on("connection", (socket) => {
    open += 1
    socket.once("close", () => {
      open -= 1
    })
  })
  const stop = () => {
    server.closeAllConnections()
    server.close()
    process.exit(0)
  }
  process.on("disconnect", stop)
  setTimeout(stop, SERVER_DEADLINE_MS).unref()
  process.on("message", (message: ToServer) => {
    if (message.type === "reset") {
      fake.reset()
      ratePerSecond = message.ratePerSecond ?? 0
      window = { start: 0, count: 0 }
      Object.assign(stats, { requests: 0, inFlight: 0, peak: 0, errors: 0 })
      // Every load starts without the last one's connections: they are one pool in the client process (both clients
      // send through the global fetch), and the SDK leaves hundreds of them open. Left open, the next load, whichever
      // client's, ran over those sockets and paid for their keep-alive timeouts: ours measured 1.5x its CPU right after
      // an SDK load and about 1.0x after its own. Closed here, each load pays for the connections it opens itself.
      server.closeIdleConnections()
      const settled = () => {
        if (open > 0) return void setTimeout(settled, 5)
        cpu = process.cpuUsage()
        send({ type: "reset" })
      }
      settled()
    } else {
      const used = process.cpuUsage(cpu)
      send({ type: "stats", ...stats, cpuMs: (used.user + used.system) / 1000 })
    }
  })
  // Under valgrind a client is ~50x slower: a socket idle past Node's 5 s default would be closed by the server while
  // the client reuses it ("other side closed"). `--keep-alive MS` (the instruction counts' fake gateway) keeps it open.
  const keepAlive = argValue("--keep-alive")
  if (keepAlive !== undefined) server.keepAliveTimeout = Number(keepAlive)
  server.listen(0, "127.0.0.1", () => send({ type: "ready", port: (server.address() as AddressInfo).port }))
}

// ---------------------------------------------------------------------------------------------------------------------
// Client side

/** Sends `message` to the server process and waits for its answer of the same type. */
const ask = <T extends FromServer["type"]>(child: ChildProcess, type: T, message?: ToServer) =>
  new Promise<Extract<FromServer, { readonly type: T }>>((resolve, reject) => {
    const onMessage = (m: FromServer) => {
      if (m.type !== type) return
      child.off("message", onMessage)
      child.off("exit", onExit)
      resolve(m as Extract<FromServer, { readonly type: T }>)
    }
    const onExit = (code: number | null) => reject(new Error(`fake gateway exited (${code})`))
    child.on("message", onMessage)
    child.once("exit", onExit)
    if (message !== undefined) child.send(message)
  })

interface Row {
  readonly client: string
  readonly requests: number
  readonly wallMs: number
  readonly cpuMs: number
  readonly serverCpuMs: number
  readonly peak: number
  readonly errors: number
  readonly fungibles: number
}

type Loaded = ReadonlyArray<{ readonly fungible_resources: { readonly items: ReadonlyArray<unknown> } }>

/**
 * A full garbage collection, so that a measured run does not pay for collecting the garbage of the run before it
 * (another client's, when the clients alternate in one process). `gc` is exposed at run time (the flag, then a fresh
 * context's `gc`), so `npm run bench:gateway` needs no Node flag.
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc")
  return runInNewContext("gc") as () => void
})()

const measure = async (
  child: ChildProcess,
  client: string,
  load: () => Promise<Loaded>,
  ratePerSecond = 0
): Promise<Row> => {
  await ask(child, "reset", { type: "reset", ratePerSecond })
  collectGarbage()
  const cpu = process.cpuUsage()
  const start = performance.now()
  let fungibles = 0
  let failed = 0
  try {
    const items = await load()
    fungibles = items.reduce((n, i) => n + i.fungible_resources.items.length, 0)
  } catch (e) {
    failed = 1
    console.error(`${client} failed:`, e instanceof Error ? e.message : e)
  }
  const wallMs = performance.now() - start
  const used = process.cpuUsage(cpu)
  const server = await ask(child, "stats", { type: "stats" })
  return {
    client,
    requests: server.requests,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    serverCpuMs: server.cpuMs,
    peak: server.peak,
    errors: server.errors + failed,
    fungibles
  }
}

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
}

/**
 * In-process decode cost of the bench's two response shapes (median of `n` runs after a warm-up): JSON.parse, the
 * canonical `ParseResult.decodeUnknownEither(schema)`, and what the client runs (`decodeJson`, the compiled fast decoder).
 */
const decodeBench = () => {
  const fake = makeFakeGateway({ accounts: 20, fungiblesPerAccount: FUNGIBLES, pageSize: PAGE_SIZE })
  const details = fake.handle("/state/entity/details", {
    addresses: Array.from({ length: 20 }, (_, i) => accountAddress(i))
  }).body
  const page = fake.handle("/state/entity/page/fungibles/", {
    address: accountAddress(0),
    cursor: btoa(JSON.stringify({ o: PAGE_SIZE })),
    at_ledger_state: { state_version: 1000 }
  }).body
  const time = (n: number, f: () => unknown) => {
    for (let i = 0; i < 10; i++) f()
    const samples: Array<number> = []
    for (let i = 0; i < n; i++) {
      const t = performance.now()
      f()
      samples.push(performance.now() - t)
    }
    return median(samples)
  }
  const row = <A, I>(label: string, schema: Schema.Schema<A, I>, body: unknown, n: number) => {
    const text = JSON.stringify(body)
    const canonical = ParseResult.decodeUnknownEither(schema)
    const parse = time(n, () => JSON.parse(text))
    const slow = time(n, () => canonical(body))
    const fast = time(n, () => decodeJson(schema, body))
    const cells = [parse, slow, fast].map((ms) => ms.toFixed(2).padStart(11)).join("")
    console.log(
      `  ${`${label} (${Math.round(text.length / 1024)} KB)`.padEnd(52)}${cells}${`${(slow / fast).toFixed(1)}x`.padStart(9)}`
    )
  }
  console.log(
    `decode, median ms (in process)${" ".repeat(24)}${["JSON.parse", "canonical", "client"].map((h) => h.padStart(11)).join("")}${"speedup".padStart(9)}`
  )
  row(`entity details, 20 accounts × ${PAGE_SIZE} fungibles`, StateEntityDetailsResponse, details, 60)
  row(`fungibles page, ${FUNGIBLES - PAGE_SIZE} items`, StateEntityFungiblesPageResponse, page, 400)
}

// ---------------------------------------------------------------------------------------------------------------------
// Instruction counts (`--instructions`): load-independent, unlike CPU seconds on a shared machine

/** Instructions executed so far by this process, all threads (valgrind's callgrind, read with `callgrind_control -e`). */
const instructionsSoFar = () =>
  new Promise<number>((resolve, reject) =>
    execFile("callgrind_control", ["-e", String(process.pid)], (error, stdout) => {
      if (error !== null) return reject(error)
      const threads = [...stdout.matchAll(/^\s*Th\s*\d+\s+([\d,]+)\s*$/gm)].map((m) => Number(m[1]?.replace(/,/g, "")))
      if (threads.length === 0) return reject(new Error(`callgrind_control -e printed no thread totals:\n${stdout}`))
      resolve(threads.reduce((a, b) => a + b, 0))
    })
  )

/**
 * Runs under callgrind (started by {@link instructions}): one client loads `accounts` accounts `warm` times unmeasured
 * (the JIT's warm-up), then `runs` times measured; prints one JSON line per measured load with the instructions this
 * process executed during it. The fake gateway runs in a child process, natively (valgrind does not follow children).
 */
const instructionsWorker = async () => {
  const which = argValue("--instructions-worker") ?? "ours"
  const accounts = Number(argValue("--accounts") ?? 200)
  const warm = Number(argValue("--warm") ?? 3)
  const runs = Number(argValue("--runs") ?? 2)
  const start = argValue("--start")
  const max = argValue("--max")
  const child = fork(fileURLToPath(import.meta.url), ["--serve", "--keep-alive", "600000"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: ["--import", "tsx"]
  })
  try {
    const { port } = await ask(child, "ready")
    const basePath = `http://127.0.0.1:${port}`
    const addresses = Array.from({ length: accounts }, (_, i) => accountAddress(i))
    const sdk = GatewayApiClient.initialize({ basePath, applicationName: "hswap-bench" })
    const config = {
      basePath,
      applicationName: "hswap-bench",
      ...(start === undefined ? {} : { concurrency: Number(start) }),
      ...(max === undefined ? {} : { maxConcurrency: Number(max) })
    }
    const load = (): Promise<Loaded> =>
      which === "sdk"
        ? sdk.state.getEntityDetailsVaultAggregated(addresses)
        : Effect.runPromise(
            Effect.flatMap(Gateway, (g) => g.state.getEntityDetailsVaultAggregated(addresses)).pipe(
              Effect.provide(which === "node" ? layerNode(config) : Gateway.layerFetch(config))
            )
          )
    for (let i = 0; i < warm; i++) await load()
    for (let i = 0; i < runs; i++) {
      await ask(child, "reset", { type: "reset" })
      collectGarbage()
      const before = await instructionsSoFar()
      const items = await load()
      const after = await instructionsSoFar()
      const server = await ask(child, "stats", { type: "stats" })
      const fungibles = items.reduce((n, item) => n + item.fungible_resources.items.length, 0)
      console.log(
        JSON.stringify({ instructions: after - before, requests: server.requests, errors: server.errors, fungibles })
      )
    }
  } finally {
    child.disconnect()
  }
}

/**
 * `--instructions`: each client in its own `valgrind --tool=callgrind` process (ours and the SDK's side by side, both
 * at once: instruction counts do not depend on the machine's load), `--accounts` accounts (default 200), `--runs`
 * measured loads each after `--warm` unmeasured ones. Prints instructions per load and per request, and the ratio.
 */
const instructions = async () => {
  const accounts = Number(argValue("--accounts") ?? 200)
  const runs = Number(argValue("--runs") ?? 2)
  const warm = Number(argValue("--warm") ?? 3)
  const clients = (argValue("--clients") ?? "ours,node,sdk")
    .split(",")
    .filter((c) => c === "ours" || c === "node" || c === "sdk")
  console.log(
    `gateway bench, instructions (valgrind --tool=callgrind, all threads of the client's process; the fake gateway ` +
      `runs natively): ${accounts} accounts × ${FUNGIBLES} fungibles, ${warm} warm-up loads then ${runs} measured, per client`
  )
  const worker = (which: string) =>
    new Promise<ReadonlyArray<{ instructions: number; requests: number; errors: number; fungibles: number }>>(
      (resolve, reject) => {
        const args = [
          "--tool=callgrind",
          "--callgrind-out-file=/dev/null",
          process.execPath,
          "--import",
          "tsx",
          fileURLToPath(import.meta.url),
          "--instructions-worker",
          which,
          ...["--accounts", String(accounts), "--runs", String(runs), "--warm", String(warm)],
          ...["--start", "--max"].flatMap((flag) => {
            const value = argValue(flag)
            return which !== "sdk" && value !== undefined ? [flag, value] : []
          })
        ]
        const proc = spawn("valgrind", args, { stdio: ["ignore", "pipe", "pipe"] })
        let out = ""
        let err = ""
        proc.stdout.on("data", (d: Buffer) => (out += d.toString()))
        proc.stderr.on("data", (d: Buffer) => (err += d.toString()))
        proc.on("error", reject)
        proc.on("exit", (code) => {
          const rows = out
            .split("\n")
            .filter((line) => line.startsWith("{"))
            .map(
              (line) =>
                JSON.parse(line) as { instructions: number; requests: number; errors: number; fungibles: number }
            )
          if (code !== 0 || rows.length === 0)
            reject(new Error(`valgrind (${which}) exited ${code}:\n${out}\n${err.slice(-2000)}`))
          else resolve(rows)
        })
      }
    )
  const settled = await Promise.allSettled(clients.map(async (which) => [which, await worker(which)] as const))
  const results = settled.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []))
  for (const r of settled) if (r.status === "rejected") console.error(String(r.reason))
  const label = (which: string) =>
    which === "sdk"
      ? "babylon-gateway-api-sdk 1.10.1"
      : which === "node"
        ? "hswap Gateway over node:http"
        : "hswap Gateway over fetch"
  const cols = ["requests", "fungibles", "instr/load", "instr/req"]
  console.log(`${"client".padEnd(34)}${cols.map((c) => c.padStart(14)).join("")}`)
  const perRequest = new Map<string, Array<number>>()
  for (const [which, rows] of results)
    for (const r of rows) {
      perRequest.set(which, [...(perRequest.get(which) ?? []), r.instructions / r.requests])
      console.log(
        `${label(which).padEnd(34)}${[r.requests, r.fungibles].map((n) => String(n).padStart(14)).join("")}` +
          `${`${(r.instructions / 1e6).toFixed(0)} M`.padStart(14)}${`${(r.instructions / r.requests / 1e3).toFixed(0)} k`.padStart(14)}` +
          (r.errors > 0 ? `  (${r.errors} errors)` : "")
      )
    }
  const sdk = perRequest.get("sdk")
  for (const [which, name] of [
    ["ours", "ours"],
    ["node", "ours over node:http"]
  ] as const) {
    const ours = perRequest.get(which)
    if (ours !== undefined && sdk !== undefined)
      console.log(
        `ratio ${name}/sdk, instructions per request: median ${(median(ours) / median(sdk)).toFixed(2)} ` +
          `(${name} ${ours.map((n) => (n / 1e3).toFixed(0)).join(", ")} k; sdk ${sdk.map((n) => (n / 1e3).toFixed(0)).join(", ")} k)`
      )
  }
}

const main = async () => {
  decodeBench()
  if (process.argv.includes("--decode")) return
  const rounds = Number(argValue("--rounds") ?? 2)
  const clients = new Set((argValue("--clients") ?? "ours,node,http,high,sdk,limited").split(","))
  const skipped = { requests: 0, wallMs: 0, cpuMs: 0, serverCpuMs: 0, peak: 0, errors: 0, fungibles: 0 }
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  try {
    const { port } = await ask(child, "ready")
    const basePath = `http://127.0.0.1:${port}`
    const addresses = Array.from({ length: ACCOUNTS }, (_, i) => accountAddress(i))
    console.log()
    console.log(
      `gateway bench: ${ACCOUNTS} accounts × ${FUNGIBLES} fungibles, page size ${PAGE_SIZE}, ${LATENCY_MS} ms per request, ` +
        `fake gateway in child process ${child.pid} at ${basePath}`
    )
    /**
     * Ours over `fetch` itself (`Gateway.layerFetch`, the browser's and the default), over Node's http
     * (`layerNode`, the exchange server's), or over `FetchHttpClient` (`Gateway.layer`).
     */
    const loadOurs =
      (concurrency: number, accounts: ReadonlyArray<string> = addresses, over: "fetch" | "node" | "http" = "fetch") =>
      (): Promise<Loaded> => {
        const config = { basePath, applicationName: "hswap-bench", concurrency }
        return Effect.runPromise(
          Effect.flatMap(Gateway, (g) => g.state.getEntityDetailsVaultAggregated(accounts)).pipe(
            Effect.provide(
              over === "fetch"
                ? Gateway.layerFetch(config)
                : over === "node"
                  ? layerNode(config)
                  : Gateway.layer(config).pipe(Layer.provide(FetchHttpClient.layer))
            )
          )
        )
      }
    const sdkClient = GatewayApiClient.initialize({ basePath, applicationName: "hswap-bench" })
    const loadSdk = () => sdkClient.state.getEntityDetailsVaultAggregated(addresses)
    const concurrency = GatewayDefaults.concurrency
    const high = 16
    const oursLabel = `hswap Gateway (${concurrency}→${GatewayDefaults.maxConcurrency} adaptive)`
    const highLabel = `hswap Gateway (from ${high})*`
    const httpLabel = `hswap Gateway over HttpClient†`
    const nodeLabel = `hswap Gateway over node:http‡`
    const sdkLabel = "babylon-gateway-api-sdk 1.10.1"

    const cols = ["requests", "wall ms", "cpu ms", "srv cpu", "peak", "errors", "fungibles"]
    const header = `${"client".padEnd(38)}${cols.map((c) => c.padStart(10)).join("")}`
    const num = (n: number) => n.toFixed(0).padStart(10)
    const print = (r: Row) =>
      console.log(
        `${r.client.padEnd(38)}${[r.requests, r.wallMs, r.cpuMs, r.serverCpuMs, r.peak, r.errors, r.fungibles].map(num).join("")}`
      )
    const expected = ACCOUNTS * FUNGIBLES
    // One unmeasured load of all the accounts per selected client (see the module comment).
    const warm = addresses
    if (clients.has("ours") || clients.has("high")) await loadOurs(concurrency, warm)()
    if (clients.has("http")) await loadOurs(concurrency, warm, "http")()
    if (clients.has("node")) await loadOurs(concurrency, warm, "node")()
    if (clients.has("sdk")) await sdkClient.state.getEntityDetailsVaultAggregated(warm)
    const all: Array<{ ours: Row; node: Row; http: Row; high: Row; sdk: Row }> = []
    for (let round = 1; round <= rounds; round++) {
      const skip = (client: string): Row => ({ client: `${client} (skipped)`, ...skipped })
      const runs: ReadonlyArray<readonly [string, string, () => Promise<Loaded>]> = [
        ["ours", oursLabel, loadOurs(concurrency)],
        ["node", nodeLabel, loadOurs(concurrency, addresses, "node")],
        ["http", httpLabel, loadOurs(concurrency, addresses, "http")],
        ["high", highLabel, loadOurs(high)],
        ["sdk", sdkLabel, loadSdk]
      ]
      // Odd rounds run ours first, even rounds the SDK first: whichever runs first in a round runs right after the
      // other's garbage and the IPC of the round before, so a fixed order would tilt every round the same way.
      const order = round % 2 === 1 ? runs : [...runs].reverse()
      const rows = new Map<string, Row>()
      for (const [key, label, load] of order)
        rows.set(key, clients.has(key) ? await measure(child, label, load) : skip(label))
      const row = (key: string) => rows.get(key) ?? skip(key)
      const ours = row("ours")
      const nodeRow = row("node")
      const httpRow = row("http")
      const highRow = row("high")
      const sdk = row("sdk")
      all.push({ ours, node: nodeRow, http: httpRow, high: highRow, sdk })
      console.log()
      console.log(`round ${round}/${rounds} (${round % 2 === 1 ? "ours" : "the SDK"} ran first)`)
      console.log(header)
      for (const r of [ours, nodeRow, httpRow, highRow, sdk]) print(r)
      console.log(
        `ratio ours/sdk: wall ${(ours.wallMs / sdk.wallMs).toFixed(2)}, client cpu ${(ours.cpuMs / sdk.cpuMs).toFixed(2)}, ` +
          `requests ${(ours.requests / sdk.requests).toFixed(2)}, peak in flight ${ours.peak}/${sdk.peak}` +
          (clients.has("node")
            ? `; over node:http: wall ${(nodeRow.wallMs / sdk.wallMs).toFixed(2)}, client cpu ${(nodeRow.cpuMs / sdk.cpuMs).toFixed(2)}`
            : "")
      )
      const ran = [ours, nodeRow, httpRow, highRow, sdk].filter((r) => !r.client.endsWith("(skipped)"))
      const complete = ran.every((r) => r.fungibles === expected && r.errors === 0)
      console.log(`complete (${expected} fungibles each, no errors): ${complete ? "yes" : "NO"}`)
    }
    if (rounds > 1) {
      const med = (pick: (x: (typeof all)[number]) => Row, f: (r: Row) => number) => median(all.map((x) => f(pick(x))))
      // The least disturbed round: on a shared machine, other work only ever adds to a run's time and CPU.
      const least = (pick: (x: (typeof all)[number]) => Row, f: (r: Row) => number) =>
        Math.min(...all.map((x) => f(pick(x))))
      console.log()
      console.log(
        `median of ${rounds} rounds (min):${" ".repeat(7)}${"wall ms".padStart(10)}${"cpu ms".padStart(10)}${"min wall".padStart(10)}${"min cpu".padStart(10)}`
      )
      for (const [label, pick] of [
        [oursLabel, (x: (typeof all)[number]) => x.ours],
        [nodeLabel, (x: (typeof all)[number]) => x.node],
        [httpLabel, (x: (typeof all)[number]) => x.http],
        [highLabel, (x: (typeof all)[number]) => x.high],
        [sdkLabel, (x: (typeof all)[number]) => x.sdk]
      ] as const)
        console.log(
          `${label.padEnd(38)}${num(med(pick, (r) => r.wallMs))}${num(med(pick, (r) => r.cpuMs))}` +
            `${num(least(pick, (r) => r.wallMs))}${num(least(pick, (r) => r.cpuMs))}`
        )
      const list = (xs: ReadonlyArray<number>) => xs.map((x) => x.toFixed(2)).join(", ")
      const compare = (name: string, pick: (x: (typeof all)[number]) => Row) => {
        const ratios = (f: (r: Row) => number) => all.map((x) => f(pick(x)) / f(x.sdk))
        const leastRatio = (f: (r: Row) => number) => (least(pick, f) / least((x) => x.sdk, f)).toFixed(2)
        console.log(
          `ratio ${name}/sdk by round: client cpu ${list(ratios((r) => r.cpuMs))} (median ${median(ratios((r) => r.cpuMs)).toFixed(2)}); ` +
            `wall ${list(ratios((r) => r.wallMs))} (median ${median(ratios((r) => r.wallMs)).toFixed(2)}); ` +
            `of the minima: client cpu ${leastRatio((r) => r.cpuMs)}, wall ${leastRatio((r) => r.wallMs)}`
        )
      }
      if (clients.has("ours")) compare("ours", (x) => x.ours)
      if (clients.has("node")) compare("ours over node:http", (x) => x.node)
    }
    if (clients.has("limited")) {
      console.log()
      console.log(
        `rate-limited gateway: ${RATE_LIMIT} requests per second (fixed 1 s windows), past that 429 with Retry-After`
      )
      console.log(header)
      const ours = await measure(child, oursLabel, loadOurs(concurrency), RATE_LIMIT)
      const overNode = clients.has("node")
        ? await measure(child, nodeLabel, loadOurs(concurrency, addresses, "node"), RATE_LIMIT)
        : undefined
      const sdk = await measure(child, sdkLabel, loadSdk, RATE_LIMIT)
      for (const r of [ours, ...(overNode === undefined ? [] : [overNode]), sdk]) print(r)
      const outcome = (r: Row) =>
        r.fungibles === expected
          ? `complete (${r.fungibles} fungibles)`
          : `${r.fungibles === 0 ? "failed" : "incomplete"}: ${r.fungibles} of ${expected} fungibles`
      console.log(
        `ours: ${outcome(ours)} in ${ours.wallMs.toFixed(0)} ms; ` +
          (overNode === undefined ? "" : `over node:http: ${outcome(overNode)} in ${overNode.wallMs.toFixed(0)} ms; `) +
          `sdk: ${outcome(sdk)} (errors = 429 answers)`
      )
    }
    console.log()
    console.log(
      `ours starts at ${concurrency} in flight and adapts up to ${GatewayDefaults.maxConcurrency} (halving on 429/5xx/timeouts, honouring retry-after, retrying reads); ` +
        `† = the same client over @effect/platform's FetchHttpClient (Gateway.layer), ‡ = over Node's http (layerNode, the exchange server's), ` +
        `the others over fetch itself (Gateway.layerFetch, the browser's); ` +
        `* = the same client starting at ${high}. The SDK fires every chunk and page at once ` +
        `(no bound, no retries). cpu ms = user+system CPU of this process during the run; srv cpu = the fake gateway's.`
    )
  } finally {
    child.disconnect()
  }
}

if (process.argv.includes("--serve")) serve()
else if (process.argv.includes("--instructions-worker"))
  instructionsWorker().catch((e: unknown) => {
    console.error(e)
    process.exitCode = 1
  })
else
  (process.argv.includes("--instructions") ? instructions() : main()).catch((e: unknown) => {
    console.error(e)
    process.exitCode = 1
  })
