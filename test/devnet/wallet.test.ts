import { describe, expect, it } from "@effect/vitest"
import { blake2b } from "@noble/hashes/blake2.js"
import { BigDecimal, Effect, Option } from "effect"
import { fromHex } from "../../src/toolkit/bytes.js"
import { primitives } from "../../src/toolkit/cryptoPrimitives.js"
import type { WalletInteraction, WalletInteractionItems, WalletInteractionResponse } from "../../src/toolkit/schemas.js"
import { virtualAccountAddress, virtualIdentityAddress } from "../../src/devnet/ledger/address.js"
import { parseLedgerDecimal } from "../../src/devnet/ledger/amount.js"
import { formatPlain } from "../../src/lib/decimalText.js"
import { devnetFee } from "../../src/devnet/ledger/execute.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { makeWalletEmulator, rolaMessageHash } from "../../src/devnet/wallet/index.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"

const { XRD, hUSDC } = DevnetAddresses.resources
const [user1 = "", user2 = "", user3 = ""] = DevnetAddresses.users
const exchange = DevnetAddresses.exchangeAccount
const dApp = DevnetAddresses.dAppDefinition
const origin = "http://127.0.0.1:8080"
const challenge = "7807c2904fd1867738639c8e402fe55320da2c6275189ef0513de36dda20f7ee"

let counter = 0
const interactionOf = (
  items: WalletInteractionItems,
  overrides: Partial<WalletInteraction["metadata"]> = {}
): WalletInteraction => ({
  items,
  interactionId: `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`,
  metadata: { version: 2, dAppDefinitionAddress: dApp, networkId: 240, origin, ...overrides }
})

const withWallet = <A, E>(
  f: (wallet: Effect.Effect.Success<typeof makeWalletEmulator>) => Effect.Effect<A, E, Ledger>
) => Effect.flatMap(makeWalletEmulator, f).pipe(Effect.provide(Ledger.memory()))

const success = (r: WalletInteractionResponse) => {
  if (r.discriminator !== "success") throw new Error(`expected success, got ${JSON.stringify(r)}`)
  return r.items
}

/** ROLA's signed message, built independently: blake2b-256('R' ‖ challenge ‖ len ‖ dApp definition ‖ origin). */
const rolaHash = (c: string, o: string) =>
  blake2b(
    Buffer.concat([
      Buffer.from("R"),
      Buffer.from(c, "hex"),
      Buffer.from([dApp.length]),
      Buffer.from(dApp),
      Buffer.from(o)
    ]),
    {
      dkLen: 32
    }
  )

/** The ROLA check a dApp backend makes: the signature verifies and the key owns the address. */
const verifyProof = (
  proof: { publicKey: string; signature: string; curve: string },
  address: string,
  c: string = challenge
) => {
  expect(proof.curve).toBe("curve25519")
  const hash = rolaHash(c, origin)
  expect(
    Buffer.from(rolaMessageHash({ challenge: c, dAppDefinitionAddress: dApp, origin })).equals(Buffer.from(hash))
  ).toBe(true)
  expect(primitives.ed25519Verify(fromHex(proof.signature), hash, fromHex(proof.publicKey))).toBe(true)
  const derive = address.startsWith("identity_") ? virtualIdentityAddress : virtualAccountAddress
  expect(derive(fromHex(proof.publicKey))).toBe(address)
  // A different origin gives a signature that does not verify.
  const other = rolaHash(c, "https://evil.example")
  expect(primitives.ed25519Verify(fromHex(proof.signature), other, fromHex(proof.publicKey))).toBe(false)
}

const transfer = (from: string, to: string, resource: string, amount: string) => `
CALL_METHOD Address("${from}") "withdraw" Address("${resource}") Decimal("${amount}");
TAKE_ALL_FROM_WORKTOP Address("${resource}") Bucket("b");
CALL_METHOD Address("${to}") "try_deposit_or_abort" Bucket("b") Enum<0u8>();`

