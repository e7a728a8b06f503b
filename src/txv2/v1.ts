/**
 * V1 notarized transactions (radix-transactions `model/v1`), byte-exact both ways, with their hashes and a builder:
 * what the exchange signs its payouts with and what the devnet decodes V1 submissions with, without the Radix Engine
 * Toolkit. V1 shares its parts with V2 (instructions, message, signatures, public keys); it differs in the header
 * (network, epoch window, nonce, notary key, notary-is-signatory, tip percentage), the intent's field order
 * (header, instructions, blobs, message) and the hash tree:
 * - intent hash (txid) = H(54 01 ‖ H(header) ‖ H(instructions) ‖ H(H(blob_1) ‖ …) ‖ H(message))
 * - signed intent hash = H(54 02 ‖ txid ‖ H(intent signatures))
 * - notarized transaction hash = H(54 03 ‖ signed intent hash ‖ H(notary signature))
 * where, unlike V2, each part's hash covers its whole Manifest SBOR value (the value-kind byte included, no 0x4d).
 *
 * A V1 payload is `0x4d`, then an Enum whose discriminator is the payload type (1 intent, 2 signed intent,
 * 3 notarized transaction) and whose fields are the model's fields. V1 manifests use V1's instructions only: the
 * V2 additions (resource assertions on the worktop and on calls, bucket contents, yields, VERIFY_PARENT) are refused.
 */
import { Either } from "effect"
import { concatBytes } from "./bytes"
import { type TxV2DecodeError, type TxV2EncodeError } from "./errors"
import { hash } from "./hash"
import { notarizedTransactionId, signedTransactionIntentId, transactionIntentId } from "./ids"
import { type InstructionV2, readInstructionBody } from "./instructions"
import {
  type MessageV2,
  messageBody,
  type PublicKey,
  publicKeyBody,
  runReader,
  runWriter,
  type Signature,
  signatureBody,
  signaturesBody,
  type SignatureWithPublicKey,
  writeInstructionsBody,
  writeMessageBody,
  writePublicKeyBody,
  writeSignatureBody,
  writeSignaturesBody
} from "./models"
import { Kind, MANIFEST_SBOR_PREFIX, type Reader, type Writer } from "./sbor"
import { asNotarySigner, type NotarySigner, type SigningKey, signIntentHash } from "./builder"

export interface TransactionHeaderV1 {
  readonly networkId: number
  readonly startEpochInclusive: bigint
  readonly endEpochExclusive: bigint
  /** u32 */
  readonly nonce: number
  readonly notaryPublicKey: PublicKey
  readonly notaryIsSignatory: boolean
  /** u16 */
  readonly tipPercentage: number
}

export interface IntentV1 {
  readonly header: TransactionHeaderV1
  readonly instructions: ReadonlyArray<InstructionV2>
  readonly blobs: ReadonlyArray<Uint8Array>
  readonly message: MessageV2
}

export interface SignedIntentV1 {
  readonly intent: IntentV1
  readonly intentSignatures: ReadonlyArray<SignatureWithPublicKey>
}

export interface NotarizedTransactionV1 {
  readonly signedIntent: SignedIntentV1
  readonly notarySignature: Signature
}

/** V1 payload discriminators (radix-transactions `TransactionDiscriminator`). */
export const PayloadTypeV1 = { IntentV1: 1, SignedIntentV1: 2, NotarizedTransactionV1: 3 } as const

/** The instructions V2 added; a V1 manifest cannot hold them. */
const V2_ONLY = new Set<InstructionV2["kind"]>([
  "AssertWorktopResourcesOnly",
  "AssertWorktopResourcesInclude",
  "AssertNextCallReturnsOnly",
  "AssertNextCallReturnsInclude",
  "AssertBucketContents",
  "YieldToParent",
  "YieldToChild",
  "VerifyParent"
])

const MAX_LIST = 0x0fffffff
const MAX_BLOBS = 64

// --- reading ---------------------------------------------------------------------------------------------------

const headerBody = (r: Reader): TransactionHeaderV1 => {
  r.tupleHeader(7)
  const networkId = r.value("networkId", Kind.U8, () => r.byte())
  const startEpochInclusive = r.value("startEpochInclusive", Kind.U64, () => r.bigUint(8))
  const endEpochExclusive = r.value("endEpochExclusive", Kind.U64, () => r.bigUint(8))
  const nonce = r.value("nonce", Kind.U32, () => r.uint(4))
  const notaryPublicKey = r.value("notaryPublicKey", Kind.Enum, publicKeyBody)
  const notaryIsSignatory = r.value("notaryIsSignatory", Kind.Bool, () => {
    const at = r.pos
    const b = r.byte()
    if (b > 1) r.fail(`bool byte ${b} is neither 0 nor 1`, at)
    return b === 1
  })
  const tipPercentage = r.value("tipPercentage", Kind.U16, () => r.uint(2))
  return { networkId, startEpochInclusive, endEpochExclusive, nonce, notaryPublicKey, notaryIsSignatory, tipPercentage }
}

