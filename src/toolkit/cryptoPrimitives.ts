/**
 * The @noble-based primitives: x25519, ed25519, blake2b-256 and HKDF-SHA256. Synchronous, and they throw on bad
 * input; the `Crypto` service wraps them into typed errors.
 *
 * Browser code must not import this module statically: `Crypto` (crypto.ts) loads it with a dynamic `import()` on
 * first use, so @noble/curves and @noble/hashes stay out of the initial bundle and are fetched only for the Radix
 * Connect relay. Node-only code (the devnet's wallet emulator, tests) may import it directly.
 */
import { ed25519, x25519 } from "@noble/curves/ed25519.js"
import { blake2b } from "@noble/hashes/blake2.js"
import { hkdf } from "@noble/hashes/hkdf.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { SHARED_SECRET_INFO, utf8 } from "./bytes"

export const primitives = {
  x25519PublicKey: (secret: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(x25519.getPublicKey(secret)),
  ed25519PublicKey: (secret: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(ed25519.getPublicKey(secret)),
  ed25519Sign: (secret: Uint8Array, message: Uint8Array): Uint8Array<ArrayBuffer> =>
    new Uint8Array(ed25519.sign(message, secret)),
  /** `false` for a signature that does not verify, and for malformed input. */
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

export type Primitives = typeof primitives
