/**
 * The `swaps` repository: a swap deposit and its settlement state, keyed by the deposit's intent hash (`tx_in`).
 *
 * Every state change is a compare-and-set (`UPDATE … WHERE state = expected … RETURNING`), so two fibers (or two
 * processes on one database) can never both move a swap forward from the same state; each appends its `swap_events`
 * entry in the same atomic step (`Dialect.logged`) and returns the row it wrote, so settling a swap reads a row again
 * only when another writer got there first.
 *
 * A swap is worked on under a claim: `claimed_by` (a token unique to one claim) and `claimed_until` (epoch ms), set
 * by a compare-and-set that succeeds only when the swap is not final and unclaimed or its claim expired (or by the
 * insertion of a deposit seen for the first time). Transitions made under a claim carry its token and fail once
 * another replica took the swap over (fencing); the transition to a final state clears the claim.
 */
import type { SqlClient } from "@effect/sql"
import type { Row } from "@effect/sql/SqlConnection"
import { Clock, Effect, Option, Schema } from "effect"
import { SignedDecimalText } from "../../lib/decimalText"
import type { Dialect } from "./dialect"
import type { Reserving } from "./reservations"
import { type NewSwap, type SwapChanges, SwapRow, type SwapState, TERMINAL_STATES } from "./rows"

const decodeRows = Schema.decodeUnknown(Schema.Array(SwapRow))

const Totals = Schema.Struct({ n: Schema.Number, users: Schema.Number })

