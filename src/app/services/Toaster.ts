import { Clock, Duration, Effect, Fiber, FiberMap, Option, Stream, SubscriptionRef } from "effect"

/** Spec constants (toolkit §4/§9, app §9): one toast at a time, 5 s by default, dismissed ones removed after 1e6 ms. */
export const TOAST_LIMIT = 1
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
 * The toast queue. Components render `toasts`; the timers live here, on Effect's Clock, so durations, pausing (hover
 * and focus pause a toast, as Radix's viewport asks) and the removal delay are driven by TestClock in tests.
 */
export class Toaster extends Effect.Service<Toaster>()("hswap/Toaster", {
  accessors: true,
  scoped: Effect.gen(function* () {
    const state = yield* SubscriptionRef.make<ReadonlyArray<Toast>>([])
    // One timer fiber per toast id: the auto-dismiss countdown, then the removal delay.
    const timers = yield* FiberMap.make<string>()
    const remaining = new Map<string, { millis: number; startedAt: number }>()
    let counter = 0

    const update = (f: (toasts: ReadonlyArray<Toast>) => ReadonlyArray<Toast>) => SubscriptionRef.update(state, f)

    const removalKey = (id: string) => `${id}#remove`

    const remove = (id: string) =>
      Effect.gen(function* () {
        remaining.delete(id)
        yield* update((ts) => ts.filter((t) => t.id !== id))
        yield* FiberMap.remove(timers, id)
        yield* FiberMap.remove(timers, removalKey(id))
      })

    /** Closes the toast (Radix plays its exit) and removes it from the list after the removal delay. */
    const close = (ids: ReadonlyArray<string>) =>
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
      })

    const dismiss = Effect.fn("Toaster.dismiss")(function* (id?: string) {
      const ids = (yield* SubscriptionRef.get(state))
        .filter((t) => t.open && (id === undefined || t.id === id))
        .map((t) => t.id)
      for (const each of ids) yield* FiberMap.remove(timers, each)
      yield* close(ids)
    })

    // The countdown fiber closes its own toast through `close`, which never touches the countdown's own key.
    const startCountdown = (id: string, millis: number) =>
      Effect.gen(function* () {
        remaining.set(id, { millis, startedAt: yield* Clock.currentTimeMillis })
        yield* FiberMap.run(timers, id, Effect.sleep(Duration.millis(millis)).pipe(Effect.zipRight(close([id]))))
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
      const before = yield* SubscriptionRef.get(state)
      // Newest first; anything beyond the limit leaves the list at once.
      const kept = [toast, ...before].slice(0, TOAST_LIMIT)
      const dropped = before.filter((t) => !kept.some((k) => k.id === t.id))
      yield* SubscriptionRef.set(state, kept)
      for (const gone of dropped) yield* remove(gone.id)
      if (Number.isFinite(durationMillis)) yield* startCountdown(id, durationMillis)
      return id
    })

    /** Hover or focus on the viewport: stop the countdown and remember what was left. */
    const pause = Effect.fn("Toaster.pause")(function* (id: string) {
      const left = remaining.get(id)
      if (left === undefined) return
      const now = yield* Clock.currentTimeMillis
      remaining.set(id, { millis: Math.max(0, left.millis - (now - left.startedAt)), startedAt: now })
      const fiber = yield* FiberMap.get(timers, id).pipe(Effect.option)
      if (Option.isSome(fiber)) yield* Fiber.interrupt(fiber.value)
    })

    const resume = Effect.fn("Toaster.resume")(function* (id: string) {
      const left = remaining.get(id)
      if (left === undefined) return
      yield* startCountdown(id, left.millis)
    })

    return {
      toasts: state.changes as Stream.Stream<ReadonlyArray<Toast>>,
      current: SubscriptionRef.get(state),
      show,
      dismiss,
      remove,
      pause,
      resume
    } as const
  })
}) {}
