/**
 * The noble primitives are loaded on demand: `Crypto` reaches them only through a dynamic `import()`, keeps them once
 * loaded, retries after a failed load, and reports a failed load as each method's catalogue error. No static import
 * from the toolkit's browser entry (`index.ts`) reaches `cryptoPrimitives.ts` or @noble.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber } from "effect"
import { fromHex, toHex, utf8 } from "../../src/toolkit/bytes.js"
import {
  Crypto,
  lazyPrimitives,
  livePrimitives,
  makeCrypto,
  PRIMITIVES_UNAVAILABLE_MESSAGE
} from "../../src/toolkit/crypto.js"
import { type Primitives, primitives } from "../../src/toolkit/cryptoPrimitives.js"
import { signatureVectors } from "./fixtures.js"

const sig = signatureVectors.signature

/** A loader that counts its calls and fails the first `failures` of them. */
const countingLoader = (failures: number) => {
  const state = { calls: 0 }
  const load = async (): Promise<Primitives> => {
    state.calls++
    if (state.calls <= failures) throw new Error(`chunk load failed (${state.calls})`)
    return primitives
  }
  return { state, load }
}

const zeros = (length: number) => Effect.succeed(new Uint8Array(length))

// First in the file, so these are the first uses of `livePrimitives` in this module instance.
describe("Crypto.Live over the lazily loaded primitives", () => {
  it.effect("signs and verifies the signature vector, with concurrent first calls sharing one load", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      const secret = fromHex(sig.secret)
      const hash = fromHex(sig.blake2b256_hex)
      const fiber = yield* Effect.fork(
        Effect.all(
          [crypto.ed25519PublicKey(secret), crypto.x25519PublicKey(secret), crypto.ed25519Sign(secret, hash)],
          {
            concurrency: "unbounded"
          }
        )
      )
      const [identity, publicKey, signature] = yield* Fiber.join(fiber)
      expect(toHex(identity)).toBe(sig.identity_ed25519_public_key)
      expect(toHex(publicKey)).toBe(sig.x25519_public_key)
      expect(toHex(signature)).toBe(sig.signature_hex)
      expect(yield* crypto.ed25519Verify(signature, hash, identity)).toBe(true)
    }).pipe(Effect.provide(Crypto.Live))
  )
})

describe("lazyPrimitives", () => {
  it.effect("loads once for concurrent first uses and keeps the module", () =>
    Effect.gen(function* () {
      const { state, load } = countingLoader(0)
      const lazy = lazyPrimitives(load)
      expect(state.calls).toBe(0)
      const all = yield* Effect.all([lazy, lazy, lazy], { concurrency: "unbounded" })
      expect(all.every((p) => p === primitives)).toBe(true)
      expect(yield* lazy).toBe(primitives)
      expect(state.calls).toBe(1)
    })
  )

  it.effect("reports a failed load with its cause and tries again on the next use", () =>
    Effect.gen(function* () {
      const { state, load } = countingLoader(1)
      const lazy = lazyPrimitives(load)
      const first = yield* Effect.either(lazy)
      expect(Either.isLeft(first) && first.left._tag).toBe("PrimitivesUnavailable")
      expect(Either.isLeft(first) && String(first.left.cause)).toBe("Error: chunk load failed (1)")
      expect(yield* lazy).toBe(primitives)
      expect(state.calls).toBe(2)
    })
  )

  it.effect("the live loader reaches the same cryptoPrimitives module instance through import()", () =>
    Effect.gen(function* () {
      expect(yield* livePrimitives).toBe(primitives)
    })
  )
})

describe("makeCrypto when the primitives cannot be loaded", () => {
  it.effect(
    "each method fails with its catalogue error, carrying the load failure; AES and randomness still work",
    () =>
      Effect.gen(function* () {
        const { load } = countingLoader(Number.POSITIVE_INFINITY)
        const crypto = makeCrypto(zeros, lazyPrimitives(load))
        const secret = fromHex(sig.secret)
        const failures = [
          ["FailedToDeriveSharedSecret", yield* Effect.flip(crypto.x25519PublicKey(secret))],
          ["couldNotSignMessage", yield* Effect.flip(crypto.ed25519PublicKey(secret))],
          ["couldNotSignMessage", yield* Effect.flip(crypto.ed25519Sign(secret, utf8("m")))],
          ["couldNotSignMessage", yield* Effect.flip(crypto.ed25519Verify(new Uint8Array(64), utf8("m"), secret))],
          ["couldNotHashMessage", yield* Effect.flip(crypto.blake2b256(utf8("m")))],
          ["FailedToDeriveSharedSecret", yield* Effect.flip(crypto.hkdfSha256(secret, secret, secret, 32))],
          ["FailedToDeriveSharedSecret", yield* Effect.flip(crypto.deriveSharedSecret(secret, secret, "salt"))]
        ] as const
        for (const [tag, error] of failures) {
          expect(error._tag).toBe(tag)
          expect(error.message).toBe(PRIMITIVES_UNAVAILABLE_MESSAGE)
          expect(String(error.cause)).toMatch(/^Error: chunk load failed/)
        }
        const key = new Uint8Array(32)
        const iv = new Uint8Array(12)
        const sealed = yield* crypto.aesGcmEncrypt(key, iv, utf8("hello"))
        expect(yield* crypto.aesGcmDecrypt(key, iv, sealed)).toEqual(utf8("hello"))
        expect(yield* crypto.randomUuid()).toBe("00000000-0000-4000-8000-000000000000")
      })
  )

  it.effect("a primitive that throws still fails with the method's error (not the load message)", () =>
    Effect.gen(function* () {
      const crypto = makeCrypto(
        zeros,
        lazyPrimitives(async () => primitives)
      )
      const error = yield* Effect.flip(crypto.deriveSharedSecret(new Uint8Array(3), new Uint8Array(3), "salt"))
      expect(error._tag).toBe("FailedToDeriveSharedSecret")
      expect(error.message).not.toBe(PRIMITIVES_UNAVAILABLE_MESSAGE)
      expect(error.cause).toBeDefined()
    })
  )
})

