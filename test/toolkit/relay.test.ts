import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Layer, Ref, TestClock } from "effect"
import { fromHex, toHex } from "../../src/toolkit/bytes.js"
import { encryptWalletResponse, parseDeepLink, sendResponseBody } from "../../src/toolkit/deepLink.js"
import { verifyDeepLinkSignature } from "../../src/toolkit/deepLinkVerify.js"
import { Relay, type RelayDelivery } from "../../src/toolkit/relay.js"
import type { WalletInteraction } from "../../src/toolkit/schemas.js"
import { Storage } from "../../src/toolkit/storage.js"
import { fakeRelay, type FakeRelay } from "./fakes.js"
import { relayExample, signatureVectors } from "./fixtures.js"
import { baseLayer, type BaseLayerOptions } from "./layers.js"

const sig = signatureVectors.signature
const vectorInteraction = JSON.parse(
  Buffer.from(sig.request_base64url, "base64url").toString("utf8")
) as WalletInteraction

const relayLayer = (relay: FakeRelay, o: BaseLayerOptions = {}) =>
  Relay.Test({
    http: relay.client,
    isMobile: o.isMobile ?? false,
    ...(o.isTelegramMiniApp !== undefined ? { isTelegramMiniApp: o.isTelegramMiniApp } : {}),
    ...(o.opened ? { opened: o.opened } : {})
  }).pipe(
    Layer.provideMerge(baseLayer({ options: { dAppDefinitionAddress: sig.dAppDefinitionAddress, ...o.options } }))
  )

const withSecret = (secret: string) =>
  Effect.flatMap(Storage, (s) => s.identities.setItems({ dApp: { secret, createdAt: 1 } }))

describe("Relay deep link", () => {
  it.effect("matches the vector: request parameter byte for byte, signature, keys, order and encoding", () =>
    Effect.gen(function* () {
      yield* withSecret(sig.secret)
      yield* Effect.flatMap(Storage, (s) => s.sessions.setItems({ "s-1": { sessionId: "s-1", createdAt: 1 } }))
      const relay = yield* Relay
      const link = yield* relay.deepLink(vectorInteraction)
      const expected =
        `radixwallet://connect?sessionId=s-1&request=${sig.request_base64url}&signature=${sig.signature_hex}` +
        `&publicKey=${sig.x25519_public_key}&identity=${sig.identity_ed25519_public_key}` +
        `&origin=http%3A%2F%2Flocalhost%3A5173&dAppDefinitionAddress=${sig.dAppDefinitionAddress}`
      expect(link).toBe(expected)
      const parsed = parseDeepLink(link)
      expect(Either.isRight(parsed) && verifyDeepLinkSignature(parsed.right)).toBe(true)
    }).pipe(Effect.provide(relayLayer(fakeRelay())))
  )

  it.effect("the wallet side refuses a link whose signature does not match", () =>
    Effect.gen(function* () {
      const relay = yield* Relay
      const link = yield* relay.deepLink(vectorInteraction)
      const parsed = parseDeepLink(
        link.replace(/signature=([0-9a-f])/, (_, c: string) => `signature=${c === "0" ? "1" : "0"}`)
      )
      expect(Either.isRight(parsed) && verifyDeepLinkSignature(parsed.right)).toBe(false)
      expect(Either.isLeft(parseDeepLink("radixwallet://connect?sessionId=x"))).toBe(true)
    }).pipe(Effect.provide(relayLayer(fakeRelay())))
  )

  it.effect("identity and session are created once and kept in identities and sessions", () =>
    Effect.gen(function* () {
      const relay = yield* Relay
      const storage = yield* Storage
      const a = yield* relay.getIdentity
      const b = yield* relay.getIdentity
      expect(a.identity).toBe(b.identity)
      const stored = yield* storage.identities.getAll
      expect(Object.keys(stored)).toEqual(["dApp"])
      expect(stored["dApp"]?.secret).toBe(toHex(a.secret))
      const s1 = yield* relay.getSession
      const s2 = yield* relay.getSession
      expect(s1).toEqual(s2)
      expect(yield* storage.sessions.getAll).toEqual({ [s1.sessionId]: s1 })
    }).pipe(Effect.provide(relayLayer(fakeRelay())))
  )

  it.effect("send: UnhandledEnvironment off mobile", () =>
    Effect.gen(function* () {
      const relay = yield* Relay
      const result = yield* Effect.either(relay.send(vectorInteraction))
      expect(Either.isLeft(result) && result.left._tag).toBe("UnhandledEnvironment")
    }).pipe(Effect.provide(relayLayer(fakeRelay(), { isMobile: false })))
  )

  it.effect("send: location on mobile, a new window in a Telegram Mini App", () =>
    Effect.gen(function* () {
      const opened = yield* Ref.make<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>([])
      const link1 = yield* Effect.flatMap(Relay, (r) => r.send(vectorInteraction)).pipe(
        Effect.provide(relayLayer(fakeRelay(), { isMobile: true, opened }))
      )
      const link2 = yield* Effect.flatMap(Relay, (r) => r.send(vectorInteraction)).pipe(
        Effect.provide(relayLayer(fakeRelay(), { isMobile: true, isTelegramMiniApp: true, opened }))
      )
      expect(yield* Ref.get(opened)).toEqual([
        { how: "navigate", url: link1 },
        { how: "window", url: link2 }
      ])
    })
  )
})

