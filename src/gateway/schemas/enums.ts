/** Gateway string enums (v1.10.1). Each is a Schema.Literal that also reads like the SDK enum (`TransactionStatus.Pending`). */
import { literalEnum } from "./common"

export const TransactionStatus = literalEnum("Unknown", "CommittedSuccess", "CommittedFailure", "Pending", "Rejected")
export type TransactionStatus = typeof TransactionStatus.Type

export const TransactionIntentStatus = literalEnum(
  "Unknown",
  "CommittedSuccess",
  "CommittedFailure",
  "CommitPendingOutcomeUnknown",
  "PermanentlyRejected",
  "LikelyButNotCertainRejection",
  "Pending"
)
export type TransactionIntentStatus = typeof TransactionIntentStatus.Type

export const TransactionPayloadStatus = literalEnum(
  "Unknown",
  "CommittedSuccess",
  "CommittedFailure",
  "CommitPendingOutcomeUnknown",
  "PermanentlyRejected",
  "TemporarilyRejected",
  "Pending"
)
export type TransactionPayloadStatus = typeof TransactionPayloadStatus.Type

export const TransactionPayloadGatewayHandlingStatus = literalEnum("HandlingSubmission", "Concluded")
export type TransactionPayloadGatewayHandlingStatus = typeof TransactionPayloadGatewayHandlingStatus.Type

export const SubintentStatus = literalEnum("Unknown", "CommittedSuccess")
export type SubintentStatus = typeof SubintentStatus.Type

export const ResourceAggregationLevel = literalEnum("Global", "Vault")
export type ResourceAggregationLevel = typeof ResourceAggregationLevel.Type

export const ManifestClass = literalEnum(
  "General",
  "Transfer",
  "PoolContribution",
  "PoolRedemption",
  "ValidatorStake",
  "ValidatorUnstake",
  "ValidatorClaim",
  "AccountDepositSettingsUpdate"
)
export type ManifestClass = typeof ManifestClass.Type

export const TransactionFungibleFeeBalanceChangeType = literalEnum(
  "FeePayment",
  "FeeDistributed",
  "TipDistributed",
  "RoyaltyDistributed"
)
export type TransactionFungibleFeeBalanceChangeType = typeof TransactionFungibleFeeBalanceChangeType.Type

export const StateEntityDetailsResponseItemDetailsType = literalEnum(
  "FungibleResource",
  "NonFungibleResource",
  "FungibleVault",
  "NonFungibleVault",
  "Package",
  "Component"
)
export type StateEntityDetailsResponseItemDetailsType = typeof StateEntityDetailsResponseItemDetailsType.Type

export const NonFungibleIdType = literalEnum("String", "Integer", "Bytes", "Ruid")
export type NonFungibleIdType = typeof NonFungibleIdType.Type

export const NativeResourceKind = literalEnum(
  "Xrd",
  "PackageOwnerBadge",
  "AccountOwnerBadge",
  "IdentityOwnerBadge",
  "ValidatorOwnerBadge",
  "Secp256k1SignatureResource",
  "Ed25519SignatureResource",
  "GlobalCallerResource",
  "PackageOfDirectCallerResource",
  "SystemExecutionResource",
  "ValidatorLiquidStakeUnit",
  "ValidatorClaimNft",
  "OneResourcePoolUnit",
  "TwoResourcePoolUnit",
  "MultiResourcePoolUnit",
  "AccessControllerRecoveryBadge"
)
export type NativeResourceKind = typeof NativeResourceKind.Type

export const PackageVmType = literalEnum("Native", "ScryptoV1")
export type PackageVmType = typeof PackageVmType.Type

export const ObjectModuleId = literalEnum("Main", "Metadata", "Royalty", "RoleAssignment")
export type ObjectModuleId = typeof ObjectModuleId.Type

export const RoleAssignmentResolution = literalEnum("Explicit", "Owner")
export type RoleAssignmentResolution = typeof RoleAssignmentResolution.Type

export const AccountDefaultDepositRule = literalEnum("Accept", "Reject", "AllowExisting")
export type AccountDefaultDepositRule = typeof AccountDefaultDepositRule.Type

export const AccountResourcePreferenceRule = literalEnum("Allowed", "Disallowed")
export type AccountResourcePreferenceRule = typeof AccountResourcePreferenceRule.Type

export const TransactionKindFilter = literalEnum("User", "EpochChange", "All")
export type TransactionKindFilter = typeof TransactionKindFilter.Type

export const TransactionStatusFilter = literalEnum("Success", "Failure", "All")
export type TransactionStatusFilter = typeof TransactionStatusFilter.Type

export const StreamOrder = literalEnum("Asc", "Desc")
export type StreamOrder = typeof StreamOrder.Type

export const StreamEventFilterEvent = literalEnum("Deposit", "Withdrawal")
export type StreamEventFilterEvent = typeof StreamEventFilterEvent.Type

export const LedgerStateRequestType = literalEnum("Read", "Construction")
export type LedgerStateRequestType = typeof LedgerStateRequestType.Type

export const LogLevel = literalEnum("Error", "Warn", "Info", "Debug", "Trace")
export type LogLevel = typeof LogLevel.Type
