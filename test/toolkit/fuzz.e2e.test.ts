/**
 * Fuzz, end to end: hostile messages through the transports into WalletRequest, under TestClock. Each run
 * starts a real request, sends generated hostile messages aimed at it (extension events, relay batches, a corrupted
 * stored request), then the genuine answer, and asserts that the request settled (success or a tagged catalogue
 * error, never a defect), that no listener threw, and that messages with no readable interactionId were logged.
 */
import { HttpClient, KeyValueStore } from "@effect/platform"
import { Cause, Effect, Either, Exit, Fiber, Layer, Logger, Option, Ref, Schema, TestClock, TestContext } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fromHex, toHex, utf8 } from "../../src/toolkit/bytes.js"
import { parseDeepLink, sendResponseBody } from "../../src/toolkit/deepLink.js"
import { classifyIncoming } from "../../src/toolkit/extension.js"
import {
  Crypto,
  Environment,
  Storage,
  storageKey,
  Toolkit,
  ToolkitGateway,
  WalletInteractionResponse,
  WalletRequest
} from "../../src/toolkit/index.js"
import { fakeExtension, fakeRelay, type FakeRelay } from "./fakes.js"
import { relayExample } from "./fixtures.js"
import { FUZZ_SEED, isCatalogueError, materialize, type Recipe, recipeArb } from "./hostile.js"
import { dAppDefinitionAddress, origin } from "./layers.js"

/** Requests through the extension (half as many relay batches and stored-request runs): 200 end-to-end runs in all. */
const E2E_RUNS = Number(process.env["FUZZ_E2E_RUNS"] ?? 100)
const params = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: true })

/** An EventTarget that records any listener that throws (the page would see it as an uncaught exception). */
class RecordingTarget extends EventTarget {
  thrown = 0
  private readonly wrapped = new Map<unknown, EventListener>()
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: AddEventListenerOptions | boolean
  ) {
    if (typeof listener !== "function") return super.addEventListener(type, listener, options)
    const wrapper = (event: Event) => {
      try {
        listener.call(this, event)
      } catch {
        this.thrown += 1
      }
    }
    this.wrapped.set(listener, wrapper)
    super.addEventListener(type, wrapper, options)
  }
  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: EventListenerOptions | boolean
  ) {
    super.removeEventListener(type, (this.wrapped.get(listener) ?? listener) as EventListener, options)
  }
}

const txSuccess = (id: string) => ({
  discriminator: "success",
  interactionId: id,
  items: { discriminator: "transaction", send: { transactionIntentHash: "txid_tdx_2_1genuine" } }
})
const loginSuccess = (id: string) => ({
  discriminator: "success",
  interactionId: id,
  items: {
    discriminator: "authorizedRequest",
    auth: { discriminator: "loginWithoutChallenge", persona: { identityAddress: "identity_tdx_2_1p", label: "P" } },
    ongoingAccounts: { accounts: [{ address: "account_tdx_2_1a", label: "A", appearanceId: 0 }] }
  }
})

type Opened = Ref.Ref<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>

const toolkitLayer = (
  target: EventTarget,
  o: { readonly isMobile?: boolean; readonly http?: HttpClient.HttpClient; readonly opened?: Opened } = {}
) =>
  Toolkit.layerWith(
    { networkId: 2, dAppDefinitionAddress },
    {
      environment: Environment.Test({
        events: target,
        origin,
        ...(o.isMobile ? { isMobile: true } : {}),
        ...(o.opened ? { opened: o.opened } : {})
      }),
      crypto: Crypto.Test("fuzz"),
      gateway: ToolkitGateway.make({
        transactionStatus: () => Effect.succeed("CommittedSuccess"),
        subintentStatus: () => Effect.succeed({ subintentStatus: "Unknown", transactionIntentHash: undefined }),
        dAppName: () => Effect.succeed("x")
      })
    }
  ).pipe(
    Layer.provideMerge(KeyValueStore.layerMemory),
    Layer.provide(Layer.succeed(HttpClient.HttpClient, o.http ?? fakeRelay().client))
  )

/** Runs one case under TestClock with a logger that collects every message. */
const run = <A>(effect: Effect.Effect<A, unknown>, logs: Array<string>) =>
  Effect.runPromise(
    effect.pipe(
      Effect.provide(
        Logger.replace(
          Logger.defaultLogger,
          Logger.make(({ message }) => void logs.push(String(message)))
        )
      ),
      Effect.provide(TestContext.TestContext)
    )
  )

