/**
 * The database gone (dropped under a running server, so every connection to it is refused): every request that needs
 * it is answered 503 "Database unavailable: try again shortly" with `retry-after`, never a 500; what does not need it
 * is answered as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { type ExchangeServer, listenExchangeServer } from "../../src/server/index"
import { DATABASE_UNAVAILABLE } from "../../src/server/routes"
import { type Devnet, startLedger, startServer, swapMessage, transfer } from "./harness"
import { type FreshStore, postgresStore } from "./stores"

const { hUSDC } = DevnetAddresses.resources

describe.skipIf(postgresStore.skipped !== undefined)("the database gone under a running server", () => {
  let devnet: Devnet
  let store: FreshStore
  let server: ExchangeServer
  let http: { readonly url: string; readonly close: () => Promise<void> }

  beforeAll(async () => {
    devnet = await startLedger()
    store = await postgresStore.fresh()
    server = await startServer(devnet, undefined, store.options)
    http = await listenExchangeServer(server, 0, "127.0.0.1")
  }, 60_000)
  afterAll(async () => {
    await http.close()
    await server.close()
    await devnet.dispose()
  })

  const call = async (method: string, path: string) => {
    const r = await fetch(`${http.url}/api${path}`, { method })
    return { status: r.status, json: (await r.json()) as unknown, retryAfter: r.headers.get("retry-after") }
  }

  it("answers 503 with retry-after where it needs the database, never a 500", async () => {
    const user = devnet.ledger.genesis.users[0]
    const deposit = await transfer(devnet, {
      from: user,
      to: DevnetAddresses.exchangeAccount,
      resource: hUSDC,
      amount: "5",
      message: swapMessage("hUSDC", "hETH")
    })
    const account = `/transactions/${user.address}`
    expect((await call("GET", account)).status).toBe(200)
    // Dropped with its connections forced out: every new connection is refused ("database … does not exist").
    await store.remove()
    const unavailable = {
      status: 503,
      json: { error: DATABASE_UNAVAILABLE, message: DATABASE_UNAVAILABLE },
      retryAfter: "2"
    }
    expect(await call("GET", account)).toEqual(unavailable)
    expect(await call("GET", "/transactions/latest")).toEqual(unavailable)
    expect(await call("GET", "/stats")).toEqual(unavailable)
    // The deposit is read from the ledger, then cannot be recorded: the same answer, and it can be registered later.
    expect(await call("POST", `/swap/${deposit}`)).toEqual(unavailable)
    // What needs no database still answers.
    expect((await call("GET", "/liquidity")).status).toBe(200)
  }, 60_000)
})
