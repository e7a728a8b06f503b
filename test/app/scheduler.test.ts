import { Context, Effect, Exit, Fiber, Layer, Scheduler } from "effect"
import { describe, expect, it } from "vitest"
import { makeSlicedRuntime, makeSlicedScheduler } from "../../src/app/runtime/scheduler"

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

  it("is the scheduler of a sliced runtime built on first use, without its build", async () => {
    class Service extends Effect.Service<Service>()("test/Service", { succeed: { answer: 42 } }) {}
    let time = 0
    const later: Array<() => void> = []
    const options = { now: () => time, macrotask: (f: () => void) => later.push(f) }
    const { runtime } = makeSlicedRuntime(Service.Default, options)
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

describe("makeSlicedRuntime", () => {
  class Answer extends Context.Tag("test/Answer")<Answer, number>() {}

  /** A hand-driven clock and task queue, and a layer whose build takes three steps and 30 ms of that clock. */
  const setup = (layerOf?: (steps: Array<string>) => Layer.Layer<Answer, string>) => {
    let time = 0
    const later: Array<() => void> = []
    const steps: Array<string> = []
    const step = (name: string) =>
      Effect.sync(() => {
        steps.push(name)
        time += 10
      })
    const layer =
      layerOf?.(steps) ??
      Layer.effect(
        Answer,
        Effect.as(Effect.all([step("one"), Effect.yieldNow(), step("two"), Effect.yieldNow(), step("three")]), 42)
      )
    const sliced = makeSlicedRuntime(layer, { sliceMs: 8, now: () => time, macrotask: (f) => later.push(f) })
    const runTasks = async () => {
      for (let i = 0; i < 100 && later.length > 0; i++) {
        later.shift()?.()
        await settle()
      }
    }
    return { ...sliced, steps, later, runTasks, setTime: (ms: number) => (time = ms) }
  }

  it("builds on the sliced scheduler from the first operation, so the caller's task does none of it", async () => {
    const t = setup()
    try {
      const built = t.build()
      // ManagedRuntime's own build would have run the layer's steps here, in the caller's task.
      expect(t.steps).toEqual([])
      await settle()
      // A slice's worth in this task, the rest in later ones.
      expect(t.steps.length).toBeGreaterThan(0)
      expect(t.steps.length).toBeLessThan(3)
      expect(t.later.length).toBeGreaterThan(0)
      await t.runTasks()
      await built
      expect(t.steps).toEqual(["one", "two", "three"])
      expect(await t.runtime.runPromise(Answer)).toBe(42)
    } finally {
      await t.runtime.dispose()
    }
  })

  it("makes a runtime whose fibers run on the sliced scheduler", async () => {
    const t = setup()
    try {
      const built = t.build()
      await settle()
      await t.runTasks()
      await built
      const scheduler = await t.runtime.runPromise(
        Effect.withFiberRuntime((fiber) => Effect.succeed(fiber.currentScheduler))
      )
      expect(scheduler).toBe(t.scheduler)
      // A used-up slice sends a yielding fiber's rest to a later task.
      const fiber = t.runtime.runFork(
        Effect.yieldNow().pipe(Effect.zipRight(Effect.sync(() => t.setTime(1000))), Effect.zipRight(Effect.yieldNow()))
      )
      await settle()
      expect(fiber.unsafePoll()).toBeNull()
      await t.runTasks()
      expect(fiber.unsafePoll()).toEqual(Exit.void)
    } finally {
      await t.runtime.dispose()
    }
  })

  it("builds the layer once, for a fiber that asks for the runtime meanwhile too, and releases it on dispose only", async () => {
    let acquired = 0
    let released = 0
    const t = setup(() =>
      Layer.scoped(
        Answer,
        Effect.acquireRelease(Effect.sync(() => ++acquired).pipe(Effect.zipLeft(Effect.yieldNow()), Effect.as(7)), () =>
          Effect.sync(() => released++)
        )
      )
    )
    const built = t.build()
    const early = t.runtime.runPromise(Answer)
    await settle()
    await t.runTasks()
    await built
    expect(await early).toBe(7)
    expect(acquired).toBe(1)
    // The build's own scope is closed by now; the runtime's keeps the layer.
    expect(released).toBe(0)
    expect(await t.runtime.runPromise(Answer)).toBe(7)
    await t.runtime.dispose()
    expect(released).toBe(1)
  })

  it("fails the build and the runtime alike when the layer fails, building it once", async () => {
    let attempts = 0
    const t = setup(() =>
      Layer.effect(
        Answer,
        Effect.suspend(() => (attempts++, Effect.fail("no network")))
      )
    )
    try {
      const built = t.build()
      await settle()
      await t.runTasks()
      await expect(built).rejects.toThrow("no network")
      const exit = await t.runtime.runPromiseExit(Answer)
      expect(exit).toEqual(Exit.fail("no network"))
      expect(attempts).toBe(1)
    } finally {
      await t.runtime.dispose()
    }
  })
})
