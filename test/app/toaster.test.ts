import { it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Random, Stream, SubscriptionRef, TestClock } from "effect"
import { KeyValueStore } from "@effect/platform"
import { describe, expect } from "vitest"
import { TOAST_REMOVE_DELAY, Toaster } from "../../src/app/services/Toaster"
import { ValidatorSupport, VALIDATOR_DISMISSED_KEY } from "../../src/app/services/ValidatorSupport"

const titles = Effect.map(Toaster.current, (ts) => ts.map((t) => `${t.title}:${t.open ? "open" : "closed"}`))

describe("Toaster", () => {
  it.effect("shows one toast at a time; the next waits and then gets its whole duration", () =>
    Effect.gen(function* () {
      yield* Toaster.show({ title: "first" })
      yield* TestClock.adjust("1 second")
      yield* Toaster.show({ title: "second", duration: "3 seconds" })
      expect(yield* titles).toEqual(["first:open"])
      expect(yield* Toaster.waiting).toBe(1)
      yield* TestClock.adjust("4 seconds")
      expect(yield* titles).toEqual(["second:open", "first:closed"])
      yield* TestClock.adjust("2999 millis")
      expect(yield* titles).toEqual(["second:open", "first:closed"])
      yield* TestClock.adjust("1 millis")
      expect(yield* titles).toEqual(["second:closed", "first:closed"])
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("the welcome toast waits behind a 'Wallet Connected' toast, which keeps its 5 s", () =>
    Effect.gen(function* () {
      yield* Toaster.show({ title: "Wallet Connected", duration: "5 seconds" })
      yield* TestClock.adjust("1 second")
      yield* Toaster.show({ title: "Welcome", variant: "welcome", duration: "10 seconds" })
      expect(yield* titles).toEqual(["Wallet Connected:open"])
      yield* TestClock.adjust("4 seconds")
      expect(yield* titles).toEqual(["Welcome:open", "Wallet Connected:closed"])
      yield* TestClock.adjust("9999 millis")
      expect((yield* titles)[0]).toBe("Welcome:open")
      yield* TestClock.adjust("1 millis")
      expect((yield* titles)[0]).toBe("Welcome:closed")
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("a toast that outranks the welcome shows at once; the welcome comes back with the time it had left", () =>
    Effect.gen(function* () {
      yield* Toaster.show({ title: "Welcome", variant: "welcome", duration: "10 seconds" })
      yield* TestClock.adjust("4 seconds")
      yield* Toaster.show({ title: "Wallet Connected", duration: "5 seconds" })
      expect(yield* titles).toEqual(["Wallet Connected:open"])
      yield* TestClock.adjust("4999 millis")
      expect(yield* titles).toEqual(["Wallet Connected:open"])
      yield* TestClock.adjust("1 millis")
      expect(yield* titles).toEqual(["Welcome:open", "Wallet Connected:closed"])
      // 10 s in all: 4 s before, 6 s now.
      yield* TestClock.adjust("5999 millis")
      expect((yield* titles)[0]).toBe("Welcome:open")
      yield* TestClock.adjust("1 millis")
      expect((yield* titles)[0]).toBe("Welcome:closed")
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("failures go before ordinary toasts in the queue, each in the order it came", () =>
    Effect.gen(function* () {
      yield* Toaster.show({ title: "a", duration: "1 second" })
      yield* Toaster.show({ title: "b", duration: "1 second" })
      yield* Toaster.show({ title: "welcome", variant: "welcome", duration: "1 second" })
      yield* Toaster.show({ title: "failed", variant: "destructive", duration: "1 second" })
      const order: Array<string> = []
      for (let i = 0; i < 4; i++) {
        const open = (yield* Toaster.current).find((t) => t.open)
        order.push(open?.title ?? "-")
        yield* TestClock.adjust("1 second")
      }
      // 'failed' outranked 'a' on screen, so 'a' stepped back to the head of the queue with its time left.
      expect(order).toEqual(["failed", "a", "b", "welcome"])
      expect((yield* Toaster.current).every((t) => !t.open)).toBe(true)
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("dismissing the toast on screen shows the next one; dismissing all empties the queue", () =>
    Effect.gen(function* () {
      const first = yield* Toaster.show({ title: "first", duration: "1 hour" })
      yield* Toaster.show({ title: "second", duration: "1 hour" })
      yield* Toaster.show({ title: "third", duration: "1 hour" })
      yield* Toaster.dismiss(first)
      expect((yield* titles)[0]).toBe("second:open")
      yield* Toaster.dismiss()
      expect(yield* Toaster.waiting).toBe(0)
      expect((yield* Toaster.current).some((t) => t.open)).toBe(false)
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("closes after the default 5000 ms and removes the closed toast after 1,000,000 ms", () =>
    Effect.gen(function* () {
      yield* Toaster.show({ title: "hello" })
      yield* TestClock.adjust("4999 millis")
      expect(yield* titles).toEqual(["hello:open"])
      yield* TestClock.adjust("1 millis")
      expect(yield* titles).toEqual(["hello:closed"])
      yield* TestClock.adjust(TOAST_REMOVE_DELAY)
      expect(yield* titles).toEqual([])
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("honours a toast's own duration (rate limit 10 s, route selection 2 s)", () =>
    Effect.gen(function* () {
      yield* Toaster.show({ title: "route", duration: "2 seconds" })
      yield* TestClock.adjust("1999 millis")
      expect(yield* titles).toEqual(["route:open"])
      yield* TestClock.adjust("1 millis")
      expect(yield* titles).toEqual(["route:closed"])
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("pausing keeps the toast open; resuming counts down what was left", () =>
    Effect.gen(function* () {
      const id = yield* Toaster.show({ title: "paused" })
      yield* TestClock.adjust("3 seconds")
      yield* Toaster.pause(id)
      yield* TestClock.adjust("1 minute")
      expect(yield* titles).toEqual(["paused:open"])
      yield* Toaster.resume(id)
      yield* TestClock.adjust("1999 millis")
      expect(yield* titles).toEqual(["paused:open"])
      yield* TestClock.adjust("1 millis")
      expect(yield* titles).toEqual(["paused:closed"])
    }).pipe(Effect.provide(Toaster.Default))
  )

  it.effect("dismiss closes at once; a dismissed toast is removed after the removal delay", () =>
    Effect.gen(function* () {
      const id = yield* Toaster.show({ title: "bye", duration: "1 hour" })
      yield* Toaster.dismiss(id)
      expect(yield* titles).toEqual(["bye:closed"])
      yield* TestClock.adjust("999999 millis")
      expect(yield* titles).toEqual(["bye:closed"])
      yield* TestClock.adjust("1 millis")
      expect(yield* titles).toEqual([])
    }).pipe(Effect.provide(Toaster.Default))
  )
})

const validator = (random: [number, ...Array<number>], stored: Record<string, string> = {}) =>
  ValidatorSupport.Default.pipe(
    Layer.provide(
      Layer.effect(
        KeyValueStore.KeyValueStore,
        Effect.gen(function* () {
          const kv = yield* KeyValueStore.KeyValueStore
          for (const [k, v] of Object.entries(stored)) yield* kv.set(k, v)
          return kv
        })
      ).pipe(Layer.provide(KeyValueStore.layerMemory), Layer.orDie)
    ),
    Layer.provideMerge(Layer.setRandom(Random.fixed(random)))
  )

const autoOpen = (quiet: Stream.Stream<boolean> = Stream.make(true)) =>
  Effect.flatMap(ValidatorSupport, (v) => v.autoOpen(quiet))

describe("ValidatorSupport.autoOpen", () => {
  it.effect("opens only once per app lifetime, even when the draw would open it again", () =>
    Effect.gen(function* () {
      const first = yield* Effect.fork(autoOpen())
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(first)).toBe(true)
      const second = yield* Effect.fork(autoOpen())
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(second)).toBe(false)
    }).pipe(Effect.provide(validator([0.1])))
  )

  it.effect("does not open before 10 s", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(autoOpen())
      yield* TestClock.adjust("9999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe(true)
    }).pipe(Effect.provide(validator([0.89])))
  )

  it.effect("the 10% draw keeps it closed", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(autoOpen())
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(fiber)).toBe(false)
    }).pipe(Effect.provide(validator([0.9])))
  )

  it.effect("a stored flag other than 'true' does not block it", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(autoOpen())
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(fiber)).toBe(true)
    }).pipe(Effect.provide(validator([0.5], { [VALIDATOR_DISMISSED_KEY]: "false" })))
  )

  it.effect("waits while the page is busy, and opens a second after it has become quiet", () =>
    Effect.gen(function* () {
      const busy = yield* SubscriptionRef.make(false)
      const opened = yield* Effect.flatMap(ValidatorSupport, (v) => Stream.runHead(v.open))
      expect(Option.getOrUndefined(opened)).toBe(false)
      const fiber = yield* Effect.fork(autoOpen(Stream.map(busy.changes, (b) => !b)))
      yield* TestClock.adjust("5 seconds")
      // A dialog opens at 5 s and stays open past the 10 s mark.
      yield* SubscriptionRef.set(busy, true)
      yield* TestClock.adjust("20 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* SubscriptionRef.set(busy, false)
      yield* TestClock.adjust("999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe(true)
    }).pipe(Effect.provide(validator([0.1])))
  )

  it.effect("a quiet moment shorter than a second does not count, and a dialog opened before 10 s holds it", () =>
    Effect.gen(function* () {
      const busy = yield* SubscriptionRef.make(false)
      const fiber = yield* Effect.fork(autoOpen(Stream.map(busy.changes, (b) => !b)))
      // Busy from 9.5 s: settled since 1 s, but not at 10 s.
      yield* TestClock.adjust("9500 millis")
      yield* SubscriptionRef.set(busy, true)
      yield* TestClock.adjust("1 second")
      expect(fiber.unsafePoll()).toBeNull()
      // Quiet for half a second, busy again (a swap's own dialog following its end).
      yield* SubscriptionRef.set(busy, false)
      yield* TestClock.adjust("500 millis")
      yield* SubscriptionRef.set(busy, true)
      yield* TestClock.adjust("1 minute")
      expect(fiber.unsafePoll()).toBeNull()
      yield* SubscriptionRef.set(busy, false)
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(fiber)).toBe(true)
    }).pipe(Effect.provide(validator([0.1])))
  )

  it.effect("quiet since load opens it at exactly 10 s", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(autoOpen(Stream.make(true)))
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(fiber)).toBe(true)
    }).pipe(Effect.provide(validator([0.1])))
  )
})
