import { FetchHttpClient, HttpClient, HttpClientResponse, KeyValueStore } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Either, Fiber, Layer, Option, Stream, TestClock } from "effect"
import { emptyWalletData, storageKey } from "../../src/toolkit/config.js"
import { Environment } from "../../src/toolkit/environment.js"
import { ToolkitGateway } from "../../src/toolkit/gateway.js"
import { lazyWalletRequest, loadToolkit, storedSessionNeedsToolkit } from "../../src/toolkit/lazy.js"
import { httpClientFrom } from "../../src/toolkit/toolkit.js"
import { WalletRequest } from "../../src/toolkit/walletRequestTag.js"

const dAppDefinitionAddress = "account_tdx_2_1x"
const options = { networkId: 2, dAppDefinitionAddress }
const stateKey = storageKey(dAppDefinitionAddress, 2, "state")
const requestsKey = storageKey(dAppDefinitionAddress, 2, "requests")

const session = {
  loggedInTimestamp: "1700000000000",
  walletData: {
    accounts: [{ address: "account_tdx_2_1a", label: "Main", appearanceId: 0 }],
    personaData: [],
    persona: { identityAddress: "identity_tdx_2_1p", label: "Persona" },
    proofs: []
  },
  sharedData: {}
}

/** The toolkit module's loader, counting loads; `failures` first loads fail; `loaded` completes with the first good one. */
const countingLoader = (failures = 0) =>
  Effect.map(Deferred.make<void>(), (loaded) => {
    const calls = { count: 0 }
    const load = () => {
      calls.count += 1
      if (calls.count <= failures) return Promise.reject(new Error("chunk unavailable"))
      return loadToolkit().then((module) => {
        Effect.runSync(Deferred.succeed(loaded, undefined))
        return module
      })
    }
    return { calls, load, loaded: Deferred.await(loaded) }
  })

const dAppNames: Array<string> = []
const gateway = ToolkitGateway.make({
  transactionStatus: () => Effect.succeed("CommittedSuccess"),
  subintentStatus: () => Effect.succeed({ subintentStatus: "Unknown", transactionIntentHash: undefined }),
  dAppName: (address) => Effect.sync(() => (dAppNames.push(address), "hSwap"))
})

/**
 * The lazy WalletRequest over a memory store holding `stored`, in a scripted environment over `events`, or with
 * `events` null the browser's, which in Node has no DOM (so the real toolkit has no transport).
 */
const lazyLayer = (
  load: () => ReturnType<typeof loadToolkit>,
  stored: Readonly<Record<string, string>> = {},
  events: EventTarget | null = new EventTarget()
) => {
  const kv = Layer.effect(
    KeyValueStore.KeyValueStore,
    Effect.gen(function* () {
      const store = yield* KeyValueStore.KeyValueStore
      for (const [k, v] of Object.entries(stored)) yield* store.set(k, v)
      return store
    })
  ).pipe(Layer.provide(KeyValueStore.layerMemory), Layer.orDie)
  // No HttpClient, as in the app: the real toolkit's relay then sends with fetch (Toolkit's httpClientFrom).
  return lazyWalletRequest(
    options,
    { gateway, environment: events === null ? Environment.Browser : Environment.Test({ events }) },
    load
  ).pipe(Layer.provideMerge(kv))
}

describe("storedSessionNeedsToolkit", () => {
  const none = Option.none<string>()
  it("nothing stored, or a state with an empty wallet: not yet", () => {
    expect(storedSessionNeedsToolkit(none, none)).toBe(false)
    expect(
      storedSessionNeedsToolkit(
        Option.some(JSON.stringify({ loggedInTimestamp: "", walletData: emptyWalletData, sharedData: {} })),
        Option.some("{}")
      )
    ).toBe(false)
  })
  it("a session, a request item or anything unreadable: at once", () => {
    expect(storedSessionNeedsToolkit(Option.some(JSON.stringify(session)), none)).toBe(true)
    expect(
      storedSessionNeedsToolkit(
        Option.some(
          JSON.stringify({ walletData: { ...emptyWalletData, persona: { identityAddress: "i", label: "p" } } })
        ),
        none
      )
    ).toBe(true)
    expect(storedSessionNeedsToolkit(none, Option.some(JSON.stringify({ id1: { status: "pending" } })))).toBe(true)
    expect(storedSessionNeedsToolkit(Option.some("{not json"), none)).toBe(true)
    expect(storedSessionNeedsToolkit(none, Option.some("[]"))).toBe(true)
    expect(storedSessionNeedsToolkit(Option.some(JSON.stringify({ walletData: { accounts: "x" } })), none)).toBe(true)
  })
})

