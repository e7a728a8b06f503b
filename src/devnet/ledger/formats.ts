/**
 * The transaction formats the ledger accepts, by payload prefix. A payload no format claims goes to V1, whose
 * decoder gives the Gateway's answer for an unreadable payload ("Expected notarized transaction").
 */
import type { Effect } from "effect"
import type { TransactionFormat, ValidatedPayload } from "./payload.js"
import type { TransactionRejected } from "./transaction.js"
import { transactionV1 } from "./validate.js"

export const TRANSACTION_FORMATS: ReadonlyArray<TransactionFormat> = [transactionV1]

export const validatePayload = (hex: string): Effect.Effect<ValidatedPayload, TransactionRejected> =>
  (TRANSACTION_FORMATS.find((f) => f.accepts(hex)) ?? transactionV1).validate(hex)
