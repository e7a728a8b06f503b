/**
 * Three exchange-server replicas as separate processes (`npm run server` with the test's fault points: ./replica.ts)
 * on one fresh PostgreSQL database and one devnet ledger, whose gateway emulator this test process serves over
 * loopback HTTP.
 *
 * - `kill -9` of the replica holding a swap after the claim, after the payout intent is stored, and after the submit
 *   (`HSWAP_TEST_FAULT_PAUSE_AT`: the first replica to reach a point stops there, the test kills it): exactly one
 *   payout, completed within the lease time after the kill;
 * - 1,000 concurrent registrations of one deposit spread over the replicas: exactly one payout;
 * - 200 distinct deposits registered round-robin against liquidity for about half of them: each settled exactly once
 *   (paid or refunded for low liquidity), no payout ever fails on the ledger, no reservation is left;
 * - a deposit of a token the exchange does not list, registered 300 times over the replicas, and one nobody
 *   registers (the watcher's): each refunded exactly once;
 * - `kill -9` of the watcher's replica: deposits nobody registers are still settled.
 *
 * Skipped (loudly, see ./stores) when PostgreSQL is not reachable.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { type Server, createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Db, DbLive, LOW_LIQUIDITY } from "../../src/server/index"
import {
  type Devnet,
  balance,
  messageOf,
  operatorTransactions as operatorLedgerTransactions,
  startLedger,
  swapMessage,
  transfer
} from "./harness"
import { freshPostgres, postgresUnavailable } from "./stores"
import { until } from "../support/processes"

const { hUSDC, hETH, hBTC, GKS } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount
const CLAIM_LEASE_S = 3
const WATCHER_LEASE_S = 2
const LEASE_MS = CLAIM_LEASE_S * 1000
/** Every replica may stop at every fault point; each point fires once per database (the first replica there). */
const FAULTS = { HSWAP_TEST_FAULT_PAUSE_AT: "claimed,stored,submitted" }

interface Replica {
  readonly id: string
  readonly url: string
  readonly proc: ChildProcess
  readonly output: () => string
}

