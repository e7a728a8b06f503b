import { HttpClient, KeyValueStore } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Clock, Duration, Effect, Either, Fiber, Layer, Option, Ref, Schedule, Schema, TestClock } from "effect"
import {
  subintentPollSchedule,
  ToolkitGateway,
  type ToolkitGatewayApi,
  transactionPollSchedule
} from "../../src/toolkit/gateway.js"
import {
  Crypto,
  DataRequestBuilder,
  encryptWalletResponse,
  fromHex,
  parseDeepLink,
  sendResponseBody,
  WalletInteractionResponse,
  Environment,
  ExpiredSubintent,
  Storage,
  SubintentExpirationTooClose,
  SubintentRequestBuilder,
  Toolkit,
  type ToolkitOptions,
  WalletRequest
} from "../../src/toolkit/index.js"
import { verifyDeepLinkSignature } from "../../src/toolkit/deepLinkVerify.js"
import { MAX_UNCLAIMED_RESPONSES } from "../../src/toolkit/walletRequest.js"
import { fakeExtension, type FakeExtension, fakeRelay } from "./fakes.js"
import { relayExample } from "./fixtures.js"
import { dAppDefinitionAddress, origin } from "./layers.js"

const persona = { identityAddress: "identity_tdx_2_1p", label: "Persona One" }
const account = { address: "account_tdx_2_1a", label: "Main", appearanceId: 0 }
const challenge = "7807c2904fd1867738639c8e402fe55320da2c6275189ef0513de36dda20f7ee"

type Detail = Record<string, unknown>
const interactionOf = (m: Detail): Detail =>
  m["discriminator"] === "walletInteraction" ? (m["interaction"] as Detail) : m
const idOf = (m: Detail) => String(interactionOf(m)["interactionId"])
const itemsOf = (m: Detail) => interactionOf(m)["items"] as Detail

const loginResponse = (interactionId: string) => ({
  discriminator: "success",
  interactionId,
  items: {
    discriminator: "authorizedRequest",
    auth: { discriminator: "loginWithoutChallenge", persona },
    ongoingAccounts: { accounts: [account] }
  }
})

/** Answers data requests with a login, transactions with a hash, pre-authorisations with a signed subintent. */
const autoWallet = (m: Detail, f: FakeExtension) => {
  const id = idOf(m)
  const kind = itemsOf(m)["discriminator"]
  if (kind === "transaction") {
    void f.replyLater({
      discriminator: "success",
      interactionId: id,
      items: { discriminator: "transaction", send: { transactionIntentHash: "txid_tdx_2_1abc" } }
    })
  } else if (kind === "preAuthorizationRequest") {
    void f.replyLater({
      discriminator: "success",
      interactionId: id,
      items: {
        discriminator: "preAuthorizationResponse",
        response: { expirationTimestamp: 60, subintentHash: "subtxid_tdx_2_1s", signedPartialTransaction: "0d0a" }
      }
    })
  } else void f.replyLater(loginResponse(id))
}

interface GatewayScript {
  readonly statuses?: Array<string>
  readonly subintent?: Array<string>
  readonly calls: Array<{ readonly what: string; readonly at: number }>
}

const scriptedGateway = (script: GatewayScript): ToolkitGatewayApi => ({
  transactionStatus: () =>
    Effect.gen(function* () {
      script.calls.push({ what: "status", at: yield* Clock.currentTimeMillis })
      return script.statuses?.shift() ?? "Pending"
    }),
  subintentStatus: () =>
    Effect.gen(function* () {
      script.calls.push({ what: "subintent", at: yield* Clock.currentTimeMillis })
      const s = script.subintent?.shift() ?? "Unknown"
      return { subintentStatus: s, transactionIntentHash: s === "CommittedSuccess" ? "txid_parent" : undefined }
    }),
  dAppName: () => Effect.succeed("hSwap")
})

const toolkit = (
  fake: FakeExtension,
  o: {
    readonly options?: Partial<ToolkitOptions>
    readonly gateway?: GatewayScript
    readonly isMobile?: boolean
    readonly opened?: Ref.Ref<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>
    readonly http?: HttpClient.HttpClient
  } = {}
) =>
  Toolkit.layerWith(
    { networkId: 2, dAppDefinitionAddress, ...o.options },
    {
      environment: Environment.Test({
        events: fake.target,
        origin,
        ...(o.isMobile ? { isMobile: true } : {}),
        ...(o.opened ? { opened: o.opened } : {})
      }),
      crypto: Crypto.Test("wallet-request"),
      gateway: ToolkitGateway.make(scriptedGateway(o.gateway ?? { calls: [] }))
    }
  ).pipe(
    Layer.provideMerge(KeyValueStore.layerMemory),
    Layer.provide(Layer.succeed(HttpClient.HttpClient, o.http ?? fakeRelay().client))
  )

