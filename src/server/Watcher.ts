/**
 * The watcher: follows `/stream/transactions` for successful user transactions that deposit into the exchange
 * account, from the last state version it has seen (kept in the database), and settles each one, registered or
 * not (the spec's 'tracking fails but the swap succeeds' case), up to `WATCHER_CONCURRENCY` at once, leaving out
 * those already final or held by a live claim (one read a page). Each pass first
 * resumes unfinished swaps, and takes over atomic swaps whose replica stopped mid-way (when the server offers them).
 * An atomic swap's own transaction deposits into the exchange account too, but it is no deposit (`depositOf`), so
 * settlement leaves it alone. Passes run every `watcherPollInterval` on the Clock.
 *
 * A pass that reached the ledger tip then prunes unclaimed quotes that expired over an hour before the earlier of now
 * and the tip's round time: every deposit committed before the tip has been recorded (with its quote) by then, so
 * no deposit that could still claim a quote loses it.
 *
 * Exactly one replica of a database watches at a time: before each pass it takes or renews the `watcher` lease
 * (`watcherLease`, renewed every third of it during a long pass); the others skip their passes while it is held, and
 * one of them takes over within a lease and a poll interval of the watcher dying. A replica shutting down gives the
 * lease up at once.
 */
import { Clock, Duration, Effect, Fiber, Layer, Option, Schedule } from "effect"
import { Gateway } from "../gateway/index"
import { AtomicSwaps } from "./atomic/AtomicSwaps"
import { ServerConfig } from "./config"
import { Db } from "./Db"
import { Quotes } from "./Quotes"
import { Settlement } from "./Settlement"

export const WATCHER_POSITION_KEY = "watcher_state_version"

/** The name of the watcher's lease in `leases`. */
export const WATCHER_LEASE = "watcher"

const PAGE = 100

/** Deposits of one page the watcher settles at once. */
export const WATCHER_CONCURRENCY = 16

/** One pass: resume, then settle every new deposit up to the current ledger tip. Returns the deposits seen. */
export const watchPass = Effect.gen(function* () {
  const config = yield* ServerConfig
  const gateway = yield* Gateway
  const db = yield* Db
  const settlement = yield* Settlement
  const quotes = yield* Quotes

  yield* settlement.resumeUnfinished
  const atomic = yield* Effect.serviceOption(AtomicSwaps)
  if (Option.isSome(atomic)) yield* atomic.value.resumeUnfinished
  const tipState = (yield* gateway.status.gatewayStatus()).ledger_state
  const tip = tipState.state_version
  const stored = yield* db.getKv(WATCHER_POSITION_KEY)
  let last: number
  if (Option.isSome(stored) && Number(stored.value) <= tip) {
    last = Number(stored.value)
  } else {
    if (Option.isSome(stored)) {
      yield* Effect.logWarning(
        `watcher: stored position ${stored.value} is beyond the ledger tip ${tip} (a new ledger?)`
      )
    }
    last = config.watchFromStateVersion === undefined ? tip : Math.max(0, config.watchFromStateVersion - 1)
    yield* db.setKv(WATCHER_POSITION_KEY, String(last))
  }
  let seen = 0
  let cursor: string | undefined
  while (last < tip) {
    const page = yield* gateway.stream.transactions({
      from_ledger_state: { state_version: last + 1 },
      at_ledger_state: { state_version: tip },
      order: "Asc",
      kind_filter: "User",
      transaction_status_filter: "Success",
      manifest_accounts_deposited_into_filter: [config.exchangeAccount],
      limit_per_page: PAGE,
      ...(cursor === undefined ? {} : { cursor })
    })
    // The page's deposits are settled side by side (each exactly once, whoever else settles it); the position moves
    // past the page once all of them are done, so a pass cut short sees the page again (and finds them settled).
    const deposits = page.items.flatMap((item) => (item.intent_hash === undefined ? [] : [item.intent_hash]))
    seen += deposits.length
    // Deposits registered with a replica are mostly settled, or being settled, by the time a pass sees them: one
    // read finds those, and only the rest (never registered, or left by a holder that stopped) are settled here.
    const done = yield* db.settledOrHeld(deposits, yield* Clock.currentTimeMillis)
    yield* Effect.forEach(
      deposits.filter((hash) => !done.has(hash)),
      (hash) =>
        settlement.settle(hash).pipe(
          Effect.catchTags({
            SwapRefused: (e) => Effect.logDebug(`watcher: ${hash} is not a swap: ${e.reason}`),
            SwapNotFound: (e) => Effect.logWarning(`watcher: ${e.message}`)
          })
        ),
      { concurrency: WATCHER_CONCURRENCY, discard: true }
    )
    const lastItem = page.items[page.items.length - 1]
    if (lastItem !== undefined) yield* db.setKv(WATCHER_POSITION_KEY, String(lastItem.state_version))
    cursor = page.next_cursor
    if (cursor === undefined) {
      last = tip
      yield* db.setKv(WATCHER_POSITION_KEY, String(tip))
    }
  }
  const tipMs = Date.parse(tipState.proposer_round_timestamp)
  if (Number.isFinite(tipMs)) {
    yield* quotes.prune(Math.min(yield* Clock.currentTimeMillis, tipMs))
  } else {
    yield* Effect.logWarning(
      `watcher: the ledger tip's round time ${JSON.stringify(tipState.proposer_round_timestamp)} does not parse; quotes are not pruned this pass`
    )
  }
  return seen
}).pipe(Effect.withSpan("Watcher.pass"))

export class Watcher {
  /** Runs passes forever in the layer's scope; a failed pass is logged and retried on the next tick. */
  static readonly layer: Layer.Layer<never, never, ServerConfig | Gateway | Db | Quotes | Settlement> =
    Layer.scopedDiscard(
      Effect.gen(function* () {
        const config = yield* ServerConfig
        const db = yield* Db
        const leaseMs = Duration.toMillis(config.watcherLease)
        const holder = config.replicaId
        const takeLease = Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          return yield* db.acquireLease(WATCHER_LEASE, holder, now, now + leaseMs)
        })
        const renewing = Effect.repeat(takeLease, {
          schedule: Schedule.spaced(Duration.millis(Math.max(1, Math.floor(leaseMs / 3)))),
          while: (held) => held
        }).pipe(Effect.delay(Duration.millis(Math.floor(leaseMs / 3))))
        let watching = false
        const tick = Effect.gen(function* () {
          const held = yield* takeLease
          if (held !== watching) {
            watching = held
            yield* Effect.logInfo(
              held ? `watcher: ${holder} follows the ledger` : `watcher: another replica follows the ledger`
            )
          }
          if (!held) return
          // A pass that loses its lease midway is not interrupted (that would cancel queries in flight): it finishes,
          // settling exactly once as ever, and the next tick finds the lease taken.
          const renewal = yield* Effect.fork(
            Effect.zipRight(
              renewing,
              Effect.logWarning("watcher: the lease was lost during a pass; it ends after this pass")
            )
          )
          yield* Effect.ensuring(watchPass, Fiber.interrupt(renewal))
        }).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("watcher pass failed; retrying on the next tick", cause))
        )
        yield* Effect.addFinalizer(() =>
          db
            .releaseLease(WATCHER_LEASE, holder)
            .pipe(Effect.catchAllCause((c) => Effect.logWarning("watcher: lease not released", c)))
        )
        yield* Effect.forkScoped(Effect.forever(Effect.zipRight(tick, Effect.sleep(config.watcherPollInterval))))
      })
    )
}
