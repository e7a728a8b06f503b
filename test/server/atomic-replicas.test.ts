/**
 * The atomic swap on three exchange-server replicas (separate processes, `npm run server` as ./replica.ts runs it) on
 * one fresh PostgreSQL database and one devnet ledger, whose gateway emulator this test process serves over loopback
 * HTTP: the same pre-authorisation sent to all three at once (ten times each) commits once, every replica then
 * answers the same committed swap, and the account lost exactly X and gained exactly the quoted Y.
 *
 * The same on SQLite (one process per database file, so one server) is in ./atomic-http.test.ts. Skipped (loudly,
 * see ./stores) when PostgreSQL is not reachable.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { type Server, createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  balances,
  exchange,
  getJson,
  hETH,
  hUSDC,
  liveQuote,
  minus,
  plus,
  postAtomic,
  quotedFor,
  swapManifest,
  transactionsOf,
  walletSigns
} from "./atomic-devnet"
import { type Devnet, startLedger } from "./harness"
import { freshPostgres, postgresUnavailable } from "./stores"

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms))

describe.skipIf(postgresUnavailable !== undefined)(
  "an atomic swap on three replicas on one PostgreSQL database",
  () => {
    let devnet: Devnet
    let http: Server
    let gatewayUrl: string
    let database: { readonly url: string; readonly drop: () => Promise<void> }
    const procs: Array<ChildProcess> = []
    const urls: Array<string> = []
    const killOnExit = () => {
      for (const p of procs) p.kill("SIGKILL")
    }

    const startReplica = async (id: string): Promise<string> => {
      // node itself (tsx as a loader), so that a kill reaches the server and not a wrapper.
      const proc = spawn(process.execPath, ["--import", "tsx", "test/server/replica.ts"], {
        cwd: process.cwd(),
        env: {
          ...process.env,
          HSWAP_NETWORK_ID: "240",
          HSWAP_GATEWAY_URL: gatewayUrl,
          HSWAP_DATABASE_URL: database.url,
          HSWAP_DB_POOL_SIZE: "4",
          HSWAP_PORT: "0",
          HSWAP_REPLICA_ID: id,
          HSWAP_RATE_LIMIT: "0",
          HSWAP_WATCHER_POLL_MS: "500",
          HSWAP_LOG_LEVEL: "error"
        },
        stdio: ["ignore", "pipe", "pipe"]
      })
      procs.push(proc)
      let out = ""
      proc.stdout.on("data", (b: Buffer) => (out += b.toString()))
      proc.stderr.on("data", (b: Buffer) => (out += b.toString()))
      // Three processes compiling TypeScript at once on a busy 2-core machine: generous.
      const deadline = Date.now() + 240_000
      for (;;) {
        const url = /hSwap exchange server on (\S+)\/api/.exec(out)?.[1]
        if (url !== undefined) return url
        if (proc.exitCode !== null) throw new Error(`replica ${id} exited ${proc.exitCode}:\n${out}`)
        if (Date.now() > deadline) throw new Error(`replica ${id} did not listen within 240 s:\n${out}`)
        await sleep(50)
      }
    }

    beforeAll(async () => {
      process.once("exit", killOnExit)
      devnet = await startLedger()
      http = createServer((req, res) => void devnet.gateway.mount.handle(req, res))
      await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok))
      const address = http.address()
      gatewayUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/gateway`
      database = await freshPostgres()
      urls.push(...(await Promise.all(["a1", "a2", "a3"].map(startReplica))))
    }, 300_000)

    afterAll(async () => {
      await Promise.all(
        procs.map(
          (p) =>
            new Promise<void>((ok) => {
              if (p.exitCode !== null || p.signalCode !== null) return ok()
              p.once("exit", () => ok())
              p.kill("SIGKILL")
            })
        )
      )
      process.off("exit", killOnExit)
      http?.close()
      await devnet?.dispose()
      await database?.drop()
    }, 60_000)

    it("the same pre-authorisation sent to all three at once commits once", async () => {
      const user = devnet.ledger.genesis.users[1]
      const [first = ""] = urls
      const q = await liveQuote(first, hUSDC, hETH)
      expect(q.atomic).toBe(true)
      const amount = "30"
      const quoted = quotedFor(q, amount)
      const before = await balances(devnet, [user.address, exchange])
      const txsBefore = (await transactionsOf(devnet, user.address)).length
      const signed = await walletSigns(devnet, swapManifest(q, user.address, amount), q.quote_expires_at)
      const body = { quote_id: q.quote_id, amount, signed_partial_transaction: signed.hex }

      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => postAtomic(urls[i % urls.length] ?? first, body))
      )
      // Each answers the one record (under way, or over by then), none a refusal.
      for (const a of answers) {
        expect([a.status, a.json["subintent_id"]]).toEqual([expect.toBeOneOf([200, 202]), signed.subintentId])
      }
      // Every replica ends up answering the one committed swap.
      const finals = await Promise.all(
        urls.map(async (url) => {
          const deadline = Date.now() + 30_000
          for (;;) {
            const got = await getJson(`${url}/api/atomic-swap/${signed.subintentId}`)
            if (got.status === 200) return got.json
            if (Date.now() > deadline)
              throw new Error(`${url} still answers ${got.status}: ${JSON.stringify(got.json)}`)
            await sleep(100)
          }
        })
      )
      const txId = finals[0]?.["tx_id"]
      expect(txId).toMatch(/^txid_loc1/)
      for (const f of finals) expect(f).toMatchObject({ state: "committed", tx_id: txId, amount_out: quoted })

      // On the ledger: one transaction for this pre-authorisation, moving exactly X out and Y in.
      const txs = await transactionsOf(devnet, user.address)
      expect(txs.length).toBe(txsBefore + 1)
      expect(
        txs.filter((t) => (t.childSubintentHashes ?? []).includes(signed.subintentId)).map((t) => t.intentHash)
      ).toEqual([txId])
      const after = await balances(devnet, [user.address, exchange])
      expect(after[`${user.address} ${hUSDC}`]).toBe(minus(before[`${user.address} ${hUSDC}`] ?? "", amount))
      expect(after[`${user.address} ${hETH}`]).toBe(plus(before[`${user.address} ${hETH}`] ?? "", quoted))
      expect(after[`${exchange} ${hETH}`]).toBe(minus(before[`${exchange} ${hETH}`] ?? "", quoted))
      console.info(
        `atomic replicas: answers ${[...new Set(answers.map((a) => `${a.status} ${String(a.json["state"] ?? a.json["reason"])}`))].join(", ")}`
      )
    }, 120_000)
  }
)
