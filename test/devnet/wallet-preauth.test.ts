/**
 * The wallet emulator's pre-authorisations: the subintent it signs is decoded with txv2, its signature checked with
 * the account's public key, and its header checked against the expiration rule on a TestClock.
 */
import { describe, expect, it } from "@effect/vitest"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Effect, Either, TestClock } from "effect"
import { virtualAccountAddress } from "../../src/devnet/ledger/address.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { makeWalletEmulator } from "../../src/devnet/wallet/index.js"
import { headerTimes, MAX_EPOCH_SPAN, MAX_EXPIRATION_SECONDS } from "../../src/devnet/wallet/preauth.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import type { WalletInteraction, WalletInteractionResponse } from "../../src/toolkit/schemas.js"
import {
  compileManifest,
  decodeSignedPartialTransactionV2,
  decodeTransactionId,
  fromHex,
  subintentHash,
  verifySignedPartialTransactionV2
} from "../../src/txv2/index.js"

const { XRD, hUSDC } = DevnetAddresses.resources
const [user1 = "", user2 = ""] = DevnetAddresses.users
const exchange = DevnetAddresses.exchangeAccount
const dApp = DevnetAddresses.dAppDefinition

const swapManifest = (account: string) => `
CALL_METHOD Address("${account}") "withdraw" Address("${XRD}") Decimal("100");
TAKE_FROM_WORKTOP Address("${XRD}") Decimal("100") Bucket("sold");
ASSERT_NEXT_CALL_RETURNS_ONLY Map<Address, Enum>(Address("${hUSDC}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("1.5")));
YIELD_TO_PARENT Bucket("sold");
ASSERT_WORKTOP_CONTAINS Address("${hUSDC}") Decimal("1.5");
CALL_METHOD Address("${account}") "deposit_batch" Expression("ENTIRE_WORKTOP");
YIELD_TO_PARENT;`

type Expiration =
  | { discriminator: "expireAtTime"; unixTimestampSeconds: number }
  | { discriminator: "expireAfterDelay"; expireAfterSeconds: number }

let counter = 0
const preAuth = (
  subintentManifest: string,
  expiration: Expiration,
  extra: {
    message?: string
    networkId?: number
    header?: { startEpochInclusive: number; endEpochExclusive: number; intentDiscriminator: number }
  } = {}
): WalletInteraction => ({
  items: {
    discriminator: "preAuthorizationRequest",
    request: {
      discriminator: "subintent",
      version: 1,
      manifestVersion: 2,
      subintentManifest,
      expiration,
      ...(extra.message === undefined ? {} : { message: extra.message }),
      ...(extra.header === undefined ? {} : { header: { ...extra.header, networkId: 240 } })
    }
  },
  interactionId: `00000000-0000-4000-9000-${String(++counter).padStart(12, "0")}`,
  metadata: {
    version: 2,
    dAppDefinitionAddress: dApp,
    networkId: extra.networkId ?? 240,
    origin: "http://127.0.0.1:8080"
  }
})

const withWallet = <A, E>(
  f: (wallet: Effect.Effect.Success<typeof makeWalletEmulator>) => Effect.Effect<A, E, Ledger>
) => Effect.flatMap(makeWalletEmulator, f).pipe(Effect.provide(Ledger.memory()))

const signedOf = (r: WalletInteractionResponse) => {
  if (r.discriminator !== "success" || r.items.discriminator !== "preAuthorizationResponse" || !r.items.response)
    throw new Error(`expected a pre-authorization response, got ${JSON.stringify(r)}`)
  return r.items.response
}

const failureOf = (r: WalletInteractionResponse) => {
  if (r.discriminator !== "failure") throw new Error(`expected a failure, got ${JSON.stringify(r)}`)
  return r
}

