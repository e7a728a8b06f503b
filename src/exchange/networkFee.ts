/**
 * The swap card's network fee line: what the deposit transaction will cost, read from a Gateway
 * transaction preview, with the spec's text ({@link NETWORK_FEE_TEXT}) when no preview can say.
 *
 * The deposit manifest has no fee lock; the wallet adds one. Previewing it with `use_free_credit` (the free credit
 * stands in for the fee lock), `assume_all_signature_proofs` (no signatures are known yet) and `skip_epoch_check`
 * is how the official wallet estimates a fee too (it then pads its lock). On the devnet the free credit is charged
 * as the wallet's `lock_fee` instruction, so the preview is exactly what the transaction costs.
 *
 * Browser-safe: Effect and the Gateway client only.
 */
import { BigDecimal, Cause, Effect, Option, Random, Schema } from "effect"
import { Gateway } from "../gateway/tag"
import { formatPlain, UnsignedDecimalText } from "../lib/decimalText"
import { formatNetworkFee, NETWORK_FEE_TEXT } from "./swap"

// ---------------------------------------------------------------------------------------------------------------
// The receipt

const XrdAmount = UnsignedDecimalText

/**
 * The part of a Core API receipt (`TransactionReceipt`, the preview's `receipt`) the fee is read from. The Core API
 * requires all five XRD totals; one missing means the total is not known, so there is no fee to show.
 */
const FeeReceipt = Schema.Struct({
  status: Schema.String,
  fee_summary: Schema.Struct({
    xrd_total_execution_cost: XrdAmount,
    xrd_total_finalization_cost: XrdAmount,
    xrd_total_royalty_cost: XrdAmount,
    xrd_total_storage_cost: XrdAmount,
    xrd_total_tipping_cost: XrdAmount
  }),
  error_message: Schema.optionalWith(Schema.String, { nullable: true })
})

const decodeFeeReceipt = Schema.decodeUnknownOption(FeeReceipt)

/**
 * The XRD a transaction costs according to its receipt: the exact sum of the fee summary's execution,
 * finalization, royalty, storage and tipping costs, as a plain decimal string ("0.21636039782"). None unless the
 * receipt decodes (unknown keys are ignored) and its status is "Succeeded": a failed or rejected preview says
 * nothing reliable about the fee.
 */
export const networkFeeOf = (receipt: unknown): Option.Option<string> =>
  decodeFeeReceipt(receipt).pipe(
    Option.filter((r) => r.status === "Succeeded"),
    Option.map(({ fee_summary: f }) =>
      formatPlain(
        BigDecimal.sumAll([
          f.xrd_total_execution_cost,
          f.xrd_total_finalization_cost,
          f.xrd_total_royalty_cost,
          f.xrd_total_storage_cost,
          f.xrd_total_tipping_cost
        ])
      )
    )
  )

// ---------------------------------------------------------------------------------------------------------------
// The preview

/** No fee could be read from a preview: the Gateway call failed, or the preview did not succeed. */
export class NetworkFeeUnavailable extends Schema.TaggedError<NetworkFeeUnavailable>()("NetworkFeeUnavailable", {
  reason: Schema.String,
  cause: Schema.optional(Schema.Defect)
}) {
  override get message(): string {
    return `The network fee could not be previewed: ${this.reason}`
  }
}

/** Epochs the previewed intent is valid for; `skip_epoch_check` ignores the window, but it must be well formed. */
export const PREVIEW_EPOCH_WINDOW = 2
/** The Gateway wants a non-zero nonce of at most 2^32 - 1. */
const MAX_NONCE_EXCLUSIVE = 2 ** 32

const unavailable = (reason: string) => (cause: unknown) => new NetworkFeeUnavailable({ reason, cause })

/** Why a receipt gave no fee, for the error: its status and error message when it has them. */
const describeReceipt = (receipt: unknown): string =>
  Option.match(decodeFeeReceipt(receipt), {
    onNone: () => "the preview's receipt has no complete fee summary",
    onSome: (r) => `the preview's receipt is ${r.status}${r.error_message === undefined ? "" : `: ${r.error_message}`}`
  })

/**
 * What `manifest` (the swap deposit, without a fee lock) will cost in XRD, from a Gateway preview: at the current
 * epoch (`/transaction/construction`), valid for {@link PREVIEW_EPOCH_WINDOW} epochs, with a random nonce, no
 * signer keys and the flags `use_free_credit`, `assume_all_signature_proofs` and `skip_epoch_check`.
 */
export const previewSwapFee = Effect.fn("NetworkFee.previewSwapFee")(function* (manifest: string) {
  const gateway = yield* Gateway
  const { ledger_state } = yield* gateway.transaction
    .construction()
    .pipe(Effect.mapError(unavailable("the current epoch could not be read")))
  const nonce = yield* Random.nextIntBetween(1, MAX_NONCE_EXCLUSIVE)
  const preview = yield* gateway.transaction
    .preview({
      manifest,
      start_epoch_inclusive: ledger_state.epoch,
      end_epoch_exclusive: ledger_state.epoch + PREVIEW_EPOCH_WINDOW,
      tip_percentage: 0,
      nonce,
      signer_public_keys: [],
      flags: { use_free_credit: true, assume_all_signature_proofs: true, skip_epoch_check: true }
    })
    .pipe(Effect.mapError(unavailable("the Gateway did not preview the transaction")))
  return yield* Option.match(networkFeeOf(preview.receipt), {
    onNone: () => Effect.fail(new NetworkFeeUnavailable({ reason: describeReceipt(preview.receipt) })),
    onSome: Effect.succeed
  })
})

/**
 * The card's "Network fee" text for `manifest`: {@link formatNetworkFee} of the previewed fee, or the spec's
 * {@link NETWORK_FEE_TEXT} when the preview is unavailable (logged as a warning with its cause, not dropped).
 */
export const networkFeeLine = (manifest: string): Effect.Effect<string, never, Gateway> =>
  previewSwapFee(manifest).pipe(
    Effect.map(formatNetworkFee),
    Effect.catchTag("NetworkFeeUnavailable", (e) =>
      Effect.logWarning("Network fee: showing the spec's text", Cause.fail(e)).pipe(Effect.as(NETWORK_FEE_TEXT))
    )
  )
