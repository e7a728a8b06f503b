/**
 * The V2 transaction models (radix-transactions `model/v2`), their field order and their Manifest SBOR encoding.
 * A payload is `0x4d`, then an Enum whose discriminator is the payload type and whose fields are the model's fields.
 */
import { Either } from "effect"
import { decodeError, type TxV2DecodeError, TxV2EncodeError } from "./errors"
import { type InstructionV2, readInstructionBody, writeInstructionBody } from "./instructions"
import { DecodeFailure, EncodeFailure, Kind, MANIFEST_SBOR_PREFIX, MAX_PAYLOAD_BYTES, Reader, Writer } from "./sbor"
import { toHex } from "./bytes"

export type PublicKey =
  { readonly type: "Secp256k1"; readonly bytes: Uint8Array } | { readonly type: "Ed25519"; readonly bytes: Uint8Array }

export type Signature =
  { readonly type: "Secp256k1"; readonly bytes: Uint8Array } | { readonly type: "Ed25519"; readonly bytes: Uint8Array }

/** `SignatureWithPublicKeyV1`: a Secp256k1 signature carries no key (it is recovered), an Ed25519 one does. */
export type SignatureWithPublicKey =
  | { readonly type: "Secp256k1"; readonly signature: Uint8Array }
  | { readonly type: "Ed25519"; readonly publicKey: Uint8Array; readonly signature: Uint8Array }

export interface TransactionHeaderV2 {
  readonly notaryPublicKey: PublicKey
  readonly notaryIsSignatory: boolean
  readonly tipBasisPoints: number
}

export interface IntentHeaderV2 {
  readonly networkId: number
  readonly startEpochInclusive: bigint
  readonly endEpochExclusive: bigint
  /** Unix seconds, or null for no bound. */
  readonly minProposerTimestampInclusive: bigint | null
  readonly maxProposerTimestampExclusive: bigint | null
  readonly intentDiscriminator: bigint
}

export type MessageContents =
  { readonly type: "String"; readonly value: string } | { readonly type: "Bytes"; readonly value: Uint8Array }

export interface DecryptorsByCurve {
  readonly curve: "Ed25519" | "Secp256k1"
  readonly dhEphemeralPublicKey: Uint8Array
  readonly decryptors: ReadonlyArray<{ readonly fingerprint: Uint8Array; readonly wrappedKey: Uint8Array }>
}

export type MessageV2 =
  | { readonly type: "None" }
  | { readonly type: "Plaintext"; readonly mimeType: string; readonly message: MessageContents }
  | {
      readonly type: "Encrypted"
      readonly encrypted: Uint8Array
      /** The map's entries in order: the key curve, then the decryptors for it. */
      readonly decryptorsByCurve: ReadonlyArray<{
        readonly curveType: "Ed25519" | "Secp256k1"
        readonly value: DecryptorsByCurve
      }>
    }

export interface IntentCoreV2 {
  readonly header: IntentHeaderV2
  readonly blobs: ReadonlyArray<Uint8Array>
  readonly message: MessageV2
  /** Subintent hashes (32 bytes each) of this intent's children, in `NamedIntent` index order. */
  readonly children: ReadonlyArray<Uint8Array>
  readonly instructions: ReadonlyArray<InstructionV2>
}

export interface SubintentV2 {
  readonly intentCore: IntentCoreV2
}

export interface TransactionIntentV2 {
  readonly transactionHeader: TransactionHeaderV2
  readonly rootIntentCore: IntentCoreV2
  readonly nonRootSubintents: ReadonlyArray<SubintentV2>
}

export interface SignedTransactionIntentV2 {
  readonly transactionIntent: TransactionIntentV2
  readonly transactionIntentSignatures: ReadonlyArray<SignatureWithPublicKey>
  readonly nonRootSubintentSignatures: ReadonlyArray<ReadonlyArray<SignatureWithPublicKey>>
}

export interface NotarizedTransactionV2 {
  readonly signedTransactionIntent: SignedTransactionIntentV2
  readonly notarySignature: Signature
}

export interface PartialTransactionV2 {
  readonly rootSubintent: SubintentV2
  readonly nonRootSubintents: ReadonlyArray<SubintentV2>
}

