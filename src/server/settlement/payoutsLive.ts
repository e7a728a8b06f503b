/** The `Payouts` service over the Gateway, the `Signer` and the reservations in `Db` (see `Payouts.ts`). */
import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { Gateway } from "../../gateway/index"
import { ServerConfig } from "../config"
import { Db } from "../Db"
import { resourceBalance } from "../ledger"
import { Signer, type TransferInput } from "../Signer"
import { type SettlementUnavailable, unavailable } from "./errors"
import { type LedgerOutcome, type NewTransaction, Payouts } from "./Payouts"

/** How long the epoch read for one payout is reused for the next (see `currentEpoch`). */
export const EPOCH_REUSE = Duration.seconds(10)

/** Time between status reads of a transaction not committed yet. */
export const STATUS_POLL = Duration.millis(500)

/**
 * A new transaction's first status read waits this share of the time the last ones took to commit (a little less
 * than the ledger's usual time, so that a faster ledger is noticed), never more than `FIRST_READ_MAX`, and not at
 * all when that is under `FIRST_READ_MIN` (a ledger that commits as it is submitted, like the devnet).
 */
export const FIRST_READ_SHARE = 0.75
export const FIRST_READ_MIN = Duration.millis(50)
export const FIRST_READ_MAX = Duration.seconds(5)
/** The weight of the newest commit time in the running estimate (an exponentially weighted mean). */
export const COMMIT_TIME_WEIGHT = 0.25

