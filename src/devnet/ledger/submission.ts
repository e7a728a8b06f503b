/**
 * The Gateway's payload tracking and the node's answer, for payloads of any format (`payload.ts`): what
 * `/transaction/submit` does with a statically valid payload, the resubmission of temporarily rejected ones, and
 * what `/transaction/status` reads. Every function here runs under the ledger's permit (`live.ts`).
 */
import { Clock, Effect, Option } from "effect"
import { type ValidatedPayload, epochRejection, gatewayEpochRefusal } from "./payload"
import type { LedgerStore } from "./store"
import { TransactionRejected } from "./transaction"
import type {
  CommittedTransaction,
  IntentLedgerStatus,
  IntentStatusInfo,
  PayloadLedgerStatus,
  SubmitResult,
  TrackedPayload
} from "./types"

interface PayloadRecord {
  payloadHash: string
  intentHash: string
  endEpochExclusive: number
  payloadStatus: PayloadLedgerStatus
  intentStatus: IntentLedgerStatus
  initialRejectionReason: string | undefined
  latestRejectionReason: string | undefined
  resubmitFromMs: number | undefined
  handlingStatusReason: string
  submissionCount: number
  firstSubmittedMs: number
  /** The node caches a temporary rejection until then (ms, or an epoch for TransactionEpochNotYetValid). */
  nodeRetryFromMs: number
  nodeRetryFromEpoch: number
  readonly payload: ValidatedPayload
  /** Submission order, for a stable `known_payloads` order. */
  readonly ordinal: number
}

/** What the node answers for a payload: committed (or already), or rejected, temporarily or for good. */
type NodeAnswer =
  | { readonly _tag: "Committed"; readonly transaction: CommittedTransaction }
  | { readonly _tag: "IntentAlreadyCommitted"; readonly transaction: CommittedTransaction }
  | {
      readonly _tag: "Rejected"
      readonly reason: string
      readonly permanentForIntent: boolean
      readonly retryFromEpoch?: number
    }

