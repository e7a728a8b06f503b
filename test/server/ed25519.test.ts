/**
 * Ed25519 on Node's crypto (`src/server/ed25519.ts`, what the server and the devnet verify with) against txv2's own
 * (noble): the same answer on the official V2 vectors, on honest signatures and on every kind of forgery, and the
 * server's V2 notary signing byte for byte as txv2 signs with the key itself.
 */
import { generateKeyPairSync, sign } from "node:crypto"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { nodeEd25519Verifies } from "../../src/server/ed25519"
import { makeSigner } from "../../src/server/Signer"
import {
  buildNotarizedTransaction,
  buildSignedPartialTransaction,
  decodeNotarizedTransactionV2,
  type IntentHeaderV2,
  plaintextMessage,
  toHex,
  verifyEd25519,
  verifyNotarizedTransactionV2
} from "../../src/txv2"
import { hexBytes, keyFromU64, right, scenarios, unitVectors } from "../txv2/support"

/** The group order L, little-endian as S is encoded. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n
const le = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn))
const fromLe = (b: Uint8Array) => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n)

/** A fresh Node key pair: its raw 32-byte public key and a signer of 32-byte hashes. */
const keyPair = () => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519")
  const spki = publicKey.export({ format: "der", type: "spki" })
  return {
    publicKey: new Uint8Array(spki.subarray(spki.length - 32)),
    sign: (hash: Uint8Array) => new Uint8Array(sign(null, hash, privateKey))
  }
}

const bothSay = (hash: Uint8Array, publicKey: Uint8Array, signature: Uint8Array) => {
  const node = nodeEd25519Verifies(hash, publicKey, signature)
  expect(node).toBe(verifyEd25519(hash, publicKey, signature))
  return node
}

describe("Ed25519 on Node's crypto", () => {
  it("verifies every official V2 vector as txv2's own verifier does, naming the same signers", () => {
    const payloads = [hexBytes(unitVectors[0].payload_hex), ...scenarios.map((s) => s.payload)]
    for (const payload of payloads) {
      const tx = right(decodeNotarizedTransactionV2(payload))
      expect(right(verifyNotarizedTransactionV2(tx, nodeEd25519Verifies))).toEqual(
        right(verifyNotarizedTransactionV2(tx))
      )
    }
    expect(payloads.length).toBeGreaterThan(1)
  })

  it("refuses a vector with a flipped signature byte, with the same typed error", () => {
    const bytes = hexBytes(unitVectors[0].payload_hex)
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 1
    const tx = right(decodeNotarizedTransactionV2(bytes))
    const node = verifyNotarizedTransactionV2(tx, nodeEd25519Verifies)
    expect(Either.isLeft(node) && node.left._tag === "TxV2SignatureError" && node.left.which).toBe("notary")
    expect(node).toEqual(verifyNotarizedTransactionV2(tx))
  })

  it("agrees with noble on honest signatures and on every forgery", () => {
    for (let i = 0; i < 20; i++) {
      const key = keyPair()
      const hash = crypto.getRandomValues(new Uint8Array(32))
      const signature = key.sign(hash)
      expect(bothSay(hash, key.publicKey, signature)).toBe(true)
      // Another hash, a flipped bit of R, of S, of the key.
      const other = hash.slice()
      other[i] = (other[i] ?? 0) ^ 0x80
      expect(bothSay(other, key.publicKey, signature)).toBe(false)
      for (const at of [i, 32 + i]) {
        const forged = signature.slice()
        forged[at] = (forged[at] ?? 0) ^ 1
        expect(bothSay(hash, key.publicKey, forged)).toBe(false)
      }
      const wrongKey = key.publicKey.slice()
      wrongKey[i] = (wrongKey[i] ?? 0) ^ 4
      expect(bothSay(hash, wrongKey, signature)).toBe(false)
      // S + L: the same point equation, not the canonical encoding (malleability).
      const malleated = signature.slice()
      malleated.set(le(fromLe(signature.subarray(32)) + L), 32)
      expect(bothSay(hash, key.publicKey, malleated)).toBe(false)
    }
  })

  it("refuses a small-order key, a non-canonical key and wrong lengths, without throwing", () => {
    const hash = new Uint8Array(32).fill(9)
    // The identity point as the key, with R the identity and S zero: [0]B = R + [k]A holds for every hash.
    const identity = le(1n)
    const trivial = new Uint8Array(64)
    trivial.set(identity, 0)
    expect(bothSay(hash, identity, trivial)).toBe(false)
    // y = p: an encoding of y outside the field.
    expect(bothSay(hash, le(2n ** 255n - 19n), trivial)).toBe(false)
    const key = keyPair()
    const signature = key.sign(hash)
    expect(nodeEd25519Verifies(hash, key.publicKey.subarray(1), signature)).toBe(false)
    expect(nodeEd25519Verifies(hash, key.publicKey, signature.subarray(1))).toBe(false)
    expect(nodeEd25519Verifies(hash, key.publicKey, new Uint8Array(65))).toBe(false)
  })

  it("the server's V2 notary (Node's key) signs byte for byte as txv2 signs with the key", async () => {
    const secretKey = keyFromU64(7)
    const header: IntentHeaderV2 = {
      networkId: 240,
      startEpochInclusive: 10n,
      endEpochExclusive: 20n,
      minProposerTimestampInclusive: null,
      maxProposerTimestampExclusive: null,
      intentDiscriminator: 42n
    }
    const child = right(
      buildSignedPartialTransaction({
        header: { ...header, intentDiscriminator: 43n },
        instructions: [],
        message: plaintextMessage("child"),
        signers: [{ curve: "Ed25519", secretKey: keyFromU64(8) }]
      })
    )
    const input = { header, instructions: [], message: plaintextMessage("root"), children: [child.model] }
    const signer = makeSigner({
      networkId: 240,
      account: "account_loc1",
      privateKeyHex: toHex(secretKey),
      feeLockXrd: "10",
      epochWindow: 10
    })
    const notarize = signer.notarizeV2
    expect(notarize).toBeDefined()
    if (notarize === undefined) return
    const byServer = await Effect.runPromise(notarize(input))
    const byTxv2 = right(
      buildNotarizedTransaction({
        ...input,
        notary: { curve: "Ed25519", secretKey },
        notaryIsSignatory: true,
        signers: []
      })
    )
    expect(toHex(byServer.payload)).toBe(toHex(byTxv2.payload))
    expect(Either.isRight(verifyNotarizedTransactionV2(byServer.model))).toBe(true)
  })
})
