/**
 * Settlement on the devnet, in process: real notarized deposits on the devnet ledger, read back through the gateway
 * emulator by our Gateway client, payouts signed with the genesis exchange key and committed on the same ledger.
 * The whole suite runs on each store (SQLite, and PostgreSQL when reachable), each case on a store of its own.
 */
import { FetchHttpClient } from "@effect/platform"
import { BigDecimal, type Duration, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formatPlain, parseLooseDecimal } from "../../src/lib/decimalText"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { Gateway, GatewayTransportError } from "../../src/gateway/index"
import { devnetExchangeServerOptions } from "../../src/devnet/exchange"
import {
  Db,
  LOW_LIQUIDITY,
  Maintenance,
  PriceFeed,
  Settlement,
  Signer,
  WATCHER_POSITION_KEY,
  configFromOptions,
  makeSigner,
  exchangeServerLayer,
  type ExchangeServer
} from "../../src/server/index"
import {
  type Devnet,
  balance,
  emulatorFetch,
  eventually,
  operatorTransactions,
  startLedger,
  startServer,
  swapMessage,
  transfer,
  unsubmittedIntent
} from "./harness"
import { type FreshStore, STORES } from "./stores"

const { hUSDC, hETH, hBTC } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount

const dec = (s: string) => Option.getOrThrow(parseLooseDecimal(s))
/** after − before, exactly, as a plain decimal string. */
const delta = (before: string, after: string) => formatPlain(BigDecimal.subtract(dec(after), dec(before)))
const plus = (a: string, b: string) => formatPlain(BigDecimal.sum(dec(a), dec(b)))

type Json = Record<string, unknown>
const post = async (server: ExchangeServer, txHash: string) => {
  const r = await server.request({
    method: "POST",
    path: `/swap/${txHash}`,
    ip: "127.0.0.1",
    body: JSON.stringify({ tx_hash: txHash })
  })
  return { status: r.status, json: r.json as Json }
}
/** A deposit of 10 hUSDC for hETH by the second genesis user; its hash. */
const depositTen = (devnet: Devnet) =>
  transfer(devnet, {
    from: devnet.ledger.genesis.users[1],
    to: exchange,
    resource: hUSDC,
    amount: "10",
    message: swapMessage("hUSDC", "hETH")
  })
const records = async (server: ExchangeServer, account: string) => {
  const r = await server.request({ method: "GET", path: `/transactions/${account}`, ip: "127.0.0.1", body: undefined })
  return (r.json as { transactions: ReadonlyArray<Json> }).transactions
}

/**
 * The server's services over `db` without the watcher, with a Gateway whose submit is wrapped by `wrapSubmit`
 * and a signer that takes `signerDelay` longer.
 */
const runtimeFor = (
  devnet: Devnet,
  db: Layer.Layer<Db>,
  wrapSubmit?: (submitted: Effect.Effect<unknown, unknown>) => Effect.Effect<never, never>,
  signerDelay?: Duration.DurationInput,
  detailsDown?: () => boolean
) => {
  const options = devnetExchangeServerOptions(undefined, devnet.gateway)
  const config = configFromOptions({ ...options, rateLimitPerMinute: 0 })
  const http = FetchHttpClient.layer.pipe(
    Layer.provide(Layer.succeed(FetchHttpClient.Fetch, emulatorFetch(devnet.gateway)))
  )
  const real = Gateway.layer({ basePath: "http://devnet.invalid/gateway", applicationName: "hswap-test" }).pipe(
    Layer.provide(http),
    Layer.orDie
  )
  const gateway =
    wrapSubmit === undefined && detailsDown === undefined
      ? real
      : Layer.effect(
          Gateway,
          Effect.map(Gateway, (g) => ({
            ...g,
            transaction: {
              ...g.transaction,
              submit: (hex: string) =>
                wrapSubmit === undefined ? g.transaction.submit(hex) : wrapSubmit(g.transaction.submit(hex)),
              committedDetails: (...args: Parameters<typeof g.transaction.committedDetails>) =>
                detailsDown?.() === true
                  ? Effect.fail(
                      new GatewayTransportError({
                        path: "/transaction/committed-details",
                        reason: "connection refused",
                        cause: null
                      })
                    )
                  : g.transaction.committedDetails(...args)
            }
          }))
        ).pipe(Layer.provide(real))
  const signer = makeSigner({
    networkId: 240,
    account: options.exchangeAccount,
    privateKeyHex: options.privateKeyHex,
    feeLockXrd: config.feeLockXrd,
    epochWindow: config.payoutEpochWindow
  })
  return ManagedRuntime.make(
    exchangeServerLayer({
      config,
      gateway,
      db,
      signer: Layer.succeed(Signer, {
        ...signer,
        transfer: (input) =>
          signerDelay === undefined
            ? signer.transfer(input)
            : Effect.zipRight(Effect.sleep(signerDelay), signer.transfer(input))
      }),
      prices: PriceFeed.fixed({ XRD: "0.02", hUSDC: "1", hUSDT: "1", hETH: "3000", hBTC: "60000" }),
      watcher: false
    })
  )
}