export interface SignedPartialTransactionV2 {
  readonly partialTransaction: PartialTransactionV2
  readonly rootSubintentSignatures: ReadonlyArray<SignatureWithPublicKey>
  readonly nonRootSubintentSignatures: ReadonlyArray<ReadonlyArray<SignatureWithPublicKey>>
}

/** Payload discriminators (radix-transactions `TransactionDiscriminator`). */
export const PayloadType = {
  TransactionIntentV2: 9,
  SignedTransactionIntentV2: 10,
  SubintentV2: 11,
  NotarizedTransactionV2: 12,
  PartialTransactionV2: 13,
  SignedPartialTransactionV2: 14
} as const
export type PayloadTypeName = keyof typeof PayloadType

/** Preparation limits of the network (PreparationSettings::cuttlefish). */
export const LIMITS = {
  maxPayloadBytes: MAX_PAYLOAD_BYTES,
  maxBlobs: 64,
  maxChildSubintentsPerIntent: 32,
  maxSubintentsPerTransaction: 32
} as const

const MAX_LIST = 0x0fffffff

// ---------------------------------------------------------------------------------------------------------------
// Readers: each `readX` reads a body (the kind byte is read by the caller through `r.value`).

export const publicKeyBody = (r: Reader): PublicKey => {
  const d = r.enumHeader({ 0: 1, 1: 1 })
  return d === 0
    ? { type: "Secp256k1", bytes: r.value(0, Kind.Array, () => r.byteArray(33)) }
    : { type: "Ed25519", bytes: r.value(0, Kind.Array, () => r.byteArray(32)) }
}

// Ed25519Signature and Secp256k1Signature are one-field tuple structs around their bytes (public keys are not).
const signatureBytes = (r: Reader, name: string | number, length: number): Uint8Array =>
  r.value(name, Kind.Tuple, () => {
    r.tupleHeader(1)
    return r.value(0, Kind.Array, () => r.byteArray(length))
  })

export const signatureBody = (r: Reader): Signature => {
  const d = r.enumHeader({ 0: 1, 1: 1 })
  return d === 0
    ? { type: "Secp256k1", bytes: signatureBytes(r, 0, 65) }
    : { type: "Ed25519", bytes: signatureBytes(r, 0, 64) }
}

const signatureWithPublicKeyBody = (r: Reader): SignatureWithPublicKey => {
  const d = r.enumHeader({ 0: 1, 1: 2 })
  if (d === 0) return { type: "Secp256k1", signature: signatureBytes(r, "signature", 65) }
  const publicKey = r.value("publicKey", Kind.Array, () => r.byteArray(32))
  const signature = signatureBytes(r, "signature", 64)
  return { type: "Ed25519", publicKey, signature }
}

export const signaturesBody = (r: Reader): Array<SignatureWithPublicKey> =>
  r.array(Kind.Enum, MAX_LIST, "signatures", () => signatureWithPublicKeyBody(r))

const signatureBatchesBody = (r: Reader): Array<Array<SignatureWithPublicKey>> =>
  r.array(Kind.Array, LIMITS.maxSubintentsPerTransaction, "signature batches", () => signaturesBody(r))

const u64 = (r: Reader, name: string): bigint => r.value(name, Kind.U64, () => r.bigUint(8))

const optionalInstant = (r: Reader, name: string): bigint | null =>
  r.value(name, Kind.Enum, () => (r.enumHeader({ 0: 0, 1: 1 }) === 0 ? null : r.value(0, Kind.I64, () => r.bigInt(8))))

const transactionHeaderBody = (r: Reader): TransactionHeaderV2 => {
  r.tupleHeader(3)
  const notaryPublicKey = r.value("notaryPublicKey", Kind.Enum, publicKeyBody)
  const notaryIsSignatory = r.value("notaryIsSignatory", Kind.Bool, () => {
    const at = r.pos
    const b = r.byte()
    if (b > 1) r.fail(`bool byte ${b} is neither 0 nor 1`, at)
    return b === 1
  })
  const tipBasisPoints = r.value("tipBasisPoints", Kind.U32, () => r.uint(4))
  return { notaryPublicKey, notaryIsSignatory, tipBasisPoints }
}

