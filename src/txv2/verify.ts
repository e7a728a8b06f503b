/**
 * Signature checks over whole payloads: every intent signature against its intent's hash, and the notary's against
 * the signed intent hash. The result names the signers of each intent, for the caller's own rules (who must sign).
 */
import { Either } from "effect"
import { type TxV2EncodeError, TxV2SignatureError } from "./errors"
import { signedTransactionIntentHashFrom, subintentHash, transactionIntentHash } from "./hash"
import type { NotarizedTransactionV2, SignatureWithPublicKey, SignedPartialTransactionV2, SubintentV2 } from "./models"
import {
  type Ed25519Verifier,
  type Signer,
  verifyEd25519,
  verifyNotarySignature,
  verifySignatureWithPublicKey
} from "./signing"

const verifyAll = (
  hash: Uint8Array,
  sigs: ReadonlyArray<SignatureWithPublicKey>,
  which: string,
  ed25519Verifies: Ed25519Verifier
) => Either.all(sigs.map((s, i) => verifySignatureWithPublicKey(hash, s, `${which}[${i}]`, ed25519Verifies)))

const verifySubintents = (
  subintents: ReadonlyArray<SubintentV2>,
  batches: ReadonlyArray<ReadonlyArray<SignatureWithPublicKey>>,
  ed25519Verifies: Ed25519Verifier
): Either.Either<Array<ReadonlyArray<Signer>>, TxV2SignatureError | TxV2EncodeError> =>
  Either.gen(function* () {
    if (subintents.length !== batches.length)
      return yield* Either.left(
        new TxV2SignatureError({
          which: "nonRootSubintentSignatures",
          reason: `${batches.length} signature batches for ${subintents.length} subintents`
        })
      )
    const out: Array<ReadonlyArray<Signer>> = []
    for (const [i, s] of subintents.entries()) {
      const h = yield* subintentHash(s)
      out.push(yield* verifyAll(h, batches[i] ?? [], `nonRootSubintentSignatures[${i}]`, ed25519Verifies))
    }
    return out
  })

export interface VerifiedPartial {
  readonly rootSigners: ReadonlyArray<Signer>
  readonly nonRootSigners: ReadonlyArray<ReadonlyArray<Signer>>
}

/**
 * Verifies every signature of a signed partial transaction (the root subintent's and each non-root one's); Ed25519
 * with `ed25519Verifies` (txv2's own by default).
 */
export const verifySignedPartialTransactionV2 = (
  p: SignedPartialTransactionV2,
  ed25519Verifies: Ed25519Verifier = verifyEd25519
): Either.Either<VerifiedPartial, TxV2SignatureError | TxV2EncodeError> =>
  Either.gen(function* () {
    const h = yield* subintentHash(p.partialTransaction.rootSubintent)
    const rootSigners = yield* verifyAll(h, p.rootSubintentSignatures, "rootSubintentSignatures", ed25519Verifies)
    const nonRootSigners = yield* verifySubintents(
      p.partialTransaction.nonRootSubintents,
      p.nonRootSubintentSignatures,
      ed25519Verifies
    )
    return { rootSigners, nonRootSigners }
  })

export interface VerifiedTransaction {
  readonly transactionIntentSigners: ReadonlyArray<Signer>
  readonly nonRootSigners: ReadonlyArray<ReadonlyArray<Signer>>
}

/**
 * Verifies every intent signature and the notary signature of a notarized transaction; Ed25519 with `ed25519Verifies`
 * (txv2's own by default).
 */
export const verifyNotarizedTransactionV2 = (
  n: NotarizedTransactionV2,
  ed25519Verifies: Ed25519Verifier = verifyEd25519
): Either.Either<VerifiedTransaction, TxV2SignatureError | TxV2EncodeError> =>
  Either.gen(function* () {
    const sti = n.signedTransactionIntent
    const txid = yield* transactionIntentHash(sti.transactionIntent)
    const transactionIntentSigners = yield* verifyAll(
      txid,
      sti.transactionIntentSignatures,
      "transactionIntentSignatures",
      ed25519Verifies
    )
    const nonRootSigners = yield* verifySubintents(
      sti.transactionIntent.nonRootSubintents,
      sti.nonRootSubintentSignatures,
      ed25519Verifies
    )
    const signed = yield* signedTransactionIntentHashFrom(txid, sti)
    yield* verifyNotarySignature(
      signed,
      n.notarySignature,
      sti.transactionIntent.transactionHeader.notaryPublicKey,
      ed25519Verifies
    )
    return { transactionIntentSigners, nonRootSigners }
  })
