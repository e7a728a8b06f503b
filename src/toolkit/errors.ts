/**
 * The toolkit's error catalogue (spec toolkit-and-gateway.md §8).
 *
 * Every error is a `Schema.TaggedError` whose `_tag` is the spec's code, spelled exactly as the official toolkit's
 * `SdkError.error` (so `error._tag` can go over the wire or into a request item's `error` field unchanged). Each
 * carries the `interactionId` it belongs to ("" when none) and the spec's message where the spec gives one.
 */
import { Schema } from "effect"

import { errorFields as fields, errorFieldsWithCause as withCause } from "./transportErrors"

export {
  FailedToFetch,
  FailedToParseResponseToJson,
  FailedToPoll,
  FailedToSendDappRequest,
  RequestStatusNotOk
} from "./transportErrors"

// ---------------------------------------------------------------------------------------------------------------
// Request error codes: the `error` of a wallet failure response, or set by the toolkit on a request.
// ---------------------------------------------------------------------------------------------------------------

export class RejectedByUser extends Schema.TaggedError<RejectedByUser>()(
  "rejectedByUser",
  fields("user rejected request")
) {}
export class MissingExtension extends Schema.TaggedError<MissingExtension>()(
  "missingExtension",
  fields("extension could not be found")
) {}
export class CanceledByUser extends Schema.TaggedError<CanceledByUser>()(
  "canceledByUser",
  fields("user has canceled the request")
) {}
export class WalletRequestValidation extends Schema.TaggedError<WalletRequestValidation>()(
  "walletRequestValidation",
  fields("the wallet could not validate the request")
) {}
export class WalletResponseValidation extends Schema.TaggedError<WalletResponseValidation>()(
  "walletResponseValidation",
  {
    ...fields("Invalid input"),
    /** Each issue's path and message, e.g. 'Invalid type: Expected 2 but received 1'. */
    issues: Schema.optionalWith(Schema.Array(Schema.Struct({ path: Schema.String, message: Schema.String })), {
      default: () => []
    })
  }
) {}
export class WrongNetwork extends Schema.TaggedError<WrongNetwork>()(
  "wrongNetwork",
  fields("the wallet is on another network")
) {}
export class FailedToPrepareTransaction extends Schema.TaggedError<FailedToPrepareTransaction>()(
  "failedToPrepareTransaction",
  fields("the wallet failed to prepare the transaction")
) {}
export class FailedToCompileTransaction extends Schema.TaggedError<FailedToCompileTransaction>()(
  "failedToCompileTransaction",
  fields("the wallet failed to compile the transaction")
) {}
export class FailedToSignTransaction extends Schema.TaggedError<FailedToSignTransaction>()(
  "failedToSignTransaction",
  fields("the wallet failed to sign the transaction")
) {}
export class FailedToSubmitTransaction extends Schema.TaggedError<FailedToSubmitTransaction>()(
  "failedToSubmitTransaction",
  fields("the wallet failed to submit the transaction")
) {}
export class FailedToPollSubmittedTransaction extends Schema.TaggedError<FailedToPollSubmittedTransaction>()(
  "failedToPollSubmittedTransaction",
  fields("the wallet failed to poll the submitted transaction")
) {}
export class SubmittedTransactionWasDuplicate extends Schema.TaggedError<SubmittedTransactionWasDuplicate>()(
  "submittedTransactionWasDuplicate",
  fields("the submitted transaction was a duplicate")
) {}
export class SubmittedTransactionHasFailedTransactionStatus extends Schema.TaggedError<SubmittedTransactionHasFailedTransactionStatus>()(
  "submittedTransactionHasFailedTransactionStatus",
  fields("the submitted transaction failed")
) {}
export class SubmittedTransactionHasRejectedTransactionStatus extends Schema.TaggedError<SubmittedTransactionHasRejectedTransactionStatus>()(
  "submittedTransactionHasRejectedTransactionStatus",
  fields("the submitted transaction was rejected")
) {}
export class FailedToFindAccountWithEnoughFundsToLockFee extends Schema.TaggedError<FailedToFindAccountWithEnoughFundsToLockFee>()(
  "failedToFindAccountWithEnoughFundsToLockFee",
  fields("no account has enough funds to lock the fee")
) {}
export class WrongAccountType extends Schema.TaggedError<WrongAccountType>()(
  "wrongAccountType",
  fields("wrong account type")
) {}
export class UnknownWebsite extends Schema.TaggedError<UnknownWebsite>()("unknownWebsite", fields("unknown website")) {}
export class RadixJsonNotFound extends Schema.TaggedError<RadixJsonNotFound>()(
  "radixJsonNotFound",
  fields("radix.json not found")
) {}
export class UnknownDappDefinitionAddress extends Schema.TaggedError<UnknownDappDefinitionAddress>()(
  "unknownDappDefinitionAddress",
  fields("unknown dApp definition address")
) {}
export class InvalidPersona extends Schema.TaggedError<InvalidPersona>()("invalidPersona", fields("invalid persona")) {}
/**
 * The Radix Wallet's answers to a pre-authorisation it will not sign because of its expiration: an `expireAtTime`
 * already past (`expiredSubintent`), or less than 30 seconds away (`subintentExpirationTooClose`). The official
 * toolkit 2.3.0 does not list them; the wallet sends them all the same.
 */
