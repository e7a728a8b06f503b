/**
 * The `reservations` repository: liquidity reserved by payouts in flight, one row per payout (keyed by its swap, or
 * by a subintent hash), deleted when the payout's outcome is known, so a replica that dies keeps its reservation
 * until the record is resumed. How a reservation is checked against the balance differs by store
 * (`Dialect.reservations`):
 *
 * - "summed" (SQLite, one process per file): the reservations of the resource are summed, then the balance is read,
 *   under an in-process semaphore per store; no round trips to speak of.
 * - "counted" (PostgreSQL, shared by replicas): `liquidity` keeps, per resource, the amount reserved now and the
 *   amount ever released, changed in the same statement as the reservation rows. A reservation is one conditional
 *   write: an UPDATE of the resource's row (concurrent writers queue on it, and each re-checks its condition against
 *   the latest count) that holds if the last balance read, minus what is reserved now and minus what was released
 *   since that read, covers the payout. The balance read (a gateway call, with the released count read just before
 *   it) is reused for `BALANCE_REUSE`, and made afresh when it is older or does not cover the payout.
 *
 * Either way a committed payout is never counted as both spent and free. Its reservation goes only after it
 * committed; with "summed" the sum is taken before the balance is read, and with "counted" whatever was released
 * since the released count was read is still counted as reserved (the balance read may not show those payouts), which
 * can only leave less free, never more. Deposits since a read can only leave more than the read says.
 */
import type { SqlClient } from "@effect/sql"
import type { Row } from "@effect/sql/SqlConnection"
import type { Statement } from "@effect/sql/Statement"
import { BigDecimal, Clock, Duration, Effect, Option, Schema } from "effect"
import { formatPlain, parseLooseDecimal } from "../../lib/decimalText"
import type { Dialect } from "./dialect"

const Reservation = Schema.Array(Schema.Struct({ tx_in: Schema.String, amount: Schema.String }))
const Released = Schema.Array(Schema.Struct({ released: Schema.String }))
const Taken = Schema.Array(Schema.Struct({ held: Schema.Boolean, taken: Schema.Boolean }))

const ZERO = BigDecimal.fromBigInt(0n)

/** How long a resource's balance read is reused for its next reservations ("counted"; see `lastRead`). */
export const BALANCE_REUSE = Duration.seconds(2)

/**
 * A reservation written into the statement of a record's move ("counted", `reserveThen`): its WITH items, and the
 * condition, for the move's WHERE, that the key holds a reservation (taken by these items, or before).
 */
export interface Reserving {
  readonly items: Statement<Row>
  readonly holds: Statement<Row>
}

