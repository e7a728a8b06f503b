/**
 * The `quotes` repository: the binding quotes of `GET /api/liveprice`, their terms, and the deposit that claimed each
 * one (`used_by`, set once by a compare-and-set).
 */
import type { SqlClient, SqlError } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { QuoteRow } from "./rows"

const decodeQuotes = Schema.decodeUnknown(Schema.Array(QuoteRow))

export const makeQuotes = (sql: SqlClient.SqlClient) => {
  /** Stores a freshly issued quote: one INSERT, on the price path. Fails (not dies) so the caller can answer 503. */
  const insertQuote = (quote: Omit<QuoteRow, "used_by">): Effect.Effect<void, SqlError.SqlError> =>
    sql`INSERT INTO quotes ${sql.insert(quote)}`.pipe(Effect.asVoid, Effect.withSpan("Db.insertQuote"))

  const getQuote = Effect.fn("Db.getQuote")(function* (id: string) {
    const found = yield* sql`SELECT * FROM quotes WHERE id = ${id}`.pipe(Effect.flatMap(decodeQuotes), Effect.orDie)
    return Option.fromNullable(found[0])
  })

  /**
   * Claims quote `id` for the deposit `txIn`: a compare-and-set that succeeds when the quote is unclaimed or already
   * claimed by this very deposit (a resumed settlement keeps its claim). False when another deposit holds it, or
   * when no such quote exists.
   */
  const claimQuote = Effect.fn("Db.claimQuote")(function* (id: string, txIn: string) {
    const r =
      yield* sql`UPDATE quotes SET used_by = ${txIn} WHERE id = ${id} AND (used_by IS NULL OR used_by = ${txIn}) RETURNING id`.pipe(
        Effect.orDie
      )
    return r.length > 0
  })

  /**
   * Deletes at most `limit` quotes that expired before `expiredBefore` (epoch ms), were never claimed, and no stored
   * swap names. Returns how many went.
   */
  const pruneQuotes = Effect.fn("Db.pruneQuotes")(function* (expiredBefore: number, limit: number) {
    const r = yield* sql`DELETE FROM quotes WHERE id IN (
      SELECT q.id FROM quotes q
      WHERE q.expires_ms < ${expiredBefore} AND q.used_by IS NULL
        AND NOT EXISTS (SELECT 1 FROM swaps s WHERE s.quote_id = q.id)
      LIMIT ${limit}
    ) RETURNING id`.pipe(Effect.orDie)
    return r.length
  })

  return { insertQuote, getQuote, claimQuote, pruneQuotes }
}

export type QuotesRepository = ReturnType<typeof makeQuotes>
