/**
 * `/transaction/status` for the devnet gateway emulator: a port of the rules of babylon-gateway v1.10.1
 * `src/RadixDlt.NetworkGateway.PostgresIntegration/Services/PendingTransactions/PendingTransactionResponseAggregator.cs`
 * (statuses, descriptions, priorities, expiry) over what the devnet ledger tracks of an intent
 * (`Ledger.intentStatus`). Priorities: `PendingTransactionIntentLedgerStatus.AggregationPriorityAcrossKnownPayloads`
 * and `PendingTransactionPayloadLedgerStatus.ReplacementPriority` (`src/RadixDlt.NetworkGateway.Abstractions/Model`).
 */
import type { IntentLedgerStatus, IntentStatusInfo, LedgerState, PayloadLedgerStatus } from "../ledger/Ledger"

type LegacyStatus = "Unknown" | "CommittedSuccess" | "CommittedFailure" | "Pending" | "Rejected"
type PayloadStatus =
  | "Unknown"
  | "CommittedSuccess"
  | "CommittedFailure"
  | "CommitPendingOutcomeUnknown"
  | "PermanentlyRejected"
  | "TemporarilyRejected"
  | "Pending"
type IntentStatus =
  | "Unknown"
  | "CommittedSuccess"
  | "CommittedFailure"
  | "CommitPendingOutcomeUnknown"
  | "PermanentlyRejected"
  | "LikelyButNotCertainRejection"
  | "Pending"

const PAYLOAD_STATUS_DESCRIPTION: Record<PayloadStatus, string> = {
  Unknown: "No information is known about the possible outcome of this transaction payload.",
  CommittedSuccess:
    "This particular payload for this transaction has been committed to the ledger as a success. For more information, use the /transaction/committed-details endpoint.",
  CommittedFailure:
    "This particular payload for this transaction has been committed to the ledger as a failure. For more information, use the /transaction/committed-details endpoint.",
  CommitPendingOutcomeUnknown:
    "This particular payload for this transaction has been committed to the ledger, but the Gateway is still waiting for further details about its result.",
  PermanentlyRejected:
    "This particular payload for this transaction has been permanently rejected. It is not possible for this particular transaction payload to be committed to this network.",
  TemporarilyRejected:
    "This particular payload for this transaction was rejected at its last execution. It may still be possible for this transaction payload to be committed to this network.",
  Pending:
    "This particular payload for this transaction has been accepted into a node's mempool on the network. It's possible but not certain that it will be committed to this network."
}

const INTENT_STATUS_DESCRIPTION: Record<IntentStatus, string> = {
  Unknown: "No information is known about the possible outcome of this transaction.",
  CommittedSuccess:
    "This transaction has been committed to the ledger as a success. For more information, use the /transaction/committed-details endpoint.",
  CommittedFailure:
    "This transaction has been committed to the ledger as a failure. For more information, use the /transaction/committed-details endpoint.",
  CommitPendingOutcomeUnknown:
    "This transaction has been committed to the ledger, but the Gateway is still waiting for further details about its result.",
  PermanentlyRejected: "This transaction is permanently rejected, so can never be committed to this network.",
  Pending:
    "A payload for this transaction has been accepted into a node's mempool on the network. It's possible but not certain that it will be committed to this network.",
  LikelyButNotCertainRejection:
    "All known payload/s for this transaction have been temporarily rejected at their last execution. It may still be possible for this transaction to be committed to this network."
}

type TrackedIntent = IntentLedgerStatus | "Unknown"

const aggregationPriority: Record<TrackedIntent, number> = {
  Committed: 5,
  CommitPending: 4,
  PermanentRejection: 3,
  LikelyButNotCertainRejection: 1,
  Unknown: 0
}

const replacementPriority: Record<PayloadLedgerStatus, number> = {
  Committed: 4,
  CommitPending: 3,
  ClashingCommit: 3,
  PermanentlyRejected: 2,
  TransientlyRejected: 1
}

const payloadStatusOf = (status: PayloadLedgerStatus): readonly [LegacyStatus, PayloadStatus] => {
  switch (status) {
    case "Committed":
    case "CommitPending":
      return ["Pending", "CommitPendingOutcomeUnknown"]
    case "ClashingCommit":
    case "PermanentlyRejected":
      return ["Rejected", "PermanentlyRejected"]
    case "TransientlyRejected":
      return ["Pending", "TemporarilyRejected"]
  }
}

