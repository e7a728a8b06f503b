import { describe, expect, it } from "vitest"
import { importInStages, nextTask, once } from "../../src/app/runtime/inStages"
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
