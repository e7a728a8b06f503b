/**
 * The Radix Connect deep link, both sides (wallet-protocol.md §2): the dApp builds it, the wallet (and the devnet's
 * mobile-wallet emulator) parses it, checks its signature, and answers through the relay with an encrypted response.
 * The signature check (`verifyDeepLinkSignature`) is in `deepLinkVerify.ts`: it uses the noble primitives
 * synchronously, which the browser bundle loads only on demand.
 */
import { Effect, Either } from "effect"
import { concatBytes, fromBase64Url, fromHex, fromUtf8, toBase64Url, toHex, utf8 } from "./bytes"
import { Crypto } from "./crypto"
import { WalletInteraction, type WalletInteractionResponse } from "./schemas"
import { decodeUntrusted } from "./untrusted"

/** The query parameters, in the order the official toolkit appends them. */
export const deepLinkParamOrder = [
  "sessionId",
  "request",
  "signature",
  "publicKey",
  "identity",
  "origin",
  "dAppDefinitionAddress"
] as const

export type DeepLinkParams = { readonly [K in (typeof deepLinkParamOrder)[number]]: string }

/**
 * Unpadded base64url of the interaction's JSON: the very object the extension would receive, keys in its own order
 * (as the official toolkit's `base64urlEncode(walletInteraction)`), so a caller's header keeps its key order here too.
 */
export const encodeRequestParam = (interaction: WalletInteraction): string =>
  toBase64Url(utf8(JSON.stringify(interaction)))

/** `radixwallet://connect?sessionId=…&request=…&…`, form-urlencoded like `URLSearchParams.append`. */
export const buildDeepLink = (walletUrl: string, params: DeepLinkParams): string => {
  const url = new URL(walletUrl)
  for (const key of deepLinkParamOrder) url.searchParams.append(key, params[key])
  return url.toString()
}

export interface ParsedDeepLink extends DeepLinkParams {
  readonly interaction: WalletInteraction
}

const decodeInteraction = decodeUntrusted(WalletInteraction)

/** Longer links are refused before parsing (a deep link is a few KB). */
export const MAX_DEEP_LINK_CHARS = 1_000_000

/**
 * Parses and decodes a deep link; `Left` with a reason when anything is missing or malformed. Never throws: the
 * request goes through the guarded entry (`decodeUntrusted`).
 */
export const parseDeepLink = (link: string): Either.Either<ParsedDeepLink, string> => {
  try {
    return parseDeepLinkUnguarded(link)
  } catch {
    return Either.left("the link could not be read")
  }
}

const parseDeepLinkUnguarded = (link: string): Either.Either<ParsedDeepLink, string> => {
  if (typeof link !== "string") return Either.left("not a URL")
  if (link.length > MAX_DEEP_LINK_CHARS) return Either.left("the link is too long")
  let url: URL
  try {
    url = new URL(link)
  } catch {
    return Either.left("not a URL")
  }
  const params: Partial<Record<(typeof deepLinkParamOrder)[number], string>> = {}
  for (const key of deepLinkParamOrder) {
    const value = url.searchParams.get(key)
    if (value === null) return Either.left(`missing ${key}`)
    params[key] = value
  }
  const full = params as DeepLinkParams
  let json: unknown
  try {
    json = JSON.parse(fromUtf8(fromBase64Url(full.request)))
  } catch {
    return Either.left("request is not base64url JSON")
  }
  return Either.map(
    Either.mapLeft(decodeInteraction(json), () => "request is not a wallet interaction"),
    (interaction) => ({ ...full, interaction })
  )
}

export interface EncryptedWalletResponse {
  /** The wallet's x25519 public key, hex. */
  readonly publicKey: string
  /** iv(12) ‖ ciphertext ‖ tag(16), hex. */
  readonly data: string
}

/**
 * The wallet side of the relay: encrypts a response for the dApp. The key is HKDF-SHA256 over
 * X25519(walletSecret, dAppPublicKey) with the dApp definition address as salt and 'RCfM' as info.
 */
export const encryptWalletResponse = Effect.fn("deepLink.encryptWalletResponse")(function* (input: {
  readonly response: WalletInteractionResponse
  readonly walletSecret: Uint8Array
  /** The dApp's x25519 public key (the deep link's `publicKey`), hex. */
  readonly dAppPublicKey: string
  readonly dAppDefinitionAddress: string
  /** 12 bytes; random when absent. */
  readonly iv?: Uint8Array
}) {
  const crypto = yield* Crypto
  const key = yield* crypto.deriveSharedSecret(
    input.walletSecret,
    fromHex(input.dAppPublicKey),
    input.dAppDefinitionAddress
  )
  const iv = input.iv ?? (yield* crypto.randomBytes(12))
  const sealed = yield* crypto.aesGcmEncrypt(key, iv, utf8(JSON.stringify(input.response)))
  const publicKey = yield* crypto.x25519PublicKey(input.walletSecret)
  return { publicKey: toHex(publicKey), data: toHex(concatBytes(iv, sealed)) } satisfies EncryptedWalletResponse
})

/** The body the wallet POSTs to `{relay}/api/v1`. */
export const sendResponseBody = (sessionId: string, encrypted: EncryptedWalletResponse) => ({
  method: "sendResponse" as const,
  sessionId,
  publicKey: encrypted.publicKey,
  data: encrypted.data
})

/** The wallet side's shared secret, for callers that encrypt themselves. */
export const deriveSharedSecret = (secret: Uint8Array, peerPublicKeyHex: string, dAppDefinitionAddress: string) =>
  Effect.flatMap(Crypto, (crypto) =>
    crypto.deriveSharedSecret(secret, fromHex(peerPublicKeyHex), dAppDefinitionAddress)
  )