describe("wallet emulator: login, accounts, persona data and proofs", () => {
  it.effect(
    "login with a challenge, accounts with proofs and persona data; every proof is a valid ROLA signature",
    () =>
      withWallet((wallet) =>
        Effect.gen(function* () {
          const interaction = interactionOf({
            discriminator: "authorizedRequest",
            auth: { discriminator: "loginWithChallenge", challenge },
            reset: { accounts: false, personaData: false },
            ongoingAccounts: { challenge, numberOfAccounts: { quantifier: "atLeast", quantity: 1 } },
            ongoingPersonaData: {
              isRequestingName: true,
              numberOfRequestedEmailAddresses: { quantifier: "exactly", quantity: 1 }
            }
          })
          const review = yield* wallet.review(interaction)
          expect(review.kind).toBe("login")
          expect(review.problem).toBeUndefined()
          expect(review.accounts).toEqual([
            {
              kind: "ongoing",
              numberOfAccounts: { quantifier: "atLeast", quantity: 1 },
              withProof: true,
              suggested: [user1]
            }
          ])
          const items = success(yield* wallet.answer(interaction, { approve: true, accounts: [user2, user3] }))
          if (items.discriminator !== "authorizedRequest") throw new Error("not authorized")
          if (items.auth.discriminator !== "loginWithChallenge") throw new Error("no challenge login")
          expect(items.auth.persona).toEqual({ identityAddress: DevnetAddresses.persona, label: "Devnet Persona" })
          expect(items.auth.challenge).toBe(challenge)
          verifyProof(items.auth.proof, DevnetAddresses.persona)
          expect(items.ongoingAccounts?.accounts.map((a) => a.address)).toEqual([user2, user3])
          expect(items.ongoingAccounts?.challenge).toBe(challenge)
          for (const p of items.ongoingAccounts?.proofs ?? []) verifyProof(p.proof, p.accountAddress)
          expect(items.ongoingAccounts?.proofs?.length).toBe(2)
          expect(items.ongoingPersonaData?.name?.familyName).toBe("Devnet")
          expect(items.ongoingPersonaData?.emailAddresses?.length).toBe(1)
          expect(items.ongoingPersonaData?.phoneNumbers).toBeUndefined()
        })
      )
  )

  it.effect("login without a challenge answers the persona and the suggested accounts without proofs", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        const items = success(
          yield* wallet.answer(
            interactionOf({
              discriminator: "authorizedRequest",
              auth: { discriminator: "loginWithoutChallenge" },
              ongoingAccounts: { numberOfAccounts: { quantifier: "exactly", quantity: 2 } }
            }),
            { approve: true }
          )
        )
        expect(items).toEqual({
          discriminator: "authorizedRequest",
          auth: {
            discriminator: "loginWithoutChallenge",
            persona: { identityAddress: DevnetAddresses.persona, label: "Devnet Persona" }
          },
          ongoingAccounts: {
            accounts: [
              { address: user1, label: "Devnet Account 1", appearanceId: 0 },
              { address: user2, label: "Devnet Account 2", appearanceId: 1 }
            ]
          }
        })
      })
    )
  )

  it.effect("proof of ownership signs for the persona and the named accounts; foreign ones are refused", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        const items = success(
          yield* wallet.answer(
            interactionOf({
              discriminator: "authorizedRequest",
              auth: { discriminator: "usePersona", identityAddress: DevnetAddresses.persona },
              proofOfOwnership: { challenge, identityAddress: DevnetAddresses.persona, accountAddresses: [user3] }
            }),
            { approve: true }
          )
        )
        if (items.discriminator !== "authorizedRequest") throw new Error("not authorized")
        expect(items.auth.discriminator).toBe("usePersona")
        const proofs = items.proofOfOwnership?.proofs ?? []
        expect(proofs.length).toBe(2)
        for (const p of proofs) verifyProof(p.proof, "accountAddress" in p ? p.accountAddress : p.identityAddress)

        const foreign = yield* wallet.answer(
          interactionOf({
            discriminator: "authorizedRequest",
            auth: { discriminator: "usePersona", identityAddress: DevnetAddresses.persona },
            proofOfOwnership: { challenge, accountAddresses: [exchange] }
          }),
          { approve: true }
        )
        expect(foreign).toMatchObject({ discriminator: "failure", error: "invalidRequest" })
        const otherPersona = yield* wallet.answer(
          interactionOf({
            discriminator: "authorizedRequest",
            auth: { discriminator: "usePersona", identityAddress: "identity_loc1somebodyelse" }
          }),
          { approve: true }
        )
        expect(otherPersona).toMatchObject({ discriminator: "failure", error: "invalidPersona" })
      })
    )
  )

  it.effect("one-time requests honour the user's pick; a wrong pick, a rejection or a wrong network fail", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        const oneTime = interactionOf({
          discriminator: "unauthorizedRequest",
          oneTimeAccounts: { numberOfAccounts: { quantifier: "exactly", quantity: 1 } },
          oneTimePersonaData: { numberOfRequestedPhoneNumbers: { quantifier: "atLeast", quantity: 2 } }
        })
        const items = success(yield* wallet.answer(oneTime, { approve: true, accounts: [user3] }))
        expect(items).toMatchObject({
          discriminator: "unauthorizedRequest",
          oneTimeAccounts: { accounts: [{ address: user3 }] },
          oneTimePersonaData: { phoneNumbers: ["+1 555 0100", "+1 555 0101"] }
        })
        expect(yield* wallet.answer(oneTime, { approve: true, accounts: [user1, user2] })).toMatchObject({
          discriminator: "failure",
          error: "rejectedByUser",
          message: "Choose exactly 1 account"
        })
        expect(yield* wallet.answer(oneTime, { approve: true, accounts: [exchange] })).toMatchObject({
          discriminator: "failure"
        })
        expect(yield* wallet.answer(oneTime, { approve: false })).toEqual({
          discriminator: "failure",
          interactionId: oneTime.interactionId,
          error: "rejectedByUser"
        })
        const stokenet = interactionOf(oneTime.items, { networkId: 2 })
        expect((yield* wallet.review(stokenet)).problem?.error).toBe("wrongNetwork")
        expect(yield* wallet.answer(stokenet, { approve: true })).toMatchObject({
          discriminator: "failure",
          error: "wrongNetwork"
        })
        const badDapp = interactionOf(oneTime.items, { dAppDefinitionAddress: "account_rdx1nope" })
        expect(yield* wallet.answer(badDapp, { approve: true })).toMatchObject({
          error: "unknownDappDefinitionAddress"
        })
      })
    )
  )
})