const instructionsBody = (r: Reader): Array<InstructionV2> =>
  r.array(Kind.Enum, MAX_LIST, "instructions", () => {
    const at = r.pos
    const ins = readInstructionBody(r)
    if (V2_ONLY.has(ins.kind)) r.fail(`${ins.kind} is not a V1 instruction`, at)
    return ins
  })

const blobsBody = (r: Reader): Array<Uint8Array> =>
  r.array(Kind.Array, MAX_BLOBS, "blobs", () => r.byteArray(undefined))

const intentBody = (r: Reader): IntentV1 => {
  r.tupleHeader(4)
  const header = r.value("header", Kind.Tuple, headerBody)
  const instructions = r.value("instructions", Kind.Array, () => instructionsBody(r))
  const blobs = r.value("blobs", Kind.Array, () => blobsBody(r))
  const message = r.value("message", Kind.Enum, messageBody)
  return { header, instructions, blobs, message }
}

const signedIntentBody = (r: Reader): SignedIntentV1 => {
  r.tupleHeader(2)
  return {
    intent: r.value("intent", Kind.Tuple, intentBody),
    intentSignatures: r.value("intentSignatures", Kind.Array, signaturesBody)
  }
}

const readPayloadV1 = <T>(
  bytes: Uint8Array,
  type: keyof typeof PayloadTypeV1,
  fields: number,
  body: (r: Reader) => T
) =>
  runReader(bytes, (r) => {
    const at = r.pos
    const prefix = r.byte()
    if (prefix !== MANIFEST_SBOR_PREFIX)
      r.fail(`payload prefix 0x${prefix.toString(16)} is not 0x4d (Manifest SBOR)`, at)
    r.expectKind(Kind.Enum)
    const dAt = r.pos
    const d = r.byte()
    if (d !== PayloadTypeV1[type])
      r.fail(`expected a ${type} payload (discriminator ${PayloadTypeV1[type]}), found discriminator ${d}`, dAt)
    const nAt = r.pos
    const n = r.size()
    if (n !== fields) r.fail(`a ${type} payload has ${fields} fields, found ${n}`, nAt)
    r.enterLevel()
    const v = body(r)
    r.leaveLevel()
    return v
  })

/** Decodes an IntentV1 payload (never throws: a typed error with the offset, path and reason). */
export const decodeIntentV1 = (bytes: Uint8Array): Either.Either<IntentV1, TxV2DecodeError> =>
  readPayloadV1(bytes, "IntentV1", 4, (r) => {
    const header = r.value("header", Kind.Tuple, headerBody)
    const instructions = r.value("instructions", Kind.Array, () => instructionsBody(r))
    const blobs = r.value("blobs", Kind.Array, () => blobsBody(r))
    const message = r.value("message", Kind.Enum, messageBody)
    return { header, instructions, blobs, message }
  })

/** Decodes a SignedIntentV1 payload. */
export const decodeSignedIntentV1 = (bytes: Uint8Array): Either.Either<SignedIntentV1, TxV2DecodeError> =>
  readPayloadV1(bytes, "SignedIntentV1", 2, (r) => ({
    intent: r.value("intent", Kind.Tuple, intentBody),
    intentSignatures: r.value("intentSignatures", Kind.Array, signaturesBody)
  }))

/** Decodes a NotarizedTransactionV1 payload. */
export const decodeNotarizedTransactionV1 = (
  bytes: Uint8Array
): Either.Either<NotarizedTransactionV1, TxV2DecodeError> =>
  readPayloadV1(bytes, "NotarizedTransactionV1", 2, (r) => ({
    signedIntent: r.value("signedIntent", Kind.Tuple, signedIntentBody),
    notarySignature: r.value("notarySignature", Kind.Enum, signatureBody)
  }))

// --- writing ---------------------------------------------------------------------------------------------------

const writeHeaderBody = (w: Writer, h: TransactionHeaderV1): void => {
  w.size(7)
  w.byte(Kind.U8)
  w.at("networkId", () => w.uint(h.networkId, 1, "network id"))
  w.byte(Kind.U64)
  w.at("startEpochInclusive", () => w.bigUint(h.startEpochInclusive, 8, "epoch"))
  w.byte(Kind.U64)
  w.at("endEpochExclusive", () => w.bigUint(h.endEpochExclusive, 8, "epoch"))
  w.byte(Kind.U32)
  w.at("nonce", () => w.uint(h.nonce, 4, "nonce"))
  w.at("notaryPublicKey", () => {
    w.byte(Kind.Enum)
    writePublicKeyBody(w, h.notaryPublicKey)
  })
  w.byte(Kind.Bool)
  w.byte(h.notaryIsSignatory ? 1 : 0)
  w.byte(Kind.U16)
  w.at("tipPercentage", () => w.uint(h.tipPercentage, 2, "tip percentage"))
}

