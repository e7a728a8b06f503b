/**
 * The V2 hash tree. Every hash is Blake2b-256. A part's hash covers its Manifest SBOR body (without the value-kind
 * byte); the intent hashes are prefixed with `0x54` ("T") and the payload discriminator:
 * - core = H(H(header) ‖ H(H(blob_1) ‖ …) ‖ H(message) ‖ H(child_1 ‖ …) ‖ H(instructions))
 * - subintent hash = H(54 0b ‖ core)
 * - transaction intent hash (txid) = H(54 09 ‖ H(transaction header) ‖ core(root) ‖ H(subintent_hash_1 ‖ …))
 * - signed intent hash = H(54 0a ‖ txid ‖ H(intent signatures) ‖ H(H(batch_1) ‖ …))
 * - notarized transaction hash = H(54 0c ‖ signed intent hash ‖ H(notary signature))
 * Signers sign the raw 32-byte hash: intent signers the txid or subintent hash, the notary the signed intent hash.
 */
import { blake2b } from "@noble/hashes/blake2.js"
import { Either } from "effect"
import { concatBytes } from "./bytes"
import type { TxV2EncodeError } from "./errors"
import {
  bodyWriters,
  type IntentCoreV2,
  type NotarizedTransactionV2,
  PayloadType,
  runWriter,
  type SignedTransactionIntentV2,
  type SubintentV2,
  type TransactionIntentV2,
  writeChildrenBody
} from "./models"
import type { Writer } from "./sbor"

export const hash = (data: Uint8Array): Uint8Array => blake2b(data, { dkLen: 32 })

const TRANSACTION_PREFIX = 0x54

const hashBody = (body: (w: Writer) => void): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.map(runWriter(body), hash)

const prefixed = (discriminator: number, parts: ReadonlyArray<Uint8Array>): Uint8Array =>
  hash(concatBytes([Uint8Array.of(TRANSACTION_PREFIX, discriminator), ...parts]))

export const intentCoreHash = (core: IntentCoreV2): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.gen(function* () {
    const header = yield* hashBody((w) => w.at("header", () => bodyWriters.intentHeader(w, core.header)))
    const blobs = hash(concatBytes(core.blobs.map(hash)))
    const message = yield* hashBody((w) => w.at("message", () => bodyWriters.message(w, core.message)))
    // Encoding the children checks their count and lengths; the hash is over the raw concatenated hashes.
    yield* runWriter((w) => w.at("children", () => writeChildrenBody(w, core.children)))
    const children = hash(concatBytes(core.children))
    const instructions = yield* hashBody((w) =>
      w.at("instructions", () => bodyWriters.instructions(w, core.instructions))
    )
    return hash(concatBytes([header, blobs, message, children, instructions]))
  })

/** The subintent hash (shown as `subtxid_…`). */
export const subintentHash = (s: SubintentV2): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.map(intentCoreHash(s.intentCore), (core) => prefixed(PayloadType.SubintentV2, [core]))

/** The transaction intent hash (shown as `txid_…`). */
export const transactionIntentHash = (t: TransactionIntentV2): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.gen(function* () {
    const header = yield* hashBody((w) =>
      w.at("transactionHeader", () => bodyWriters.transactionHeader(w, t.transactionHeader))
    )
    const root = yield* intentCoreHash(t.rootIntentCore)
    const subs: Array<Uint8Array> = []
    for (const s of t.nonRootSubintents) subs.push(yield* subintentHash(s))
    return prefixed(PayloadType.TransactionIntentV2, [header, root, hash(concatBytes(subs))])
  })

/** The signed intent hash (`signedintent_…`), given the transaction intent hash already computed. */
export const signedTransactionIntentHashFrom = (
  txid: Uint8Array,
  s: SignedTransactionIntentV2
): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.gen(function* () {
    const sigs = yield* hashBody((w) =>
      w.at("transactionIntentSignatures", () => bodyWriters.signatures(w, s.transactionIntentSignatures))
    )
    const batches: Array<Uint8Array> = []
    for (const [i, b] of s.nonRootSubintentSignatures.entries())
      batches.push(yield* hashBody((w) => w.at(i, () => bodyWriters.signatures(w, b))))
    return prefixed(PayloadType.SignedTransactionIntentV2, [txid, sigs, hash(concatBytes(batches))])
  })

export const signedTransactionIntentHash = (s: SignedTransactionIntentV2): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.flatMap(transactionIntentHash(s.transactionIntent), (txid) => signedTransactionIntentHashFrom(txid, s))

/** The notarized transaction hash (`notarizedtransaction_…`), given the signed intent hash. */
export const notarizedTransactionHashFrom = (
  signedIntentHash: Uint8Array,
  n: NotarizedTransactionV2
): Either.Either<Uint8Array, TxV2EncodeError> =>
  Either.map(
    hashBody((w) => w.at("notarySignature", () => bodyWriters.notarySignature(w, n.notarySignature))),
    (notary) => prefixed(PayloadType.NotarizedTransactionV2, [signedIntentHash, notary])
  )

export interface TransactionHashes {
  readonly transactionIntentHash: Uint8Array
  readonly signedTransactionIntentHash: Uint8Array
  readonly notarizedTransactionHash: Uint8Array
  /** In `nonRootSubintents` order. */
  readonly nonRootSubintentHashes: ReadonlyArray<Uint8Array>
}

/** Every hash of a notarized transaction. */
export const notarizedTransactionHashes = (
  n: NotarizedTransactionV2
): Either.Either<TransactionHashes, TxV2EncodeError> =>
  Either.gen(function* () {
    const sti = n.signedTransactionIntent
    const txid = yield* transactionIntentHash(sti.transactionIntent)
    const signed = yield* signedTransactionIntentHashFrom(txid, sti)
    const notarized = yield* notarizedTransactionHashFrom(signed, n)
    const subs: Array<Uint8Array> = []
    for (const s of sti.transactionIntent.nonRootSubintents) subs.push(yield* subintentHash(s))
    return {
      transactionIntentHash: txid,
      signedTransactionIntentHash: signed,
      notarizedTransactionHash: notarized,
      nonRootSubintentHashes: subs
    }
  })