/** Lets real Promises (interceptor, challenge generator, login control) settle until `cond` holds. */
const until = (cond: () => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 1000 && !cond(); i++) yield* Effect.promise(() => new Promise<void>((r) => setImmediate(r)))
    expect(cond()).toBe(true)
  })

const interactions = (fake: FakeExtension) =>
  fake.received.filter((m) => m["discriminator"] === "walletInteraction" || "items" in m)

describe("connect and data requests", () => {
  it.effect("connect logs in: wallet data, stored state, a login item, button success then default after 2 s", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const storage = yield* Storage
      yield* TestClock.adjust("5 seconds")
      const data = yield* wr.connect()
      expect(data.persona).toEqual(persona)
      expect(data.accounts).toEqual([account])
      expect(itemsOf(interactions(fake)[0] ?? {})).toEqual({
        discriminator: "authorizedRequest",
        auth: { discriminator: "loginWithoutChallenge" },
        ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 } },
        reset: { accounts: false, personaData: false }
      })
      expect(interactionOf(interactions(fake)[0] ?? {})["metadata"]).toEqual({
        version: 2,
        dAppDefinitionAddress,
        networkId: 2,
        origin
      })
      const state = yield* storage.getState
      expect(state.walletData.persona).toEqual(persona)
      expect(state.loggedInTimestamp).toBe("5000")
      expect(state.sharedData.ongoingAccounts?.numberOfAccounts).toEqual({ quantifier: "atLeast", quantity: 1 })
      const [item] = yield* wr.getRequestItems
      expect(item).toMatchObject({ type: "loginRequest", status: "success", showCancel: true })
      expect(item && "walletInteraction" in item).toBe(false)
      expect(yield* wr.getButtonStatus).toBe("success")
      yield* TestClock.adjust("1999 millis")
      expect(yield* wr.getButtonStatus).toBe("success")
      yield* TestClock.adjust("1 millis")
      expect(yield* wr.getButtonStatus).toBe("default")
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect("the cache rule: an ongoing request the state already answers is not sent; with useCache false it is", () =>
    Effect.gen(function* () {
      for (const useCache of [true, false]) {
        const fake = fakeExtension({ onInteraction: autoWallet })
        const sent = yield* Effect.gen(function* () {
          const wr = yield* WalletRequest
          yield* wr.connect()
          const data = yield* wr.sendRequest(DataRequestBuilder.request(DataRequestBuilder.accounts()))
          expect(data.accounts).toEqual([account])
          const other = yield* wr.sendRequest(DataRequestBuilder.request(DataRequestBuilder.accounts().exactly(2)))
          expect(other.persona).toEqual(persona)
          return interactions(fake).length
        }).pipe(Effect.provide(toolkit(fake, { options: { useCache } })))
        expect(sent).toBe(useCache ? 2 : 3)
      }
    })
  )

  it.effect("a second request after login uses the persona; one-time requests never persist", () => {
    const fake = fakeExtension({
      onInteraction: (m, f) => {
        const items = itemsOf(m)
        if (items["discriminator"] === "unauthorizedRequest") {
          void f.replyLater({
            discriminator: "success",
            interactionId: idOf(m),
            items: {
              discriminator: "unauthorizedRequest",
              oneTimeAccounts: { accounts: [{ ...account, address: "account_other" }] }
            }
          })
        } else autoWallet(m, f)
      }
    })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      yield* wr.connect()
      yield* wr.updateSharedAccounts()
      expect(itemsOf(interactions(fake)[1] ?? {})).toMatchObject({
        auth: { discriminator: "usePersona", identityAddress: persona.identityAddress },
        reset: { accounts: true }
      })
      const oneTime = yield* wr.sendOneTimeRequest(DataRequestBuilder.oneTime(DataRequestBuilder.accounts().exactly(1)))
      expect(oneTime.accounts[0]?.address).toBe("account_other")
      expect((yield* wr.getWalletData).accounts).toEqual([account])
      const items = yield* wr.getRequestItems
      expect(items.map((i) => [i.type, i.isOneTimeRequest])).toEqual([
        ["loginRequest", false],
        ["dataRequest", false],
        ["dataRequest", true]
      ])
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect(
    "an answer of another kind than the request is refused: a one-time answer to a login, no proof to a challenge",
    () =>
      Effect.gen(function* () {
        const cases = [
          {
            name: "one-time answer to connect",
            send: (wr: WalletRequest["Type"]) => wr.connect(),
            items: { discriminator: "unauthorizedRequest", oneTimeAccounts: { accounts: [account] } }
          },
          {
            name: "login answer to a one-time request",
            send: (wr: WalletRequest["Type"]) =>
              wr.sendOneTimeRequest(DataRequestBuilder.oneTime(DataRequestBuilder.accounts().exactly(1))),
            items: loginResponse("x").items
          }
        ]
        for (const c of cases) {
          const fake = fakeExtension({
            onInteraction: (m, f) =>
              void f.replyLater({ discriminator: "success", interactionId: idOf(m), items: c.items })
          })
          yield* Effect.gen(function* () {
            const wr = yield* WalletRequest
            const result = yield* Effect.either(c.send(wr))
            expect([c.name, Either.isLeft(result) && result.left._tag]).toEqual([c.name, "walletResponseValidation"])
            expect((yield* wr.getWalletData).accounts).toEqual([])
          }).pipe(Effect.provide(toolkit(fake)))
        }
      })
  )

  it.effect("answers for requests nobody made are kept for another tab, the latest 32 only", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const storage = yield* Storage
      for (let i = 0; i < 40; i++)
        fake.reply({ discriminator: "failure", interactionId: `spam-${i}`, error: "rejectedByUser" })
      yield* TestClock.adjust("1 second")
      const kept = Object.keys(yield* storage.walletResponses.getAll)
      expect(kept.length).toBe(MAX_UNCLAIMED_RESPONSES)
      expect(kept.at(-1)).toBe("spam-39")
      expect(kept).not.toContain("spam-0")
      // The toolkit still works.
      yield* wr.connect()
      expect((yield* wr.getWalletData).accounts).toEqual([account])
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect("a failure response fails the request with its catalogue error", () => {
    const fake = fakeExtension({
      onInteraction: (m, f) =>
        void f.replyLater({ discriminator: "failure", interactionId: idOf(m), error: "rejectedByUser" })
    })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const result = yield* Effect.either(wr.connect())
      expect(Either.isLeft(result) && result.left._tag).toBe("rejectedByUser")
      expect(Either.isLeft(result) && result.left.message).toBe("user rejected request")
      expect((yield* wr.getRequestItems)[0]).toMatchObject({ status: "fail", error: "rejectedByUser" })
      expect(yield* wr.getButtonStatus).toBe("error")
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect("no extension: missingExtension after 200 ms, the item fails", () => {
    const fake = fakeExtension({ status: "none" })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const fiber = yield* Effect.fork(Effect.either(wr.connect()))
      yield* TestClock.adjust("200 millis")
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("missingExtension")
      expect((yield* wr.getRequestItems)[0]).toMatchObject({ status: "fail", error: "missingExtension" })
    }).pipe(Effect.provide(toolkit(fake)))
  })
})

describe("challenge, login control, interceptor", () => {
  const withProof = DataRequestBuilder.request(DataRequestBuilder.accounts().withProof())

  it.effect("no generator, or a bad challenge: ChallengeValidationError 'challenge is invalid'", () =>
    Effect.gen(function* () {
      for (const challengeGenerator of [
        undefined,
        () => Promise.resolve("abc"),
        () => Promise.resolve("z".repeat(64))
      ]) {
        const fake = fakeExtension({ onInteraction: autoWallet })
        const result = yield* Effect.flatMap(WalletRequest, (wr) => Effect.either(wr.sendRequest(withProof))).pipe(
          Effect.provide(toolkit(fake, { options: challengeGenerator ? { challengeGenerator } : {} }))
        )
        expect(Either.isLeft(result) && result.left._tag).toBe("ChallengeValidationError")
        expect(Either.isLeft(result) && result.left.message).toBe("challenge is invalid")
        expect(interactions(fake)).toHaveLength(0)
      }
    })
  )

  it.effect("a login with a challenge answered as a login without one (no proof) is refused", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const fiber = yield* Effect.fork(
        Effect.either(wr.sendRequest(DataRequestBuilder.request(DataRequestBuilder.persona().withProof())))
      )
      yield* until(() => interactions(fake).length > 0)
      expect(itemsOf(interactions(fake)[0] ?? {})).toMatchObject({ auth: { discriminator: "loginWithChallenge" } })
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("walletResponseValidation")
      expect((yield* wr.getWalletData).persona).toBeUndefined()
    }).pipe(Effect.provide(toolkit(fake, { options: { challengeGenerator: () => Promise.resolve(challenge) } })))
  })

  it.effect("a generator that throws: ChallengeGeneratorError", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const result = yield* Effect.either(wr.sendRequest(withProof))
      expect(Either.isLeft(result) && result.left._tag).toBe("ChallengeGeneratorError")
      expect(Either.isLeft(result) && result.left.message).toBe("failed to generate challenge")
    }).pipe(Effect.provide(toolkit(fake, { options: { challengeGenerator: () => Promise.reject(new Error("down")) } })))
  })

  it.effect("a valid challenge (any case) goes into the accounts request", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      yield* Effect.fork(wr.sendRequest(withProof))
      yield* until(() => interactions(fake).length > 0)
      expect(itemsOf(interactions(fake)[0] ?? {})["ongoingAccounts"]).toEqual({
        challenge: challenge.toUpperCase(),
        numberOfAccounts: { quantifier: "atLeast", quantity: 1 }
      })
    }).pipe(
      Effect.provide(toolkit(fake, { options: { challengeGenerator: () => Promise.resolve(challenge.toUpperCase()) } }))
    )
  })

  it.effect("login control: a rejected login settles with LoginRejectedByDapp and nothing is stored", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const storage = yield* Storage
      const result = yield* Effect.either(wr.connect())
      expect(Either.isLeft(result) && result.left._tag).toBe("LoginRejectedByDapp")
      expect(Either.isLeft(result) && result.left.message).toBe("Login rejected by dApp")
      expect((yield* storage.getState).walletData.persona).toBeUndefined()
      expect((yield* wr.getRequestItems)[0]).toMatchObject({ status: "fail", error: "LoginRejectedByDapp" })
    }).pipe(Effect.provide(toolkit(fake, { options: { onLogin: () => Promise.reject(new Error("not allowed")) } })))
  })

  it.effect("login control that accepts lets the login through", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    const seen: Array<string | undefined> = []
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const data = yield* wr.connect()
      expect(data.persona).toEqual(persona)
      expect(seen).toEqual([persona.label])
    }).pipe(Effect.provide(toolkit(fake, { options: { onLogin: async (d) => void seen.push(d.persona?.label) } })))
  })

  it.effect("the interceptor changes what is sent; the stored item keeps the original interaction", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      yield* Effect.fork(wr.sendTransaction({ transactionManifest: "CALL_METHOD;" }))
      yield* until(() => interactions(fake).length > 0)
      expect(itemsOf(interactions(fake)[0] ?? {})).toEqual({
        discriminator: "transaction",
        send: { transactionManifest: "CALL_METHOD;", message: "intercepted", version: 1 }
      })
      const [item] = yield* wr.getRequestItems
      expect(item?.walletInteraction?.items).toEqual({
        discriminator: "transaction",
        send: { transactionManifest: "CALL_METHOD;", version: 1 }
      })
    }).pipe(
      Effect.provide(
        toolkit(fake, {
          options: {
            requestInterceptor: async (wi) =>
              wi.items.discriminator === "transaction"
                ? { ...wi, items: { ...wi.items, send: { ...wi.items.send, message: "intercepted" } } }
                : wi
          }
        })
      )
    )
  })

  it.effect("an interceptor that throws fails the request with requestInterceptorError", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const result = yield* Effect.either(wr.sendTransaction({ transactionManifest: "M" }))
      expect(Either.isLeft(result) && result.left._tag).toBe("requestInterceptorError")
      expect(interactions(fake)).toHaveLength(0)
    }).pipe(Effect.provide(toolkit(fake, { options: { requestInterceptor: () => Promise.reject(new Error("no")) } })))
  })
})