const failure = (interactionId: string) => ({
  discriminator: "failure" as const,
  interactionId,
  error: "rejectedByUser"
})

describe("Relay responses", () => {
  it.effect("decrypts the reference example", () =>
    Effect.gen(function* () {
      yield* withSecret(relayExample.dAppSecret)
      const relay = yield* Relay
      const response = yield* relay.decryptEntry({
        sessionId: "s",
        publicKey: relayExample.walletPublicKey,
        data: relayExample.data
      })
      expect(JSON.stringify(response)).toBe(relayExample.plaintext)
    }).pipe(
      Effect.provide(
        relayLayer(fakeRelay(), { options: { dAppDefinitionAddress: relayExample.dAppDefinitionAddress } })
      )
    )
  )

  it.effect("one bad entry does not drop the batch: each gets its typed error", () => {
    const fake = fakeRelay()
    return Effect.gen(function* () {
      const relay = yield* Relay
      const session = yield* relay.getSession
      const dApp = yield* relay.getIdentity
      const walletSecret = fromHex(relayExample.walletSecret)
      const good = yield* encryptWalletResponse({
        response: failure("a"),
        walletSecret,
        dAppPublicKey: dApp.publicKey,
        dAppDefinitionAddress: sig.dAppDefinitionAddress
      })
      const good2 = yield* encryptWalletResponse({
        response: failure("b"),
        walletSecret,
        dAppPublicKey: dApp.publicKey,
        dAppDefinitionAddress: sig.dAppDefinitionAddress
      })
      const wrongKey = yield* encryptWalletResponse({
        response: failure("c"),
        walletSecret,
        dAppPublicKey: dApp.publicKey,
        dAppDefinitionAddress: "another address"
      })
      const tampered = { ...good, data: good.data.slice(0, -2) + (good.data.endsWith("00") ? "01" : "00") }
      const invalid = yield* encryptWalletResponse({
        response: { discriminator: "failure", interactionId: "d", error: "x" },
        walletSecret,
        dAppPublicKey: dApp.publicKey,
        dAppDefinitionAddress: sig.dAppDefinitionAddress
      }).pipe(Effect.map((e) => e))
      fake.store.set(session.sessionId, [
        { sessionId: session.sessionId, ...good },
        { sessionId: session.sessionId, error: "wallet could not answer" },
        { sessionId: session.sessionId, ...tampered },
        { sessionId: session.sessionId, publicKey: good.publicKey, data: "zz-not-hex" },
        { sessionId: session.sessionId, ...wrongKey },
        { sessionId: session.sessionId, publicKey: "abc", data: good.data },
        42,
        { sessionId: session.sessionId, ...invalid },
        { sessionId: session.sessionId, ...good2 }
      ])
      const deliveries = yield* relay.getResponses(session.sessionId)
      const summary = deliveries.map((d: RelayDelivery) =>
        d._tag === "Response" ? d.response.interactionId : d.error._tag
      )
      expect(summary).toEqual([
        "a",
        "RadixConnectRelayRequestFailed",
        "FailedToDecryptWalletResponseData",
        "FailedToDecryptWalletResponseData",
        "FailedToDecryptWalletResponseData",
        "FailedToDeriveSharedSecret",
        "FailedToDecryptWalletResponseData",
        "d",
        "b"
      ])
      expect(fake.calls[0]).toMatchObject({
        url: "https://radix-connect-relay.radixdlt.com/api/v1",
        body: { method: "getResponses", sessionId: session.sessionId },
        contentType: "text/plain;charset=UTF-8"
      })
    }).pipe(Effect.provide(relayLayer(fake)))
  })

  it.effect("a response that decrypts but does not decode gives walletResponseValidation for its interactionId", () => {
    const fake = fakeRelay()
    return Effect.gen(function* () {
      const relay = yield* Relay
      const dApp = yield* relay.getIdentity
      const enc = yield* encryptWalletResponse({
        response: {
          discriminator: "success",
          interactionId: "e",
          items: { discriminator: "transaction", send: { transactionIntentHash: "t" } }
        },
        walletSecret: fromHex(relayExample.walletSecret),
        dAppPublicKey: dApp.publicKey,
        dAppDefinitionAddress: sig.dAppDefinitionAddress
      })
      const result = yield* Effect.either(relay.decryptEntry({ ...enc }))
      expect(Either.isRight(result)).toBe(true)
      const bodyOk = sendResponseBody("s", enc)
      expect(Object.keys(bodyOk)).toEqual(["method", "sessionId", "publicKey", "data"])
    }).pipe(Effect.provide(relayLayer(fake)))
  })
})

