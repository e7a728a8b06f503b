import { HttpClient, KeyValueStore } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Layer, Logger, Stream, TestClock } from "effect"
import { decodeBech32m, encodeBech32m } from "../../src/exchange/bech32m.js"
import {
  accountChangedToast,
  connectButtonState,
  Crypto,
  Environment,
  personaDataLines,
  shortenAddress,
  toConnectButtonState,
  Toolkit,
  ToolkitGateway,
  WalletRequest,
  walletSessionToast
} from "../../src/toolkit/index.js"
import { emptyWalletData } from "../../src/toolkit/config.js"
import { fakeExtension, type FakeExtension, fakeRelay } from "./fakes.js"
import { dAppDefinitionAddress, origin } from "./layers.js"

describe("display helpers", () => {
  it("persona data lines: western and eastern names, first e-mail and phone, blanks dropped", () => {
    const lines = personaDataLines({
      ...emptyWalletData,
      personaData: [
        { entry: "fullName", fields: { variant: "western", givenNames: "Ada", familyName: "Lovelace", nickname: "" } },
        { entry: "emailAddresses", fields: ["ada@example.com", "other@example.com"] },
        { entry: "phoneNumbers", fields: [" "] }
      ]
    })
    expect(lines).toEqual([
      { field: "fullName", value: "Ada Lovelace" },
      { field: "emailAddress", value: "ada@example.com" }
    ])
    const eastern = personaDataLines({
      ...emptyWalletData,
      personaData: [
        { entry: "fullName", fields: { variant: "eastern", givenNames: "Taro", familyName: "Yamada", nickname: "T" } }
      ]
    })
    expect(eastern[0]?.value).toBe('Yamada "T" Taro')
  })

  it("wallet toasts: connected 5 s, disconnected 3 s, account changed 3 s, the account shortened 15 + 5", () => {
    const account = {
      address: "account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe",
      label: "A",
      appearanceId: 0
    }
    const on = { ...emptyWalletData, persona: { identityAddress: "identity_x", label: "P" }, accounts: [account] }
    expect(walletSessionToast(emptyWalletData, on)).toEqual({
      title: "Wallet Connected",
      description: "account_tdx_2_1...a6rhe",
      durationMs: 5000
    })
    expect(walletSessionToast(on, emptyWalletData)).toEqual({
      title: "Wallet Disconnected",
      description: "account_tdx_2_1...a6rhe",
      durationMs: 3000
    })
    expect(walletSessionToast(on, on)).toBeUndefined()
    expect(accountChangedToast(account.address)).toEqual({
      title: "Account Changed",
      description: "account_tdx_2_1...a6rhe",
      durationMs: 3000
    })
  })

  it("shortens an address to 15 + 5 characters", () => {
    expect(shortenAddress("account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe")).toBe(
      "account_tdx_2_1...a6rhe"
    )
    expect(shortenAddress("short")).toBe("short")
  })
})

const layerFor = (fake: FakeExtension, store: Layer.Layer<KeyValueStore.KeyValueStore> = KeyValueStore.layerMemory) =>
  Toolkit.layerWith(
    { networkId: 2, dAppDefinitionAddress },
    {
      environment: Environment.Test({ events: fake.target, origin }),
      crypto: Crypto.Test("button"),
      gateway: ToolkitGateway.make({
        transactionStatus: () => Effect.succeed("Pending"),
        subintentStatus: () => Effect.succeed({ subintentStatus: "Unknown", transactionIntentHash: undefined }),
        dAppName: () => Effect.succeed("hSwap dApp")
      })
    }
  ).pipe(Layer.provideMerge(store), Layer.provide(Layer.succeed(HttpClient.HttpClient, fakeRelay().client)))