export class ExpiredSubintent extends Schema.TaggedError<ExpiredSubintent>()(
  "expiredSubintent",
  fields("the pre-authorization had already expired when the wallet received it; ask for a new one")
) {}
export class SubintentExpirationTooClose extends Schema.TaggedError<SubintentExpirationTooClose>()(
  "subintentExpirationTooClose",
  fields("the pre-authorization would expire too soon for the wallet to sign it; ask again with a later expiration")
) {}

/** A failure response whose `error` code is not in the catalogue (the wallet may add codes). */
export class UnknownWalletError extends Schema.TaggedError<UnknownWalletError>()("UnknownWalletError", {
  ...fields("the wallet answered with an unknown error"),
  error: Schema.String
}) {}

/**
 * The transaction was committed as a failure or rejected. `status` is the Gateway transaction status
 * (`CommittedFailure` or `Rejected`), which the official toolkit puts in `SdkError.error`.
 */
export class TransactionFailed extends Schema.TaggedError<TransactionFailed>()("TransactionFailed", {
  ...fields("the transaction failed"),
  transactionIntentHash: Schema.String,
  status: Schema.String
}) {}

/** The user chose Ignore on a request the wallet already has; the request ends as `ignored`. */
export class RequestIgnored extends Schema.TaggedError<RequestIgnored>()(
  "RequestIgnored",
  fields("the request was ignored")
) {}

/** A pre-authorisation whose subintent was not committed before its expiration. */
export class PreAuthorizationTimedOut extends Schema.TaggedError<PreAuthorizationTimedOut>()(
  "PreAuthorizationTimedOut",
  fields("the pre-authorization expired before it was committed")
) {}

// ---------------------------------------------------------------------------------------------------------------
// Internal errors
// ---------------------------------------------------------------------------------------------------------------

export class SupportedTransportNotFound extends Schema.TaggedError<SupportedTransportNotFound>()(
  "SupportedTransportNotFound",
  fields("No supported transport found")
) {}
export class RequestInterceptorError extends Schema.TaggedError<RequestInterceptorError>()(
  "requestInterceptorError",
  withCause("the request interceptor failed")
) {}
export class ChallengeGeneratorError extends Schema.TaggedError<ChallengeGeneratorError>()(
  "ChallengeGeneratorError",
  withCause("failed to generate challenge")
) {}
export class ChallengeValidationError extends Schema.TaggedError<ChallengeValidationError>()(
  "ChallengeValidationError",
  fields("challenge is invalid")
) {}
export class FailedToCreateRequestItem extends Schema.TaggedError<FailedToCreateRequestItem>()(
  "FailedToCreateRequestItem",
  withCause("failed to create the request item")
) {}
export class FailedToAddRequestItem extends Schema.TaggedError<FailedToAddRequestItem>()(
  "FailedToAddRequestItem",
  withCause("failed to add the request item")
) {}
export class FailedToTransformWalletRequest extends Schema.TaggedError<FailedToTransformWalletRequest>()(
  "FailedToTransformWalletRequest",
  withCause("failed to transform the wallet request")
) {}
export class FailedToReadRdtState extends Schema.TaggedError<FailedToReadRdtState>()(
  "FailedToReadRdtState",
  withCause("failed to read rdt state")
) {}
export class FailedToUpdateRdtState extends Schema.TaggedError<FailedToUpdateRdtState>()(
  "FailedToUpdateRdtState",
  withCause("failed to update rdt state")
) {}
export class FailedToGetPendingItems extends Schema.TaggedError<FailedToGetPendingItems>()(
  "FailedToGetPendingItems",
  withCause("failed to get pending items")
) {}
export class PendingItemNotFound extends Schema.TaggedError<PendingItemNotFound>()(
  "PendingItemNotFound",
  fields("pending item not found")
) {}
export class FailedToGetWalletResponse extends Schema.TaggedError<FailedToGetWalletResponse>()(
  "FailedToGetWalletResponse",
  withCause("failed to get the wallet response")
) {}
export class FailedToGetItemWithInteractionId extends Schema.TaggedError<FailedToGetItemWithInteractionId>()(
  "FailedToGetItemWithInteractionId",
  fields("no request item with this interactionId")
) {}
export class RadixConnectRelayRequestFailed extends Schema.TaggedError<RadixConnectRelayRequestFailed>()(
  "RadixConnectRelayRequestFailed",
  withCause("the Radix Connect relay request failed")
) {}
export class FailedToDecryptWalletResponseData extends Schema.TaggedError<FailedToDecryptWalletResponseData>()(
  "FailedToDecryptWalletResponseData",
  withCause("failed to decrypt the wallet response")
) {}
export class FailedToDeriveSharedSecret extends Schema.TaggedError<FailedToDeriveSharedSecret>()(
  "FailedToDeriveSharedSecret",
  withCause("failed to derive the shared secret")
) {}
export class DappIdentityNotFound extends Schema.TaggedError<DappIdentityNotFound>()(
  "DappIdentityNotFound",
  fields("dApp identity not found")
) {}
export class CouldNotHashMessage extends Schema.TaggedError<CouldNotHashMessage>()(
  "couldNotHashMessage",
  withCause("could not hash the message")
) {}
export class CouldNotSignMessage extends Schema.TaggedError<CouldNotSignMessage>()(
  "couldNotSignMessage",
  withCause("could not sign the message")
) {}
export class CouldNotGetOrCreateIdentity extends Schema.TaggedError<CouldNotGetOrCreateIdentity>()(
  "couldNotGetOrCreateIdentity",
  withCause("could not get or create the dApp identity")
) {}
export class UnhandledEnvironment extends Schema.TaggedError<UnhandledEnvironment>()(
  "UnhandledEnvironment",
  fields("a deep link can only be opened on mobile")
) {}
export class LoginRejectedByDapp extends Schema.TaggedError<LoginRejectedByDapp>()(
  "LoginRejectedByDapp",
  withCause("Login rejected by dApp")
) {}

