import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, Option, TestClock } from "effect"
import { Extension, SENT_KEPT } from "../../src/toolkit/extension.js"
import type { WalletInteraction } from "../../src/toolkit/schemas.js"
import { Storage } from "../../src/toolkit/storage.js"
import { fakeExtension, type FakeExtension } from "./fakes.js"
import { baseLayer, dAppDefinitionAddress, origin } from "./layers.js"

const metadata = { version: 2 as const, dAppDefinitionAddress, networkId: 2, origin }
const authorized = (interactionId: string): WalletInteraction => ({
  items: {
    discriminator: "authorizedRequest",
    auth: { discriminator: "loginWithoutChallenge" },
    ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 } },
    reset: { accounts: false, personaData: false }
  },
  interactionId,
  metadata
})
const transaction = (interactionId: string): WalletInteraction => ({
  items: { discriminator: "transaction", send: { transactionManifest: "CALL_METHOD;", version: 1 } },
  interactionId,
  metadata
})
const failure = (interactionId: string) => ({ discriminator: "failure", interactionId, error: "rejectedByUser" })
const success = (interactionId: string) => ({
  discriminator: "success",
  interactionId,
  items: { discriminator: "transaction", send: { transactionIntentHash: "txid_1" } }
})

const withFake = (fake: FakeExtension) => Layer.provideMerge(Extension.Test(fake.target), baseLayer())
const idOf = (m: Record<string, unknown>) => String(m["interactionId"])