describe("transactions", () => {
  it.effect("polls the status at 0, 2, 6, 14, 24 s (2 s ×2 capped at 10 s) until CommittedSuccess", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    const gateway: GatewayScript = {
      statuses: ["Pending", "Unknown", "Pending", "Pending", "CommittedSuccess"],
      calls: []
    }
    const ids: Array<string> = []
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const fiber = yield* Effect.fork(
        wr.sendTransaction({ transactionManifest: "CALL_METHOD;", onTransactionId: (h) => void ids.push(h) })
      )
      yield* TestClock.adjust("1 minute")
      const result = yield* Fiber.join(fiber)
      expect(result).toEqual({ transactionIntentHash: "txid_tdx_2_1abc", status: "CommittedSuccess" })
      expect(gateway.calls.map((c) => c.at)).toEqual([0, 2000, 6000, 14000, 24000])
      expect(ids).toEqual(["txid_tdx_2_1abc"])
      expect((yield* wr.getRequestItems)[0]).toMatchObject({
        status: "success",
        transactionIntentHash: "txid_tdx_2_1abc",
        metadata: { transactionStatus: "CommittedSuccess" }
      })
    }).pipe(Effect.provide(toolkit(fake, { gateway })))
  })

  it.effect("an unreadable copy of the wallet's answer, after it, does not undo it: the commit still succeeds", () => {
    const fake = fakeExtension({
      onInteraction: (m, f) => {
        const answer = (hash: unknown) => ({
          discriminator: "success",
          interactionId: idOf(m),
          items: { discriminator: "transaction", send: { transactionIntentHash: hash } }
        })
        void f.replyLater(answer("txid_tdx_2_1abc")).then(() => f.replyLater(answer(1)))
      }
    })
    const gateway: GatewayScript = { statuses: ["Pending", "CommittedSuccess"], calls: [] }
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const fiber = yield* Effect.fork(wr.sendTransaction({ transactionManifest: "CALL_METHOD;" }))
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(fiber)).toEqual({ transactionIntentHash: "txid_tdx_2_1abc", status: "CommittedSuccess" })
      expect((yield* wr.getRequestItems)[0]).toMatchObject({ status: "success" })
    }).pipe(Effect.provide(toolkit(fake, { gateway })))
  })

  it.effect("a transaction the wallet answered before the page was loaded again is followed to its commit", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    const gateway: GatewayScript = { statuses: ["Pending", "CommittedSuccess"], calls: [] }
    const id = "answered-before-reload"
    const stored = {
      type: "sendTransaction",
      status: "pending",
      interactionId: id,
      createdAt: 1,
      showCancel: false,
      isOneTimeRequest: false,
      transactionIntentHash: "txid_tdx_2_1abc",
      walletResponse: {
        discriminator: "success",
        interactionId: id,
        items: { discriminator: "transaction", send: { transactionIntentHash: "txid_tdx_2_1abc" } }
      }
    }
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const kv = yield* KeyValueStore.KeyValueStore
      // As the page before the reload left it: the answer in, the status not yet known.
      yield* kv.set(`rdt:${dAppDefinitionAddress}:2:requests`, JSON.stringify({ [id]: stored }))
      yield* TestClock.adjust("1 minute")
      expect(gateway.calls.map((c) => c.what)).toEqual(["status", "status"])
      expect((yield* wr.getRequestItems).find((i) => i.interactionId === id)).toMatchObject({
        status: "success",
        metadata: { transactionStatus: "CommittedSuccess" }
      })
    }).pipe(Effect.provide(toolkit(fake, { gateway })))
  })

  it.effect("CommittedFailure or Rejected ends in fail with the status", () =>
    Effect.gen(function* () {
      for (const status of ["CommittedFailure", "Rejected"]) {
        const fake = fakeExtension({ onInteraction: autoWallet })
        yield* Effect.gen(function* () {
          const wr = yield* WalletRequest
          const fiber = yield* Effect.fork(Effect.either(wr.sendTransaction({ transactionManifest: "M" })))
          yield* TestClock.adjust("1 minute")
          const result = yield* Fiber.join(fiber)
          expect(Either.isLeft(result) && result.left._tag === "TransactionFailed" && result.left.status).toBe(status)
          expect((yield* wr.getRequestItems)[0]).toMatchObject({
            status: "fail",
            metadata: { transactionStatus: status }
          })
        }).pipe(Effect.provide(toolkit(fake, { gateway: { statuses: [status], calls: [] } })))
      }
    })
  )

  it.effect("receivedByWallet hides Cancel; Ignore is sticky even when the response comes later", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const fiber = yield* Effect.fork(Effect.either(wr.sendTransaction({ transactionManifest: "M" })))
      yield* TestClock.adjust("0 millis")
      const id = idOf(interactions(fake)[0] ?? {})
      expect((yield* wr.getRequestItems)[0]?.showCancel).toBe(true)
      fake.reply({ eventType: "receivedByWallet", interactionId: id })
      yield* TestClock.adjust("0 millis")
      expect((yield* wr.getRequestItems)[0]?.showCancel).toBe(false)
      yield* wr.ignoreTransaction(id)
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("RequestIgnored")
      fake.reply({
        discriminator: "success",
        interactionId: id,
        items: { discriminator: "transaction", send: { transactionIntentHash: "t" } }
      })
      yield* TestClock.adjust("2 seconds")
      const [item] = yield* wr.getRequestItems
      expect(item?.status).toBe("ignored")
      expect(item && "walletInteraction" in item).toBe(false)
    }).pipe(Effect.provide(toolkit(fake)))
  })
})