export const makeSwaps = (sql: SqlClient.SqlClient, dialect: Dialect) => {
  const insertionOrder = sql.literal(dialect.insertionOrder)
  const rows = (q: Effect.Effect<ReadonlyArray<unknown>, unknown>) => q.pipe(Effect.flatMap(decodeRows), Effect.orDie)

  const get = Effect.fn("Db.get")(function* (txIn: string) {
    const found = yield* rows(sql`SELECT * FROM swaps WHERE tx_in = ${txIn}`)
    return Option.fromNullable(found[0])
  })

  /**
   * Inserts a received swap unless the hash is known; the stored row either way, and whether this call inserted it.
   * With `claim`, a swap it inserts is claimed at once by that token (one write instead of two).
   */
  const insertReceived = Effect.fn("Db.insertReceived")(function* (
    swap: NewSwap,
    claim?: { readonly token: string; readonly untilMs: number }
  ) {
    const now = yield* Clock.currentTimeMillis
    const inserted = yield* dialect
      .logged(
        sql,
        sql<Row>`INSERT INTO swaps ${sql.insert({
          ...swap,
          state: "received",
          refund_attempts: 0,
          created_ms: now,
          updated_ms: now,
          ...(claim === undefined ? {} : { claimed_by: claim.token, claimed_until: claim.untilMs })
        })} ON CONFLICT DO NOTHING RETURNING *`,
        { state: "received", at: now, detail: null }
      )
      .pipe(Effect.flatMap(decodeRows), Effect.orDie)
    const row = inserted[0]
    if (row !== undefined) return { row, inserted: true } as const
    return { row: Option.getOrThrow(yield* get(swap.tx_in)), inserted: false } as const
  })

  /**
   * Moves a swap from `from` to `to` with `changes`, only if it is still in `from` and, when `claim` is given, still
   * held under that claim. Returns the new row, or none when another writer got there first. With
   * `releaseReservation`, the swap's liquidity reservation is dropped in the same atomic step (whether or not the
   * move happened: the caller drops it once the payout's outcome is known), one statement instead of two. With
   * `reserving` (PostgreSQL: a reservation's WITH items and the condition that it holds, `Db.reserveThen`), the move
   * is made in the reservation's statement, and only when the reservation holds.
   */
  const transition = Effect.fn("Db.transition")(function* (
    txIn: string,
    from: SwapState,
    to: SwapState,
    changes: SwapChanges = {},
    detail: string | null = null,
    claim: string | null = null,
    releaseReservation = false,
    reserving?: Reserving
  ) {
    const now = yield* Clock.currentTimeMillis
    const set: Record<string, string | number | null> = { state: to, updated_ms: now }
    for (const [k, v] of Object.entries(changes)) if (v !== undefined) set[k] = v
    // A final swap is nobody's to work on: its claim goes with the same write.
    if (TERMINAL_STATES.has(to)) Object.assign(set, { claimed_by: null, claimed_until: null })
    const fence = claim === null ? sql`` : sql` AND claimed_by = ${claim}`
    const held = reserving === undefined ? sql`` : sql` AND (${reserving.holds})`
    const updated = yield* dialect
      .logged(
        sql,
        sql<Row>`UPDATE swaps SET ${sql.update(set)} WHERE tx_in = ${txIn} AND state = ${from}${fence}${held} RETURNING *`,
        { state: to, at: now, detail },
        releaseReservation ? txIn : undefined,
        reserving?.items
      )
      .pipe(Effect.flatMap(decodeRows), Effect.orDie)
    return Option.fromNullable(updated[0])
  })

  // --- claims ----------------------------------------------------------------------------------------------------

  /**
   * Claims swap `txIn` for `token` until `untilMs`: succeeds when it is not final and unclaimed, its claim expired
   * before `nowMs`, or `token` already holds it. The swap as it stands once claimed, or none.
   */
  const claim = Effect.fn("Db.claim")(function* (txIn: string, token: string, nowMs: number, untilMs: number) {
    const r = yield* rows(sql`UPDATE swaps SET claimed_by = ${token}, claimed_until = ${untilMs}
      WHERE tx_in = ${txIn} AND state NOT IN ('completed', 'refunded')
        AND (claimed_by IS NULL OR claimed_by = ${token} OR claimed_until < ${nowMs})
      RETURNING *`)
    return Option.fromNullable(r[0])
  })

  /** Extends a claim `token` still holds; false when it was lost. */
  const renewClaim = Effect.fn("Db.renewClaim")(function* (txIn: string, token: string, untilMs: number) {
    const r =
      yield* sql`UPDATE swaps SET claimed_until = ${untilMs} WHERE tx_in = ${txIn} AND claimed_by = ${token} RETURNING tx_in`.pipe(
        Effect.orDie
      )
    return r.length > 0
  })

  /** Gives a claim up (only the holder's own). */
  const releaseClaim = Effect.fn("Db.releaseClaim")(function* (txIn: string, token: string) {
    yield* sql`UPDATE swaps SET claimed_by = NULL, claimed_until = NULL WHERE tx_in = ${txIn} AND claimed_by = ${token}`.pipe(
      Effect.orDie
    )
  })

  // --- reads -----------------------------------------------------------------------------------------------------

  /**
   * Of `txIns`, those nothing needs to be done for now: final, or held at `nowMs` by a live claim (its holder
   * settles it; should it die, the claim expires and the swap is resumed like any unfinished one). One read for a
   * whole page of the watcher's deposits.
   */
  const settledOrHeld = Effect.fn("Db.settledOrHeld")(function* (txIns: ReadonlyArray<string>, nowMs: number) {
    if (txIns.length === 0) return new Set<string>()
    const found = yield* sql`SELECT tx_in FROM swaps WHERE tx_in IN ${sql.in(txIns)}
        AND (state IN ('completed', 'refunded') OR claimed_until >= ${nowMs})`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Schema.Array(Schema.Struct({ tx_in: Schema.String })))),
      Effect.orDie
    )
    return new Set(found.map((r) => r.tx_in))
  })

  const byAccount = Effect.fn("Db.byAccount")(function* (account: string, limit: number) {
    return yield* rows(
      sql`SELECT * FROM swaps WHERE sender = ${account} ORDER BY created_ms DESC, ${insertionOrder} DESC LIMIT ${limit}`
    )
  })

  const latest = Effect.fn("Db.latest")(function* (limit: number) {
    return yield* rows(sql`SELECT * FROM swaps ORDER BY created_ms DESC, ${insertionOrder} DESC LIMIT ${limit}`)
  })

  /** Swaps not final, oldest first, leaving out those another claim still holds at `nowMs`. */
  const unfinished = (nowMs: number) =>
    rows(
      sql`SELECT * FROM swaps WHERE state NOT IN ('completed', 'refunded')
        AND (claimed_by IS NULL OR claimed_until < ${nowMs}) ORDER BY created_ms`
    ).pipe(Effect.withSpan("Db.unfinished"))

  /**
   * Completed swaps of both flows: how many (deposits completed, atomic swaps committed), by how many accounts, and
   * the USD value each deposit took in (`usd_in`; an atomic swap's is read by the caller from its quote). A stored
   * value that is not a decimal is a corrupt row (a defect), never counted as zero.
   */
  const totals = Effect.gen(function* () {
    const r = yield* sql`SELECT
        (SELECT COUNT(*) FROM swaps WHERE state = 'completed')
          + (SELECT COUNT(*) FROM atomic_swaps WHERE state = 'committed') AS n,
        (SELECT COUNT(*) FROM (
          SELECT sender AS who FROM swaps WHERE state = 'completed'
          UNION SELECT account AS who FROM atomic_swaps WHERE state = 'committed'
        ) accounts) AS users`.pipe(Effect.flatMap(Schema.decodeUnknown(Schema.Array(Totals))), Effect.orDie)
    const volumes = yield* sql`SELECT usd_in FROM swaps WHERE state = 'completed'`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Schema.Array(Schema.Struct({ usd_in: Schema.NullOr(SignedDecimalText) })))),
      Effect.orDie
    )
    return {
      count: r[0]?.n ?? 0,
      users: r[0]?.users ?? 0,
      volumes: volumes.flatMap((v) => (v.usd_in === null ? [] : [v.usd_in]))
    }
  }).pipe(Effect.withSpan("Db.totals"))

  return {
    get,
    insertReceived,
    transition,
    claim,
    renewClaim,
    releaseClaim,
    settledOrHeld,
    byAccount,
    latest,
    unfinished,
    totals
  }
}

export type SwapsRepository = ReturnType<typeof makeSwaps>