const intentHeaderBody = (r: Reader): IntentHeaderV2 => {
  r.tupleHeader(6)
  return {
    networkId: r.value("networkId", Kind.U8, () => r.byte()),
    startEpochInclusive: u64(r, "startEpochInclusive"),
    endEpochExclusive: u64(r, "endEpochExclusive"),
    minProposerTimestampInclusive: optionalInstant(r, "minProposerTimestampInclusive"),
    maxProposerTimestampExclusive: optionalInstant(r, "maxProposerTimestampExclusive"),
    intentDiscriminator: u64(r, "intentDiscriminator")
  }
}

const messageContentsBody = (r: Reader): MessageContents =>
  r.enumHeader({ 0: 1, 1: 1 }) === 0
    ? { type: "String", value: r.value(0, Kind.String, () => r.stringBody()) }
    : { type: "Bytes", value: r.value(0, Kind.Array, () => r.byteArray(undefined)) }

const decryptorsBody = (r: Reader): DecryptorsByCurve => {
  const d = r.enumHeader({ 0: 2, 1: 2 })
  const curve = d === 0 ? "Ed25519" : "Secp256k1"
  const dhEphemeralPublicKey = r.value("dhEphemeralPublicKey", Kind.Array, () => r.byteArray(d === 0 ? 32 : 33))
  const decryptors = r.value("decryptors", Kind.Map, () => {
    r.expectKind(Kind.Array)
    r.expectKind(Kind.Array)
    const n = r.count(MAX_LIST, "decryptors", 2)
    const seen = new Set<string>()
    const out: Array<{ fingerprint: Uint8Array; wrappedKey: Uint8Array }> = []
    for (let i = 0; i < n; i++) {
      r.enter(i)
      const at = r.pos
      const fingerprint = r.byteArray(8)
      const key = toHex(fingerprint)
      if (seen.has(key)) r.fail("repeated decryptor fingerprint", at)
      seen.add(key)
      r.leave()
      r.enter(i)
      const wrappedKey = r.byteArray(40)
      r.leave()
      out.push({ fingerprint, wrappedKey })
    }
    return out
  })
  return { curve, dhEphemeralPublicKey, decryptors }
}

export const messageBody = (r: Reader): MessageV2 => {
  const d = r.enumHeader({ 0: 0, 1: 1, 2: 1 })
  if (d === 0) return { type: "None" }
  if (d === 1)
    return r.value("plaintext", Kind.Tuple, () => {
      r.tupleHeader(2)
      const mimeType = r.value("mimeType", Kind.String, () => r.stringBody())
      const message = r.value("message", Kind.Enum, messageContentsBody)
      return { type: "Plaintext" as const, mimeType, message }
    })
  return r.value("encrypted", Kind.Tuple, () => {
    r.tupleHeader(2)
    const encrypted = r.value("encrypted", Kind.Array, () => r.byteArray(undefined))
    const decryptorsByCurve = r.value("decryptorsByCurve", Kind.Map, () => {
      r.expectKind(Kind.Enum)
      r.expectKind(Kind.Enum)
      const n = r.count(MAX_LIST, "curves", 4)
      const seen = new Set<string>()
      const out: Array<{ curveType: "Ed25519" | "Secp256k1"; value: DecryptorsByCurve }> = []
      for (let i = 0; i < n; i++) {
        r.enter(i)
        const at = r.pos
        const curveType = r.enumHeader({ 0: 0, 1: 0 }) === 0 ? "Ed25519" : "Secp256k1"
        if (seen.has(curveType)) r.fail("a curve listed twice", at)
        seen.add(curveType)
        r.leave()
        r.enter(i)
        const value = decryptorsBody(r)
        r.leave()
        out.push({ curveType, value })
      }
      return out
    })
    return { type: "Encrypted" as const, encrypted, decryptorsByCurve }
  })
}

const intentCoreBody = (r: Reader): IntentCoreV2 => {
  r.tupleHeader(5)
  const header = r.value("header", Kind.Tuple, intentHeaderBody)
  const blobs = r.value("blobs", Kind.Array, () =>
    r.array(Kind.Array, LIMITS.maxBlobs, "blobs", () => r.byteArray(undefined))
  )
  const message = r.value("message", Kind.Enum, messageBody)
  const children = r.value("children", Kind.Array, () => {
    const seen = new Set<string>()
    return r.array(Kind.Array, LIMITS.maxChildSubintentsPerIntent, "children", () => {
      const at = r.pos
      const h = r.byteArray(32)
      const key = toHex(h)
      if (seen.has(key)) r.fail("a child subintent listed twice", at)
      seen.add(key)
      return h
    })
  })
  const instructions = r.value("instructions", Kind.Array, () =>
    r.array(Kind.Enum, MAX_LIST, "instructions", () => readInstructionBody(r))
  )
  return { header, blobs, message, children, instructions }
}

