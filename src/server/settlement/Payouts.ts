/**
 * `Payouts`: the operator's transactions on the ledger, exactly once. A new transaction is built and signed from the
 * current epoch, its intent and payload are stored (by the caller, fenced by its claim) before anything reaches the
 * ledger, then it is submitted and followed to a known outcome. Resuming never pays twice: with a stored intent, the
 * ledger is asked what became of that very intent and, if it is unknown, the same payload is resubmitted (the ledger
 * deduplicates intents); a new transaction is built only once the old one is known to be rejected.
 *
 * Liquidity in flight is reserved per payout (keyed by the record it pays: a deposit's hash today, a subintent hash
 * next) so two payouts, on any replicas, never count the same tokens; a reservation is dropped once its payout's
 * outcome is known.
 *
 * This module holds the service's Tag and interface only (`payoutsLive.ts` implements it).
 */
import { type BigDecimal, Context, type Effect, type Option } from "effect"
import type { Reserving } from "../db/reservations"
import type { SignedTransaction, TransferInput } from "../Signer"
import type { SettlementUnavailable } from "./errors"

/** What became of an intent: committed, or never to commit, or not known to the ledger. */
export type CommitOutcome = "CommittedSuccess" | "CommittedFailure" | "Rejected" | "Unknown"

/** A `CommitOutcome`, or "Pending": not known yet (resume later). */
export type LedgerOutcome = CommitOutcome | "Pending"

/** One new transaction to send. */
export interface NewTransaction {
  /** Builds and signs it valid from `epoch`. */
  readonly build: (epoch: number) => Effect.Effect<SignedTransaction, SettlementUnavailable>
  /**
   * Stores its intent and payload before anything reaches the ledger; false when the record moved on meanwhile, and
   * "short" when the store was to take the payout's reservation and the balance did not cover it (either way it is
   * then not sent).
   */
  readonly store: (signed: SignedTransaction) => Effect.Effect<boolean | "short", SettlementUnavailable>
  /** Runs once it is stored, and once it is submitted (fault points of the tests). */
  readonly afterStore?: Effect.Effect<void>
  readonly afterSubmit?: Effect.Effect<void>
}

export type SendResult =
  | { readonly outcome: LedgerOutcome; readonly intent: string }
  | { readonly outcome: "Moved" | "Short"; readonly intent: null }

export interface PayoutsShape {
  /** Asks the ledger about `intent` once. */
  readonly status: (intent: string) => Effect.Effect<LedgerOutcome, SettlementUnavailable>
  /** Polls `intent` until it is committed or rejected, for at most `commitWait`. */
  readonly awaitCommit: (intent: string) => Effect.Effect<LedgerOutcome, SettlementUnavailable>
  /** Submits a payload; a rejection at submit is reported as such (the intent can then never commit). */
  readonly submit: (hex: string) => Effect.Effect<"Submitted" | "Rejected", SettlementUnavailable>
  /** Brings a stored intent to a known outcome (resubmitting the same payload when the ledger does not know it). */
  readonly settleStored: (intent: string, hex: string) => Effect.Effect<LedgerOutcome, SettlementUnavailable>
  /** Builds, stores, submits and follows a new transaction. */
  readonly send: (transaction: NewTransaction) => Effect.Effect<SendResult, SettlementUnavailable>
  /** `build` for a transfer from the exchange account (`what` names it in errors: "payout", "refund"). */
  readonly transfer: (
    what: string,
    input: Omit<TransferInput, "epoch">
  ) => (epoch: number) => Effect.Effect<SignedTransaction, SettlementUnavailable>
  /**
   * Reserves `amount` of `resource` for the payout of `key` if the exchange's balance minus every other reservation
   * covers it (a key that already holds one keeps it); false when it does not.
   */
  readonly reserve: (
    key: string,
    resource: string,
    amount: BigDecimal.BigDecimal
  ) => Effect.Effect<boolean, SettlementUnavailable>
  /**
   * `reserve`, then `move` only when `key` holds a reservation, in one statement where the store can
   * (`Db.reserveThen`): "short" when the balance does not cover it, else what `move` returned.
   */
  readonly reserveThen: <A, E, R>(
    key: string,
    resource: string,
    amount: BigDecimal.BigDecimal,
    move: (reserving: Reserving | undefined) => Effect.Effect<Option.Option<A>, E, R>
  ) => Effect.Effect<Option.Option<A> | "short", E | SettlementUnavailable, R>
  /** Drops the reservation of `key`, if any. */
  readonly release: (key: string) => Effect.Effect<void>
}

export class Payouts extends Context.Tag("hswap/server/Payouts")<Payouts, PayoutsShape>() {}
