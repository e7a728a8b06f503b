/**
 * Crypto: x25519, ed25519, blake2b-256, HKDF-SHA256 (noble) and AES-256-GCM (WebCrypto) as an Effect service. The
 * randomness is the only thing that differs between the live layer (WebCrypto) and the test layer (seeded,
 * deterministic).
 *
 * The noble primitives (`cryptoPrimitives.ts`, ~22 kB gzip) are only needed for the Radix Connect relay, so this
 * module never imports them statically: the service loads them with a dynamic `import()` on the first call that
 * needs them, and keeps them. A failure to load them is reported as the calling method's catalogue error. The pure
 * byte helpers and relay byte layouts are in `bytes.ts`.
 */
import { Context, Data, Effect, Layer, Ref } from "effect"
import { loadOnceEffect } from "../lib/loadOnceEffect"
import { toHex, utf8 } from "./bytes"
import type { Primitives } from "./cryptoPrimitives"
import {
  CouldNotHashMessage,
  CouldNotSignMessage,
  FailedToDecryptWalletResponseData,
  FailedToDeriveSharedSecret
} from "./errors"

// ---------------------------------------------------------------------------------------------------------------
// Loading the primitives
// ---------------------------------------------------------------------------------------------------------------

/** The primitives module could not be loaded (its chunk failed to download or to evaluate). */
export class PrimitivesUnavailable extends Data.TaggedError("PrimitivesUnavailable")<{ readonly cause: unknown }> {}

export const PRIMITIVES_UNAVAILABLE_MESSAGE = "could not load the crypto primitives"

/**
 * The primitives from `load`, run on first use and kept: concurrent first uses share one load, later uses succeed
 * synchronously, and after a failed load the next use tries again (a chunk fetch can fail once on a flaky network).
 */
export const lazyPrimitives = (load: () => Promise<Primitives>): Effect.Effect<Primitives, PrimitivesUnavailable> =>
  loadOnceEffect(load, (cause) => new PrimitivesUnavailable({ cause }))

/** `cryptoPrimitives.ts`, its own chunk in the browser bundle, fetched the first time the relay needs it. */
export const livePrimitives: Effect.Effect<Primitives, PrimitivesUnavailable> = lazyPrimitives(() =>
  import("./cryptoPrimitives").then((module) => module.primitives)
)

interface ErrorProps {
  readonly cause: unknown
  readonly message?: string
}

/** Runs a primitive; a failure to load them and a throw of the primitive are both `onError`. */
const withPrimitives = <A, E>(
  primitives: Effect.Effect<Primitives, PrimitivesUnavailable>,
  onError: (props: ErrorProps) => E,
  run: (primitives: Primitives) => A
): Effect.Effect<A, E> =>
  primitives.pipe(
    Effect.mapError((unavailable) => onError({ cause: unavailable.cause, message: PRIMITIVES_UNAVAILABLE_MESSAGE })),
    Effect.flatMap((loaded) => Effect.try({ try: () => run(loaded), catch: (cause) => onError({ cause }) }))
  )

const importAesKey = (key: Uint8Array) =>
  globalThis.crypto.subtle.importKey("raw", new Uint8Array(key), { name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt"
  ])

// ---------------------------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------------------------

