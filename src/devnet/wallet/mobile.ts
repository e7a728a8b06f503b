/**
 * The mobile-wallet emulator: what the Radix Wallet app does with a `radixwallet://connect?…` deep link. It checks
 * the dApp's signature, answers the request as the extension mode would, and encrypts the answer for the dApp with
 * the shared secret (X25519 + HKDF-SHA256 'RCfM' + AES-256-GCM), ready to post to the relay.
 */
import { Effect, Either, Schema } from "effect"
import { isHex } from "../../toolkit/bytes"
import { Crypto } from "../../toolkit/crypto"
import { encryptWalletResponse, parseDeepLink } from "../../toolkit/deepLink"
import { verifyDeepLinkSignature } from "../../toolkit/deepLinkVerify"
import type { WalletInteractionResponse } from "../../toolkit/schemas"
import { deriveKey } from "../ledger/genesis"
import type { Decision } from "./api"
import type { WalletEmulatorApi } from "./WalletEmulator"

/** A deep link the wallet refuses (answered 400). */
export class DeepLinkRefused extends Schema.TaggedError<DeepLinkRefused>()("DeepLinkRefused", {
  message: Schema.String
}) {}

/** The mobile wallet's x25519 secret, derived from the genesis seed like every other devnet key. */
export const mobileWalletSecret = (seed: string): Uint8Array => deriveKey(seed, "mobile-wallet").privateKey

export interface MobileAnswer {
  readonly interactionId: string
  readonly sessionId: string
  readonly response: WalletInteractionResponse
  /** The relay entry: the wallet's x25519 public key and iv ‖ ciphertext ‖ tag, both hex. */
  readonly publicKey: string
  readonly data: string
}

export const answerDeepLink = Effect.fn("MobileWallet.answerDeepLink")(function* (
  wallet: WalletEmulatorApi,
  walletSecret: Uint8Array,
  link: string,
  decision: Decision = { approve: true }
) {
  const parsed = parseDeepLink(link)
  if (Either.isLeft(parsed))
    return yield* new DeepLinkRefused({ message: `Not a Radix Connect deep link: ${parsed.left}` })
  const request = parsed.right
  const url = new URL(link)
  if (url.protocol !== "radixwallet:" || url.host !== "connect")
    return yield* new DeepLinkRefused({ message: "The deep link must start with radixwallet://connect" })
  if (!verifyDeepLinkSignature(request))
    return yield* new DeepLinkRefused({
      message: "The deep link's signature does not verify for its identity, origin and dApp"
    })
  if (!isHex(request.publicKey) || request.publicKey.length !== 64)
    return yield* new DeepLinkRefused({ message: "The deep link's publicKey is not a 32-byte x25519 key in hex" })
  const response = yield* wallet.answer(request.interaction, decision)
  const encrypted = yield* encryptWalletResponse({
    response,
    walletSecret,
    dAppPublicKey: request.publicKey,
    dAppDefinitionAddress: request.dAppDefinitionAddress
  }).pipe(Effect.mapError((e) => new DeepLinkRefused({ message: `Could not encrypt the response: ${e.message}` })))
  return {
    interactionId: request.interaction.interactionId,
    sessionId: request.sessionId,
    response,
    publicKey: encrypted.publicKey,
    data: encrypted.data
  } satisfies MobileAnswer
}, Effect.provide(Crypto.Live))
