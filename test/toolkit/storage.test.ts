import { Error as PlatformError, KeyValueStore } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option } from "effect"
import { ToolkitConfig } from "../../src/toolkit/config.js"
import { MAX_CORRUPTIONS_KEPT, Storage, storageKey } from "../../src/toolkit/storage.js"
import { defaultRdtState } from "../../src/toolkit/config.js"

const address = "account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe"
const config = ToolkitConfig.layer({ networkId: 2, dAppDefinitionAddress: address })
const kvLayer = KeyValueStore.layerMemory
const TestLayer = Storage.Default.pipe(Layer.provideMerge(kvLayer), Layer.provide(config))

const item = (interactionId: string) => ({
  type: "dataRequest" as const,
  status: "pending" as const,
  interactionId,
  createdAt: 1,
  showCancel: true,
  isOneTimeRequest: false
})

describe("Storage", () => {
  it("keys are rdt:{address}:{networkId}:{partition}", () => {
    expect(storageKey(address, 2, "requests")).toBe(`rdt:${address}:2:requests`)
  })

  it.effect("reads sessions and identities written by the official toolkit", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      const storage = yield* Storage
      yield* kv.set(`rdt:${address}:2:identities`, JSON.stringify({ dApp: { secret: "ab".repeat(32), createdAt: 5 } }))
      yield* kv.set(`rdt:${address}:2:sessions`, JSON.stringify({ s1: { sessionId: "s1", createdAt: 6 } }))
      yield* kv.set(`rdt:${address}:2:connectorExtension`, JSON.stringify({ sessionId: "ce" }))
      yield* kv.set(
        `rdt:${address}:2:state`,
        JSON.stringify({
          loggedInTimestamp: "7",
          walletData: {
            accounts: [{ address: "account_x", label: "A", appearanceId: 1 }],
            personaData: [{ entry: "emailAddresses", fields: ["a@b.c"] }],
            persona: { identityAddress: "identity_x", label: "P" },
            proofs: []
          },
          sharedData: {
            persona: { proof: false },
            ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 }, proof: false }
          }
        })
      )
      expect(yield* storage.identities.getById("dApp")).toEqual(Option.some({ secret: "ab".repeat(32), createdAt: 5 }))
      expect(yield* storage.sessions.getAll).toEqual({ s1: { sessionId: "s1", createdAt: 6 } })
      expect(yield* storage.connectorExtension.get).toEqual(Option.some({ sessionId: "ce" }))
      const state = yield* storage.getState
      expect(state.walletData.persona?.label).toBe("P")
      expect(yield* storage.getCorruptions).toEqual([])
    }).pipe(Effect.provide(TestLayer))
  )

  it.effect("writes the same JSON the official toolkit writes", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      const storage = yield* Storage
      yield* storage.requests.setItems({ a: item("a") })
      yield* storage.requests.setItems({ b: item("b") })
      yield* storage.requests.patchItem("a", (i) => ({ ...i, status: "success" }))
      const raw = yield* kv.get(`rdt:${address}:2:requests`)
      expect(JSON.parse(Option.getOrThrow(raw))).toEqual({ a: { ...item("a"), status: "success" }, b: item("b") })
      yield* storage.requests.removeItem("a")
      expect(Object.keys(yield* storage.requests.getAll)).toEqual(["b"])
    }).pipe(Effect.provide(TestLayer))
  )

  it.effect("invalid JSON is reported and reset, never thrown", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      const storage = yield* Storage
      yield* kv.set(`rdt:${address}:2:state`, "{not json")
      yield* kv.set(`rdt:${address}:2:requests`, "[1,2")
      expect(yield* storage.getState).toEqual(defaultRdtState)
      expect(yield* storage.requests.getAll).toEqual({})
      expect(yield* kv.get(`rdt:${address}:2:state`)).toEqual(Option.none())
      const reports = yield* storage.getCorruptions
      expect(reports.map((r) => [r.key, r.reason])).toEqual([
        [`rdt:${address}:2:state`, "invalid JSON"],
        [`rdt:${address}:2:requests`, "invalid JSON"]
      ])
    }).pipe(Effect.provide(TestLayer))
  )

  it.effect("only the latest MAX_CORRUPTIONS_KEPT reports are kept, however often storage is rewritten", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      const storage = yield* Storage
      for (let i = 0; i < MAX_CORRUPTIONS_KEPT + 50; i++) {
        yield* kv.set(`rdt:${address}:2:requests`, JSON.stringify({ [`bad${i}`]: { status: i } }))
        expect(yield* storage.requests.getAll).toEqual({})
      }
      const reports = yield* storage.getCorruptions
      expect(reports).toHaveLength(MAX_CORRUPTIONS_KEPT)
      expect(reports[0]?.entry).toBe("bad50")
      expect(reports.at(-1)?.entry).toBe(`bad${MAX_CORRUPTIONS_KEPT + 49}`)
    }).pipe(Effect.provide(TestLayer))
  )

  it.effect("a foreign entry in a keyed partition is dropped alone", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      const storage = yield* Storage
      yield* kv.set(`rdt:${address}:2:requests`, JSON.stringify({ a: item("a"), bad: { status: 42 } }))
      expect(Object.keys(yield* storage.requests.getAll)).toEqual(["a"])
      expect((yield* storage.getCorruptions)[0]).toMatchObject({ entry: "bad", reason: "unexpected shape" })
      yield* kv.set(`rdt:${address}:2:sessions`, JSON.stringify(["not", "an", "object"]))
      expect(yield* storage.sessions.getAll).toEqual({})
    }).pipe(Effect.provide(TestLayer))
  )

  it.effect("an entry under another key than its own id, or under a built-in's name, is reported and never read", () =>
    Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      const storage = yield* Storage
      // "other" holds the request "a": it would answer a's caller. "__proto__" must not become the prototype.
      yield* kv.set(
        `rdt:${address}:2:requests`,
        `{"a":${JSON.stringify(item("a"))},"other":${JSON.stringify({ ...item("a"), status: "success" })},"__proto__":${JSON.stringify({ ...item("x"), showCancel: true })}}`
      )
      const all = yield* storage.requests.getAll
      expect(Object.keys(all)).toEqual(["a"])
      expect(all["a"]?.status).toBe("pending")
      expect((yield* storage.getCorruptions).map((c) => [c.entry, c.reason])).toEqual([
        ["other", "stored under another key than its own id"],
        ["__proto__", "stored under another key than its own id"]
      ])
      expect(yield* storage.requests.getById("showCancel")).toEqual(Option.none())
      expect(yield* storage.requests.getById("constructor")).toEqual(Option.none())
      expect(yield* storage.requests.getById("__proto__")).toEqual(Option.none())
    }).pipe(Effect.provide(TestLayer))
  )

  it.effect("patching missing data gives PatchingStateFailed", () =>
    Effect.gen(function* () {
      const storage = yield* Storage
      const a = yield* Effect.either(storage.patchState({ loggedInTimestamp: "1" }))
      expect(Either.isLeft(a) && a.left._tag).toBe("PatchingStateFailed")
      const b = yield* Effect.either(storage.requests.patchItem("nope", (i) => i))
      expect(Either.isLeft(b) && b.left._tag).toBe("PatchingStateFailed")
      yield* storage.state.set(defaultRdtState)
      expect((yield* storage.patchState({ loggedInTimestamp: "1" })).loggedInTimestamp).toBe("1")
    }).pipe(Effect.provide(TestLayer))
  )

  it.effect("store failures map to FailedToReadFromLocalStorage and FailedToWriteToLocalStorage", () => {
    const failing = Layer.succeed(
      KeyValueStore.KeyValueStore,
      KeyValueStore.make({
        get: () => Effect.die("unused"),
        getUint8Array: () => Effect.die("unused"),
        set: (key) => Effect.fail(badArgument(key)),
        remove: (key) => Effect.fail(badArgument(key)),
        clear: Effect.void,
        size: Effect.succeed(0)
      })
    )
    const readFailing = Layer.succeed(
      KeyValueStore.KeyValueStore,
      KeyValueStore.make({
        get: (key) => Effect.fail(badArgument(key)),
        getUint8Array: (key) => Effect.fail(badArgument(key)),
        set: () => Effect.void,
        remove: () => Effect.void,
        clear: Effect.void,
        size: Effect.succeed(0)
      })
    )
    return Effect.gen(function* () {
      const write = yield* Effect.either(
        Effect.flatMap(Storage, (s) => s.state.set(defaultRdtState)).pipe(
          Effect.provide(Storage.Default.pipe(Layer.provide(failing), Layer.provide(config)))
        )
      )
      expect(Either.isLeft(write) && write.left._tag).toBe("FailedToWriteToLocalStorage")
      const read = yield* Effect.either(
        Effect.flatMap(Storage, (s) => s.requests.getAll).pipe(
          Effect.provide(Storage.Default.pipe(Layer.provide(readFailing), Layer.provide(config)))
        )
      )
      expect(Either.isLeft(read) && read.left._tag).toBe("FailedToReadFromLocalStorage")
    })
  })
})

const badArgument = (key: string) =>
  new PlatformError.SystemError({ reason: "Unknown", module: "KeyValueStore", method: "set", pathOrDescriptor: key })
