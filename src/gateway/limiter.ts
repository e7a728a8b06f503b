/**
 * Adaptive concurrency for one Gateway client: how many requests may be in flight at once.
 *
 * - Starts at `initial` (default 4) in flight.
 * - Grows while answers are healthy (2xx): by one per healthy answer below the threshold (slow start, so the limit
 *   doubles each round trip), then by `1/limit` per answer (one per round trip), never above `max` (default 64).
 * - Halves (at least 1) on an overload answer: 429, any 5xx (524 included) or a client timeout. Answers to requests
 *   sent before the last halving do not halve it again, so one burst of 429s halves once, not once per request. The
 *   halved limit becomes the slow-start threshold.
 * - `pauseUntil(t)`: no new request starts before `t` (a server's `retry-after`); those waiting start after it.
 * - Waiting requests start in order; retries (`priority`) go before first attempts, so a request that was turned away
 *   is not turned away again by newer ones.
 * Time comes from Effect's Clock (TestClock in tests).
 */
import { Cause, Clock, Effect, Option } from "effect"

export type Outcome = "healthy" | "overload" | "neutral"

export interface LimiterState {
  readonly limit: number
  readonly inFlight: number
  readonly waiting: number
  readonly pausedUntil: number
  /** How many times the limit was halved. */
  readonly halvings: number
  /** The most in flight at once so far. */
  readonly peak: number
}

export interface AdaptiveLimiter {
  /** Runs `effect` holding one slot; `classify` says what its result tells about the server's health. */
  readonly run: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
    classify: (
      result: { readonly _tag: "Success"; readonly value: A } | { readonly _tag: "Failure"; readonly error: E }
    ) => Outcome,
    priority?: boolean
  ) => Effect.Effect<A, E, R>
  readonly pauseUntil: (epochMillis: number) => void
  readonly state: () => LimiterState
  /**
   * The callback form of `run` (what the client's request path uses, without an Effect per step): when a slot is free
   * and nobody waits, takes it and calls `onSlot(sentAt)` at once and returns undefined; otherwise queues `onSlot` (in
   * order, `priority` first) and returns a function that gives the place up (it answers false when the slot was
   * already granted). Pauses are the caller's to wait out (see `pausedUntil` in `state`). Whoever got a slot must
   * `release` it once with the answer's `Outcome`.
   */
  readonly enter: (onSlot: (sentAt: number) => void, priority: boolean) => (() => boolean) | undefined
  readonly release: (sentAt: number, outcome: Outcome) => void
}

export const makeLimiter = (options: { readonly initial: number; readonly max: number }): AdaptiveLimiter => {
  const max = Math.max(1, options.max)
  let limit = Math.min(Math.max(1, options.initial), max)
  let threshold = max
  let inFlight = 0
  let peak = 0
  let epoch = 0
  let halvings = 0
  let pausedUntil = 0
  const waiting: Array<() => void> = []

  const take = () => {
    inFlight += 1
    if (inFlight > peak) peak = inFlight
  }
  const wake = () => {
    while (waiting.length > 0 && inFlight < Math.floor(limit)) {
      take()
      ;(waiting.shift() as () => void)()
    }
  }

  const release = (sentAt: number, outcome: Outcome) => {
    inFlight -= 1
    if (outcome === "healthy") {
      limit = Math.min(max, limit + (limit < threshold ? 1 : 1 / limit))
    } else if (outcome === "overload" && sentAt === epoch) {
      epoch += 1
      halvings += 1
      limit = Math.max(1, Math.floor(limit / 2))
      threshold = limit
    }
    wake()
  }

  const enter: AdaptiveLimiter["enter"] = (onSlot, priority) => {
    if (waiting.length === 0 && inFlight < Math.floor(limit)) {
      take()
      onSlot(epoch)
      return undefined
    }
    let granted = false
    const waiter = () => {
      granted = true
      onSlot(epoch)
    }
    if (priority) waiting.unshift(waiter)
    else waiting.push(waiter)
    return () => {
      if (granted) return false
      waiting.splice(waiting.indexOf(waiter), 1)
      return true
    }
  }

  /** A slot, in order (retries first); interruption while waiting gives nothing up. */
  const slot = (priority: boolean): Effect.Effect<number> =>
    Effect.suspend(() => {
      if (waiting.length === 0 && inFlight < Math.floor(limit)) {
        take()
        return Effect.succeed(epoch)
      }
      return Effect.async<number>((resume) => {
        let granted = false
        const waiter = () => {
          granted = true
          resume(Effect.succeed(epoch))
        }
        if (priority) waiting.unshift(waiter)
        else waiting.push(waiter)
        return Effect.sync(() => {
          if (granted) release(epoch, "neutral")
          else waiting.splice(waiting.indexOf(waiter), 1)
        })
      })
    })

  /** Waits out a pause, then takes a slot. A pause set while waiting for a slot is not waited out again. */
  const acquire = (priority: boolean): Effect.Effect<number> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      now < pausedUntil ? Effect.zipRight(Effect.sleep(pausedUntil - now), acquire(priority)) : slot(priority)
    )

  const run: AdaptiveLimiter["run"] = (effect, classify, priority = false) =>
    Effect.uninterruptibleMask((restore) =>
      Effect.flatMap(restore(acquire(priority)), (sentAt) =>
        Effect.onExit(restore(effect), (exit) =>
          Effect.sync(() => {
            if (exit._tag === "Success") return release(sentAt, classify({ _tag: "Success", value: exit.value }))
            const error = Cause.failureOption(exit.cause)
            release(sentAt, Option.isSome(error) ? classify({ _tag: "Failure", error: error.value }) : "neutral")
          })
        )
      )
    )

  return {
    run,
    pauseUntil: (t) => {
      if (t > pausedUntil) pausedUntil = t
    },
    state: () => ({ limit: Math.floor(limit), inFlight, waiting: waiting.length, pausedUntil, halvings, peak }),
    enter,
    release
  }
}
