/**
 * The devnet ledger's public types: what it stores and reports, its configuration, and the `LedgerService`
 * interface that the `Ledger` tag (`Ledger.ts`) carries. No implementation here.
 */
import type { Instruction } from "@radixdlt/radix-engine-toolkit"
import { type BigDecimal, Context, type Effect, type Option, Schema } from "effect"
import type { EntityKind } from "./address"
import type { ExecutionOutcome } from "./execute"
import type { Genesis } from "./genesis"
import { DEFAULT_DEVNET_SEED } from "./genesis"
import type { GatewayMessage, TransactionRejected } from "./transaction"

// ---------------------------------------------------------------------------------------------------------------
// Public types

export interface LedgerState {
  readonly network: string
  readonly state_version: number
  readonly proposer_round_timestamp: string
  readonly epoch: number
  readonly round: number
}

/**
 * `RoundUpdate`: the consensus round changed. On the real ledger every round change is a committed transaction
 * (`RoundUpdateV1`, a ledger transaction with its own state version; the Gateway's `/stream/transactions` lists it
 * with `kind_filter: "All"`, and with `"EpochChange"` when it ends an epoch). The devnet commits one when it sees
 * the Clock's round has moved on since the last commit, so a round jump of several rounds is one transaction.
 */
export type TransactionKind = "User" | "Genesis" | "System" | "RoundUpdate"

export interface CommittedTransaction {
  readonly stateVersion: number
  readonly epoch: number
  readonly round: number
  readonly roundTimestamp: string
  readonly kind: TransactionKind
  readonly status: "CommittedSuccess" | "CommittedFailure"
  readonly intentHash: string | undefined
  readonly payloadHash: string | undefined
  /** The fee, read from its stored text; the balance changes below keep the text the Gateway serves as it is. */
  readonly feePaid: BigDecimal.BigDecimal
  readonly errorMessage: string | undefined
  readonly manifest: string | undefined
  readonly message: GatewayMessage | undefined
  readonly rawHex: string | undefined
  readonly feeBalanceChanges: ReadonlyArray<{ entity: string; resource: string; change: string }>
  readonly balanceChanges: ReadonlyArray<{ entity: string; resource: string; change: string }>
  readonly affectedGlobalEntities: ReadonlyArray<string>
  readonly manifestClasses: ReadonlyArray<"General" | "Transfer">
  /** For a round update that ended an epoch: the epoch that began (the receipt's `next_epoch`). */
  readonly nextEpoch: number | undefined
  /** Per manifest instruction, the SBOR hex of its output (the Core API receipt's `output[].hex`). */
  readonly outputs: ReadonlyArray<string>
  /** A V2 transaction's subintents (the Gateway's `subintent_details`); absent for V1 and system transactions. */
  readonly subintentDetails?: ReadonlyArray<{
    readonly subintentHash: string
    readonly manifest: string
    readonly message: unknown
    readonly childSubintentHashes: ReadonlyArray<string>
  }>
  /** A V2 transaction's root intent's children (`subtxid_…`). */
  readonly childSubintentHashes?: ReadonlyArray<string>
}

export interface VaultBalance {
  readonly account: string
  readonly resource: string
  readonly vaultAddress: string
  readonly amount: string
  readonly lastUpdatedAtStateVersion: number
}

/** An account's holding of a resource (`/extensions/resource-holders/page`). */
export interface ResourceHolder {
  readonly account: string
  readonly amount: string
  readonly lastUpdatedAtStateVersion: number
}

export interface ResourceInfo {
  readonly address: string
  readonly symbol: string
  readonly name: string
  readonly description: string
  readonly iconUrl: string
  readonly divisibility: number
  readonly totalSupply: string
  readonly createdAtStateVersion: number
}

export interface MetadataEntry {
  readonly key: string
  readonly type: "String" | "Url" | "U8"
  readonly value: string
  readonly lastUpdatedAtStateVersion: number
}

/**
 * What the Gateway knows of a submitted payload (its `pending_transactions` row), as babylon-gateway v1.10.1 keeps
 * it: `PendingTransaction.cs` (statuses, resubmission schedule, retirement), `NodeSubmissionResult` in
 * `TransactionSubmitter.cs` (how a node's answer maps to a payload and an intent status).
 */