describe("Relay polling", () => {
  it.effect("polls every 1.5 s while anything is pending, and not otherwise", () => {
    const fake = fakeRelay()
    return Effect.gen(function* () {
      const relay = yield* Relay
      const pending = yield* Ref.make(true)
      const fiber = yield* Effect.fork(relay.poll({ hasPending: Ref.get(pending), deliver: () => Effect.void }))
      yield* TestClock.adjust("1499 millis")
      expect(fake.calls.map((c) => c.at)).toEqual([0])
      yield* TestClock.adjust("1 millis")
      yield* TestClock.adjust("3 seconds")
      expect(fake.calls.map((c) => c.at)).toEqual([0, 1500, 3000, 4500])
      yield* Ref.set(pending, false)
      yield* TestClock.adjust("6 seconds")
      expect(fake.calls).toHaveLength(4)
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(relayLayer(fake)))
  })

  it.effect("a fetch failure is retried; any other error stops the poll with failedToPoll", () => {
    const fake = fakeRelay()
    fake.mode = "fetchError"
    return Effect.gen(function* () {
      const relay = yield* Relay
      const fiber = yield* Effect.fork(
        Effect.either(relay.poll({ hasPending: Effect.succeed(true), deliver: () => Effect.void }))
      )
      yield* TestClock.adjust("3 seconds")
      expect(fake.calls).toHaveLength(3)
      fake.mode = "status500"
      yield* TestClock.adjust("1500 millis")
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("failedToPoll")
      expect(fake.calls).toHaveLength(4)
    }).pipe(Effect.provide(relayLayer(fake)))
  })

  it.effect("delivers every good entry of a batch to the caller", () => {
    const fake = fakeRelay()
    return Effect.gen(function* () {
      const relay = yield* Relay
      const session = yield* relay.getSession
      const dApp = yield* relay.getIdentity
      const enc = (id: string) =>
        encryptWalletResponse({
          response: failure(id),
          walletSecret: fromHex(relayExample.walletSecret),
          dAppPublicKey: dApp.publicKey,
          dAppDefinitionAddress: sig.dAppDefinitionAddress
        })
      fake.store.set(session.sessionId, [yield* enc("a"), { error: "x" }, yield* enc("b")])
      const got = yield* Ref.make<ReadonlyArray<string>>([])
      const three = yield* Deferred.make<void>()
      const fiber = yield* Effect.fork(
        relay.poll({
          hasPending: Effect.succeed(true),
          deliver: (d) =>
            Ref.updateAndGet(got, (all) => [
              ...all,
              d._tag === "Response" ? d.response.interactionId : d.error._tag
            ]).pipe(Effect.flatMap((all) => (all.length === 3 ? Deferred.succeed(three, undefined) : Effect.void)))
        })
      )
      // Decryption goes through WebCrypto (a real Promise), so wait for the deliveries rather than the clock.
      yield* Deferred.await(three)
      expect(yield* Ref.get(got)).toEqual(["a", "RadixConnectRelayRequestFailed", "b"])
      expect(fake.calls).toHaveLength(1)
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(relayLayer(fake)))
  })
})
