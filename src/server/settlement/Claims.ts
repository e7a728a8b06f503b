/**
 * `Claims`: exactly-once work on a record across the replicas of one database, and serialized within one process.
 *
 * A record (a swap deposit today; an atomic swap keyed by its subintent hash next) is worked on by one replica at a
 * time: that replica claims it in the database (a token and an expiry, `claimLease`, renewed every third of it while
 * it works) and every write it makes is fenced by that token (`current`), so once the claim expired and another
 * replica took the record over, the old one can no longer store anything. Within one process, work on one key is
 * also serialized (a lock per key, so different keys never wait on each other). A caller that finds the record
 * claimed elsewhere waits for that replica's outcome (or for its claim to expire, then takes over).
 *
 * The table a flow's records live in is its `ClaimTable`: the three compare-and-sets on its claim columns.
 *
 * This module holds the service's Tag and interface only (`claimsLive.ts` implements it).
 */
import { Context, type Duration, type Effect, type Option } from "effect"

/** The claim columns of one table, by key: each a compare-and-set. */
export interface ClaimTable<Row> {
  /**
   * Claims the record `key` for `token` until `untilMs` when it is not final and unclaimed, its claim expired before
   * `nowMs`, or `token` already holds it: the record as it stands once claimed, or none.
   */
  readonly claim: (key: string, token: string, nowMs: number, untilMs: number) => Effect.Effect<Option.Option<Row>>
  /** Extends a claim `token` still holds; false when it was lost. */
  readonly renew: (key: string, token: string, untilMs: number) => Effect.Effect<boolean>
  /** Gives a claim up (only the holder's own). */
  readonly release: (key: string, token: string) => Effect.Effect<void>
}

/** A claim this replica holds, and the record as it stood when claimed. */
export interface Held<Row> {
  readonly token: string
  readonly row: Row
}

/** A new claim, for a record about to be inserted already claimed (one write instead of two). */
export interface NewClaim {
  readonly token: string
  readonly untilMs: number
}

/** One exactly-once run over the record `key` of `table`. */
export interface ExactlyOnce<Row, E, R> {
  readonly key: string
  /** How the record is named in the log ("swap txid_…"). */
  readonly label: string
  readonly table: ClaimTable<Row>
  /**
   * The record as it stands, inserting it first when it is new (claimed then by the claim given with `fresh`, which
   * comes back as held when this call inserted it).
   */
  readonly open: (
    fresh: Effect.Effect<NewClaim>
  ) => Effect.Effect<{ readonly row: Row; readonly held: Option.Option<Held<Row>> }, E, R>
  /** The record read again (while another replica holds it). */
  readonly reread: (row: Row) => Effect.Effect<Row, E, R>
  /** A final record is nobody's to work on (its final write cleared the claim). */
  readonly isFinal: (row: Row) => boolean
  /** The work done under the claim, from the record as claimed; it ends where the record stands. */
  readonly work: (claimed: Row) => Effect.Effect<Row, E, R>
  /** How long to wait for another replica's outcome; zero answers the record as it stands. */
  readonly wait: Duration.Duration
}

export interface ClaimsShape {
  /** The claim token the current fiber works under (null outside `run`): the fence of every write it makes. */
  readonly current: Effect.Effect<string | null>
  /** Works on the record exactly once across replicas; the record as the work (or the other replica) left it. */
  readonly run: <Row, E, R>(spec: ExactlyOnce<Row, E, R>) => Effect.Effect<Row, E, R>
}

export class Claims extends Context.Tag("hswap/server/Claims")<Claims, ClaimsShape>() {}
