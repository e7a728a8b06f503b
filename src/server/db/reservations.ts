/**
 * The `reservations` repository: liquidity reserved by payouts in flight, one row per payout (keyed by its swap),
 * added under a per-resource lock (`Dialect.withResourceLock`: `pg_advisory_xact_lock` on PostgreSQL, an in-process
 * semaphore on SQLite) and deleted when the payout's outcome is known, so a replica that dies keeps its reservation
 * until the swap is resumed.
 */
import type { SqlClient } from "@effect/sql"
import { BigDecimal, Clock, Effect, Option, Schema } from "effect"
import { formatPlain, parseLooseDecimal } from "../../lib/decimalText"
import type { Dialect } from "./dialect"

const Reservation = Schema.Array(Schema.Struct({ tx_in: Schema.String, amount: Schema.String }))

export const makeReservations = (sql: SqlClient.SqlClient, dialect: Dialect) => {
  const resourceLock = dialect.withResourceLock(sql)

  /**
   * Reserves `amount` of `resource` for the payout of `txIn` if the exchange's balance minus every other reservation
   * covers it (a swap that already holds a reservation keeps it). The reservations are summed before the balance is
   * read, under the resource's lock: a payout releases its reservation only after it committed, so a committed
   * payout is never counted as both spent and free.
   */
  const reserve = <E, R>(
    txIn: string,
    resource: string,
    amount: BigDecimal.BigDecimal,
    balance: Effect.Effect<BigDecimal.BigDecimal | undefined, E, R>
  ): Effect.Effect<boolean, E, R> =>
    resourceLock(resource)(
      Effect.gen(function* () {
        const held = yield* sql`SELECT tx_in, amount FROM reservations WHERE resource = ${resource}`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Reservation)),
          Effect.orDie
        )
        if (held.some((r) => r.tx_in === txIn)) return true
        // A stored amount that is not a decimal is a corrupt row, as one that does not decode: counted as zero it
        // would free liquidity another payout holds.
        const reserved = yield* Effect.reduce(held, BigDecimal.fromBigInt(0n), (sum, r) =>
          Option.match(parseLooseDecimal(r.amount), {
            onNone: () =>
              Effect.dieMessage(
                `the reservation of ${r.tx_in} holds ${JSON.stringify(r.amount)}, which is not a decimal`
              ),
            onSome: (amount) => Effect.succeed(BigDecimal.sum(sum, amount))
          })
        )
        // No vault of the resource: the exchange holds none of it.
        const free = BigDecimal.subtract((yield* balance) ?? BigDecimal.fromBigInt(0n), reserved)
        if (BigDecimal.lessThan(free, amount)) return false
        const now = yield* Clock.currentTimeMillis
        yield* sql`INSERT INTO reservations ${sql.insert({ tx_in: txIn, resource, amount: formatPlain(amount), created_ms: now })}`
        return true
      })
    ).pipe(
      Effect.catchTag("SqlError", (e) => Effect.die(e)),
      Effect.withSpan("Db.reserve")
    )

  /** Drops the reservation of `txIn`, if any. */
  const release = Effect.fn("Db.release")(function* (txIn: string) {
    yield* sql`DELETE FROM reservations WHERE tx_in = ${txIn}`.pipe(Effect.orDie)
  })

  const reservations = sql`SELECT tx_in, amount FROM reservations`.pipe(
    Effect.flatMap(Schema.decodeUnknown(Reservation)),
    Effect.orDie,
    Effect.withSpan("Db.reservations")
  )

  return { reserve, release, reservations }
}

export type ReservationsRepository = ReturnType<typeof makeReservations>
