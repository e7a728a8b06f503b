/**
 * A replica stopped with SIGTERM drops no one, on both stores: `npm run server` (./replica.ts) holding a swap at its
 * claim (the `claimed` fault point) with 20 registrations of it waiting and 20 price reads written out, then SIGTERM.
 * Every request gets an answer, the process exits within `HSWAP_DRAIN_SECONDS`, and its claim is released: the next
 * replica on the database settles the swap at once, not after the claim lease (60 s here).
 */
import type { ChildProcess } from "node:child_process"
import { type Server, createServer, get as httpGet } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { type Devnet, startLedger, swapMessage, transfer } from "./harness"
import { type FreshStore, STORES } from "./stores"
import { keepAliveOf, sleep, spawnListening, until } from "../support/processes"

const DRAIN_S = 4
const LEASE_S = 60

describe.each(STORES)("a replica stopped with SIGTERM ($name)", (store) => {
  let devnet: Devnet
  let http: Server
  let gatewayUrl: string
  let fresh: FreshStore
  const running = new Set<ChildProcess>()

  const start = async (env: Record<string, string>) => {
    return spawnListening({
      script: "test/server/replica.ts",
      env: {
        HSWAP_NETWORK_ID: "240",
        HSWAP_GATEWAY_URL: gatewayUrl,
        HSWAP_DB_PATH: fresh.options.databasePath,
        ...(fresh.options.databaseUrl === undefined ? {} : { HSWAP_DATABASE_URL: fresh.options.databaseUrl }),
        HSWAP_PORT: "0",
        HSWAP_RATE_LIMIT: "0",
        HSWAP_CLAIM_LEASE_SECONDS: String(LEASE_S),
        HSWAP_WATCHER_POLL_MS: "200",
        HSWAP_DRAIN_SECONDS: String(DRAIN_S),
        HSWAP_LOG_LEVEL: "error",
        ...env
      },
      listening: /hSwap exchange server on (\S+)\/api/,
      what: "the replica to listen",
      ms: 60_000,
      running
    })
  }

  const register = async (url: string, tx: string) => {
    const r = await fetch(`${url}/api/swap/${tx}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tx_hash: tx })
    })
    return {
      status: r.status,
      connection: r.headers.get("connection"),
      json: (await r.json()) as Record<string, unknown>
    }
  }

  /** A price read over a connection of its own; `written` once the request is out on the socket. */
  const priceRead = (url: string) => {
    let sent = () => {}
    const written = new Promise<void>((ok) => (sent = ok))
    const { hUSDC, hETH } = DevnetAddresses.resources
    const answer = new Promise<number | undefined>((ok, fail) => {
      const req = httpGet(`${url}/api/liveprice/${hUSDC}/${hETH}`, { agent: false }, (res) => {
        res.resume()
        res.on("end", () => ok(res.statusCode))
        res.on("error", fail)
      })
      req.on("error", fail)
      req.on("finish", () => sent())
    })
    return { written, answer }
  }

  beforeAll(async () => {
    devnet = await startLedger()
    http = createServer((req, res) => void devnet.gateway.mount.handle(req, res))
    await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok))
    const address = http.address()
    gatewayUrl = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/gateway`
    fresh = await store.fresh()
  }, 120_000)

  afterAll(async () => {
    await Promise.all(
      [...running].map(
        (proc) =>
          new Promise<void>((ok) => {
            proc.once("exit", () => ok())
            proc.kill("SIGKILL")
          })
      )
    )
    http?.close()
    await devnet?.dispose()
    await fresh?.remove()
  }, 60_000)

  it.skipIf(store.skipped !== undefined)(
    "answers the 40 requests in flight, exits within the drain time and releases its claim",
    async () => {
      const [user] = devnet.ledger.genesis.users
      const tx = await transfer(devnet, {
        from: user as NonNullable<typeof user>,
        to: DevnetAddresses.exchangeAccount,
        resource: DevnetAddresses.resources.hUSDC,
        amount: "10",
        message: swapMessage("hUSDC", "hETH")
      })
      const first = await start({ HSWAP_TEST_FAULT_PAUSE_AT: "claimed" })
      // Idle connections are kept for Node's 5 s unless HSWAP_KEEP_ALIVE_SECONDS says longer (the second replica).
      expect(await keepAliveOf(first.url)).toBe("timeout=5")
      const answers = Promise.all(Array.from({ length: 20 }, () => register(first.url, tx)))
      await until(
        "the claim",
        () => (first.output().includes("hswap-fault: paused at claimed") ? true : undefined),
        30_000
      )
      await sleep(500) // the 20 requests are all in
      // 20 price reads written out before the stop, read by the replica or not yet: all answered.
      const reads = Array.from({ length: 20 }, () => priceRead(first.url))
      await Promise.all(reads.map((r) => r.written))
      const stoppedAt = Date.now()
      first.proc.kill("SIGTERM")
      const got = await answers
      expect(await Promise.all(reads.map((r) => r.answer))).toEqual(Array.from({ length: 20 }, () => 200))
      const code = await first.exited
      const took = Date.now() - stoppedAt
      expect(got.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 202))
      expect(got.every((a) => a.json["status"] === "pending" && a.connection === "close")).toBe(true)
      expect(code).toBe(0)
      expect(took).toBeLessThan(DRAIN_S * 1000 + 1500)
      expect(first.output()).toContain("stopping…")

      // The claim was given up: the next replica settles the swap now, not after the 60 s lease.
      const restartedAt = Date.now()
      const second = await start({ HSWAP_KEEP_ALIVE_SECONDS: "65" })
      expect(await keepAliveOf(second.url)).toBe("timeout=65")
      const settled = await register(second.url, tx)
      expect(settled.json["status"]).toBe("completed")
      expect(Date.now() - restartedAt).toBeLessThan((LEASE_S * 1000) / 2)
      second.proc.kill("SIGTERM")
      expect(await second.exited).toBe(0)
    },
    180_000
  )
})
