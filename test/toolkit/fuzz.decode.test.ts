/**
 * Fuzz, bulk: ≥ 10,000 generated inputs per entry point through the guarded decode each transport uses —
 * the extension's classification of an incoming `detail`, the relay's entry decryption and decode, deep-link parsing,
 * storage reads, and the wallet-response decode whose result walletRequest acts on. Asserted: nothing throws or dies,
 * every failure is a tagged catalogue error whose message can be printed, and no user code planted in a non-Proxy
 * value ever runs (the tripwire). End-to-end runs through the transports are in fuzz.e2e.test.ts.
 */
import { KeyValueStore } from "@effect/platform"
import { Cause, Effect, Either, Exit, Layer, Logger, ManagedRuntime, Option, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { concatBytes, fromHex, toBase64Url, toHex, utf8 } from "../../src/toolkit/bytes.js"
import { Crypto } from "../../src/toolkit/crypto.js"
import { buildDeepLink, encodeRequestParam, parseDeepLink } from "../../src/toolkit/deepLink.js"
import { fromWalletFailure } from "../../src/toolkit/errors.js"
import { classifyIncoming } from "../../src/toolkit/extension.js"
import { toWalletData } from "../../src/toolkit/dataRequest.js"
import { Relay } from "../../src/toolkit/relay.js"
import { WalletInteractionResponse, type WalletInteraction } from "../../src/toolkit/schemas.js"
import { Storage, storageKey, type PartitionName } from "../../src/toolkit/storage.js"
import { decodeUntrusted, toPlainJson } from "../../src/toolkit/untrusted.js"
import { fakeRelay } from "./fakes.js"
import { relayExample } from "./fixtures.js"
import { FUZZ_SEED, isCatalogueError, materialize, recipeArb, tripwire, WIDE } from "./hostile.js"
import { baseLayer, dAppDefinitionAddress, origin } from "./layers.js"

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 10_000)
const ID = "b25c8587-d08a-48bf-beb6-a80ae98c5106"
const params = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: true })

/** A cheap assertion for the hot loops (an `expect` per generated input costs more than decoding the input). */
const check = (ok: boolean, what: string): void => {
  if (!ok) throw new Error(`expected ${what}`)
}
const isResponse = Schema.is(WalletInteractionResponse)

/** JSON text of a value, or a fallback when it has none (the test may run user code here; the tripwire is reset after). */
const textOf = (value: unknown, fallback: string): string => {
  try {
    return JSON.stringify(value) ?? fallback
  } catch {
    return fallback
  }
}

describe(`fuzz (seed ${FUZZ_SEED}): the guarded entry`, () => {
  it(`toPlainJson: JSON data comes back equal; everything else is an issue, never a throw (${RUNS})`, () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), recipeArb, (json, recipe) => {
        const copy = toPlainJson(json)
        check(
          Either.isRight(copy) && JSON.stringify(copy.right) === JSON.stringify(json),
          "JSON data to come back equal"
        )
        const value = materialize(recipe, ID)
        tripwire.calls = 0
        const result = toPlainJson(value)
        check(tripwire.calls === 0, "no user code to run")
        if (Either.isLeft(result)) check(typeof result.left.message === "string", "an issue with a message")
      }),
      params(RUNS)
    )
  })

  it("bounds: depth, size, cycles, accessors, class instances, Proxies", () => {
    const issue = (v: unknown) =>
      Either.getLeft(toPlainJson(v)).pipe(
        Option.map((i) => i.message),
        Option.getOrUndefined
      )
    let deep: unknown = 1
    for (let i = 0; i < 65; i++) deep = [deep]
    expect(issue(deep)).toBe("message too deep")
    expect(issue({ s: "x".repeat(1_000_001) })).toBe("message too large")
    const cyclic: Record<string, unknown> = {}
    cyclic["self"] = cyclic
    expect(issue(WIDE)).toBe("message too large")
    expect(issue(cyclic)).toBe("Invalid type: Expected JSON data but received a cycle")
    expect(issue(Object.defineProperty({}, "a", { get: () => 1, enumerable: true }))).toBe(
      "Invalid type: Expected JSON data but received an accessor"
    )
    expect(issue(new Date())).toBe("Invalid type: Expected JSON data but received a class instance")
    expect(
      issue(
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error("x")
            }
          }
        )
      )
    ).toBe("the value could not be read")
    // a shared (non-cyclic) reference is data; a __proto__ key stays an own key
    const shared = { a: 1 }
    expect(Either.getOrThrow(toPlainJson({ x: shared, y: shared }))).toEqual({ x: { a: 1 }, y: { a: 1 } })
    const proto = Either.getOrThrow(toPlainJson(JSON.parse('{"__proto__":{"polluted":1}}'))) as Record<string, unknown>
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype)
    expect(Object.keys(proto)).toEqual(["__proto__"])
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })
})