// ---------------------------------------------------------------------------------------------------------------
// Network and storage
// ---------------------------------------------------------------------------------------------------------------

export class FailedToReadFromLocalStorage extends Schema.TaggedError<FailedToReadFromLocalStorage>()(
  "FailedToReadFromLocalStorage",
  {
    ...withCause("failed to read from local storage"),
    key: Schema.String
  }
) {}
export class FailedToWriteToLocalStorage extends Schema.TaggedError<FailedToWriteToLocalStorage>()(
  "FailedToWriteToLocalStorage",
  {
    ...withCause("failed to write to local storage"),
    key: Schema.String
  }
) {}
export class PatchingStateFailed extends Schema.TaggedError<PatchingStateFailed>()("PatchingStateFailed", {
  ...withCause("patching the state failed"),
  key: Schema.String
}) {}

export type StorageError = FailedToReadFromLocalStorage | FailedToWriteToLocalStorage | PatchingStateFailed

/** The wallet's failure codes, as they appear in a failure response's `error`. */
export const walletErrorCodes = [
  RejectedByUser,
  MissingExtension,
  CanceledByUser,
  WalletRequestValidation,
  WalletResponseValidation,
  WrongNetwork,
  FailedToPrepareTransaction,
  FailedToCompileTransaction,
  FailedToSignTransaction,
  FailedToSubmitTransaction,
  FailedToPollSubmittedTransaction,
  SubmittedTransactionWasDuplicate,
  SubmittedTransactionHasFailedTransactionStatus,
  SubmittedTransactionHasRejectedTransactionStatus,
  FailedToFindAccountWithEnoughFundsToLockFee,
  WrongAccountType,
  UnknownWebsite,
  RadixJsonNotFound,
  UnknownDappDefinitionAddress,
  InvalidPersona,
  ExpiredSubintent,
  SubintentExpirationTooClose
] as const

export type WalletError = InstanceType<(typeof walletErrorCodes)[number]> | UnknownWalletError

/** Maps a wallet failure response to its catalogue error. Unknown codes give `UnknownWalletError`. */
export const fromWalletFailure = (failure: {
  readonly interactionId: string
  readonly error: string
  readonly message?: string | undefined
}): WalletError => {
  const props = {
    interactionId: failure.interactionId,
    ...(failure.message !== undefined && failure.message !== "" ? { message: failure.message } : {})
  }
  const known = walletErrorCodes.find((E) => E._tag === failure.error)
  return known ? new known(props) : new UnknownWalletError({ ...props, error: failure.error })
}
