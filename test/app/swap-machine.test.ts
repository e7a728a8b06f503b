import { type HttpClientRequest, KeyValueStore } from "@effect/platform"
import { it } from "@effect/vitest"
import { Deferred, Effect, Fiber, FiberId, Layer, Option, Random, Ref, Stream, TestClock } from "effect"
import { describe, expect } from "vitest"
import { makeLedgerParts, makeServicesLayer } from "../../src/app/runtime/layers"
import { actionState, formatNetworkFee } from "../../src/exchange/swap"
import {
  type CancelOutcome,
  Celebration,
  SwapWallet,
  SwapWalletError
} from "../../src/app/features/exchange/machine/ports"
import { SwapMachine } from "../../src/app/features/exchange/machine/SwapMachine"
import { SwapEvents } from "../../src/app/features/exchange/SwapEvents"
import { refusalText } from "../../src/app/features/exchange/machine/atomic"
import { atomicSubintentManifest } from "../../src/exchange/atomicManifest"
import type { RefusalReason } from "../../src/server/atomic/check"
import {
  atomicOffered,
  initialSwapState,
  type NetworkFeeState,
  networkFeeText,
  reduce,
  type SwapState
} from "../../src/app/features/exchange/machine/state"
import { Toaster } from "../../src/app/services/Toaster"
import { Browser } from "../../src/app/services/Browser"
import { WalletSession } from "../../src/app/services/WalletSession"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { ExchangeApi } from "../../src/exchange/ExchangeApi"
import { Crypto, Environment } from "../../src/toolkit/index"
import { lazyGateway } from "../../src/gateway/lazy"
import { fakeHttp, json, testConfig } from "./harness"
import { ledgerState } from "../gateway/support"

const R = DevnetAddresses.resources

// The modules the lazy Gateway client imports on its first calls (the client, then its non-state endpoints), loaded
// once before the tests: the waits below count turns, not time, and a first dynamic import on a loaded machine can
// take longer than any number of turns.
await Promise.all([
  import("../../src/gateway/platform"),
  import("../../src/gateway/endpointsOther"),
  // And the fee preview the machine loads with its first preview.
  import("../../src/exchange/networkFee")
])
const alice = DevnetAddresses.users[0]!
const TX = "txid_loc1swapswapswapswapswapswapswapswapswapswapswapswapswapswap"
const SUBINTENT = "subtxid_loc1atomicatomicatomicatomicatomicatomicatomicatomicatomic"

interface Script {
  price?: () => Response
  health?: () => Response
  transactions?: (call: number) => Response
  register?: () => Response
  liquidityHUSDC?: string
  /** The Gateway's answer to `/transaction/preview` (a 404 without it, as for every Gateway path not named here). */
  preview?: () => Response | "hang"
  /** The exchange's answer to `POST /api/atomic-swap` (a 404, the feature off, without it). */
  atomicSubmit?: (body: string) => Response
  /** Its answers to `GET /api/atomic-swap/{id}`, call by call. */
  atomicStatus?: (call: number) => Response
  /** How the wallet answers a pre-authorisation request (signs at once by default). */
  preauth?: "ok" | "unsupported" | "reject" | "expired" | "hold"
}

const make = (
  script: Script = {},
  wallet: "ok" | "reject" | "fail" | "defect" | "hold" | "unfollowed" | "committedFailure" = "ok",
  balances: Record<string, string> = { [R.hETH]: "1" },
  connected = true
) => {
  // Node has no location: absolute bases for the exchange API and the gateway.
  const config = testConfig({ VITE_API_BASE: "http://app.test", VITE_GATEWAY_URL: "http://app.test/gateway" })
  const requests: Array<string> = []
  let txCalls = 0
  let statusCalls = 0
  const route = (req: HttpClientRequest.HttpClientRequest) => {
    const url = new URL(req.url, "http://app.test")
    if (url.pathname === "/api/atomic-swap")
      return (
        script.atomicSubmit ??
        (() => json({ error: "Not found", message: "Atomic swaps are not offered by this exchange." }, 404))
      )(req.body._tag === "Uint8Array" ? new TextDecoder().decode(req.body.body) : "")
    if (url.pathname.startsWith("/api/atomic-swap/"))
      return (script.atomicStatus ?? (() => json({ error: "Not found", message: "no such swap" }, 404)))(statusCalls++)
    if (url.pathname === "/api/health")
      return (
        script.health ??
        (() =>
          json({
            status: "healthy",
            pairs_status: {
              hUSDC: { price_available: true, price_usd: 1 },
              hETH: { price_available: true, price_usd: 3000 }
            }
          }))
      )()
    if (url.pathname.startsWith("/api/liveprice/"))
      return (
        script.price ??
        (() =>
          json({
            in_symbol: "hETH",
            out_symbol: "hUSDC",
            effective_rate: "2997",
            min_amount_in: "0.0003",
            max_amount_in: "0.066"
          }))
      )()
    if (url.pathname === "/api/liquidity")
      return json({
        assets: [
          {
            symbol: "XRD",
            resource_address: R.XRD,
            amount: "1000",
            amount_usd: 20,
            allocation_percentage: 1,
            decimals: 18
          },
          {
            symbol: "hUSDC",
            resource_address: R.hUSDC,
            amount: script.liquidityHUSDC ?? "50000",
            amount_usd: 50000,
            allocation_percentage: 60,
            decimals: 6
          },
          {
            symbol: "hETH",
            resource_address: R.hETH,
            amount: "10",
            amount_usd: 30000,
            allocation_percentage: 39,
            decimals: 18
          }
        ],
        total_usd_value: 80020
      })
    if (url.pathname === "/gateway/transaction/committed-details") return json({ message: "not in this test" }, 404)
    if (url.pathname === "/gateway/transaction/construction" && script.preview !== undefined)
      return json({ ledger_state: ledgerState(100) })
    if (url.pathname === "/gateway/transaction/preview" && script.preview !== undefined) return script.preview()
    if (url.pathname === `/api/swap/${TX}`)
      return (script.register ?? (() => json({ tx_hash: TX, status: "pending" })))()
    if (url.pathname === `/api/transactions/${alice}`)
      return (script.transactions ?? (() => json({ transactions: [] })))(txCalls++)
    return undefined
  }
  const sent: Array<{ manifest: string; message: string }> = []
  const preauths: Array<{ manifest: string; message: string; expiresAtSeconds: number }> = []
  const preauthAnswer = Deferred.unsafeMake<
    { signedPartialTransaction: string; subintentHash: string },
    SwapWalletError
  >(FiberId.none)
  const celebrations = Ref.unsafeMake(0)
  const reloads = Ref.unsafeMake(0)
  /** "hold": the wallet shows the request until `answer` is completed (or Cancel withdraws it). */
  const answer = Deferred.unsafeMake<{ readonly transactionIntentHash: string }, SwapWalletError>(FiberId.none)
  const cancelAnswer = { value: "canceled" as CancelOutcome }
  const signer = Layer.succeed(SwapWallet, {
    send: ({ manifest, message, onSubmitted }) =>
      Effect.sync(() => sent.push({ manifest, message })).pipe(
        Effect.zipRight(
          wallet === "unfollowed" || wallet === "committedFailure"
            ? // Signed and submitted (the hash is in), then the commit could not be followed, or was a failure.
              Effect.sync(() => onSubmitted?.(TX)).pipe(
                Effect.zipRight(
                  Effect.fail(
                    new SwapWalletError({
                      reason: wallet === "unfollowed" ? "FailedToPoll" : "TransactionFailed",
                      kind: "failed"
                    })
                  )
                )
              )
            : wallet === "ok"
              ? Effect.succeed({ transactionIntentHash: TX })
              : wallet === "defect"
                ? Effect.die(new Error("a bug in the wallet port"))
                : wallet === "hold"
                  ? Deferred.await(answer)
                  : wallet === "fail"
                    ? Effect.fail(new SwapWalletError({ reason: "failedToSignTransaction", kind: "failed" }))
                    : Effect.fail(new SwapWalletError({ reason: "rejectedByUser", kind: "rejected" }))
        )
      ),
    preAuthorize: (input) =>
      Effect.sync(() => preauths.push(input)).pipe(
        Effect.zipRight(
          script.preauth === undefined || script.preauth === "ok"
            ? Effect.succeed({ signedPartialTransaction: "4d22", subintentHash: SUBINTENT })
            : script.preauth === "hold"
              ? Deferred.await(preauthAnswer)
              : script.preauth === "unsupported"
                ? Effect.fail(new SwapWalletError({ reason: "walletRequestValidation", kind: "unsupported" }))
                : script.preauth === "expired"
                  ? Effect.fail(new SwapWalletError({ reason: "subintentExpirationTooClose", kind: "expired" }))
                  : Effect.fail(new SwapWalletError({ reason: "rejectedByUser", kind: "rejected" }))
        )
      ),
    cancel: Effect.suspend(() =>
      Effect.as(
        Effect.zipRight(
          Deferred.fail(answer, new SwapWalletError({ reason: "canceledByUser", kind: "canceled" })),
          Deferred.fail(preauthAnswer, new SwapWalletError({ reason: "canceledByUser", kind: "canceled" }))
        ),
        cancelAnswer.value
      )
    )
  })
  const platform = Layer.mergeAll(
    fakeHttp((r) => route(r), requests),
    KeyValueStore.layerMemory,
    // The session by hand, counting balance reloads.
    Layer.effect(
      WalletSession,
      Effect.map(
        Effect.provide(
          WalletSession,
          WalletSession.fromState(
            connected
              ? { accounts: [{ address: alice, label: "Main" }], selected: alice }
              : { accounts: [], selected: undefined },
            { _tag: "Hidden" },
            balances
          )
        ),
        (w) => ({ ...w, reloadBalances: Ref.update(reloads, (n) => n + 1) })
      )
    ),
    Browser.recording([]),
    Layer.setRandom(Random.make("swap"))
  )
  const ledger = makeLedgerParts(config, { environment: Environment.Test({}), crypto: Crypto.Test() }, (gateway) =>
    lazyGateway(gateway)
  )
  const services = makeServicesLayer(config).pipe(Layer.provideMerge(ledger), Layer.provideMerge(platform))
  const layer = SwapMachine.Default.pipe(
    Layer.provideMerge(
      Layer.mergeAll(signer, Layer.succeed(Celebration, { celebrate: Ref.update(celebrations, (n) => n + 1) }))
    ),
    Layer.provideMerge(services)
  )
  return {
    layer,
    requests,
    sent,
    preauths,
    preauthAnswer,
    celebrations,
    reloads,
    txCalls: () => txCalls,
    statusCalls: () => statusCalls,
    answer,
    cancelAnswer
  }
}