const checkV1Instructions = (w: Writer, instructions: ReadonlyArray<InstructionV2>): void => {
  instructions.forEach((ins, i) => {
    if (V2_ONLY.has(ins.kind)) w.at(i, () => w.fail(`${ins.kind} is not a V1 instruction`))
  })
}

const writeBlobsBody = (w: Writer, blobs: ReadonlyArray<Uint8Array>): void => {
  if (blobs.length > MAX_BLOBS) w.fail("more than 64 blobs")
  w.byte(Kind.Array)
  w.size(blobs.length)
  blobs.forEach((b, i) => w.at(i, () => w.byteArray(b)))
}

/** The intent's four fields (a payload's enum fields, or the body of its tuple after the count). */
const writeIntentFields = (w: Writer, intent: IntentV1): void => {
  w.byte(Kind.Tuple)
  w.at("header", () => writeHeaderBody(w, intent.header))
  w.byte(Kind.Array)
  w.at("instructions", () => {
    checkV1Instructions(w, intent.instructions)
    writeInstructionsBody(w, intent.instructions)
  })
  w.byte(Kind.Array)
  w.at("blobs", () => writeBlobsBody(w, intent.blobs))
  w.byte(Kind.Enum)
  w.at("message", () => writeMessageBody(w, intent.message))
}

const writeIntentBody = (w: Writer, intent: IntentV1): void => {
  w.size(4)
  writeIntentFields(w, intent)
}

const writePayloadV1 = (w: Writer, type: keyof typeof PayloadTypeV1, fields: number): void => {
  w.byte(MANIFEST_SBOR_PREFIX)
  w.byte(Kind.Enum)
  w.byte(PayloadTypeV1[type])
  w.size(fields)
}

const writeSignedIntentFields = (w: Writer, s: SignedIntentV1): void => {
  w.byte(Kind.Tuple)
  w.at("intent", () => writeIntentBody(w, s.intent))
  w.byte(Kind.Array)
  w.at("intentSignatures", () => writeSignaturesBody(w, s.intentSignatures))
}

export const encodeIntentV1 = (intent: IntentV1): Either.Either<Uint8Array, TxV2EncodeError> =>
  runWriter((w) => {
    writePayloadV1(w, "IntentV1", 4)
    writeIntentFields(w, intent)
  })

export const encodeSignedIntentV1 = (s: SignedIntentV1): Either.Either<Uint8Array, TxV2EncodeError> =>
  runWriter((w) => {
    writePayloadV1(w, "SignedIntentV1", 2)
    writeSignedIntentFields(w, s)
  })

export const encodeNotarizedTransactionV1 = (n: NotarizedTransactionV1): Either.Either<Uint8Array, TxV2EncodeError> =>
  runWriter((w) => {
    writePayloadV1(w, "NotarizedTransactionV1", 2)
    w.byte(Kind.Tuple)
    w.at("signedIntent", () => {
      w.size(2)
      writeSignedIntentFields(w, n.signedIntent)
    })
    w.byte(Kind.Enum)
    w.at("notarySignature", () => writeSignatureBody(w, n.notarySignature))
  })

// --- hashes ----------------------------------------------------------------------------------------------------

/** The hash of one value: its kind byte, then its body. */
const hashValue = (kind: number, body: (w: Writer) => void): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.map(
    runWriter((w) => {
      w.byte(kind)
      body(w)
    }),
    hash
  )

const prefixed = (discriminator: number, parts: ReadonlyArray<Uint8Array>): Uint8Array =>
  hash(concatBytes([Uint8Array.of(0x54, discriminator), ...parts]))

/** The intent hash (shown as `txid_…`). */
export const intentHashV1 = (intent: IntentV1): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.gen(function* () {
    const header = yield* hashValue(Kind.Tuple, (w) => w.at("header", () => writeHeaderBody(w, intent.header)))
    const instructions = yield* hashValue(Kind.Array, (w) =>
      w.at("instructions", () => {
        checkV1Instructions(w, intent.instructions)
        writeInstructionsBody(w, intent.instructions)
      })
    )
    if (intent.blobs.length > MAX_BLOBS) yield* runWriter((w) => w.at("blobs", () => w.fail("more than 64 blobs")))
    const blobs = hash(concatBytes(intent.blobs.map(hash)))
    const message = yield* hashValue(Kind.Enum, (w) => w.at("message", () => writeMessageBody(w, intent.message)))
    return prefixed(PayloadTypeV1.IntentV1, [header, instructions, blobs, message])
  })

