/**
 * What the WalletRequest service offers, and nothing else: the tag (`walletRequestTag.ts`), the implementation
 * (`walletRequest.ts`) and the lazy toolkit (`lazy.ts`) import it without loading one another.
 */
import type { Effect, Stream } from "effect"
import type { ResolvedToolkitConfig } from "./config"
import type { DataRequest, SubintentRequest } from "./dataRequest"
import type {
  ChallengeGeneratorError,
  ChallengeValidationError,
  CouldNotGetOrCreateIdentity,
  CouldNotHashMessage,
  CouldNotSignMessage,
  FailedToCreateRequestItem,
  FailedToPoll,
  FailedToReadRdtState,
  FailedToSendDappRequest,
  FailedToUpdateRdtState,
  CanceledByUser,
  LoginRejectedByDapp,
  MissingExtension,
  PreAuthorizationTimedOut,
  RequestIgnored,
  RequestInterceptorError,
  SupportedTransportNotFound,
  TransactionFailed,
  UnhandledEnvironment,
  WalletError,
  WalletResponseValidation
} from "./errors"
import type { ExtensionStatus } from "./extension"
import type { RelayEntryError } from "./relay"
import type { RequestItem, SharedData, WalletData } from "./schemas"

export type ButtonStatus = "default" | "pending" | "success" | "error"

/** Everything a request can end with, other than success. */
export type RequestFailure =
  | WalletError
  | MissingExtension
  | CanceledByUser
  | WalletResponseValidation
  | LoginRejectedByDapp
  | FailedToPoll
  | TransactionFailed
  | RequestIgnored
  | PreAuthorizationTimedOut
  | SupportedTransportNotFound
  | RequestInterceptorError
  | UnhandledEnvironment
  | FailedToSendDappRequest
  | CouldNotGetOrCreateIdentity
  | CouldNotSignMessage
  | CouldNotHashMessage
  | FailedToCreateRequestItem
  | FailedToUpdateRdtState
  | RelayEntryError

export type DataRequestFailure =
  RequestFailure | ChallengeGeneratorError | ChallengeValidationError | FailedToReadRdtState

export interface SendTransactionInput {
  readonly transactionManifest: string
  readonly version?: number
  readonly blobs?: ReadonlyArray<string>
  readonly message?: string
  /** Called with the intent hash as soon as the wallet answers, before the status poll. */
  readonly onTransactionId?: (transactionIntentHash: string) => void
}

export interface SendTransactionResult {
  readonly transactionIntentHash: string
  readonly status: string
}

export interface PreAuthorizationResult {
  readonly signedPartialTransaction: string
  readonly expirationTimestamp: number
  readonly subintentHash: string
}

/** What WalletRequest offers (built by `makeWalletRequest`, walletRequest.ts). */
export interface WalletRequestApi {
  readonly config: ResolvedToolkitConfig
  /** Resets the state and asks for the configured connect request (default: ongoing accounts, at least 1). */
  readonly connect: () => Effect.Effect<WalletData, DataRequestFailure>
  readonly sendRequest: (dataRequest: DataRequest) => Effect.Effect<WalletData, DataRequestFailure>
  readonly sendOneTimeRequest: (dataRequest: DataRequest) => Effect.Effect<WalletData, DataRequestFailure>
  /** Asks again for what was shared, with the accounts reset. */
  readonly updateSharedAccounts: () => Effect.Effect<WalletData, DataRequestFailure>
  readonly sendTransaction: (input: SendTransactionInput) => Effect.Effect<SendTransactionResult, RequestFailure>
  readonly sendPreAuthorizationRequest: (
    subintent: SubintentRequest
  ) => Effect.Effect<PreAuthorizationResult, RequestFailure>
  readonly cancelRequest: (interactionId: string) => Effect.Effect<"requestCancelSuccess" | "requestCancelFail">
  readonly ignoreTransaction: (interactionId: string) => Effect.Effect<void>
  readonly disconnect: () => Effect.Effect<void>
  /** Asks the Connector extension to show its QR-code popup. */
  readonly openPopup: Effect.Effect<boolean>
  /** The dApp definition's name (or 'Unnamed dApp'). */
  readonly dAppName: Effect.Effect<string>
  readonly getWalletData: Effect.Effect<WalletData>
  readonly getRequestItems: Effect.Effect<ReadonlyArray<RequestItem>>
  readonly getButtonStatus: Effect.Effect<ButtonStatus>
  readonly walletData: Stream.Stream<WalletData>
  readonly sharedData: Stream.Stream<SharedData>
  readonly requestItems: Stream.Stream<ReadonlyArray<RequestItem>>
  readonly buttonStatus: Stream.Stream<ButtonStatus>
  readonly extensionStatus: Stream.Stream<ExtensionStatus>
  readonly isMobile: Stream.Stream<boolean>
  /** A sign of intent: the lazy toolkit (lazy.ts) starts loading the machinery; the loaded service has nothing to do. */
  readonly prepare: Effect.Effect<void>
}