describe("pre-authorisation", () => {
  it.effect("pendingCommit, then the subintent poll stores the parent hash on CommittedSuccess", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    const gateway: GatewayScript = { subintent: ["Unknown", "CommittedSuccess"], calls: [] }
    const parents: Array<string> = []
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const header = { startEpochInclusive: 1, endEpochExclusive: 5, intentDiscriminator: 9 }
      const result = yield* wr.sendPreAuthorizationRequest(
        SubintentRequestBuilder.manifest("M")
          .header(header)
          .setExpiration("afterDelay", 60)
          .onSubmittedSuccess((h) => void parents.push(h))
          .build()
      )
      expect(result).toEqual({
        signedPartialTransaction: "0d0a",
        expirationTimestamp: 60,
        subintentHash: "subtxid_tdx_2_1s"
      })
      expect(itemsOf(interactions(fake)[0] ?? {})).toMatchObject({ request: { header: { ...header, networkId: 2 } } })
      expect((yield* wr.getRequestItems)[0]).toMatchObject({
        status: "pendingCommit",
        transactionIntentHash: "subtxid_tdx_2_1s",
        showCancel: false
      })
      yield* TestClock.adjust("2 seconds")
      expect(gateway.calls.map((c) => c.at)).toEqual([0, 2000])
      expect((yield* wr.getRequestItems)[0]).toMatchObject({
        status: "success",
        metadata: { parentTransactionIntentHash: "txid_parent", subintentHash: "subtxid_tdx_2_1s" }
      })
      expect(parents).toEqual(["txid_parent"])
    }).pipe(Effect.provide(toolkit(fake, { gateway })))
  })

  it.effect(
    "the wallet's expiration refusals are catalogue errors with a message for the user, or the wallet's own",
    () =>
      Effect.gen(function* () {
        const cases = [
          {
            error: "expiredSubintent",
            message: undefined,
            shown: "the pre-authorization had already expired when the wallet received it; ask for a new one"
          },
          {
            error: "subintentExpirationTooClose",
            message: undefined,
            shown:
              "the pre-authorization would expire too soon for the wallet to sign it; ask again with a later expiration"
          },
          { error: "subintentExpirationTooClose", message: "expires in 12 s", shown: "expires in 12 s" }
        ] as const
        for (const c of cases) {
          const fake = fakeExtension({
            onInteraction: (m, f) =>
              void f.replyLater({
                discriminator: "failure",
                interactionId: idOf(m),
                error: c.error,
                ...(c.message === undefined ? {} : { message: c.message })
              })
          })
          yield* Effect.gen(function* () {
            const wr = yield* WalletRequest
            const result = yield* Effect.flip(
              wr.sendPreAuthorizationRequest(SubintentRequestBuilder.manifest("M").setExpiration("atTime", 1).build())
            )
            expect(result._tag).toBe(c.error)
            expect(result.message).toBe(c.shown)
            expect(result).toBeInstanceOf(
              c.error === "expiredSubintent" ? ExpiredSubintent : SubintentExpirationTooClose
            )
            expect((yield* wr.getRequestItems)[0]).toMatchObject({
              type: "preAuthorizationRequest",
              status: "fail",
              error: c.error
            })
            expect(yield* wr.getButtonStatus).toBe("error")
          }).pipe(Effect.provide(toolkit(fake)))
        }
      })
  )

  it.effect("expiry before commit gives timedOut; the poll backs off up to 60 s", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    const gateway: GatewayScript = { calls: [] }
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      yield* wr.sendPreAuthorizationRequest(
        SubintentRequestBuilder.manifest("M").setExpiration("afterDelay", 60).build()
      )
      yield* TestClock.adjust("59 seconds")
      expect((yield* wr.getRequestItems)[0]?.status).toBe("pendingCommit")
      yield* TestClock.adjust("1 second")
      expect((yield* wr.getRequestItems)[0]?.status).toBe("timedOut")
      expect(gateway.calls.map((c) => c.at)).toEqual([0, 2000, 6000, 14000, 30000])
    }).pipe(Effect.provide(toolkit(fake, { gateway })))
  })
})

