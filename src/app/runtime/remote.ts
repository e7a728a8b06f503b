import { type Duration, Effect, Schedule, Stream } from "effect"

/** The three states of data loaded from elsewhere. */
export type Remote<A, E> =
  | { readonly _tag: "Loading" }
  | { readonly _tag: "Failure"; readonly error: E }
  | { readonly _tag: "Success"; readonly value: A }

export const Loading = { _tag: "Loading" } as const

/**
 * Loads at once and then every `every` (on Effect's Clock) for as long as the stream is consumed. Each answer
 * replaces the previous one; failures are values, so the poll never stops on an error.
 */
export const polled = <A, E, R>(load: Effect.Effect<A, E, R>, every: Duration.DurationInput) =>
  Stream.make(Loading as Remote<A, E>).pipe(
    Stream.concat(
      Stream.repeatEffectWithSchedule(
        load.pipe(
          Effect.match({
            onFailure: (error): Remote<A, E> => ({ _tag: "Failure", error }),
            onSuccess: (value): Remote<A, E> => ({ _tag: "Success", value })
          })
        ),
        Schedule.spaced(every)
      )
    )
  )
