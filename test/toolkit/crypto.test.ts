import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import {
  fromBase64Url,
  fromHex,
  fromUtf8,
  joinSealbox,
  lengthPrefix,
  signatureMessage,
  splitSealbox,
  toBase64Url,
  toHex,
  utf8
} from "../../src/toolkit/bytes.js"
import { Crypto } from "../../src/toolkit/crypto.js"
import { relayExample, sharedSecretVectors, signatureVectors } from "./fixtures.js"

const sig = signatureVectors.signature

describe("Crypto vectors", () => {
  it.effect("blake2b-256('test')", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      const hash = yield* crypto.blake2b256(utf8(signatureVectors.blake2b256.input_utf8))
      expect(toHex(hash)).toBe(signatureVectors.blake2b256.hash_hex)
    }).pipe(Effect.provide(Crypto.Live))
  )

  it.effect("the signature vector: keys, message bytes, hash and signature", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      const secret = fromHex(sig.secret)
      expect(toHex(yield* crypto.ed25519PublicKey(secret))).toBe(sig.identity_ed25519_public_key)
      expect(toHex(yield* crypto.x25519PublicKey(secret))).toBe(sig.x25519_public_key)
      const message = signatureMessage(sig)
      expect(toHex(message)).toBe(sig.message_hex)
      expect(message.length).toBe(128)
      const hash = yield* crypto.blake2b256(message)
      expect(toHex(hash)).toBe(sig.blake2b256_hex)
      const signature = yield* crypto.ed25519Sign(secret, hash)
      expect(toHex(signature)).toBe(sig.signature_hex)
      expect(yield* crypto.ed25519Verify(signature, hash, fromHex(sig.identity_ed25519_public_key))).toBe(true)
      const tampered = new Uint8Array(hash)
      tampered[0] = (tampered[0] ?? 0) ^ 1
      expect(yield* crypto.ed25519Verify(signature, tampered, fromHex(sig.identity_ed25519_public_key))).toBe(false)
    }).pipe(Effect.provide(Crypto.Live))
  )

  it.effect("all 10 shared-secret vectors, in both directions", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      expect(sharedSecretVectors.vectors).toHaveLength(10)
      for (const v of sharedSecretVectors.vectors) {
        expect(toHex(yield* crypto.x25519PublicKey(fromHex(v.privateKey1)))).toBe(v.publicKey1)
        expect(toHex(yield* crypto.x25519PublicKey(fromHex(v.privateKey2)))).toBe(v.publicKey2)
        const a = yield* crypto.deriveSharedSecret(
          fromHex(v.privateKey1),
          fromHex(v.publicKey2),
          sharedSecretVectors.salt
        )
        const b = yield* crypto.deriveSharedSecret(
          fromHex(v.privateKey2),
          fromHex(v.publicKey1),
          sharedSecretVectors.salt
        )
        expect(toHex(a)).toBe(v.sharedSecret)
        expect(toHex(b)).toBe(v.sharedSecret)
      }
    }).pipe(Effect.provide(Crypto.Live))
  )

  it.effect("the curve25519 vector", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      const v = signatureVectors.curve25519_shared_secret
      const pubB = yield* crypto.x25519PublicKey(fromHex(v.secret_b))
      const key = yield* crypto.deriveSharedSecret(fromHex(v.secret_a), pubB, v.salt)
      expect(toHex(key)).toBe(v.shared_secret_hex)
      const other = yield* crypto.deriveSharedSecret(fromHex(v.secret_a), pubB, "another salt")
      expect(toHex(other)).not.toBe(v.shared_secret_hex)
    }).pipe(Effect.provide(Crypto.Live))
  )

  it.effect("HKDF-SHA256 matches RFC 5869 test case 1", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      const okm = yield* crypto.hkdfSha256(
        fromHex("0b".repeat(22)),
        fromHex("000102030405060708090a0b0c"),
        fromHex("f0f1f2f3f4f5f6f7f8f9"),
        42
      )
      expect(toHex(okm)).toBe("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }).pipe(Effect.provide(Crypto.Live))
  )

  it.effect("decrypts the relay example and fails on a wrong key or a tampered tag", () =>
    Effect.gen(function* () {
      const crypto = yield* Crypto
      const key = yield* crypto.deriveSharedSecret(
        fromHex(relayExample.dAppSecret),
        fromHex(relayExample.walletPublicKey),
        relayExample.dAppDefinitionAddress
      )
      const box = splitSealbox(fromHex(relayExample.data))
      if (!box) throw new Error("no sealbox")
      expect(toHex(box.iv)).toBe(relayExample.iv)
      const plain = yield* crypto.aesGcmDecrypt(key, box.iv, new Uint8Array([...box.ciphertext, ...box.authTag]))
      expect(fromUtf8(plain)).toBe(relayExample.plaintext)

      const again = yield* crypto.aesGcmEncrypt(key, box.iv, utf8(relayExample.plaintext))
      expect(toHex(box.iv) + toHex(again)).toBe(relayExample.data)

      const wrongKey = yield* Effect.either(crypto.aesGcmDecrypt(new Uint8Array(32), box.iv, again))
      expect(Either.isLeft(wrongKey) && wrongKey.left._tag).toBe("FailedToDecryptWalletResponseData")
      const tampered = new Uint8Array(again)
      tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0xff
      const bad = yield* Effect.either(crypto.aesGcmDecrypt(key, box.iv, tampered))
      expect(Either.isLeft(bad)).toBe(true)
    }).pipe(Effect.provide(Crypto.Live))
  )
})