describe("cancel, bad input, other tabs, disconnect", () => {
  it.effect("cancel: the item fails canceledByUser, the request fails, the extension gets the cancel", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const fiber = yield* Effect.fork(Effect.either(wr.connect()))
      yield* TestClock.adjust("0 millis")
      const id = idOf(interactions(fake)[0] ?? {})
      const cancel = yield* Effect.fork(wr.cancelRequest(id))
      yield* TestClock.adjust("0 millis")
      expect(fake.received.at(-1)).toMatchObject({ interactionId: id, discriminator: "cancelWalletInteraction" })
      fake.reply({ eventType: "requestCancelSuccess", interactionId: id })
      expect(yield* Fiber.join(cancel)).toBe("requestCancelSuccess")
      const result = yield* Fiber.join(fiber)
      expect(Either.isLeft(result) && result.left._tag).toBe("canceledByUser")
      expect((yield* wr.getRequestItems)[0]).toMatchObject({ status: "fail", error: "canceledByUser" })
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect("a late response cannot undo a cancel; a cancelled transaction stops polling", () => {
    const fake = fakeExtension()
    const gateway: GatewayScript = { calls: [] }
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const storage = yield* Storage
      const login = yield* Effect.fork(Effect.either(wr.connect()))
      const tx = yield* Effect.fork(Effect.either(wr.sendTransaction({ transactionManifest: "M" })))
      yield* TestClock.adjust("0 millis")
      const [loginId, txId] = interactions(fake).map(idOf)
      fake.reply({
        discriminator: "success",
        interactionId: txId,
        items: { discriminator: "transaction", send: { transactionIntentHash: "t" } }
      })
      yield* TestClock.adjust("0 millis")
      expect(gateway.calls).toHaveLength(1)
      yield* Effect.fork(wr.cancelRequest(loginId ?? ""))
      yield* Effect.fork(wr.cancelRequest(txId ?? ""))
      yield* TestClock.adjust("0 millis")
      fake.reply(loginResponse(loginId ?? ""))
      yield* TestClock.adjust("1 minute")
      expect(gateway.calls).toHaveLength(1)
      const items = yield* wr.getRequestItems
      expect(items.map((i) => [i.status, i.error])).toEqual([
        ["fail", "canceledByUser"],
        ["fail", "canceledByUser"]
      ])
      expect((yield* storage.getState).walletData.persona).toBeUndefined()
      const loginResult = yield* Fiber.join(login)
      const txResult = yield* Fiber.join(tx)
      expect(Either.isLeft(loginResult) && loginResult.left._tag).toBe("canceledByUser")
      expect(Either.isLeft(txResult) && txResult.left._tag).toBe("canceledByUser")
    }).pipe(Effect.provide(toolkit(fake, { gateway })))
  })

  it.effect("wrong ids, unknown requests and malformed responses affect no other request", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const storage = yield* Storage
      const a = yield* Effect.fork(Effect.either(wr.sendTransaction({ transactionManifest: "A" })))
      const b = yield* Effect.fork(Effect.either(wr.sendTransaction({ transactionManifest: "B" })))
      yield* TestClock.adjust("0 millis")
      const [idA, idB] = interactions(fake).map(idOf)
      fake.reply({ discriminator: "failure", interactionId: "not-a-request", error: "rejectedByUser" })
      fake.reply({
        discriminator: "success",
        interactionId: idA,
        items: { discriminator: "transaction", send: { transactionIntentHash: 5 } }
      })
      fake.reply({ discriminator: "wat", interactionId: idB })
      fake.reply("garbage")
      const resultA = yield* Fiber.join(a)
      expect(Either.isLeft(resultA) && resultA.left._tag).toBe("walletResponseValidation")
      expect((yield* wr.getRequestItems).find((i) => i.interactionId === idB)?.status).toBe("fail")
      fake.reply({ discriminator: "failure", interactionId: idB, error: "rejectedByUser" })
      const resultB = yield* Fiber.join(b)
      expect(Either.isLeft(resultB) && resultB.left._tag).toBe("walletResponseValidation")
      expect(Object.keys(yield* storage.walletResponses.getAll)).toEqual(["not-a-request"])
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect("a response written by another tab is picked up by the 1 s sweep", () => {
    const fake = fakeExtension()
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const storage = yield* Storage
      const fiber = yield* Effect.fork(wr.connect())
      yield* TestClock.adjust("0 millis")
      const id = idOf(interactions(fake)[0] ?? {})
      yield* storage.walletResponses.setItems({
        [id]: {
          discriminator: "success",
          interactionId: id,
          items: { discriminator: "authorizedRequest", auth: { discriminator: "loginWithoutChallenge", persona } }
        }
      })
      yield* TestClock.adjust("999 millis")
      expect(Option.isNone(yield* Fiber.poll(fiber))).toBe(true)
      yield* TestClock.adjust("1 millis")
      expect((yield* Fiber.join(fiber)).persona).toEqual(persona)
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect("invalid JSON in localStorage is reset, not thrown; the toolkit still works", () => {
    const fake = fakeExtension({ onInteraction: autoWallet })
    return Effect.gen(function* () {
      const kv = yield* KeyValueStore.KeyValueStore
      yield* kv.set(`rdt:${dAppDefinitionAddress}:2:requests`, "{oops")
      yield* kv.set(`rdt:${dAppDefinitionAddress}:2:state`, "[[[")
      const wr = yield* WalletRequest
      expect((yield* wr.connect()).persona).toEqual(persona)
    }).pipe(Effect.provide(toolkit(fake)))
  })

  it.effect("disconnect cancels pending requests, resets the state, clears items and the extension session", () => {
    const fake = fakeExtension({
      onInteraction: (m, f) => (itemsOf(m)["discriminator"] === "transaction" ? undefined : autoWallet(m, f))
    })
    return Effect.gen(function* () {
      const wr = yield* WalletRequest
      const storage = yield* Storage
      yield* wr.connect()
      expect(Option.isSome(yield* storage.connectorExtension.get)).toBe(true)
      const tx = yield* Effect.fork(Effect.either(wr.sendTransaction({ transactionManifest: "M" })))
      yield* TestClock.adjust("0 millis")
      yield* wr.disconnect()
      const result = yield* Fiber.join(tx)
      expect(Either.isLeft(result) && result.left._tag).toBe("canceledByUser")
      expect(fake.received.some((m) => m["discriminator"] === "cancelWalletInteraction")).toBe(true)
      expect((yield* wr.getWalletData).persona).toBeUndefined()
      expect(yield* wr.getRequestItems).toEqual([])
      expect(yield* storage.connectorExtension.get).toEqual(Option.none())
      expect(yield* wr.getButtonStatus).toBe("default")
    }).pipe(Effect.provide(toolkit(fake)))
  })
})

describe("mobile: deep link and relay", () => {
  it.effect("a request opens the signed deep link; the wallet's encrypted answer arrives on the 1.5 s poll", () => {
    const fake = fakeExtension({ status: "none" })
    const relay = fakeRelay()
    return Effect.gen(function* () {
      const opened = yield* Ref.make<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>([])
      const result = yield* Effect.gen(function* () {
        const wr = yield* WalletRequest
        const fiber = yield* Effect.fork(wr.connect())
        yield* TestClock.adjust("0 millis")
        const [link] = yield* Ref.get(opened)
        expect(link?.how).toBe("navigate")
        const parsed = parseDeepLink(link?.url ?? "")
        if (Either.isLeft(parsed)) throw new Error(parsed.left)
        expect(verifyDeepLinkSignature(parsed.right)).toBe(true)
        expect((yield* wr.getRequestItems)[0]?.sentToWallet).toBe(true)
        const walletSecret = fromHex(relayExample.walletSecret)
        const encrypted = yield* encryptWalletResponse({
          response: Schema.decodeUnknownSync(WalletInteractionResponse)(
            loginResponse(parsed.right.interaction.interactionId)
          ),
          walletSecret,
          dAppPublicKey: parsed.right.publicKey,
          dAppDefinitionAddress: parsed.right.dAppDefinitionAddress
        }).pipe(Effect.provide(Crypto.Live))
        relay.store.set(parsed.right.sessionId, [
          { error: "noise" },
          sendResponseBody(parsed.right.sessionId, encrypted)
        ])
        yield* TestClock.adjust("1500 millis")
        return yield* Fiber.join(fiber)
      }).pipe(Effect.provide(toolkit(fake, { isMobile: true, opened, http: relay.client })))
      expect(result.persona).toEqual(persona)
      expect(relay.calls.map((c) => c.at)).toEqual([1500])
    })
  })
})

describe("schedules", () => {
  it("transaction poll delays are 2, 4, 8, 10, 10 s; subintent delays cap at 60 s", () => {
    const delays = (s: Schedule.Schedule<Duration.Duration>, n: number) =>
      Array.from(
        Effect.runSync(
          Schedule.run(
            Schedule.delays(s),
            0,
            Array.from({ length: n }, (_, i) => i)
          )
        ),
        Duration.toSeconds
      )
    expect(delays(transactionPollSchedule, 6)).toEqual([2, 4, 8, 10, 10, 10])
    expect(delays(subintentPollSchedule, 7)).toEqual([2, 4, 8, 16, 32, 60, 60])
  })
})
