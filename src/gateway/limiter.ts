/**
 * Adaptive concurrency for one Gateway client: how many requests may be in flight at once.
 *
 * - Starts at `initial` (default 4) in flight.
 * - Grows while answers are healthy (2xx): by one per healthy answer below the threshold (slow start, so the limit
 *   doubles each round trip), then by `1/limit` per answer (one per round trip), never above `max` (default 64).
 * - Halves (at least 1) on an overload answer: 429, any 5xx (524 included) or a client timeout. Answers to requests
 *   sent before the last halving do not halve it again, so one burst of 429s halves once, not once per request. The
 *   halved limit becomes the slow-start threshold.
 * - `pauseUntil(t)`: no request starts before `t` (a server's `retry-after`). Requests that arrive meanwhile, or
 *   that were waiting, are held in the queue and start when it ends, in order: a slot freed during a pause goes to
 *   nobody. (Granting it would send a request into the window the server just closed, to be refused again and spend
 *   one of its retries: under a steady rate limit that starved requests until they failed.)
 * - Waiting requests start in order; retries (`priority`) go before first attempts, first come first served within
 *   each, so a request that was turned away is not turned away again by newer ones.
 * Time comes from Effect's Clock (TestClock in tests).
 */
import { Cause, Duration, Effect, FiberId, Option, Runtime } from "effect"
import type { Fiber } from "effect"

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
   * The callback form of `run` (what the client's request path uses, without an Effect per step): when a slot is free,
   * nobody waits and no pause holds, takes it and calls `onSlot(sentAt)` at once and returns undefined; otherwise
   * queues `onSlot` (in order, `priority` first) and returns a function that gives the place up (it answers false when
   * the slot was already granted). Whoever got a slot must `release` it once with the answer's `Outcome`.
   */
  readonly enter: (onSlot: (sentAt: number) => void, priority: boolean) => (() => boolean) | undefined
  readonly release: (sentAt: number, outcome: Outcome) => void
}

/**
 * A limiter on the Clock of the context it is made in (the TestClock in tests). While requests wait out a pause, one
 * fiber sleeps until it ends and then starts them; it is stopped when nobody waits any more, so no timer outlives the
 * requests.
 */
export const makeLimiter = (options: {
  readonly initial: number
  readonly max: number
}): Effect.Effect<AdaptiveLimiter> =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const clock = yield* Effect.clock
    const max = Math.max(1, options.max)
    let limit = Math.min(Math.max(1, options.initial), max)
    let threshold = max
    let inFlight = 0
    let peak = 0
    let epoch = 0
    let halvings = 0
    let pausedUntil = 0
    /** Waiting retries, then waiting first attempts, each first come first served. */
    const retries: Array<() => void> = []
    const firsts: Array<() => void> = []
    const waitingCount = () => retries.length + firsts.length
    const paused = () => clock.unsafeCurrentTimeMillis() < pausedUntil

    /** The fiber that sleeps until the pause ends while somebody waits; see `hold`. */
    let waker: Fiber.RuntimeFiber<void> | undefined
    const sleepOutPause: Effect.Effect<void> = Effect.suspend(() => {
      const left = pausedUntil - clock.unsafeCurrentTimeMillis()
      if (left > 0) return Effect.zipRight(clock.sleep(Duration.millis(left)), sleepOutPause)
      waker = undefined
      wake()
      return Effect.void
    })
    /** Somebody waits while a pause holds: make sure they are started when it ends. */
    const hold = () => {
      if (waker === undefined) waker = Runtime.runFork(runtime)(sleepOutPause)
    }
    const unhold = () => {
      if (waker === undefined || waitingCount() > 0) return
      waker.unsafeInterruptAsFork(FiberId.none)
      waker = undefined
    }

    const take = () => {
      inFlight += 1
      if (inFlight > peak) peak = inFlight
    }
    const wake = () => {
      if (waitingCount() === 0) return
      if (paused()) return hold()
      while (waitingCount() > 0 && inFlight < Math.floor(limit)) {
        take()
        ;((retries.length > 0 ? retries.shift() : firsts.shift()) as () => void)()
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
      if (waitingCount() === 0 && inFlight < Math.floor(limit) && !paused()) {
        take()
        onSlot(epoch)
        return undefined
      }
      let granted = false
      const waiter = () => {
        granted = true
        onSlot(epoch)
      }
      const queue = priority ? retries : firsts
      queue.push(waiter)
      if (paused()) hold()
      return () => {
        if (granted) return false
        queue.splice(queue.indexOf(waiter), 1)
        unhold()
        return true
      }
    }

    /** A slot, in order (retries first), after any pause; an interrupted waiter gives its place (or slot) back. */
    const slot = (priority: boolean): Effect.Effect<number> =>
      Effect.async<number>((resume) => {
        let sentAt: number | undefined
        const leave = enter((at) => {
          sentAt = at
          resume(Effect.succeed(at))
        }, priority)
        if (leave === undefined) return
        return Effect.sync(() => {
          if (!leave() && sentAt !== undefined) release(sentAt, "neutral")
        })
      })

    const run: AdaptiveLimiter["run"] = (effect, classify, priority = false) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(restore(slot(priority)), (sentAt) =>
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
        if (waitingCount() > 0 && paused()) hold()
      },
      state: () => ({ limit: Math.floor(limit), inFlight, waiting: waitingCount(), pausedUntil, halvings, peak }),
      enter,
      release
    }
  })