describe("wallet emulator: transactions", () => {
  it.effect("previews, then builds, signs, notarizes and submits a transfer the ledger commits", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const amount = (text: string) =>
          Option.getOrThrowWith(parseLedgerDecimal(text), () => new Error(`not a decimal: ${text}`))
        const before = {
          userUsdc: amount(yield* ledger.balance(user1, hUSDC)),
          userXrd: amount(yield* ledger.balance(user1, XRD)),
          exchangeUsdc: amount(yield* ledger.balance(exchange, hUSDC))
        }
        const interaction = interactionOf({
          discriminator: "transaction",
          send: {
            transactionManifest: transfer(user1, exchange, hUSDC, "125.5"),
            version: 1,
            message: "swap 125.5 hUSDC"
          }
        })
        const review = yield* wallet.review(interaction)
        const t = review.transaction
        expect(review.kind).toBe("transaction")
        expect(t?.addsFeeLock).toBe(true)
        expect(t?.feePayer).toBe(user1)
        expect(t?.fee).toBe(formatPlain(devnetFee(4)))
        expect(t?.signers).toEqual([user1])
        expect(t?.withdrawals).toEqual([
          { account: user1, accountLabel: "Devnet Account 1", resource: hUSDC, symbol: "hUSDC", amount: "125.5" }
        ])
        expect(t?.deposits).toEqual([
          { account: exchange, accountLabel: "hSwap exchange", resource: hUSDC, symbol: "hUSDC", amount: "125.5" }
        ])
        expect(t?.predicted).toBe("CommittedSuccess")
        expect(t?.manifest.startsWith(`CALL_METHOD\n    Address("${user1}")\n    "lock_fee"`)).toBe(true)

        const items = success(yield* wallet.answer(interaction, { approve: true }))
        if (items.discriminator !== "transaction") throw new Error("not a transaction answer")
        const txid = items.send.transactionIntentHash
        expect(txid).toMatch(/^txid_loc1/)
        const committed = yield* ledger.committedTransaction(txid)
        expect(Option.isSome(committed) && committed.value.status).toBe("CommittedSuccess")
        expect(Option.isSome(committed) && committed.value.message).toEqual({
          type: "Plaintext",
          mime_type: "text/plain",
          content: { type: "String", value: "swap 125.5 hUSDC" }
        })
        expect(yield* ledger.balance(user1, hUSDC)).toBe(
          formatPlain(BigDecimal.subtract(before.userUsdc, amount("125.5")))
        )
        expect(yield* ledger.balance(exchange, hUSDC)).toBe(
          formatPlain(BigDecimal.sum(before.exchangeUsdc, amount("125.5")))
        )
        expect(yield* ledger.balance(user1, XRD)).toBe(formatPlain(BigDecimal.subtract(before.userXrd, devnetFee(4))))
      })
    )
  )

  it.effect("a transfer beyond the balance is previewed as a failure and commits as CommittedFailure", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const interaction = interactionOf({
          discriminator: "transaction",
          send: { transactionManifest: transfer(user2, user3, hUSDC, "999999"), version: 1 }
        })
        const review = yield* wallet.review(interaction)
        expect(review.transaction?.predicted).toBe("CommittedFailure")
        expect(review.transaction?.error).toContain("InsufficientBalance")
        expect(review.transaction?.withdrawals[0]?.amount).toBe("999999")
        const items = success(yield* wallet.answer(interaction, { approve: true }))
        if (items.discriminator !== "transaction") throw new Error("not a transaction answer")
        const status = yield* ledger.transactionStatus(items.send.transactionIntentHash)
        expect(status._tag === "Committed" && status.transaction.status).toBe("CommittedFailure")
        expect(yield* ledger.balance(user3, hUSDC)).toBe("5000")
      })
    )
  )

  it.effect("an unparseable manifest and a foreign withdrawal are answered as failures, without submitting", () =>
    withWallet((wallet) =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const versionBefore = yield* ledger.currentStateVersion
        const broken = yield* wallet.answer(
          interactionOf({
            discriminator: "transaction",
            send: { transactionManifest: "CALL_METHOD nonsense;", version: 1 }
          }),
          { approve: true }
        )
        expect(broken).toMatchObject({ discriminator: "failure", error: "failedToPrepareTransaction" })
        // The exchange's key is not in this wallet: the ledger fails the withdrawal (the fee comes from user 1).
        const foreign = interactionOf({
          discriminator: "transaction",
          send: { transactionManifest: transfer(exchange, user1, XRD, "1"), version: 1 }
        })
        const review = yield* wallet.review(foreign)
        expect(review.transaction?.signers).toEqual([user1])
        expect(review.transaction?.predicted).toBe("CommittedFailure")
        expect(review.transaction?.error).toContain("Unauthorized")
        expect(yield* ledger.currentStateVersion).toBe(versionBefore)
      })
    )
  )
})