export const makePayouts = Effect.gen(function* () {
  const config = yield* ServerConfig
  const gateway = yield* Gateway
  const db = yield* Db
  const signer = yield* Signer

  const status = (intent: string): Effect.Effect<LedgerOutcome, SettlementUnavailable> =>
    gateway.transaction.status(intent).pipe(
      Effect.mapError(unavailable("transaction status")),
      Effect.map((s) =>
        s.intent_status === "CommittedSuccess" || s.intent_status === "CommittedFailure"
          ? s.intent_status
          : s.intent_status === "PermanentlyRejected"
            ? "Rejected"
            : s.intent_status === "Unknown"
              ? "Unknown"
              : "Pending"
      )
    )

  const poll: Schedule.Schedule<number, LedgerOutcome> = Schedule.spaced(STATUS_POLL).pipe(
    Schedule.upTo(config.commitWait)
  )
  /** Repeats a status read every `STATUS_POLL` until it is final, for at most `commitWait`. */
  const followed = (read: Effect.Effect<LedgerOutcome, SettlementUnavailable>) =>
    read.pipe(
      Effect.repeat({
        schedule: Schedule.passthrough(poll),
        until: (s) => s !== "Pending" && s !== "Unknown"
      })
    )
  const awaitCommit = (intent: string) => followed(status(intent))

  const submit = (hex: string) =>
    gateway.transaction.submit(hex).pipe(
      Effect.as("Submitted" as const),
      Effect.catchTag("GatewayResponseError", (e) =>
        e.status === 400 ? Effect.succeed("Rejected" as const) : Effect.fail(unavailable("submit")(e))
      ),
      Effect.mapError(unavailable("submit"))
    )

  const settleStored = (intent: string, hex: string) =>
    Effect.gen(function* () {
      const outcome = yield* status(intent)
      if (outcome === "CommittedSuccess" || outcome === "CommittedFailure" || outcome === "Rejected") return outcome
      if (outcome === "Unknown") {
        const submitted = yield* submit(hex)
        if (submitted === "Rejected") {
          // The payload was refused; confirm the ledger does not hold the intent before calling it rejected.
          const after = yield* status(intent)
          return after === "Unknown" ? ("Rejected" as const) : after
        }
      }
      return yield* awaitCommit(intent)
    })

  /**
   * The epoch a new transaction starts from. An epoch lasts minutes and a payout stays valid for `payoutEpochWindow`
   * epochs from its start, so the epoch read is reused for `EPOCH_REUSE` (one gateway read fewer per payout); it is
   * read afresh after a submit the ledger rejected.
   */
  let epochRead: { readonly epoch: number; readonly at: number } | undefined
  const currentEpoch = Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    if (epochRead !== undefined && now - epochRead.at < Duration.toMillis(EPOCH_REUSE)) return epochRead.epoch
    const epoch = yield* gateway.transaction.construction().pipe(
      Effect.map((r) => r.ledger_state.epoch),
      Effect.mapError(unavailable("construction"))
    )
    epochRead = { epoch, at: now }
    return epoch
  })

  /**
   * When, after its submit, a status read of this replica's transactions found them committed, lately: an
   * exponentially weighted mean in milliseconds. A ledger commits in rounds, a second or more apart on the public
   * networks, so a read right after the submit only learns that it is pending: a new transaction's first read waits
   * for most of that time (`FIRST_READ_SHARE`), and a read or two find it committed where one every `STATUS_POLL`
   * from the submit took several. The time counted is when the finding read started, so that a wait of ours is not
   * taken for the ledger's: a transaction found at once pulls the mean down (to nothing on a ledger that commits
   * as it is submitted, as the devnet does).
   */
  let commitMs = 0
  const awaitNewCommit = (intent: string) =>
    Effect.gen(function* () {
      const submitted = yield* Clock.currentTimeMillis
      const wait = Math.min(Duration.toMillis(FIRST_READ_MAX), commitMs * FIRST_READ_SHARE)
      if (wait >= Duration.toMillis(FIRST_READ_MIN)) yield* Effect.sleep(Duration.millis(Math.round(wait)))
      let readAt = submitted
      const outcome = yield* followed(
        Effect.zipRight(
          Effect.map(Clock.currentTimeMillis, (now) => void (readAt = now)),
          status(intent)
        )
      )
      if (outcome === "CommittedSuccess" || outcome === "CommittedFailure")
        commitMs += COMMIT_TIME_WEIGHT * (readAt - submitted - commitMs)
      return outcome
    })

  const send = (transaction: NewTransaction) =>
    Effect.gen(function* () {
      const epoch = yield* currentEpoch
      const signed = yield* transaction.build(epoch)
      // Persist the intent and its payload before anything reaches the ledger.
      const stored = yield* transaction.store(signed)
      if (stored !== true) return { outcome: stored === "short" ? "Short" : "Moved", intent: null } as const
      if (transaction.afterStore !== undefined) yield* transaction.afterStore
      const submitted = yield* submit(signed.notarizedTransactionHex)
      if (transaction.afterSubmit !== undefined) yield* transaction.afterSubmit
      if (submitted === "Rejected") {
        epochRead = undefined
        return { outcome: "Rejected", intent: signed.intentHash } as const
      }
      const outcome = yield* awaitNewCommit(signed.intentHash)
      return { outcome, intent: signed.intentHash } as const
    })

  const transfer = (what: string, input: Omit<TransferInput, "epoch">) => (epoch: number) =>
    signer.transfer({ ...input, epoch }).pipe(Effect.mapError(unavailable(`signing the ${what}`)))

  const balanceOf = (resource: string) =>
    resourceBalance(gateway, config.exchangeAccount, resource).pipe(Effect.mapError(unavailable("exchange balances")))

  return Payouts.of({
    status,
    awaitCommit,
    submit,
    settleStored,
    send,
    transfer,
    reserve: (key, resource, amount) => db.reserve(key, resource, amount, balanceOf(resource)),
    reserveThen: (key, resource, amount, move) => db.reserveThen(key, resource, amount, balanceOf(resource), move),
    release: db.release
  })
})

export const PayoutsLive: Layer.Layer<Payouts, never, ServerConfig | Gateway | Db | Signer> = Layer.effect(
  Payouts,
  makePayouts
)
