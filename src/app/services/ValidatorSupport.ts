import { KeyValueStore } from "@effect/platform"
import { Duration, Effect, Random, Stream, SubscriptionRef } from "effect"
import { readFlag, setFlag } from "./flags"

export const VALIDATOR_DISMISSED_KEY = "validator-support-dismissed"
/** Set when the dialog has opened by itself: "once" is once for this browser, not once per load. */
export const VALIDATOR_AUTO_SHOWN_KEY = "validator-support-auto-shown"
export const VALIDATOR_AUTO_OPEN_DELAY = Duration.seconds(10)
export const VALIDATOR_AUTO_OPEN_PROBABILITY = 0.9
/** How long the page must have been quiet before the dialog opens by itself (a swap's own dialog follows its end). */
export const VALIDATOR_QUIET_GRACE = Duration.seconds(1)

/**
 * true once `quiet` has stayed true for `grace`; false as soon as it turns false. A quiet moment shorter than the
 * grace never reads as settled.
 */
export const settledFor = <R>(
  quiet: Stream.Stream<boolean, never, R>,
  grace: Duration.DurationInput
): Stream.Stream<boolean, never, R> =>
  quiet.pipe(
    Stream.changes,
    Stream.flatMap((q) => (q ? Stream.fromEffect(Effect.as(Effect.sleep(grace), true)) : Stream.make(false)), {
      switch: true
    })
  )

/**
 * The validator-support dialog: closed by default, opened by hand from the sidebar, and opened by itself once, 10 s
 * after load at the earliest, with 90% probability, unless localStorage 'validator-support-dismissed' is 'true' or it
 * has already opened by itself in this browser (localStorage 'validator-support-auto-shown'; both flags are decoded,
 * and a value that is not a flag counts as unset). The auto-open is held while the page is busy (another dialog, the
 * drawer or the wallet popover open, a swap in flight, a field focused or a key pressed in the last 2 s) and happens
 * once it has been quiet for a second. Randomness is Effect's Random service, so tests seed it.
 */
export class ValidatorSupport extends Effect.Service<ValidatorSupport>()("hswap/ValidatorSupport", {
  accessors: true,
  effect: Effect.gen(function* () {
    const kv = yield* KeyValueStore.KeyValueStore
    const open = yield* SubscriptionRef.make(false)
    const autoShown = yield* SubscriptionRef.make(false)

    const isDismissed = readFlag(kv, VALIDATOR_DISMISSED_KEY)
    const wasAutoShown = readFlag(kv, VALIDATOR_AUTO_SHOWN_KEY)

    /**
     * Waits 10 s and for a quiet page (`quiet`: true when nothing modal is open and no swap is in flight, settled
     * for a second), then opens the dialog at most once in this browser. Answers whether it opened it.
     */
    const autoOpen = <R>(quiet: Stream.Stream<boolean, never, R>): Effect.Effect<boolean, never, R> =>
      Effect.gen(function* () {
        const settled = yield* SubscriptionRef.make(false)
        yield* Effect.forkScoped(
          Stream.runForEach(settledFor(quiet, VALIDATOR_QUIET_GRACE), (s) => SubscriptionRef.set(settled, s))
        )
        yield* Effect.sleep(VALIDATOR_AUTO_OPEN_DELAY)
        yield* settled.changes.pipe(
          Stream.filter((s) => s),
          Stream.take(1),
          Stream.runDrain
        )
        if (yield* SubscriptionRef.get(autoShown)) return false
        if (yield* isDismissed) return false
        if (yield* wasAutoShown) return false
        const draw = yield* Random.next
        if (draw >= VALIDATOR_AUTO_OPEN_PROBABILITY) return false
        yield* SubscriptionRef.set(autoShown, true)
        yield* setFlag(kv, VALIDATOR_AUTO_SHOWN_KEY)
        yield* SubscriptionRef.set(open, true)
        return true
      }).pipe(Effect.scoped, Effect.withSpan("ValidatorSupport.autoOpen"))

    const show = SubscriptionRef.set(open, true)

    /** Closing the dialog stores the dismissed flag. */
    const dismiss = Effect.gen(function* () {
      yield* SubscriptionRef.set(open, false)
      yield* setFlag(kv, VALIDATOR_DISMISSED_KEY)
    })

    return { open: open.changes as Stream.Stream<boolean>, autoOpen, show, dismiss } as const
  })
}) {}
