/**
 * Pure byte helpers (hex, UTF-8, base64url, concatenation) and the byte layouts of the Radix Connect relay
 * (signature message, sealbox). No cryptography here, so this module stays in the initial bundle while the
 * @noble primitives (`cryptoPrimitives.ts`) are loaded only when the relay needs them.
 */

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
