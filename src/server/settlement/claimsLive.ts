/** The `Claims` service: claims with leases in the database, a lock per key in process (see `Claims.ts`). */
import { Clock, Duration, Effect, Exit, FiberRef, Layer, Option, Schedule } from "effect"
import { ServerConfig } from "../config"
import { Claims, type ExactlyOnce, type Held, type NewClaim } from "./Claims"

/** How often a caller looks again at a record another replica holds. */
export const POLL_CLAIM = Duration.millis(50)

/**
 * One permit per key, for as long as anyone holds or awaits it: work on one key is serialized in this process, and
 * work on different keys never waits on each other (no shared stripes).
 */
const keyedLocks = () => {
  const held = new Map<string, { readonly semaphore: Effect.Semaphore; users: number }>()
  return (key: string) =>
    <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.suspend(() => {
        let entry = held.get(key)
        if (entry === undefined) {
          entry = { semaphore: Effect.unsafeMakeSemaphore(1), users: 0 }
          held.set(key, entry)
        }
        const lock = entry
        lock.users++
        return lock.semaphore
          .withPermits(1)(effect)
          .pipe(
            Effect.ensuring(
              Effect.sync(() => {
                if (--lock.users === 0) held.delete(key)
              })
            )
          )
      })
}

export const makeClaims = Effect.gen(function* () {
  const config = yield* ServerConfig
  const withLock = keyedLocks()
  /** The claim token the current fiber works under (set by `run`); writes are fenced by it. */
  const currentClaim = FiberRef.unsafeMake<string | null>(null)
  let claims = 0
  const leaseMs = Duration.toMillis(config.claimLease)

  const newToken = () => `${config.replicaId}#${++claims}`

  const fresh: Effect.Effect<NewClaim> = Effect.map(Clock.currentTimeMillis, (now) => ({
    token: newToken(),
    untilMs: now + leaseMs
  }))

  const run = <Row, E, R>(spec: ExactlyOnce<Row, E, R>): Effect.Effect<Row, E, R> => {
    const { key, table } = spec

    /** Claims the record under a fresh token; none when it is final or another replica holds a live claim. */
    const tryClaim = Effect.gen(function* () {
      const token = newToken()
      const now = yield* Clock.currentTimeMillis
      return Option.map(yield* table.claim(key, token, now, now + leaseMs), (row): Held<Row> => ({ token, row }))
    })

    /**
     * Runs `work` under the claim `token`, renewing it every third of the lease meanwhile, then gives the claim up (a
     * kill leaves it to expire). A record the work made final needs no release: that write cleared the claim.
     */
    const underClaim = (token: string, work: Effect.Effect<Row, E, R>) =>
      Effect.scoped(
        Effect.gen(function* () {
          let finished = false
          const renew = Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            if (!(yield* table.renew(key, token, now + leaseMs))) {
              if (!finished) {
                yield* Effect.logWarning(`${spec.label}: the claim ${token} was lost; its transitions are fenced off`)
              }
              return yield* Effect.interrupt
            }
          })
          yield* Effect.forkScoped(
            Effect.repeat(renew, Schedule.spaced(Duration.millis(Math.max(1, Math.floor(leaseMs / 3))))).pipe(
              Effect.delay(Duration.millis(Math.floor(leaseMs / 3)))
            )
          )
          const row = yield* Effect.locally(work, currentClaim, token)
          finished = true
          return row
        })
      ).pipe(
        Effect.onExit((exit) =>
          Exit.isSuccess(exit) && spec.isFinal(exit.value) ? Effect.void : table.release(key, token)
        )
      )

    return withLock(key)(
      Effect.gen(function* () {
        const opened = yield* spec.open(fresh)
        let row = opened.row
        let held = opened.held
        const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(spec.wait)
        for (;;) {
          if (spec.isFinal(row)) return row
          if (Option.isNone(held)) held = yield* tryClaim
          if (Option.isSome(held)) {
            const { token, row: claimed } = held.value
            return yield* underClaim(token, spec.work(claimed))
          }
          row = yield* spec.reread(row)
          if (spec.isFinal(row) || (yield* Clock.currentTimeMillis) >= deadline) return row
          yield* Effect.sleep(POLL_CLAIM)
        }
      })
    )
  }

  return Claims.of({ current: FiberRef.get(currentClaim), run })
})

export const ClaimsLive: Layer.Layer<Claims, never, ServerConfig> = Layer.effect(Claims, makeClaims)
