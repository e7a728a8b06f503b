/**
 * The pre-authorisation request, with and without the subintent `header`, byte for byte against the
 * official @radixdlt/radix-dapp-toolkit 2.3.0 (devDependency, tests only).
 *
 * Theirs: the official `SubintentRequestBuilder()` given the same calls, sent by the official `WalletRequestModule`'s
 * own `sendPreAuthorizationRequest` (which sets `header.networkId` to the dApp's network id in place) to a transport
 * that records the wallet interaction it is handed. Both official transports carry that object as it is: the
 * extension in its `walletInteraction` message, the relay as `base64url(JSON.stringify(interaction))` in the deep
 * link's `request` parameter.
 *
 * Ours: the same calls on our builder, sent through WalletRequest to the scripted extension (desktop) and through the
 * deep link (mobile).
 */
import { HttpClient, KeyValueStore } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import * as RDT from "@radixdlt/radix-dapp-toolkit"
import { Effect, Fiber, Layer, Ref, TestClock } from "effect"
import { errAsync, okAsync, ResultAsync } from "neverthrow"
import {
  Crypto,
  Environment,
  SubintentRequestBuilder,
  Toolkit,
  ToolkitGateway,
  WalletRequest
} from "../../src/toolkit/index.js"
import { fakeExtension, type FakeExtension, fakeRelay } from "./fakes.js"
import { dAppDefinitionAddress, origin } from "./layers.js"

type Json = Record<string, unknown>
type Step = readonly [method: "header" | "setExpiration" | "message" | "addBlobs", ...args: ReadonlyArray<unknown>]

const NETWORK_ID = 2
const MANIFEST = 'CALL_METHOD Address("account_tdx_2_1a") "withdraw";\nYIELD_TO_PARENT;'

/** Applies the same calls to either builder (the official's or ours); each call gets its own copy of the arguments. */
const apply = (builder: unknown, steps: ReadonlyArray<Step>): unknown =>
  steps.reduce<unknown>(
    (b, [method, ...args]) =>
      (b as Record<string, (...a: Array<unknown>) => unknown>)[method]!(...structuredClone(args)),
    builder
  )

/** The wallet interaction the official toolkit hands its transport for these calls. */
const officialInteraction = async (interactionId: string, steps: ReadonlyArray<Step>): Promise<Json> => {
  const sent: Array<Json> = []
  const transport = {
    isSupported: () => true,
    send: (walletInteraction: Json) => {
      sent.push(walletInteraction)
      return errAsync({ error: "recorded" })
    },
    disconnect: () => undefined,
    destroy: () => undefined
  }
  const environmentModule = { isMobile: () => false, isTMA: () => false, isBrowser: () => true, globalThis: {} }
  const walletRequestSdk = RDT.WalletRequestSdk({
    networkId: NETWORK_ID,
    dAppDefinitionAddress,
    origin,
    providers: { transports: [transport], environmentModule, interactionIdFactory: () => interactionId }
  } as never)
  const module = RDT.WalletRequestModule({
    networkId: NETWORK_ID,
    dAppDefinitionAddress,
    useCache: false,
    providers: {
      walletRequestSdk,
      transports: [transport],
      environmentModule,
      stateModule: { getState: () => okAsync({}) },
      storageModule: { getPartition: () => ({}) },
      requestItemModule: { add: () => okAsync({}), patch: () => okAsync(undefined), getPending: () => okAsync([]) },
      requestResolverModule: {
        waitForWalletResponse: () => ResultAsync.fromSafePromise(new Promise<never>(() => undefined)),
        getPendingRequestIds: () => okAsync([])
      },
      preauthorizationPollingModule: {},
      gatewayModule: {}
    }
  } as never)
  const request = apply(RDT.SubintentRequestBuilder().manifest(MANIFEST), steps)
  void module.sendPreAuthorizationRequest(request as never)
  for (let i = 0; i < 100 && sent.length === 0; i++) await new Promise<void>((resolve) => setImmediate(resolve))
  if (sent.length !== 1) throw new Error(`the official toolkit sent ${sent.length} interactions`)
  return sent[0]!
}

const toolkit = (
  fake: FakeExtension,
  o: {
    readonly isMobile?: boolean
    readonly opened?: Ref.Ref<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>
  } = {}
) =>
  Toolkit.layerWith(
    { networkId: NETWORK_ID, dAppDefinitionAddress },
    {
      environment: Environment.Test({
        events: fake.target,
        origin,
        ...(o.isMobile ? { isMobile: true } : {}),
        ...(o.opened ? { opened: o.opened } : {})
      }),
      crypto: Crypto.Test("subintent-header"),
      gateway: ToolkitGateway.make({
        transactionStatus: () => Effect.succeed("CommittedSuccess"),
        subintentStatus: () => Effect.succeed({ subintentStatus: "Unknown", transactionIntentHash: undefined }),
        dAppName: () => Effect.succeed("x")
      })
    }
  ).pipe(
    Layer.provideMerge(KeyValueStore.layerMemory),
    Layer.provide(Layer.succeed(HttpClient.HttpClient, fakeRelay().client))
  )

