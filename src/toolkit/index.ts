/**
 * hSwap's wallet-connector toolkit: wire-compatible with the Radix Connector extension, the Radix Wallet and the
 * Radix Connect relay (spec toolkit-and-gateway.md §1–§9).
 */
export { Toolkit } from "./toolkit"
export type { ToolkitParts } from "./toolkit"
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
} from "./config"
export type { ResolvedToolkitConfig, ToolkitOptions } from "./config"
export { applyPatch, makeWalletRequest } from "./walletRequest"
export { WalletRequest } from "./walletRequestTag"
export type {
  ButtonStatus,
  WalletRequestApi,
  DataRequestFailure,
  PreAuthorizationResult,
  RequestFailure,
  SendTransactionInput,
  SendTransactionResult
} from "./walletRequest"
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
} from "./dataRequest"
export type {
  AccountsRequest,
  DataRequest,
  DataRequestPart,
  PersonaDataRequest,
  PersonaRequest,
  ProofOfOwnershipRequest,
  SubintentRequest
} from "./dataRequest"
export * from "./bytes"
export * from "./crypto"
export { Storage, storageKey } from "./storage"
export type { KeyedPartition, ObjectPartition, PartitionName, StorageCorruption } from "./storage"
export { Environment, isMobileUserAgent } from "./environment"
export type { EnvironmentApi } from "./environment"
export { decodeIncoming, Extension, MAX_MESSAGE_CHARS, noExtension } from "./extension"
export type { ExtensionIncoming, ExtensionStatus, SendHooks } from "./extension"
export { MAX_ENTRY_HEX_CHARS, Relay } from "./relay"
export type { DappIdentity, RelayDelivery, RelayEntryError } from "./relay"
export {
  buildDeepLink,
  deepLinkParamOrder,
  deriveSharedSecret,
  encodeRequestParam,
  encryptWalletResponse,
  parseDeepLink,
  sendResponseBody
} from "./deepLink"
export type { DeepLinkParams, EncryptedWalletResponse, ParsedDeepLink } from "./deepLink"
export {
  finalTransactionStatuses,
  pollBackoff,
  pollSubintentStatus,
  pollTransactionStatus,
  subintentPollSchedule,
  ToolkitGateway,
  transactionPollSchedule
} from "./gateway"
export type { GatewayCallError, ToolkitGatewayApi } from "./gateway"
export * from "./schemas"
export * from "./errors"
export { COMPACT_BELOW_PX, ConnectButton, requestTitle } from "./ConnectButton"
export type { ConnectButtonMode, ConnectButtonProps, ConnectButtonTheme } from "./ConnectButton"
export {
  accountChangedToast,
  connectButtonState,
  initialConnectButtonState,
  walletSessionToast,
  personaDataLines,
  shortenAddress,
  toConnectButtonState
} from "./connectButtonState"
export type { ConnectButtonState, PersonaDataLine, WalletToast } from "./connectButtonState"
