/**
 * The seam between transaction formats and the ledger's submission pipeline.
 *
 * A format (V1 notarized transactions today: `validate.ts` + `executeV1.ts`, registered in `formats.ts`) turns a
 * payload's hex into a `ValidatedPayload`: the header the Gateway's tracking needs (intent and payload hashes, the
 * epoch window) and an `execute` that runs it on the current state and says what to commit. The pipeline
 * (`submit.ts`: payload tracking, resubmission, the node's answer) and the storage (`store.ts`) never look inside
 * a payload, so another format is a sibling validator and executor plus one entry in `formats.ts`.
 *
 * What a format with subintents (TransactionV2) adds beside V1: its executor runs each intent on its own worktop
 * with yields between parent and child, and its commit names the subintent hashes it finalizes, which the store
 * records in the same SQL transaction as the commit, and only for a successful one.
 */
import type { BigDecimal, Effect } from "effect"
import type { BalanceChange } from "./execute"
import type { GatewayMessage, TransactionRejected } from "./transaction"

/** The current state as an executor may read it (the caller holds the ledger's permit). */
export interface LedgerView {
  readonly xrd: string
  readonly epoch: number
  /** The proposer's round timestamp of the tip (ms since the Unix epoch), for intents with a timestamp window. */
  readonly proposerTimestampMs: number
  /** True when a transaction that finalized this subintent (`subtxid_…`) committed successfully. */
  readonly subintentFinalized: (subintentId: string) => boolean
  readonly balance: (account: string, resource: string) => BigDecimal.BigDecimal
  readonly divisibility: (resource: string) => number | undefined
}

/** What a user transaction writes when the node commits it, success or failure. */
export interface UserCommit {
  readonly success: boolean
  readonly intentHash: string
  readonly payloadHash: string
  readonly fee: BigDecimal.BigDecimal
  readonly errorMessage: string | undefined
  readonly manifest: string | undefined
  readonly message: GatewayMessage | undefined
  readonly rawHex: string | undefined
  readonly feeChanges: ReadonlyArray<BalanceChange>
  readonly changes: ReadonlyArray<BalanceChange>
  readonly withdrawnFrom: ReadonlyArray<string>
  readonly depositedInto: ReadonlyArray<string>
  readonly resources: ReadonlyArray<string>
  readonly classes: ReadonlyArray<"General" | "Transfer">
  /** Per manifest instruction, the SBOR hex of its output. */
  readonly outputs: ReadonlyArray<string>
  /**
   * A V2 transaction's subintents (`subtxid_…`, with their manifests, messages and children) and the root's
   * children; the store marks the subintents finalized only when the commit is a success.
   */
  readonly subintents?: ReadonlyArray<SubintentRecord>
  readonly childSubintentHashes?: ReadonlyArray<string>
}

/** A subintent as a V2 commit records it (the Gateway's `subintent_details` item). */
export interface SubintentRecord {
  readonly subintentHash: string
  readonly manifest: string
  readonly message: GatewayMessage | undefined
  readonly childSubintentHashes: ReadonlyArray<string>
}

/** The node's execution of a payload: a commit, or a rejection that changes nothing. */
export type PayloadExecution =
  | {
      readonly _tag: "Rejected"
      readonly reason: string
      /** The rejection holds for every payload of the intent (an expired window, an intent already finalized). */
      readonly permanent?: boolean
    }
  | { readonly _tag: "Commit"; readonly commit: UserCommit }

/** A statically valid payload of some format, as the submission pipeline handles it. */
export interface ValidatedPayload {
  readonly format: string
  readonly intentHash: string
  readonly payloadHash: string
  readonly startEpochInclusive: number
  readonly endEpochExclusive: number
  /** Runs the payload on the current state (pure: the pipeline commits what it returns). */
  readonly execute: (view: LedgerView) => PayloadExecution
}

/** One transaction format: which payloads are its own, and their static validation. */
export interface TransactionFormat {
  readonly format: string
  /** True when the hex is this format's payload (its SBOR prefix), before decoding it. */
  readonly accepts: (hex: string) => boolean
  /** Decodes and validates statically; a failure is a `Static` rejection (refused, never tracked). */
  readonly validate: (hex: string) => Effect.Effect<ValidatedPayload, TransactionRejected>
}

/**
 * The Gateway's own epoch check before it tracks a payload (`CheckPendingTransactionEpochValidity`): a start epoch
 * beyond the current epoch + 1, or an end epoch already reached, is refused.
 */
export const gatewayEpochRefusal = (payload: ValidatedPayload, epoch: number): string | undefined =>
  payload.startEpochInclusive > epoch + 1
    ? `Transaction start epoch ${payload.startEpochInclusive} is not yet close enough to current epoch ${epoch}`
    : payload.endEpochExclusive <= epoch
      ? `Transaction is no longer valid from epoch ${payload.endEpochExclusive} but it is now epoch ${epoch}`
      : undefined

/** Why an intent valid in `[start, end)` is rejected at `epoch`, if it is (the engine's epoch check). */
export const epochRejection = (epoch: number, start: number, end: number) =>
  epoch < start
    ? {
        reason: `TransactionEpochNotYetValid { valid_from: Epoch(${start}), current_epoch: Epoch(${epoch}) }`,
        permanent: false
      }
    : epoch >= end
      ? {
          reason: `TransactionEpochNoLongerValid { valid_until: Epoch(${end - 1}), current_epoch: Epoch(${epoch}) }`,
          permanent: true
        }
      : undefined
