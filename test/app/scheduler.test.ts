import { Effect, Exit, Fiber, ManagedRuntime, Scheduler } from "effect"
import { describe, expect, it } from "vitest"
import { makeSlicedScheduler, withSlicedScheduler } from "../../src/app/runtime/scheduler"

/** A hand-driven clock and task queue: nothing runs in a later task until the test says so. */
const harness = (sliceMs = 8) => {
  let time = 0
  const later: Array<() => void> = []
  const scheduler = makeSlicedScheduler({ sliceMs, now: () => time, macrotask: (f) => later.push(f) })
  /** Runs the queued tasks (and what they queue) in order, letting microtasks settle after each. */
  const runTasks = async () => {
    while (later.length > 0) {
      later.shift()?.()
      await Promise.resolve()
      await Promise.resolve()
    }
  }
  return {
    scheduler,
    advance: (ms: number) => {
      time += ms
    },
    pendingTasks: () => later.length,
    runTasks
  }
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

describe("the sliced scheduler", () => {
  it("lets a long-running fiber go on within its slice and in microtasks", async () => {
    const h = harness()
    let done = 0
    const fiber = Effect.runFork(
      Effect.forEach(Array.from({ length: 5000 }), () => Effect.sync(() => (done += 1)), { discard: true }).pipe(
        Effect.withScheduler(h.scheduler)
      )
    )
    await settle()
    // Time never moved: the slice lasts, so the work finished without waiting for a later task.
    expect(done).toBe(5000)
    expect(fiber.unsafePoll()).toEqual(Exit.void)
  })

  it("makes a fiber yield once its slice is used up, and continues it in a later task", async () => {
    const h = harness()
    let done = 0
    const fiber = Effect.runFork(
      Effect.forEach(
        Array.from({ length: 3000 }),
        () =>
          Effect.sync(() => {
            done += 1
            if (done === 500) h.advance(10)
          }),
        { discard: true }
      ).pipe(Effect.withScheduler(h.scheduler))
    )
    await settle()
    // It stopped shortly after the slice ran out (the fiber checks the time every 64 operations).
    expect(done).toBeGreaterThanOrEqual(500)
    expect(done).toBeLessThan(600)
    // (it checks every 32 operations)
    expect(fiber.unsafePoll()).toBeNull()
    expect(h.pendingTasks()).toBeGreaterThan(0)
    await h.runTasks()
    await settle()
    expect(done).toBe(3000)
    expect(fiber.unsafePoll()).toEqual(Exit.void)
  })

  it("starts no other waiting fiber once the slice is used up, and keeps their order", async () => {
    const h = harness()
    const seen: Array<number> = []
    const fibers = [0, 1, 2, 3].map((n) =>
      Effect.runFork(
        Effect.yieldNow().pipe(
          Effect.zipRight(
            Effect.sync(() => {
              seen.push(n)
              // The first one to run uses the slice up.
              h.advance(10)
            })
          ),
          Effect.withScheduler(h.scheduler)
        )
      )
    )
    await settle()
    expect(seen).toEqual([0])
    await h.runTasks()
    await settle()
    expect(seen).toEqual([0, 1, 2, 3])
    for (const f of fibers) expect(f.unsafePoll()).toEqual(Exit.void)
  })

  it("keeps priorities and each fiber's own order", async () => {
    const h = harness()
    const seen: Array<string> = []
    const step = (name: string) => Effect.sync(() => seen.push(name))
    const a = Effect.runFork(
      Effect.all([step("a1"), Effect.yieldNow(), step("a2"), Effect.yieldNow(), step("a3")]).pipe(
        Effect.withScheduler(h.scheduler)
      )
    )
    const b = Effect.runFork(
      Effect.all([step("b1"), Effect.yieldNow(), step("b2")]).pipe(Effect.withScheduler(h.scheduler))
    )
    await settle()
    await h.runTasks()
    await Fiber.join(Fiber.zip(a, b)).pipe(Effect.runPromise)
    expect(seen.filter((s) => s.startsWith("a"))).toEqual(["a1", "a2", "a3"])
    expect(seen.filter((s) => s.startsWith("b"))).toEqual(["b1", "b2"])
  })

  it("is the scheduler of the runtime a layer builds with it", async () => {
    class Service extends Effect.Service<Service>()("test/Service", { succeed: { answer: 42 } }) {}
    let time = 0
    const later: Array<() => void> = []
    const options = { now: () => time, macrotask: (f: () => void) => later.push(f) }
    const runtime = ManagedRuntime.make(withSlicedScheduler(Service.Default, options))
    try {
      const [scheduler, answer] = await runtime.runPromise(
        Effect.all([
          Effect.withFiberRuntime((fiber) => Effect.succeed(fiber.currentScheduler)),
          Effect.map(Service, (s) => s.answer)
        ])
      )
      expect(answer).toBe(42)
      expect(scheduler).not.toBe(Scheduler.defaultScheduler)
      // It is the sliced one: a used-up slice sends a yielding fiber's rest to a later task.
      time = 100
      const fiber = runtime.runFork(Effect.yieldNow())
      await settle()
      expect(fiber.unsafePoll()).toBeNull()
      while (later.length > 0) later.shift()?.()
      await settle()
      expect(fiber.unsafePoll()).toEqual(Exit.void)
    } finally {
      await runtime.dispose()
    }
  })
})