// ---------------------------------------------------------------------------------------------------------------
// The static import graph of the toolkit's browser entry
// ---------------------------------------------------------------------------------------------------------------

const srcRoot = new URL("../../src/", import.meta.url)

/** Static value imports and re-exports of a module (type-only ones and dynamic `import()` excluded). */
const staticSpecifiers = (source: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  const fromClause = /^(?:import|export)\s+(?!type\s)[^;"']*?\sfrom\s+["']([^"']+)["']/gm
  const bare = /^import\s+["']([^"']+)["']/gm
  for (const m of source.matchAll(fromClause)) if (m[1] !== undefined) out.push(m[1])
  for (const m of source.matchAll(bare)) if (m[1] !== undefined) out.push(m[1])
  return out
}

const resolveLocal = (from: URL, specifier: string): URL => {
  const base = new URL(specifier.replace(/\.js$/, ""), from)
  for (const ext of [".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const candidate = new URL(base.href + ext)
    try {
      readFileSync(candidate)
      return candidate
    } catch {
      // try the next extension
    }
  }
  throw new Error(`cannot resolve ${specifier} from ${from.pathname}`)
}

/** Every module and package reached by static imports from `entry`, following only files under src/. */
const staticGraph = (entry: URL) => {
  const modules = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: URL) => {
    if (modules.has(file.href)) return
    modules.add(file.href)
    for (const specifier of staticSpecifiers(readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) visit(resolveLocal(file, specifier))
      else packages.add(specifier)
    }
  }
  visit(entry)
  return { modules: [...modules].map((href) => href.slice(srcRoot.href.length)), packages: [...packages] }
}

describe("the toolkit's static import graph", () => {
  it("reaches neither cryptoPrimitives.ts nor @noble from index.ts", () => {
    const { modules, packages } = staticGraph(new URL("toolkit/index.ts", srcRoot))
    expect(modules).toContain("toolkit/crypto.ts")
    expect(modules).toContain("toolkit/relay.ts")
    expect(modules).not.toContain("toolkit/cryptoPrimitives.ts")
    expect(modules).not.toContain("toolkit/deepLinkVerify.ts")
    expect(packages.filter((p) => p.startsWith("@noble/"))).toEqual([])
  })

  it("the scan does see noble where it is imported statically", () => {
    const { modules, packages } = staticGraph(new URL("toolkit/deepLinkVerify.ts", srcRoot))
    expect(modules).toContain("toolkit/cryptoPrimitives.ts")
    expect(packages).toContain("@noble/curves/ed25519.js")
  })
})

describe("Crypto.preload", () => {
  it.effect("loads the primitives once, ahead of the first call, and later calls do not load again", () =>
    Effect.gen(function* () {
      const { state, load } = countingLoader(0)
      const crypto = makeCrypto(zeros, lazyPrimitives(load))
      expect(state.calls).toBe(0)
      yield* crypto.preload
      expect(state.calls).toBe(1)
      yield* crypto.blake2b256(utf8("hswap"))
      expect(state.calls).toBe(1)
    })
  )

  it.effect("fails with the catalogue's couldNotHashMessage naming the failed load, and the next use retries", () =>
    Effect.gen(function* () {
      const { state, load } = countingLoader(1)
      const crypto = makeCrypto(zeros, lazyPrimitives(load))
      const failed = yield* Effect.either(crypto.preload)
      expect(Either.isLeft(failed) && failed.left._tag).toBe("couldNotHashMessage")
      expect(Either.isLeft(failed) && failed.left.message).toBe(PRIMITIVES_UNAVAILABLE_MESSAGE)
      yield* crypto.preload
      expect(state.calls).toBe(2)
    })
  )
})
