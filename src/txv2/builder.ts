/**
 * Building, signing and notarizing V2 payloads: a wallet signs a subintent into a signed partial transaction, and a
 * transaction's builder puts signed partial transactions under its root intent (as children it can YIELD_TO_CHILD),
 * signs and notarizes it. Every result carries its payload bytes, its hashes and its bech32m ids.
 */
import { Either } from "effect"
import type { TxV2EncodeError } from "./errors"
import {
  notarizedTransactionHashFrom,
  signedTransactionIntentHashFrom,
  subintentHash,
  type TransactionHashes,
  transactionIntentHash
} from "./hash"
import { notarizedTransactionId, signedTransactionIntentId, subintentId, transactionIntentId } from "./ids"
import type { InstructionV2 } from "./instructions"
import {
  encodeNotarizedTransactionV2,
  encodeSignedPartialTransactionV2,
  encodeSubintentV2,
  type IntentCoreV2,
  type IntentHeaderV2,
  type MessageV2,
  type NotarizedTransactionV2,
  type PublicKey,
  type Signature,
  type SignatureWithPublicKey,
  type SignedPartialTransactionV2,
  type SubintentV2
} from "./models"
import { ed25519PublicKey, notarySignEd25519, secp256k1PublicKey, signEd25519, signSecp256k1 } from "./signing"

/** A private key to sign with: an Ed25519 32-byte seed or a Secp256k1 32-byte scalar. */
export type SigningKey =
  | { readonly curve: "Ed25519"; readonly secretKey: Uint8Array }
  | { readonly curve: "Secp256k1"; readonly secretKey: Uint8Array }

export const publicKeyOf = (key: SigningKey): PublicKey =>
  key.curve === "Ed25519"
    ? { type: "Ed25519", bytes: ed25519PublicKey(key.secretKey) }
    : { type: "Secp256k1", bytes: secp256k1PublicKey(key.secretKey) }

export const signIntentHash = (hash: Uint8Array, key: SigningKey): SignatureWithPublicKey =>
  key.curve === "Ed25519"
    ? signEd25519(hash, key.secretKey)
    : { type: "Secp256k1", signature: signSecp256k1(hash, key.secretKey) }

export const signNotary = (hash: Uint8Array, key: SigningKey): Signature =>
  key.curve === "Ed25519"
    ? notarySignEd25519(hash, key.secretKey)
    : { type: "Secp256k1", bytes: signSecp256k1(hash, key.secretKey) }

/**
 * A notary that signs by itself (a server holding its key in a platform's crypto, say): its public key, and the
 * signature of a 32-byte hash.
 */
export interface NotarySigner {
  readonly publicKey: PublicKey
  readonly sign: (hash: Uint8Array) => Signature
}

/** A notary given as a key signs with txv2's own signing (noble); one given as a `NotarySigner` signs by itself. */
export const asNotarySigner = (notary: SigningKey | NotarySigner): NotarySigner =>
  "sign" in notary ? notary : { publicKey: publicKeyOf(notary), sign: (h) => signNotary(h, notary) }

/** `{ mime_type: "text/plain", message: String(text) }`, as the Radix wallet builds a plaintext message. */
export const plaintextMessage = (text: string, mimeType = "text/plain"): MessageV2 => ({
  type: "Plaintext",
  mimeType,
  message: { type: "String", value: text }
})

/** The parts of an intent the caller chooses; its children come from the signed partial transactions given. */
export interface IntentInput {
  readonly header: IntentHeaderV2
  readonly instructions: ReadonlyArray<InstructionV2>
  readonly blobs?: ReadonlyArray<Uint8Array>
  readonly message?: MessageV2
  /** Signed partial transactions whose root subintents become this intent's children, `NamedIntent` 0, 1, … */
  readonly children?: ReadonlyArray<SignedPartialTransactionV2>
}

const coreOf = (input: IntentInput, childHashes: ReadonlyArray<Uint8Array>): IntentCoreV2 => ({
  header: input.header,
  blobs: input.blobs ?? [],
  message: input.message ?? { type: "None" },
  children: childHashes,
  instructions: input.instructions
})

/** The children's hashes, and every subintent under them flattened with its signatures (children first, depth-first). */
const flatten = (children: ReadonlyArray<SignedPartialTransactionV2>) =>
  Either.gen(function* () {
    const childHashes: Array<Uint8Array> = []
    const subintents: Array<SubintentV2> = []
    const batches: Array<ReadonlyArray<SignatureWithPublicKey>> = []
    for (const child of children) {
      childHashes.push(yield* subintentHash(child.partialTransaction.rootSubintent))
      subintents.push(child.partialTransaction.rootSubintent, ...child.partialTransaction.nonRootSubintents)
      batches.push(child.rootSubintentSignatures, ...child.nonRootSubintentSignatures)
    }
    return { childHashes, subintents, batches }
  })

