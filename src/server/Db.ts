/**
 * `Db`: the exchange server's records through `@effect/sql`, on one of two stores with one interface (the stores are
 * in `db/store.ts`: `DbLive.sqlite(file)`, the embedded default, one server process per file; `DbLive.postgres(url)`,
 * the shared store of several replicas).
 *
 * The interface is one repository per table, side by side (`db/`): `swaps` (settlement state, claims, reads),
 * `swap_events` (the append-only log), `kv`, `quotes`, `reservations` (liquidity in flight), `leases` and
 * `atomic_swaps` (pre-authorised swaps). One set of
 * numbered migrations (`db/migrations.ts`) and one set of queries serve both stores; what differs between the two
 * dialects is in `db/dialect.ts` and nowhere else.
 *
 * This module holds the service's Tag and interface only; it imports no implementation.
 */
import { Context } from "effect"
import type { AtomicSwapsRepository } from "./db/atomicSwaps"
import type { KvRepository } from "./db/kv"
import type { LeasesRepository } from "./db/leases"
import type { QuotesRepository } from "./db/quotes"
import type { ReservationsRepository } from "./db/reservations"
import type { SwapEventsRepository } from "./db/swapEvents"
import type { SwapsRepository } from "./db/swaps"

export { QuoteRow, SwapRow, SwapState, TERMINAL_STATES } from "./db/rows"
export type { NewSwap, SwapChanges } from "./db/rows"

export interface DbShape
  extends
    SwapsRepository,
    SwapEventsRepository,
    KvRepository,
    QuotesRepository,
    ReservationsRepository,
    LeasesRepository,
    AtomicSwapsRepository {
  /** Which store this is. */
  readonly dialect: "sqlite" | "pg"
}

export class Db extends Context.Tag("hswap/server/Db")<Db, DbShape>() {
  /** A `Db` from its parts (a test wraps a store to make one call fail). */
  static readonly make = (shape: DbShape): DbShape => shape
}

/** The store a database setting names: a `postgres://` (or `postgresql://`) URL, else a SQLite file. */
export const isPostgresUrl = (s: string): boolean => /^postgres(ql)?:\/\//i.test(s)