export const makeReservations = (sql: SqlClient.SqlClient, dialect: Dialect) => {
  const semaphore = Effect.unsafeMakeSemaphore(1)

  /** "summed": under the store's semaphore, the reservations of `resource` summed, then the balance read. */
  const summed = <E, R>(
    txIn: string,
    resource: string,
    amount: BigDecimal.BigDecimal,
    balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>
  ) =>
    semaphore.withPermits(1)(
      Effect.gen(function* () {
        const held = yield* sql`SELECT tx_in, amount FROM reservations WHERE resource = ${resource}`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Reservation)),
          Effect.orDie
        )
        if (held.some((r) => r.tx_in === txIn)) return true
        // A stored amount that is not a decimal is a corrupt row, as one that does not decode: counted as zero it
        // would free liquidity another payout holds.
        const reserved = yield* Effect.reduce(held, ZERO, (sum, r) =>
          Option.match(parseLooseDecimal(r.amount), {
            onNone: () =>
              Effect.dieMessage(
                `the reservation of ${r.tx_in} holds ${JSON.stringify(r.amount)}, which is not a decimal`
              ),
            onSome: (amount) => Effect.succeed(BigDecimal.sum(sum, amount))
          })
        )
        // No vault of the resource: the exchange holds none of it.
        const free = BigDecimal.subtract((yield* balance) ?? ZERO, reserved)
        if (BigDecimal.lessThan(free, amount)) return false
        const now = yield* Clock.currentTimeMillis
        yield* sql`INSERT INTO reservations ${sql.insert({ tx_in: txIn, resource, amount: formatPlain(amount), created_ms: now })}`.pipe(
          Effect.orDie
        )
        return true
      })
    )

  /**
   * "counted": the last balance read of each resource, with the released count read just before it. It stays good
   * for our own payouts however old it is (what they released since is counted as still reserved), so it is reused
   * for `BALANCE_REUSE`, and read afresh at once when it no longer covers a payout (deposits since may have raised
   * the balance).
   */
  const lastRead = new Map<string, { readonly released: string; readonly balance: string; readonly at: number }>()

  const readReleased = (resource: string) =>
    sql`SELECT released::text AS released FROM liquidity WHERE resource = ${resource}`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Released)),
      Effect.orDie
    )

  /** The released count of `resource` (its row made when missing), then its balance. */
  const freshRead = <E, R>(resource: string, balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>) =>
    Effect.gen(function* () {
      let before = (yield* readReleased(resource))[0]
      if (before === undefined) {
        yield* sql`INSERT INTO liquidity (resource, reserved, released) VALUES (${resource}, 0, 0)
          ON CONFLICT (resource) DO NOTHING`.pipe(Effect.orDie)
        before = (yield* readReleased(resource))[0]
        if (before === undefined) return yield* Effect.dieMessage(`no liquidity row for ${resource} after making it`)
      }
      const read = {
        released: before.released,
        // No vault of the resource: the exchange holds none of it.
        balance: formatPlain((yield* balance) ?? ZERO),
        at: yield* Clock.currentTimeMillis
      }
      lastRead.set(resource, read)
      return read
    })

  /**
   * The WITH items of one conditional write: the reservation of `txIn` is added, and the resource's count raised,
   * only if `txIn` holds none (`prior`) and `read`'s balance minus what is reserved now and minus what was released
   * since `read` covers the amount (`text`).
   */
  const taking = (
    txIn: string,
    resource: string,
    text: string,
    read: { readonly released: string; readonly balance: string },
    now: number
  ) =>
    sql<Row>`prior AS (SELECT 1 FROM reservations WHERE tx_in = ${txIn}),
      taken AS (
        UPDATE liquidity SET reserved = reserved + ${text}::numeric
        WHERE resource = ${resource}
          AND NOT EXISTS (SELECT 1 FROM prior)
          AND ${read.balance}::numeric - reserved - (released - ${read.released}::numeric) >= ${text}::numeric
        RETURNING resource
      ),
      added AS (
        INSERT INTO reservations (tx_in, resource, amount, created_ms)
        SELECT ${txIn}, resource, ${text}, ${now} FROM taken
        RETURNING tx_in
      )`

  /** `taking` on its own: whether `txIn` already held a reservation, or this write took one. */
  const take = (
    txIn: string,
    resource: string,
    text: string,
    read: { readonly released: string; readonly balance: string }
  ) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const rows =
        yield* sql`WITH ${taking(txIn, resource, text, read, now)} SELECT EXISTS (SELECT 1 FROM prior) AS held, EXISTS (SELECT 1 FROM added) AS taken`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Taken)),
          Effect.orDie
        )
      const row = rows[0]
      return row !== undefined && (row.held || row.taken)
    })

  const heldBy = (txIn: string) =>
    sql`SELECT tx_in FROM reservations WHERE tx_in = ${txIn}`.pipe(
      Effect.map((rows) => rows.length > 0),
      Effect.orDie
    )

  /**
   * `attempt` under the kept read of `resource` while it is younger than `BALANCE_REUSE`, then, when that gave
   * nothing (undefined: the read did not cover the payout), under a fresh one.
   */
  const underLastRead = <X, E, R, E2, R2>(
    resource: string,
    balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>,
    attempt: (read: { readonly released: string; readonly balance: string }) => Effect.Effect<X | undefined, E2, R2>
  ): Effect.Effect<X | undefined, E | E2, R | R2> =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const kept = lastRead.get(resource)
      if (kept !== undefined && now - kept.at < Duration.toMillis(BALANCE_REUSE)) {
        const done = yield* attempt(kept)
        if (done !== undefined) return done
      }
      return yield* attempt(yield* freshRead(resource, balance))
    })

  const counted = <E, R>(
    txIn: string,
    resource: string,
    amount: BigDecimal.BigDecimal,
    balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>
  ) => {
    const text = formatPlain(amount)
    return Effect.map(
      underLastRead(resource, balance, (read) =>
        Effect.map(take(txIn, resource, text, read), (held) => (held ? true : undefined))
      ),
      (held) => held ?? false
    )
  }

  /**
   * Reserves `amount` of `resource` for the payout of `txIn` if the exchange's balance (`balance`, read when needed)
   * minus every other reservation covers it; a payout that already holds a reservation keeps it. False when it does
   * not cover it.
   */
  const reserve = <E, R>(
    txIn: string,
    resource: string,
    amount: BigDecimal.BigDecimal,
    balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>
  ): Effect.Effect<boolean, E, R> =>
    (dialect.reservations === "counted"
      ? counted(txIn, resource, amount, balance)
      : summed(txIn, resource, amount, balance)
    ).pipe(Effect.withSpan("Db.reserve"))

  /**
   * `reserve`, then, only when `txIn` holds a reservation (taken now or before), `move` (a record's compare-and-set:
   * its new row, or none when the record had moved on). "counted": one statement, the reservation's WITH items and
   * condition written into the move's (`Reserving`); a read that does not cover the payout is checked by a second
   * statement only then. "summed": one after the other, under the semaphore's reservation. "short" when the balance
   * does not cover it (nothing moved, nothing reserved); else what `move` returned. As with `reserve`, a
   * reservation taken for a record that had moved on stays with its key, for whoever holds the record now.
   */
  const reserveThen = <A, E, R, E2, R2>(
    txIn: string,
    resource: string,
    amount: BigDecimal.BigDecimal,
    balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>,
    move: (reserving: Reserving | undefined) => Effect.Effect<Option.Option<A>, E2, R2>
  ): Effect.Effect<Option.Option<A> | "short", E | E2, R | R2> =>
    Effect.gen(function* () {
      if (dialect.reservations === "summed") {
        return (yield* summed(txIn, resource, amount, balance)) ? yield* move(undefined) : ("short" as const)
      }
      const text = formatPlain(amount)
      const holds = sql<Row>`EXISTS (SELECT 1 FROM prior) OR EXISTS (SELECT 1 FROM taken)`
      const moved = yield* underLastRead(resource, balance, (read) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const written = yield* move({ items: taking(txIn, resource, text, read, now), holds })
          // Not moved: either the record had moved on (the key holds its reservation) or the read fell short.
          return Option.isSome(written) || (yield* heldBy(txIn)) ? written : undefined
        })
      )
      return moved ?? ("short" as const)
    }).pipe(Effect.withSpan("Db.reserveThen"))

  /** Drops the reservation of `txIn`, if any. */
  const release = Effect.fn("Db.release")(function* (txIn: string) {
    yield* dialect.release(sql, txIn).pipe(Effect.orDie)
  })

  const reservations = sql`SELECT tx_in, amount FROM reservations`.pipe(
    Effect.flatMap(Schema.decodeUnknown(Reservation)),
    Effect.orDie,
    Effect.withSpan("Db.reservations")
  )

  return { reserve, reserveThen, release, reservations }
}

export type ReservationsRepository = ReturnType<typeof makeReservations>