export interface BuiltSubintent {
  readonly subintent: SubintentV2
  readonly subintentHash: Uint8Array
  readonly subintentId: string
  /** The standalone SubintentV2 payload (discriminator 11). */
  readonly payload: Uint8Array
}

/** An unsigned subintent with its hash, id and payload (what a wallet shows and signs). */
export const buildSubintent = (
  input: Omit<IntentInput, "children"> & { readonly childHashes?: ReadonlyArray<Uint8Array> }
): Either.Either<BuiltSubintent, TxV2EncodeError> =>
  Either.gen(function* () {
    const subintent: SubintentV2 = { intentCore: coreOf(input, input.childHashes ?? []) }
    const hash = yield* subintentHash(subintent)
    const payload = yield* encodeSubintentV2(subintent)
    return { subintent, subintentHash: hash, subintentId: subintentId(hash, input.header.networkId), payload }
  })

export interface BuiltSignedPartial {
  readonly model: SignedPartialTransactionV2
  /** The SignedPartialTransactionV2 payload (discriminator 14), as a wallet returns it hex-encoded. */
  readonly payload: Uint8Array
  readonly subintentHash: Uint8Array
  readonly subintentId: string
}

/** Signs a subintent (and carries its signed children) into a signed partial transaction. */
export const buildSignedPartialTransaction = (
  input: IntentInput & { readonly signers: ReadonlyArray<SigningKey> }
): Either.Either<BuiltSignedPartial, TxV2EncodeError> =>
  Either.gen(function* () {
    const { childHashes, subintents, batches } = yield* flatten(input.children ?? [])
    const rootSubintent: SubintentV2 = { intentCore: coreOf(input, childHashes) }
    const hash = yield* subintentHash(rootSubintent)
    const model: SignedPartialTransactionV2 = {
      partialTransaction: { rootSubintent, nonRootSubintents: subintents },
      rootSubintentSignatures: input.signers.map((k) => signIntentHash(hash, k)),
      nonRootSubintentSignatures: batches
    }
    const payload = yield* encodeSignedPartialTransactionV2(model)
    return { model, payload, subintentHash: hash, subintentId: subintentId(hash, input.header.networkId) }
  })

export interface BuiltTransaction {
  readonly model: NotarizedTransactionV2
  /** The NotarizedTransactionV2 payload (discriminator 12), what `/transaction/submit` takes hex-encoded. */
  readonly payload: Uint8Array
  readonly hashes: TransactionHashes
  readonly ids: {
    readonly transactionIntent: string
    readonly signedTransactionIntent: string
    readonly notarizedTransaction: string
    readonly nonRootSubintents: ReadonlyArray<string>
  }
}

/**
 * Builds the root intent over its children, signs the transaction intent hash with `signers`, the signed intent
 * hash with `notary`, and encodes the notarized transaction.
 */
export const buildNotarizedTransaction = (
  input: IntentInput & {
    readonly notary: SigningKey | NotarySigner
    readonly notaryIsSignatory?: boolean
    readonly tipBasisPoints?: number
    readonly signers: ReadonlyArray<SigningKey>
  }
): Either.Either<BuiltTransaction, TxV2EncodeError> =>
  Either.gen(function* () {
    const { childHashes, subintents, batches } = yield* flatten(input.children ?? [])
    const notary = asNotarySigner(input.notary)
    const transactionIntent = {
      transactionHeader: {
        notaryPublicKey: notary.publicKey,
        notaryIsSignatory: input.notaryIsSignatory ?? false,
        tipBasisPoints: input.tipBasisPoints ?? 0
      },
      rootIntentCore: coreOf(input, childHashes),
      nonRootSubintents: subintents
    }
    const txid = yield* transactionIntentHash(transactionIntent)
    const signedTransactionIntent = {
      transactionIntent,
      transactionIntentSignatures: input.signers.map((k) => signIntentHash(txid, k)),
      nonRootSubintentSignatures: batches
    }
    const signed = yield* signedTransactionIntentHashFrom(txid, signedTransactionIntent)
    const model: NotarizedTransactionV2 = { signedTransactionIntent, notarySignature: notary.sign(signed) }
    const notarized = yield* notarizedTransactionHashFrom(signed, model)
    const subHashes: Array<Uint8Array> = []
    for (const s of subintents) subHashes.push(yield* subintentHash(s))
    const payload = yield* encodeNotarizedTransactionV2(model)
    const net = input.header.networkId
    return {
      model,
      payload,
      hashes: {
        transactionIntentHash: txid,
        signedTransactionIntentHash: signed,
        notarizedTransactionHash: notarized,
        nonRootSubintentHashes: subHashes
      },
      ids: {
        transactionIntent: transactionIntentId(txid, net),
        signedTransactionIntent: signedTransactionIntentId(signed, net),
        notarizedTransaction: notarizedTransactionId(notarized, net),
        nonRootSubintents: subHashes.map((h) => subintentId(h, net))
      }
    }
  })
