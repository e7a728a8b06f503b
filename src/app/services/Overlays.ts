import { Effect, type Scope, Stream, SubscriptionRef } from "effect"

/**
 * What is open on top of the page: dialogs and the wallet popover hold a place here while they are open, so the
 * shell can wait for a quiet moment (the validator dialog's auto-open does not stack on top of another one).
 */
export class Overlays extends Effect.Service<Overlays>()("hswap/Overlays", {
  accessors: true,
  effect: Effect.gen(function* () {
    const count = yield* SubscriptionRef.make(0)
    /** Counts one open overlay for the lifetime of the scope. */
    const hold: Effect.Effect<void, never, Scope.Scope> = Effect.acquireRelease(
      SubscriptionRef.update(count, (n) => n + 1),
      () => SubscriptionRef.update(count, (n) => Math.max(0, n - 1))
    )
    return {
      /** How many overlays are open: the current number, then every change. */
      open: count.changes as Stream.Stream<number>,
      current: SubscriptionRef.get(count),
      hold,
      /** Holds a place until interrupted (a component runs this while its overlay is open). */
      holdWhileRunning: Effect.scoped(Effect.zipRight(hold, Effect.never))
    } as const
  })
}) {}
