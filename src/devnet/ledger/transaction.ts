/**
 * Decoding and static validation of submitted notarized transactions with the Radix Engine Toolkit, which is
 * loaded lazily on first use (an ~8 MB module that only the devnet needs).
 */
import type { Instruction } from "@radixdlt/radix-engine-toolkit"
import { Effect, Schema } from "effect"
import { DEVNET_NETWORK_ID, virtualAccountAddress } from "./address"
import { decodeFastV1 } from "./decodeV1"

export type Ret = typeof import("@radixdlt/radix-engine-toolkit")

let retModule: Promise<Ret> | undefined

/** The Radix Engine Toolkit, imported on first use. */
export const loadRet: Effect.Effect<Ret> = Effect.promise(
  () => (retModule ??= import("@radixdlt/radix-engine-toolkit"))
)

/** A transaction the network would not commit (bad payload, bad signature, epoch window, fee loan…). */
export class TransactionRejected extends Schema.TaggedError<TransactionRejected>()("TransactionRejected", {
  reason: Schema.String,
  intentHash: Schema.optional(Schema.String),
  payloadHash: Schema.optional(Schema.String),
  /** The epoch from which the rejection is permanent, when known (the end of the epoch window). */
  permanentlyRejectsAtEpoch: Schema.optional(Schema.Number),
  /**
   * How the Gateway treats it: `Static` — refused before it reaches the node and not tracked (a 400, status
   * `Unknown`); `Temporary` — the node rejected it for now and the Gateway keeps resubmitting it (a 200,
   * status `LikelyButNotCertainRejection`); `Permanent` — the node rejected it for good (a 400, tracked).
   */
  permanence: Schema.optional(Schema.Literal("Static", "Temporary", "Permanent"))
}) {
  override get message(): string {
    return this.reason
  }
}

/** The Gateway/Core API JSON form of a transaction message. */
export type GatewayMessage =
  | {
      readonly type: "Plaintext"
      readonly mime_type: string
      readonly content: { readonly type: "String"; readonly value: string }
    }
  | {
      readonly type: "Plaintext"
      readonly mime_type: string
      readonly content: { readonly type: "Binary"; readonly value_hex: string }
    }
  | { readonly type: "Encrypted"; readonly encrypted_hex: string }

export interface DecodedTransaction {
  readonly intentHash: string
  readonly payloadHash: string
  readonly startEpochInclusive: number
  readonly endEpochExclusive: number
  readonly instructions: ReadonlyArray<Instruction>
  readonly manifest: string
  readonly message: GatewayMessage | undefined
  /** Virtual accounts whose Ed25519 owner key signed the intent (including the notary when it is a signatory). */
  readonly signerAccounts: ReadonlyArray<string>
  readonly rawHex: string
}

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

/**
 * Any thrown value or error field as readable text: an Error's message, a string as it is, anything else as JSON —
 * never `String(object)`, which prints "[object Object]".
 */
export const describeValue = (value: unknown): string => {
  if (value instanceof Error) return value.message
  if (typeof value === "string") return value
  try {
    const json = JSON.stringify(value)
    return json === undefined ? String(value) : json
  } catch {
    return String(value)
  }
}

/** RET throws `Error("… response is {json}")`; keep the engine's error text. */
const retErrorText = (error: unknown): string => {
  const text = describeValue(error)
  const marker = "response is "
  const at = text.indexOf(marker)
  if (at < 0) return text
  const json = text.slice(at + marker.length)
  try {
    const parsed: unknown = JSON.parse(json)
    if (typeof parsed === "object" && parsed !== null) {
      const kind = "error_kind" in parsed ? describeValue(parsed.error_kind) : undefined
      const err = "error" in parsed ? describeValue(parsed.error) : undefined
      return [kind, err].filter((s) => s !== undefined).join(": ") || json
    }
  } catch {
    // fall through to the raw text
  }
  return json
}

/** A manifest text that does not compile for the devnet (syntax, unknown names, addresses of another network…). */
export class ManifestInvalid extends Schema.TaggedError<ManifestInvalid>()("ManifestInvalid", {
  /** The compiler's error, e.g. `GeneratorError(GeneratorError { error_kind: InvalidGlobalAddress("…"), … })`. */
  reason: Schema.String
}) {
  override get message(): string {
    return `Invalid manifest - ${this.reason}`
  }
}

const COMPILATION_ERROR = /^CompilationError\("(.*)"\)$/s

