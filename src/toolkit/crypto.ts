/**
 * Crypto: x25519, ed25519, blake2b-256, HKDF-SHA256 (noble) and AES-256-GCM (WebCrypto), plus the pure byte helpers
 * of the Radix Connect relay (signature message, sealbox layout). The randomness is the only thing that differs
 * between the live layer (WebCrypto) and the test layer (seeded, deterministic).
 */
import { ed25519, x25519 } from "@noble/curves/ed25519.js"
import { blake2b } from "@noble/hashes/blake2.js"
import { hkdf } from "@noble/hashes/hkdf.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { Context, Effect, Layer, Ref } from "effect"
import {
  CouldNotHashMessage,
  CouldNotSignMessage,
  FailedToDecryptWalletResponseData,
  FailedToDeriveSharedSecret
} from "./errors.js"

// ---------------------------------------------------------------------------------------------------------------
// Bytes
// ---------------------------------------------------------------------------------------------------------------

const HEX = /^(?:[0-9a-fA-F]{2})*$/

export const isHex = (value: string): boolean => HEX.test(value)

/** Lower-case hex of the bytes. */
export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

/** Bytes of an even-length hex string; throws on anything else (use `isHex` first on outside input). */
export const fromHex = (hex: string): Uint8Array<ArrayBuffer> => {
  if (!isHex(hex)) throw new Error("invalid hex string")
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(new TextEncoder().encode(text))

export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder("utf-8", { fatal: true }).decode(bytes)

export const concatBytes = (...parts: ReadonlyArray<Uint8Array>): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

/** Unpadded base64url (RFC 4648 §5) of the bytes. */
export const toBase64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

export const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> => {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/")
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}

// ---------------------------------------------------------------------------------------------------------------
// Radix Connect relay byte layouts
// ---------------------------------------------------------------------------------------------------------------

export const SHARED_SECRET_INFO = "RCfM"
export const IV_LENGTH = 12
export const AUTH_TAG_LENGTH = 16

/**
 * The length byte(s) of the signature message: the hex digits of `length` read pairwise, as the official toolkit's
 * `Buffer.from(length.toString(16), "hex")` does. One byte for 16–255; an odd trailing digit is dropped, so a length
 * under 16 gives no byte at all. Mirrored exactly, because the wallet verifies these bytes.
 */
export const lengthPrefix = (length: number): Uint8Array<ArrayBuffer> => {
  const digits = length.toString(16)
  const out = new Uint8Array(Math.floor(digits.length / 2))
  for (let i = 0; i < out.length; i++) out[i] = parseInt(digits.slice(i * 2, i * 2 + 2), 16)
  return out
}

export interface SignatureMessageInput {
  readonly interactionId: string
  readonly dAppDefinitionAddress: string
  readonly origin: string
}

/** 'C' ‖ interactionId ‖ length byte ‖ dAppDefinitionAddress ‖ origin, all UTF-8. */
export const signatureMessage = (input: SignatureMessageInput): Uint8Array<ArrayBuffer> =>
  concatBytes(
    utf8("C"),
    utf8(input.interactionId),
    lengthPrefix(input.dAppDefinitionAddress.length),
    utf8(input.dAppDefinitionAddress),
    utf8(input.origin)
  )

export interface Sealbox {
  readonly iv: Uint8Array<ArrayBuffer>
  readonly ciphertext: Uint8Array<ArrayBuffer>
  readonly authTag: Uint8Array<ArrayBuffer>
}

/** Splits iv(12) ‖ ciphertext ‖ tag(16). `undefined` when there are fewer than 28 bytes. */
export const splitSealbox = (bytes: Uint8Array): Sealbox | undefined => {
  if (bytes.length < IV_LENGTH + AUTH_TAG_LENGTH) return undefined
  return {
    iv: bytes.slice(0, IV_LENGTH),
    ciphertext: bytes.slice(IV_LENGTH, bytes.length - AUTH_TAG_LENGTH),
    authTag: bytes.slice(bytes.length - AUTH_TAG_LENGTH)
  }
}

export const joinSealbox = (box: Sealbox): Uint8Array<ArrayBuffer> => concatBytes(box.iv, box.ciphertext, box.authTag)

// ---------------------------------------------------------------------------------------------------------------
// Pure primitives (synchronous, throw on bad input; the service wraps them into typed errors)
// ---------------------------------------------------------------------------------------------------------------

export const primitives = {
  x25519PublicKey: (secret: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(x25519.getPublicKey(secret)),
  ed25519PublicKey: (secret: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(ed25519.getPublicKey(secret)),
  ed25519Sign: (secret: Uint8Array, message: Uint8Array): Uint8Array<ArrayBuffer> =>
    new Uint8Array(ed25519.sign(message, secret)),
  ed25519Verify: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean => {
    try {
      return ed25519.verify(signature, message, publicKey)
    } catch {
      return false
    }
  },
  blake2b256: (message: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(blake2b(message, { dkLen: 32 })),
  hkdfSha256: (ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Uint8Array<ArrayBuffer> =>
    new Uint8Array(hkdf(sha256, ikm, salt, info, length)),
  /** X25519(secret, peer) then HKDF-SHA256(salt = UTF-8 salt, info = 'RCfM', 32 bytes). */
  deriveSharedSecret: (secret: Uint8Array, peerPublicKey: Uint8Array, salt: string): Uint8Array<ArrayBuffer> => {
    const ecdh = x25519.getSharedSecret(secret, peerPublicKey)
    return new Uint8Array(hkdf(sha256, ecdh, utf8(salt), utf8(SHARED_SECRET_INFO), 32))
  }
} as const

const importAesKey = (key: Uint8Array) =>
  globalThis.crypto.subtle.importKey("raw", new Uint8Array(key), { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt"
  ])

// ---------------------------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------------------------

export interface CryptoApi {
  readonly randomBytes: (length: number) => Effect.Effect<Uint8Array<ArrayBuffer>>
  /** A random RFC 4122 version-4 UUID (lower case). */
  readonly randomUuid: () => Effect.Effect<string>
  readonly x25519PublicKey: (secret: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDeriveSharedSecret>
  readonly ed25519PublicKey: (secret: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, CouldNotSignMessage>
  readonly ed25519Sign: (secret: Uint8Array, message: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, CouldNotSignMessage>
  readonly ed25519Verify: (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => Effect.Effect<boolean>
  readonly blake2b256: (message: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, CouldNotHashMessage>
  readonly hkdfSha256: (ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number) => Effect.Effect<Uint8Array<ArrayBuffer>>
  readonly deriveSharedSecret: (
    secret: Uint8Array,
    peerPublicKey: Uint8Array,
    salt: string
  ) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDeriveSharedSecret>
  /** AES-256-GCM, no AAD. Returns ciphertext ‖ tag(16). */
  readonly aesGcmEncrypt: (key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDecryptWalletResponseData>
  /** AES-256-GCM, no AAD, over ciphertext ‖ tag(16). Fails on a wrong key or tampered data. */
  readonly aesGcmDecrypt: (key: Uint8Array, iv: Uint8Array, ciphertextAndTag: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDecryptWalletResponseData>
}

const uuidFromBytes = (bytes: Uint8Array): string => {
  const b = new Uint8Array(bytes.slice(0, 16))
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  const h = toHex(b)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

export const makeCrypto = (randomBytes: (length: number) => Effect.Effect<Uint8Array<ArrayBuffer>>): CryptoApi => ({
  randomBytes,
  randomUuid: () => Effect.map(randomBytes(16), uuidFromBytes),
  x25519PublicKey: Effect.fn("Crypto.x25519PublicKey")(function* (secret: Uint8Array) {
    return yield* Effect.try({
      try: () => primitives.x25519PublicKey(secret),
      catch: (cause) => new FailedToDeriveSharedSecret({ cause })
    })
  }),
  ed25519PublicKey: Effect.fn("Crypto.ed25519PublicKey")(function* (secret: Uint8Array) {
    return yield* Effect.try({
      try: () => primitives.ed25519PublicKey(secret),
      catch: (cause) => new CouldNotSignMessage({ cause })
    })
  }),
  ed25519Sign: Effect.fn("Crypto.ed25519Sign")(function* (secret: Uint8Array, message: Uint8Array) {
    return yield* Effect.try({
      try: () => primitives.ed25519Sign(secret, message),
      catch: (cause) => new CouldNotSignMessage({ cause })
    })
  }),
  ed25519Verify: (signature, message, publicKey) =>
    Effect.sync(() => primitives.ed25519Verify(signature, message, publicKey)),
  blake2b256: Effect.fn("Crypto.blake2b256")(function* (message: Uint8Array) {
    return yield* Effect.try({
      try: () => primitives.blake2b256(message),
      catch: (cause) => new CouldNotHashMessage({ cause })
    })
  }),
  hkdfSha256: (ikm, salt, info, length) => Effect.sync(() => primitives.hkdfSha256(ikm, salt, info, length)),
  deriveSharedSecret: Effect.fn("Crypto.deriveSharedSecret")(function* (
    secret: Uint8Array,
    peerPublicKey: Uint8Array,
    salt: string
  ) {
    return yield* Effect.try({
      try: () => primitives.deriveSharedSecret(secret, peerPublicKey, salt),
      catch: (cause) => new FailedToDeriveSharedSecret({ cause })
    })
  }),
  aesGcmEncrypt: Effect.fn("Crypto.aesGcmEncrypt")(function* (key: Uint8Array, iv: Uint8Array, plaintext: Uint8Array) {
    return yield* Effect.tryPromise({
      try: async () => {
        const cryptoKey = await importAesKey(key)
        const out = await globalThis.crypto.subtle.encrypt(
          { name: "AES-GCM", iv: new Uint8Array(iv) },
          cryptoKey,
          new Uint8Array(plaintext)
        )
        return new Uint8Array(out)
      },
      catch: (cause) => new FailedToDecryptWalletResponseData({ cause, message: "failed to encrypt" })
    })
  }),
  aesGcmDecrypt: Effect.fn("Crypto.aesGcmDecrypt")(function* (key: Uint8Array, iv: Uint8Array, ciphertextAndTag: Uint8Array) {
    return yield* Effect.tryPromise({
      try: async () => {
        const cryptoKey = await importAesKey(key)
        const out = await globalThis.crypto.subtle.decrypt(
          { name: "AES-GCM", iv: new Uint8Array(iv) },
          cryptoKey,
          new Uint8Array(ciphertextAndTag)
        )
        return new Uint8Array(out)
      },
      catch: (cause) => new FailedToDecryptWalletResponseData({ cause })
    })
  })
})

/** Deterministic bytes: blake2b-256(seed ‖ counter), block after block. Never use outside tests. */
const seededRandom = (seed: string) =>
  Effect.map(Ref.make(0), (counter) => (length: number) =>
    Ref.getAndUpdate(counter, (n) => n + 1).pipe(
      Effect.map((n) => {
        const out = new Uint8Array(length)
        let filled = 0
        let block = 0
        while (filled < length) {
          const chunk = primitives.blake2b256(utf8(`${seed}:${n}:${block++}`))
          out.set(chunk.slice(0, length - filled), filled)
          filled += chunk.length
        }
        return out
      })
    )
  )

export class Crypto extends Context.Tag("hswap/toolkit/Crypto")<Crypto, CryptoApi>() {
  /** WebCrypto randomness. */
  static readonly Live: Layer.Layer<Crypto> = Layer.succeed(
    Crypto,
    makeCrypto((length) => Effect.sync(() => globalThis.crypto.getRandomValues(new Uint8Array(length))))
  )
  /** Seeded, deterministic randomness: the same seed gives the same keys, ivs and uuids. */
  static readonly Test = (seed = "hswap-test"): Layer.Layer<Crypto> =>
    Layer.effect(Crypto, Effect.map(seededRandom(seed), makeCrypto))
}