export type PayloadLedgerStatus =
  "Committed" | "CommitPending" | "ClashingCommit" | "PermanentlyRejected" | "TransientlyRejected"
export type IntentLedgerStatus = "Committed" | "CommitPending" | "PermanentRejection" | "LikelyButNotCertainRejection"

export interface TrackedPayload {
  readonly payloadHash: string
  readonly intentHash: string
  readonly endEpochExclusive: number
  readonly payloadStatus: PayloadLedgerStatus
  readonly intentStatus: IntentLedgerStatus
  readonly initialRejectionReason: string | undefined
  readonly latestRejectionReason: string | undefined
  /** When the Gateway submits it to the node again; undefined once it has stopped (handling status `Concluded`). */
  readonly resubmitFromMs: number | undefined
  readonly handlingStatusReason: string
  readonly submissionCount: number
  readonly firstSubmittedMs: number
}

/** Everything known of an intent: its commit, if any, and every payload of it submitted through the Gateway. */
export interface IntentStatusInfo {
  readonly committed: CommittedTransaction | undefined
  readonly payloads: ReadonlyArray<TrackedPayload>
}

export type TransactionStatusInfo =
  | { readonly _tag: "Committed"; readonly transaction: CommittedTransaction }
  | {
      readonly _tag: "Rejected"
      readonly reason: string
      readonly payloadHash: string | undefined
      readonly permanentlyRejectsAtEpoch: number | undefined
    }
  | { readonly _tag: "Unknown" }

export interface SubmitResult {
  /** The Gateway already tracked this very payload (keyed by payload hash, not intent). */
  readonly duplicate: boolean
  readonly intentHash: string
  readonly payloadHash: string
  /** The commit of this intent; undefined when another payload of the intent committed (a clashing commit). */
  readonly transaction: CommittedTransaction | undefined
}

export interface StreamQuery {
  readonly fromStateVersion?: number
  readonly atStateVersion?: number
  readonly order: "Asc" | "Desc"
  readonly kind: "User" | "EpochChange" | "All"
  readonly status: "Success" | "Failure" | "All"
  readonly withdrawnFrom: ReadonlyArray<string>
  readonly depositedInto: ReadonlyArray<string>
  readonly affected: ReadonlyArray<string>
  readonly resources: ReadonlyArray<string>
  /** Exclusive continuation point from a cursor. */
  readonly after?: number
  readonly limit: number
}

export interface NewFungibleResource {
  readonly symbol: string
  readonly name: string
  readonly divisibility: number
  readonly initialSupply: string
  readonly to: string
  readonly iconUrl?: string
  readonly description?: string
}

/** A dry run of a manifest on the current state (the Gateway's `/transaction/preview`). */
export interface PreviewRequest {
  readonly instructions: ReadonlyArray<Instruction>
  /** Accounts whose owner key is among the signers (or is the notary-as-signatory). */
  readonly signerAccounts: ReadonlyArray<string>
  /** Every account's owner role is satisfied (`assume_all_signature_proofs`, `disable_auth_checks`). */
  readonly assumeAllSignatureProofs: boolean
  /** `use_free_credit`: see `ExecutionEnv.freeCredit` for what it charges. */
  readonly useFreeCredit: boolean
  /** The intent's epoch window, checked against the current epoch; `undefined` skips the check (`skip_epoch_check`). */
  readonly epochWindow: { readonly startEpochInclusive: number; readonly endEpochExclusive: number } | undefined
}

export interface PreviewResult {
  /** The state the manifest ran on top of; a preview never changes it. */
  readonly ledgerState: LedgerState
  readonly outcome: ExecutionOutcome
}

export class LedgerError extends Schema.TaggedError<LedgerError>()("LedgerError", { message: Schema.String }) {}

// ---------------------------------------------------------------------------------------------------------------
// Configuration

export interface LedgerOptions {
  /** Directory for `ledger.sqlite`; `undefined` keeps the ledger in memory. */
  readonly dataDir: string | undefined
  readonly seed: string
  /** Start afresh: delete the data directory's ledger first. */
  readonly reset: boolean
  /** How long an epoch lasts on the Clock (default 5 minutes, as on the real network). */
  readonly epochDurationMs: number
  /** How long a consensus round lasts on the Clock (default 1 s). */
  readonly roundDurationMs: number
}

