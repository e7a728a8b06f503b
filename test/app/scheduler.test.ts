import { describe, expect, it } from "vitest"
import { Effect, Layer, ManagedRuntime } from "effect"
import { makeSlicedScheduler } from "../../src/app/runtime/scheduler"

/** A scripted browser: a clock moved by hand, a queue of macrotasks run on demand, microtasks as Promise jobs. */
const scripted = () => {
  let time = 0
  const macro: Array<() => void> = []
  const options = {
    budgetMs: 8,
    now: () => time,
    macrotask: (f: () => void) => void macro.push(f),
    microtask: (f: () => void) => queueMicrotask(f)
  }
  /** Runs the queued macrotasks one at a time, each after the microtasks of the one before, as a browser would. */
  const runTasks = async () => {
    let tasks = 0
    while (macro.length > 0) {
      macro.shift()?.()
      tasks += 1
      await new Promise<void>((r) => setTimeout(r, 0))
    }
    return tasks
  }
  return { options, advance: (ms: number) => (time += ms), runTasks }
}

describe("the time-sliced scheduler", () => {
  it("runs Effect work within budget in the current task, and continues in a new task once the budget is spent", async () => {
    const browser = scripted()
    const runtime = ManagedRuntime.make(Layer.setScheduler(makeSlicedScheduler(browser.options)))
    const steps: Array<string> = []
    // Each step takes 1 ms of the scripted clock; the clock is read every few operations, so a slice of 8 ms holds
    // some steps beyond the budget, never all 60.
    const numbers = Array.from({ length: 60 }, (_, i) => i + 1)
    const step = (n: number) =>
      Effect.sync(() => {
        browser.advance(1)
        steps.push(`step ${n}`)
      })
    const done = runtime.runPromise(Effect.forEach(numbers, step, { discard: true }))
    await new Promise<void>((r) => setTimeout(r, 0))
    const inFirstTask = steps.length
    expect(inFirstTask).toBeGreaterThan(0)
    expect(inFirstTask).toBeLessThan(30)
    const tasks = await browser.runTasks()
    await done
    expect(steps).toEqual(numbers.map((n) => `step ${n}`))
    // The rest ran in later tasks, a slice each.
    expect(tasks).toBeGreaterThanOrEqual(3)
    await runtime.dispose()
  })

  it("leaves short work alone: it completes without waiting for another task", async () => {
    const browser = scripted()
    const runtime = ManagedRuntime.make(Layer.setScheduler(makeSlicedScheduler(browser.options)))
    await runtime.runtime()
    const result = await Promise.race([
      runtime.runPromise(Effect.succeed(42).pipe(Effect.zipLeft(Effect.yieldNow()))),
      new Promise((r) => setTimeout(() => r("waited for a task"), 50))
    ])
    expect(result).toBe(42)
    await runtime.dispose()
  })
})
