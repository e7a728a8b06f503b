import { HttpClient, KeyValueStore } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Fiber, Layer, Stream, TestClock } from "effect"
import {
  accountChangedToast,
  connectButtonState,
  Crypto,
  Environment,
  personaDataLines,
  shortenAddress,
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

const layerFor = (fake: FakeExtension) =>
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
  ).pipe(
    Layer.provideMerge(KeyValueStore.layerMemory),
    Layer.provide(Layer.succeed(HttpClient.HttpClient, fakeRelay().client))
  )

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
