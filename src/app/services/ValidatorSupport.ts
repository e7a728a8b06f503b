import { KeyValueStore } from "@effect/platform"
import { Duration, Effect, Option, Random, Stream, SubscriptionRef } from "effect"

export const VALIDATOR_DISMISSED_KEY = "validator-support-dismissed"
export const VALIDATOR_AUTO_OPEN_DELAY = Duration.seconds(10)
export const VALIDATOR_AUTO_OPEN_PROBABILITY = 0.9

/**
 * The validator-support dialog: closed by default, opened by hand from the sidebar, and opened by itself once, 10 s
 * after load, with 90% probability, unless localStorage 'validator-support-dismissed' is 'true'. Randomness is
 * Effect's Random service, so tests seed it.
 */
export class ValidatorSupport extends Effect.Service<ValidatorSupport>()("hswap/ValidatorSupport", {
  accessors: true,
  effect: Effect.gen(function* () {
    const kv = yield* KeyValueStore.KeyValueStore
    const open = yield* SubscriptionRef.make(false)
    const autoShown = yield* SubscriptionRef.make(false)

    const isDismissed = kv.get(VALIDATOR_DISMISSED_KEY).pipe(
      Effect.map((v) => Option.getOrUndefined(v) === "true"),
      Effect.catchAll((e) => Effect.logWarning("could not read the validator-support flag", e).pipe(Effect.as(false)))
    )

    /** Waits 10 s, then opens the dialog at most once per app lifetime. */
    const autoOpen = Effect.gen(function* () {
      yield* Effect.sleep(VALIDATOR_AUTO_OPEN_DELAY)
      if (yield* SubscriptionRef.get(autoShown)) return false
      if (yield* isDismissed) return false
      const draw = yield* Random.next
      if (draw >= VALIDATOR_AUTO_OPEN_PROBABILITY) return false
      yield* SubscriptionRef.set(autoShown, true)
      yield* SubscriptionRef.set(open, true)
      return true
    }).pipe(Effect.withSpan("ValidatorSupport.autoOpen"))

    const show = SubscriptionRef.set(open, true)

    /** Closing the dialog stores the dismissed flag. */
    const dismiss = Effect.gen(function* () {
      yield* SubscriptionRef.set(open, false)
      yield* kv
        .set(VALIDATOR_DISMISSED_KEY, "true")
        .pipe(Effect.catchAll((e) => Effect.logWarning("could not store the validator-support flag", e)))
    })

    return { open: open.changes as Stream.Stream<boolean>, autoOpen, show, dismiss } as const
  })
}) {}