/** Decodes the signed partial, checks its ids and signature; answers the root subintent. */
const checkSigned = (r: WalletInteractionResponse, signer: string) => {
  const signed = signedOf(r)
  expect(signed.signedPartialTransaction).toMatch(/^4d[0-9a-f]+$/)
  const bytes = fromHex(signed.signedPartialTransaction)
  if (bytes === undefined) throw new Error("not hex")
  const decoded = decodeSignedPartialTransactionV2(bytes)
  if (Either.isLeft(decoded)) throw new Error(decoded.left.message)
  const partial = decoded.right
  const root = partial.partialTransaction.rootSubintent
  const hash = subintentHash(root)
  if (Either.isLeft(hash)) throw new Error(hash.left.message)
  // The answered id is the root subintent's hash, as a localnet `subtxid_` id.
  expect(signed.subintentHash.startsWith("subtxid_loc1")).toBe(true)
  const id = decodeTransactionId(signed.subintentHash, { kind: "subintent", networkId: 240 })
  if (Either.isLeft(id)) throw new Error(id.left.message)
  expect(Buffer.from(id.right.hash).equals(Buffer.from(hash.right))).toBe(true)
  // One signature, by the account's own key, over the subintent hash.
  expect(partial.rootSubintentSignatures).toHaveLength(1)
  const sig = partial.rootSubintentSignatures[0]
  if (sig?.type !== "Ed25519") throw new Error("expected an Ed25519 signature")
  // The key is the account's: the virtual account address derives from it.
  expect(virtualAccountAddress(sig.publicKey)).toBe(signer)
  expect(ed25519.verify(sig.signature, hash.right, sig.publicKey)).toBe(true)
  const tampered = Uint8Array.from(hash.right)
  tampered[0] = (tampered[0] ?? 0) ^ 1
  expect(ed25519.verify(sig.signature, tampered, sig.publicKey)).toBe(false)
  expect(Either.isRight(verifySignedPartialTransactionV2(partial))).toBe(true)
  expect(partial.partialTransaction.nonRootSubintents).toEqual([])
  return { signed, root, publicKey: sig.publicKey }
}

