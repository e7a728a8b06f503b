/** The `kv` repository: small named values (the watcher's position, the quote secret, the shared maintenance flag). */
import type { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"

const KvRow = Schema.Array(Schema.Struct({ value: Schema.String }))

export const makeKv = (sql: SqlClient.SqlClient) => {
  const getKv = Effect.fn("Db.getKv")(function* (key: string) {
    const r = yield* sql`SELECT value FROM kv WHERE key = ${key}`.pipe(
      Effect.flatMap(Schema.decodeUnknown(KvRow)),
      Effect.orDie
    )
    return Option.fromNullable(r[0]?.value)
  })
  const setKv = Effect.fn("Db.setKv")(function* (key: string, value: string) {
    yield* sql`INSERT INTO kv ${sql.insert({ key, value })} ON CONFLICT (key) DO UPDATE SET value = excluded.value`.pipe(
      Effect.orDie
    )
  })

  /** Sets `key` to `value` unless it already has one; the stored value either way (every process agrees on it). */
  const initKv = Effect.fn("Db.initKv")(function* (key: string, value: string) {
    yield* sql`INSERT INTO kv ${sql.insert({ key, value })} ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
    return yield* getKv(key).pipe(Effect.map(Option.getOrElse(() => value)))
  })

  return { getKv, setKv, initKv }
}

export type KvRepository = ReturnType<typeof makeKv>
