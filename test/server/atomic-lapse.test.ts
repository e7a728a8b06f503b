/**
 * A lapsed atomic swap against the devnet ledger, on the TestClock: the wallet signs a pre-authorisation expiring
 * with the quote, but the exchange cannot reach the ledger to submit (the gateway answers 503 to every submit). The
 * POST answers 202 after its wait; the swap is retried until the window closes, then lapses: the GET says so in
 * words, and neither the user's nor the exchange's balances moved.
 *
 * The server is the real one (`exchangeServerLayer`: the same routes, flow, claims, payouts and database) over the
 * devnet's gateway emulator; its clock is the TestClock, set to the real time first so the ledger, which keeps real
 * time, judges the same windows.
 */
import { FetchHttpClient } from "@effect/platform"
import { it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, TestClock } from "effect"
import { afterAll, beforeAll, describe, expect } from "vitest"
import { devnetExchangeServerOptions } from "../../src/devnet/exchange"
import { Gateway } from "../../src/gateway/index"
import {
  ATOMIC_LAPSED,
  configFromOptions,
  DbLive,
  exchangeServerLayer,
  handleApi,
  LAPSE_GRACE_MS,
  PriceFeed,
  Signer
} from "../../src/server/index"
import {
  balances,
  countingGateway,
  exchange,
  hETH,
  hUSDC,
  type LiveQuote,
  swapManifest,
  transactionsOf,
  walletSigns
} from "./atomic-devnet"
import { type Devnet, startLedger } from "./harness"

let devnet: Devnet
let gateway: ReturnType<typeof countingGateway>

beforeAll(async () => {
  devnet = await startLedger()
  gateway = countingGateway(devnet)
}, 60_000)

afterAll(async () => {
  await devnet?.dispose()
})

const server = () => {
  const options = {
    ...devnetExchangeServerOptions(undefined, devnet.gateway),
    rateLimitPerMinute: 0,
    atomicWaitMs: 2_000
  }
  const config = configFromOptions(options)
  return exchangeServerLayer({
    config,
    gateway: Gateway.layerFetch({
      basePath: options.gatewayUrl,
      applicationName: "hSwap lapse test",
      applicationVersion: "0"
    }).pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, gateway.fetch)), Layer.orDie),
    db: DbLive.sqlite(":memory:"),
    signer: Signer.layer({
      networkId: 240,
      account: options.exchangeAccount,
      privateKeyHex: options.privateKeyHex,
      feeLockXrd: config.feeLockXrd,
      epochWindow: config.payoutEpochWindow
    }),
    prices: PriceFeed.fixed({ XRD: "0.02", hUSDC: "1", hUSDT: "1", hETH: "3000", hBTC: "60000" }),
    watcher: false
  })
}

/** Lets the devnet and the database (real I/O) make progress between two steps of the TestClock. */
const settle = Effect.promise(
  () => new Promise<void>((resolve) => setImmediate(() => setImmediate(() => setImmediate(resolve))))
)

const api = (method: "GET" | "POST", path: string, body?: unknown) =>
  handleApi({ method, path, ip: "127.0.0.1", body: body === undefined ? undefined : JSON.stringify(body) })

describe("a lapsed atomic swap on the devnet", () => {
  it.effect(
    "the exchange cannot submit before the window closes: 202, then lapsed with the reason; nothing moved",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.now())
        const user = devnet.ledger.genesis.users[0]
        const price = yield* api("GET", `/liveprice/${hUSDC}/${hETH}`)
        expect(price.status).toBe(200)
        const q = { ...(price.json as LiveQuote), from: hUSDC, to: hETH }
        expect(q.atomic).toBe(true)
        const amount = "20"
        const signed = yield* Effect.promise(() =>
          walletSigns(devnet, swapManifest(q, user.address, amount), q.quote_expires_at)
        )
        const before = yield* Effect.promise(() => balances(devnet, [user.address, exchange]))
        const txs = (yield* Effect.promise(() => transactionsOf(devnet, user.address))).length
        gateway.state.blocked = true
        const submits = gateway.state.submits

        const post = yield* Effect.fork(
          api("POST", "/atomic-swap", {
            quote_id: q.quote_id,
            amount,
            signed_partial_transaction: signed.hex
          })
        )
        let answer = yield* Fiber.poll(post)
        for (let i = 0; i < 100 && Option.isNone(answer); i++) {
          yield* TestClock.adjust("100 millis")
          yield* settle
          answer = yield* Fiber.poll(post)
        }
        const posted = yield* Fiber.join(post)
        expect(posted.status).toBe(202)
        expect(posted.json).toMatchObject({ subintent_id: signed.subintentId, state: "submitting", tx_id: null })

        // Time runs on past the window and the grace the ledger's clock is given; the swap is tried all along.
        const path = `/atomic-swap/${signed.subintentId}`
        let got = yield* api("GET", path)
        const windowEnd = q.quote_expires_at * 1000
        for (let i = 0; i < 2_000 && got.status === 202; i++) {
          yield* TestClock.adjust("500 millis")
          yield* settle
          got = yield* api("GET", path)
        }
        expect(got.status).toBe(200)
        expect(got.json).toMatchObject({
          subintent_id: signed.subintentId,
          state: "lapsed",
          account: user.address,
          amount_in: amount,
          amount_out: null,
          tx_id: null,
          window_end_ms: windowEnd,
          message: ATOMIC_LAPSED
        })
        expect(yield* TestClock.currentTimeMillis).toBeGreaterThanOrEqual(windowEnd + LAPSE_GRACE_MS)
        // It was tried (every submit refused), and nothing reached the ledger.
        expect(gateway.state.submits).toBeGreaterThan(submits)
        gateway.state.blocked = false
        expect(yield* Effect.promise(() => balances(devnet, [user.address, exchange]))).toEqual(before)
        expect((yield* Effect.promise(() => transactionsOf(devnet, user.address))).length).toBe(txs)
        // The history lists transactions: a lapsed swap made none.
        const history = yield* api("GET", `/transactions/${user.address}`)
        expect((history.json as { transactions: ReadonlyArray<unknown> }).transactions).toEqual([])
        // The same submission again (its answer lost, say): the lapsed record as it stands, nothing submitted.
        const submitted = gateway.state.submits
        const again = yield* api("POST", "/atomic-swap", {
          quote_id: q.quote_id,
          amount,
          signed_partial_transaction: signed.hex
        })
        expect([again.status, again.json]).toEqual([200, got.json])
        expect(gateway.state.submits).toBe(submitted)
      }).pipe(Effect.provide(server())),
    120_000
  )
})
