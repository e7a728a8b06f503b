/**
 * Differential tests against the official @radixdlt/radix-dapp-toolkit 2.3.0 (devDependency, tests only), run in
 * plain Node as wallet-protocol.md §8 describes.
 */
import { HttpClient, KeyValueStore } from "@effect/platform"
import * as RDT from "@radixdlt/radix-dapp-toolkit"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, Schema, TestClock } from "effect"
import { okAsync, ResultAsync } from "neverthrow"
import { safeParse } from "valibot"
import { afterEach, vi } from "vitest"
import {
  Crypto,
  DataRequestBuilder,
  encryptWalletResponse,
  Environment,
  fromHex,
  Relay,
  Storage,
  SubintentRequestBuilder,
  Toolkit,
  ToolkitGateway,
  WalletInteraction,
  WalletInteractionResponse,
  WalletRequest
} from "../../src/toolkit/index.js"
import { fakeExtension, type FakeExtension, fakeRelay } from "./fakes.js"
import { relayExample, signatureVectors } from "./fixtures.js"
import { baseLayer, dAppDefinitionAddress, origin } from "./layers.js"

type Detail = Record<string, unknown>
const challenge = "7807c2904fd1867738639c8e402fe55320da2c6275189ef0513de36dda20f7ee"

const walletAnswers = (m: Detail, f: FakeExtension) => {
  const interaction = (m["discriminator"] === "walletInteraction" ? m["interaction"] : m) as Detail
  const id = String(interaction["interactionId"])
  const items = interaction["items"] as Detail
  const kind = items["discriminator"]
  if (kind === "transaction") {
    void f.replyLater({
      discriminator: "success",
      interactionId: id,
      items: { discriminator: "transaction", send: { transactionIntentHash: "txid" } }
    })
  } else if (kind === "preAuthorizationRequest") {
    void f.replyLater({ discriminator: "failure", interactionId: id, error: "rejectedByUser" })
  } else if (kind === "unauthorizedRequest") {
    void f.replyLater({ discriminator: "success", interactionId: id, items: { discriminator: "unauthorizedRequest" } })
  } else if (items["proofOfOwnership"] !== undefined) {
    void f.replyLater({ discriminator: "failure", interactionId: id, error: "rejectedByUser" })
  } else {
    // A login with a challenge is answered with its proof, as the wallet does (anything else is refused).
    const auth = items["auth"] as Detail | undefined
    const persona = { identityAddress: "identity_p", label: "P" }
    const proof = { publicKey: "ab".repeat(32), signature: "cd".repeat(64), curve: "curve25519" }
    void f.replyLater({
      discriminator: "success",
      interactionId: id,
      items: {
        discriminator: "authorizedRequest",
        auth:
          auth?.["discriminator"] === "loginWithChallenge"
            ? { discriminator: "loginWithChallenge", persona, challenge: auth["challenge"], proof }
            : { discriminator: "usePersona", persona },
        ongoingAccounts: { accounts: [{ address: "account_a", label: "A", appearanceId: 0 }] }
      }
    })
  }
}

const everything = Effect.gen(function* () {
  const wr = yield* WalletRequest
  yield* wr.connect()
  yield* wr.updateSharedAccounts()
  yield* wr.sendRequest(
    DataRequestBuilder.request(
      DataRequestBuilder.accounts().exactly(2).withProof(),
      DataRequestBuilder.persona().withProof(),
      DataRequestBuilder.personaData().fullName().emailAddresses().phoneNumbers()
    )
  )
  yield* wr.sendOneTimeRequest(
    DataRequestBuilder.oneTime(DataRequestBuilder.accounts().atLeast(1), DataRequestBuilder.personaData().fullName())
  )
  yield* Effect.either(
    wr.sendOneTimeRequest(
      DataRequestBuilder.oneTime(DataRequestBuilder.proofOfOwnership().accounts(["account_a"]).identity("identity_p"))
    )
  )
  yield* Effect.either(
    wr.sendTransaction({ transactionManifest: 'CALL_METHOD Address("a") "lock_fee";', blobs: ["0a0b"], message: "hi" })
  )
  yield* Effect.either(
    wr.sendPreAuthorizationRequest(
      SubintentRequestBuilder.manifest("YIELD_TO_PARENT;")
        .header({ startEpochInclusive: 1, endEpochExclusive: 10, intentDiscriminator: 42 })
        .message("m")
        .setExpiration("atTime", 2_000_000_000)
        .build()
    )
  )
  // one request cancelled while pending
  const wr2 = yield* WalletRequest
  const pending = yield* Effect.fork(Effect.either(wr2.sendTransaction({ transactionManifest: "CANCEL_ME;" })))
  return pending
})

