/** The `swap_events` repository: the append-only log of every swap's state changes (written by `swaps`). */
import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"

const Events = Schema.Array(
  Schema.Struct({ state: Schema.String, at_ms: Schema.Number, detail: Schema.NullOr(Schema.String) })
)

export const makeSwapEvents = (sql: SqlClient.SqlClient) => {
  const events = Effect.fn("Db.events")(function* (txIn: string) {
    return yield* sql`SELECT state, at_ms, detail FROM swap_events WHERE tx_in = ${txIn} ORDER BY id`.pipe(
      Effect.flatMap(Schema.decodeUnknown(Events)),
      Effect.orDie
    )
  })
  return { events }
}

export type SwapEventsRepository = ReturnType<typeof makeSwapEvents>