const intentStatusOf = (status: TrackedIntent): IntentStatus => {
  switch (status) {
    case "Unknown":
      return "Unknown"
    case "Committed":
    case "CommitPending":
      return "CommitPendingOutcomeUnknown"
    case "PermanentRejection":
      return "PermanentlyRejected"
    case "LikelyButNotCertainRejection":
      return "LikelyButNotCertainRejection"
  }
}

const legacyOf = (status: IntentStatus): LegacyStatus => {
  switch (status) {
    case "Unknown":
      return "Unknown"
    case "CommittedSuccess":
    case "CommittedFailure":
      return status
    case "PermanentlyRejected":
      return "Rejected"
    case "CommitPendingOutcomeUnknown":
    case "LikelyButNotCertainRejection":
    case "Pending":
      return "Pending"
  }
}

const expired = (epoch: number) => `Transaction has expired, as its expiry epoch of ${epoch} has been reached.`

/** The `/transaction/status` body (absent rather than null for empty optional fields, as the Gateway serialises). */
export const statusResponse = (ledgerState: LedgerState, info: IntentStatusInfo) => {
  const knownPayloads: Array<Record<string, unknown>> = []
  const committed = info.committed
  if (committed !== undefined) {
    knownPayloads.push({
      payload_hash: committed.payloadHash,
      status: committed.status,
      payload_status: committed.status,
      payload_status_description: PAYLOAD_STATUS_DESCRIPTION[committed.status],
      ...(committed.errorMessage === undefined ? {} : { error_message: committed.errorMessage }),
      handling_status: "Concluded",
      handling_status_reason: "The transaction is committed"
    })
  }
  let mostAccurate: TrackedIntent = "Unknown"
  let mostAccurateReason: string | undefined
  let rejectionEpoch: number | undefined
  for (const p of info.payloads) {
    if (committed !== undefined && p.payloadHash === committed.payloadHash) continue
    let [legacy, payloadStatus] = payloadStatusOf(p.payloadStatus)
    rejectionEpoch = p.endEpochExclusive
    if (aggregationPriority[p.intentStatus] >= aggregationPriority[mostAccurate]) {
      mostAccurate = p.intentStatus
      mostAccurateReason = p.latestRejectionReason
    }
    let initial = p.initialRejectionReason
    let latest = p.latestRejectionReason
    // An intent whose end epoch has been reached is permanently rejected (unless committed).
    if (ledgerState.epoch >= p.endEpochExclusive) {
      if (aggregationPriority.PermanentRejection >= aggregationPriority[mostAccurate]) {
        mostAccurate = "PermanentRejection"
        mostAccurateReason = expired(p.endEpochExclusive)
      }
      if (replacementPriority.PermanentlyRejected >= replacementPriority[p.payloadStatus]) {
        payloadStatus = "PermanentlyRejected"
        legacy = "Rejected"
        latest = expired(p.endEpochExclusive)
        initial ??= latest
      }
    }
    knownPayloads.push({
      payload_hash: p.payloadHash,
      status: legacy,
      payload_status: payloadStatus,
      payload_status_description: PAYLOAD_STATUS_DESCRIPTION[payloadStatus],
      ...(initial === undefined ? {} : { error_message: initial }),
      ...(latest === undefined || latest === initial ? {} : { latest_error_message: latest }),
      handling_status: p.resubmitFromMs === undefined ? "Concluded" : "HandlingSubmission",
      handling_status_reason: p.handlingStatusReason
    })
  }
  const intentStatus: IntentStatus = committed !== undefined ? committed.status : intentStatusOf(mostAccurate)
  const errorMessage = committed !== undefined ? committed.errorMessage : mostAccurateReason
  const showsRejectionEpoch =
    intentStatus === "Unknown" || intentStatus === "LikelyButNotCertainRejection" || intentStatus === "Pending"
  return {
    ledger_state: ledgerState,
    status: legacyOf(intentStatus),
    intent_status: intentStatus,
    intent_status_description: INTENT_STATUS_DESCRIPTION[intentStatus],
    known_payloads: knownPayloads,
    ...(committed === undefined ? {} : { committed_state_version: committed.stateVersion }),
    ...(showsRejectionEpoch && rejectionEpoch !== undefined ? { permanently_rejects_at_epoch: rejectionEpoch } : {}),
    ...(errorMessage === undefined ? {} : { error_message: errorMessage })
  }
}
