/**
 * Relay: the mobile transport (wallet-protocol.md §2). A request leaves as a signed deep link to the wallet; the
 * response comes back through the Radix Connect relay, polled every 1.5 s while anything is pending, and is
 * decrypted with HKDF-SHA256 + AES-256-GCM. Each relay entry is handled on its own: a bad one is reported with its
 * typed error and the rest of the batch is still delivered.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Clock, Duration, Effect, Layer, Option, type Ref, Schedule } from "effect"
import { timing, ToolkitConfig } from "./config"
import { fromHex, fromUtf8, isHex, signatureMessage, splitSealbox, toHex } from "./bytes"
import { Crypto } from "./crypto"
import { buildDeepLink, encodeRequestParam } from "./deepLink"
import { Environment } from "./environment"
import {
  CouldNotGetOrCreateIdentity,
  FailedToDecryptWalletResponseData,
  FailedToDeriveSharedSecret,
  FailedToFetch,
  FailedToParseResponseToJson,
  FailedToPoll,
  RadixConnectRelayRequestFailed,
  RequestStatusNotOk,
  UnhandledEnvironment,
  WalletResponseValidation
} from "./errors"
import { RelayResponseEntry, type Session, type WalletInteraction, WalletInteractionResponse } from "./schemas"
import { Storage } from "./storage"
import { decodeUntrusted, untrustedLimits } from "./untrusted"

/** Larger relay entries are refused without decrypting (hex characters). */
export const MAX_ENTRY_HEX_CHARS = 2_000_000

export type RelayEntryError =
  | FailedToDecryptWalletResponseData
  | FailedToDeriveSharedSecret
  | WalletResponseValidation
  | RadixConnectRelayRequestFailed
  | CouldNotGetOrCreateIdentity

/** One relay entry, handled on its own. */
export type RelayDelivery =
  | { readonly _tag: "Response"; readonly response: WalletInteractionResponse }
  | { readonly _tag: "Invalid"; readonly interactionId: string | undefined; readonly error: RelayEntryError }

export interface DappIdentity {
  readonly secret: Uint8Array
  /** x25519 public key, hex (the deep link's `publicKey`). */
  readonly publicKey: string
  /** ed25519 public key, hex (the deep link's `identity`). */
  readonly identity: string
}

const decodeEntry = decodeUntrusted(RelayResponseEntry, { ...untrustedLimits, maxChars: MAX_ENTRY_HEX_CHARS + 10_000 })
const decodeResponse = decodeUntrusted(WalletInteractionResponse)

/** At most this much of a relay's `error` text goes into a message. */
const MAX_ERROR_TEXT = 200