export interface CryptoApi {
  /**
   * Loads the primitives now instead of on the first call that needs them (the mobile flow calls it at startup, so
   * a tap on Connect does not wait for the chunk before the deep link opens).
   */
  readonly preload: Effect.Effect<void, CouldNotHashMessage>
  readonly randomBytes: (length: number) => Effect.Effect<Uint8Array<ArrayBuffer>>
  /** A random RFC 4122 version-4 UUID (lower case). */
  readonly randomUuid: () => Effect.Effect<string>
  readonly x25519PublicKey: (secret: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDeriveSharedSecret>
  readonly ed25519PublicKey: (secret: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, CouldNotSignMessage>
  readonly ed25519Sign: (
    secret: Uint8Array,
    message: Uint8Array
  ) => Effect.Effect<Uint8Array<ArrayBuffer>, CouldNotSignMessage>
  /** `false` for a signature that does not verify or malformed input; fails only when the primitives cannot load. */
  readonly ed25519Verify: (
    signature: Uint8Array,
    message: Uint8Array,
    publicKey: Uint8Array
  ) => Effect.Effect<boolean, CouldNotSignMessage>
  readonly blake2b256: (message: Uint8Array) => Effect.Effect<Uint8Array<ArrayBuffer>, CouldNotHashMessage>
  readonly hkdfSha256: (
    ikm: Uint8Array,
    salt: Uint8Array,
    info: Uint8Array,
    length: number
  ) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDeriveSharedSecret>
  readonly deriveSharedSecret: (
    secret: Uint8Array,
    peerPublicKey: Uint8Array,
    salt: string
  ) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDeriveSharedSecret>
  /** AES-256-GCM, no AAD. Returns ciphertext ‖ tag(16). */
  readonly aesGcmEncrypt: (
    key: Uint8Array,
    iv: Uint8Array,
    plaintext: Uint8Array
  ) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDecryptWalletResponseData>
  /** AES-256-GCM, no AAD, over ciphertext ‖ tag(16). Fails on a wrong key or tampered data. */
  readonly aesGcmDecrypt: (
    key: Uint8Array,
    iv: Uint8Array,
    ciphertextAndTag: Uint8Array
  ) => Effect.Effect<Uint8Array<ArrayBuffer>, FailedToDecryptWalletResponseData>
}

const uuidFromBytes = (bytes: Uint8Array): string => {
  const b = new Uint8Array(bytes.slice(0, 16))
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  const h = toHex(b)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

const deriveError = (props: ErrorProps) => new FailedToDeriveSharedSecret(props)
const signError = (props: ErrorProps) => new CouldNotSignMessage(props)
const hashError = (props: ErrorProps) => new CouldNotHashMessage(props)

/**
 * The service over a source of randomness and of the primitives (default: `livePrimitives`, loaded lazily).
 * AES-GCM and the randomness need no primitives, so they work without ever loading them.
 */
export const makeCrypto = (
  randomBytes: (length: number) => Effect.Effect<Uint8Array<ArrayBuffer>>,
  primitives: Effect.Effect<Primitives, PrimitivesUnavailable> = livePrimitives
): CryptoApi => ({
  preload: withPrimitives(primitives, hashError, () => undefined),
  randomBytes,
  randomUuid: () => Effect.map(randomBytes(16), uuidFromBytes),
  x25519PublicKey: Effect.fn("Crypto.x25519PublicKey")(function* (secret: Uint8Array) {
    return yield* withPrimitives(primitives, deriveError, (p) => p.x25519PublicKey(secret))
  }),
  ed25519PublicKey: Effect.fn("Crypto.ed25519PublicKey")(function* (secret: Uint8Array) {
    return yield* withPrimitives(primitives, signError, (p) => p.ed25519PublicKey(secret))
  }),
  ed25519Sign: Effect.fn("Crypto.ed25519Sign")(function* (secret: Uint8Array, message: Uint8Array) {
    return yield* withPrimitives(primitives, signError, (p) => p.ed25519Sign(secret, message))
  }),
  ed25519Verify: Effect.fn("Crypto.ed25519Verify")(function* (
    signature: Uint8Array,
    message: Uint8Array,
    publicKey: Uint8Array
  ) {
    return yield* withPrimitives(primitives, signError, (p) => p.ed25519Verify(signature, message, publicKey))
  }),
  blake2b256: Effect.fn("Crypto.blake2b256")(function* (message: Uint8Array) {
    return yield* withPrimitives(primitives, hashError, (p) => p.blake2b256(message))
  }),
  hkdfSha256: Effect.fn("Crypto.hkdfSha256")(function* (
    ikm: Uint8Array,
    salt: Uint8Array,
    info: Uint8Array,
    length: number
  ) {
    return yield* withPrimitives(primitives, deriveError, (p) => p.hkdfSha256(ikm, salt, info, length))
  }),
  deriveSharedSecret: Effect.fn("Crypto.deriveSharedSecret")(function* (
    secret: Uint8Array,
    peerPublicKey: Uint8Array,
    salt: string
  ) {
    return yield* withPrimitives(primitives, deriveError, (p) => p.deriveSharedSecret(secret, peerPublicKey, salt))
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
  aesGcmDecrypt: Effect.fn("Crypto.aesGcmDecrypt")(function* (
    key: Uint8Array,
    iv: Uint8Array,
    ciphertextAndTag: Uint8Array
  ) {
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
const seededRandom = (seed: string, blake2b256: Primitives["blake2b256"]) =>
  Effect.map(
    Ref.make(0),
    (counter) => (length: number) =>
      Ref.getAndUpdate(counter, (n) => n + 1).pipe(
        Effect.map((n) => {
          const out = new Uint8Array(length)
          let filled = 0
          let block = 0
          while (filled < length) {
            const chunk = blake2b256(utf8(`${seed}:${n}:${block++}`))
            out.set(chunk.slice(0, length - filled), filled)
            filled += chunk.length
          }
          return out
        })
      )
  )

export class Crypto extends Context.Tag("hswap/toolkit/Crypto")<Crypto, CryptoApi>() {
  /** WebCrypto randomness; the primitives are loaded on the first call that needs them. */
  static readonly Live: Layer.Layer<Crypto> = Layer.succeed(
    Crypto,
    makeCrypto((length) => Effect.sync(() => globalThis.crypto.getRandomValues(new Uint8Array(length))))
  )
  /**
   * Seeded, deterministic randomness: the same seed gives the same keys, ivs and uuids. The seeded bytes need
   * blake2b, so building this layer loads the primitives; as the layer has no error channel, a failure to load them
   * is a defect (a `CouldNotHashMessage`), never a silent fallback.
   */
  static readonly Test = (seed = "hswap-test"): Layer.Layer<Crypto> =>
    Layer.effect(
      Crypto,
      Effect.gen(function* () {
        const primitives = yield* livePrimitives.pipe(
          Effect.mapError((e) => hashError({ cause: e.cause, message: PRIMITIVES_UNAVAILABLE_MESSAGE })),
          Effect.orDie
        )
        return makeCrypto(yield* seededRandom(seed, primitives.blake2b256), livePrimitives)
      })
    )
}