export class LedgerConfig extends Context.Tag("devnet/LedgerConfig")<LedgerConfig, LedgerOptions>() {}

export const DEFAULT_DATA_DIR = ".devnet"
export const LEDGER_FILE = "ledger.sqlite"

export const LEDGER_DEFAULTS: LedgerOptions = {
  dataDir: DEFAULT_DATA_DIR,
  seed: DEFAULT_DEVNET_SEED,
  reset: false,
  epochDurationMs: 5 * 60_000,
  roundDurationMs: 1_000
}

/** A page of `/stream/transactions`: the transactions, and where the next page continues (exclusive). */
export interface TransactionPage {
  readonly items: ReadonlyArray<CommittedTransaction>
  readonly next: number | undefined
}

/** What the devnet ledger offers: submission and preview, the Gateway's payload tracking, and reads at a version. */
export interface LedgerService {
  readonly genesis: Genesis
  readonly xrd: string
  /** The ledger state at the tip, after committing any round change the Clock has seen. */
  readonly state: Effect.Effect<LedgerState>
  /** `/transaction/submit`: see `submit.ts` for the Gateway's rules. */
  readonly submit: (notarizedTransactionHex: string) => Effect.Effect<SubmitResult, TransactionRejected>
  /** A dry run of a manifest on the current state: nothing is committed or recorded. */
  readonly preview: (request: PreviewRequest) => Effect.Effect<PreviewResult>
  /** Short form for the dashboard and tests: committed, rejected (latest rejection of any payload), or unknown. */
  readonly transactionStatus: (intentHash: string) => Effect.Effect<TransactionStatusInfo>
  readonly intentStatus: (intentHash: string) => Effect.Effect<IntentStatusInfo>
  readonly committedTransaction: (intentHash: string) => Effect.Effect<Option.Option<CommittedTransaction>>
  /** Where a subintent (`subtxid_…`) was finalized by a successful commit, if it was. */
  readonly subintentStatus: (
    subintentHash: string
  ) => Effect.Effect<Option.Option<{ readonly stateVersion: number; readonly intentHash: string }>>
  readonly transactions: (query: StreamQuery) => Effect.Effect<TransactionPage>
  /** Every vault of `account` at a state version (default: now), in resource order. */
  readonly accountVaults: (account: string, at?: number) => Effect.Effect<ReadonlyArray<VaultBalance>>
  /** The current balance of `resource` in `account` ("0" when it has no vault). */
  readonly balance: (account: string, resource: string) => Effect.Effect<string>
  /** The account and resource of a vault address. */
  readonly vaultOwner: (address: string) => Effect.Effect<Option.Option<{ account: string; resource: string }>>
  readonly resource: (address: string) => Effect.Effect<Option.Option<ResourceInfo>>
  readonly resources: Effect.Effect<ReadonlyArray<ResourceInfo>>
  /** Every account holding `resource` now, most first (no empty vaults). */
  readonly resourceHolders: (resource: string) => Effect.Effect<ReadonlyArray<ResourceHolder>>
  readonly metadata: (address: string, at?: number) => Effect.Effect<ReadonlyArray<MetadataEntry>>
  /** The ledger state as of a committed state version (none when it is not committed yet). */
  readonly ledgerStateAt: (version: number) => Effect.Effect<Option.Option<LedgerState>>
  /** Resolves a Gateway ledger state selector (timestamp, epoch, epoch + round) to a state version. */
  readonly stateVersionAt: (selector: {
    readonly timestamp?: string | undefined
    readonly epoch?: number | undefined
    readonly round?: number | undefined
  }) => Effect.Effect<Option.Option<number>>
  readonly currentStateVersion: Effect.Effect<number>
  /** Devnet administration: creates a fungible resource and mints its initial supply into an account. */
  readonly createFungibleResource: (spec: NewFungibleResource) => Effect.Effect<string, LedgerError>
  readonly entityKind: (address: string) => EntityKind | undefined
  readonly isFungibleResource: (address: string) => boolean
}