const priceCalls = (requests: ReadonlyArray<string>): number =>
  requests.filter((r) => r.includes("/api/liveprice/")).length
const state = Effect.flatMap(SwapMachine, (m) => m.current)
const toasts = Effect.flatMap(Toaster, (t) =>
  Effect.map(t.current, (ts) => ts.map((x) => `${x.title}: ${x.description ?? ""}`))
)
const view = (s: SwapState) =>
  actionState({
    status: s.status,
    quotePrepared: s.quotePrepared,
    account: alice,
    from: s.from,
    to: s.to,
    amount: s.amount,
    expectedOutput: s.quote?.toAmount,
    toLiquidity: undefined,
    limits: s.quote?.limits
  })

/**
 * One turn for the other fibers, and every tenth turn one for the event loop too: the fake HTTP answers are real
 * `Response`s, whose bodies undici reads in callbacks of its own, which Effect's yields (microtasks until 2,048 in a
 * row) alone may never let run. No clock moves.
 */
const turn = (i: number) =>
  i % 10 === 9 ? Effect.async<void>((resume) => void setImmediate(() => resume(Effect.void))) : Effect.yieldNow()

/** Lets forked fibers and pending I/O callbacks run (no clock) until `cond` holds; fails after 1,000 turns. */
const eventually = (cond: () => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000; i++) {
      if (cond()) return
      yield* turn(i)
    }
    return yield* Effect.die(new Error("condition never held"))
  })

/** The same until the machine's state satisfies `cond`. */
const untilState = (cond: (s: SwapState) => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000; i++) {
      if (cond(yield* state)) return
      yield* turn(i)
    }
    return yield* Effect.die(new Error("the state never got there"))
  })

/** The user types an amount, prepares the quote and clicks Execute. */
const prepareAndExecute = (m: SwapMachine, amount: string) =>
  Effect.gen(function* () {
    yield* m.setAmount(amount)
    yield* m.prepare
    yield* m.execute
  })

/** Starts the card's timers and lets the load-time calls settle. */
const started = Effect.gen(function* () {
  const m = yield* SwapMachine
  const fiber = yield* Effect.fork(m.run)
  yield* TestClock.adjust("1 millis")
  return { m, fiber }
})