describe(`fuzz (seed ${FUZZ_SEED}): extension incoming messages`, () => {
  it(`classifyIncoming: ${RUNS} generated details, never a throw, tagged errors only, no user code run`, () => {
    fc.assert(
      fc.property(recipeArb, (recipe) => {
        const detail = materialize(recipe, ID)
        tripwire.calls = 0
        const result = classifyIncoming(detail)
        check(tripwire.calls === 0, "no user code to run")
        check(["Status", "Event", "Response", "Invalid", "Dropped"].includes(result._tag), "a known classification")
        if (result._tag === "Invalid") {
          check(isCatalogueError(result.error), "a catalogue error")
          check(
            result.error.interactionId === (result.interactionId ?? ""),
            "the error to carry the readable interactionId"
          )
        }
        if (result._tag === "Response") check(isResponse(result.response), "a decoded wallet response")
      }),
      params(RUNS)
    )
  })
})

describe(`fuzz (seed ${FUZZ_SEED}): wallet responses handled by walletRequest`, () => {
  const decode = decodeUntrusted(WalletInteractionResponse)
  it(`${RUNS} generated responses: decoded ones map to wallet data or a catalogue error; others are walletResponseValidation`, () => {
    fc.assert(
      fc.property(recipeArb, (recipe) => {
        const input = materialize(recipe, ID)
        tripwire.calls = 0
        const result = decode(input)
        check(tripwire.calls === 0, "no user code to run")
        if (Either.isLeft(result)) {
          check(
            result.left._tag === "walletResponseValidation" && isCatalogueError(result.left),
            "walletResponseValidation"
          )
          return
        }
        const response = result.right
        if (response.discriminator === "failure")
          check(isCatalogueError(fromWalletFailure(response)), "a catalogue error for a failure")
        else if (
          response.items.discriminator === "authorizedRequest" ||
          response.items.discriminator === "unauthorizedRequest"
        ) {
          check(Array.isArray(toWalletData(response.items).accounts), "wallet data with accounts")
        }
      }),
      params(RUNS)
    )
  })
})

