/**
 * `/transaction/preview` for the devnet gateway emulator: the request as the real Gateway v1.10 validates it, and
 * the Core API receipt of a dry run on the devnet ledger.
 *
 * What the real Gateway (v1.10.1) requires, read from its source (`TransactionPreviewRequestValidator`, the
 * generated request model and `TransactionPreviewService`) and from the node's preview handler:
 * - its OpenAPI schema marks only `manifest` as required, but the server also needs `nonce` (a non-zero integer:
 *   the model's `long` defaults to 0 and the validator says `NotEmpty`), `signer_public_keys` (present, may be
 *   empty) and `flags` (present, may be `{}`); these fail as a 400 `InvalidRequestError` at the field's path;
 * - `tip_percentage` is 0..255 (the validator's bound, narrower than the schema's 65535), the epochs 0..10^10;
 * - absent epochs reach the node as 0, and an intent valid in `[0, 0)` fails the node's header validation, so in
 *   practice `start_epoch_inclusive < end_epoch_exclusive` is needed too (at most 8640 epochs apart), even with
 *   `skip_epoch_check`;
 * - what the node rejects (a manifest that does not compile, a key of the wrong length, a nonce beyond 2^32 - 1,
 *   a bad epoch window, a `message` object it cannot read) comes back as a 400 `InvalidRequestError` with the
 *   message "One or more errors occurred" and one validation error at path "?".
 */
import { BigDecimal, Schema } from "effect"
import { formatPlain } from "../../lib/decimalText"
import { addressKind, encodeAddress, publicKeyHash, vaultAddress } from "../ledger/address"
import { DECIMAL_PLACES, ZERO } from "../ledger/amount"
import type { BalanceChange, ExecutionOutcome, InstructionBalanceChange } from "../ledger/execute"

const opt = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { nullable: true })

// ---------------------------------------------------------------------------------------------------------------
// Request

const PreviewPublicKey = Schema.Union(
  Schema.Struct({ key_type: Schema.Literal("EcdsaSecp256k1"), key_hex: Schema.String }),
  Schema.Struct({ key_type: Schema.Literal("EddsaEd25519"), key_hex: Schema.String })
)
type PreviewPublicKey = typeof PreviewPublicKey.Type

/** The request body as the Gateway's JSON binding reads it (types only; the rules are in `previewRequestErrors`). */
export const PreviewRequest = Schema.Struct({
  manifest: Schema.String,
  opt_ins: opt(Schema.Struct({ radix_engine_toolkit_receipt: opt(Schema.Boolean) })),
  blobs_hex: opt(Schema.Array(Schema.String)),
  start_epoch_inclusive: opt(Schema.Int),
  end_epoch_exclusive: opt(Schema.Int),
  notary_public_key: opt(PreviewPublicKey),
  notary_is_signatory: opt(Schema.Boolean),
  tip_percentage: opt(Schema.Int),
  nonce: opt(Schema.Int),
  signer_public_keys: opt(Schema.Array(PreviewPublicKey)),
  // The Gateway binds `message` as any JSON and reads it as a Core API TransactionMessage only when it is an object.
  message: opt(Schema.Unknown),
  flags: opt(
    Schema.Struct({
      use_free_credit: opt(Schema.Boolean),
      assume_all_signature_proofs: opt(Schema.Boolean),
      skip_epoch_check: opt(Schema.Boolean),
      disable_auth_checks: opt(Schema.Boolean)
    })
  )
})
export type PreviewRequest = typeof PreviewRequest.Type

/** The Core API `TransactionMessage` the Gateway converts a `message` object into. */
const CoreTransactionMessage = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("Plaintext"),
    mime_type: Schema.String,
    content: Schema.Union(
      Schema.Struct({ type: Schema.Literal("String"), value: Schema.String }),
      Schema.Struct({ type: Schema.Literal("Binary"), value_hex: Schema.String })
    )
  }),
  Schema.Struct({
    type: Schema.Literal("Encrypted"),
    encrypted_hex: Schema.String,
    curve_decryptor_sets: Schema.Array(Schema.Unknown)
  })
)

