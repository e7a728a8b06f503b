/**
 * The Transaction group: construction, preview, submit, status, committed details and subintent status. Submission
 * and the status of what was submitted are the ledger's (`Ledger.submit`, `Ledger.intentStatus`); this module is the
 * Gateway's request validation and response shapes around them.
 */
import { Effect, Either, Option, Schema } from "effect"
import { decodeBech32m, hrpSuffix } from "../../../exchange/bech32m"
import { TransactionDetailsOptIns } from "../../../gateway/index"
import { parseManifestText } from "../../ledger/transaction"
import { transactionInfo } from "../committedTransaction"
import type { EmulatorContext } from "../context"
import { type Routes, gatewayFailure, invalidField, invalidRequest, otherError } from "../failure"
import {
  PreviewRequest,
  previewMessageError,
  previewNodeError,
  previewReceipt,
  previewRequestErrors,
  previewResourceChanges,
  previewSignerAccounts
} from "../preview"
import { statusResponse } from "../status"
import { Address, LedgerStateSelector, decodeBody, opt } from "../request"

export const TRANSACTION_PATHS = [
  "/transaction/construction",
  "/transaction/preview",
  "/transaction/submit",
  "/transaction/status",
  "/transaction/committed-details",
  "/transaction/subintent-status",
  "/transaction/account-deposit-pre-validation"
] as const

/** `TransactionAccountDepositPreValidationMaxResourceItems`. */
export const MAX_DEPOSIT_PRE_VALIDATION_RESOURCES = 20

const DepositPreValidationRequest = Schema.Struct({
  account_address: Address,
  resource_addresses: Schema.Array(Address),
  badge: opt(
    Schema.Union(
      Schema.Struct({ badge_type: Schema.Literal("ResourceBadge"), resource_address: Address }),
      Schema.Struct({
        badge_type: Schema.Literal("NonFungibleBadge"),
        resource_address: Address,
        non_fungible_id: Schema.String
      })
    )
  )
})

type DefaultDepositRule = "Accept" | "Reject" | "AllowExisting"
type ResourcePreferenceRule = "Allowed" | "Disallowed"

/**
 * The account blueprint's `try_deposit_*` decision for one resource: an authorized depositor's badge always may;
 * otherwise a resource preference decides; otherwise the default rule (`AllowExisting`: a vault exists, or XRD).
 */
const allowsTryDeposit = (
  badgeAuthorized: boolean,
  rule: DefaultDepositRule,
  detail: {
    readonly vault_exists: boolean
    readonly is_xrd: boolean
    readonly preference: ResourcePreferenceRule | undefined
  }
): boolean =>
  badgeAuthorized ||
  (detail.preference !== undefined
    ? detail.preference === "Allowed"
    : rule === "Accept" || (rule === "AllowExisting" && (detail.vault_exists || detail.is_xrd)))

const SubmitRequest = Schema.Struct({ notarized_transaction_hex: Schema.String })
const StatusRequest = Schema.Struct({ intent_hash: Schema.String })
const SubintentStatusRequest = Schema.Struct({ subintent_hash: Schema.String })
const CommittedDetailsRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  intent_hash: Schema.String,
  opt_ins: opt(TransactionDetailsOptIns)
})

/**
 * babylon-gateway's `RadixAddressValidator` on a transaction or subintent hash (status, subintent status, committed
 * details): any Bech32m string whose HRP ends with this network's suffix passes; anything else is a 400 before the
 * ledger is asked.
 */
const validateHash = (path: string, property: string, text: string) => {
  const decoded = decodeBech32m(text)
  if (decoded === undefined)
    return Effect.fail(invalidField(path, `'${property}' must be a valid Bech32M-encoded RadixAddress.`))
  const suffix = hrpSuffix(240)
  return decoded.hrp.endsWith(suffix)
    ? Effect.void
    : Effect.fail(
        invalidField(path, `'${property}' doesn't belong to this network. Expected network Hrp suffix: ${suffix}`)
      )
}