describe("byte layouts", () => {
  it("sealbox: iv(12) ‖ ciphertext ‖ tag(16)", () => {
    const bytes = fromHex(signatureVectors.sealbox_layout.example_hex + "bb".repeat(16))
    const box = splitSealbox(bytes)
    expect(box && toHex(box.iv)).toBe("aa".repeat(12))
    expect(box && toHex(box.ciphertext)).toBe("cc")
    expect(box && toHex(box.authTag)).toBe("bb".repeat(16))
    expect(box && toHex(joinSealbox(box))).toBe(toHex(bytes))
    expect(splitSealbox(new Uint8Array(27))).toBeUndefined()
  })

  it("the length prefix reads the hex digits pairwise, like Buffer.from(n.toString(16), 'hex')", () => {
    expect(toHex(lengthPrefix(69))).toBe("45")
    expect(toHex(lengthPrefix(16))).toBe("10")
    expect(toHex(lengthPrefix(255))).toBe("ff")
    expect(lengthPrefix(15)).toHaveLength(0)
    expect(toHex(lengthPrefix(0x123))).toBe("12")
    for (const n of [1, 15, 16, 69, 200, 255, 256, 4095, 4096]) {
      expect(toHex(lengthPrefix(n))).toBe(Buffer.from(n.toString(16), "hex").toString("hex"))
    }
  })

  it("hex and base64url round-trip; bad hex is refused", () => {
    const bytes = Uint8Array.from([0, 1, 250, 251, 252, 253, 254, 255])
    expect(fromHex(toHex(bytes))).toEqual(bytes)
    expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString("base64url"))
    expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes)
    expect(fromUtf8(fromBase64Url(sig.request_base64url))).toContain('"interactionId":"b25c8587')
    expect(() => fromHex("abc")).toThrow()
    expect(() => fromHex("zz")).toThrow()
  })
})

describe("Crypto.Test", () => {
  it.effect("is deterministic per seed and yields v4 uuids", () =>
    Effect.gen(function* () {
      const run = (seed: string) =>
        Effect.gen(function* () {
          const crypto = yield* Crypto
          return [toHex(yield* crypto.randomBytes(40)), yield* crypto.randomUuid()] as const
        }).pipe(Effect.provide(Crypto.Test(seed)))
      const a = yield* run("one")
      const b = yield* run("one")
      const c = yield* run("two")
      expect(a).toEqual(b)
      expect(a[0]).not.toBe(c[0])
      expect(a[0]).toHaveLength(80)
      expect(a[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    })
  )
})