/** Our pre-authorisation request for these calls: what the extension receives, and the deep link's `request`. */
const ours = (steps: ReadonlyArray<Step>) => {
  const send = Effect.gen(function* () {
    const wr = yield* WalletRequest
    const built = (
      apply(SubintentRequestBuilder.manifest(MANIFEST), steps) as {
        build: () => Parameters<typeof wr.sendPreAuthorizationRequest>[0]
      }
    ).build()
    const fiber = yield* Effect.fork(wr.sendPreAuthorizationRequest(built))
    yield* TestClock.adjust("1 millis")
    return fiber
  })
  const extension = Effect.gen(function* () {
    const fake = fakeExtension({ status: "sync" })
    const message = yield* Effect.gen(function* () {
      const fiber = yield* send
      yield* Fiber.interrupt(fiber)
      return fake.received.find((m) => m["discriminator"] === "walletInteraction")
    }).pipe(Effect.provide(toolkit(fake)))
    if (message === undefined) throw new Error("the extension received no walletInteraction")
    return message["interaction"] as Json
  })
  const deepLink = Effect.gen(function* () {
    const opened = yield* Ref.make<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>([])
    yield* Effect.gen(function* () {
      const fiber = yield* send
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(toolkit(fakeExtension(), { isMobile: true, opened })))
    const [link] = yield* Ref.get(opened)
    if (link === undefined) throw new Error("no deep link was opened")
    const request = new URL(link.url).searchParams.get("request")
    if (request === null) throw new Error("the deep link has no request")
    return request
  })
  return { extension, deepLink }
}

const header = { startEpochInclusive: 1_000, endEpochExclusive: 1_010, intentDiscriminator: 4_242 }
const fullHeader = {
  startEpochInclusive: 1_000,
  endEpochExclusive: 1_010,
  minProposerTimestampInclusive: 1_700_000_000,
  maxProposerTimestampExclusive: 1_700_003_600,
  intentDiscriminator: 4_242
}

const cases: ReadonlyArray<{
  readonly name: string
  readonly steps: ReadonlyArray<Step>
  readonly header: Json | undefined
}> = [
  { name: "without a header", steps: [["setExpiration", "afterDelay", 3_600]], header: undefined },
  {
    name: "without a header, with message and blobs",
    steps: [
      ["setExpiration", "atTime", 2_000_000_000],
      ["message", "hello"],
      ["addBlobs", "0a0b", "0c"]
    ],
    header: undefined
  },
  {
    name: "with the required header fields",
    steps: [
      ["header", header],
      ["setExpiration", "afterDelay", 60]
    ],
    header: { ...header, networkId: NETWORK_ID }
  },
  {
    name: "with every header field, message and blobs",
    steps: [
      ["header", fullHeader],
      ["setExpiration", "atTime", 2_000_000_000],
      ["addBlobs", "0a0b"],
      ["message", "m"]
    ],
    header: { ...fullHeader, networkId: NETWORK_ID }
  },
  {
    name: "with the caller's networkId first (another network's id is replaced, its place kept)",
    steps: [
      ["header", { networkId: 1, ...header }],
      ["setExpiration", "afterDelay", 60]
    ],
    header: { networkId: NETWORK_ID, ...header }
  },
  {
    name: "with the caller's networkId in the middle",
    steps: [
      ["header", { startEpochInclusive: 5, networkId: NETWORK_ID, endEpochExclusive: 6, intentDiscriminator: 7 }],
      ["setExpiration", "afterDelay", 60]
    ],
    header: { startEpochInclusive: 5, networkId: NETWORK_ID, endEpochExclusive: 6, intentDiscriminator: 7 }
  },
  {
    name: "with the header set after the expiration, message before blobs (keys in the order first set)",
    steps: [
      ["setExpiration", "afterDelay", 60],
      ["message", "m"],
      ["addBlobs", "0a"],
      ["header", header],
      ["setExpiration", "atTime", 2_000_000_000]
    ],
    header: { ...header, networkId: NETWORK_ID }
  }
]

describe("the pre-authorisation request and its subintent header, against the official toolkit 2.3.0", () => {
  for (const c of cases) {
    it.effect(`${c.name}: the extension's message and the deep link are byte-identical to the official's`, () =>
      Effect.gen(function* () {
        const { extension, deepLink } = ours(c.steps)
        const ourInteraction = yield* extension
        const ourRequestParam = yield* deepLink
        const interactionId = String(ourInteraction["interactionId"])
        const theirs = yield* Effect.promise(() => officialInteraction(interactionId, c.steps))
        const theirText = JSON.stringify(theirs)

        // the official's own shape, so the case means what its name says
        const request = (theirs["items"] as Json)["request"] as Json
        expect(request["header"]).toEqual(c.header)
        if (c.header !== undefined) expect(Object.keys(request["header"] as Json)).toEqual(Object.keys(c.header))
        else expect("header" in request).toBe(false)

        // desktop: what the extension receives
        expect(JSON.stringify(ourInteraction)).toBe(theirText)
        // mobile: the deep link's request parameter is base64url(JSON) of the same bytes (same interactionId: the
        // seeded Crypto makes the same first id in both runs)
        expect(Buffer.from(ourRequestParam, "base64url").toString("utf8")).toBe(theirText)
        expect(ourRequestParam).toBe(Buffer.from(theirText, "utf8").toString("base64url"))
      })
    )
  }

  it.effect("our send leaves the caller's header object as it was (the official's sets networkId in it)", () => {
    const callers = { networkId: 1, ...header }
    const fake = fakeExtension({ status: "sync" })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const fiber = yield* Effect.fork(
        wr.sendPreAuthorizationRequest(
          SubintentRequestBuilder.manifest(MANIFEST).header(callers).setExpiration("afterDelay", 60).build()
        )
      )
      yield* TestClock.adjust("1 millis")
      yield* Fiber.interrupt(fiber)
      const sent = fake.received.find((m) => m["discriminator"] === "walletInteraction")?.["interaction"] as Json
      expect((((sent["items"] as Json)["request"] as Json)["header"] as Json)["networkId"]).toBe(NETWORK_ID)
      expect(callers).toEqual({ networkId: 1, ...header })
    }).pipe(Effect.provide(toolkit(fake)))
  })
})