export const MAX_PREVIEW_EPOCH = 10_000_000_000
/** The engine's widest epoch window for an intent: 30 days of 5-minute epochs. */
export const MAX_EPOCH_RANGE = 8640
export const MAX_PREVIEW_TIP_PERCENTAGE = 255
export const MAX_NONCE = 4_294_967_295

const HEX = /^(?:[0-9a-fA-F]{2})*$/

export interface ValidationError {
  readonly path: string
  readonly errors: ReadonlyArray<string>
}

/**
 * The Gateway's own validator (FluentValidation, every rule evaluated): the errors it answers with, at their paths,
 * with its wording. Empty when the request passes on to the node.
 */
export const previewRequestErrors = (r: PreviewRequest): ReadonlyArray<ValidationError> => {
  const found: Array<ValidationError> = []
  const add = (path: string, error: string) => found.push({ path, errors: [error] })
  if (r.manifest.length === 0) add("manifest", "'Manifest' must not be empty.")
  r.blobs_hex?.forEach((blob, i) => {
    if (!HEX.test(blob)) add(`blobs_hex[${i}]`, "'Blobs Hex' must be HEX-encoded value.")
  })
  const epochs = [
    ["start_epoch_inclusive", "Start Epoch Inclusive", r.start_epoch_inclusive],
    ["end_epoch_exclusive", "End Epoch Exclusive", r.end_epoch_exclusive]
  ] as const
  for (const [path, label, value] of epochs) {
    if (value !== undefined && (value < 0 || value > MAX_PREVIEW_EPOCH)) {
      add(path, `'${label}' must be between 0 and ${MAX_PREVIEW_EPOCH}. You entered ${value}.`)
    }
  }
  const checkKey = (path: string, key: PreviewPublicKey) => {
    if (key.key_hex.length === 0) add(`${path}.key_hex`, "'Key Hex' must not be empty.")
    else if (!HEX.test(key.key_hex)) add(`${path}.key_hex`, "'Key Hex' must be HEX-encoded value.")
  }
  if (r.notary_public_key !== undefined) checkKey("notary_public_key", r.notary_public_key)
  const tip = r.tip_percentage ?? 0
  if (tip < 0 || tip > MAX_PREVIEW_TIP_PERCENTAGE) {
    add("tip_percentage", `'Tip Percentage' must be between 0 and ${MAX_PREVIEW_TIP_PERCENTAGE}. You entered ${tip}.`)
  }
  if (r.nonce === undefined || r.nonce === 0) add("nonce", "'Nonce' must not be empty.")
  else if (r.nonce < 0) add("nonce", "'Nonce' must be greater than or equal to '0'.")
  if (r.signer_public_keys === undefined) add("signer_public_keys", "'Signer Public Keys' must not be empty.")
  r.signer_public_keys?.forEach((key, i) => checkKey(`signer_public_keys[${i}]`, key))
  if (r.flags === undefined) add("flags", "'Flags' must not be empty.")
  return found
}

const KEY_BYTES = { EddsaEd25519: 32, EcdsaSecp256k1: 33 } as const

/**
 * The Gateway's own refusal of a `message` object it cannot convert to the Core API's (checked before the manifest
 * reaches the node). Anything that is not a JSON object is ignored, as the Gateway does.
 */
export const previewMessageError = (r: PreviewRequest): string | undefined =>
  typeof r.message === "object" &&
  r.message !== null &&
  !Array.isArray(r.message) &&
  !Schema.is(CoreTransactionMessage)(r.message)
    ? "Unable to parse TX message"
    : undefined

/**
 * What the node refuses before it runs anything, after compiling the manifest: the keys, the nonce and the intent
 * header's epoch window. The first problem's text.
 */
