import { Clock, Duration, Effect, Fiber, FiberMap, Option, Stream, SubscriptionRef } from "effect"

/**
 * Spec constants (toolkit §4/§9, app §9): 5 s by default, dismissed ones removed after 1e6 ms. (The spec's limit of
 * one toast at a time is the queue's shape below: one on screen, the rest waiting.)
 */
export const TOAST_DEFAULT_DURATION = Duration.millis(5000)
export const TOAST_REMOVE_DELAY = Duration.millis(1_000_000)

export type ToastVariant = "default" | "destructive" | "welcome"

export interface ToastAction {
  readonly label: string
  /** Required and non-empty; a toast action without alternative text is not rendered (an error is logged). */
  readonly altText: string
  readonly onAction: () => void
}

export interface ToastInput {
  readonly title: string
  /** Rendered as sanitised HTML (small allowlist). */
  readonly description?: string
  readonly variant?: ToastVariant
  readonly duration?: Duration.DurationInput
  readonly action?: ToastAction
}

export interface Toast {
  readonly id: string
  readonly title: string
  readonly description: string | undefined
  readonly variant: ToastVariant
  readonly durationMillis: number
  readonly action: ToastAction | undefined
  readonly open: boolean
}

/**
 * Which toast goes first when several wait: a failure before an ordinary message, an ordinary message before the
 * welcome text. A newer toast of a higher rank takes the place of the one on screen, which goes back to the head of
 * the queue with the time it had left.
 */
export const toastRank = (variant: ToastVariant): number =>
  variant === "destructive" ? 2 : variant === "default" ? 1 : 0

/**
 * The toast queue. One toast is on screen at a time (the spec's limit); the others wait, by rank then in order, and
 * each is shown for its whole duration, counted while it is on screen. Components render `toasts` (the one on screen
 * and closed ones playing out); the timers live here, on Effect's Clock, so durations, pausing (hover and focus pause
 * a toast, as Radix's viewport asks), the queue and the removal delay are driven by TestClock in tests.
 */
