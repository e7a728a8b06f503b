import { Duration, Effect, Either, PubSub, Schedule, Stream, SubscriptionRef } from "effect"
import { useMemo, useState } from "react"
import type { TransactionRecord } from "../../../../exchange/api"
import { ExchangeApi, type ExchangeServiceError } from "../../../../exchange/ExchangeApi"
import { useFork, useStream } from "../../../runtime/app-runtime"
import { Button, Card, Spinner } from "../../../ui/kit"
import { ExchangeDetailsDialog } from "../dialogs/ExchangeDetailsDialog"
import { SwapEvents } from "../SwapEvents"
import { useNow } from "./now"
import { TransactionList } from "./TransactionRow"

/** Spec §2: the last 10 transactions of the exchange. */
export const NETWORK_ACTIVITY_SIZE = 10

/**
 * How often the list reloads while it is on screen: the swap card's own data period (spec §9: liquidity re-fetch
 * 30 s). Loaded once, the list never changed: 8 minutes after a swap it still said 'No recent transactions'.
 */
export const NETWORK_ACTIVITY_REFRESH = Duration.seconds(30)

/** `GET {api}/api/transactions/latest`, the first 10 (spec §7). */
export const latestTransactions = Effect.flatMap(ExchangeApi, (api) => api.latestTransactions).pipe(
  Effect.map((records) => records.slice(0, NETWORK_ACTIVITY_SIZE)),
  Effect.tapError((e) => Effect.logWarning("Failed to load transactions", e))
)

/** What 'Network Activity' shows. */
export type NetworkActivityView =
  | { readonly _tag: "Loading" }
  | { readonly _tag: "Failure"; readonly error: ExchangeServiceError }
  | {
      readonly _tag: "Success"
      readonly transactions: ReadonlyArray<TransactionRecord>
      /** A reload is under way; the list stays on screen meanwhile. */
      readonly refreshing: boolean
    }

/**
 * The exchange's latest transactions: loaded when subscribed, again every 30 s (Effect's Clock), on each `refreshes`
 * element (the Refresh button) and after each swap published on `SwapEvents.submitted` (the user's own, once the
 * card's tracking is done, so the list shows it). A newer trigger interrupts the load under way. A reload that fails
 * while a list is shown keeps the list (the failure is logged); with no list yet it shows the failure.
 */
export const networkActivityFeed = (
  refreshes: Stream.Stream<void>
): Stream.Stream<NetworkActivityView, never, ExchangeApi | SwapEvents> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const events = yield* SwapEvents
      const state = yield* SubscriptionRef.make<NetworkActivityView>({ _tag: "Loading" })
      const load = Effect.gen(function* () {
        yield* SubscriptionRef.update(state, (s): NetworkActivityView =>
          s._tag === "Success" ? { ...s, refreshing: true } : { _tag: "Loading" }
        )
        const result = yield* Effect.either(latestTransactions)
        yield* SubscriptionRef.update(state, (s) =>
          Either.match(result, {
            onLeft: (error): NetworkActivityView =>
              s._tag === "Success" ? { ...s, refreshing: false } : { _tag: "Failure", error },
            onRight: (transactions): NetworkActivityView => ({ _tag: "Success", transactions, refreshing: false })
          })
        )
      })
      const triggers: Stream.Stream<unknown> = Stream.mergeAll(
        [
          Stream.succeed(undefined),
          Stream.fromSchedule(Schedule.spaced(NETWORK_ACTIVITY_REFRESH)),
          refreshes,
          events.submitted
        ],
        { concurrency: "unbounded" }
      )
      yield* triggers.pipe(
        Stream.flatMap(() => Stream.fromEffect(load), { switch: true }),
        Stream.runDrain,
        Effect.forkScoped
      )
      return state.changes
    })
  )

/** 'Network Activity': the exchange's latest swaps, for everyone (spec §2, §6, §8). */
export function NetworkActivity() {
  const fork = useFork()
  const [refreshes] = useState(() => Effect.runSync(PubSub.unbounded<void>()))
  const feed = useMemo(() => networkActivityFeed(Stream.fromPubSub(refreshes)), [refreshes])
  const view = useStream(feed, { _tag: "Loading" } as NetworkActivityView)
  const now = useNow()
  const [selected, setSelected] = useState<TransactionRecord | undefined>(undefined)
  const busy = view._tag === "Loading" || (view._tag === "Success" && view.refreshing)
  return (
    <Card testId="network-activity">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Network Activity</h2>
        <Button
          variant="ghost"
          className="px-2 py-1 text-xs"
          aria-busy={busy}
          onClick={() => fork(PubSub.publish(refreshes, undefined))}
        >
          Refresh
        </Button>
      </div>
      {view._tag === "Loading" ? (
        <Spinner label="Loading transactions..." />
      ) : view._tag === "Failure" ? (
        <p role="alert" className="text-sm text-danger">
          Failed to load transactions
        </p>
      ) : view.transactions.length === 0 ? (
        <p className="text-sm text-muted">No recent transactions</p>
      ) : (
        <TransactionList records={view.transactions} now={now} onSelect={setSelected} />
      )}
      <ExchangeDetailsDialog record={selected} onClose={() => setSelected(undefined)} />
    </Card>
  )
}