/** The signed intent hash, given the intent hash: what the notary signs. */
export const signedIntentHashV1From = (
  intentHash: Uint8Array,
  intentSignatures: ReadonlyArray<SignatureWithPublicKey>
): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.map(
    hashValue(Kind.Array, (w) => w.at("intentSignatures", () => writeSignaturesBody(w, intentSignatures))),
    (sigs) => prefixed(PayloadTypeV1.SignedIntentV1, [intentHash, sigs])
  )

/** The notarized transaction hash (the payload hash), given the signed intent hash. */
export const notarizedTransactionHashV1From = (
  signedIntentHash: Uint8Array,
  notarySignature: Signature
): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.map(
    hashValue(Kind.Enum, (w) => w.at("notarySignature", () => writeSignatureBody(w, notarySignature))),
    (notary) => prefixed(PayloadTypeV1.NotarizedTransactionV1, [signedIntentHash, notary])
  )

export interface TransactionHashesV1 {
  readonly intentHash: Uint8Array
  readonly signedIntentHash: Uint8Array
  readonly notarizedTransactionHash: Uint8Array
}

export const notarizedTransactionHashesV1 = (
  n: NotarizedTransactionV1
): Either.Either<TransactionHashesV1, TxV2EncodeError> =>
  Either.gen(function* () {
    const intentHash = yield* intentHashV1(n.signedIntent.intent)
    const signedIntentHash = yield* signedIntentHashV1From(intentHash, n.signedIntent.intentSignatures)
    const notarizedTransactionHash = yield* notarizedTransactionHashV1From(signedIntentHash, n.notarySignature)
    return { intentHash, signedIntentHash, notarizedTransactionHash }
  })

// --- building --------------------------------------------------------------------------------------------------

export interface BuiltTransactionV1 {
  readonly model: NotarizedTransactionV1
  readonly payload: Uint8Array
  readonly hashes: TransactionHashesV1
  /** `txid_…` */
  readonly intentId: string
  readonly signedIntentId: string
  /** `notarizedtransaction_…` */
  readonly notarizedTransactionId: string
}

export interface IntentInputV1 {
  readonly networkId: number
  readonly startEpochInclusive: number | bigint
  readonly endEpochExclusive: number | bigint
  readonly nonce: number
  readonly tipPercentage?: number
  readonly instructions: ReadonlyArray<InstructionV2>
  readonly blobs?: ReadonlyArray<Uint8Array>
  readonly message?: MessageV2
}

/**
 * Builds, signs and notarizes a V1 transaction: each signer signs the intent hash, the notary the signed intent
 * hash. With `notaryIsSignatory` the notary's key counts as a signer without signing the intent.
 */
export const buildNotarizedTransactionV1 = (
  input: IntentInputV1 & {
    readonly signers: ReadonlyArray<SigningKey>
    readonly notary: SigningKey | NotarySigner
    readonly notaryIsSignatory: boolean
  }
): Either.Either<BuiltTransactionV1, TxV2EncodeError> =>
  Either.gen(function* () {
    const notarySigner = asNotarySigner(input.notary)
    const intent: IntentV1 = {
      header: {
        networkId: input.networkId,
        startEpochInclusive: BigInt(input.startEpochInclusive),
        endEpochExclusive: BigInt(input.endEpochExclusive),
        nonce: input.nonce,
        notaryPublicKey: notarySigner.publicKey,
        notaryIsSignatory: input.notaryIsSignatory,
        tipPercentage: input.tipPercentage ?? 0
      },
      instructions: input.instructions,
      blobs: input.blobs ?? [],
      message: input.message ?? { type: "None" }
    }
    const intentHash = yield* intentHashV1(intent)
    const intentSignatures = input.signers.map((k) => signIntentHash(intentHash, k))
    const signedIntentHash = yield* signedIntentHashV1From(intentHash, intentSignatures)
    const notarySignature = notarySigner.sign(signedIntentHash)
    const notarizedTransactionHash = yield* notarizedTransactionHashV1From(signedIntentHash, notarySignature)
    const model: NotarizedTransactionV1 = { signedIntent: { intent, intentSignatures }, notarySignature }
    const payload = yield* encodeNotarizedTransactionV1(model)
    return {
      model,
      payload,
      hashes: { intentHash, signedIntentHash, notarizedTransactionHash },
      intentId: transactionIntentId(intentHash, input.networkId),
      signedIntentId: signedTransactionIntentId(signedIntentHash, input.networkId),
      notarizedTransactionId: notarizedTransactionId(notarizedTransactionHash, input.networkId)
    }
  })