describe(`fuzz (seed ${FUZZ_SEED}): deep links`, () => {
  const interaction: WalletInteraction = {
    items: { discriminator: "transaction", send: { transactionManifest: "CALL_METHOD;", version: 1 } },
    interactionId: ID,
    metadata: { version: 2, dAppDefinitionAddress, networkId: 2, origin }
  }
  const genuine = {
    sessionId: "s-1",
    request: encodeRequestParam(interaction),
    signature: "00".repeat(64),
    publicKey: "11".repeat(32),
    identity: "22".repeat(32),
    origin,
    dAppDefinitionAddress
  }
  // Any URL with any query (fc.webUrl costs ~10× more to generate and never names the deep link's parameters).
  const anyUrlArb = fc
    .tuple(
      fc.constantFrom("radixWallet://connect", "radixwallet:", "https://wallet.radixdlt.com/connect?x=1", "a://"),
      fc.array(fc.tuple(fc.oneof(fc.constantFrom(...Object.keys(genuine)), fc.string({ maxLength: 4 })), fc.string()), {
        maxLength: 8
      })
    )
    .map(([base, query]) => {
      const url = new URL(base)
      for (const [key, value] of query) url.searchParams.append(key, value)
      return url.toString()
    })
  const linkArb = fc.oneof(
    fc.string(),
    anyUrlArb,
    fc.tuple(recipeArb, fc.subarray([...Object.keys(genuine)])).map(([recipe, dropped]) => {
      // long requests are covered by the length bound below; 20 KB keeps each run cheap
      const json = textOf(materialize(recipe, ID), "{").slice(0, 20_000)
      const link = buildDeepLink("radixWallet://connect", { ...genuine, request: toBase64Url(utf8(json)) })
      const url = new URL(link)
      for (const key of dropped.slice(0, 1)) url.searchParams.delete(key)
      return url.toString()
    }),
    fc.string().map((s) => buildDeepLink("radixWallet://connect", { ...genuine, request: s }))
  )
  it(`parseDeepLink: ${RUNS} generated links, never a throw; a reason string or a decoded interaction`, () => {
    expect(Either.isRight(parseDeepLink(buildDeepLink("radixWallet://connect", genuine)))).toBe(true)
    fc.assert(
      fc.property(linkArb, (link) => {
        const parsed = parseDeepLink(link)
        if (Either.isLeft(parsed)) check(typeof parsed.left === "string", "a reason string")
        else check(typeof parsed.right.interaction.interactionId === "string", "a decoded interaction")
      }),
      params(RUNS)
    )
    expect(Either.isLeft(parseDeepLink(`radixwallet://connect?request=${"A".repeat(1_000_001)}`))).toBe(true)
  })
})

describe(`fuzz (seed ${FUZZ_SEED}): storage reads`, () => {
  const partitions: ReadonlyArray<PartitionName> = [
    "state",
    "requests",
    "sessions",
    "identities",
    "walletResponses",
    "connectorExtension"
  ]
  const storedItem = (id: string) => ({
    [id]: {
      type: "sendTransaction",
      status: "pending",
      interactionId: id,
      createdAt: 1,
      showCancel: true,
      walletInteraction: {
        items: { discriminator: "transaction", send: { transactionManifest: "M;", version: 1 } },
        interactionId: id,
        metadata: { version: 2, dAppDefinitionAddress, networkId: 2, origin }
      },
      isOneTimeRequest: false
    }
  })
  const rawArb = fc.oneof(
    recipeArb.map((r) => textOf(materialize(r, ID), "{")),
    recipeArb.map((r) => textOf({ [ID]: materialize(r, ID) }, "[")),
    fc.tuple(fc.nat(), recipeArb).map(([at, r]) => {
      // the stored pending request with one field replaced
      const item = storedItem(ID)[ID] as Record<string, unknown>
      const keys = Object.keys(item)
      return textOf({ [ID]: { ...item, [keys[at % keys.length]!]: materialize(r, ID) } }, "{")
    }),
    fc.string(),
    // nesting past the depth bound (the 100,000-deep one, whose JSON.parse alone takes ~7 ms, is read once below)
    fc.constantFrom("[".repeat(1_000) + "]".repeat(1_000), '{"__proto__":{"status":"success"}}', "null", "1e400")
  )
  const runtime = ManagedRuntime.make(Layer.mergeAll(baseLayer(), Logger.replace(Logger.defaultLogger, Logger.none)))
  it(`${RUNS} generated raw values in every partition: every read succeeds (bad data is reset and reported), none dies`, async () => {
    const kv = await runtime.runPromise(KeyValueStore.KeyValueStore)
    const storage = await runtime.runPromise(Storage)
    const reads: Record<PartitionName, Effect.Effect<unknown, unknown>> = {
      state: storage.getState,
      requests: storage.requests.getAll,
      walletResponses: storage.walletResponses.getAll,
      sessions: storage.sessions.getAll,
      identities: storage.identities.getAll,
      connectorExtension: storage.connectorExtension.get
    }
    const readAfterWriting = (partition: PartitionName, raw: string) => {
      runtime.runSync(kv.set(storageKey(dAppDefinitionAddress, 2, partition), raw))
      const exit = runtime.runSyncExit(reads[partition])
      if (Exit.isFailure(exit)) throw new Error(Cause.pretty(exit.cause))
    }
    for (const partition of partitions) readAfterWriting(partition, "[".repeat(100_000) + "]".repeat(100_000))
    fc.assert(fc.property(fc.constantFrom(...partitions), rawArb, readAfterWriting), params(RUNS))
    expect((await runtime.runPromise(storage.getCorruptions)).length).toBeGreaterThan(0)
    await runtime.dispose()
  }, 60_000)
})

