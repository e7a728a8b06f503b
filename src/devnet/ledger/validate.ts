/**
 * The V1 validator: a notarized V1 transaction (SBOR prefix `4d2203`, `TransactionDiscriminator::V1Notarized`)
 * decoded and statically validated with the Radix Engine Toolkit (`transaction.ts`). What fails here is refused
 * before it reaches the node: a `Static` rejection, never tracked.
 */
import { Effect } from "effect"
import { executeV1 } from "./executeV1"
import type { TransactionFormat } from "./payload"
import { TransactionRejected, decodeNotarizedTransaction } from "./transaction"

export const NOTARIZED_V1_PREFIX = "4d2203"

export const transactionV1: TransactionFormat = {
  format: "V1",
  accepts: (hex) => hex.toLowerCase().startsWith(NOTARIZED_V1_PREFIX),
  validate: (hex) =>
    decodeNotarizedTransaction(hex).pipe(
      Effect.mapError(
        (e) =>
          new TransactionRejected({
            reason: e.reason,
            ...(e.intentHash === undefined ? {} : { intentHash: e.intentHash }),
            ...(e.payloadHash === undefined ? {} : { payloadHash: e.payloadHash }),
            permanence: "Static"
          })
      ),
      Effect.map((tx) => ({
        format: "V1",
        intentHash: tx.intentHash,
        payloadHash: tx.payloadHash,
        startEpochInclusive: tx.startEpochInclusive,
        endEpochExclusive: tx.endEpochExclusive,
        execute: (view) => executeV1(tx, view)
      }))
    )
}
