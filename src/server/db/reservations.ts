/**
 * The `reservations` repository: liquidity reserved by payouts in flight, one row per payout (keyed by its swap, or
 * by a subintent hash), deleted when the payout's outcome is known, so a replica that dies keeps its reservation
 * until the record is resumed. How a reservation is checked against the balance differs by store
 * (`Dialect.reservations`):
 *
 * - "summed" (SQLite, one process per file): the reservations of the resource are summed, then the balance is read,
 *   under an in-process semaphore per store; no round trips to speak of.
 * - "counted" (PostgreSQL, shared by replicas): `liquidity` keeps, per resource, the amount reserved now and the
 *   amount ever released, changed in the same statement as the reservation rows. A reservation is one read of the
 *   released count before the balance is read and one conditional write after it; nothing is locked meanwhile. The
 *   write is an UPDATE of the resource's row, so concurrent writers queue on that row and each re-checks its
 *   condition against the latest count.
 *
 * Either way a committed payout is never counted as both spent and free. Its reservation goes only after it
 * committed; with "summed" the sum is taken before the balance is read, and with "counted" whatever was released
 * between the first read and the write is still counted as reserved (the balance read may not show those payouts
 * yet), which can only leave less free, never more.
 */
import type { SqlClient } from "@effect/sql"
import { BigDecimal, Clock, Effect, Option, Schema } from "effect"
import { formatPlain, parseLooseDecimal } from "../../lib/decimalText"
import type { Dialect } from "./dialect"

const Reservation = Schema.Array(Schema.Struct({ tx_in: Schema.String, amount: Schema.String }))
const Released = Schema.Array(Schema.Struct({ released: Schema.String, held: Schema.Boolean }))

const ZERO = BigDecimal.fromBigInt(0n)

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

  /** "counted": the released count read first (the resource's row made when missing), then one conditional write. */
  const counted = <E, R>(
    txIn: string,
    resource: string,
    amount: BigDecimal.BigDecimal,
    balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>
  ) =>
    Effect.gen(function* () {
      const readReleased = sql`SELECT released::text AS released,
          EXISTS (SELECT 1 FROM reservations WHERE tx_in = ${txIn}) AS held
        FROM liquidity WHERE resource = ${resource}`.pipe(Effect.flatMap(Schema.decodeUnknown(Released)), Effect.orDie)
      let before = (yield* readReleased)[0]
      if (before === undefined) {
        yield* sql`INSERT INTO liquidity (resource, reserved, released) VALUES (${resource}, 0, 0)
          ON CONFLICT (resource) DO NOTHING`.pipe(Effect.orDie)
        before = (yield* readReleased)[0]
        if (before === undefined) return yield* Effect.dieMessage(`no liquidity row for ${resource} after making it`)
      }
      if (before.held) return true
      const free = (yield* balance) ?? ZERO
      const now = yield* Clock.currentTimeMillis
      const text = formatPlain(amount)
      const taken = yield* sql`WITH taken AS (
          UPDATE liquidity SET reserved = reserved + ${text}::numeric
          WHERE resource = ${resource}
            AND NOT EXISTS (SELECT 1 FROM reservations WHERE tx_in = ${txIn})
            AND ${formatPlain(free)}::numeric - reserved - (released - ${before.released}::numeric) >= ${text}::numeric
          RETURNING resource
        )
        INSERT INTO reservations (tx_in, resource, amount, created_ms)
        SELECT ${txIn}, resource, ${text}, ${now} FROM taken
        RETURNING tx_in`.pipe(Effect.orDie)
      return taken.length > 0
    })

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

  /** Drops the reservation of `txIn`, if any. */
  const release = Effect.fn("Db.release")(function* (txIn: string) {
    yield* dialect.release(sql, txIn).pipe(Effect.orDie)
  })

  const reservations = sql`SELECT tx_in, amount FROM reservations`.pipe(
    Effect.flatMap(Schema.decodeUnknown(Reservation)),
    Effect.orDie,
    Effect.withSpan("Db.reservations")
  )

  return { reserve, release, reservations }
}

export type ReservationsRepository = ReturnType<typeof makeReservations>
