import { Effect, Either, PubSub, Stream, SubscriptionRef } from "effect"
import { useMemo, useState } from "react"
import type { TransactionRecord } from "../../../../exchange/api"
import { ExchangeApi, type ExchangeServiceError } from "../../../../exchange/ExchangeApi"
import { useFork, useStream } from "../../../runtime/app-runtime"
import { type SessionState, WalletSession } from "../../../services/WalletSession"
import { Button, Card, Spinner } from "../../../ui/kit"
import { ExchangeDetailsDialog } from "../dialogs/ExchangeDetailsDialog"
import { SwapEvents } from "../SwapEvents"
import { useNow } from "./now"
import { TransactionList } from "./TransactionRow"

/** What 'Your Transactions' shows for one account. */
export type AccountTransactions =
  | { readonly _tag: "Loading" }
  | { readonly _tag: "Failure"; readonly error: ExchangeServiceError }
  | {
      readonly _tag: "Success"
      readonly transactions: ReadonlyArray<TransactionRecord>
      /** A reload is under way; the previous list stays on screen meanwhile. */
      readonly refreshing: boolean
    }

type Trigger =
  { readonly _tag: "Load" } | { readonly _tag: "Swap"; readonly seen: ReadonlyArray<TransactionRecord> | undefined }

/**
 * `GET {api}/api/transactions/{account}` when subscribed, on each `refreshes` element, and after each swap of this
 * account published on `SwapEvents.submitted`. A newer trigger interrupts the load under way.
 */
export const accountTransactionsFeed = (
  account: string,
  refreshes: Stream.Stream<void>
): Stream.Stream<AccountTransactions, never, ExchangeApi | SwapEvents> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const api = yield* ExchangeApi
      const events = yield* SwapEvents
      const state = yield* SubscriptionRef.make<AccountTransactions>({ _tag: "Loading" })

      const load = Effect.gen(function* () {
        yield* SubscriptionRef.update(state, (s): AccountTransactions =>
          s._tag === "Success" ? { ...s, refreshing: true } : { _tag: "Loading" }
        )
        const result = yield* Effect.either(api.transactions(account))
        yield* SubscriptionRef.set(
          state,
          Either.match(result, {
            onLeft: (error): AccountTransactions => ({ _tag: "Failure", error }),
            onRight: (transactions): AccountTransactions => ({ _tag: "Success", transactions, refreshing: false })
          })
        )
        if (Either.isLeft(result)) yield* Effect.logWarning("Failed to load wallet transactions", result.left)
      })

      // After a swap: the list the swap card's tracking read (it polled up to 3 times, spec §7); one reload only
      // when none of its reads succeeded.
      const afterSwap = (seen: ReadonlyArray<TransactionRecord> | undefined) =>
        seen === undefined
          ? load
          : SubscriptionRef.set(state, { _tag: "Success", transactions: seen, refreshing: false })

      const triggers: Stream.Stream<Trigger> = Stream.mergeAll(
        [
          Stream.succeed<Trigger>({ _tag: "Load" }),
          Stream.map(refreshes, (): Trigger => ({ _tag: "Load" })),
          events.submitted.pipe(
            Stream.filter((e) => e.account === account),
            Stream.map((e): Trigger => ({ _tag: "Swap", seen: e.seen }))
          )
        ],
        { concurrency: "unbounded" }
      )
      yield* triggers.pipe(
        Stream.flatMap((t) => Stream.fromEffect(t._tag === "Load" ? load : afterSwap(t.seen)), {
          switch: true
        }),
        Stream.runDrain,
        Effect.forkScoped
      )
      return state.changes
    })
  )

const sessionStream = Stream.unwrap(
  Effect.map(WalletSession, (w) => w.session as Stream.Stream<SessionState | undefined>)
)

type View = { readonly account: string; readonly view: AccountTransactions }

/** 'Your Transactions' for the selected account (spec §2, §7, §8). */
export function YourTransactions() {
  const session = useStream(sessionStream, undefined)
  const account = session?.selected
  const fork = useFork()
  const [refreshes] = useState(() => Effect.runSync(PubSub.unbounded<void>()))
  const feed = useMemo(
    (): Stream.Stream<View | undefined, never, ExchangeApi | SwapEvents> =>
      account === undefined
        ? Stream.make(undefined)
        : Stream.map(accountTransactionsFeed(account, Stream.fromPubSub(refreshes)), (view) => ({ account, view })),
    [account, refreshes]
  )
  const current = useStream(feed, undefined)
  // Until the new account's feed answers, the previous account's list must not show.
  const view: AccountTransactions | undefined =
    account === undefined ? undefined : current?.account === account ? current.view : { _tag: "Loading" }
  const now = useNow()
  const [selected, setSelected] = useState<TransactionRecord | undefined>(undefined)
  const busy = view !== undefined && (view._tag === "Loading" || (view._tag === "Success" && view.refreshing))

  return (
    <Card testId="your-transactions">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Your Transactions</h2>
        <Button
          variant="ghost"
          className="px-2 py-1 text-xs"
          disabled={account === undefined}
          aria-busy={busy}
          onClick={() => fork(PubSub.publish(refreshes, undefined))}
        >
          Refresh
        </Button>
      </div>
      {session === undefined ? (
        <Spinner label="Loading..." />
      ) : account === undefined ? (
        <p className="text-sm text-muted">Connect wallet to view your transactions</p>
      ) : view === undefined || view._tag === "Loading" ? (
        <Spinner label="Loading transactions..." />
      ) : view._tag === "Failure" ? (
        <p role="alert" className="text-sm text-danger">
          Failed to load wallet transactions
        </p>
      ) : view.transactions.length === 0 ? (
        <p className="text-sm text-muted">No transactions found for this account</p>
      ) : (
        <div className="max-h-[28rem] overflow-y-auto pr-1">
          <TransactionList records={view.transactions} now={now} onSelect={setSelected} />
        </div>
      )}
      <ExchangeDetailsDialog record={selected} onClose={() => setSelected(undefined)} />
    </Card>
  )
}