const subintentBody = (r: Reader): SubintentV2 => {
  r.tupleHeader(1)
  return { intentCore: r.value("intentCore", Kind.Tuple, intentCoreBody) }
}

const subintentsBody = (r: Reader): Array<SubintentV2> =>
  r.array(Kind.Tuple, LIMITS.maxSubintentsPerTransaction, "subintents", () => subintentBody(r))

const transactionIntentBody = (r: Reader): TransactionIntentV2 => {
  r.tupleHeader(3)
  return {
    transactionHeader: r.value("transactionHeader", Kind.Tuple, transactionHeaderBody),
    rootIntentCore: r.value("rootIntentCore", Kind.Tuple, intentCoreBody),
    nonRootSubintents: r.value("nonRootSubintents", Kind.Array, subintentsBody)
  }
}

const signedTransactionIntentBody = (r: Reader): SignedTransactionIntentV2 => {
  r.tupleHeader(3)
  return {
    transactionIntent: r.value("transactionIntent", Kind.Tuple, transactionIntentBody),
    transactionIntentSignatures: r.value("transactionIntentSignatures", Kind.Array, signaturesBody),
    nonRootSubintentSignatures: r.value("nonRootSubintentSignatures", Kind.Array, signatureBatchesBody)
  }
}

const partialTransactionBody = (r: Reader): PartialTransactionV2 => {
  r.tupleHeader(2)
  return {
    rootSubintent: r.value("rootSubintent", Kind.Tuple, subintentBody),
    nonRootSubintents: r.value("nonRootSubintents", Kind.Array, subintentsBody)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Writers: each `writeX` writes a body.

const wBytesField = (w: Writer, name: string | number, bytes: Uint8Array, length?: number): void =>
  w.at(name, () => {
    w.byte(Kind.Array)
    w.byteArray(bytes, length)
  })

const wSignatureBytes = (w: Writer, name: string | number, bytes: Uint8Array, length: number): void =>
  w.at(name, () => {
    w.byte(Kind.Tuple)
    w.size(1)
    w.byte(Kind.Array)
    w.byteArray(bytes, length)
  })

export const writePublicKeyBody = (w: Writer, k: PublicKey): void => {
  w.byte(k.type === "Secp256k1" ? 0 : 1)
  w.size(1)
  wBytesField(w, 0, k.bytes, k.type === "Secp256k1" ? 33 : 32)
}

export const writeSignatureBody = (w: Writer, s: Signature): void => {
  w.byte(s.type === "Secp256k1" ? 0 : 1)
  w.size(1)
  wSignatureBytes(w, 0, s.bytes, s.type === "Secp256k1" ? 65 : 64)
}

const writeSignatureWithPublicKeyBody = (w: Writer, s: SignatureWithPublicKey): void => {
  if (s.type === "Secp256k1") {
    w.byte(0)
    w.size(1)
    wSignatureBytes(w, "signature", s.signature, 65)
  } else {
    w.byte(1)
    w.size(2)
    wBytesField(w, "publicKey", s.publicKey, 32)
    wSignatureBytes(w, "signature", s.signature, 64)
  }
}

export const writeSignaturesBody = (w: Writer, sigs: ReadonlyArray<SignatureWithPublicKey>): void => {
  w.byte(Kind.Enum)
  w.size(sigs.length)
  sigs.forEach((s, i) => w.at(i, () => writeSignatureWithPublicKeyBody(w, s)))
}

const writeSignatureBatchesBody = (w: Writer, batches: ReadonlyArray<ReadonlyArray<SignatureWithPublicKey>>): void => {
  if (batches.length > LIMITS.maxSubintentsPerTransaction) w.fail("more than 32 signature batches")
  w.byte(Kind.Array)
  w.size(batches.length)
  batches.forEach((b, i) => w.at(i, () => writeSignaturesBody(w, b)))
}

export const writeTransactionHeaderBody = (w: Writer, h: TransactionHeaderV2): void => {
  w.size(3)
  w.at("notaryPublicKey", () => {
    w.byte(Kind.Enum)
    writePublicKeyBody(w, h.notaryPublicKey)
  })
  w.byte(Kind.Bool)
  w.byte(h.notaryIsSignatory ? 1 : 0)
  w.byte(Kind.U32)
  w.at("tipBasisPoints", () => w.uint(h.tipBasisPoints, 4, "tip basis points"))
}

const wOptionalInstant = (w: Writer, name: string, v: bigint | null): void =>
  w.at(name, () => {
    w.byte(Kind.Enum)
    if (v === null) {
      w.byte(0)
      w.size(0)
    } else {
      w.byte(1)
      w.size(1)
      w.byte(Kind.I64)
      w.bigInt(v, 8, name)
    }
  })

export const writeIntentHeaderBody = (w: Writer, h: IntentHeaderV2): void => {
  w.size(6)
  w.byte(Kind.U8)
  w.at("networkId", () => w.uint(h.networkId, 1, "network id"))
  w.byte(Kind.U64)
  w.at("startEpochInclusive", () => w.bigUint(h.startEpochInclusive, 8, "epoch"))
  w.byte(Kind.U64)
  w.at("endEpochExclusive", () => w.bigUint(h.endEpochExclusive, 8, "epoch"))
  wOptionalInstant(w, "minProposerTimestampInclusive", h.minProposerTimestampInclusive)
  wOptionalInstant(w, "maxProposerTimestampExclusive", h.maxProposerTimestampExclusive)
  w.byte(Kind.U64)
  w.at("intentDiscriminator", () => w.bigUint(h.intentDiscriminator, 8, "intent discriminator"))
}

const writeDecryptorsBody = (w: Writer, d: DecryptorsByCurve): void => {
  w.byte(d.curve === "Ed25519" ? 0 : 1)
  w.size(2)
  wBytesField(w, "dhEphemeralPublicKey", d.dhEphemeralPublicKey, d.curve === "Ed25519" ? 32 : 33)
  w.at("decryptors", () => {
    w.byte(Kind.Map)
    w.byte(Kind.Array)
    w.byte(Kind.Array)
    w.size(d.decryptors.length)
    d.decryptors.forEach((x, i) =>
      w.at(i, () => {
        w.byteArray(x.fingerprint, 8)
        w.byteArray(x.wrappedKey, 40)
      })
    )
  })
}

export const writeMessageBody = (w: Writer, m: MessageV2): void => {
  switch (m.type) {
    case "None":
      w.byte(0)
      w.size(0)
      return
    case "Plaintext":
      w.byte(1)
      w.size(1)
      w.byte(Kind.Tuple)
      w.size(2)
      w.byte(Kind.String)
      w.stringBody(m.mimeType)
      w.byte(Kind.Enum)
      if (m.message.type === "String") {
        w.byte(0)
        w.size(1)
        w.byte(Kind.String)
        w.stringBody(m.message.value)
      } else {
        w.byte(1)
        w.size(1)
        wBytesField(w, "message", m.message.value)
      }
      return
    case "Encrypted":
      w.byte(2)
      w.size(1)
      w.byte(Kind.Tuple)
      w.size(2)
      wBytesField(w, "encrypted", m.encrypted)
      w.at("decryptorsByCurve", () => {
        w.byte(Kind.Map)
        w.byte(Kind.Enum)
        w.byte(Kind.Enum)
        w.size(m.decryptorsByCurve.length)
        m.decryptorsByCurve.forEach((e, i) =>
          w.at(i, () => {
            w.byte(e.curveType === "Ed25519" ? 0 : 1)
            w.size(0)
            writeDecryptorsBody(w, e.value)
          })
        )
      })
  }
}

export const writeInstructionsBody = (w: Writer, instructions: ReadonlyArray<InstructionV2>): void => {
  w.byte(Kind.Enum)
  w.size(instructions.length)
  instructions.forEach((ins, i) => w.at(i, () => writeInstructionBody(w, ins)))
}

export const writeChildrenBody = (w: Writer, children: ReadonlyArray<Uint8Array>): void => {
  if (children.length > LIMITS.maxChildSubintentsPerIntent) w.fail("more than 32 child subintents")
  w.byte(Kind.Array)
  w.size(children.length)
  children.forEach((c, i) => w.at(i, () => w.byteArray(c, 32)))
}

const writeIntentCoreBody = (w: Writer, c: IntentCoreV2): void => {
  w.size(5)
  w.byte(Kind.Tuple)
  w.at("header", () => writeIntentHeaderBody(w, c.header))
  w.at("blobs", () => {
    if (c.blobs.length > LIMITS.maxBlobs) w.fail("more than 64 blobs")
    w.byte(Kind.Array)
    w.byte(Kind.Array)
    w.size(c.blobs.length)
    c.blobs.forEach((b, i) => w.at(i, () => w.byteArray(b)))
  })
  w.byte(Kind.Enum)
  w.at("message", () => writeMessageBody(w, c.message))
  w.byte(Kind.Array)
  w.at("children", () => writeChildrenBody(w, c.children))
  w.byte(Kind.Array)
  w.at("instructions", () => writeInstructionsBody(w, c.instructions))
}

const writeSubintentBody = (w: Writer, s: SubintentV2): void => {
  w.size(1)
  w.byte(Kind.Tuple)
  w.at("intentCore", () => writeIntentCoreBody(w, s.intentCore))
}

const writeSubintentsBody = (w: Writer, subs: ReadonlyArray<SubintentV2>): void => {
  if (subs.length > LIMITS.maxSubintentsPerTransaction) w.fail("more than 32 subintents")
  w.byte(Kind.Tuple)
  w.size(subs.length)
  subs.forEach((s, i) => w.at(i, () => writeSubintentBody(w, s)))
}

const writeTransactionIntentBody = (w: Writer, t: TransactionIntentV2): void => {
  w.size(3)
  w.byte(Kind.Tuple)
  w.at("transactionHeader", () => writeTransactionHeaderBody(w, t.transactionHeader))
  w.byte(Kind.Tuple)
  w.at("rootIntentCore", () => writeIntentCoreBody(w, t.rootIntentCore))
  w.byte(Kind.Array)
  w.at("nonRootSubintents", () => writeSubintentsBody(w, t.nonRootSubintents))
}

const writeSignedTransactionIntentBody = (w: Writer, s: SignedTransactionIntentV2): void => {
  w.size(3)
  w.byte(Kind.Tuple)
  w.at("transactionIntent", () => writeTransactionIntentBody(w, s.transactionIntent))
  w.byte(Kind.Array)
  w.at("transactionIntentSignatures", () => writeSignaturesBody(w, s.transactionIntentSignatures))
  w.byte(Kind.Array)
  w.at("nonRootSubintentSignatures", () => writeSignatureBatchesBody(w, s.nonRootSubintentSignatures))
}

const writePartialTransactionBody = (w: Writer, p: PartialTransactionV2): void => {
  w.size(2)
  w.byte(Kind.Tuple)
  w.at("rootSubintent", () => writeSubintentBody(w, p.rootSubintent))
  w.byte(Kind.Array)
  w.at("nonRootSubintents", () => writeSubintentsBody(w, p.nonRootSubintents))
}

// ---------------------------------------------------------------------------------------------------------------
// Entry points

/** Runs a writer and returns its bytes, or the typed error of the first problem. */
export const runWriter = (body: (w: Writer) => void): Either.Either<Uint8Array, TxV2EncodeError> => {
  const w = new Writer()
  try {
    body(w)
    return Either.right(w.finish())
  } catch (e) {
    if (e instanceof EncodeFailure) return Either.left(new TxV2EncodeError({ path: e.path, reason: e.reason }))
    return Either.left(new TxV2EncodeError({ path: "root", reason: `unexpected: ${String(e)}` }))
  }
}

/** Runs a reader over `bytes` to its end, or returns the typed error of the first problem. */
export const runReader = <T>(bytes: Uint8Array, body: (r: Reader) => T): Either.Either<T, TxV2DecodeError> => {
  if (!(bytes instanceof Uint8Array))
    return Either.left(decodeError({ offset: 0, path: "root", reason: "input is not a Uint8Array" }))
  if (bytes.length > LIMITS.maxPayloadBytes)
    return Either.left(
      decodeError({
        offset: LIMITS.maxPayloadBytes,
        path: "root",
        reason: `payload of ${bytes.length} bytes is over the ${LIMITS.maxPayloadBytes}-byte limit`
      })
    )
  const r = new Reader(bytes)
  try {
    const v = body(r)
    r.end()
    return Either.right(v)
  } catch (e) {
    if (e instanceof DecodeFailure)
      return Either.left(decodeError({ offset: e.offset, path: e.path, reason: e.reason }))
    // Anything else is a bug in this decoder; it is still reported as a typed error and never thrown.
    return Either.left(decodeError({ offset: r.pos, path: "root", reason: `internal decoder error: ${String(e)}` }))
  }
}

const PAYLOAD_NAMES = new Map<number, string>(
  (Object.keys(PayloadType) as Array<PayloadTypeName>).map((k) => [PayloadType[k], k])
)

const readPayload = <T>(r: Reader, type: PayloadTypeName, fields: number, body: (r: Reader) => T): T => {
  const at = r.pos
  const prefix = r.byte()
  if (prefix !== MANIFEST_SBOR_PREFIX) r.fail(`payload prefix 0x${prefix.toString(16)} is not 0x4d (Manifest SBOR)`, at)
  r.expectKind(Kind.Enum)
  const dAt = r.pos
  const d = r.byte()
  if (d !== PayloadType[type]) {
    const actual = PAYLOAD_NAMES.get(d)
    r.fail(
      `expected a ${type} payload (discriminator ${PayloadType[type]}), found ${actual ?? "discriminator"} ${actual === undefined ? d : `(${d})`}`,
      dAt
    )
  }
  const nAt = r.pos
  const n = r.size()
  if (n !== fields) r.fail(`a ${type} payload has ${fields} fields, found ${n}`, nAt)
  r.enterLevel()
  const v = body(r)
  r.leaveLevel()
  return v
}

const writePayload = (w: Writer, type: PayloadTypeName, fields: number, body: () => void): void => {
  w.byte(MANIFEST_SBOR_PREFIX)
  w.byte(Kind.Enum)
  w.byte(PayloadType[type])
  w.size(fields)
  body()
}

// Each payload's enum fields are its model's fields (a one-field model has one enum field).

export const decodeSubintentV2 = (bytes: Uint8Array) =>
  runReader(bytes, (r) =>
    readPayload(r, "SubintentV2", 1, (): SubintentV2 => ({
      intentCore: r.value("intentCore", Kind.Tuple, intentCoreBody)
    }))
  )
export const encodeSubintentV2 = (s: SubintentV2) =>
  runWriter((w) =>
    writePayload(w, "SubintentV2", 1, () => {
      w.byte(Kind.Tuple)
      w.at("intentCore", () => writeIntentCoreBody(w, s.intentCore))
    })
  )

export const decodeTransactionIntentV2 = (bytes: Uint8Array) =>
  runReader(bytes, (r) =>
    readPayload(r, "TransactionIntentV2", 3, (): TransactionIntentV2 => ({
      transactionHeader: r.value("transactionHeader", Kind.Tuple, transactionHeaderBody),
      rootIntentCore: r.value("rootIntentCore", Kind.Tuple, intentCoreBody),
      nonRootSubintents: r.value("nonRootSubintents", Kind.Array, subintentsBody)
    }))
  )
export const encodeTransactionIntentV2 = (t: TransactionIntentV2) =>
  runWriter((w) =>
    writePayload(w, "TransactionIntentV2", 3, () => {
      w.byte(Kind.Tuple)
      w.at("transactionHeader", () => writeTransactionHeaderBody(w, t.transactionHeader))
      w.byte(Kind.Tuple)
      w.at("rootIntentCore", () => writeIntentCoreBody(w, t.rootIntentCore))
      w.byte(Kind.Array)
      w.at("nonRootSubintents", () => writeSubintentsBody(w, t.nonRootSubintents))
    })
  )

export const decodeSignedTransactionIntentV2 = (bytes: Uint8Array) =>
  runReader(bytes, (r) =>
    readPayload(r, "SignedTransactionIntentV2", 3, (): SignedTransactionIntentV2 => ({
      transactionIntent: r.value("transactionIntent", Kind.Tuple, transactionIntentBody),
      transactionIntentSignatures: r.value("transactionIntentSignatures", Kind.Array, signaturesBody),
      nonRootSubintentSignatures: r.value("nonRootSubintentSignatures", Kind.Array, signatureBatchesBody)
    }))
  )
export const encodeSignedTransactionIntentV2 = (s: SignedTransactionIntentV2) =>
  runWriter((w) =>
    writePayload(w, "SignedTransactionIntentV2", 3, () => {
      w.byte(Kind.Tuple)
      w.at("transactionIntent", () => writeTransactionIntentBody(w, s.transactionIntent))
      w.byte(Kind.Array)
      w.at("transactionIntentSignatures", () => writeSignaturesBody(w, s.transactionIntentSignatures))
      w.byte(Kind.Array)
      w.at("nonRootSubintentSignatures", () => writeSignatureBatchesBody(w, s.nonRootSubintentSignatures))
    })
  )

export const decodeNotarizedTransactionV2 = (bytes: Uint8Array) =>
  runReader(bytes, (r) =>
    readPayload(r, "NotarizedTransactionV2", 2, (): NotarizedTransactionV2 => ({
      signedTransactionIntent: r.value("signedTransactionIntent", Kind.Tuple, signedTransactionIntentBody),
      notarySignature: r.value("notarySignature", Kind.Enum, signatureBody)
    }))
  )
export const encodeNotarizedTransactionV2 = (n: NotarizedTransactionV2) =>
  runWriter((w) =>
    writePayload(w, "NotarizedTransactionV2", 2, () => {
      w.byte(Kind.Tuple)
      w.at("signedTransactionIntent", () => writeSignedTransactionIntentBody(w, n.signedTransactionIntent))
      w.byte(Kind.Enum)
      w.at("notarySignature", () => writeSignatureBody(w, n.notarySignature))
    })
  )

export const decodePartialTransactionV2 = (bytes: Uint8Array) =>
  runReader(bytes, (r) =>
    readPayload(r, "PartialTransactionV2", 2, (): PartialTransactionV2 => ({
      rootSubintent: r.value("rootSubintent", Kind.Tuple, subintentBody),
      nonRootSubintents: r.value("nonRootSubintents", Kind.Array, subintentsBody)
    }))
  )
export const encodePartialTransactionV2 = (p: PartialTransactionV2) =>
  runWriter((w) =>
    writePayload(w, "PartialTransactionV2", 2, () => {
      w.byte(Kind.Tuple)
      w.at("rootSubintent", () => writeSubintentBody(w, p.rootSubintent))
      w.byte(Kind.Array)
      w.at("nonRootSubintents", () => writeSubintentsBody(w, p.nonRootSubintents))
    })
  )

export const decodeSignedPartialTransactionV2 = (bytes: Uint8Array) =>
  runReader(bytes, (r) =>
    readPayload(r, "SignedPartialTransactionV2", 3, (): SignedPartialTransactionV2 => ({
      partialTransaction: r.value("partialTransaction", Kind.Tuple, partialTransactionBody),
      rootSubintentSignatures: r.value("rootSubintentSignatures", Kind.Array, signaturesBody),
      nonRootSubintentSignatures: r.value("nonRootSubintentSignatures", Kind.Array, signatureBatchesBody)
    }))
  )
export const encodeSignedPartialTransactionV2 = (s: SignedPartialTransactionV2) =>
  runWriter((w) =>
    writePayload(w, "SignedPartialTransactionV2", 3, () => {
      w.byte(Kind.Tuple)
      w.at("partialTransaction", () => writePartialTransactionBody(w, s.partialTransaction))
      w.byte(Kind.Array)
      w.at("rootSubintentSignatures", () => writeSignaturesBody(w, s.rootSubintentSignatures))
      w.byte(Kind.Array)
      w.at("nonRootSubintentSignatures", () => writeSignatureBatchesBody(w, s.nonRootSubintentSignatures))
    })
  )

/** Body writers for the hash tree, which hashes parts without their value-kind byte. */
export const bodyWriters = {
  transactionHeader: writeTransactionHeaderBody,
  intentHeader: writeIntentHeaderBody,
  message: writeMessageBody,
  instructions: writeInstructionsBody,
  signatures: writeSignaturesBody,
  notarySignature: writeSignatureBody
} as const
