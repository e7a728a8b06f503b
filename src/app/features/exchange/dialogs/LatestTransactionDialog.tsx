import { Duration, Effect, Either, Stream, SubscriptionRef } from "effect"
import { useState } from "react"
import type { TransactionRecord } from "../../../../exchange/api"
import { ExchangeApi } from "../../../../exchange/ExchangeApi"
import { useAppConfig } from "../../../config/useAppConfig"
import { useStream } from "../../../runtime/app-runtime"
import { Dialog } from "../../../ui/Dialog"
import { Spinner } from "../../../ui/kit"
import { statusTone } from "../panels/TransactionRow"
import { SwapEvents, type SwapSubmitted } from "../SwapEvents"
import { LiveTransactionCard } from "./TransactionCard"

/** What the dialog knows of the latest swap: what was signed, and the exchange's record once it has one. */
export interface LatestSwap {
  readonly submitted: SwapSubmitted
  readonly record: TransactionRecord | undefined
  /** Still asking the exchange for the record. */
  readonly checking: boolean
}

/** Spec §7's tracking policy: `transactions/{account}` up to 3 times, 5 s apart. */
export const LATEST_ATTEMPTS = 3
export const LATEST_SPACING = Duration.seconds(5)

/**
 * Asks for the record of `submitted.txHash` up to 3 times, 5 s apart, stopping early once it is final (and not at all
 * when the swap card's tracking already saw it final). A failed call only costs an attempt: what was signed stays on
 * screen.
 */
const track = (submitted: SwapSubmitted): Stream.Stream<LatestSwap, never, ExchangeApi> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const api = yield* ExchangeApi
      // The swap card's tracking may already have read the record: a final one needs no lookup at all.
      const known = submitted.seen?.find((r) => r.tx_in === submitted.txHash)
      const final = known !== undefined && statusTone(known.status) !== "pending"
      const state = yield* SubscriptionRef.make<LatestSwap>({ submitted, record: known, checking: !final })
      const poll = Effect.gen(function* () {
        if (final) return
        // A pending record was read just now: the next look is one spacing away.
        if (known !== undefined) yield* Effect.sleep(LATEST_SPACING)
        for (let attempt = 1; attempt <= LATEST_ATTEMPTS; attempt++) {
          const result = yield* Effect.either(api.transactions(submitted.account))
          if (Either.isLeft(result)) yield* Effect.logWarning("latest transaction: lookup failed", result.left)
          const record = Either.isRight(result) ? result.right.find((r) => r.tx_in === submitted.txHash) : undefined
          if (record !== undefined) yield* SubscriptionRef.update(state, (s) => ({ ...s, record }))
          if (record !== undefined && statusTone(record.status) !== "pending") break
          if (attempt < LATEST_ATTEMPTS) yield* Effect.sleep(LATEST_SPACING)
        }
      }).pipe(Effect.ensuring(SubscriptionRef.update(state, (s) => ({ ...s, checking: false }))))
      yield* Effect.forkScoped(poll)
      return state.changes
    })
  )

/** Every submitted swap, followed until its record is known; a newer swap replaces the one followed. */
export const latestSwapStream: Stream.Stream<LatestSwap, never, ExchangeApi | SwapEvents> = Stream.unwrap(
  Effect.map(SwapEvents, (events) => events.submitted.pipe(Stream.flatMap(track, { switch: true })))
)

/** What was signed, as a record: pending, to the exchange account, the hash as the deposit transaction. */
export const submittedRecord = (s: SwapSubmitted, exchangeAccount: string): TransactionRecord => ({
  from: s.account,
  to: exchangeAccount,
  asset_in: s.from,
  asset_out: s.to,
  amount_in: s.amountIn,
  tx_in: s.txHash,
  status: "pending"
})

/**
 * 'Latest Transaction' (spec §2): opens by itself when a swap is submitted, shows the exchange's record for its hash
 * once there is one, else what was signed with status pending. Closing it keeps it closed until the next swap.
 */
export function LatestTransactionDialog() {
  const config = useAppConfig()
  const latest = useStream(latestSwapStream, undefined)
  const [dismissed, setDismissed] = useState<string | undefined>(undefined)
  const open = latest !== undefined && latest.submitted.txHash !== dismissed
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && latest !== undefined) setDismissed(latest.submitted.txHash)
      }}
      title="Latest Transaction"
      description="Your swap was signed and sent to the exchange."
      testId="latest-transaction-dialog"
    >
      {latest !== undefined && (
        <div className="space-y-3">
          {latest.record === undefined && latest.checking && <Spinner label="Waiting for the exchange's record..." />}
          <LiveTransactionCard record={latest.record ?? submittedRecord(latest.submitted, config.exchangeAccount)} />
        </div>
      )}
    </Dialog>
  )
}