export const previewNodeError = (r: PreviewRequest): string | undefined => {
  const keyError = (field: string, key: PreviewPublicKey) => {
    const bytes = key.key_hex.length / 2
    return bytes === KEY_BYTES[key.key_type]
      ? undefined
      : `Invalid ${field}: a ${key.key_type} public key has ${KEY_BYTES[key.key_type]} bytes, not ${bytes}`
  }
  for (const key of r.signer_public_keys ?? []) {
    const error = keyError("signer_public_keys", key)
    if (error !== undefined) return error
  }
  if (r.notary_public_key !== undefined) {
    const error = keyError("notary_public_key", r.notary_public_key)
    if (error !== undefined) return error
  }
  if ((r.nonce ?? 0) > MAX_NONCE) return `Invalid nonce: must be at most ${MAX_NONCE}`
  const start = r.start_epoch_inclusive ?? 0
  const end = r.end_epoch_exclusive ?? 0
  if (end <= start) return "Transaction validation error: HeaderValidationError(InvalidEpochRange)"
  if (end - start > MAX_EPOCH_RANGE) return "Transaction validation error: HeaderValidationError(EpochRangeTooLarge)"
  return undefined
}

/** The virtual account a public key owns (Ed25519 or Secp256k1: entity byte + the last 29 bytes of its hash). */
export const virtualAccountOf = (key: PreviewPublicKey): string =>
  encodeAddress(
    key.key_type === "EddsaEd25519" ? "GlobalVirtualEd25519Account" : "GlobalVirtualSecp256k1Account",
    publicKeyHash(Uint8Array.from(Buffer.from(key.key_hex, "hex")))
  )

/** The accounts whose owner signs a previewed intent: the signers', and the notary's when it is a signatory. */
export const previewSignerAccounts = (r: PreviewRequest): ReadonlyArray<string> => [
  ...new Set([
    ...(r.signer_public_keys ?? []).map(virtualAccountOf),
    ...(r.notary_is_signatory === true && r.notary_public_key !== undefined
      ? [virtualAccountOf(r.notary_public_key)]
      : [])
  ])
]

// ---------------------------------------------------------------------------------------------------------------
// Receipt (Core API shapes)

/** 0.00000005 XRD, the network's price of an execution or finalization cost unit. */
const COST_UNIT_PRICE = BigDecimal.make(5n, 8)
const ONE_QUARTER = BigDecimal.make(25n, 2)

/** How many whole `unit`s `amount` holds (truncated). */
const wholeUnits = (amount: BigDecimal.BigDecimal, unit: BigDecimal.BigDecimal): number =>
  Number(BigDecimal.scale(BigDecimal.unsafeDivide(amount, unit), 0).value)

/** The mainnet costing parameters, as a Core API receipt reports them. */
export const costingParameters = (tipPercentage: number) => ({
  execution_cost_unit_price: formatPlain(COST_UNIT_PRICE),
  execution_cost_unit_limit: 100_000_000,
  execution_cost_unit_loan: 4_000_000,
  finalization_cost_unit_price: formatPlain(COST_UNIT_PRICE),
  finalization_cost_unit_limit: 50_000_000,
  xrd_usd_price: "16.666666666666666666",
  xrd_storage_price: "0.00009536743",
  xrd_archive_storage_price: "0.00009536743",
  tip_percentage: tipPercentage
})

/**
 * The devnet fee as a Core API `FeeSummary`. The devnet ledger charges one flat fee (`execute.ts`: 0.1 XRD plus
 * 0.02 XRD per manifest instruction) and nothing for finalization, state storage, royalties or tips, so all of it
 * is execution cost: `xrd_total_execution_cost` is the fee and `execution_cost_units_consumed` the fee divided by
 * the cost-unit price (0.00000005 XRD, a whole number of units for every devnet fee); the other four costs are
 * "0" and no finalization units are consumed. The sum of the `xrd_total_*` fields is the fee.
 */