for (const kind of STORES) {
  describe.skipIf(kind.skipped !== undefined)(`on ${kind.name}`, () => {
    describe("settlement on the devnet", () => {
      let devnet: Devnet
      let server: ExchangeServer
      let store: FreshStore | undefined

      beforeAll(async () => {
        devnet = await startLedger()
        store = await kind.fresh()
        server = await startServer(devnet, undefined, store.options)
      })
      afterAll(async () => {
        try {
          await server?.close()
          await devnet?.dispose()
        } finally {
          await store?.remove()
        }
      })

      it("pays a user's deposit exactly the computed amount, once, and records it", async () => {
        const user = devnet.ledger.genesis.users[0]
        const before = {
          userEth: await balance(devnet, user.address, hETH),
          userUsdc: await balance(devnet, user.address, hUSDC),
          exEth: await balance(devnet, exchange, hETH),
          exUsdc: await balance(devnet, exchange, hUSDC)
        }
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hUSDC,
          amount: "100",
          message: swapMessage("hUSDC", "hETH")
        })
        const registered = await post(server, tx)
        expect(registered.status).toBe(200)
        expect(registered.json["status"]).toBe("completed")
        // (100 × 1 × 0.999 − 0.10) / 3000, truncated to 18 decimals.
        const expected = "0.033266666666666666"
        expect(delta(before.userEth, await balance(devnet, user.address, hETH))).toBe(expected)
        expect(delta(before.userUsdc, await balance(devnet, user.address, hUSDC))).toBe("-100")
        expect(delta(before.exEth, await balance(devnet, exchange, hETH))).toBe(`-${expected}`)
        expect(delta(before.exUsdc, await balance(devnet, exchange, hUSDC))).toBe("100")
        const [record] = (await records(server, user.address)).filter((r) => r["tx_in"] === tx)
        expect(record).toMatchObject({
          from: user.address,
          to: exchange,
          asset_in: "hUSDC",
          asset_out: "hETH",
          amount_in: "100",
          amount_out: expected,
          status: "completed"
        })
        const payout = await devnet.run(devnet.ledger.committedTransaction(String(record?.["tx_out"])))
        expect(payout._tag).toBe("Some")
        if (payout._tag === "Some") {
          expect(payout.value.status).toBe("CommittedSuccess")
          expect(payout.value.message).toMatchObject({ content: { value: `hSwap payout for ${tx}` } })
        }
      })

      it("pays once for 20 concurrent registrations of the same hash", async () => {
        const user = devnet.ledger.genesis.users[1]
        const before = await balance(devnet, user.address, hBTC)
        const payoutsBefore = (await operatorTransactions(devnet)).items.length
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hUSDC,
          amount: "50",
          message: swapMessage("hUSDC", "hBTC")
        })
        const answers = await Promise.all(Array.from({ length: 20 }, () => post(server, tx)))
        const outs = new Set(answers.map((a) => (a.json["transaction"] as Json | undefined)?.["tx_out"]))
        expect(answers.every((a) => a.status === 200 && a.json["status"] === "completed")).toBe(true)
        expect(outs.size).toBe(1)
        // (50 × 0.999 − 0.10) / 60000 = 0.000830833…, truncated to hBTC's 8 decimals.
        expect(delta(before, await balance(devnet, user.address, hBTC))).toBe("0.00083083")
        expect((await operatorTransactions(devnet)).items.length).toBe(payoutsBefore + 1)
        const again = await post(server, tx)
        expect(again.json["status"]).toBe("completed")
        expect(delta(before, await balance(devnet, user.address, hBTC))).toBe("0.00083083")
      })

      it("refuses a hash whose deposit went to another account", async () => {
        const [user, other] = devnet.ledger.genesis.users
        const payoutsBefore = (await operatorTransactions(devnet)).items.length
        const tx = await transfer(devnet, {
          from: user,
          to: other.address,
          resource: hUSDC,
          amount: "10",
          message: swapMessage("hUSDC", "hETH")
        })
        const answer = await post(server, tx)
        expect(answer.status).toBe(422)
        expect(answer.json["error"]).toBe("The transaction deposited no token into the exchange account")
        expect((await records(server, user.address)).some((r) => r["tx_in"] === tx)).toBe(false)
        expect((await operatorTransactions(devnet)).items.length).toBe(payoutsBefore)
      })

      it("refuses a failed transaction", async () => {
        const user = devnet.ledger.genesis.users[2]
        // More than the user holds: the ledger commits it as a failure (the fee is still paid).
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hUSDC,
          amount: "999999",
          message: swapMessage("hUSDC", "hETH")
        })
        const status = await devnet.run(devnet.ledger.transactionStatus(tx))
        expect(status._tag === "Committed" && status.transaction.status).toBe("CommittedFailure")
        const answer = await post(server, tx)
        expect(answer.status).toBe(422)
        expect(answer.json["error"]).toBe("The transaction did not succeed on the ledger")
      })

      it("refuses a deposit whose message names no route, and an unknown hash", async () => {
        const user = devnet.ledger.genesis.users[2]
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hUSDC,
          amount: "5",
          message: "just a gift"
        })
        expect((await post(server, tx)).json["error"]).toBe("The transaction message names no route (FROM -> TO)")
        const unknown = await post(server, await unsubmittedIntent(devnet))
        expect(unknown.status).toBe(404)
        expect((await post(server, "txid_loc1notahash")).status).toBe(400)
      })

      it("settles a deposit nobody registered (the watcher)", async () => {
        const user = devnet.ledger.genesis.users[2]
        const before = await balance(devnet, user.address, hUSDC)
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hETH,
          amount: "0.01",
          message: swapMessage("hETH", "hUSDC")
        })
        const record = await eventually(async () =>
          (await records(server, user.address)).find((r) => r["tx_in"] === tx && r["status"] === "completed")
        )
        // (0.01 × 3000 × 0.999 − 0.10) / 1 = 29.87, to hUSDC's 6 decimals.
        expect(record["amount_out"]).toBe("29.87")
        expect(await balance(devnet, user.address, hUSDC)).toBe(plus(before, "29.87"))
      })

      it("refunds an amount outside the limits", async () => {
        const user = devnet.ledger.genesis.users[0]
        const before = await balance(devnet, user.address, hUSDC)
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hUSDC,
          amount: "250",
          message: swapMessage("hUSDC", "hETH")
        })
        const answer = await post(server, tx)
        expect(answer.status).toBe(200)
        const record = answer.json["transaction"] as Json
        expect(record["status"]).toBe("canceled")
        expect(String(record["message"])).toContain("outside the limits (1 to 200 hUSDC)")
        expect(String(record["message"])).toContain("Refunded 250 hUSDC.")
        expect(record["asset_out"]).toBe("hUSDC")
        expect(record["amount_out"]).toBe("250")
        expect(await balance(devnet, user.address, hUSDC)).toBe(before)
      })
    })

    describe("the watcher's position", () => {
      it("settles a deposit made while the server was down, from the last state version it saw", async () => {
        const devnet = await startLedger()
        const store = await kind.fresh()
        try {
          const first = await startServer(devnet, undefined, store.options)
          // The first watcher pass records where it starts: the ledger tip.
          const position = await eventually(async () =>
            Option.getOrUndefined(
              await first.runtime.runPromise(Effect.flatMap(Db, (db) => db.getKv(WATCHER_POSITION_KEY)))
            )
          )
          expect(Number(position)).toBe(await devnet.run(devnet.ledger.currentStateVersion))
          await first.close()
          const user = devnet.ledger.genesis.users[1]
          const tx = await transfer(devnet, {
            from: user,
            to: exchange,
            resource: hUSDC,
            amount: "20",
            message: swapMessage("hUSDC", "hETH")
          })
          const second = await startServer(devnet, undefined, store.options)
          try {
            const record = await eventually(async () =>
              (await records(second, user.address)).find((r) => r["tx_in"] === tx && r["status"] === "completed")
            )
            // (20 × 0.999 − 0.10) / 3000
            expect(record["amount_out"]).toBe("0.006626666666666666")
          } finally {
            await second.close()
          }
        } finally {
          await devnet.dispose()
          await store.remove()
        }
      })
    })

    describe("low liquidity", () => {
      it("refunds the deposit with the spec's message", async () => {
        const devnet = await startLedger()
        const store = await kind.fresh()
        const server = await startServer(devnet, undefined, store.options)
        try {
          const genesis = devnet.ledger.genesis
          // The operator moves almost all its hBTC away: 0.0001 hBTC is left, less than any payout of 100 hUSDC.
          await transfer(devnet, {
            from: { address: exchange, key: genesis.exchange.key },
            to: genesis.fund.address,
            resource: hBTC,
            amount: "24.9999"
          })
          const user = genesis.users[0]
          const before = await balance(devnet, user.address, hUSDC)
          const tx = await transfer(devnet, {
            from: user,
            to: exchange,
            resource: hUSDC,
            amount: "100",
            message: swapMessage("hUSDC", "hBTC")
          })
          const answer = await post(server, tx)
          const record = answer.json["transaction"] as Json
          expect(record["status"]).toBe("canceled")
          expect(String(record["message"])).toBe(`${LOW_LIQUIDITY} Refunded 100 hUSDC.`)
          expect(await balance(devnet, user.address, hUSDC)).toBe(before)
          expect(await balance(devnet, user.address, hBTC)).toBe("0.1")
          expect(await balance(devnet, exchange, hBTC)).toBe("0.0001")
          const refund = await devnet.run(devnet.ledger.committedTransaction(String(record["tx_out"])))
          expect(refund._tag === "Some" && refund.value.status).toBe("CommittedSuccess")
        } finally {
          await server.close()
          await devnet.dispose()
          await store.remove()
        }
      })
    })

    describe("concurrent payouts and liquidity", () => {
      it("pays one of two swaps that each fit the liquidity but not together, and refunds the other", async () => {
        const devnet = await startLedger()
        const store = await kind.fresh()
        // Signing takes 300 ms: both swaps check liquidity before either payout reaches the ledger.
        const runtime = runtimeFor(devnet, store.db(), undefined, "300 millis")
        try {
          const genesis = devnet.ledger.genesis
          // 0.002 hBTC is left: one payout of 0.00166333 fits, two do not.
          await transfer(devnet, {
            from: { address: exchange, key: genesis.exchange.key },
            to: genesis.fund.address,
            resource: hBTC,
            amount: "24.998"
          })
          const [a, b] = genesis.users
          const txA = await transfer(devnet, {
            from: a,
            to: exchange,
            resource: hUSDC,
            amount: "100",
            message: swapMessage("hUSDC", "hBTC")
          })
          const txB = await transfer(devnet, {
            from: b,
            to: exchange,
            resource: hUSDC,
            amount: "100",
            message: swapMessage("hUSDC", "hBTC")
          })
          const rows = await runtime.runPromise(
            Effect.flatMap(Settlement, (s) => Effect.all([s.settle(txA), s.settle(txB)], { concurrency: 2 }))
          )
          expect(rows.map((r) => r.state).sort()).toEqual(["completed", "refunded"])
          expect(rows.find((r) => r.state === "refunded")?.message).toBe(`${LOW_LIQUIDITY} Refunded 100 hUSDC.`)
          expect(await balance(devnet, exchange, hBTC)).toBe("0.00033667")
          const failedOnLedger = (await operatorTransactions(devnet)).items.filter(
            (t) => t.status !== "CommittedSuccess"
          )
          expect(failedOnLedger).toEqual([])
        } finally {
          await runtime.dispose()
          await devnet.dispose()
          await store.remove()
        }
      })
    })

    describe("restart", () => {
      const scenario = async (
        wrapSubmit: (submitted: Effect.Effect<unknown, unknown>) => Effect.Effect<never, never>,
        ledgerPaidBeforeRestart: boolean
      ) => {
        const devnet = await startLedger()
        const store = await kind.fresh()
        try {
          const user = devnet.ledger.genesis.users[0]
          const before = await balance(devnet, user.address, hETH)
          const tx = await transfer(devnet, {
            from: user,
            to: exchange,
            resource: hUSDC,
            amount: "100",
            message: swapMessage("hUSDC", "hETH")
          })

          const first = runtimeFor(devnet, store.db(), wrapSubmit)
          const exit = await first.runPromiseExit(Effect.flatMap(Settlement, (s) => s.settle(tx)))
          expect(Exit.isInterrupted(exit)).toBe(true)
          const stored = await first.runPromise(Effect.flatMap(Db, (db) => db.get(tx)))
          await first.dispose()
          expect(stored._tag === "Some" && stored.value.state).toBe("paying")
          const intent = stored._tag === "Some" ? stored.value.payout_intent : null
          expect(intent).toMatch(/^txid_loc1/)
          expect((await operatorTransactions(devnet)).items.length).toBe(ledgerPaidBeforeRestart ? 1 : 0)

          const second = runtimeFor(devnet, store.db())
          const resumed = await second.runPromise(Effect.flatMap(Settlement, (s) => s.resumeUnfinished))
          expect(resumed).toBe(1)
          const row = await second.runPromise(Effect.flatMap(Db, (db) => db.get(tx)))
          await second.runPromise(Effect.flatMap(Settlement, (s) => s.resumeUnfinished))
          await second.dispose()
          expect(row._tag === "Some" && row.value.state).toBe("completed")
          expect(row._tag === "Some" && row.value.payout_intent).toBe(intent)
          const payouts = (await operatorTransactions(devnet)).items
          expect(payouts.map((p) => p.intentHash)).toEqual([intent])
          expect(delta(before, await balance(devnet, user.address, hETH))).toBe("0.033266666666666666")
        } finally {
          await devnet.dispose()
          await store.remove()
        }
      }

      it("pays once when the settlement fiber dies between the submit and the record", () =>
        scenario((submitted) => Effect.zipRight(Effect.orDie(submitted), Effect.interrupt), true))

      it("pays once when it dies after storing the payout but before submitting it", () =>
        scenario(() => Effect.interrupt, false))

      it("a swap cut off mid-signature holds nothing; one left holding a reservation, then refunded, gives it back", async () => {
        const devnet = await startLedger()
        const store = await kind.fresh()
        try {
          const user = devnet.ledger.genesis.users[0]
          const before = await balance(devnet, user.address, hUSDC)
          const tx = await transfer(devnet, {
            from: user,
            to: exchange,
            resource: hUSDC,
            amount: "100",
            message: swapMessage("hUSDC", "hETH")
          })
          // Signing never ends: the settlement is cut off before anything is reserved or stored (a payout reserves
          // in the write that stores its signed intent).
          const first = runtimeFor(devnet, store.db(), undefined, "1 hour")
          const cut = await first.runPromiseExit(
            Effect.flatMap(Settlement, (s) => s.settle(tx)).pipe(
              Effect.timeoutFail({ duration: "1 second", onTimeout: () => "cut" })
            )
          )
          expect(Exit.isFailure(cut)).toBe(true)
          const left = await first.runPromise(Effect.flatMap(Db, (db) => Effect.all([db.get(tx), db.reservations])))
          expect(Option.map(left[0], (r) => [r.state, r.payout_intent])).toEqual(Option.some(["received", null]))
          expect(left[1]).toEqual([])
          // As a replica stopped between SQLite's two writes (the reservation, then the stored intent) leaves it.
          const reserved = await first.runPromise(
            Effect.flatMap(Db, (db) => db.reserve(tx, hETH, dec("0.03"), Effect.succeed(dec("1000"))))
          )
          await first.dispose()
          expect(reserved).toBe(true)

          // Decided again in maintenance: a refund, and the reservation goes with the move to failed.
          const second = runtimeFor(devnet, store.db())
          try {
            await second.runPromise(Effect.flatMap(Maintenance, (m) => m.set(true)))
            const row = await second.runPromise(Effect.flatMap(Settlement, (s) => s.settle(tx)))
            expect(row.state).toBe("refunded")
            expect(await second.runPromise(Effect.flatMap(Db, (db) => db.reservations))).toEqual([])
            const events = await second.runPromise(Effect.flatMap(Db, (db) => db.events(tx)))
            expect(events.map((e) => e.state)).toEqual(["received", "failed", "refunding", "refunding", "refunded"])
          } finally {
            await second.dispose()
          }
          expect(await balance(devnet, user.address, hUSDC)).toBe(before)
        } finally {
          await devnet.dispose()
          await store.remove()
        }
      })

      it("a registration reads its deposit, then stores it in one write; a stored one is answered with the gateway down", async () => {
        const devnet = await startLedger()
        const store = await kind.fresh()
        let lookups = 0
        let down = false
        const counted = Layer.effect(
          Db,
          Effect.map(Db, (db) => ({
            ...db,
            get: (txIn: string) => {
              lookups += 1
              return db.get(txIn)
            }
          }))
        ).pipe(Layer.provide(store.db()))
        const runtime = runtimeFor(devnet, counted, undefined, undefined, () => down)
        try {
          const tx = await depositTen(devnet)
          const register = Effect.flatMap(Settlement, (s) => s.register(tx))
          const first = await runtime.runPromise(register)
          expect(Option.map(first, (r) => r.state)).toEqual(Option.some("completed"))
          expect(lookups).toBe(0)
          // Registered again with the ledger's gateway unreachable: the stored swap, as it stands.
          down = true
          const again = await runtime.runPromise(register)
          expect(Option.map(again, (r) => [r.state, r.payout_intent])).toEqual(
            Option.map(first, (r) => [r.state, r.payout_intent])
          )
          expect(lookups).toBe(1)
          // A hash never stored still fails as the gateway's failure, nothing recorded.
          const unknown = await runtime.runPromiseExit(
            Effect.flatMap(Settlement, (s) => s.register(`${tx.slice(0, -4)}qqqq`))
          )
          expect(Exit.isFailure(unknown) && JSON.stringify(unknown.cause)).toContain("SettlementUnavailable")
          expect(await operatorTransactions(devnet)).toMatchObject({ items: [{}] })
        } finally {
          await runtime.dispose()
          await devnet.dispose()
          await store.remove()
        }
      })

      it("a new payout moves the swap to paying in the write that stores its intent", async () => {
        const devnet = await startLedger()
        const store = await kind.fresh()
        const runtime = runtimeFor(devnet, store.db())
        try {
          const tx = await depositTen(devnet)
          const row = await runtime.runPromise(Effect.flatMap(Settlement, (s) => s.settle(tx)))
          expect(row.state).toBe("completed")
          const events = await runtime.runPromise(Effect.flatMap(Db, (db) => db.events(tx)))
          expect(events.map((e) => [e.state, e.detail?.startsWith("payout txid_") ?? false])).toEqual([
            ["received", false],
            ["paying", true],
            ["completed", false]
          ])
          expect(await runtime.runPromise(Effect.flatMap(Db, (db) => db.reservations))).toEqual([])
        } finally {
          await runtime.dispose()
          await devnet.dispose()
          await store.remove()
        }
      })
    })
  })
}