describe("SwapMachine", () => {
  it.scoped("auto-estimates within a second of a valid route and amount, then prepares on click", () => {
    const t = make()
    return Effect.gen(function* () {
      const { m } = yield* started
      expect((yield* state).from).toBe("hETH")
      yield* m.setAmount("0.05")
      expect(priceCalls(t.requests)).toBe(0)
      yield* TestClock.adjust("1 second")
      expect(priceCalls(t.requests)).toBe(1)
      const estimated = yield* state
      // 0.05 × 2997 − 0.10 USD of hUSDC.
      expect(estimated.quote?.toAmount).toBe("149.75")
      expect(estimated.quotePrepared).toBe(false)
      expect(view(estimated)).toBe("ready")
      // The estimate is not asked for again while nothing changes.
      yield* TestClock.adjust("5 seconds")
      expect(priceCalls(t.requests)).toBe(1)
      yield* m.prepare
      const prepared = yield* state
      expect(prepared.status._tag).toBe("success")
      expect(prepared.countdown).toBe(15)
      expect(view(prepared)).toBe("success")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("the network fee: estimating until this deposit's preview answers, never a figure it has not given", () => {
    const receipt = (status: string) => ({
      status,
      fee_summary: {
        xrd_total_execution_cost: "0.1",
        xrd_total_finalization_cost: "0.05",
        xrd_total_royalty_cost: "0",
        xrd_total_storage_cost: "0.03",
        xrd_total_tipping_cost: "0"
      }
    })
    let status = "Succeeded"
    let slow = false
    const t = make({
      preview: () =>
        slow ? "hang" : json({ encoded_receipt: "", receipt: receipt(status), resource_changes: [], logs: [] })
    })
    const previews = () => t.requests.filter((r) => r.includes("/gateway/transaction/preview")).length
    return Effect.gen(function* () {
      const { m } = yield* started
      const fees: Array<NetworkFeeState | undefined> = []
      yield* Effect.forkScoped(Stream.runForEach(m.networkFee, (fee) => Effect.sync(() => fees.push(fee))))
      const line = Effect.map(state, (s) => networkFeeText(fees.at(-1), s.from, s.amount, formatNetworkFee))
      yield* m.setAmount("0.05")
      yield* m.prepare
      // Loaded with this first preview (exchange/networkFee.ts), then read from the deposit's receipt.
      yield* eventually(() => fees.at(-1)?._tag === "Previewed")
      expect(yield* line).toBe("0.18 XRD (1 tx)")
      expect(previews()).toBe(1)
      // A slow preview: another amount is estimating, however long it takes; never the spec's 0.1 nor 0.05's fee.
      slow = true
      yield* m.setAmount("0.06")
      expect(yield* line).toBe("Estimating...")
      yield* m.prepare
      yield* eventually(() => previews() === 2)
      for (const wait of ["1 second", "5 seconds", "20 seconds"] as const) {
        yield* TestClock.adjust(wait)
        expect(yield* line).not.toMatch(/XRD/)
      }
      // A preview that says the deposit would fail gives no figure either: the wallet shows the fee.
      slow = false
      status = "Failed"
      yield* m.setAmount("0.07")
      yield* m.prepare
      yield* eventually(() => fees.at(-1)?._tag === "Unavailable" && fees.at(-1)?.key === "hETH|0.07")
      expect(yield* line).toBe("Shown in your wallet")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("counts down 15 s and re-quotes every 15 s while in success", () => {
    const t = make()
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      const afterPrepare = priceCalls(t.requests)
      yield* TestClock.adjust("1 second")
      expect((yield* state).countdown).toBe(14)
      yield* TestClock.adjust("13 seconds")
      expect((yield* state).countdown).toBe(1)
      expect(priceCalls(t.requests)).toBe(afterPrepare)
      yield* TestClock.adjust("1 second")
      expect(priceCalls(t.requests)).toBe(afterPrepare + 1)
      expect((yield* state).countdown).toBe(15)
      yield* TestClock.adjust("15 seconds")
      expect(priceCalls(t.requests)).toBe(afterPrepare + 2)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("any change of token or amount clears the quote, limits and status; flip swaps tokens and amounts", () => {
    const t = make()
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      yield* m.setAmount("0.051")
      let s = yield* state
      expect([s.quote, s.quotePrepared, s.status._tag]).toEqual([undefined, false, "idle"])
      yield* m.setAmount("0.05")
      yield* TestClock.adjust("1 second")
      yield* m.flip
      s = yield* state
      expect([s.from, s.to, s.amount, s.quote]).toEqual(["hUSDC", "hETH", "149.75", undefined])
      yield* m.setTo("hBTC")
      s = yield* state
      expect([s.from, s.to]).toEqual(["hUSDC", "hBTC"])
      yield* m.setFrom("hBTC")
      expect([(yield* state).from, (yield* state).to]).toEqual(["hBTC", "hUSDC"])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("'Forbidden route' and other HTTP errors quietly reset to idle", () => {
    const t = make({ price: () => json({ error: "Forbidden route" }) })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      expect((yield* state).status._tag).toBe("idle")
      expect(yield* toasts).toEqual([])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("any other price error sets the error status, with a toast only when the user prepared", () => {
    const t = make({ price: () => json({ effective_rate: "not a number" }) })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* TestClock.adjust("1 second")
      expect((yield* state).status).toEqual({
        _tag: "error",
        message: "Impossible to prepare the exchange, please try again."
      })
      expect(yield* toasts).toEqual([])
      yield* m.setAmount("0.06")
      yield* m.prepare
      expect(yield* toasts).toEqual(["Prepare the exchange failed: Impossible to prepare the swap, please try again."])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("'Route not available' resets quietly too; any other price error text is an error", () => {
    let error = "Route not available"
    const t = make({ price: () => json({ error }) })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      expect((yield* state).status._tag).toBe("idle")
      expect(yield* toasts).toEqual([])
      error = "Price feed is stale"
      yield* m.setAmount("0.06")
      yield* m.prepare
      expect((yield* state).status).toEqual({
        _tag: "error",
        message: "Impossible to prepare the exchange, please try again."
      })
      expect(yield* toasts).toEqual(["Prepare the exchange failed: Impossible to prepare the swap, please try again."])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("429 on registering the swap gives rate_limited, and the signed swap still shows as successful", () => {
    const t = make({ register: () => json({ error: "rate_limited" }, 429) })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* eventually(() => t.txCalls() === 1)
      yield* untilState((s) => s.serviceMode === "rate_limited")
      expect(yield* toasts).toEqual([
        "Rate Limit Exceeded: Your device is overloading the request system. Please keep only one window open or avoid refreshing too frequently."
      ])
      yield* TestClock.adjust("10 seconds")
      yield* untilState((s) => s.status._tag === "success")
      expect((yield* state).status).toEqual({ _tag: "success", txHash: TX })
      expect(t.txCalls()).toBe(3)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("409 on a transactions call made outside the machine (the panels) gives maintenance", () => {
    const t = make({ transactions: () => json({ error: "maintenance" }, 409) })
    return Effect.gen(function* () {
      yield* started
      expect((yield* state).serviceMode).toBe("available")
      const r = yield* Effect.either(Effect.flatMap(ExchangeApi, (api) => api.transactions(alice)))
      expect(r._tag).toBe("Left")
      yield* untilState((s) => s.serviceMode === "maintenance")
      expect(yield* toasts).toEqual([])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a quote prepared before the wallet disconnected: 'No account selected', nothing sent", () => {
    const t = make({}, "ok", {}, false)
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      expect((yield* state).status._tag).toBe("success")
      yield* m.execute
      expect(t.sent).toHaveLength(0)
      expect(yield* toasts).toEqual(["No account selected: Please select an account to execute the swap."])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("429 gives rate_limited with the 10 s toast; 409 gives maintenance; health recovers", () => {
    let status = 429
    const t = make({
      price: () => json({ error: "slow down" }, status),
      health: () => (status === 200 ? json({ status: "healthy", pairs_status: {} }) : json({}, status))
    })
    return Effect.gen(function* () {
      const { m } = yield* started
      expect((yield* state).serviceMode).toBe("rate_limited")
      expect(yield* toasts).toEqual([
        "Rate Limit Exceeded: Your device is overloading the request system. Please keep only one window open or avoid refreshing too frequently."
      ])
      yield* TestClock.adjust("10 seconds")
      expect((yield* Effect.flatMap(Toaster, (x) => x.current))[0]?.open).toBe(false)
      status = 409
      yield* TestClock.adjust("5 seconds")
      expect((yield* state).serviceMode).toBe("maintenance")
      status = 200
      yield* TestClock.adjust("15 seconds")
      expect((yield* state).serviceMode).toBe("available")
      yield* m.setAmount("1")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("more than 10 price requests in 30 s is rate limited on the client", () => {
    const t = make()
    return Effect.gen(function* () {
      const { m } = yield* started
      // Each Prepare asks the server (an estimate of the same pair reuses the live price instead).
      for (let i = 1; i <= 11; i++) {
        yield* m.setAmount(`0.0${i}`)
        yield* m.prepare
        yield* TestClock.adjust("1 second")
      }
      expect(priceCalls(t.requests)).toBe(10)
      expect((yield* state).serviceMode).toBe("rate_limited")
      expect((yield* state).rateLimitedBy).toBe("client")
      yield* TestClock.adjust("30 seconds")
      expect((yield* state).serviceMode).toBe("available")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped(
    "executes: sends the manifest and message, registers, tracks 3 times 5 s apart, celebrates, resets after 5 s",
    () => {
      const t = make({
        transactions: (call) =>
          json({
            transactions:
              call < 2
                ? []
                : [
                    {
                      from: alice,
                      to: DevnetAddresses.exchangeAccount,
                      asset_in: "hETH",
                      amount_in: "0.05",
                      tx_in: TX,
                      status: "completed"
                    }
                  ]
          })
      })
      return Effect.gen(function* () {
        const { m } = yield* started
        const published = yield* Effect.fork(Stream.runHead(yield* SwapEvents.submitted))
        yield* Effect.yieldNow()
        yield* prepareAndExecute(m, "0.05")
        yield* eventually(() => t.txCalls() === 1)
        expect(t.sent).toHaveLength(1)
        expect(t.sent[0]?.message).toBe("hswap.app | Radix | hETH -> hUSDC")
        expect(t.sent[0]?.manifest).toContain(`"withdraw" Address("${R.hETH}") Decimal("0.05")`)
        expect(t.sent[0]?.manifest).toContain(`Address("${DevnetAddresses.exchangeAccount}") "try_deposit_or_abort"`)
        expect((yield* state).status._tag).toBe("pending")
        expect(t.requests.filter((r) => r === `POST http://app.test/api/swap/${TX}`)).toHaveLength(1)
        expect(t.txCalls()).toBe(1)
        yield* TestClock.adjust("5 seconds")
        expect(t.txCalls()).toBe(2)
        yield* TestClock.adjust("5 seconds")
        expect(t.txCalls()).toBe(3)
        expect((yield* state).status).toEqual({ _tag: "success", txHash: TX })
        expect(yield* Ref.get(t.celebrations)).toBe(1)
        expect((yield* toasts)[0]).toMatch(/^Swap Successful: You sent 0\.05000000 hETH for about 149\.750000 hUSDC\.$/)
        // The page gets the list the tracking read, so it need not read it again.
        const event = Option.getOrThrow(yield* Fiber.join(published))
        expect(event).toMatchObject({ txHash: TX, account: alice, from: "hETH", to: "hUSDC", amountIn: "0.05" })
        expect(event.seen?.map((r) => r.tx_in)).toEqual([TX])
        expect((yield* state).amount).toBe("0.05")
        yield* TestClock.adjust("5 seconds")
        expect((yield* state).amount).toBe("")
      }).pipe(Effect.provide(t.layer))
    }
  )

  it.scoped("the reset 5 s after a swap clears that swap's inputs only: an amount typed since is kept", () => {
    const t = make({ transactions: () => json({ transactions: [] }) }, "ok", { [R.hETH]: "100" })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* TestClock.adjust("10 seconds")
      expect((yield* state).status).toEqual({ _tag: "success", txHash: TX })
      // Within the 5 s, the user closes the dialog and types the next amount.
      yield* TestClock.adjust("2 seconds")
      yield* m.setAmount("42")
      yield* TestClock.adjust("3 seconds")
      const after = yield* state
      expect(after.amount).toBe("42")
      // Its auto-estimate went on with it: the 42 is priced, not wiped.
      expect(after.quoteKey).toBe("hETH|hUSDC|42")
      yield* TestClock.adjust("10 seconds")
      expect((yield* state).amount).toBe("42")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("the reset after a swap also keeps a token chosen since, and clears an untouched form", () => {
    const t = make({ transactions: () => json({ transactions: [] }) })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* TestClock.adjust("10 seconds")
      yield* m.flip
      const flipped = yield* state
      yield* TestClock.adjust("5 seconds")
      expect((yield* state).from).toBe("hUSDC")
      expect((yield* state).amount).toBe(flipped.amount)
      // Pure: an untouched form is cleared, a changed one kept.
      const done = { ...initialSwapState, amount: "0.05", editedAt: 1000 }
      const key = "hETH|hUSDC|0.05"
      expect(reduce(done, { _tag: "Reset", key, since: 2000 }).amount).toBe("")
      expect(reduce({ ...done, editedAt: 2500 }, { _tag: "Reset", key, since: 2000 }).amount).toBe("0.05")
      expect(reduce({ ...done, amount: "42" }, { _tag: "Reset", key, since: 2000 }).amount).toBe("42")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a swap whose tracking fails still shows as successful", () => {
    const t = make({ transactions: () => json({}, 500) })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* TestClock.adjust("10 seconds")
      expect(t.txCalls()).toBe(3)
      expect((yield* state).status).toEqual({ _tag: "success", txHash: TX })
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("tracking that never finds the swap stops after 3 reads and passes on the last list it read", () => {
    const other = {
      from: alice,
      to: DevnetAddresses.exchangeAccount,
      asset_in: "hETH",
      amount_in: "1",
      tx_in: "txid_other",
      status: "completed"
    }
    const t = make({ transactions: () => json({ transactions: [other] }) })
    return Effect.gen(function* () {
      const { m } = yield* started
      const published = yield* Effect.fork(Stream.runHead(yield* SwapEvents.submitted))
      yield* Effect.yieldNow()
      yield* prepareAndExecute(m, "0.05")
      yield* TestClock.adjust("10 seconds")
      yield* untilState((s) => s.status._tag === "success")
      expect(t.txCalls()).toBe(3)
      const event = Option.getOrThrow(yield* Fiber.join(published))
      expect(event.seen?.map((r) => r.tx_in)).toEqual(["txid_other"])
      expect((yield* toasts)[0]).toMatch(/It will appear in your transactions shortly\.$/)
      yield* TestClock.adjust("1 minute")
      expect(t.txCalls()).toBe(3)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a defect after the transaction was signed still shows the swap as successful", () => {
    const t = make({
      register: () => {
        throw new Error("a bug while registering")
      },
      transactions: () => {
        throw new Error("a bug while tracking")
      }
    })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* untilState((s) => s.status._tag === "success" && s.status.txHash === TX)
      expect((yield* toasts)[0]).toMatch(/^Swap Successful: .*It will appear in your transactions shortly\.$/)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a transaction the wallet failed: 'Transaction Failed', nothing registered", () => {
    const t = make({}, "fail")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* m.awaitBackground
      expect((yield* state).status).toEqual({ _tag: "error", message: "Transaction failed. Please try again." })
      expect(yield* toasts).toEqual([
        "Transaction Failed: Your swap could not be completed. Please check your balance and try again."
      ])
      expect(t.requests.some((r) => r.includes("/api/swap/"))).toBe(false)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped(
    "submitted, then its commit could not be followed (the Gateway down): shown as sent and tracked (§8)",
    () => {
      const t = make({}, "unfollowed")
      return Effect.gen(function* () {
        const { m } = yield* started
        yield* prepareAndExecute(m, "0.05")
        yield* TestClock.adjust("10 seconds")
        expect((yield* state).status).toEqual({ _tag: "success", txHash: TX })
        expect((yield* toasts)[0]).toMatch(/^Swap Successful: /)
        expect(t.requests.some((r) => r.includes(`/api/swap/${TX}`))).toBe(true)
      }).pipe(Effect.provide(t.layer))
    }
  )

  it.scoped("submitted, then committed as a failure: 'Transaction Failed', nothing registered", () => {
    const t = make({}, "committedFailure")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* m.awaitBackground
      expect((yield* state).status).toEqual({ _tag: "error", message: "Transaction failed. Please try again." })
      expect(t.requests.some((r) => r.includes("/api/swap/"))).toBe(false)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a defect during a swap: toast 'Unknown error', and the button is not left spinning", () => {
    const t = make({}, "defect")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* m.awaitBackground
      expect((yield* state).status).toEqual({ _tag: "error", message: "Unknown error" })
      expect(yield* toasts).toEqual(["Unknown error: "])
      expect(t.requests.some((r) => r.includes("/api/swap/"))).toBe(false)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("an amount above the balance is never prepared; the orange button's press gives the spec's toast", () => {
    const t = make({}, "ok", { [R.hETH]: "0.01" })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      expect(t.sent).toHaveLength(0)
      // No binding quote is prepared for it: the press of the orange button explains instead.
      expect((yield* state).quotePrepared).toBe(false)
      expect(priceCalls(t.requests)).toBe(0)
      expect(yield* toasts).toEqual([])
      yield* m.explainBalance
      expect(yield* toasts).toEqual(["Amount exceeds balance: You have only 0.01000000 hETH in your wallet."])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("low exchange liquidity refuses the swap", () => {
    const t = make({ liquidityHUSDC: "150" })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      expect(t.sent).toHaveLength(0)
      expect(yield* toasts).toEqual([
        "Insufficient liquidity: Swap unavailable due to low liquidity. Please wait for rebalancing."
      ])
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("2 swaps per minute: the limit is checked every 5 s", () => {
    const t = make({ transactions: () => json({ transactions: [] }) })
    return Effect.gen(function* () {
      const { m, fiber } = yield* started
      for (let i = 0; i < 2; i++) {
        yield* prepareAndExecute(m, "0.05")
        yield* TestClock.adjust("16 seconds")
        yield* m.awaitBackground
      }
      expect(t.sent).toHaveLength(2)
      expect((yield* state).txLimitReached).toBe(true)
      yield* prepareAndExecute(m, "0.05")
      expect(t.sent).toHaveLength(2)
      expect((yield* toasts)[0]).toBe(
        "Transaction limit: Transaction limit reached. 2 transactions per minute allowed."
      )
      yield* TestClock.adjust("60 seconds")
      expect((yield* state).txLimitReached).toBe(false)
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(t.layer))
  })

  // ---- binding quotes, one swap per press, honest words, the amount input

  const QUOTE = "qAbCdEfGhIjKl.MnOpQrStUvWxYz0123"
  const bindingPrice =
    (rate = "2997") =>
    () =>
      json({
        in_symbol: "hETH",
        out_symbol: "hUSDC",
        effective_rate: rate,
        min_amount_in: "0.000333333333333334",
        max_amount_in: "0.066",
        quote_id: QUOTE,
        quote_expires_at: 2_000_000_000,
        quote_valid_seconds: 120,
        fee_out: "0.1"
      })

  it.scoped("a binding quote: the card shows exactly quotedOutput, and the deposit's message names the quote", () => {
    const t = make({ price: bindingPrice() })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      const s = yield* state
      // 0.05 × 2997 − 0.1 (the quote's fee_out), cut to hUSDC's 6 decimals.
      expect(s.quote?.toAmount).toBe("149.75")
      expect(s.quote?.minimumReceived).toBe("148.2525")
      expect(s.quote?.binding?.quoteId).toBe(QUOTE)
      yield* m.execute
      yield* eventually(() => t.sent.length === 1)
      expect(t.sent[0]?.message).toBe(`hswap.app | Radix | hETH -> hUSDC | quote ${QUOTE}`)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a malformed quote_id in the live price is refused, never signed into a message", () => {
    const t = make({
      price: () =>
        json({
          effective_rate: "2997",
          min_amount_in: "0.0003",
          max_amount_in: "0.066",
          quote_id: "q<script>",
          fee_out: "0.1",
          quote_valid_seconds: 120
        })
    })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      expect((yield* state).status).toEqual({
        _tag: "error",
        message: "Impossible to prepare the exchange, please try again."
      })
      yield* m.execute
      expect(t.sent).toHaveLength(0)
    }).pipe(Effect.provide(t.layer))
  })

  it.effect(
    "Execute is single-flight in the transition function: the first press moves to checking, later presses do nothing",
    () =>
      Effect.sync(() => {
        const prepared: SwapState = {
          ...initialSwapState,
          amount: "0.05",
          quotePrepared: true,
          status: { _tag: "success", txHash: undefined },
          quote: { rate: "2997", inverseRate: "0", toAmount: "149.75", minimumReceived: "148.2525", limits: undefined }
        }
        const once = reduce(prepared, { _tag: "ExecutePressed" })
        expect(once.status._tag).toBe("pending")
        expect(once.swap).toEqual({ _tag: "checking" })
        expect(reduce(once, { _tag: "ExecutePressed" })).toBe(once)
        const inWallet = reduce(once, { _tag: "WalletOpened" })
        expect(reduce(inWallet, { _tag: "ExecutePressed" })).toBe(inWallet)
        // Inputs cannot change under a swap in flight.
        expect(reduce(inWallet, { _tag: "AmountChanged", raw: "7" })).toBe(inWallet)
        expect(reduce(inWallet, { _tag: "Flipped" })).toBe(inWallet)
        expect(reduce(inWallet, { _tag: "FromChanged", symbol: "hUSDC" })).toBe(inWallet)
        // A check that refuses goes back to the prepared quote.
        expect(reduce(once, { _tag: "ExecuteAborted" })).toEqual({ ...prepared, notice: undefined })
        // Not prepared: nothing to execute.
        expect(reduce(initialSwapState, { _tag: "ExecutePressed" })).toBe(initialSwapState)
      })
  )

  it.scoped("two presses of Execute before the first one's I/O: exactly one wallet request", () => {
    const t = make({}, "hold")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      // Both presses start before either has done any I/O (a double click, or Enter twice).
      const a = yield* Effect.fork(m.execute)
      const b = yield* Effect.fork(m.execute)
      yield* Fiber.join(a)
      yield* Fiber.join(b)
      yield* m.execute
      yield* untilState((s) => s.swap?._tag === "wallet")
      expect(t.sent).toHaveLength(1)
      yield* Deferred.succeed(t.answer, { transactionIntentHash: TX })
      yield* untilState((s) => s.swap?._tag === "confirming")
      yield* m.execute
      expect(t.sent).toHaveLength(1)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a rejection in the wallet reads as 'Swap canceled', nothing sent, not as a failure", () => {
    const t = make({}, "reject")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* m.awaitBackground
      const s = yield* state
      expect(s.status._tag).toBe("idle")
      expect(s.swap).toBeUndefined()
      expect(s.notice).toBe("Swap canceled. You rejected the transaction in your wallet. Nothing was sent.")
      expect(yield* toasts).toEqual(["Swap canceled: You rejected the transaction in your wallet. Nothing was sent."])
      expect(t.requests.some((r) => r.includes("/api/swap/"))).toBe(false)
      // The quote can be prepared again at once.
      expect(view(s)).toBe("ready")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("while the wallet is open the card holds the rate for m:ss; Cancel withdraws the request", () => {
    const t = make({ price: bindingPrice() }, "hold")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* untilState((s) => s.swap?._tag === "wallet")
      const opened = yield* state
      expect(opened.quote?.binding?.expiresAt).toBe(1 + 120_000)
      yield* TestClock.adjust("30 seconds")
      const later = yield* state
      expect(Math.ceil(((later.quote?.binding?.expiresAt ?? 0) - later.now) / 1000)).toBe(91)
      yield* m.cancel
      yield* m.awaitBackground
      const s = yield* state
      expect(s.swap).toBeUndefined()
      expect(s.notice).toBe("Swap canceled. The request was withdrawn from your wallet. Nothing was sent.")
      expect(t.requests.some((r) => r.includes("/api/swap/"))).toBe(false)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped(
    "a cancel the wallet cannot confirm says the deposit may still come and will be settled at the quote",
    () => {
      const t = make({ price: bindingPrice() }, "hold")
      t.cancelAnswer.value = "unconfirmed"
      return Effect.gen(function* () {
        const { m } = yield* started
        yield* prepareAndExecute(m, "0.05")
        yield* untilState((s) => s.swap?._tag === "wallet")
        yield* m.cancel
        yield* m.awaitBackground
        // One toast at a time: it follows the 'Swap canceled' toast on screen.
        const queued = yield* Effect.flatMap(Toaster, (t) => t.queue)
        expect(queued.map((x) => `${x.title}: ${x.description ?? ""}`)).toContain(
          "Cancel not confirmed: Your wallet may already have sent the deposit. If it did, it is settled at this quote and shows in Your Transactions."
        )
      }).pipe(Effect.provide(t.layer))
    }
  )

  it.scoped("Cancel with nothing left to cancel (the wallet just answered) goes back to waiting, never stuck", () => {
    const t = make({ price: bindingPrice() }, "hold")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* untilState((s) => s.swap?._tag === "wallet")
      // This wallet fake always answers, so the "nothing to cancel" is scripted through a dispatch pair.
      yield* m.dispatch({ _tag: "CancelRequested" })
      expect((yield* state).swap).toEqual({ _tag: "canceling" })
      yield* m.dispatch({ _tag: "CancelUndone" })
      expect((yield* state).swap).toEqual({ _tag: "wallet" })
      yield* Deferred.succeed(t.answer, { transactionIntentHash: TX })
      yield* untilState((s) => s.swap?._tag === "confirming")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("the balances are read again as soon as the deposit is submitted, not after tracking", () => {
    const t = make({}, "hold")
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* untilState((s) => s.swap?._tag === "wallet")
      expect(yield* Ref.get(t.reloads)).toBe(0)
      yield* Deferred.succeed(t.answer, { transactionIntentHash: TX })
      // Tracking is still waiting on its 5 s spacing (the clock has not moved), yet the balances were reloaded.
      yield* eventually(() => Ref.get(t.reloads).pipe(Effect.runSync) >= 1)
      expect(t.txCalls()).toBeLessThanOrEqual(1)
      expect((yield* state).status._tag).toBe("pending")
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("the amount input: '0,5' is 0.5; '1e5' is refused visibly and the amount stays", () => {
    const t = make()
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0,5")
      expect((yield* state).amount).toBe("0.5")
      yield* m.setAmount("1e5")
      const s = yield* state
      expect(s.amount).toBe("0.5")
      expect(s.amountNotice).toBeTypeOf("string")
      yield* m.setAmount("0.75")
      expect((yield* state).amountNotice).toBeUndefined()
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("typing digit by digit sends one estimate request, and never trips the 10-in-30 s client limit", () => {
    const t = make()
    return Effect.gen(function* () {
      const { m } = yield* started
      const typed = "12345.678901"
      // A fast typist: one key every 200 ms; one request once typing pauses.
      for (let i = 1; i <= typed.length; i++) {
        yield* m.setAmount(typed.slice(0, i))
        yield* TestClock.adjust("200 millis")
      }
      yield* TestClock.adjust("2 seconds")
      expect(priceCalls(t.requests)).toBe(1)
      // A slow typist: one key every 1.3 s, 30 keys; the pair's live price serves every other amount.
      for (let i = 0; i < 30; i++) {
        yield* m.setAmount(`0.0${i + 10}`)
        yield* TestClock.adjust("1300 millis")
      }
      expect(priceCalls(t.requests)).toBeLessThanOrEqual(4)
      expect((yield* state).serviceMode).toBe("available")
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("the client limit counts only requests sent: the 11th in 30 s is not sent and not counted", () =>
    Effect.sync(() => {
      let s = initialSwapState
      for (let i = 0; i < 10; i++) s = reduce(s, { _tag: "PriceRequested", now: i * 1000 })
      expect(s.priceRequests).toHaveLength(10)
      expect(s.serviceMode).toBe("available")
      s = reduce(s, { _tag: "PriceRequested", now: 10_000 })
      expect(s.serviceMode).toBe("rate_limited")
      expect(s.priceRequests).toHaveLength(10)
    })
  )
})

describe("SwapMachine: the atomic swap", () => {
  const QUOTE = "qAtomic01.signaturesignature"
  const EXPIRES_AT = 2_000_000_000
  const atomicPrice =
    (atomic: boolean | "absent" = true) =>
    () =>
      json({
        effective_rate: "2997",
        min_amount_in: "0.0003",
        max_amount_in: "0.066",
        quote_id: QUOTE,
        quote_expires_at: EXPIRES_AT,
        quote_valid_seconds: 120,
        fee_out: "0.1",
        ...(atomic === "absent" ? {} : { atomic })
      })
  const swapAnswer = (state: string, extra: Record<string, unknown> = {}, status = 200) =>
    json(
      {
        subintent_id: SUBINTENT,
        state,
        account: alice,
        asset_in: "hETH",
        amount_in: "0.05",
        asset_out: "hUSDC",
        quoted_out: "149.75",
        window_end_ms: EXPIRES_AT * 1000,
        ...extra
      },
      status
    )
  const committed = () => swapAnswer("committed", { amount_out: "149.75", tx_id: TX, message: null })

  it.scoped("Execute asks for one pre-authorisation of exactly the quote, polls while submitting, and commits", () => {
    const bodies: Array<string> = []
    const t = make({
      price: atomicPrice(),
      atomicSubmit: (body) => {
        bodies.push(body)
        return swapAnswer("submitting", {}, 202)
      },
      atomicStatus: (call) => (call < 2 ? swapAnswer("submitting", {}, 202) : committed())
    })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      expect((yield* state).quote?.binding?.atomic).toBe(true)
      yield* m.execute
      yield* untilState((s) => s.swap?._tag === "submitting")
      // The wallet was asked to sign exactly the shape the exchange accepts, until the quote's own end.
      expect(t.preauths).toEqual([
        {
          manifest: atomicSubintentManifest(
            { fromResource: R.hETH, toResource: R.hUSDC, amountIn: "0.05", quotedOut: "149.75" },
            alice
          ),
          message: `hswap.app | Radix | hETH -> hUSDC | quote ${QUOTE}`,
          expiresAtSeconds: EXPIRES_AT
        }
      ])
      expect(t.sent).toHaveLength(0)
      yield* eventually(() => bodies.length === 1)
      expect(JSON.parse(bodies[0] ?? "{}")).toEqual({
        quote_id: QUOTE,
        amount: "0.05",
        signed_partial_transaction: "4d22"
      })
      expect((yield* state).swap).toEqual({ _tag: "submitting", subintentId: SUBINTENT })
      // Each status read waits for the Clock: nothing is asked before the second passes.
      expect(t.statusCalls()).toBe(0)
      yield* TestClock.adjust("1 second")
      yield* eventually(() => t.statusCalls() === 1)
      expect((yield* state).swap?._tag).toBe("submitting")
      yield* TestClock.adjust("1 second")
      yield* eventually(() => t.statusCalls() === 2)
      yield* TestClock.adjust("1 second")
      // Then the history is read (spec §7's tracking, 5 s apart) until it lists the transaction.
      yield* eventually(() => t.txCalls() === 1)
      yield* TestClock.adjust("10 seconds")
      yield* untilState((s) => s.atomicOutcome === "committed")
      const done = yield* state
      expect(done.status).toEqual({ _tag: "success", txHash: TX })
      expect(done.swap).toBeUndefined()
      for (let i = 0; i < 1000 && !(yield* toasts).some((x) => x.startsWith("Swap Successful")); i++) yield* turn(i)
      expect(yield* toasts).toContain(
        "Swap Successful: You sent exactly 0.05000000 hETH and received 149.750000 hUSDC, in one transaction."
      )
      // No deposit, no registration: the one transaction was the exchange's.
      expect(t.sent).toHaveLength(0)
      expect(t.requests.some((r) => r.includes("/api/swap/"))).toBe(false)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a 5xx from a proxy after the exchange took the swap is no answer: its status says it committed", () => {
    const t = make({
      price: atomicPrice(),
      atomicSubmit: () => new Response("<h1>502 Bad Gateway</h1>", { status: 502 }),
      atomicStatus: () => committed()
    })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      yield* m.execute
      yield* eventually(() => t.requests.some((r) => r.endsWith("/api/atomic-swap")))
      yield* TestClock.adjust("1 second")
      yield* eventually(() => t.statusCalls() === 1)
      yield* TestClock.adjust("15 seconds")
      yield* untilState((s) => s.atomicOutcome === "committed")
      for (let i = 0; i < 1000 && !(yield* toasts).some((x) => x.startsWith("Swap Successful")); i++) yield* turn(i)
      expect((yield* toasts).filter((x) => x.startsWith("Swap Successful"))).toHaveLength(1)
      expect((yield* toasts).some((x) => x.includes("Nothing moved"))).toBe(false)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a lapsed window: nothing moved, and the card says so", () => {
    const t = make({ price: atomicPrice(), atomicSubmit: () => swapAnswer("lapsed", { message: "lapsed" }) })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* untilState((s) => s.atomicOutcome === "lapsed")
      const s = yield* state
      expect(s.status._tag).toBe("idle")
      expect(s.quotePrepared).toBe(false)
      expect(s.notice).toMatch(/Nothing moved: your balances are as they were\./)
      expect(t.sent).toHaveLength(0)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a refusal shows the server's reason in the user's words; nothing moved", () => {
    const t = make({
      price: atomicPrice(),
      atomicSubmit: () =>
        json({ error: "The quote was used", message: "The quote was used", reason: "quote_used" }, 422)
    })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* untilState((s) => s.atomicOutcome === "refused")
      expect((yield* state).status).toEqual({
        _tag: "error",
        message: "This quote was already used for another swap. Nothing moved. Prepare a new quote to try again."
      })
      expect(t.sent).toHaveLength(0)
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("every refusal code the server has reads as a sentence of its own, never the code", () =>
    Effect.sync(() => {
      const codes = [
        "payload_malformed",
        "wrong_network",
        "signature_invalid",
        "signer_not_account",
        "unsupported_account",
        "exchange_account",
        "has_children",
        "has_blobs",
        "wrong_shape",
        "wrong_withdrawal",
        "wrong_assertion",
        "wrong_deposit",
        "window_start",
        "window_unbounded",
        "window_after_quote",
        "window_too_short",
        "epoch_window",
        "bad_terms",
        "quote_unknown",
        "quote_used",
        "quote_amount",
        "subintent_used",
        "low_liquidity"
      ] satisfies ReadonlyArray<RefusalReason>
      for (const code of codes) {
        const text = refusalText(code, "SERVER")
        expect(text).not.toContain("SERVER")
        expect(text).not.toContain(code)
        expect(text).toMatch(/Nothing moved\./)
      }
      // A code this app does not know: the server's own sentence.
      expect(refusalText("new_code", "The server says why.")).toBe(
        "The server says why. Nothing moved. Prepare a new quote to try again."
      )
    })
  )

  it.scoped(
    "a wallet that cannot sign pre-authorisations: the same press sends the deposit, and later ones too",
    () => {
      const t = make({ price: atomicPrice(), preauth: "unsupported" })
      return Effect.gen(function* () {
        const { m } = yield* started
        yield* prepareAndExecute(m, "0.05")
        yield* eventually(() => t.sent.length === 1)
        expect(t.preauths).toHaveLength(1)
        expect(t.sent[0]?.message).toBe(`hswap.app | Radix | hETH -> hUSDC | quote ${QUOTE}`)
        yield* eventually(() => t.txCalls() === 1)
        yield* TestClock.adjust("10 seconds")
        yield* untilState((s) => s.status._tag === "success" && s.status.txHash === TX)
        expect((yield* state).atomicOff).toBe(true)
        yield* Effect.flatMap(SwapMachine, (mm) => mm.awaitBackground).pipe(Effect.fork)
        yield* TestClock.adjust("30 seconds")
        yield* prepareAndExecute(m, "0.04")
        yield* eventually(() => t.sent.length === 2)
        expect(t.preauths).toHaveLength(1)
      }).pipe(Effect.provide(t.layer))
    }
  )

  it.scoped("an exchange with the feature off (404): the deposit flow, without the user doing anything", () => {
    const t = make({ price: atomicPrice() })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* eventually(() => t.sent.length === 1)
      expect(t.preauths).toHaveLength(1)
      yield* eventually(() => t.txCalls() === 1)
      yield* TestClock.adjust("10 seconds")
      yield* untilState((s) => s.status._tag === "success" && s.status.txHash === TX)
      expect((yield* state).atomicOutcome).toBeUndefined()
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("a quote without atomic: true goes straight to the deposit", () => {
    const t = make({ price: atomicPrice("absent"), atomicSubmit: committed })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* eventually(() => t.sent.length === 1)
      expect(t.preauths).toHaveLength(0)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped("two presses of Execute: exactly one pre-authorisation request; Cancel withdraws it", () => {
    const t = make({ price: atomicPrice(), preauth: "hold", atomicSubmit: committed })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* m.setAmount("0.05")
      yield* m.prepare
      const a = yield* Effect.fork(m.execute)
      const b = yield* Effect.fork(m.execute)
      yield* Fiber.join(a)
      yield* Fiber.join(b)
      yield* untilState((s) => s.swap?._tag === "signing")
      yield* m.execute
      expect(t.preauths).toHaveLength(1)
      yield* m.cancel
      yield* untilState((s) => s.swap === undefined)
      expect((yield* state).notice).toMatch(/^Swap canceled\./)
      expect(t.sent).toHaveLength(0)
    }).pipe(Effect.provide(t.layer))
  })

  it.scoped(
    "a cancel the wallet cannot confirm says the pre-authorisation may still be signed, else nothing moves",
    () => {
      const t = make({ price: atomicPrice(), preauth: "hold", atomicSubmit: committed })
      t.cancelAnswer.value = "unconfirmed"
      return Effect.gen(function* () {
        const { m } = yield* started
        yield* prepareAndExecute(m, "0.05")
        yield* untilState((s) => s.swap?._tag === "signing")
        yield* m.cancel
        yield* m.awaitBackground
        const queued = yield* Effect.flatMap(Toaster, (toaster) => toaster.queue)
        const texts = queued.map((x) => `${x.title}: ${x.description ?? ""}`)
        expect(texts).toContain(
          "Cancel not confirmed: Your wallet may still sign the pre-authorisation. If it does, the swap goes ahead at this quote and shows in Your Transactions; if not, nothing moves."
        )
        expect(texts.some((x) => x.includes("deposit"))).toBe(false)
      }).pipe(Effect.provide(t.layer))
    }
  )

  it.scoped("a wallet that will not sign so close to the quote's end: nothing moved", () => {
    const t = make({ price: atomicPrice(), preauth: "expired" })
    return Effect.gen(function* () {
      const { m } = yield* started
      yield* prepareAndExecute(m, "0.05")
      yield* untilState((s) => s.atomicOutcome === "lapsed")
      expect((yield* state).notice).toMatch(/would not sign it\. Nothing moved\./)
      expect(t.requests.some((r) => r.includes("/api/atomic-swap"))).toBe(false)
    }).pipe(Effect.provide(t.layer))
  })

  it.effect("the atomic phases are pure transitions", () =>
    Effect.sync(() => {
      const prepared: SwapState = {
        ...initialSwapState,
        amount: "0.05",
        quotePrepared: true,
        status: { _tag: "success", txHash: undefined },
        quote: { rate: "2997", inverseRate: "0", toAmount: "149.75", minimumReceived: "148.2525", limits: undefined }
      }
      const checking = reduce(prepared, { _tag: "ExecutePressed" })
      const signing = reduce(checking, { _tag: "PreAuthorizationRequested" })
      expect(signing.swap).toEqual({ _tag: "signing" })
      expect(reduce(signing, { _tag: "ExecutePressed" })).toBe(signing)
      expect(reduce(signing, { _tag: "CancelRequested" }).swap).toEqual({ _tag: "canceling", from: "signing" })
      expect(reduce(reduce(signing, { _tag: "CancelRequested" }), { _tag: "CancelUndone" }).swap).toEqual({
        _tag: "signing"
      })
      const submitting = reduce(signing, { _tag: "PreAuthorizationSigned", subintentId: SUBINTENT })
      expect(submitting.swap).toEqual({ _tag: "submitting", subintentId: SUBINTENT })
      // Nothing cancels a signed pre-authorisation from the card: the exchange has it.
      expect(reduce(submitting, { _tag: "CancelRequested" })).toBe(submitting)
      const done = reduce(submitting, { _tag: "AtomicCommitted", txHash: TX, now: 5 })
      expect(done.status).toEqual({ _tag: "success", txHash: TX })
      expect(done.atomicOutcome).toBe("committed")
      expect(done.swaps).toEqual([5])
      const lapsed = reduce(submitting, { _tag: "AtomicLapsed", notice: "Nothing moved." })
      expect([lapsed.status._tag, lapsed.notice, lapsed.swap, lapsed.atomicOutcome]).toEqual([
        "idle",
        "Nothing moved.",
        undefined,
        "lapsed"
      ])
      const refused = reduce(submitting, { _tag: "AtomicRefused", message: "why" })
      expect(refused.status).toEqual({ _tag: "error", message: "why" })
      const fallback = reduce(signing, { _tag: "AtomicFallback" })
      expect([fallback.swap, fallback.atomicOff]).toEqual([{ _tag: "checking" }, true])
      expect(reduce(fallback, { _tag: "WalletOpened" }).swap).toEqual({ _tag: "wallet" })
      // The outcomes only end a swap under way.
      expect(reduce(prepared, { _tag: "AtomicCommitted", txHash: TX, now: 5 })).toBe(prepared)
      expect(
        atomicOffered({
          quote: { ...prepared.quote!, binding: { quoteId: QUOTE, feeOut: "0.1", expiresAt: 1, atomic: true } },
          atomicOff: false
        })
      ).toBe(true)
      expect(
        atomicOffered({
          quote: { ...prepared.quote!, binding: { quoteId: QUOTE, feeOut: "0.1", expiresAt: 1, atomic: true } },
          atomicOff: true
        })
      ).toBe(false)
      expect(atomicOffered({ quote: prepared.quote, atomicOff: false })).toBe(false)
    })
  )
})