export class Toaster extends Effect.Service<Toaster>()("hswap/Toaster", {
  accessors: true,
  scoped: Effect.gen(function* () {
    const state = yield* SubscriptionRef.make<ReadonlyArray<Toast>>([])
    // One timer fiber per toast id: the auto-dismiss countdown, then the removal delay.
    const timers = yield* FiberMap.make<string>()
    // What is left of each shown toast's duration, and since when it has been counting (undefined while paused).
    const remaining = new Map<string, { millis: number; startedAt: number | undefined }>()
    // Toasts waiting for the screen, in the order they will show.
    let waiting: ReadonlyArray<Toast> = []
    // Show, dismiss, the timers' close and the queue's advance change the same state: one at a time.
    const lock = yield* Effect.makeSemaphore(1)
    const serial = <A, E, R>(effect: Effect.Effect<A, E, R>) => lock.withPermits(1)(effect)
    let counter = 0

    const update = (f: (toasts: ReadonlyArray<Toast>) => ReadonlyArray<Toast>) => SubscriptionRef.update(state, f)
    const removalKey = (id: string) => `${id}#remove`
    const onScreen = Effect.map(SubscriptionRef.get(state), (ts) => ts.find((t) => t.open))

    /** Time left of a shown toast, as of now. */
    const leftOf = (id: string) =>
      Effect.gen(function* () {
        const left = remaining.get(id)
        if (left === undefined) return undefined
        if (left.startedAt === undefined) return left.millis
        return Math.max(0, left.millis - ((yield* Clock.currentTimeMillis) - left.startedAt))
      })

    // The countdown fiber closes its own toast through `closeAndAdvance`, which never touches the countdown's own key.
    const startCountdown = (id: string, millis: number): Effect.Effect<void> =>
      Effect.gen(function* () {
        remaining.set(id, { millis, startedAt: yield* Clock.currentTimeMillis })
        if (!Number.isFinite(millis)) return
        yield* FiberMap.run(
          timers,
          id,
          Effect.sleep(Duration.millis(millis)).pipe(Effect.zipRight(serial(closeAndAdvance([id]))))
        )
      })

    /** Puts `toast` on screen with `millis` to go. */
    const display = (toast: Toast, millis: number): Effect.Effect<void> =>
      Effect.gen(function* () {
        yield* update((ts) => [{ ...toast, open: true }, ...ts.filter((t) => t.id !== toast.id)])
        yield* startCountdown(toast.id, millis)
      })

    /** The next waiting toast, if the screen is free. */
    const advance: Effect.Effect<void> = Effect.gen(function* () {
      if ((yield* onScreen) !== undefined) return
      const [next, ...rest] = waiting
      if (next === undefined) return
      waiting = rest
      yield* display(next, remaining.get(next.id)?.millis ?? next.durationMillis)
    })

    /** Closes the toasts (Radix plays its exit), removes them after the removal delay, and shows the next one. */
    const closeAndAdvance = (ids: ReadonlyArray<string>): Effect.Effect<void> =>
      Effect.gen(function* () {
        yield* update((ts) => ts.map((t) => (ids.includes(t.id) ? { ...t, open: false } : t)))
        for (const id of ids) {
          remaining.delete(id)
          yield* FiberMap.run(
            timers,
            removalKey(id),
            Effect.sleep(TOAST_REMOVE_DELAY).pipe(Effect.zipRight(update((ts) => ts.filter((t) => t.id !== id))))
          )
        }
        yield* advance
      })

    /** Inserts a waiting toast after every one of at least its rank (first in line when `first`). */
    const enqueue = (toast: Toast, first: boolean) => {
      const rank = toastRank(toast.variant)
      const at = first
        ? waiting.findIndex((t) => toastRank(t.variant) <= rank)
        : waiting.findIndex((t) => toastRank(t.variant) < rank)
      const index = at === -1 ? waiting.length : at
      waiting = [...waiting.slice(0, index), toast, ...waiting.slice(index)]
    }

    const remove = (id: string) =>
      serial(
        Effect.gen(function* () {
          remaining.delete(id)
          waiting = waiting.filter((t) => t.id !== id)
          yield* update((ts) => ts.filter((t) => t.id !== id))
          yield* FiberMap.remove(timers, id)
          yield* FiberMap.remove(timers, removalKey(id))
          yield* advance
        })
      )

    const dismiss = Effect.fn("Toaster.dismiss")(function* (id?: string) {
      yield* serial(
        Effect.gen(function* () {
          // Dismissing all also empties the queue; a waiting toast dismissed by id never shows.
          const dropped = waiting.filter((t) => id === undefined || t.id === id)
          waiting = waiting.filter((t) => !dropped.includes(t))
          for (const t of dropped) remaining.delete(t.id)
          const ids = (yield* SubscriptionRef.get(state))
            .filter((t) => t.open && (id === undefined || t.id === id))
            .map((t) => t.id)
          for (const each of ids) yield* FiberMap.remove(timers, each)
          yield* closeAndAdvance(ids)
        })
      )
    })

    const show = Effect.fn("Toaster.show")(function* (input: ToastInput) {
      counter += 1
      const id = `toast-${counter}`
      const durationMillis = Duration.toMillis(input.duration ?? TOAST_DEFAULT_DURATION)
      const toast: Toast = {
        id,
        title: input.title,
        description: input.description,
        variant: input.variant ?? "default",
        durationMillis,
        action: input.action,
        open: true
      }
      yield* serial(
        Effect.gen(function* () {
          const current = yield* onScreen
          if (current === undefined) return yield* display(toast, durationMillis)
          if (toastRank(toast.variant) <= toastRank(current.variant)) return enqueue(toast, false)
          // Outranked: the one on screen steps back, keeping what it had left, and shows again after this one.
          const left = (yield* leftOf(current.id)) ?? current.durationMillis
          yield* FiberMap.remove(timers, current.id)
          remaining.set(current.id, { millis: left, startedAt: undefined })
          yield* update((ts) => ts.filter((t) => t.id !== current.id))
          enqueue(current, true)
          yield* display(toast, durationMillis)
        })
      )
      return id
    })

    /** Hover or focus on the viewport: stop the countdown and remember what was left. */
    const pause = Effect.fn("Toaster.pause")(function* (id: string) {
      yield* serial(
        Effect.gen(function* () {
          const left = yield* leftOf(id)
          if (left === undefined || remaining.get(id)?.startedAt === undefined) return
          remaining.set(id, { millis: left, startedAt: undefined })
          const fiber = yield* FiberMap.get(timers, id).pipe(Effect.option)
          if (Option.isSome(fiber)) yield* Fiber.interrupt(fiber.value)
        })
      )
    })

    const resume = Effect.fn("Toaster.resume")(function* (id: string) {
      yield* serial(
        Effect.gen(function* () {
          const left = remaining.get(id)
          if (left === undefined || left.startedAt !== undefined) return
          if (!(yield* SubscriptionRef.get(state)).some((t) => t.id === id && t.open)) return
          yield* startCountdown(id, left.millis)
        })
      )
    })

    return {
      toasts: state.changes as Stream.Stream<ReadonlyArray<Toast>>,
      current: SubscriptionRef.get(state),
      /** How many toasts wait for the screen. */
      waiting: Effect.sync(() => waiting.length),
      /** The toasts waiting for the screen, in the order they will show. */
      queue: Effect.sync(() => waiting),
      show,
      dismiss,
      remove,
      pause,
      resume
    } as const
  })
}) {}
