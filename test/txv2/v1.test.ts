/**
 * V1 notarized transactions in txv2: the official V1 vectors (decoded, re-encoded byte for byte, hashed), and the
 * Radix Engine Toolkit's own output as the oracle for many transactions built both ways (bytes and hashes equal).
 */
import * as RET from "@radixdlt/radix-engine-toolkit"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  buildNotarizedTransactionV1,
  compileManifest,
  decodeIntentV1,
  decodeNotarizedTransactionV1,
  decodeSignedIntentV1,
  encodeIntentV1,
  encodeNotarizedTransactionV1,
  encodeSignedIntentV1,
  intentHashV1,
  type MessageV2,
  notarizedTransactionHashesV1,
  signedIntentHashV1From,
  toHex
} from "../../src/txv2"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { makeSigner } from "../../src/server/Signer"
import { fixturesDir, hexBytes, keyFromU64, right } from "./support"

interface V1Vector {
  readonly payload_type: "IntentV1" | "SignedIntentV1" | "NotarizedTransactionV1"
  readonly payload_hex: string
  readonly expected: Record<string, { readonly hex: string }>
}
const vectors = JSON.parse(
  readFileSync(join(fixturesDir, "unit-vectors/transaction_v1_vectors_for_contrast.json"), "utf8")
) as ReadonlyArray<V1Vector>

describe("the official V1 vectors (any_transaction.rs v1_user_transaction_structure)", () => {
  it("has the three payloads", () => {
    expect(vectors.map((v) => v.payload_type)).toEqual(["IntentV1", "SignedIntentV1", "NotarizedTransactionV1"])
  })
  for (const v of vectors) {
    it(`${v.payload_type}: decodes, re-encodes byte for byte, and hashes as upstream`, () => {
      const bytes = hexBytes(v.payload_hex)
      if (v.payload_type === "IntentV1") {
        const intent = right(decodeIntentV1(bytes))
        expect(intent.blobs.map(toHex)).toEqual(["00010203", "0506"])
        expect(toHex(right(encodeIntentV1(intent)))).toBe(v.payload_hex)
        expect(toHex(right(intentHashV1(intent)))).toBe(v.expected["transaction_intent_hash"]?.hex)
      } else if (v.payload_type === "SignedIntentV1") {
        const signed = right(decodeSignedIntentV1(bytes))
        expect(signed.intentSignatures.map((s) => s.type)).toEqual(["Secp256k1", "Ed25519"])
        expect(toHex(right(encodeSignedIntentV1(signed)))).toBe(v.payload_hex)
        const hash = right(signedIntentHashV1From(right(intentHashV1(signed.intent)), signed.intentSignatures))
        expect(toHex(hash)).toBe(v.expected["signed_transaction_intent_hash"]?.hex)
      } else {
        const n = right(decodeNotarizedTransactionV1(bytes))
        expect(toHex(right(encodeNotarizedTransactionV1(n)))).toBe(v.payload_hex)
        expect(toHex(right(notarizedTransactionHashesV1(n)).notarizedTransactionHash)).toBe(
          v.expected["notarized_transaction_hash"]?.hex
        )
      }
    })
  }
  it("refuses another payload type, a V2-only instruction and trailing bytes, with the reason", () => {
    const [intent, , notarized] = vectors
    const fail = (e: Either.Either<unknown, { readonly reason: string }>) =>
      Either.isLeft(e) ? e.left.reason : "decoded"
    expect(fail(decodeNotarizedTransactionV1(hexBytes(intent?.payload_hex ?? "")))).toMatch(
      /expected a NotarizedTransactionV1 payload/
    )
    // The intent's one instruction (DROP_AUTH_ZONE_PROOFS, 0x12) turned into YIELD_TO_PARENT with no arguments.
    const yieldHex = (intent?.payload_hex ?? "").replace("2022011200", "20220160012100")
    expect(fail(decodeIntentV1(hexBytes(yieldHex)))).toMatch(/YieldToParent is not a V1 instruction/)
    expect(fail(decodeNotarizedTransactionV1(hexBytes(`${notarized?.payload_hex ?? ""}00`)))).not.toBe("decoded")
  })
})

const { exchangeAccount, resources } = DevnetAddresses
const NETWORK = 240

/** A small deterministic generator, so a failure names a case that can be run again. */
const rng = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const MESSAGES = ["", "hSwap payout for txid_loc1abc", 'ünïcödé ✓ "quoted" \\ back', "x".repeat(300)]

