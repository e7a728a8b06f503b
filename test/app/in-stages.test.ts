import { describe, expect, it } from "vitest"
import {
  EVALUATION_SLICE_MS,
  importInStages,
  nextTask,
  once,
  taskStartedAt,
  yieldIfLate
} from "../../src/app/runtime/inStages"
import { loadGatewayInStages } from "../../src/app/runtime/layers"

describe("loading in stages", () => {
  it("runs each stage after the one before, in a later task, then the last", async () => {
    const seen: Array<string> = []
    const stage = (name: string) => async () => {
      seen.push(name)
    }
    // A task queued when the first stage ran: it runs before the second stage does.
    const result = importInStages(
      [
        async () => {
          seen.push("a")
          void nextTask().then(() => seen.push("task"))
        },
        stage("b")
      ],
      async () => {
        seen.push("last")
        return 42
      }
    )
    expect(await result).toBe(42)
    expect(seen).toEqual(["a", "task", "b", "last"])
  })

  it("a yield point goes on in this task until the task has run for its slice, then in a later task", async () => {
    await nextTask()
    const started = taskStartedAt()
    expect(Number.isFinite(started)).toBe(true)
    // Within the slice: nothing to wait for, the evaluation goes on.
    expect(yieldIfLate(() => started)).toBeUndefined()
    expect(yieldIfLate(() => started + EVALUATION_SLICE_MS - 1)).toBeUndefined()
    // Past it: a task queued meanwhile (the browser's turn, another stage) runs before the rest of the evaluation.
    const seen: Array<string> = []
    void nextTask().then(() => seen.push("queued"))
    // A millisecond past the slice: `(started + 15) - started` can round to just under 15 when `started` is large
    // (a long-running worker's performance.now()), which read as still within it and made this test flaky.
    const point = yieldIfLate(() => started + EVALUATION_SLICE_MS + 1)
    expect(point).toBeInstanceOf(Promise)
    await point
    seen.push("rest of the evaluation")
    expect(seen).toEqual(["queued", "rest of the evaluation"])
    // The later task is a slice of its own.
    expect(taskStartedAt()).toBeGreaterThan(started)
    expect(yieldIfLate(() => taskStartedAt())).toBeUndefined()
  })

  it("a yield point in an evaluation that began outside the loader's tasks measures from the last one it knows", () => {
    let asked = 0
    const next = () => {
      asked += 1
      return Promise.resolve()
    }
    expect(yieldIfLate(() => taskStartedAt() + 10 * EVALUATION_SLICE_MS, next)).toBeInstanceOf(Promise)
    expect(yieldIfLate(() => taskStartedAt(), next)).toBeUndefined()
    expect(asked).toBe(1)
  })

  it("loads once, and again after a failure", async () => {
    let calls = 0
    let fail = true
    const load = once(async () => {
      calls += 1
      if (fail) throw new Error("offline")
      return "module"
    })
    await expect(load()).rejects.toThrow("offline")
    fail = false
    const [a, b] = await Promise.all([load(), load()])
    expect([a, b]).toEqual(["module", "module"])
    expect(calls).toBe(2)
    expect(await load()).toBe("module")
    expect(calls).toBe(2)
  })

  it("gives the Gateway client's module after its Schemas' stages", async () => {
    const module = await loadGatewayInStages()
    expect(typeof module.makeGatewayWithFetch).toBe("function")
  })
})