export const feeSummary = (fee: BigDecimal.BigDecimal) => ({
  execution_cost_units_consumed: wholeUnits(fee, COST_UNIT_PRICE),
  finalization_cost_units_consumed: 0,
  xrd_total_execution_cost: formatPlain(fee),
  xrd_total_finalization_cost: "0",
  xrd_total_royalty_cost: "0",
  xrd_total_storage_cost: "0",
  xrd_total_tipping_cost: "0"
})

/** Where the fee went, as on the network: a quarter to the proposer, a quarter to the validator set, the rest burnt. */
export const feeDestination = (fee: BigDecimal.BigDecimal) => {
  // A quarter cut to the engine's 18 decimals; what the cut leaves goes to the burn.
  const quarter = BigDecimal.truncate(BigDecimal.multiply(fee, ONE_QUARTER), DECIMAL_PLACES)
  return {
    to_proposer: formatPlain(quarter),
    to_validator_set: formatPlain(quarter),
    to_burn: formatPlain(BigDecimal.subtract(fee, BigDecimal.sum(quarter, quarter))),
    to_royalty_recipients: []
  }
}

const entityReference = (address: string) => {
  const kind = addressKind(address)
  return {
    entity_type: kind ?? "GlobalGenericComponent",
    is_global: kind === undefined || !kind.startsWith("Internal"),
    entity_address: address
  }
}

export const vaultReference = (account: string, resource: string) => entityReference(vaultAddress(account, resource))

export const emptyStateUpdates = {
  deleted_partitions: [],
  created_substates: [],
  updated_substates: [],
  deleted_substates: [],
  new_global_entities: []
}

/**
 * The Core API receipt of a devnet preview. `status` is "Succeeded", "Failed" (the manifest failed but the fee is
 * paid, e.g. a withdrawal beyond the balance) or "Rejected" (nothing would be committed: outside the epoch window,
 * or no fee lock without `use_free_credit`), with `error_message` unless it succeeded. The devnet keeps no
 * substates, events or return values, so `state_updates` lists are empty and `events`/`output` are absent; the fee
 * paid from the free credit shows in no vault (`fee_source.from_vaults` is empty, as on the network).
 */
export const previewReceipt = (outcome: ExecutionOutcome, xrd: string, tipPercentage: number) => {
  if (outcome._tag === "Rejected") {
    return {
      status: "Rejected" as const,
      fee_summary: feeSummary(ZERO),
      costing_parameters: costingParameters(tipPercentage),
      state_updates: emptyStateUpdates,
      error_message: outcome.reason
    }
  }
  return {
    status: outcome.success ? ("Succeeded" as const) : ("Failed" as const),
    fee_summary: feeSummary(outcome.fee),
    costing_parameters: costingParameters(tipPercentage),
    fee_source: {
      from_vaults: outcome.feePayments.map((p: BalanceChange) => ({
        vault_entity: vaultReference(p.entity, xrd),
        xrd_amount: formatPlain(BigDecimal.negate(p.change))
      }))
    },
    fee_destination: feeDestination(outcome.fee),
    state_updates: emptyStateUpdates,
    ...(outcome.errorMessage === undefined ? {} : { error_message: outcome.errorMessage })
  }
}

/**
 * The Core API `instruction_resource_changes` (the Gateway's `resource_changes`): per instruction index, every
 * vault it took from or put into. Empty unless the preview succeeded.
 */
export const previewResourceChanges = (outcome: ExecutionOutcome) => {
  if (outcome._tag === "Rejected") return []
  const byIndex = new Map<number, Array<InstructionBalanceChange>>()
  for (const change of outcome.instructionChanges) {
    byIndex.set(change.index, [...(byIndex.get(change.index) ?? []), change])
  }
  return [...byIndex].map(([index, changes]) => ({
    index,
    resource_changes: changes.map((c) => ({
      resource_address: c.resource,
      component_entity: entityReference(c.entity),
      vault_entity: vaultReference(c.entity, c.resource),
      amount: formatPlain(c.change)
    }))
  }))
}