describe("V1 transactions built by txv2 equal the Radix Engine Toolkit's", () => {
  it("for 60 transfers of varied amounts, messages, signers, epochs, nonces and tips", async () => {
    const next = rng(51)
    for (let i = 0; i < 60; i++) {
      const notarySeed = keyFromU64(1 + Math.floor(next() * 1000))
      const signerSeeds = Array.from({ length: Math.floor(next() * 3) }, () =>
        keyFromU64(2000 + Math.floor(next() * 1000))
      )
      const notaryIsSignatory = next() < 0.5
      const resource = next() < 0.5 ? resources.hUSDC : resources.hETH
      const amount = `${Math.floor(next() * 1e6)}.${String(Math.floor(next() * 1e9)).padStart(9, "0")}`
      const manifest = [
        `CALL_METHOD Address("${exchangeAccount}") "lock_fee" Decimal("${(next() * 10).toFixed(3)}");`,
        `CALL_METHOD Address("${exchangeAccount}") "withdraw" Address("${resource}") Decimal("${amount}");`,
        `TAKE_ALL_FROM_WORKTOP Address("${resource}") Bucket("payout");`,
        `CALL_METHOD Address("${exchangeAccount}") "try_deposit_or_abort" Bucket("payout") Enum<0u8>();`
      ].join("\n")
      const text = MESSAGES[i % MESSAGES.length] ?? ""
      const withMessage = i % 5 !== 4
      const start = Math.floor(next() * 1e6)
      const end = start + 1 + Math.floor(next() * 100)
      const nonce = Math.floor(next() * 0xffffffff)
      const tip = Math.floor(next() * 3) * 7

      const notaryKey = new RET.PrivateKey.Ed25519(toHex(notarySeed))
      const header = await RET.TransactionBuilder.new().then((b) =>
        b.header({
          networkId: NETWORK,
          startEpochInclusive: start,
          endEpochExclusive: end,
          nonce,
          notaryPublicKey: notaryKey.publicKey(),
          notaryIsSignatory,
          tipPercentage: tip
        })
      )
      const withManifest = (withMessage ? header.plainTextMessage(text) : header).manifest({
        instructions: { kind: "String", value: manifest },
        blobs: []
      })
      const signed = signerSeeds.reduce((b, s) => b.sign(new RET.PrivateKey.Ed25519(toHex(s))), withManifest)
      const theirs = await signed.notarize(notaryKey)
      const theirBytes = toHex(await RET.RadixEngineToolkit.NotarizedTransaction.compile(theirs))
      const theirIntent = (await RET.RadixEngineToolkit.NotarizedTransaction.intentHash(theirs)).id
      const theirPayload = (await RET.RadixEngineToolkit.NotarizedTransaction.hash(theirs)).id

      const message: MessageV2 = withMessage
        ? { type: "Plaintext", mimeType: "text/plain", message: { type: "String", value: text } }
        : { type: "None" }
      const ours = right(
        buildNotarizedTransactionV1({
          networkId: NETWORK,
          startEpochInclusive: start,
          endEpochExclusive: end,
          nonce,
          tipPercentage: tip,
          instructions: right(compileManifest(manifest, NETWORK)).instructions,
          message,
          signers: signerSeeds.map((secretKey) => ({ curve: "Ed25519", secretKey })),
          notary: { curve: "Ed25519", secretKey: notarySeed },
          notaryIsSignatory
        })
      )
      expect({ i, bytes: toHex(ours.payload) }).toEqual({ i, bytes: theirBytes })
      expect({ i, intent: ours.intentId, payload: ours.notarizedTransactionId }).toEqual({
        i,
        intent: theirIntent,
        payload: theirPayload
      })
      // And back: the toolkit's payload decodes to the same model.
      expect(
        toHex(right(encodeNotarizedTransactionV1(right(decodeNotarizedTransactionV1(hexBytes(theirBytes))))))
      ).toBe(theirBytes)
    }
  }, 120_000)
})

describe("the exchange's Signer (txv2 V1, Node's Ed25519) against the Radix Engine Toolkit", () => {
  const privateKeyHex = toHex(keyFromU64(4242))
  const signer = makeSigner({
    networkId: NETWORK,
    account: exchangeAccount,
    privateKeyHex,
    feeLockXrd: "5",
    epochWindow: 10
  })

  it("signs transfers the toolkit decodes, hashes alike and statically validates", async () => {
    for (const [i, message] of MESSAGES.entries()) {
      const signed = await Effect.runPromise(
        signer.transfer({ resource: resources.hETH, amount: `0.00${i}1`, to: exchangeAccount, message, epoch: 100 + i })
      )
      const tx = await RET.RadixEngineToolkit.NotarizedTransaction.decompile(
        hexBytes(signed.notarizedTransactionHex),
        "String"
      )
      expect((await RET.RadixEngineToolkit.NotarizedTransaction.intentHash(tx)).id).toBe(signed.intentHash)
      const validation = await RET.RadixEngineToolkit.NotarizedTransaction.staticallyValidate(
        tx,
        RET.defaultValidationConfig(NETWORK)
      )
      expect(validation.kind).toBe("Valid")
      const header = tx.signedIntent.intent.header
      expect([header.startEpochInclusive, header.endEpochExclusive, header.notaryIsSignatory]).toEqual([
        100 + i,
        110 + i,
        true
      ])
      expect(tx.signedIntent.intent.message).toEqual({
        kind: "PlainText",
        value: { mimeType: "text/plain", message: { kind: "String", value: message } }
      })
    }
  })

  it("derives the key's account as the toolkit does, and refuses a key that is not 64 hex characters", async () => {
    const key = new RET.PrivateKey.Ed25519(privateKeyHex)
    const theirs = await RET.RadixEngineToolkit.Derive.virtualAccountAddressFromPublicKey(key.publicKey(), NETWORK)
    expect(await Effect.runPromise(signer.derivedAccount)).toBe(theirs)
    const bad = makeSigner({
      networkId: NETWORK,
      account: exchangeAccount,
      privateKeyHex: "abc",
      feeLockXrd: "5",
      epochWindow: 10
    })
    const failed = await Effect.runPromise(Effect.flip(bad.derivedAccount))
    expect(failed.reason).toBe("the operator key must be 64 hex characters (an Ed25519 private key)")
  })
})
