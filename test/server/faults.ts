/**
 * The `Faults` the multi-replica tests provide: the first replica of the database to reach one of `points` says so on
 * stdout and stops there for good, still holding its claim, until the test kills it; each point fires once per
 * database (agreed through the `kv` table).
 */
import { Effect, Layer } from "effect"
import { Db, type FaultPoint, Faults, ServerConfig } from "../../src/server/index"

export const pauseAtFaults = (points: ReadonlyArray<FaultPoint>): Layer.Layer<Faults, never, ServerConfig | Db> =>
  Layer.effect(
    Faults,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const db = yield* Db
      return {
        reach: (point: FaultPoint, key: string) =>
          !points.includes(point)
            ? Effect.void
            : Effect.gen(function* () {
                const me = `${config.replicaId} ${key}`
                if ((yield* db.initKv(`fault:${point}`, me)) !== me) return
                yield* Effect.sync(() =>
                  process.stdout.write(`hswap-fault: paused at ${point} for ${key} in ${config.replicaId}\n`)
                )
                return yield* Effect.never
              })
      }
    })
  )