describe("connectButtonState", () => {
  it.effect(
    "follows the extension, the dApp name and the requests; the status returns to pending after 2 s while requests remain",
    () => {
      const fake = fakeExtension({
        isWalletLinked: true,
        onInteraction: (m, f) => {
          const wi = (m["interaction"] ?? m) as Record<string, unknown>
          const items = wi["items"] as Record<string, unknown>
          if (
            items["discriminator"] === "transaction" &&
            (items["send"] as Record<string, unknown>)["transactionManifest"] === "fail"
          ) {
            void f.replyLater({ discriminator: "failure", interactionId: wi["interactionId"], error: "rejectedByUser" })
          }
        }
      })
      return Effect.gen(function* () {
        const wr = yield* WalletRequest
        const states = yield* Effect.fork(
          connectButtonState.pipe(
            Stream.takeUntil(
              (s) => s.status === "pending" && s.requestItems.some((i) => i.status === "fail") && s.dAppName !== ""
            ),
            Stream.runCollect
          )
        )
        yield* TestClock.adjust("0 millis")
        yield* Effect.fork(wr.sendTransaction({ transactionManifest: "stays pending" }))
        yield* TestClock.adjust("0 millis")
        yield* Effect.either(wr.sendTransaction({ transactionManifest: "fail" }))
        expect(yield* wr.getButtonStatus).toBe("error")
        yield* TestClock.adjust("2 seconds")
        expect(yield* wr.getButtonStatus).toBe("pending")
        const all = Chunk.toReadonlyArray(yield* Fiber.join(states))
        const last = all[all.length - 1]
        expect(last?.isExtensionAvailable).toBe(true)
        expect(last?.isWalletLinked).toBe(true)
        expect(last?.dAppName).toBe("hSwap dApp")
        expect(last?.requestItems.map((i) => i.status).sort()).toEqual(["fail", "pending"])
      }).pipe(Effect.provide(layerFor(fake)))
    }
  )
})

describe("the shared accounts the panel lists", () => {
  const stokenet = "account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe"
  // The same key's account on mainnet: a real address, of another network.
  const mainnet = encodeBech32m("account_rdx", decodeBech32m(stokenet)!.bytes)
  const hostile = "<img src=x onerror=alert(1)>/../../phishing?"
  const resource = encodeBech32m("resource_tdx_2_", decodeBech32m(stokenet)!.bytes)
  const stored = [
    { address: hostile, label: "Hostile", appearanceId: 0 },
    { address: stokenet, label: "Main", appearanceId: 1 },
    { address: mainnet, label: "Mainnet", appearanceId: 2 },
    { address: resource, label: "A resource", appearanceId: 3 },
    { address: stokenet.toUpperCase().slice(0, 20), label: "Cut", appearanceId: 4 }
  ]

  it("are the account addresses of the toolkit's network, in the wallet's order; nothing else", () => {
    const state = (networkId: number) =>
      toConnectButtonState({
        walletData: { ...emptyWalletData, persona: { identityAddress: "identity_x", label: "P" }, accounts: stored },
        networkId,
        requestItems: [],
        status: "success",
        extension: { isWalletLinked: true, isExtensionAvailable: true, canHandleSessions: true },
        isMobile: false,
        dAppName: "",
        dashboardUrl: "https://stokenet-dashboard.radixdlt.com"
      })
    expect(state(2).accounts.map((a) => a.label)).toEqual(["Main"])
    expect(state(1).accounts.map((a) => a.label)).toEqual(["Mainnet"])
    expect(state(240).accounts).toEqual([])
    expect(state(2).connected).toBe(true)
  })

  // A store holding a session whose wallet data has all of `stored`, as the official toolkit writes it.
  const seeded = Layer.effect(
    KeyValueStore.KeyValueStore,
    Effect.tap(KeyValueStore.KeyValueStore, (kv) =>
      kv.set(
        `rdt:${dAppDefinitionAddress}:2:state`,
        JSON.stringify({
          loggedInTimestamp: "7",
          walletData: {
            accounts: stored,
            personaData: [],
            persona: { identityAddress: "identity_x", label: "P" },
            proofs: []
          },
          sharedData: {
            persona: { proof: false },
            ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 }, proof: false }
          }
        })
      )
    )
  ).pipe(Layer.provide(KeyValueStore.layerMemory), Layer.orDie)

  it.effect(
    "stored wallet data with accounts of another network or no address: only the valid one is listed, the rest logged",
    () => {
      const logs: Array<string> = []
      const fake = fakeExtension({ isWalletLinked: true })
      return Effect.gen(function* () {
        const first = yield* connectButtonState.pipe(
          Stream.filter((s) => s.connected),
          Stream.take(1),
          Stream.runCollect
        )
        const state = Chunk.toReadonlyArray(first)[0]
        expect(state?.accounts.map((a) => a.address)).toEqual([stokenet])
        expect(
          logs.some((l) => l.includes("4 account(s) that are not account addresses on network 2; not listed"))
        ).toBe(true)
      }).pipe(
        Effect.provide(layerFor(fake, seeded)),
        Effect.provide(
          Logger.replace(
            Logger.defaultLogger,
            Logger.make(({ message }) => void logs.push(String(message)))
          )
        )
      )
    }
  )
})
