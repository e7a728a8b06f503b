/** The `leases` repository: named leases with an expiry (the watcher's), taken and renewed by an upsert compare-and-set. */
import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export const makeLeases = (sql: SqlClient.SqlClient) => {
  /**
   * Takes or renews the lease `name` for `holder` until `untilMs`: succeeds when nobody holds it, `holder` does, or
   * the holder's lease ran out before `nowMs`.
   */
  const acquireLease = Effect.fn("Db.acquireLease")(function* (
    name: string,
    holder: string,
    nowMs: number,
    untilMs: number
  ) {
    const r = yield* sql`INSERT INTO leases ${sql.insert({ name, holder, until_ms: untilMs })}
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms
      WHERE leases.holder = excluded.holder OR leases.until_ms < ${nowMs}
      RETURNING holder`.pipe(Effect.orDie)
    return r.length > 0
  })

  /** Gives the lease up if `holder` has it. */
  const releaseLease = Effect.fn("Db.releaseLease")(function* (name: string, holder: string) {
    yield* sql`DELETE FROM leases WHERE name = ${name} AND holder = ${holder}`.pipe(Effect.orDie)
  })

  return { acquireLease, releaseLease }
}

export type LeasesRepository = ReturnType<typeof makeLeases>