export class Relay extends Effect.Service<Relay>()("hswap/toolkit/Relay", {
  effect: Effect.gen(function* () {
    const env = yield* Environment
    const crypto = yield* Crypto
    const storage = yield* Storage
    const config = yield* ToolkitConfig
    const http = yield* HttpClient.HttpClient
    const lock = yield* Effect.makeSemaphore(1)

    /** The dApp identity: one 32-byte secret in `identities.dApp`, created once and kept. */
    const getIdentity: Effect.Effect<DappIdentity, CouldNotGetOrCreateIdentity> = lock
      .withPermits(1)(
        Effect.gen(function* () {
          const stored = yield* storage.identities.getById("dApp")
          let secret: Uint8Array
          if (Option.isSome(stored) && isHex(stored.value.secret) && stored.value.secret.length === 64) {
            secret = fromHex(stored.value.secret)
          } else {
            secret = yield* crypto.randomBytes(32)
            const createdAt = yield* Clock.currentTimeMillis
            yield* storage.identities.setItems({ dApp: { secret: toHex(secret), createdAt } })
          }
          const publicKey = toHex(yield* crypto.x25519PublicKey(secret))
          const identity = toHex(yield* crypto.ed25519PublicKey(secret))
          return { secret, publicKey, identity }
        })
      )
      .pipe(Effect.mapError((cause) => new CouldNotGetOrCreateIdentity({ cause })))

    /** The first stored session, or a new one (kept). */
    const getSession: Effect.Effect<Session, CouldNotGetOrCreateIdentity> = lock
      .withPermits(1)(
        Effect.gen(function* () {
          const sessions = Object.values(yield* storage.sessions.getAll)
          const first = sessions[0]
          if (first) return first
          const session = { sessionId: yield* crypto.randomUuid(), createdAt: yield* Clock.currentTimeMillis }
          yield* storage.sessions.setItems({ [session.sessionId]: session })
          return session
        })
      )
      .pipe(
        Effect.mapError(
          (cause) => new CouldNotGetOrCreateIdentity({ cause, message: "could not get or create the session" })
        )
      )

    /** ed25519 over blake2b-256('C' ‖ interactionId ‖ len ‖ dAppDefinitionAddress ‖ origin), hex. */
    const createSignature = Effect.fn("Relay.createSignature")(function* (interaction: WalletInteraction) {
      const id = yield* getIdentity
      const hash = yield* crypto.blake2b256(
        signatureMessage({
          interactionId: interaction.interactionId,
          dAppDefinitionAddress: interaction.metadata.dAppDefinitionAddress,
          origin: interaction.metadata.origin
        })
      )
      const signature = toHex(yield* crypto.ed25519Sign(id.secret, hash))
      return { signature, publicKey: id.publicKey, identity: id.identity }
    })

    const deepLink = Effect.fn("Relay.deepLink")(function* (interaction: WalletInteraction) {
      const session = yield* getSession
      const { signature, publicKey, identity } = yield* createSignature(interaction)
      return buildDeepLink(config.walletUrl, {
        sessionId: session.sessionId,
        request: encodeRequestParam(interaction),
        signature,
        publicKey,
        identity,
        origin: interaction.metadata.origin,
        dAppDefinitionAddress: interaction.metadata.dAppDefinitionAddress
      })
    })

    /** Opens the deep link: a new window in a Telegram Mini App, else `location.href`. Off mobile: UnhandledEnvironment. */
    const send = Effect.fn("Relay.send")(function* (interaction: WalletInteraction) {
      if (!env.isMobile) return yield* new UnhandledEnvironment({ interactionId: interaction.interactionId })
      const link = yield* deepLink(interaction)
      if (env.isTelegramMiniApp()) yield* env.openWindow(link)
      else yield* env.navigate(link)
      return link
    })

    const decryptEntryUnguarded = Effect.fn("Relay.decryptEntry")(function* (entry: unknown) {
      const decoded = decodeEntry(entry)
      if (decoded._tag === "Left") {
        const tooLarge = decoded.left.issues.some((i) => i.message === "message too large")
        return yield* tooLarge
          ? new WalletResponseValidation({ issues: [{ path: "data", message: "message too large" }] })
          : new FailedToDecryptWalletResponseData({ message: "not a relay entry" })
      }
      const value = decoded.right
      if ("error" in value) {
        const text = value.error.length > MAX_ERROR_TEXT ? `${value.error.slice(0, MAX_ERROR_TEXT)}…` : value.error
        return yield* new RadixConnectRelayRequestFailed({
          message: `the relay entry carries an error: ${JSON.stringify(text)}`
        })
      }
      if (value.data.length > MAX_ENTRY_HEX_CHARS) {
        return yield* new WalletResponseValidation({ issues: [{ path: "data", message: "message too large" }] })
      }
      if (!isHex(value.publicKey) || value.publicKey.length !== 64) {
        return yield* new FailedToDeriveSharedSecret({ message: "the wallet public key is not 32 bytes of hex" })
      }
      if (!isHex(value.data)) return yield* new FailedToDecryptWalletResponseData({ message: "data is not hex" })
      const box = splitSealbox(fromHex(value.data))
      if (!box) return yield* new FailedToDecryptWalletResponseData({ message: "data is too short" })
      const id = yield* getIdentity
      const key = yield* crypto.deriveSharedSecret(id.secret, fromHex(value.publicKey), config.dAppDefinitionAddress)
      const plain = yield* crypto.aesGcmDecrypt(key, box.iv, new Uint8Array([...box.ciphertext, ...box.authTag]))
      const json = yield* Effect.try({
        try: (): unknown => JSON.parse(fromUtf8(plain)),
        catch: (cause) => new FailedToDecryptWalletResponseData({ cause, message: "the plaintext is not JSON" })
      })
      const response = decodeResponse(json)
      if (response._tag === "Left") return yield* response.left
      return response.right
    })

    /**
     * Decrypts and decodes one relay entry through the guarded entry. Never dies: an unexpected defect (a crypto
     * primitive throwing on hostile bytes) is `FailedToDecryptWalletResponseData`.
     */
    const decryptEntry = (entry: unknown): Effect.Effect<WalletInteractionResponse, RelayEntryError> =>
      decryptEntryUnguarded(entry).pipe(
        Effect.catchAllDefect(() =>
          Effect.fail(new FailedToDecryptWalletResponseData({ message: "the entry could not be decrypted" }))
        )
      )

    /** One `getResponses` call. A transport failure is `FailedToFetch`; anything else is `failedToPoll`. */
    const getResponses = Effect.fn("Relay.getResponses")(function* (sessionId: string) {
      const request = HttpClientRequest.post(`${config.relayUrl}/api/v1`).pipe(
        HttpClientRequest.bodyText(JSON.stringify({ method: "getResponses", sessionId }), "text/plain;charset=UTF-8")
      )
      const response = yield* http.execute(request).pipe(Effect.mapError((cause) => new FailedToFetch({ cause })))
      if (response.status < 200 || response.status > 299) {
        return yield* new FailedToPoll({ cause: new RequestStatusNotOk({ status: response.status }) })
      }
      const body = yield* response.json.pipe(
        Effect.mapError((cause) => new FailedToPoll({ cause: new FailedToParseResponseToJson({ cause }) }))
      )
      if (!Array.isArray(body)) return yield* new FailedToPoll({ message: "the relay answer is not a list" })
      const deliveries: Array<RelayDelivery> = []
      for (const entry of body) {
        const result = yield* Effect.either(decryptEntry(entry))
        deliveries.push(
          result._tag === "Right"
            ? { _tag: "Response", response: result.right }
            : { _tag: "Invalid", interactionId: result.left.interactionId || undefined, error: result.left }
        )
      }
      return deliveries as ReadonlyArray<RelayDelivery>
    })

    /**
     * Polls every 1.5 s while `hasPending` says so, handing each entry to `deliver`. A fetch failure is retried on
     * the next tick; any other error ends the loop with `failedToPoll`.
     */
    const poll = <R>(options: {
      readonly hasPending: Effect.Effect<boolean, never, R>
      readonly deliver: (delivery: RelayDelivery) => Effect.Effect<void, never, R>
    }): Effect.Effect<never, FailedToPoll | CouldNotGetOrCreateIdentity, R> => {
      const tick = Effect.gen(function* () {
        if (!(yield* options.hasPending)) return
        const session = yield* getSession
        const deliveries = yield* getResponses(session.sessionId).pipe(
          Effect.catchTag("FailedToFetch", (e) =>
            Effect.logWarning("relay: fetch failed, retrying", e.cause).pipe(
              Effect.as([] as ReadonlyArray<RelayDelivery>)
            )
          )
        )
        // Each entry on its own: one that cannot be delivered costs only itself.
        yield* Effect.forEach(
          deliveries,
          (delivery) =>
            options
              .deliver(delivery)
              .pipe(Effect.catchAllDefect(() => Effect.logError("toolkit relay: an entry could not be delivered"))),
          { discard: true }
        )
      }).pipe(Effect.catchAllDefect(() => Effect.logError("toolkit relay: a poll failed unexpectedly; retrying")))
      return tick.pipe(Effect.repeat(Schedule.spaced(Duration.millis(timing.relayPoll))), Effect.zipRight(Effect.never))
    }

    return { getIdentity, getSession, createSignature, deepLink, send, decryptEntry, getResponses, poll } as const
  })
}) {
  /** Over a scripted relay (`HttpClient`) and a scripted mobile environment whose navigations are recorded. */
  static readonly Test = (options: {
    readonly http: HttpClient.HttpClient
    readonly isMobile?: boolean
    readonly isTelegramMiniApp?: boolean
    readonly opened?: Ref.Ref<ReadonlyArray<{ readonly how: "navigate" | "window"; readonly url: string }>>
  }): Layer.Layer<Relay, never, Crypto | Storage | ToolkitConfig> =>
    Relay.Default.pipe(
      Layer.provide(
        Layer.mergeAll(
          Environment.Test({
            isMobile: options.isMobile ?? true,
            ...(options.isTelegramMiniApp !== undefined ? { isTelegramMiniApp: options.isTelegramMiniApp } : {}),
            ...(options.opened ? { opened: options.opened } : {})
          }),
          Layer.succeed(HttpClient.HttpClient, options.http)
        )
      )
    )
}
