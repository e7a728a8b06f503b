import { FetchHttpClient, KeyValueStore } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, TestClock } from "effect"
import { Extension, Toolkit, WalletRequest } from "../../src/toolkit/index.js"

describe("Toolkit.layer", () => {
  it.effect("builds the whole graph with only an HttpClient and a KeyValueStore; without a DOM nothing is sent", () =>
    Effect.gen(function* () {
      const wr = yield* WalletRequest
      const ext = yield* Extension
      yield* TestClock.adjust("200 millis")
      expect((yield* ext.getStatus).isExtensionAvailable).toBe(false)
      const result = yield* Effect.either(wr.connect())
      expect(Either.isLeft(result) && result.left._tag).toBe("SupportedTransportNotFound")
      expect(Either.isLeft(result) && result.left.message).toBe("No supported transport found")
      expect(yield* wr.getButtonStatus).toBe("error")
    }).pipe(
      Effect.provide(
        Toolkit.layer({ networkId: 2, dAppDefinitionAddress: "account_tdx_2_1x" }).pipe(
          Layer.provide(Layer.mergeAll(FetchHttpClient.layer, KeyValueStore.layerMemory))
        )
      )
    )
  )
})
