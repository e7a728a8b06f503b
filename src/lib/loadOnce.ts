/**
 * Loading a module (or anything else behind a promise) once, for the chunks the first screen does not fetch: the
 * Gateway client's endpoint groups, the crypto primitives, the wallet popover, the toast sanitiser, the app's stages.
 *
 * - concurrent first uses share one load;
 * - once loaded, the value is at hand synchronously (`current`), so a render that already has it does not wait;
 * - a failed load is forgotten, so the next use loads again (a chunk fetch fails once on a flaky network, or a deploy
 *   replaced the files).
 *
 * No imports: the initial bundle uses it (runtime/inStages.ts). The Effect form is `loadOnceEffect.ts`.
 */
export interface LoadOnce<A> {
  /** The value, once a load has succeeded; undefined before. */
  readonly current: () => A | undefined
  /** Starts the load, or joins the one under way, or answers the loaded value. */
  readonly load: () => Promise<A>
}

export const loadOnce = <A>(load: () => Promise<A>): LoadOnce<A> => {
  let loaded: { readonly value: A } | undefined
  let pending: Promise<A> | undefined
  return {
    current: () => loaded?.value,
    load: () => {
      if (loaded !== undefined) return Promise.resolve(loaded.value)
      pending ??= load().then(
        (value) => {
          loaded = { value }
          return value
        },
        (cause: unknown) => {
          pending = undefined
          throw cause
        }
      )
      return pending
    }
  }
}
