/** Adaptive concurrency and retries, on the TestClock (no real sleeps). */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Clock, Effect, Either, Fiber, TestClock } from "effect"
import { makeLimiter } from "../../src/gateway/limiter.js"
import { fakeHttp, ledgerState, withGateway, forEachTransport } from "./support.js"

const healthy = () => "healthy" as const
const overload = () => "overload" as const

describe("adaptive limiter", () => {
  it.effect("starts at 4 in flight, doubles each healthy round trip, never above the cap", () =>
    Effect.gen(function* () {
      const limiter = yield* makeLimiter({ initial: 4, max: 24 })
      const fiber = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 200 }), () => limiter.run(Effect.sleep("20 millis"), healthy), {
          concurrency: "unbounded"
        })
      )
      yield* TestClock.adjust("0 millis")
      const inFlight: Array<number> = [limiter.state().inFlight]
      for (let i = 0; i < 4; i++) {
        yield* TestClock.adjust("20 millis")
        inFlight.push(limiter.state().inFlight)
      }
      expect(inFlight).toEqual([4, 8, 16, 24, 24])
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      expect(limiter.state().peak).toBe(24)
    })
  )

  it.effect("a burst of overload answers halves the limit once, not once per answer; the queue keeps going", () =>
    Effect.gen(function* () {
      const limiter = yield* makeLimiter({ initial: 16, max: 64 })
      const fiber = yield* Effect.fork(
        Effect.forEach(Array.from({ length: 40 }), () => limiter.run(Effect.sleep("20 millis"), overload), {
          concurrency: "unbounded"
        })
      )
      yield* TestClock.adjust("0 millis")
      expect(limiter.state().inFlight).toBe(16)
      yield* TestClock.adjust("20 millis")
      expect(limiter.state()).toMatchObject({ limit: 8, halvings: 1, inFlight: 8 })
      yield* TestClock.adjust("20 millis")
      expect(limiter.state()).toMatchObject({ limit: 4, halvings: 2, inFlight: 4 })
      yield* TestClock.adjust("1 second")
      yield* Fiber.join(fiber)
      expect(limiter.state()).toMatchObject({ limit: 1, inFlight: 0, waiting: 0 })
    })
  )

  it.effect(
    "after a halving it grows again by one per round trip (above the threshold), and the failure's error is classified",
    () =>
      Effect.gen(function* () {
        const limiter = yield* makeLimiter({ initial: 8, max: 64 })
        yield* Effect.either(limiter.run(Effect.fail("busy"), (r) => (r._tag === "Failure" ? "overload" : "healthy")))
        expect(limiter.state().limit).toBe(4)
        for (let i = 0; i < 4; i++) yield* limiter.run(Effect.void, healthy)
        expect(limiter.state().limit).toBe(4)
        for (let i = 0; i < 4; i++) yield* limiter.run(Effect.void, healthy)
        expect(limiter.state().limit).toBe(5)
      })
  )

  it.effect("no request starts before a pause ends", () =>
    Effect.gen(function* () {
      const limiter = yield* makeLimiter({ initial: 4, max: 4 })
      const started: Array<string> = []
      limiter.pauseUntil(1000)
      const fiber = yield* Effect.fork(
        limiter.run(
          Effect.sync(() => started.push("a")),
          healthy
        )
      )
      yield* TestClock.adjust("999 millis")
      expect(started).toEqual([])
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(started).toEqual(["a"])
    })
  )

  it.effect("a slot freed during a pause goes to nobody; when it ends the waiting retries start first", () =>
    Effect.gen(function* () {
      const limiter = yield* makeLimiter({ initial: 1, max: 1 })
      const order: Array<string> = []
      const job = (name: string, priority: boolean) =>
        Effect.fork(
          limiter.run(
            Effect.sync(() => order.push(name)),
            healthy,
            priority
          )
        )
      const holder = yield* Effect.fork(limiter.run(Effect.sleep("10 millis"), healthy))
      yield* TestClock.adjust("0 millis")
      const queued = [yield* job("first", false), yield* job("retry-1", true), yield* job("retry-2", true)]
      yield* TestClock.adjust("0 millis")
      limiter.pauseUntil(1000)
      yield* TestClock.adjust("10 millis")
      yield* Fiber.join(holder)
      // The holder's slot is free, but the pause holds the queue.
      expect(limiter.state()).toMatchObject({ inFlight: 0, waiting: 3 })
      expect(order).toEqual([])
      yield* TestClock.adjust("989 millis")
      expect(order).toEqual([])
      yield* TestClock.adjust("1 millis")
      for (const f of queued) yield* Fiber.join(f)
      expect(order).toEqual(["retry-1", "retry-2", "first"])
    })
  )

  it.effect("a pause with nobody waiting sets no timer; the first waiter sets one", () =>
    Effect.gen(function* () {
      const limiter = yield* makeLimiter({ initial: 1, max: 1 })
      limiter.pauseUntil(5000)
      expect(Chunk.size(yield* TestClock.sleeps())).toBe(0)
      const waiter = yield* Effect.fork(limiter.run(Effect.void, healthy))
      yield* TestClock.adjust("0 millis")
      expect(Chunk.toReadonlyArray(yield* TestClock.sleeps())).toEqual([5000])
      yield* TestClock.adjust("5 seconds")
      yield* Fiber.join(waiter)
      expect(limiter.state()).toMatchObject({ inFlight: 0, waiting: 0 })
    })
  )

  it.effect("waiting requests start in order, retries before first attempts", () =>
    Effect.gen(function* () {
      const limiter = yield* makeLimiter({ initial: 1, max: 1 })
      const order: Array<string> = []
      const run = (name: string, priority: boolean) =>
        Effect.fork(
          limiter.run(
            Effect.sync(() => order.push(name)),
            healthy,
            priority
          )
        )
      const holder = yield* Effect.fork(limiter.run(Effect.sleep("10 millis"), healthy))
      yield* TestClock.adjust("0 millis")
      const fibers = [yield* run("first", false), yield* run("second", false), yield* run("retry", true)]
      yield* TestClock.adjust("0 millis")
      expect(limiter.state().waiting).toBe(3)
      yield* TestClock.adjust("10 millis")
      yield* Fiber.join(holder)
      for (const f of fibers) yield* Fiber.join(f)
      expect(order).toEqual(["retry", "first", "second"])
    })
  )

  it.effect("an interrupted waiter gives its place up; an interrupted request gives its slot back", () =>
    Effect.gen(function* () {
      const limiter = yield* makeLimiter({ initial: 1, max: 1 })
      const running = yield* Effect.fork(limiter.run(Effect.sleep("1 second"), healthy))
      const waiting = yield* Effect.fork(limiter.run(Effect.void, healthy))
      yield* TestClock.adjust("0 millis")
      expect(limiter.state()).toMatchObject({ inFlight: 1, waiting: 1 })
      yield* Fiber.interrupt(waiting)
      yield* Fiber.interrupt(running)
      expect(limiter.state()).toMatchObject({ inFlight: 0, waiting: 0, limit: 1 })
      yield* limiter.run(Effect.void, healthy)
    })
  )
})