export const transactionRoutes = (ctx: EmulatorContext): Routes<typeof TRANSACTION_PATHS> => {
  const { atState, ledger, requireAccount, validateAddress } = ctx

  /**
   * `/transaction/status`: babylon-gateway v1.10.1 `PendingTransactionResponseAggregator` over what the ledger knows
   * of the intent (its commit, and every payload of it submitted through this Gateway). A payload refused at submit
   * (bad hex, static validation, the epoch check) was never tracked, so its intent reads `Unknown`.
   */
  const transactionStatus = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(StatusRequest, body)
      yield* validateHash("intent_hash", "IntentHash", request.intent_hash)
      const info = yield* ledger.intentStatus(request.intent_hash)
      const ledgerState = yield* ledger.state
      return statusResponse(ledgerState, info)
    })

  const committedDetails = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(CommittedDetailsRequest, body)
      yield* validateHash("intent_hash", "IntentHash", request.intent_hash)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      const tx = yield* ledger.committedTransaction(request.intent_hash)
      if (Option.isNone(tx) || tx.value.stateVersion > version) {
        // `TransactionNotFoundException`: message "Transaction not found", details carry the intent hash.
        return yield* gatewayFailure(404, "Transaction not found", {
          type: "TransactionNotFoundError",
          intent_hash: request.intent_hash
        })
      }
      return { ledger_state: ledgerState, transaction: transactionInfo(tx.value, request.opt_ins) }
    })

  /**
   * `/transaction/submit` (babylon-gateway v1.10.1 `TransactionSubmitRequestValidator`, `SubmissionService`):
   * - `notarized_transaction_hex` must be non-empty hex (`NotEmpty().Hex()`), else 400 `InvalidRequestError` with
   *   `validation_errors`;
   * - a payload that does not decode, is statically invalid or whose epoch window the Gateway refuses answers 400
   *   `InvalidTransactionError` and is not tracked;
   * - duplicates are keyed on the payload hash (`SubmissionTrackingService.TrackSubmission`);
   * - a node rejection that is temporary (fee lock above the balance, a fee lock without the owner's signature, a
   *   start epoch one ahead) answers 200 `duplicate: false`: only a payload whose `PayloadLedgerStatus` is
   *   `PermanentlyRejected` throws `InvalidTransactionException.FromPermanentlyRejectedTransactionError` (400).
   */
  const submit = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(SubmitRequest, body)
      const hex = request.notarized_transaction_hex
      if (hex.length === 0) {
        return yield* invalidField("notarized_transaction_hex", "'Notarized Transaction Hex' must not be empty.")
      }
      if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 === 1) {
        return yield* invalidField(
          "notarized_transaction_hex",
          "'Notarized Transaction Hex' must be HEX-encoded value."
        )
      }
      const result = yield* Effect.either(ledger.submit(hex))
      if (Either.isRight(result)) return { duplicate: result.right.duplicate }
      const rejected = result.left
      if (rejected.permanence === "Temporary") return { duplicate: false }
      return yield* gatewayFailure(400, rejected.reason, { type: "InvalidTransactionError" })
    })

  /**
   * `/transaction/preview`: validated as the real Gateway does (see `preview.ts`), then the manifest runs as a dry
   * run on the current ledger state (`Ledger.preview`): nothing is committed, no state version, balance or
   * rejection is recorded.
   *
   * The devnet fee model: the ledger charges 0.1 XRD + 0.02 XRD per manifest instruction, and a wallet adds a
   * `lock_fee` to a manifest that has none. With `use_free_credit` the free credit stands in for that `lock_fee`:
   * a manifest without a fee lock is charged as if it had one more instruction, so the 3-instruction swap deposit
   * previews at 0.18 XRD, exactly what the wallet's 4-instruction transaction will cost. Without free credit the
   * manifest runs as it is (no fee lock means a Rejected receipt, as on the network). The devnet charges no tip and
   * nothing for a message, so neither changes the fee. The whole fee is execution cost (see `feeSummary`).
   *
   * The devnet has no engine to SBOR-encode a receipt: the deprecated `encoded_receipt` is empty and
   * `radix_engine_toolkit_receipt` is never included, even when opted in. `logs` is always empty.
   */
  const transactionPreview = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(PreviewRequest, body)
      const errors = previewRequestErrors(request)
      if (errors.length > 0) return yield* invalidRequest(errors)
      const messageError = previewMessageError(request)
      if (messageError !== undefined) return yield* otherError(messageError)
      const instructions = yield* parseManifestText(request.manifest).pipe(
        Effect.mapError((invalid) => otherError(invalid.message))
      )
      const nodeError = previewNodeError(request)
      if (nodeError !== undefined) return yield* otherError(nodeError)
      const flags = request.flags ?? {}
      const { outcome } = yield* ledger.preview({
        instructions,
        signerAccounts: previewSignerAccounts(request),
        assumeAllSignatureProofs: flags.assume_all_signature_proofs === true || flags.disable_auth_checks === true,
        useFreeCredit: flags.use_free_credit === true,
        epochWindow:
          flags.skip_epoch_check === true
            ? undefined
            : {
                startEpochInclusive: request.start_epoch_inclusive ?? 0,
                endEpochExclusive: request.end_epoch_exclusive ?? 0
              }
      })
      return {
        encoded_receipt: "",
        receipt: previewReceipt(outcome, ledger.xrd, request.tip_percentage ?? 0),
        resource_changes: previewResourceChanges(outcome),
        logs: []
      }
    })

  /**
   * `/transaction/subintent-status` (babylon-gateway v1.10.1 `TransactionQuerier.ResolveTransactionSubintentStatusResponse`):
   * `CommittedSuccess` with where it was finalized once a transaction that used the subintent committed
   * successfully, otherwise `Unknown` (a failed commit does not finalize a subintent).
   */
  const subintentStatus = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(SubintentStatusRequest, body)
      yield* validateHash("subintent_hash", "SubintentHash", request.subintent_hash)
      const finalized = yield* ledger.subintentStatus(request.subintent_hash)
      const ledgerState = yield* ledger.state
      if (Option.isSome(finalized)) {
        return {
          ledger_state: ledgerState,
          subintent_status: "CommittedSuccess",
          subintent_status_description:
            "The subintent has been successfully committed to the ledger at the given finalized_state_version. Use the committed details endpoint to read further details.",
          finalized_at_state_version: finalized.value.stateVersion,
          finalized_at_transaction_intent_hash: finalized.value.intentHash
        }
      }
      return {
        ledger_state: ledgerState,
        subintent_status: "Unknown",
        subintent_status_description:
          "The gateway has not seen the subintent committed as a success, but otherwise, its status is unknown. It may not exist, it may have expired, it may still be possible for it to commit as a success. Note that, unlike transaction intents, subintents can commit as a failure 0 or more times and still commit as a success."
      }
    })

  /**
   * `/transaction/account-deposit-pre-validation` (babylon-gateway v1.10.1 `DepositPreValidationQuerier`): at the
   * current state version, whether `try_deposit_*` of each resource into the account would succeed, and why. Devnet
   * accounts keep the default deposit rule `Accept`, with no resource preference and no authorized depositor (the
   * ledger has no method that changes them), so every deposit is allowed; `vault_exists` is read from the ledger.
   * A resource the ledger does not know has no vault (the real Gateway answers that case with a 500 for an account
   * that was written to, and `false` for a pre-allocated one).
   */
  const accountDepositPreValidation = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(DepositPreValidationRequest, body)
      yield* validateAddress("account_address", request.account_address)
      const resources = request.resource_addresses
      if (resources.length === 0)
        return yield* invalidField("resource_addresses", "'Resource Addresses' must not be empty.")
      if (resources.length > MAX_DEPOSIT_PRE_VALIDATION_RESOURCES) {
        return yield* invalidField(
          "resource_addresses.Count",
          `'Count' must be less than or equal to '${MAX_DEPOSIT_PRE_VALIDATION_RESOURCES}'. You entered ${resources.length}.`
        )
      }
      for (const [i, r] of resources.entries()) yield* validateAddress(`resource_addresses[${i}]`, r)
      if (request.badge !== undefined) yield* validateAddress("badge.resource_address", request.badge.resource_address)
      const ledgerState = yield* ledger.state
      yield* requireAccount(request.account_address, ledgerState.state_version)
      const vaults = yield* ledger.accountVaults(request.account_address, ledgerState.state_version)
      const rule: DefaultDepositRule = "Accept"
      const badgeAuthorized = false
      const details = resources.map((resource_address) => ({
        resource_address,
        vault_exists: vaults.some((v) => v.resource === resource_address),
        is_xrd: resource_address === ledger.xrd,
        preference: undefined
      }))
      const behaviour = details.map((d) => ({
        resource_address: d.resource_address,
        allows_try_deposit: allowsTryDeposit(badgeAuthorized, rule, d)
      }))
      return {
        ledger_state: ledgerState,
        allows_try_deposit_batch: behaviour.every((b) => b.allows_try_deposit),
        resource_specific_behaviour: behaviour,
        deciding_factors: {
          ...(request.badge === undefined ? {} : { is_badge_authorized_depositor: badgeAuthorized }),
          default_deposit_rule: rule,
          resource_specific_details: details.map((d) => ({
            resource_address: d.resource_address,
            vault_exists: d.vault_exists,
            is_xrd: d.is_xrd
          }))
        }
      }
    })

  return {
    "/transaction/construction": () => Effect.map(ledger.state, (ledger_state) => ({ ledger_state })),
    "/transaction/preview": transactionPreview,
    "/transaction/submit": submit,
    "/transaction/status": transactionStatus,
    "/transaction/committed-details": committedDetails,
    "/transaction/subintent-status": subintentStatus,
    "/transaction/account-deposit-pre-validation": accountDepositPreValidation
  }
}