/** The compiler's own error out of a RET instruction-conversion failure (`CompilationError("…")` unwrapped). */
const manifestErrorText = (error: unknown): string => {
  const text = describeValue(error)
  const marker = "response is "
  const at = text.indexOf(marker)
  if (at < 0) return text
  let inner: unknown
  try {
    const parsed: unknown = JSON.parse(text.slice(at + marker.length))
    inner =
      typeof parsed === "object" && parsed !== null && "error" in parsed
        ? typeof parsed.error === "object" && parsed.error !== null && "error" in parsed.error
          ? parsed.error.error
          : parsed.error
        : undefined
  } catch {
    return text.slice(at + marker.length)
  }
  if (typeof inner !== "string") return text.slice(at + marker.length)
  const compilation = COMPILATION_ERROR.exec(inner)
  return compilation?.[1] === undefined ? inner : compilation[1].replace(/\\(["\\])/g, "$1")
}

/** Compiles a V1 manifest text for the devnet network into RET's parsed instructions. */
export const parseManifestText = Effect.fn("Ledger.parseManifestText")(function* (manifest: string) {
  const { RadixEngineToolkit } = yield* loadRet
  const instructions = yield* Effect.tryPromise({
    try: () =>
      RadixEngineToolkit.Instructions.convert({ kind: "String", value: manifest }, DEVNET_NETWORK_ID, "Parsed"),
    catch: (e) => new ManifestInvalid({ reason: manifestErrorText(e) })
  })
  return instructions.kind === "Parsed" ? instructions.value : []
})

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/
const MAX_PAYLOAD_BYTES = 1_048_576

export const decodeNotarizedTransaction = (hex: string) => decodeNotarizedTransactionWith(hex, true)

/**
 * `decodeNotarizedTransaction` with the toolkit deciding every payload, the plain shapes too (`fast` false): what
 * the fast path is tested against.
 */
export const decodeNotarizedTransactionWith = Effect.fn("Ledger.decodeNotarizedTransaction")(function* (
  hex: string,
  fast: boolean
) {
  if (hex.length === 0 || !HEX_RE.test(hex)) {
    return yield* new TransactionRejected({ reason: "Invalid transaction: the payload is not a non-empty hex string" })
  }
  if (hex.length / 2 > MAX_PAYLOAD_BYTES) {
    return yield* new TransactionRejected({
      reason: `Invalid transaction: TransactionTooLarge (${hex.length / 2} bytes, the limit is ${MAX_PAYLOAD_BYTES})`
    })
  }
  const bytes = Uint8Array.from(Buffer.from(hex, "hex"))
  // Transfers of the plain shape are decoded and validated natively; anything else, and every rejection, is the
  // toolkit's to decide.
  const ret = yield* loadRet
  const native = fast ? decodeFastV1(ret, bytes, hex.toLowerCase()) : undefined
  if (native !== undefined) return native satisfies DecodedTransaction
  const { RadixEngineToolkit, defaultValidationConfig } = ret
  const attempt = <A>(what: string, f: () => Promise<A>) =>
    Effect.tryPromise({
      try: f,
      catch: (e) => new TransactionRejected({ reason: `Invalid transaction: ${what}: ${retErrorText(e)}` })
    })
  // The String form is much cheaper to pass through the toolkit's hashing and validation than the Parsed form.
  // A payload the toolkit cannot decode is, at the Gateway, `InvalidTransactionException.FromUnsupportedPayloadType`:
  // "Expected notarized transaction" (babylon-gateway v1.10.1 `SubmissionService.HandlePreSubmissionParseTransaction`).
  // The toolkit's own error is logged, as the Gateway logs "Corrupted notarized tx bytes".
  const tx = yield* Effect.tryPromise({
    try: () => RadixEngineToolkit.NotarizedTransaction.decompile(bytes, "String"),
    catch: (e) => retErrorText(e)
  }).pipe(
    Effect.tapError((detail) => Effect.logWarning(`Corrupted notarized tx bytes: ${detail}`)),
    Effect.mapError(() => new TransactionRejected({ reason: "Expected notarized transaction" }))
  )
  const header = tx.signedIntent.intent.header
  if (header.networkId !== DEVNET_NETWORK_ID) {
    return yield* new TransactionRejected({
      reason: `Invalid transaction: NetworkMismatch { expected: ${DEVNET_NETWORK_ID}, actual: ${header.networkId} }`
    })
  }
  const intentHash = yield* attempt("intent hash", () => RadixEngineToolkit.NotarizedTransaction.intentHash(tx))
  const payloadHash = yield* attempt("payload hash", () => RadixEngineToolkit.NotarizedTransaction.hash(tx))
  const validation = yield* attempt("static validation", () =>
    RadixEngineToolkit.NotarizedTransaction.staticallyValidate(tx, defaultValidationConfig(DEVNET_NETWORK_ID))
  )
  if (validation.kind === "Invalid") {
    return yield* new TransactionRejected({
      reason: `Invalid transaction: ${validation.error}`,
      intentHash: intentHash.id,
      payloadHash: payloadHash.id
    })
  }
  const manifest = tx.signedIntent.intent.manifest.instructions
  const instructions = yield* attempt("manifest", () =>
    RadixEngineToolkit.Instructions.convert(manifest, DEVNET_NETWORK_ID, "Parsed")
  )
  const signerKeys: Array<Uint8Array> = []
  for (const signature of tx.signedIntent.intentSignatures) {
    if (signature.curve === "Ed25519" && signature.publicKey !== undefined) signerKeys.push(signature.publicKey)
  }
  if (header.notaryIsSignatory && header.notaryPublicKey.curve === "Ed25519")
    signerKeys.push(header.notaryPublicKey.bytes)
  const message = tx.signedIntent.intent.message
  const gatewayMessage: GatewayMessage | undefined =
    message.kind === "None"
      ? undefined
      : message.kind === "PlainText"
        ? message.value.message.kind === "String"
          ? {
              type: "Plaintext",
              mime_type: message.value.mimeType,
              content: { type: "String", value: message.value.message.value }
            }
          : {
              type: "Plaintext",
              mime_type: message.value.mimeType,
              content: { type: "Binary", value_hex: toHex(message.value.message.value) }
            }
        : { type: "Encrypted", encrypted_hex: toHex(message.value.encrypted) }
  const decoded: DecodedTransaction = {
    intentHash: intentHash.id,
    payloadHash: payloadHash.id,
    startEpochInclusive: header.startEpochInclusive,
    endEpochExclusive: header.endEpochExclusive,
    instructions: instructions.kind === "Parsed" ? instructions.value : [],
    manifest: manifest.kind === "String" ? manifest.value : "",
    message: gatewayMessage,
    signerAccounts: [...new Set(signerKeys.map(virtualAccountAddress))],
    rawHex: hex.toLowerCase()
  }
  return decoded
})
