/**
 * Ed25519 verification on Node's crypto (OpenSSL), for the server and the devnet: a tenth of the CPU of txv2's own
 * (noble, in JavaScript), which the browser keeps. OpenSSL verifies strictly (S below the group order, R compared
 * as its canonical encoding); the public key is decoded canonically and refused when of small order by noble once,
 * as the engine refuses it, and then kept: a ledger and an exchange see the same few keys over and over.
 */
import { createPublicKey, type KeyObject, verify } from "node:crypto"
import { ed25519 } from "@noble/curves/ed25519.js"
import { type Ed25519Verifier, toHex } from "../txv2/index"

/** SPKI DER of an Ed25519 public key, before its 32 bytes (RFC 8410). */
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex")

/** Public keys already checked and parsed (undefined: refused), at most `KNOWN_KEYS_MAX`. */
const knownKeys = new Map<string, KeyObject | undefined>()
const KNOWN_KEYS_MAX = 4096

const publicKeyObject = (publicKey: Uint8Array): KeyObject | undefined => {
  const hex = toHex(publicKey)
  if (knownKeys.has(hex)) return knownKeys.get(hex)
  let key: KeyObject | undefined
  try {
    key = ed25519.Point.fromBytes(publicKey).isSmallOrder()
      ? undefined
      : createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: "der", type: "spki" })
  } catch {
    key = undefined
  }
  if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.clear()
  knownKeys.set(hex, key)
  return key
}

/** An Ed25519 signature over `hash` by `publicKey`, verified by Node's crypto; false for anything it refuses. */
export const nodeEd25519Verifies: Ed25519Verifier = (hash, publicKey, signature) => {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  try {
    const key = publicKeyObject(publicKey)
    return key !== undefined && verify(null, hash, key, signature)
  } catch {
    return false
  }
}