const toolkitFor = (fake: FakeExtension) =>
  Toolkit.layerWith(
    { networkId: 2, dAppDefinitionAddress, challengeGenerator: () => Promise.resolve(challenge) },
    {
      environment: Environment.Test({ events: fake.target, origin }),
      crypto: Crypto.Test("interop"),
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

describe("interop: every message we send passes the official schemas", () => {
  for (const canHandleSessions of [true, false]) {
    it.effect(`canHandleSessions=${canHandleSessions}`, () => {
      const fake = fakeExtension({
        canHandleSessions,
        onInteraction: (m, f) => {
          const interaction = (m["discriminator"] === "walletInteraction" ? m["interaction"] : m) as Detail
          const send = (interaction["items"] as Detail)["send"] as Detail | undefined
          if (send?.["transactionManifest"] === "CANCEL_ME;") return
          walletAnswers(m, f)
        }
      })
      return Effect.gen(function* () {
        const pending = yield* everything
        yield* TestClock.adjust("1 minute")
        const wr = yield* WalletRequest
        const items = yield* wr.getRequestItems
        const last = items.find((i) => i.status === "pending")
        if (!last) throw new Error("no pending request")
        const cancel = yield* Effect.fork(wr.cancelRequest(last.interactionId))
        yield* TestClock.adjust("10 seconds")
        yield* Fiber.join(cancel)
        yield* Fiber.join(pending)

        const sent = fake.received.filter((m) => m["discriminator"] !== "openPopup")
        const interactions = sent.filter(
          (m) => m["discriminator"] === "walletInteraction" || ("items" in m && !("discriminator" in m))
        )
        expect(interactions.length).toBeGreaterThanOrEqual(8)
        for (const message of sent) {
          if ("discriminator" in message) {
            const result = safeParse(RDT.ExtensionInteraction, message)
            expect(result.success, JSON.stringify({ message, issues: result.issues })).toBe(true)
            if (message["discriminator"] === "walletInteraction") {
              expect(safeParse(RDT.WalletInteraction, message["interaction"]).success).toBe(true)
            }
          } else {
            const result = safeParse(RDT.WalletInteraction, message)
            expect(result.success, JSON.stringify({ message, issues: result.issues })).toBe(true)
          }
        }
        const cancels = sent.filter(
          (m) =>
            m["discriminator"] === "cancelWalletInteraction" ||
            (m["items"] as Detail | undefined)?.["discriminator"] === "cancelRequest"
        )
        expect(cancels).toHaveLength(1)
        // and every interaction decodes with ours, keys in the official order
        for (const m of interactions.filter(
          (x) => (x["items"] as Detail | undefined)?.["discriminator"] !== "cancelRequest"
        )) {
          const wi = (m["discriminator"] === "walletInteraction" ? m["interaction"] : m) as Detail
          expect(Object.keys(wi)).toEqual(["items", "interactionId", "metadata"])
          expect(Object.keys(wi["metadata"] as Detail)).toEqual([
            "version",
            "dAppDefinitionAddress",
            "networkId",
            "origin"
          ])
          expect(Either.isRight(Schema.decodeUnknownEither(WalletInteraction)(wi))).toBe(true)
        }
      }).pipe(Effect.provide(toolkitFor(fake)))
    })
  }
})

describe("interop: deep link and relay", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it.effect("for the same secret, interactionId, address and origin our deep link equals DeepLinkModule's", () => {
    const sig = signatureVectors.signature
    const interaction = Schema.decodeUnknownSync(WalletInteraction)(
      JSON.parse(Buffer.from(sig.request_base64url, "base64url").toString("utf8"))
    )
    return Effect.gen(function* () {
      const storage = yield* Storage
      yield* storage.identities.setItems({ dApp: { secret: sig.secret, createdAt: 1 } })
      yield* storage.sessions.setItems({
        "3f1d6c6e-3ea4-4b7b-9df0-2f2a3e3a1c11": { sessionId: "3f1d6c6e-3ea4-4b7b-9df0-2f2a3e3a1c11", createdAt: 1 }
      })
      const ours = yield* Effect.flatMap(Relay, (r) => r.deepLink(interaction))

      const identityModule = RDT.IdentityModule({
        dAppDefinitionAddress: sig.dAppDefinitionAddress,
        providers: {
          storageModule: {
            getItemById: () => okAsync({ secret: sig.secret, createdAt: 1 }),
            setItems: () => okAsync(undefined)
          },
          KeyPairModule: RDT.Curve25519
        }
      } as never)
      const signed = (yield* Effect.promise(() =>
        identityModule
          .createSignature({
            kind: "dApp",
            interactionId: interaction.interactionId,
            dAppDefinitionAddress: sig.dAppDefinitionAddress,
            origin: sig.origin
          } as never)
          .match(
            (v: unknown) => v,
            (e: unknown) => {
              throw new Error(JSON.stringify(e))
            }
          )
      )) as { signature: string; publicKey: string; identity: string }
      let theirs = ""
      const deepLinkModule = RDT.DeepLinkModule({
        walletUrl: "radixWallet://connect",
        providers: {
          environmentModule: {
            isMobile: () => true,
            isTMA: () => false,
            globalThis: {
              location: {
                get href() {
                  return "x"
                },
                set href(v: string) {
                  theirs = v
                }
              }
            }
          }
        }
      } as never)
      yield* Effect.promise(() =>
        deepLinkModule
          .deepLinkToWallet({
            sessionId: "3f1d6c6e-3ea4-4b7b-9df0-2f2a3e3a1c11",
            request: Buffer.from(JSON.stringify(interaction)).toString("base64url"),
            signature: signed.signature,
            publicKey: signed.publicKey,
            identity: signed.identity,
            origin: interaction.metadata.origin,
            dAppDefinitionAddress: interaction.metadata.dAppDefinitionAddress
          })
          .match(
            () => undefined,
            () => undefined
          )
      )
      expect(theirs).not.toBe("")
      expect(ours).toBe(theirs)
    }).pipe(
      Effect.provide(
        Relay.Default.pipe(
          Layer.provideMerge(baseLayer({ options: { dAppDefinitionAddress: sig.dAppDefinitionAddress } })),
          Layer.provide(Layer.succeed(HttpClient.HttpClient, fakeRelay().client))
        )
      )
    )
  })

  it.effect("a response encrypted by our wallet-side helper is decrypted by RadixConnectRelayModule", () =>
    Effect.gen(function* () {
      const response = Schema.decodeUnknownSync(WalletInteractionResponse)({
        discriminator: "success",
        interactionId: "b25c8587-d08a-48bf-beb6-a80ae98c5106",
        items: { discriminator: "transaction", send: { transactionIntentHash: "txid_tdx_2_1xyz" } }
      })
      const dAppPublicKey = Buffer.from(RDT.Curve25519(relayExample.dAppSecret).x25519.getPublicKey(), "hex").toString(
        "hex"
      )
      const encrypted = yield* encryptWalletResponse({
        response,
        walletSecret: fromHex(relayExample.walletSecret),
        dAppPublicKey,
        dAppDefinitionAddress
      })
      vi.stubGlobal(
        "fetch",
        async () => new Response(JSON.stringify([{ sessionId: "s", ...encrypted }]), { status: 200 })
      )
      const delivered: Array<unknown> = []
      let polled = false
      let resolveDone: () => void = () => undefined
      const done = new Promise<void>((r) => (resolveDone = r))
      RDT.RadixConnectRelayModule({
        baseUrl: "https://relay.test",
        walletUrl: "radixWallet://connect",
        dAppDefinitionAddress,
        providers: {
          environmentModule: { isMobile: () => true, isTMA: () => false, globalThis: {} },
          requestResolverModule: {
            // Answer once, then never again (a pending promise stops the official loop without timers).
            getPendingRequestIds: () => {
              if (polled) return ResultAsync.fromSafePromise(new Promise<string[]>(() => undefined))
              polled = true
              return okAsync(["b25c8587-d08a-48bf-beb6-a80ae98c5106"])
            },
            addWalletResponses: (responses: Array<unknown>) => {
              delivered.push(...responses)
              resolveDone()
              return okAsync(undefined)
            }
          },
          identityModule: { get: () => okAsync(RDT.Curve25519(relayExample.dAppSecret)) },
          sessionModule: { getCurrentSession: () => okAsync({ sessionId: "s", createdAt: 0 }) },
          storageModule: { getPartition: () => ({}) }
        }
      } as never)
      yield* Effect.promise(() => done)
      expect(delivered).toEqual([response])
    }).pipe(Effect.provide(Crypto.Live))
  )
})