describe(`fuzz (seed ${FUZZ_SEED}): relay entries`, () => {
  const RELAY_RUNS = RUNS
  it(`decryptEntry: ${RELAY_RUNS} generated entries (1 in 20 a genuinely encrypted hostile plaintext); tagged errors only`, async () => {
    const layer = Relay.Test({ http: fakeRelay().client, isMobile: true }).pipe(
      Layer.provideMerge(baseLayer({ options: { dAppDefinitionAddress: relayExample.dAppDefinitionAddress } })),
      Layer.provideMerge(Logger.replace(Logger.defaultLogger, Logger.none))
    )
    const runtime = ManagedRuntime.make(layer)
    const relay = await runtime.runPromise(Relay)
    const crypto = await runtime.runPromise(Crypto)
    await runtime.runPromise(
      Effect.flatMap(Storage, (s) => s.identities.setItems({ dApp: { secret: relayExample.dAppSecret, createdAt: 1 } }))
    )
    const walletSecret = fromHex(relayExample.walletSecret)
    const dApp = await runtime.runPromise(relay.getIdentity)
    const key = await runtime.runPromise(
      crypto.deriveSharedSecret(walletSecret, fromHex(dApp.publicKey), relayExample.dAppDefinitionAddress)
    )
    const walletPublicKey = toHex(await runtime.runPromise(crypto.x25519PublicKey(walletSecret)))
    const iv = new Uint8Array(12)
    const sealed = async (plaintext: string) =>
      toHex(concatBytes(iv, await runtime.runPromise(crypto.aesGcmEncrypt(key, iv, utf8(plaintext)))))

    const entryArb = fc.oneof(
      { weight: 1, arbitrary: recipeArb.map((r) => ({ kind: "sealed" as const, recipe: r })) },
      { weight: 16, arbitrary: recipeArb.map((r) => ({ kind: "entry" as const, recipe: r })) },
      {
        // an envelope with one hostile field; about 1 in 3 still reaches the (WebCrypto, so slow) decryption
        weight: 3,
        arbitrary: fc
          .tuple(recipeArb, fc.constantFrom("sessionId", "publicKey", "data", "error"))
          .map(([r, field]) => ({
            kind: "field" as const,
            recipe: r,
            field
          }))
      }
    )
    let decoded = 0
    await fc.assert(
      fc.asyncProperty(entryArb, async (e) => {
        let entry: unknown
        if (e.kind === "sealed") {
          // the size bounds are covered by plain entries (a 2.1 MB data field); 20 KB keeps sealing cheap
          entry = {
            sessionId: "s",
            publicKey: walletPublicKey,
            data: await sealed(textOf(materialize(e.recipe, ID), "{").slice(0, 20_000))
          }
        } else if (e.kind === "entry") entry = materialize(e.recipe, ID)
        else
          entry = {
            sessionId: "s",
            publicKey: walletPublicKey,
            data: "00".repeat(40),
            [e.field]: materialize(e.recipe, ID)
          }
        tripwire.calls = 0
        const exit = await runtime.runPromiseExit(relay.decryptEntry(entry))
        check(tripwire.calls === 0, "no user code to run")
        if (Exit.isSuccess(exit)) {
          decoded += 1
          check(isResponse(exit.value), "a decoded wallet response")
        } else {
          const failure = Cause.failureOption(exit.cause)
          if (Option.isNone(failure)) throw new Error(`not a tagged failure: ${Cause.pretty(exit.cause)}`)
          check(isCatalogueError(failure.value), "a catalogue error")
        }
      }),
      params(RELAY_RUNS)
    )
    expect(decoded).toBeGreaterThan(0)
    await runtime.dispose()
  }, 60_000)
})