describe.skipIf(postgresUnavailable !== undefined)("three replicas on one PostgreSQL database", () => {
  let devnet: Devnet
  let http: Server
  let gatewayUrl: string
  let database: { readonly url: string; readonly drop: () => Promise<void> }
  let db: ManagedRuntime.ManagedRuntime<Db | SqlClient.SqlClient, never>
  const replicas = new Map<string, Replica>()
  let spawned = 0
  /**
   * Every process spawned and not yet seen to exit, whether or not it got as far as listening: cleanup kills them all
   * (a replica whose start timed out, or whose siblings' start failed, is here and nowhere else).
   */
  const running = new Set<ChildProcess>()
  const killAll = async () => {
    const procs = [...running]
    await Promise.all(
      procs.map(
        (proc) =>
          new Promise<void>((ok) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return ok()
            proc.once("exit", () => ok())
            proc.kill("SIGKILL")
          })
      )
    )
  }
  // Should the test process itself end before afterAll (a worker torn down on timeout), no replica outlives it.
  const killOnExit = () => {
    for (const proc of running) proc.kill("SIGKILL")
  }
  process.once("exit", killOnExit)

  const startReplica = async (env: Record<string, string> = {}): Promise<Replica> => {
    const id = `r${++spawned}`
    // node itself (tsx as a loader), so that a SIGKILL hits the server and not a wrapper that would leave it running.
    const proc = spawn(process.execPath, ["--import", "tsx", "test/server/replica.ts"], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        HSWAP_NETWORK_ID: "240",
        HSWAP_GATEWAY_URL: gatewayUrl,
        HSWAP_DATABASE_URL: database.url,
        HSWAP_DB_POOL_SIZE: "8",
        HSWAP_PORT: "0",
        HSWAP_REPLICA_ID: id,
        HSWAP_RATE_LIMIT: "0",
        HSWAP_CLAIM_LEASE_SECONDS: String(CLAIM_LEASE_S),
        HSWAP_WATCHER_LEASE_SECONDS: String(WATCHER_LEASE_S),
        HSWAP_WATCHER_POLL_MS: "200",
        HSWAP_LOG_LEVEL: "error",
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    running.add(proc)
    proc.once("exit", () => running.delete(proc))

    let out = ""
    proc.stdout.on("data", (b: Buffer) => (out += b.toString()))
    proc.stderr.on("data", (b: Buffer) => (out += b.toString()))
    const url = await until(
      `replica ${id} to listen`,
      () => {
        if (proc.exitCode !== null) throw new Error(`replica ${id} exited ${proc.exitCode}:\n${out}`)
        return /hSwap exchange server on (\S+)\/api/.exec(out)?.[1]
      },
      60_000
    ).catch((e: unknown) => {
      // Never left running once its start has failed: nothing else knows of it.
      proc.kill("SIGKILL")
      throw e
    })
    const replica = { id, url, proc, output: () => out }
    replicas.set(id, replica)
    return replica
  }

  const kill9 = async (replica: Replica) => {
    replicas.delete(replica.id)
    const exited = new Promise((ok) => replica.proc.once("exit", ok))
    replica.proc.kill("SIGKILL")
    await exited
  }

  const live = () => [...replicas.values()]

  const register = async (
    replica: Replica,
    tx: string,
    attempt = 1
  ): Promise<{ status: number; json: Record<string, unknown> }> => {
    try {
      const r = await fetch(`${replica.url}/api/swap/${tx}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tx_hash: tx })
      })
      return { status: r.status, json: (await r.json()) as Record<string, unknown> }
    } catch (e) {
      // A pooled keep-alive connection the replica closed as idle just as it was reused (the request was never
      // answered): undici says "other side closed" (UND_ERR_SOCKET) or, when the reset meets its write, ECONNRESET.
      // Registering is idempotent, so register again, as a client would.
      const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause
      if ((cause?.code === "UND_ERR_SOCKET" || cause?.code === "ECONNRESET") && attempt < 3)
        return register(replica, tx, attempt + 1)
      throw new Error(
        `registering ${tx} at replica ${replica.id} failed (attempt ${attempt}): ${String(cause?.code ?? "")} ${String(cause?.message ?? e)}`,
        { cause: e }
      )
    }
  }

  const row = (tx: string) => db.runPromise(Effect.flatMap(Db, (d) => d.get(tx))).then(Option.getOrUndefined)
  const settled = (tx: string, ms: number) =>
    until(
      `${tx} to be final`,
      async () => {
        const r = await row(tx)
        return r !== undefined && (r.state === "completed" || r.state === "refunded") ? r : undefined
      },
      ms
    ).catch(async (e: unknown) => {
      // What the replicas said, for the failure report.
      console.error(
        `${tx}:`,
        await row(tx),
        live()
          .map((r) => `${r.id}: ${r.output()}`)
          .join("\n")
      )
      throw e
    })

  /** Every transaction that withdrew from the exchange account, with its message (payouts and refunds). */
  const operatorTransactions = async () => {
    const page = await operatorLedgerTransactions(devnet)
    return page.items.map((t) => ({ status: t.status, intent: t.intentHash, message: messageOf(t) }))
  }
  const payoutsFor = async (tx: string) =>
    (await operatorTransactions()).filter(
      (t) => t.message === `hSwap payout for ${tx}` && t.status === "CommittedSuccess"
    )

  const pausedAt = (point: string) =>
    until(
      `a replica to pause at ${point}`,
      () => live().find((r) => r.output().includes(`hswap-fault: paused at ${point}`)),
      30_000
    )

  beforeAll(async () => {
    devnet = await startLedger()
    http = createServer((req, res) => void devnet.gateway.mount.handle(req, res))
    await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok))
    const address = http.address()
    gatewayUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/gateway`
    database = await freshPostgres()
    await Promise.all([startReplica(FAULTS), startReplica(FAULTS), startReplica(FAULTS)])
    db = ManagedRuntime.make(
      Layer.merge(
        DbLive.postgres(database.url, { maxConnections: 2 }),
        PgClient.layer({ url: Redacted.make(database.url), maxConnections: 1 }).pipe(Layer.orDie)
      )
    )
  }, 120_000)

  afterAll(async () => {
    replicas.clear()
    await killAll()
    process.off("exit", killOnExit)
    await db?.dispose()
    http?.close()
    await devnet?.dispose()
    await database?.drop()
  }, 60_000)

  /** Brings the cluster back to three replicas (with the fault points too: each fires once per database anyway). */
  const refill = () => Promise.all(Array.from({ length: 3 - live().length }, () => startReplica(FAULTS)))

  it("kill -9 of the replica holding a swap after the claim, after storing the payout, after the submit: one payout, completed within the lease", async () => {
    const [user] = devnet.ledger.genesis.users
    // D1 is claimed by a first replica (killed there), resumed by a second that stores its payout (killed there);
    // a third settles the stored payout.
    const d1 = await transfer(devnet, {
      from: user,
      to: exchange,
      resource: hUSDC,
      amount: "10",
      message: swapMessage("hUSDC", "hETH")
    })
    void register(live()[0] as Replica, d1).catch(() => undefined)
    const atClaim = await pausedAt("claimed")
    expect((await row(d1))?.state).toBe("received")
    await kill9(atClaim)
    const atStore = await pausedAt("stored")
    const stored = await row(d1)
    expect(stored?.state).toBe("paying")
    expect(stored?.payout_intent).toMatch(/^txid_loc1/)
    expect(await payoutsFor(d1)).toEqual([])
    const killedAt = Date.now()
    await kill9(atStore)
    const done1 = await settled(d1, 4 * LEASE_MS)
    const took1 = Date.now() - killedAt
    expect(done1.state).toBe("completed")
    expect(done1.payout_intent).toBe(stored?.payout_intent)
    expect(took1).toBeLessThan(LEASE_MS + WATCHER_LEASE_S * 1000 + 1500)

    await refill()
    // D2: the first replica to submit a payout is killed right after the submit; the next finds it committed.
    const d2 = await transfer(devnet, {
      from: user,
      to: exchange,
      resource: hUSDC,
      amount: "12",
      message: swapMessage("hUSDC", "hETH")
    })
    void register(live()[0] as Replica, d2).catch(() => undefined)
    const atSubmit = await pausedAt("submitted")
    const submitted = await row(d2)
    expect(submitted?.state).toBe("paying")
    const killedAt2 = Date.now()
    await kill9(atSubmit)
    const done2 = await settled(d2, 4 * LEASE_MS)
    const took2 = Date.now() - killedAt2
    expect(done2.state).toBe("completed")
    expect(done2.payout_intent).toBe(submitted?.payout_intent)
    expect(took2).toBeLessThan(LEASE_MS + WATCHER_LEASE_S * 1000 + 1500)

    expect((await payoutsFor(d1)).map((p) => p.intent)).toEqual([done1.payout_intent])
    expect((await payoutsFor(d2)).map((p) => p.intent)).toEqual([done2.payout_intent])
    console.info(`replicas: completed ${took1} ms and ${took2} ms after the kill (claim lease ${LEASE_MS} ms)`)
    await refill()
  }, 120_000)

  it("1,000 concurrent registrations of one deposit over the replicas: exactly one payout", async () => {
    const user = devnet.ledger.genesis.users[1]
    const before = await balance(devnet, user.address, hETH)
    const tx = await transfer(devnet, {
      from: user,
      to: exchange,
      resource: hUSDC,
      amount: "20",
      message: swapMessage("hUSDC", "hETH")
    })
    const all = live()
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => register(all[i % all.length] as Replica, tx))
    )
    // Each answer is the settled record (200) or, when settlement outlasts the registration wait on a busy machine,
    // "in progress" (202); never an error, and never two different payouts.
    const statuses = new Map<number, number>()
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 202)).toEqual([])
    const outs = new Set(
      answers
        .filter((a) => a.status === 200)
        .map((a) => (a.json["transaction"] as Record<string, unknown> | undefined)?.["tx_out"])
    )
    expect(outs.size).toBeLessThanOrEqual(1)
    const final = await settled(tx, 60_000)
    expect(final.state).toBe("completed")
    const payouts = await payoutsFor(tx)
    expect(payouts.map((p) => p.intent)).toEqual([final.payout_intent])
    if (outs.size === 1) expect([...outs]).toEqual([final.payout_intent])
    expect(await balance(devnet, user.address, hETH)).not.toBe(before)
  }, 120_000)

  it("a deposit of a token the exchange does not list, registered 300 times over the replicas or by nobody: refunded once each", async () => {
    const genesis = devnet.ledger.genesis
    const user = genesis.users[0]
    // GKS is listed by the devnet but not by the exchange; only the exchange holds it at genesis.
    await transfer(devnet, { from: genesis.exchange, to: user.address, resource: GKS, amount: "50" })
    const before = await balance(devnet, user.address, GKS)
    const registered = await transfer(devnet, {
      from: user,
      to: exchange,
      resource: GKS,
      amount: "4",
      message: swapMessage("hUSDC", "hETH")
    })
    const unregistered = await transfer(devnet, {
      from: user,
      to: exchange,
      resource: GKS,
      amount: "6",
      message: swapMessage("GKS", "hUSDC")
    })
    const all = live()
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => register(all[i % all.length] as Replica, registered))
    )
    expect([...new Set(answers.map((a) => a.status))].filter((s) => s !== 200 && s !== 202)).toEqual([])
    for (const tx of [registered, unregistered]) {
      const final = await settled(tx, 60_000)
      expect(final).toMatchObject({ state: "refunded", resource_in: GKS, symbol_in: GKS })
      expect(final.message).toContain("is not one the exchange swaps")
      const moved = (await operatorTransactions()).filter(
        (t) => t.message === `hSwap refund for ${tx}` || t.message === `hSwap payout for ${tx}`
      )
      expect(moved).toEqual([
        { status: "CommittedSuccess", intent: final.refund_intent, message: `hSwap refund for ${tx}` }
      ])
    }
    expect(await balance(devnet, user.address, GKS)).toBe(before)
    // Registered again afterwards, everywhere: the same refund, nothing moves.
    const again = await Promise.all(all.map((r) => register(r, unregistered)))
    for (const a of again) expect(a.json).toMatchObject({ status: "canceled", transaction: { asset_in: GKS } })
    expect(await balance(devnet, user.address, GKS)).toBe(before)
  }, 120_000)

  it("200 deposits registered round-robin: each settled once, liquidity never over-committed", async () => {
    const genesis = devnet.ledger.genesis
    // 0.0032 hBTC is left: about half of 200 payouts of ~0.0000316 hBTC fit.
    const move = (Number(await balance(devnet, exchange, hBTC)) - 0.0032).toFixed(8)
    await transfer(devnet, {
      from: { address: exchange, key: genesis.exchange.key },
      to: genesis.fund.address,
      resource: hBTC,
      amount: move
    })
    const left = await balance(devnet, exchange, hBTC)
    expect(left).toBe("0.0032")
    const txs: Array<string> = []
    for (let i = 0; i < 200; i++) {
      const user = genesis.users[i % 3] as (typeof genesis.users)[number]
      txs.push(
        await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hUSDC,
          amount: "2",
          message: swapMessage("hUSDC", "hBTC")
        })
      )
    }
    const all = live()
    const answers = await Promise.all(txs.map((tx, i) => register(all[i % all.length] as Replica, tx)))
    const odd = answers.filter((a) => a.status !== 200 && a.status !== 202)
    if (odd.length > 0)
      console.error(
        live()
          .map((r) => `${r.id}: ${r.output()}`)
          .join("\n")
      )
    expect(odd).toEqual([])
    // Generous on a busy 2-core machine: 200 settlements (each a ledger payout or refund) across 3 processes.
    const rows = await Promise.all(txs.map((tx) => settled(tx, 150_000)))
    const completed = rows.filter((r) => r.state === "completed")
    const refunded = rows.filter((r) => r.state === "refunded")
    expect(completed.length + refunded.length).toBe(200)
    expect(completed.length).toBeGreaterThan(0)
    expect(refunded.length).toBeGreaterThan(0)
    for (const r of refunded) expect(r.message).toBe(`${LOW_LIQUIDITY} Refunded 2 hUSDC.`)
    const operator = await operatorTransactions()
    // Never over-committed: no payout failed on the ledger, and what was paid is what left the account.
    expect(operator.filter((t) => t.status !== "CommittedSuccess")).toEqual([])
    for (const tx of txs) {
      const mine = operator.filter(
        (t) => t.message === `hSwap payout for ${tx}` || t.message === `hSwap refund for ${tx}`
      )
      expect(mine.length, tx).toBe(1)
    }
    const paid = completed.reduce((sum, r) => sum + Math.round(Number(r.amount_out) * 1e8), 0)
    expect(Math.round(Number(await balance(devnet, exchange, hBTC)) * 1e8)).toBe(Math.round(0.0032 * 1e8) - paid)
    const reservations = await db.runPromise(Effect.flatMap(Db, (d) => d.reservations))
    expect(reservations).toEqual([])
    console.info(`replicas: 200 deposits, ${completed.length} paid, ${refunded.length} refunded for low liquidity`)
  }, 300_000)

  it("kill -9 of the watcher's replica: deposits nobody registers are still settled", async () => {
    const holder = await until(
      "a watcher",
      async () => {
        const r = await db.runPromise(
          Effect.flatMap(
            SqlClient.SqlClient,
            (sql) => sql<{ holder: string }>`SELECT holder FROM leases WHERE name = 'watcher'`
          )
        )
        return r[0]?.holder
      },
      10_000
    )
    const watcher = replicas.get(holder)
    expect(watcher).toBeDefined()
    await kill9(watcher as Replica)
    const user = devnet.ledger.genesis.users[2]
    const txs = [
      await transfer(devnet, {
        from: user,
        to: exchange,
        resource: hUSDC,
        amount: "5",
        message: swapMessage("hUSDC", "hETH")
      }),
      await transfer(devnet, {
        from: user,
        to: exchange,
        resource: hETH,
        amount: "0.002",
        message: swapMessage("hETH", "hUSDC")
      })
    ]
    const rows = await Promise.all(txs.map((tx) => settled(tx, 20_000)))
    expect(rows.map((r) => r.state)).toEqual(["completed", "completed"])
    for (const tx of txs) expect((await payoutsFor(tx)).length).toBe(1)
    const newHolder = await db.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ holder: string }>`SELECT holder FROM leases WHERE name = 'watcher'`
      )
    )
    expect(newHolder[0]?.holder).not.toBe(holder)
    expect(replicas.has(newHolder[0]?.holder ?? "")).toBe(true)
  }, 60_000)

  it("maintenance toggled on one replica holds on every replica within a second", async () => {
    await refill()
    const [a, b, c] = live() as [Replica, Replica, Replica]
    const health = async (r: Replica) => (await fetch(`${r.url}/api/health`)).status
    const toggle = (r: Replica, enabled: boolean) =>
      fetch(`${r.url}/api/admin/maintenance`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ enabled })
      }).then((x) => x.status)
    expect(await Promise.all([health(a), health(b), health(c)])).toEqual([200, 200, 200])
    expect(await toggle(a, true)).toBe(200)
    await until(
      "maintenance everywhere",
      async () => ((await Promise.all([health(b), health(c)])).every((s) => s === 409) ? true : undefined),
      3_000
    )
    expect(await health(a)).toBe(409)
    expect(await toggle(c, false)).toBe(200)
    await until(
      "maintenance off everywhere",
      async () => ((await Promise.all([health(a), health(b)])).every((s) => s === 200) ? true : undefined),
      3_000
    )
  }, 30_000)
})
