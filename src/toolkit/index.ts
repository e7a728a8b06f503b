/**
 * hSwap's wallet-connector toolkit: wire-compatible with the Radix Connector extension, the Radix Wallet and the
 * Radix Connect relay (spec toolkit-and-gateway.md §1–§9).
 */
export { Toolkit } from "./toolkit.js"
export type { ToolkitParts } from "./toolkit.js"
export {
  CONNECTOR_CLIENT_VERSION,
  DEFAULT_RELAY_URL,
  DEFAULT_WALLET_URL,
  defaultConnectRequest,
  defaultRdtState,
  emptyWalletData,
  GET_WALLET_URL,
  RadixNetworks,
  resolveConfig,
  SETUP_GUIDE_URL,
  timing,
  ToolkitConfig
} from "./config.js"
export type { ResolvedToolkitConfig, ToolkitOptions } from "./config.js"
export { applyPatch, makeWalletRequest } from "./walletRequest.js"
export { WalletRequest } from "./walletRequestTag.js"
export type {
  ButtonStatus,
  WalletRequestApi,
  DataRequestFailure,
  PreAuthorizationResult,
  RequestFailure,
  SendTransactionInput,
  SendTransactionResult
} from "./walletRequest.js"
export {
  canBeAnsweredFromState,
  CHALLENGE,
  DataRequestBuilder,
  isChallengeNeeded,
  sharedDataToDataRequest,
  SubintentRequestBuilder,
  toSharedData,
  toWalletData,
  toWalletRequest
} from "./dataRequest.js"
export type {
  AccountsRequest,
  DataRequest,
  DataRequestPart,
  PersonaDataRequest,
  PersonaRequest,
  ProofOfOwnershipRequest,
  SubintentRequest
} from "./dataRequest.js"
export * from "./bytes.js"
export * from "./crypto.js"
export { Storage, storageKey } from "./storage.js"
export type { KeyedPartition, ObjectPartition, PartitionName, StorageCorruption } from "./storage.js"
export { Environment, isMobileUserAgent } from "./environment.js"
export type { EnvironmentApi } from "./environment.js"
export { decodeIncoming, Extension, MAX_MESSAGE_CHARS, noExtension } from "./extension.js"
export type { ExtensionIncoming, ExtensionStatus, SendHooks } from "./extension.js"
export { MAX_ENTRY_HEX_CHARS, Relay } from "./relay.js"
export type { DappIdentity, RelayDelivery, RelayEntryError } from "./relay.js"
export {
  buildDeepLink,
  deepLinkParamOrder,
  deriveSharedSecret,
  encodeRequestParam,
  encryptWalletResponse,
  parseDeepLink,
  sendResponseBody
} from "./deepLink.js"
export type { DeepLinkParams, EncryptedWalletResponse, ParsedDeepLink } from "./deepLink.js"
export {
  finalTransactionStatuses,
  pollBackoff,
  pollSubintentStatus,
  pollTransactionStatus,
  subintentPollSchedule,
  ToolkitGateway,
  transactionPollSchedule
} from "./gateway.js"
export type { GatewayCallError, ToolkitGatewayApi } from "./gateway.js"
export * from "./schemas.js"
export * from "./errors.js"
export { COMPACT_BELOW_PX, ConnectButton, requestTitle } from "./ConnectButton.js"
export type { ConnectButtonMode, ConnectButtonProps, ConnectButtonTheme } from "./ConnectButton.js"
export {
  accountChangedToast,
  connectButtonState,
  initialConnectButtonState,
  walletSessionToast,
  personaDataLines,
  shortenAddress,
  toConnectButtonState
} from "./connectButtonState.js"
export type { ConnectButtonState, PersonaDataLine, WalletToast } from "./connectButtonState.js"
