/**
 * `Settlement`: exactly-once payouts for swap deposits (the Tag and its interface; `settlement/live.ts` composes it from
 * the decision rules `settlement/rules.ts`, the claims `settlement/Claims.ts` and the payouts `settlement/Payouts.ts`).
 *
 * A swap is keyed by its deposit's intent hash (`tx_in`, unique in the database) and moves through
 *
 *     received → paying → completed
 *                       ↘ failed → refunding → refunded
 *
 * Each state is persisted before the ledger action it leads to; a payout's (or refund's) notarized transaction and
 * intent hash are stored before it is submitted (a new payout's in the very write that moves the swap to `paying`).
 * Resuming a swap therefore never pays twice: with a stored intent, the server asks the ledger what became of that
 * very intent and, if it is unknown, resubmits the same payload (the ledger deduplicates intents); it builds a new
 * transaction only once the old one is known to be rejected.
 *
 * Across replicas of one database, a swap is worked on by one replica at a time: it claims the swap in the database
 * (a token and an expiry, `claimLease`, renewed every third of it while it works) and every transition it makes is
 * fenced by that token, so once the claim expired and another replica took the swap over, the old one can no longer
 * store anything (and a payout it had already stored is the very intent the new one settles). Within one process,
 * work on one hash is also serialized (a lock per hash, so different swaps never wait on each other). A deposit seen
 * for the first time is recorded and claimed in one write. A registration that finds the swap claimed elsewhere waits
 * for that replica's outcome (or for its claim to expire). Payouts of different swaps run concurrently; liquidity in
 * flight is reserved as rows (`Db.reserve`), so two payouts, on any replicas, never count the same tokens; a
 * reservation is dropped once its payout's outcome is known.
 *
 * A deposit whose message names a binding quote (`Quotes`) is settled at the quote: refunded when the reference is
 * forged or altered, unknown, for another pair, already claimed by another deposit, or the amount is outside the
 * quote's limits; paid exactly what the quote promised when the ledger committed it at or before the quote's expiry
 * (no price is read); after the expiry, paid today's payout if that is at least the quote's minimum received, else
 * refunded. Time is judged by the deposit's commit time on the ledger, never by when settlement runs, so a swap
 * resumed after a restart is settled as it would have been at once. A deposit without a quote is settled at the
 * prices read when it is decided.
 */
import { Context, type Effect, type Option } from "effect"
import type { SwapRow } from "./Db"
import type { SettlementError } from "./settlement/errors"

export {
  IN_MAINTENANCE,
  LOW_LIQUIDITY,
  SettlementUnavailable,
  SwapNotFound,
  SwapRefused,
  unsupportedToken
} from "./settlement/errors"
export type { SettlementError } from "./settlement/errors"

/** Swaps `resumeUnfinished` settles at once. */
export const RESUME_CONCURRENCY = 16

export interface SettlementShape {
  /** Settles one deposit as far as it can go now; a swap another replica holds is left to it. */
  readonly settle: (txHash: string) => Effect.Effect<SwapRow, SettlementError>
  /**
   * Registration from the API: settlement runs in the server's scope (it goes on if the caller leaves); the caller
   * waits for it up to `registrationWait` and gets the row, or none when it is still running.
   */
  readonly register: (txHash: string) => Effect.Effect<Option.Option<SwapRow>, SettlementError>
  /** Resumes every swap that is not final and not held by a live claim; how many there were. */
  readonly resumeUnfinished: Effect.Effect<number>
  /**
   * For a replica that is stopping: interrupts the registrations' settlements, which gives their claims up (another
   * replica takes those swaps at once instead of after the lease); their callers get none (still in progress). Later
   * registrations and resumes start nothing.
   */
  readonly stop: Effect.Effect<void>
}

export class Settlement extends Context.Tag("hswap/server/Settlement")<Settlement, SettlementShape>() {}
