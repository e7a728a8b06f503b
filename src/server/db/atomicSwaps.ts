/**
 * The `atomic_swaps` repository: one row per pre-authorisation, keyed by its subintent hash (hex), worked on under a
 * claim like a swap (`claimed_by`, `claimed_until`; every write of the work is fenced by the claim token). States:
 * submitting → committed | lapsed | refused, the last three final (their write clears the claim).
 */
import type { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { SignedDecimalText } from "../../lib/decimalText"

export const AtomicState = Schema.Literal("submitting", "committed", "lapsed", "refused")
export type AtomicState = typeof AtomicState.Type

export const ATOMIC_FINAL_STATES: ReadonlySet<AtomicState> = new Set(["committed", "lapsed", "refused"])

export const AtomicSwapRow = Schema.Struct({
  subintent_hash: Schema.String,
  subintent_id: Schema.String,
  quote_id: Schema.String,
  account: Schema.String,
  resource_in: Schema.String,
  symbol_in: Schema.String,
  amount_in: Schema.String,
  resource_out: Schema.String,
  symbol_out: Schema.String,
  /** What the quote promised; once committed, `amount_out` equals it (the parent pays exactly this). */
  quoted_out: Schema.String,
  amount_out: Schema.NullOr(Schema.String),
  /** The wallet's signed partial transaction, hex. */
  partial_hex: Schema.String,
  /** The subintent's last moment (epoch ms, exclusive). */
  window_end_ms: Schema.Number,
  state: AtomicState,
  /** The parent transaction in flight or committed (`txid_…`) and its payload. */
  tx_intent: Schema.NullOr(Schema.String),
  tx_hex: Schema.NullOr(Schema.String),
  attempts: Schema.Number,
  message: Schema.NullOr(Schema.String),
  claimed_by: Schema.NullOr(Schema.String),
  claimed_until: Schema.NullOr(Schema.Number),
  created_ms: Schema.Number,
  updated_ms: Schema.Number,
  finalized_ms: Schema.NullOr(Schema.Number)
})
export type AtomicSwapRow = typeof AtomicSwapRow.Type

export type NewAtomicSwap = Omit<
  AtomicSwapRow,
  | "state"
  | "amount_out"
  | "tx_intent"
  | "tx_hex"
  | "attempts"
  | "message"
  | "claimed_by"
  | "claimed_until"
  | "created_ms"
  | "updated_ms"
  | "finalized_ms"
>

export interface AtomicChanges {
  readonly state?: AtomicState
  readonly amount_out?: string
  readonly tx_intent?: string | null
  readonly tx_hex?: string | null
  readonly attempts?: number
  readonly message?: string | null
}

const decodeRows = Schema.decodeUnknown(Schema.Array(AtomicSwapRow))

export const makeAtomicSwaps = (sql: SqlClient.SqlClient) => {
  const rows = (q: Effect.Effect<ReadonlyArray<unknown>, unknown>) => q.pipe(Effect.flatMap(decodeRows), Effect.orDie)

  const getAtomic = Effect.fn("Db.getAtomic")(function* (subintentHash: string) {
    const found = yield* rows(sql`SELECT * FROM atomic_swaps WHERE subintent_hash = ${subintentHash}`)
    return Option.fromNullable(found[0])
  })

  /**
   * Inserts a new atomic swap, claimed by `claim`, unless its subintent is known: the stored row either way, and
   * whether this call inserted it.
   */
  const insertAtomic = Effect.fn("Db.insertAtomic")(function* (
    swap: NewAtomicSwap,
    claim: { readonly token: string; readonly untilMs: number }
  ) {
    const now = yield* Clock.currentTimeMillis
    const inserted = yield* rows(
      sql`INSERT INTO atomic_swaps ${sql.insert({
        ...swap,
        state: "submitting",
        attempts: 0,
        claimed_by: claim.token,
        claimed_until: claim.untilMs,
        created_ms: now,
        updated_ms: now
      })} ON CONFLICT DO NOTHING RETURNING *`
    )
    const row = inserted[0]
    if (row !== undefined) return { row, inserted: true } as const
    return { row: Option.getOrThrow(yield* getAtomic(swap.subintent_hash)), inserted: false } as const
  })

  /**
   * Applies `changes` to a swap still in "submitting" and held under `claim`: the new row, or none when the claim
   * was lost. A final state clears the claim in the same write.
   */
  const updateAtomic = Effect.fn("Db.updateAtomic")(function* (
    subintentHash: string,
    claim: string,
    changes: AtomicChanges
  ) {
    const now = yield* Clock.currentTimeMillis
    const set: Record<string, string | number | null> = { updated_ms: now }
    for (const [k, v] of Object.entries(changes)) if (v !== undefined) set[k] = v
    if (changes.state !== undefined && ATOMIC_FINAL_STATES.has(changes.state))
      Object.assign(set, { claimed_by: null, claimed_until: null, finalized_ms: now })
    const updated = yield* rows(sql`UPDATE atomic_swaps SET ${sql.update(set)}
      WHERE subintent_hash = ${subintentHash} AND state = 'submitting' AND claimed_by = ${claim} RETURNING *`)
    return Option.fromNullable(updated[0])
  })

  const claimAtomic = Effect.fn("Db.claimAtomic")(function* (
    key: string,
    token: string,
    nowMs: number,
    untilMs: number
  ) {
    const r = yield* rows(sql`UPDATE atomic_swaps SET claimed_by = ${token}, claimed_until = ${untilMs}
      WHERE subintent_hash = ${key} AND state = 'submitting'
        AND (claimed_by IS NULL OR claimed_by = ${token} OR claimed_until < ${nowMs})
      RETURNING *`)
    return Option.fromNullable(r[0])
  })

  const renewAtomicClaim = Effect.fn("Db.renewAtomicClaim")(function* (key: string, token: string, untilMs: number) {
    const r = yield* sql`UPDATE atomic_swaps SET claimed_until = ${untilMs}
      WHERE subintent_hash = ${key} AND claimed_by = ${token} RETURNING subintent_hash`.pipe(Effect.orDie)
    return r.length > 0
  })

  const releaseAtomicClaim = Effect.fn("Db.releaseAtomicClaim")(function* (key: string, token: string) {
    yield* sql`UPDATE atomic_swaps SET claimed_by = NULL, claimed_until = NULL
      WHERE subintent_hash = ${key} AND claimed_by = ${token}`.pipe(Effect.orDie)
  })

  /** Atomic swaps still submitting, oldest first, leaving out those another claim still holds at `nowMs`. */
  const unfinishedAtomic = (nowMs: number) =>
    rows(
      sql`SELECT * FROM atomic_swaps WHERE state = 'submitting'
        AND (claimed_by IS NULL OR claimed_until < ${nowMs}) ORDER BY created_ms`
    ).pipe(Effect.withSpan("Db.unfinishedAtomic"))

  /**
   * Committed atomic swaps, newest first (by when they were submitted), of `account` or of everyone: the only ones
   * history shows, since a lapsed or refused one made no transaction.
   */
  const committedAtomic = Effect.fn("Db.committedAtomic")(function* (account: string | undefined, limit: number) {
    const who = account === undefined ? sql`` : sql` AND account = ${account}`
    return yield* rows(
      sql`SELECT * FROM atomic_swaps WHERE state = 'committed'${who}
        ORDER BY created_ms DESC, subintent_hash DESC LIMIT ${limit}`
    )
  })

  /**
   * What each committed atomic swap took in and the USD price of it its quote was issued at. A stored value that is
   * not a decimal is a corrupt row (a defect), never counted as zero.
   */
  const committedAtomicVolumes = sql`SELECT a.amount_in, q.price_in FROM atomic_swaps a
      JOIN quotes q ON q.id = a.quote_id WHERE a.state = 'committed'`.pipe(
    Effect.flatMap(
      Schema.decodeUnknown(Schema.Array(Schema.Struct({ amount_in: SignedDecimalText, price_in: SignedDecimalText })))
    ),
    Effect.orDie,
    Effect.withSpan("Db.committedAtomicVolumes")
  )

  return {
    getAtomic,
    insertAtomic,
    updateAtomic,
    claimAtomic,
    renewAtomicClaim,
    releaseAtomicClaim,
    unfinishedAtomic,
    committedAtomic,
    committedAtomicVolumes
  }
}

export type AtomicSwapsRepository = ReturnType<typeof makeAtomicSwaps>
