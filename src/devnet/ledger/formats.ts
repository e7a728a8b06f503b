/**
 * The transaction formats the ledger accepts, by payload prefix (the real Gateway routes on the payload's type
 * byte). A payload no format claims goes to V1, whose
 * decoder gives the Gateway's answer for an unreadable payload ("Expected notarized transaction").
 */
import type { Effect } from "effect"
import type { TransactionFormat, ValidatedPayload } from "./payload"
import type { TransactionRejected } from "./transaction"
import { transactionV1 } from "./validate"
import { transactionV2 } from "./validateV2"

export const TRANSACTION_FORMATS: ReadonlyArray<TransactionFormat> = [transactionV1, transactionV2]

export const validatePayload = (hex: string): Effect.Effect<ValidatedPayload, TransactionRejected> =>
  (TRANSACTION_FORMATS.find((f) => f.accepts(hex)) ?? transactionV1).validate(hex)
