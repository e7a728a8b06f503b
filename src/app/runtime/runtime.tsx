import { Cause, Effect, Exit, Fiber, type ManagedRuntime, Stream } from "effect"
import * as React from "react"

/** What a running effect looks like to a component. */
export type Result<A, E> =
  | { readonly _tag: "Pending" }
  | { readonly _tag: "Success"; readonly value: A }
  | { readonly _tag: "Failure"; readonly cause: Cause.Cause<E> }

/**
 * A component's fiber starts on the runtime's scheduler (runtime/scheduler.ts: in time slices), not inside the
 * commit that mounts it: Effect's `runFork` otherwise runs each new fiber at once, until its first wait, and the
 * islands' first subscriptions and reads made one task of 90–110 ms at 4× slowdown after the live chunk mounted
 * (bench:app --trace). A fiber is still created, and interruptible, at once.
 */
const NOT_NOW = { immediate: false } as const

/**
 * The bridge between React and Effect: one ManagedRuntime for the app's lifetime (built outside React, by the live
 * chunk's boot), reached through `useRuntime`, and hooks that fork on the runtime and interrupt on unmount. StrictMode's setup/cleanup/setup is
 * harmless: the throwaway fiber is interrupted, and interrupted-only exits never touch state.
 */
export function makeRuntimeContext<R>(useRuntime: () => ManagedRuntime.ManagedRuntime<R, never>) {
  /** Runs `effect` when the deps change; the previous run is interrupted. */
  function useEffectResult<A, E>(effect: Effect.Effect<A, E, R>, deps: React.DependencyList): Result<A, E> {
    const runtime = useRuntime()
    const [result, setResult] = React.useState<Result<A, E>>({ _tag: "Pending" })
    React.useEffect(() => {
      setResult({ _tag: "Pending" })
      const fiber = runtime.runFork(effect, NOT_NOW)
      fiber.addObserver((exit) => {
        if (Exit.isSuccess(exit)) setResult({ _tag: "Success", value: exit.value })
        else if (!Cause.isInterruptedOnly(exit.cause)) setResult({ _tag: "Failure", cause: exit.cause })
      })
      return () => {
        runtime.runFork(Fiber.interrupt(fiber))
      }
      // The caller's deps decide when the effect is re-run.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [runtime, ...deps])
    return result
  }

  /**
   * Subscribes to a stream; `stream` must have a stable identity (a module constant or memoised). With `transition`,
   * each value renders as a transition: React renders it in slices instead of one task (for a large subtree that
   * appears on its own, such as a toast, where a few milliseconds' delay cannot be seen).
   */
  function useStream<A, E>(stream: Stream.Stream<A, E, R>, initial: A, options?: { readonly transition?: boolean }): A {
    const runtime = useRuntime()
    const [value, setValue] = React.useState<A>(initial)
    const transition = options?.transition === true
    React.useEffect(() => {
      const set = (a: A) => setValue(() => a)
      const update = transition ? (a: A) => React.startTransition(() => set(a)) : set
      const fiber = runtime.runFork(
        Stream.runForEach(stream, (a) => Effect.sync(() => update(a))).pipe(
          Effect.tapErrorCause((cause) =>
            Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("stream failed", cause)
          )
        ),
        NOT_NOW
      )
      return () => {
        runtime.runFork(Fiber.interrupt(fiber))
      }
    }, [runtime, stream, transition])
    return value
  }

  /** A stable function that runs an effect on the app runtime (for event handlers). */
  const useRun = () => {
    const runtime = useRuntime()
    return React.useCallback(<A, E>(effect: Effect.Effect<A, E, R>) => runtime.runPromiseExit(effect), [runtime])
  }

  /** Fire-and-forget for event handlers: the fiber lives on the runtime; failures are logged, never thrown. */
  const useFork = () => {
    const runtime = useRuntime()
    return React.useCallback(
      <A, E>(effect: Effect.Effect<A, E, R>) =>
        runtime.runFork(
          effect.pipe(
            Effect.tapErrorCause((cause) =>
              Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("action failed", cause)
            )
          )
        ),
      [runtime]
    )
  }

  return { useRuntime, useEffectResult, useStream, useRun, useFork } as const
}
