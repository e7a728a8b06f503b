/**
 * Signing and verification over the V2 hashes. Ed25519 signs the raw 32-byte hash and is verified strictly
 * (canonical encodings, no small-order public key), as the engine does. Secp256k1 signatures are 65 bytes
 * (recovery id, then r and s) over the raw hash with no prehash; verifying one recovers its public key.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { Either } from "effect"
import { bytesEqual } from "./bytes"
import { TxV2SignatureError } from "./errors"
import type { PublicKey, Signature, SignatureWithPublicKey } from "./models"

export const ed25519PublicKey = (secretKey: Uint8Array): Uint8Array => ed25519.getPublicKey(secretKey)

/** Signs a 32-byte hash with an Ed25519 secret key (a 32-byte seed), with the public key attached. */
export const signEd25519 = (hash: Uint8Array, secretKey: Uint8Array): SignatureWithPublicKey => ({
  type: "Ed25519",
  publicKey: ed25519.getPublicKey(secretKey),
  signature: ed25519.sign(hash, secretKey)
})

/** A notary signature (no key attached; the key is in the transaction header). */
export const notarySignEd25519 = (hash: Uint8Array, secretKey: Uint8Array): Signature => ({
  type: "Ed25519",
  bytes: ed25519.sign(hash, secretKey)
})

/** Signs a 32-byte hash with a Secp256k1 secret key: recovery id ‖ r ‖ s, deterministic (RFC 6979), low-S. */
export const signSecp256k1 = (hash: Uint8Array, secretKey: Uint8Array): Uint8Array =>
  secp256k1.sign(hash, secretKey, { prehash: false, format: "recovered" })

export const secp256k1PublicKey = (secretKey: Uint8Array): Uint8Array => secp256k1.getPublicKey(secretKey, true)

/**
 * Verifies an Ed25519 signature over a 32-byte hash, strictly (canonical encodings, no small-order public key); false
 * for anything else. A platform with its own Ed25519 (Node's crypto) may pass one to the verifying functions;
 * `verifyEd25519` is txv2's own (noble), the default.
 */
export type Ed25519Verifier = (hash: Uint8Array, publicKey: Uint8Array, signature: Uint8Array) => boolean

export const verifyEd25519: Ed25519Verifier = (hash, publicKey, signature) => {
  try {
    if (ed25519.Point.fromBytes(publicKey).isSmallOrder()) return false
    return ed25519.verify(signature, hash, publicKey, { zip215: false })
  } catch {
    return false
  }
}

/** The compressed public key a Secp256k1 signature recovers to over `hash`, or undefined when it recovers none. */
export const recoverSecp256k1 = (hash: Uint8Array, signature: Uint8Array): Uint8Array | undefined => {
  if (signature.length !== 65 || (signature[0] ?? 4) > 3) return undefined
  try {
    return secp256k1.recoverPublicKey(signature, hash, { prehash: false })
  } catch {
    return undefined
  }
}

/** The signer's public key. */
export type Signer = PublicKey

/** Verifies an intent signature over `hash`; the signer's public key, or a typed error naming `which`. */
export const verifySignatureWithPublicKey = (
  hash: Uint8Array,
  sig: SignatureWithPublicKey,
  which: string,
  ed25519Verifies: Ed25519Verifier = verifyEd25519
): Either.Either<Signer, TxV2SignatureError> => {
  if (sig.type === "Ed25519") {
    return ed25519Verifies(hash, sig.publicKey, sig.signature)
      ? Either.right({ type: "Ed25519", bytes: sig.publicKey })
      : Either.left(new TxV2SignatureError({ which, reason: "the Ed25519 signature does not verify" }))
  }
  const key = recoverSecp256k1(hash, sig.signature)
  return key === undefined
    ? Either.left(new TxV2SignatureError({ which, reason: "the Secp256k1 signature recovers no public key" }))
    : Either.right({ type: "Secp256k1", bytes: key })
}

/** Verifies a notary signature over `hash` against the header's notary public key. */
export const verifyNotarySignature = (
  hash: Uint8Array,
  signature: Signature,
  notaryPublicKey: PublicKey,
  ed25519Verifies: Ed25519Verifier = verifyEd25519
): Either.Either<void, TxV2SignatureError> => {
  const fail = (reason: string) => Either.left(new TxV2SignatureError({ which: "notary", reason }))
  if (signature.type !== notaryPublicKey.type) return fail("the signature's curve differs from the notary key's")
  if (signature.type === "Ed25519")
    return ed25519Verifies(hash, notaryPublicKey.bytes, signature.bytes)
      ? Either.void
      : fail("the Ed25519 signature does not verify")
  const key = recoverSecp256k1(hash, signature.bytes)
  if (key === undefined) return fail("the Secp256k1 signature recovers no public key")
  return bytesEqual(key, notaryPublicKey.bytes) ? Either.void : fail("the Secp256k1 signature is not by the notary key")
}