export const makeSubmission = (store: LedgerStore) => {
  /** Payloads submitted through the Gateway, by payload hash (the Gateway's `pending_transactions`). */
  const payloads = new Map<string, PayloadRecord>()
  let payloadOrdinal = 0

  /**
   * The node's answer to a payload (caller holds the permit). Which rejections are temporary is the node's rule,
   * radixdlt/babylon-node `core-rust/state-manager/src/mempool/pending_transaction_result_cache.rs`,
   * `MempoolRejectionReason::permanence`: `SuccessButFeeLoanNotRepaid` and `ErrorBeforeLoanAndDeferredCostsRepaid`
   * (a fee lock above the balance, a fee lock by a signer who is not the owner) are `default_temporary` (retry after
   * 2 minutes), `TransactionEpochNotYetValid` is temporary until its start epoch, `TransactionEpochNoLongerValid` and
   * an intent already committed are permanent for the intent.
   */
  const nodeAnswer = (payload: ValidatedPayload): Effect.Effect<NodeAnswer> =>
    Effect.gen(function* () {
      const existing = yield* store.transactionByIntent(payload.intentHash)
      if (Option.isSome(existing)) {
        return existing.value.payloadHash === payload.payloadHash
          ? { _tag: "Committed", transaction: existing.value }
          : { _tag: "IntentAlreadyCommitted", transaction: existing.value }
      }
      const epoch = store.tip().epoch
      const outOfWindow = epochRejection(epoch, payload.startEpochInclusive, payload.endEpochExclusive)
      if (outOfWindow !== undefined) {
        return {
          _tag: "Rejected",
          reason: outOfWindow.reason,
          permanentForIntent: outOfWindow.permanent,
          ...(outOfWindow.permanent ? {} : { retryFromEpoch: payload.startEpochInclusive })
        }
      }
      const execution = payload.execute({
        xrd: store.xrd,
        epoch,
        proposerTimestampMs: Date.parse(store.tip().timestamp),
        subintentFinalized: store.subintentFinalized,
        balance: store.balanceOf,
        divisibility: store.divisibility
      })
      if (execution._tag === "Rejected") {
        return { _tag: "Rejected", reason: execution.reason, permanentForIntent: execution.permanent === true }
      }
      const transaction = yield* store.commit({ kind: "User", ...execution.commit }).pipe(Effect.orDie)
      return { _tag: "Committed", transaction }
    })

  /** babylon-gateway v1.10.1 `CoreApiIntegrationOptions` defaults: resubmission schedule and retirement. */
  const BASE_DELAY_BETWEEN_RESUBMISSIONS_MS = 10_000
  const RESUBMISSION_DELAY_BACKOFF_EXPONENT = 2
  const MAX_SUBMISSION_ATTEMPTS = 5
  const STOP_RESUBMITTING_AFTER_MS = 5 * 60_000
  /** The node's `RejectionPermanence::default_temporary()`: a temporary rejection is cached for 2 minutes. */
  const NODE_TEMPORARY_REJECTION_RETRY_MS = 2 * 60_000

  /** `PendingTransactionGatewayHandling.HandleNodeSubmissionPending`: next resubmission at base × exponent^count. */
  const scheduleSubmission = (r: PayloadRecord, now: number) => {
    r.resubmitFromMs =
      now + BASE_DELAY_BETWEEN_RESUBMISSIONS_MS * Math.pow(RESUBMISSION_DELAY_BACKOFF_EXPONENT, r.submissionCount)
    r.submissionCount += 1
  }

  const conclude = (r: PayloadRecord, reason: string) => {
    r.resubmitFromMs = undefined
    r.handlingStatusReason = reason
  }

  /** `PendingTransaction.RetireIfNecessary`; true when the Gateway stops submitting the payload. */
  const retireIfNecessary = (r: PayloadRecord, now: number): boolean => {
    if (r.payloadStatus !== "TransientlyRejected") {
      conclude(r, `Concluded due to PayloadLedgerStatus of ${r.payloadStatus}`)
      return true
    }
    if (store.tip().epoch >= r.endEpochExclusive) {
      conclude(r, "Concluded due to its end epoch being reached")
      return true
    }
    if (r.submissionCount >= MAX_SUBMISSION_ATTEMPTS) {
      conclude(r, "Concluded due to exceeding max submission to node count")
      return true
    }
    if (now > r.firstSubmittedMs + STOP_RESUBMITTING_AFTER_MS) {
      conclude(r, "Concluded due to exceeding max time since submission to the Gateway")
      return true
    }
    return false
  }

  /** `PendingTransactionLedgerDetails.HandleSubmissionResult` with `NodeSubmissionResult`'s status mapping. */
  const applyNodeAnswer = (r: PayloadRecord, answer: NodeAnswer, now: number) => {
    switch (answer._tag) {
      case "Committed":
        r.payloadStatus = "Committed"
        r.intentStatus = "Committed"
        conclude(r, "Concluded as committed")
        return
      case "IntentAlreadyCommitted":
        r.payloadStatus = "ClashingCommit"
        r.intentStatus = "CommitPending"
        conclude(r, `Concluded due to PayloadLedgerStatus of ${r.payloadStatus}`)
        return
      case "Rejected":
        r.payloadStatus = answer.permanentForIntent ? "PermanentlyRejected" : "TransientlyRejected"
        r.intentStatus = answer.permanentForIntent ? "PermanentRejection" : "LikelyButNotCertainRejection"
        r.initialRejectionReason ??= answer.reason
        r.latestRejectionReason = answer.reason
        r.nodeRetryFromMs = now + NODE_TEMPORARY_REJECTION_RETRY_MS
        r.nodeRetryFromEpoch = answer.retryFromEpoch ?? 0
        if (answer.permanentForIntent) conclude(r, "Concluded due to seeing permanent rejection.")
        else retireIfNecessary(r, now)
        return
    }
  }

  /**
   * The Gateway's resubmission worker (`PendingTransactionResubmissionService`), run lazily: whenever the ledger is
   * read or written, every tracked payload whose resubmission time has come is retired or submitted again. The node
   * answers from its cached rejection until that rejection's retry time (the Gateway does not force a
   * recalculation), then executes the payload afresh, so a fee lock that failed for want of XRD commits once the
   * account is topped up, as on the network.
   */
  const resubmitDue = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const due = [...payloads.values()]
      .filter((r) => r.resubmitFromMs !== undefined && r.resubmitFromMs <= now)
      .sort((a, b) => a.ordinal - b.ordinal)
    for (const r of due) {
      if (retireIfNecessary(r, now)) continue
      scheduleSubmission(r, now)
      const nodeStillCaches =
        r.nodeRetryFromEpoch > 0 ? store.tip().epoch < r.nodeRetryFromEpoch : now < r.nodeRetryFromMs
      if (nodeStillCaches) continue
      applyNodeAnswer(r, yield* nodeAnswer(r.payload), now)
    }
  })

  /** Rounds, then due resubmissions (caller holds the permit). */

  const trackedView = (r: PayloadRecord): TrackedPayload => ({
    payloadHash: r.payloadHash,
    intentHash: r.intentHash,
    endEpochExclusive: r.endEpochExclusive,
    payloadStatus: r.payloadStatus,
    intentStatus: r.intentStatus,
    initialRejectionReason: r.initialRejectionReason,
    latestRejectionReason: r.latestRejectionReason,
    resubmitFromMs: r.resubmitFromMs,
    handlingStatusReason: r.handlingStatusReason,
    submissionCount: r.submissionCount,
    firstSubmittedMs: r.firstSubmittedMs
  })

  const rejectedBy = (
    tx: Pick<ValidatedPayload, "intentHash" | "payloadHash">,
    reason: string,
    permanence: "Static" | "Temporary" | "Permanent"
  ) => new TransactionRejected({ reason, intentHash: tx.intentHash, payloadHash: tx.payloadHash, permanence })

  /**
   * Submits a statically valid payload (`formats.ts` decoded it) as the Gateway's `/transaction/submit` does (babylon-gateway v1.10.1
   * `SubmissionService.HandleSubmitRequest` and `SubmissionTrackingService`):
   * - a payload whose epoch window is refused by the Gateway's own
   *   check (`CheckPendingTransactionEpochValidity`: start epoch beyond the current epoch + 1, or end epoch reached)
   *   fails with a `Static` rejection and is not tracked, so its status stays `Unknown`;
   * - a payload already tracked (same payload hash) is a duplicate: `duplicate: true`, or a `Permanent` rejection
   *   when that payload was permanently rejected;
   * - otherwise the payload is tracked and given to the node: it commits, clashes with another payload of an
   *   intent already committed (success, `duplicate: false`), or is rejected — `Temporary` (the Gateway answers
   *   200 and keeps resubmitting it) or `Permanent`.
   */
  const submit = (tx: ValidatedPayload) =>
    Effect.gen(function* () {
      const refusal = gatewayEpochRefusal(tx, store.tip().epoch)
      if (refusal !== undefined) return yield* rejectedBy(tx, refusal, "Static")
      const known = payloads.get(tx.payloadHash)
      const committedAs = yield* store.transactionByIntent(tx.intentHash)
      const committed = Option.getOrUndefined(committedAs)
      if (known !== undefined || committed?.payloadHash === tx.payloadHash) {
        if (known?.payloadStatus === "PermanentlyRejected") {
          return yield* rejectedBy(tx, known.latestRejectionReason ?? "Permanently rejected", "Permanent")
        }
        return {
          duplicate: true,
          intentHash: tx.intentHash,
          payloadHash: tx.payloadHash,
          transaction: committed
        } satisfies SubmitResult
      }
      const now = yield* Clock.currentTimeMillis
      const record: PayloadRecord = {
        payloadHash: tx.payloadHash,
        intentHash: tx.intentHash,
        endEpochExclusive: tx.endEpochExclusive,
        payloadStatus: "TransientlyRejected",
        intentStatus: "LikelyButNotCertainRejection",
        initialRejectionReason: undefined,
        latestRejectionReason: undefined,
        resubmitFromMs: undefined,
        handlingStatusReason: "Submitting to the network due to being submitted to Gateway",
        submissionCount: 0,
        firstSubmittedMs: now,
        nodeRetryFromMs: 0,
        nodeRetryFromEpoch: 0,
        payload: tx,
        ordinal: payloadOrdinal++
      }
      scheduleSubmission(record, now)
      payloads.set(tx.payloadHash, record)
      const answer = yield* nodeAnswer(tx)
      applyNodeAnswer(record, answer, now)
      if (answer._tag === "Rejected") {
        return yield* rejectedBy(tx, answer.reason, answer.permanentForIntent ? "Permanent" : "Temporary")
      }
      return {
        duplicate: false,
        intentHash: tx.intentHash,
        payloadHash: tx.payloadHash,
        transaction: answer._tag === "Committed" ? answer.transaction : undefined
      } satisfies SubmitResult
    })

  /** The commit and the tracked payloads of an intent. */
  const intentStatus = (intentHash: string) =>
    Effect.gen(function* () {
      const committed = Option.getOrUndefined(yield* store.transactionByIntent(intentHash))
      const tracked = [...payloads.values()]
        .filter((r) => r.intentHash === intentHash)
        .sort((a, b) => a.ordinal - b.ordinal)
        .map(trackedView)
      return { committed, payloads: tracked } satisfies IntentStatusInfo
    })

  return { submit, resubmitDue, intentStatus } as const
}