describe("the lazy WalletRequest", () => {
  it.scoped("a first visit: answers 'not connected' without loading the toolkit; intent loads it, once", () =>
    Effect.gen(function* () {
      const { calls, load, loaded } = yield* countingLoader()
      const context = yield* Layer.build(lazyLayer(load, {}, null))
      const wr = yield* Effect.provide(WalletRequest, context)
      expect(yield* Stream.runHead(wr.walletData)).toEqual(Option.some(emptyWalletData))
      expect(yield* Stream.runHead(wr.requestItems)).toEqual(Option.some([]))
      expect(yield* Stream.runHead(wr.buttonStatus)).toEqual(Option.some("default"))
      expect(Option.getOrThrow(yield* Stream.runHead(wr.extensionStatus)).isExtensionAvailable).toBe(false)
      expect(yield* wr.getWalletData).toEqual(emptyWalletData)
      // The dApp's name (the connect popover's title) waits until something needs the toolkit: no Gateway read yet.
      const namesBefore = dAppNames.length
      const name = yield* Effect.fork(wr.dAppName)
      yield* TestClock.adjust("1 minute")
      expect(name.unsafePoll()).toBeNull()
      expect(dAppNames).toHaveLength(namesBefore)
      expect(wr.config.dAppDefinitionAddress).toBe(dAppDefinitionAddress)
      expect(calls.count).toBe(0)
      // The pointer on the button: loaded in the background; reads wait for it once it is on its way.
      yield* wr.prepare
      expect(yield* Fiber.join(name)).toBe("hSwap")
      expect(dAppNames).toContain(dAppDefinitionAddress)
      yield* loaded
      expect(yield* wr.getRequestItems).toEqual([])
      // The extension probe's 200 ms pass (as in toolkit.test.ts); without a DOM the real toolkit has no transport.
      yield* TestClock.adjust("200 millis")
      const result = yield* Effect.either(wr.connect())
      expect(Either.isLeft(result) && result.left._tag).toBe("SupportedTransportNotFound")
      expect(yield* wr.getButtonStatus).toBe("error")
      expect(yield* Stream.runHead(wr.buttonStatus)).toEqual(Option.some("error"))
      yield* Effect.either(wr.connect())
      expect(calls.count).toBe(1)
    })
  )

  it.scoped("a stored session: loaded at once, and the streams wait for it instead of saying 'not connected'", () =>
    Effect.gen(function* () {
      const { calls, load } = yield* countingLoader()
      const context = yield* Layer.build(lazyLayer(load, { [stateKey]: JSON.stringify(session) }))
      const wr = yield* Effect.provide(WalletRequest, context)
      const first = yield* Stream.runHead(wr.walletData)
      expect(Option.getOrThrow(first).persona?.label).toBe("Persona")
      expect((yield* wr.getWalletData).accounts.map((a) => a.address)).toEqual(["account_tdx_2_1a"])
      expect(calls.count).toBe(1)
    })
  )

  it.scoped(
    "prepare loads in the background; a toolkit that cannot load fails the request, and the next try loads",
    () =>
      Effect.gen(function* () {
        const { calls, load, loaded } = yield* countingLoader(2)
        const context = yield* Layer.build(lazyLayer(load))
        const wr = yield* Effect.provide(WalletRequest, context)
        const failed = yield* Effect.either(wr.sendTransaction({ transactionManifest: "CALL_METHOD" }))
        expect(Either.isLeft(failed) && failed.left._tag).toBe("FailedToSendDappRequest")
        expect(Either.isLeft(failed) && failed.left.message).toBe("the wallet toolkit could not be loaded")
        expect(yield* wr.cancelRequest("id")).toBe("requestCancelFail")
        expect(calls.count).toBe(2)
        // Still answering as before: nothing was loaded.
        expect(yield* Stream.runHead(wr.walletData)).toEqual(Option.some(emptyWalletData))
        yield* wr.prepare
        yield* loaded
        expect(yield* wr.getRequestItems).toEqual([])
        yield* wr.prepare
        expect(calls.count).toBe(3)
      })
  )

  it.scoped("another tab's session (a storage event for a toolkit key) loads the toolkit", () =>
    Effect.gen(function* () {
      const events = new EventTarget()
      const { calls, load, loaded } = yield* countingLoader()
      const context = yield* Layer.build(lazyLayer(load, {}, events))
      const wr = yield* Effect.provide(WalletRequest, context)
      const kv = yield* Effect.provide(KeyValueStore.KeyValueStore, context)
      events.dispatchEvent(Object.assign(new Event("storage"), { key: "unrelated" }))
      yield* Effect.yieldNow()
      expect(calls.count).toBe(0)
      yield* kv.set(stateKey, JSON.stringify(session))
      events.dispatchEvent(Object.assign(new Event("storage"), { key: stateKey }))
      yield* loaded
      const data = yield* Stream.runHead(wr.walletData.pipe(Stream.filter((d) => d.accounts.length > 0)))
      expect(Option.getOrThrow(data).accounts[0]?.label).toBe("Main")
      expect(calls.count).toBe(1)
      expect(requestsKey).toContain(":requests")
    })
  )
})

describe("httpClientFrom (what the lazy toolkit gives the real one)", () => {
  it.effect("the context's HttpClient when it has one, else FetchHttpClient over fetch", () =>
    Effect.gen(function* () {
      const mine = HttpClient.make((request) =>
        Effect.succeed(HttpClientResponse.fromWeb(request, new Response("mine")))
      )
      const given = yield* Effect.provide(
        HttpClient.HttpClient,
        httpClientFrom(Context.make(HttpClient.HttpClient, mine))
      )
      expect(given).toBe(mine)
      const fallback = yield* Effect.provide(HttpClient.HttpClient, httpClientFrom(Context.empty()))
      const viaFetch = yield* Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer)
      expect(fallback).not.toBe(mine)
      expect(typeof fallback.execute).toBe("function")
      expect(Object.keys(fallback).sort()).toEqual(Object.keys(viaFetch).sort())
    })
  )
})
