import { Effect } from "effect"
import { loadOnce } from "./loadOnce"

/**
 * {@link loadOnce} as an Effect: once loaded it succeeds without a promise tick (a fiber that has the value never
 * yields for it); a failed load fails with `onError(cause)` and the next run loads again.
 */
export const loadOnceEffect = <A, E>(load: () => Promise<A>, onError: (cause: unknown) => E): Effect.Effect<A, E> => {
  const loader = loadOnce(load)
  return Effect.suspend(() => {
    const value = loader.current()
    return value !== undefined ? Effect.succeed(value) : Effect.tryPromise({ try: loader.load, catch: onError })
  })
}