describe("wallet emulator: pre-authorisations", () => {
  it.effect("signs a swap subintent; header from expireAfterDelay counted at approval, on the TestClock", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        yield* TestClock.adjust("12 minutes") // epoch 3 (5-minute epochs from genesis at 0)
        const interaction = preAuth(
          swapManifest(user1),
          { discriminator: "expireAfterDelay", expireAfterSeconds: 3600 },
          {
            message: "swap 100 XRD"
          }
        )
        const review = yield* wallet.review(interaction)
        expect(review.kind).toBe("preAuthorization")
        expect(review.problem).toBeUndefined()
        const preview = review.preAuthorization
        if (preview === undefined) throw new Error("no preview")
        expect(preview.signers).toEqual([user1])
        expect(preview.withdrawals).toEqual([
          { account: user1, accountLabel: "Devnet Account 1", resource: XRD, symbol: "XRD", amount: "100" }
        ])
        expect(preview.guarantees).toEqual([
          { resource: hUSDC, symbol: "hUSDC", amount: "at least 1.5", where: "nextCall" },
          { resource: hUSDC, symbol: "hUSDC", amount: "at least 1.5", where: "worktop" }
        ])
        expect(preview.expiry).toEqual({
          startEpochInclusive: 3,
          endEpochExclusive: 17,
          expiresAt: 720 + 3600,
          headerFromDapp: false
        })
        expect(preview.message).toBe("swap 100 XRD")
        expect(review.lines.join("\n")).toContain("Sign with Devnet Account 1")

        // The user approves four minutes later: the delay counts from then; still epoch 4.
        yield* TestClock.adjust("4 minutes")
        const { signed, root } = checkSigned(yield* wallet.answer(interaction, { approve: true }), user1)
        const now = 16 * 60
        expect(signed.expirationTimestamp).toBe(now + 3600)
        const h = root.intentCore.header
        expect(h.networkId).toBe(240)
        expect(h.startEpochInclusive).toBe(4n)
        expect(h.endEpochExclusive).toBe(4n + 2n + 12n)
        expect(h.minProposerTimestampInclusive).toBeNull()
        expect(h.maxProposerTimestampExclusive).toBe(BigInt(now + 3600))
        expect(root.intentCore.message).toEqual({
          type: "Plaintext",
          mimeType: "text/plain",
          message: { type: "String", value: "swap 100 XRD" }
        })
        const compiled = compileManifest(swapManifest(user1), 240)
        if (Either.isLeft(compiled)) throw new Error(compiled.left.message)
        expect(root.intentCore.instructions).toEqual(compiled.right.instructions)

        // A second signing picks another random intent discriminator, so another subintent.
        const again = checkSigned(yield* wallet.answer(interaction, { approve: true }), user1)
        expect(again.root.intentCore.header.intentDiscriminator).not.toBe(h.intentDiscriminator)
        expect(again.signed.subintentHash).not.toBe(signed.subintentHash)
      })
    )
  )

  it.effect("expireAtTime: the end epoch covers the time, the max proposer timestamp is the time itself", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        yield* TestClock.adjust("12 minutes")
        const at = 720 + 15 * 60
        const { signed, root } = checkSigned(
          yield* wallet.answer(
            preAuth(swapManifest(user2), { discriminator: "expireAtTime", unixTimestampSeconds: at }),
            {
              approve: true
            }
          ),
          user2
        )
        expect(signed.expirationTimestamp).toBe(at)
        expect(root.intentCore.header.startEpochInclusive).toBe(3n)
        expect(root.intentCore.header.endEpochExclusive).toBe(3n + 2n + 3n)
        expect(root.intentCore.header.maxProposerTimestampExclusive).toBe(BigInt(at))
        expect(root.intentCore.message).toEqual({ type: "None" })
      })
    )
  )

  it("the header rule: 2 epochs plus one per 5 minutes, capped; refused when past, too close or too far", () => {
    const ok = (e: Expiration, now: number, epoch: number) => {
      const r = headerTimes(e, now, epoch)
      if (Either.isLeft(r)) throw new Error(r.left.message)
      return r.right
    }
    const err = (e: Expiration, now: number) => {
      const r = headerTimes(e, now, 1)
      if (Either.isRight(r)) throw new Error("expected a failure")
      return r.left.error
    }
    expect(ok({ discriminator: "expireAfterDelay", expireAfterSeconds: 30 }, 1000, 1)).toEqual({
      startEpochInclusive: 1,
      endEpochExclusive: 3,
      expiresAt: 1030
    })
    expect(ok({ discriminator: "expireAfterDelay", expireAfterSeconds: 15 * 60 }, 0, 1).endEpochExclusive).toBe(6)
    expect(ok({ discriminator: "expireAtTime", unixTimestampSeconds: 1600 }, 1000, 7)).toEqual({
      startEpochInclusive: 7,
      endEpochExclusive: 7 + 2 + 2,
      expiresAt: 1600
    })
    const month = ok({ discriminator: "expireAfterDelay", expireAfterSeconds: MAX_EXPIRATION_SECONDS }, 0, 1)
    expect(month.endEpochExclusive).toBe(1 + MAX_EPOCH_SPAN)
    expect(err({ discriminator: "expireAtTime", unixTimestampSeconds: 999 }, 1000)).toBe("expiredSubintent")
    expect(err({ discriminator: "expireAtTime", unixTimestampSeconds: 1000 }, 1000)).toBe("expiredSubintent")
    expect(err({ discriminator: "expireAtTime", unixTimestampSeconds: 1015 }, 1000)).toBe("subintentExpirationTooClose")
    expect(err({ discriminator: "expireAfterDelay", expireAfterSeconds: 0 }, 1000)).toBe("expiredSubintent")
    expect(err({ discriminator: "expireAfterDelay", expireAfterSeconds: MAX_EXPIRATION_SECONDS + 1 }, 0)).toBe(
      "invalidRequest"
    )
    expect(err({ discriminator: "expireAfterDelay", expireAfterSeconds: 1e300 }, 0)).toBe("invalidRequest")
    expect(err({ discriminator: "expireAfterDelay", expireAfterSeconds: -5 }, 0)).toBe("invalidRequest")
    expect(err({ discriminator: "expireAfterDelay", expireAfterSeconds: 1.5 }, 0)).toBe("invalidRequest")
    expect(err({ discriminator: "expireAfterDelay", expireAfterSeconds: Infinity }, 0)).toBe("invalidRequest")
    expect(err({ discriminator: "expireAtTime", unixTimestampSeconds: 10 ** 12 }, 0)).toBe("invalidRequest")
  })

  it.effect(
    "bad input gets the wallet's failures, in the review and in the answer; a rejection is rejectedByUser",
    () =>
      withWallet((wallet) =>
        Effect.gen(function* () {
          yield* TestClock.adjust("10 minutes")
          const delay = { discriminator: "expireAfterDelay", expireAfterSeconds: 600 } as const
          const header = { startEpochInclusive: 3, endEpochExclusive: 9, intentDiscriminator: 7 }
          const cases: ReadonlyArray<readonly [WalletInteraction, string, string]> = [
            [
              preAuth(`CALL_METHOD Address("${user1}") "withdraw";\nBURN_RESOURCE Bucket("x");`, delay),
              "failedToPrepareTransaction",
              "line 2"
            ],
            [preAuth("not a manifest", delay), "failedToPrepareTransaction", "does not compile"],
            [preAuth(swapManifest(exchange), delay), "failedToSignTransaction", exchange],
            [
              preAuth(swapManifest(user1), { discriminator: "expireAtTime", unixTimestampSeconds: 60 }),
              "expiredSubintent",
              "expired"
            ],
            [
              preAuth(swapManifest(user1), { discriminator: "expireAtTime", unixTimestampSeconds: 610 }),
              "subintentExpirationTooClose",
              "30 s"
            ],
            [
              preAuth(swapManifest(user1), { discriminator: "expireAfterDelay", expireAfterSeconds: 1e15 }),
              "invalidRequest",
              "30 days"
            ],
            [preAuth(swapManifest(user1), delay, { message: "x".repeat(2049) }), "invalidRequest", "2048 bytes"],
            [preAuth(swapManifest(user1), delay, { networkId: 1 }), "wrongNetwork", "network"],
            // A header given by the dApp does not skip the expiration check.
            [
              preAuth(swapManifest(user1), { discriminator: "expireAtTime", unixTimestampSeconds: 599 }, { header }),
              "expiredSubintent",
              "expired"
            ],
            [
              preAuth(swapManifest(user1), { discriminator: "expireAtTime", unixTimestampSeconds: 620 }, { header }),
              "subintentExpirationTooClose",
              "20 s"
            ]
          ]
          for (const [interaction, error, text] of cases) {
            const review = yield* wallet.review(interaction)
            expect(review.problem?.error).toBe(error)
            expect(review.problem?.message).toContain(text)
            const answered = failureOf(yield* wallet.answer(interaction, { approve: true }))
            expect(answered.error).toBe(error)
            expect(answered.message).toContain(text)
          }
          const hostile = `<img src=x onerror="globalThis.__pwned=1">\u202e\u0000`
          const ok = preAuth(swapManifest(user1), delay, { message: hostile })
          expect((yield* wallet.review(ok)).preAuthorization?.message).toBe(hostile)
          expect(yield* wallet.answer(ok, { approve: false })).toEqual({
            discriminator: "failure",
            interactionId: ok.interactionId,
            error: "rejectedByUser"
          })
          const { root } = checkSigned(yield* wallet.answer(ok, { approve: true }), user1)
          expect(root.intentCore.message).toMatchObject({ message: { value: hostile } })
          // With the dApp's header and an expiration far enough away, the header is signed as given.
          const given = preAuth(
            swapManifest(user1),
            { discriminator: "expireAtTime", unixTimestampSeconds: 900 },
            { header }
          )
          const signedHeader = checkSigned(yield* wallet.answer(given, { approve: true }), user1).root.intentCore.header
          expect([
            signedHeader.startEpochInclusive,
            signedHeader.endEpochExclusive,
            signedHeader.intentDiscriminator
          ]).toEqual([3n, 9n, 7n])
        })
      )
  )
})