/** The request settled: success, or a tagged catalogue error; never a defect, never still waiting. */
const expectSettled = <A>(fiber: Fiber.RuntimeFiber<A, unknown>) =>
  Effect.gen(function* () {
    // WebCrypto (AES-GCM) answers on real promises, which TestClock.adjust does not wait for (pitfall V2): let them
    // settle, a second of test time at a time, for at most 30 s of test time.
    let done = yield* Fiber.poll(fiber)
    for (let i = 0; i < 30 && Option.isNone(done); i++) {
      yield* Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
      yield* TestClock.adjust("1 second")
      done = yield* Fiber.poll(fiber)
    }
    if (Option.isNone(done)) throw new Error("the pending request never settled")
    const exit = done.value
    if (Exit.isSuccess(exit)) return "success" as const
    const failure = Cause.failureOption(exit.cause)
    if (Option.isNone(failure)) throw new Error(`not a tagged failure: ${Cause.pretty(exit.cause)}`)
    expect(isCatalogueError(failure.value)).toBe(true)
    return "failure" as const
  })

const unreadable = (detail: unknown) => {
  const c = classifyIncoming(detail)
  return c._tag === "Dropped" || (c._tag === "Invalid" && c.interactionId === undefined)
}

describe(`fuzz e2e (seed ${FUZZ_SEED}): the extension's window listener`, () => {
  it(`${E2E_RUNS} requests, each sent 1–4 hostile events then the genuine answer: all settle, no listener throws, drops are logged`, async () => {
    const outcomes = { success: 0, failure: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(recipeArb, { minLength: 1, maxLength: 4 }), async (recipes: ReadonlyArray<Recipe>) => {
        const target = new RecordingTarget()
        const fake = fakeExtension({ status: "sync" }, target)
        const logs: Array<string> = []
        let expectedDrops = 0
        const outcome = await run(
          Effect.gen(function* () {
            const wr = yield* WalletRequest
            const fiber = yield* Effect.fork(wr.sendTransaction({ transactionManifest: "CALL_METHOD;" }))
            yield* TestClock.adjust("1 millis")
            const sent = fake.received.find((m) => m["discriminator"] === "walletInteraction")
            const id = String(sent?.["interactionId"])
            // The hostile events arrive together, each handled on its own in order; then, a moment later, the answer.
            for (const recipe of recipes) {
              if (unreadable(materialize(recipe, id))) expectedDrops += 1
              fake.reply(materialize(recipe, id))
            }
            yield* TestClock.adjust("1 millis")
            fake.reply(txSuccess(id))
            return yield* expectSettled(fiber)
          }).pipe(Effect.provide(toolkitLayer(target))),
          logs
        )
        outcomes[outcome] += 1
        expect(target.thrown).toBe(0)
        expect(logs.filter((l) => l.includes("dropped")).length).toBeGreaterThanOrEqual(expectedDrops)
      }),
      params(E2E_RUNS)
    )
    // both ends are reached: the genuine answer resolves what the hostile messages did not end
    expect(outcomes.success).toBeGreaterThan(0)
    expect(outcomes.failure).toBeGreaterThan(0)
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------------------------
// The relay: batches with poisoned entries
// ---------------------------------------------------------------------------------------------------------------

const walletSecret = fromHex(relayExample.walletSecret)

/** Seals a plaintext for the dApp the deep link names (the wallet side of the relay). */
const sealer = (dAppPublicKey: string) =>
  Effect.gen(function* () {
    const crypto = yield* Crypto
    const key = yield* crypto.deriveSharedSecret(walletSecret, fromHex(dAppPublicKey), dAppDefinitionAddress)
    const publicKey = toHex(yield* crypto.x25519PublicKey(walletSecret))
    const iv = new Uint8Array(12).fill(7)
    return (plaintext: string) =>
      Effect.map(crypto.aesGcmEncrypt(key, iv, utf8(plaintext)), (sealed) => ({
        publicKey,
        data: toHex(new Uint8Array([...iv, ...sealed]))
      }))
  }).pipe(Effect.provide(Crypto.Live))

const textOf = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "null"
  } catch {
    return "{"
  }
}

/** Starts a login on mobile and returns its fiber, the deep link's parameters and a sealer for the wallet's answers. */
const mobileLogin = (relay: FakeRelay, openedRef: Opened) =>
  Effect.gen(function* () {
    const wr = yield* WalletRequest
    const fiber = yield* Effect.fork(wr.connect())
    yield* TestClock.adjust("0 millis")
    const opened = yield* Ref.get(openedRef)
    const parsed = parseDeepLink(opened[0]?.url ?? "")
    if (Either.isLeft(parsed)) throw new Error(parsed.left)
    const seal = yield* sealer(parsed.right.publicKey)
    return { fiber, link: parsed.right, seal, relay }
  })

type EntryRecipe =
  | { readonly kind: "envelope"; readonly recipe: Recipe }
  | { readonly kind: "sealed"; readonly recipe: Recipe; readonly aim: "ours" | "other" }

const entryRecipeArb: fc.Arbitrary<EntryRecipe> = fc.oneof(
  recipeArb.map((recipe) => ({ kind: "envelope" as const, recipe })),
  fc
    .tuple(recipeArb, fc.constantFrom("ours" as const, "other" as const))
    .map(([recipe, aim]) => ({ kind: "sealed" as const, recipe, aim }))
)

describe(`fuzz e2e (seed ${FUZZ_SEED}): relay responses and batches`, () => {
  it("a poisoned entry (another interaction, a hostile discriminator) first, then the real answer: the request resolves", async () => {
    const relay = fakeRelay()
    const opened: Opened = Ref.unsafeMake<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>(
      []
    )
    const logs: Array<string> = []
    const result = await run(
      Effect.gen(function* () {
        const { fiber, link, seal } = yield* mobileLogin(relay, opened)
        const poisoned = yield* seal('{"discriminator":{"toString":1},"interactionId":"another-interaction"}')
        const real = yield* seal(
          JSON.stringify(
            Schema.decodeUnknownSync(WalletInteractionResponse)(loginSuccess(link.interaction.interactionId))
          )
        )
        relay.store.set(link.sessionId, [
          sendResponseBody(link.sessionId, poisoned),
          sendResponseBody(link.sessionId, real)
        ])
        yield* TestClock.adjust("1500 millis")
        return yield* Fiber.join(fiber)
      }).pipe(Effect.provide(toolkitLayer(new EventTarget(), { isMobile: true, http: relay.client, opened }))),
      logs
    )
    expect(result.persona?.label).toBe("P")
  })

  it(`${Math.round(E2E_RUNS / 2)} batches of 1–3 poisoned entries around the real answer: every request settles`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryRecipeArb, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        async (entries, position) => {
          const relay = fakeRelay()
          const opened: Opened = Ref.unsafeMake<
            ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>
          >([])
          const logs: Array<string> = []
          await run(
            Effect.gen(function* () {
              const { fiber, link, seal } = yield* mobileLogin(relay, opened)
              const ours = link.interaction.interactionId
              const batch: Array<unknown> = []
              for (const e of entries) {
                // What the relay serves is JSON text: an envelope is what survives a JSON round trip.
                if (e.kind === "envelope")
                  batch.push(JSON.parse(textOf(materialize(e.recipe, ours)).replace(/^\{$/, '"junk"')))
                else {
                  const sealed = yield* seal(
                    textOf(materialize(e.recipe, e.aim === "ours" ? ours : "another-interaction"))
                  )
                  batch.push(sendResponseBody(link.sessionId, sealed))
                }
              }
              const real = yield* seal(JSON.stringify(loginSuccess(ours)))
              batch.splice(position % (batch.length + 1), 0, sendResponseBody(link.sessionId, real))
              relay.store.set(link.sessionId, batch)
              yield* TestClock.adjust("1500 millis")
              return yield* expectSettled(fiber)
            }).pipe(Effect.provide(toolkitLayer(new EventTarget(), { isMobile: true, http: relay.client, opened }))),
            logs
          )
        }
      ),
      params(Math.round(E2E_RUNS / 2))
    )
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------------------------
// The stored pending request
// ---------------------------------------------------------------------------------------------------------------

describe(`fuzz e2e (seed ${FUZZ_SEED}): the stored pending request`, () => {
  const rawArb = fc.oneof(
    fc.string(),
    recipeArb.map((r) => ({ kind: "value" as const, r })),
    fc.tuple(recipeArb, fc.nat()).map(([r, at]) => ({ kind: "field" as const, r, at }))
  )
  it(`${Math.round(E2E_RUNS / 2)} requests whose stored item is overwritten with hostile data before the answer: all settle`, async () => {
    await fc.assert(
      fc.asyncProperty(rawArb, async (raw) => {
        const target = new RecordingTarget()
        const fake = fakeExtension({ status: "sync" }, target)
        const logs: Array<string> = []
        await run(
          Effect.gen(function* () {
            const wr = yield* WalletRequest
            const kv = yield* KeyValueStore.KeyValueStore
            const storage = yield* Storage
            const fiber = yield* Effect.fork(wr.sendTransaction({ transactionManifest: "CALL_METHOD;" }))
            yield* TestClock.adjust("1 millis")
            const sent = fake.received.find((m) => m["discriminator"] === "walletInteraction")
            const id = String(sent?.["interactionId"])
            const key = storageKey(dAppDefinitionAddress, 2, "requests")
            let text: string
            if (typeof raw === "string") text = raw
            else if (raw.kind === "value") text = textOf({ [id]: materialize(raw.r, id) })
            else {
              const stored = (yield* storage.requests.getAll)[id] as unknown as Record<string, unknown>
              const keys = Object.keys(stored)
              text = textOf({ [id]: { ...stored, [keys[raw.at % keys.length]!]: materialize(raw.r, id) } })
            }
            yield* kv.set(key, text)
            yield* TestClock.adjust("1 second")
            fake.reply(txSuccess(id))
            return yield* expectSettled(fiber)
          }).pipe(Effect.provide(toolkitLayer(target))),
          logs
        )
        expect(target.thrown).toBe(0)
      }),
      params(Math.round(E2E_RUNS / 2))
    )
  }, 120_000)
})