forEachTransport(() => {
  describe("retries through the client", () => {
    const status = {
      ledger_state: ledgerState(5),
      status: "Pending",
      intent_status: "Pending",
      intent_status_description: "pending",
      known_payloads: []
    }

    it.effect("a 429 with retry-after: 2 is retried after exactly 2 s, and no other request starts meanwhile", () =>
      Effect.gen(function* () {
        let calls = 0
        const fake = fakeHttp(() =>
          Effect.sync(() =>
            ++calls === 1
              ? { status: 429, headers: { "retry-after": "2" }, body: { message: "slow down", code: 429 } }
              : { body: status }
          )
        )
        const fiber = yield* Effect.fork(
          withGateway(fake, (g) =>
            Effect.all([g.transaction.status("txid_1"), Effect.delay(g.transaction.status("txid_2"), "10 millis")], {
              concurrency: "unbounded"
            })
          )
        )
        yield* TestClock.adjust("1999 millis")
        expect(fake.recorded).toHaveLength(1)
        yield* TestClock.adjust("1 millis")
        const [a, b] = yield* Fiber.join(fiber)
        expect(a.intent_status).toBe("Pending")
        expect(b.intent_status).toBe("Pending")
        expect(fake.recorded).toHaveLength(3)
      })
    )

    it.effect(
      "under a steady rate limit (fixed 1 s windows, 429 + Retry-After) every read completes, and none is sent while the client is told to wait",
      () =>
        Effect.gen(function* () {
          const rate = 20
          const reads = 240
          let window = { start: Number.NEGATIVE_INFINITY, count: 0 }
          /** Until when the server told the client to stay away (the latest 429's Retry-After). */
          let closedUntil = 0
          let sentWhileClosed = 0
          const refusals = new Map<string, number>()
          const fake = fakeHttp((req) =>
            Effect.gen(function* () {
              const now = yield* Clock.currentTimeMillis
              if (now < closedUntil) sentWhileClosed += 1
              if (now - window.start >= 1000) window = { start: now, count: 0 }
              window.count += 1
              const refused = window.count > rate
              const retryAfter = Math.max(1, Math.ceil((window.start + 1000 - now) / 1000))
              yield* Effect.sleep("20 millis")
              if (!refused) return { body: status }
              const key = JSON.stringify(req.body)
              refusals.set(key, (refusals.get(key) ?? 0) + 1)
              closedUntil = Math.max(closedUntil, (yield* Clock.currentTimeMillis) + retryAfter * 1000)
              return {
                status: 429,
                headers: { "retry-after": String(retryAfter) },
                body: { message: "Too many requests", code: 429 }
              }
            })
          )
          const fiber = yield* Effect.fork(
            withGateway(fake, (g) =>
              Effect.forEach(
                Array.from({ length: reads }, (_, i) => i),
                (i) => Effect.either(g.transaction.status(`txid_${i}`)),
                { concurrency: "unbounded" }
              )
            )
          )
          while ((yield* Fiber.poll(fiber))._tag === "None") yield* TestClock.adjust("20 millis")
          const results = yield* Fiber.join(fiber)
          expect(results.filter(Either.isLeft)).toEqual([])
          expect(sentWhileClosed).toBe(0)
          // Retries go first after a pause, so no read is turned away more than twice here (the cap is 3 retries).
          expect(Math.max(...refusals.values())).toBeLessThanOrEqual(2)
        })
    )

    it.effect("retries are capped: always 503 gives 1 + retries attempts, then the error", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ status: 503, body: { message: "down", code: 503 } }))
        const fiber = yield* Effect.fork(
          Effect.either(withGateway(fake, (g) => g.transaction.status("txid_1"), { retry: { retries: 2 } }))
        )
        yield* TestClock.adjust("1 minute")
        const result = yield* Fiber.join(fiber)
        expect(Either.isLeft(result) && result.left._tag).toBe("GatewayResponseError")
        expect(fake.recorded).toHaveLength(3)
      })
    )

    it.effect("/transaction/submit is never retried, even on 429 or 503", () =>
      Effect.gen(function* () {
        for (const code of [429, 503]) {
          const fake = fakeHttp(() =>
            Effect.succeed({ status: code, headers: { "retry-after": "1" }, body: { message: "no", code } })
          )
          const fiber = yield* Effect.fork(Effect.either(withGateway(fake, (g) => g.transaction.submit("00ff"))))
          yield* TestClock.adjust("1 minute")
          const result = yield* Fiber.join(fiber)
          expect(Either.isLeft(result)).toBe(true)
          expect(fake.recorded).toHaveLength(1)
        }
      })
    )
  })
})
