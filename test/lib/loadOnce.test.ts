import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber } from "effect"
import { loadOnce } from "../../src/lib/loadOnce"
import { loadOnceEffect } from "../../src/lib/loadOnceEffect"

/** A loader whose loads the test settles by hand, counting them. */
const scripted = () => {
  const settles: Array<{ resolve: (v: string) => void; reject: (e: unknown) => void }> = []
  const load = () =>
    new Promise<string>((resolve, reject) => {
      settles.push({ resolve, reject })
    })
  return { load, settles }
}

describe("loadOnce", () => {
  it("shares one load among concurrent uses, then answers synchronously", async () => {
    const { load, settles } = scripted()
    const loader = loadOnce(load)
    expect(loader.current()).toBeUndefined()
    const a = loader.load()
    const b = loader.load()
    expect(settles).toHaveLength(1)
    settles[0]?.resolve("module")
    expect(await a).toBe("module")
    expect(await b).toBe("module")
    expect(loader.current()).toBe("module")
    expect(await loader.load()).toBe("module")
    expect(settles).toHaveLength(1)
  })

  it("forgets a failed load: the next use loads again", async () => {
    const { load, settles } = scripted()
    const loader = loadOnce(load)
    const first = loader.load()
    settles[0]?.reject(new Error("chunk unavailable"))
    await expect(first).rejects.toThrow("chunk unavailable")
    expect(loader.current()).toBeUndefined()
    const second = loader.load()
    expect(settles).toHaveLength(2)
    settles[1]?.resolve("module")
    expect(await second).toBe("module")
  })

  it("keeps a loaded value that is falsy", async () => {
    const loader = loadOnce(() => Promise.resolve(0))
    expect(await loader.load()).toBe(0)
    expect(loader.current()).toBe(0)
  })
})

describe("loadOnceEffect", () => {
  it.effect("fails with the mapped error, retries on the next run, and is synchronous once loaded", () =>
    Effect.gen(function* () {
      const { load, settles } = scripted()
      const module = loadOnceEffect(load, (cause) => `not loaded: ${String(cause)}`)
      const first = yield* Effect.fork(Effect.either(module))
      yield* Effect.yieldNow()
      settles[0]?.reject("offline")
      expect(yield* Fiber.join(first)).toEqual(Either.left("not loaded: offline"))
      const second = yield* Effect.fork(module)
      yield* Effect.yieldNow()
      expect(settles).toHaveLength(2)
      settles[1]?.resolve("module")
      expect(yield* Fiber.join(second)).toBe("module")
      // Loaded: runs to completion without a promise tick.
      expect(Effect.runSync(module)).toBe("module")
    })
  )
})
