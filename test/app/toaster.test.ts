import { it } from "@effect/vitest"
import { Effect, Fiber, Random, Layer, TestClock } from "effect"
import { KeyValueStore } from "@effect/platform"
import { describe, expect } from "vitest"
import { TOAST_REMOVE_DELAY, Toaster } from "../../src/app/services/Toaster"
import { ValidatorSupport, VALIDATOR_DISMISSED_KEY } from "../../src/app/services/ValidatorSupport"

const titles = Effect.map(Toaster.current, (ts) => ts.map((t) => `${t.title}:${t.open ? "open" : "closed"}`))

describe("Toaster", () => {
  it.effect("keeps one toast at a time, newest first", () =>
    Effect.gen(function* () {
      yield* Toaster.show({ title: "first" })
      yield* Toaster.show({ title: "second" })
      expect(yield* titles).toEqual(["second:open"])
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

describe("ValidatorSupport.autoOpen", () => {
  it.effect("opens only once per app lifetime, even when the draw would open it again", () =>
    Effect.gen(function* () {
      const first = yield* Effect.fork(ValidatorSupport.autoOpen)
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(first)).toBe(true)
      const second = yield* Effect.fork(ValidatorSupport.autoOpen)
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(second)).toBe(false)
    }).pipe(Effect.provide(validator([0.1])))
  )

  it.effect("does not open before 10 s", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(ValidatorSupport.autoOpen)
      yield* TestClock.adjust("9999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe(true)
    }).pipe(Effect.provide(validator([0.89])))
  )

  it.effect("a stored flag other than 'true' does not block it", () =>
    Effect.gen(function* () {
      const fiber = yield* Effect.fork(ValidatorSupport.autoOpen)
      yield* TestClock.adjust("10 seconds")
      expect(yield* Fiber.join(fiber)).toBe(true)
    }).pipe(Effect.provide(validator([0.5], { [VALIDATOR_DISMISSED_KEY]: "false" })))
  )
})