describe("Extension detection", () => {
  it.effect("an asynchronous status reply: available, linked, sessions", () => {
    const fake = fakeExtension({ status: "async", isWalletLinked: true, canHandleSessions: true })
    return Effect.gen(function* () {
      const ext = yield* Extension
      yield* ext.detected
      expect(yield* ext.getStatus).toEqual({
        isExtensionAvailable: true,
        isWalletLinked: true,
        canHandleSessions: true
      })
      expect(fake.received[0]).toMatchObject({ discriminator: "extensionStatus" })
      expect(idOf(fake.received[0] ?? {})).toMatch(/^[0-9a-f-]{36}$/)
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("a status reply sent synchronously inside the probe's dispatch is not lost", () => {
    const fake = fakeExtension({ status: "sync", isWalletLinked: false })
    return Effect.gen(function* () {
      const ext = yield* Extension
      const status = yield* ext.getStatus
      expect(status).toMatchObject({ isExtensionAvailable: true, isWalletLinked: false })
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("no answer within 200 ms: missing; a send fails with missingExtension instead of hanging", () => {
    const fake = fakeExtension({ status: "none" })
    return Effect.gen(function* () {
      const ext = yield* Extension
      const fiber = yield* Effect.fork(Effect.either(ext.send(authorized("i-1"))))
      yield* TestClock.adjust("199 millis")
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      yield* TestClock.adjust("1 millis")
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("missingExtension")
      expect(Either.isLeft(result) && result.left.message).toBe("extension could not be found")
      expect((yield* ext.getStatus).isExtensionAvailable).toBe(false)
      expect(fake.received.filter((m) => m["discriminator"] === "walletInteraction")).toHaveLength(0)
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("unprompted status updates are followed", () => {
    const fake = fakeExtension({ status: "async", isWalletLinked: false })
    return Effect.gen(function* () {
      const ext = yield* Extension
      yield* ext.detected
      fake.reply({
        eventType: "extensionStatus",
        isExtensionAvailable: true,
        isWalletLinked: true,
        canHandleSessions: true
      })
      expect((yield* ext.getStatus).isWalletLinked).toBe(true)
    }).pipe(Effect.provide(withFake(fake)))
  })
})

describe("Extension send", () => {
  it.effect("wraps with a sessionId created on the first authorized request and stored; answers asynchronously", () => {
    const fake = fakeExtension({
      onInteraction: (m, f) => void f.replyLater(failure(idOf(m)))
    })
    return Effect.gen(function* () {
      const ext = yield* Extension
      const storage = yield* Storage
      const first = yield* ext.send(authorized("i-1"))
      expect(first).toEqual(failure("i-1"))
      const wrapped = fake.received.find((m) => m["discriminator"] === "walletInteraction")
      expect(Object.keys(wrapped ?? {})).toEqual(["interactionId", "interaction", "sessionId", "discriminator"])
      const sessionId = String(wrapped?.["sessionId"])
      expect(yield* storage.connectorExtension.get).toEqual(Option.some({ sessionId }))
      yield* ext.send(authorized("i-2"))
      yield* ext.send(transaction("i-3"))
      const all = fake.received.filter((m) => m["discriminator"] === "walletInteraction")
      expect(all.map((m) => m["sessionId"])).toEqual([sessionId, sessionId, sessionId])
      yield* ext.disconnect
      expect(yield* storage.connectorExtension.get).toEqual(Option.none())
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("a non-authorized request carries no sessionId before one exists", () => {
    const fake = fakeExtension({ onInteraction: (m, f) => f.reply(success(idOf(m))) })
    return Effect.gen(function* () {
      const ext = yield* Extension
      expect(yield* ext.send(transaction("t-1"))).toEqual(success("t-1"))
      const wrapped = fake.received.find((m) => m["discriminator"] === "walletInteraction")
      expect(wrapped && "sessionId" in wrapped).toBe(false)
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("a response sent synchronously inside the dispatch resolves the send", () => {
    const fake = fakeExtension({ onInteraction: (m, f) => f.reply(success(idOf(m))) })
    return Effect.gen(function* () {
      const ext = yield* Extension
      expect(yield* ext.send(transaction("t-1"))).toEqual(success("t-1"))
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("legacy mode: the bare interaction when canHandleSessions is false", () => {
    const fake = fakeExtension({
      canHandleSessions: false,
      onInteraction: (m, f) => void f.replyLater(success(idOf(m)))
    })
    return Effect.gen(function* () {
      const ext = yield* Extension
      yield* ext.send(transaction("t-1"))
      const bare = fake.received.find((m) => "items" in m)
      expect(bare).toEqual(transaction("t-1"))
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("lifecycle events reach the hook; a response for another id does not resolve", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const ext = yield* Extension
      const events: Array<string> = []
      const fiber = yield* Effect.fork(
        ext.send(transaction("t-1"), { onLifecycleEvent: (e) => Effect.sync(() => events.push(e)) })
      )
      yield* Effect.yieldNow()
      fake.reply({ eventType: "receivedByWallet", interactionId: "t-1" })
      fake.reply(success("other"))
      fake.reply({ eventType: "receivedByWallet", interactionId: "other" })
      yield* TestClock.adjust("10 seconds")
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      fake.reply(success("t-1"))
      expect(yield* Fiber.join(fiber)).toEqual(success("t-1"))
      expect(events).toEqual(["receivedByExtension", "receivedByWallet"])
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("an extension that never acknowledges the request: missingExtension after 200 ms", () => {
    const fake = fakeExtension({ ackSynchronously: false })
    return Effect.gen(function* () {
      const ext = yield* Extension
      yield* ext.detected
      const fiber = yield* Effect.fork(Effect.either(ext.send(transaction("t-1"))))
      yield* TestClock.adjust("200 millis")
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("missingExtension")
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("a malformed or oversized response for the request gives walletResponseValidation", () => {
    const fake = fakeExtension({
      onInteraction: (m, f) =>
        void f.replyLater(
          idOf(m) === "t-1"
            ? { discriminator: "success", interactionId: "t-1", items: { discriminator: "transaction", send: {} } }
            : { ...failure(idOf(m)), message: "x".repeat(1_100_000) }
        )
    })
    return Effect.gen(function* () {
      const ext = yield* Extension
      const bad = yield* Effect.either(ext.send(transaction("t-1")))
      expect(Either.isLeft(bad) && bad.left._tag).toBe("walletResponseValidation")
      expect(Either.isLeft(bad) && bad.left.message).toBe("Invalid input")
      const huge = yield* Effect.either(ext.send(transaction("t-2")))
      expect(Either.isLeft(huge) && huge.left._tag).toBe("walletResponseValidation")
    }).pipe(Effect.provide(withFake(fake)))
  })
})

describe("Extension cancel and popup", () => {
  it.effect("sessions: cancelWalletInteraction, answered requestCancelSuccess; the send fails canceledByUser", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const ext = yield* Extension
      const send = yield* Effect.fork(Effect.either(ext.send(transaction("t-1"))))
      yield* Effect.yieldNow()
      const cancel = yield* Effect.fork(ext.cancel(transaction("t-1")))
      yield* Effect.yieldNow()
      expect(fake.received.at(-1)).toEqual({ interactionId: "t-1", metadata, discriminator: "cancelWalletInteraction" })
      fake.reply({ eventType: "requestCancelSuccess", interactionId: "t-1" })
      expect(yield* Fiber.join(cancel)).toBe("requestCancelSuccess")
      const sent = yield* Fiber.join(send)
      expect(Either.isLeft(sent) && sent.left._tag).toBe("canceledByUser")
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("legacy: the cancelRequest item; a response that came first gives requestCancelFail", () => {
    const fake = fakeExtension({ canHandleSessions: false })
    return Effect.gen(function* () {
      const ext = yield* Extension
      yield* ext.detected
      const cancel = yield* Effect.fork(ext.cancel(transaction("t-1")))
      yield* Effect.yieldNow()
      expect(fake.received.at(-1)).toEqual({
        interactionId: "t-1",
        metadata,
        items: { discriminator: "cancelRequest" }
      })
      fake.reply(success("t-1"))
      expect(yield* Fiber.join(cancel)).toBe("requestCancelFail")
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("what it dispatched is kept for diagnostics, the latest SENT_KEPT messages only", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const ext = yield* Extension
      for (let i = 0; i < SENT_KEPT + 50; i++) yield* ext.openPopup
      const sent = yield* ext.sent
      expect(sent).toHaveLength(SENT_KEPT)
      expect(fake.received.filter((m) => m["discriminator"] === "openPopup")).toHaveLength(SENT_KEPT + 50)
    }).pipe(Effect.provide(withFake(fake)))
  })

  it.effect("openPopup dispatches the bare popup message", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const ext = yield* Extension
      yield* ext.openPopup
      expect(fake.received.at(-1)).toEqual({ discriminator: "openPopup" })
    }).pipe(Effect.provide(withFake(fake)))
  })
})
