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

  const poll: Schedule.Schedule<number, LedgerOutcome> = Schedule.spaced("500 millis").pipe(
    Schedule.upTo(config.commitWait)
  )
  const awaitCommit = (intent: string) =>
    status(intent).pipe(
      Effect.repeat({
        schedule: Schedule.passthrough(poll),
        until: (s) => s !== "Pending" && s !== "Unknown"
      })
    )

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
      const outcome = yield* awaitCommit(signed.intentHash)
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
