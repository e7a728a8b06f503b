import { Schema } from "effect"

/** A payload (or a part of one) that is not a well-formed V2 transaction model. */
export class TxV2DecodeError extends Schema.TaggedError<TxV2DecodeError>()("TxV2DecodeError", {
  /** Byte offset in the input where decoding stopped. */
  offset: Schema.Number,
  /** Where in the model, e.g. `root.signedTransactionIntent.transactionIntent.rootIntentCore.instructions[3].args`. */
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot decode the transaction at byte ${this.offset} (${this.path}): ${this.reason}`
  }
}

/** A model that cannot be written as Manifest SBOR (a value out of range, a wrong length, …). */
export class TxV2EncodeError extends Schema.TaggedError<TxV2EncodeError>()("TxV2EncodeError", {
  path: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot encode the transaction (${this.path}): ${this.reason}`
  }
}

/** A bech32m transaction id or address that is malformed or of the wrong kind or network. */
export class TxV2IdError extends Schema.TaggedError<TxV2IdError>()("TxV2IdError", {
  /** The input, cut to 120 characters. */
  input: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `invalid id or address "${this.input}": ${this.reason}`
  }
}

/** A signature that does not verify, or a key or curve this library cannot use. */
export class TxV2SignatureError extends Schema.TaggedError<TxV2SignatureError>()("TxV2SignatureError", {
  /** Which signature, e.g. `notary`, `transactionIntentSignatures[0]`, `nonRootSubintentSignatures[1][0]`. */
  which: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `signature ${this.which} is not valid: ${this.reason}`
  }
}

/** Manifest text that is outside the supported subset or malformed; line and column are 1-based. */
export class ManifestCompileError extends Schema.TaggedError<ManifestCompileError>()("ManifestCompileError", {
  line: Schema.Number,
  column: Schema.Number,
  reason: Schema.String
}) {
  override get message() {
    return `manifest error at line ${this.line}, column ${this.column}: ${this.reason}`
  }
}

/**
 * A decode error built without a stack trace: its offset and path already say where, and hostile input can make
 * many of them, where capturing (and source-mapping) a stack each time would cost far more than the decoding.
 */
export const decodeError = (props: {
  readonly offset: number
  readonly path: string
  readonly reason: string
}): TxV2DecodeError => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return new TxV2DecodeError(props, true)
  } finally {
    Error.stackTraceLimit = limit
  }
}
