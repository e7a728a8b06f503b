import { Context, Duration, Effect, Layer, PubSub, Runtime, Stream, SubscriptionRef } from "effect"

/** How long after a keystroke the user still counts as typing. */
export const TYPING_PAUSE = Duration.seconds(2)

export interface UserInputShape {
  /** Whether a field one types into has focus: the current value, then every change. */
  readonly fieldFocused: Stream.Stream<boolean>
  /** Every key pressed anywhere on the page. */
  readonly keystrokes: Stream.Stream<void>
}

const TYPELESS_INPUTS = new Set(["button", "checkbox", "radio", "submit", "reset", "range", "color", "file", "image"])

/** A field that takes typed text: a text-like input, a textarea, a select or editable content. */
export const isField = (target: EventTarget | null): boolean =>
  typeof HTMLElement !== "undefined" &&
  target instanceof HTMLElement &&
  (target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !TYPELESS_INPUTS.has(target.type)) ||
    target.isContentEditable)

/**
 * What the user is doing with the keyboard, from the document's focus and key events: the shell holds what would
 * open over the page (the validator dialog) while someone types.
 */
export class UserInput extends Context.Tag("hswap/UserInput")<UserInput, UserInputShape>() {
  /** The document's events; on a platform without a document (the prerender, Node), never typing. */
  static readonly Live: Layer.Layer<UserInput> = Layer.scoped(
    UserInput,
    Effect.gen(function* () {
      const focused = yield* SubscriptionRef.make(typeof document !== "undefined" && isField(document.activeElement))
      const keys = yield* PubSub.unbounded<void>()
      if (typeof document !== "undefined") {
        const runtime = yield* Effect.runtime<never>()
        const fork = Runtime.runFork(runtime)
        const run = <A>(effect: Effect.Effect<A>) => void fork(effect)
        const onFocusIn = (e: FocusEvent) => run(SubscriptionRef.set(focused, isField(e.target)))
        const onFocusOut = (e: FocusEvent) => run(SubscriptionRef.set(focused, isField(e.relatedTarget)))
        const onKey = () => run(PubSub.publish(keys, undefined))
        yield* Effect.acquireRelease(
          Effect.sync(() => {
            document.addEventListener("focusin", onFocusIn, true)
            document.addEventListener("focusout", onFocusOut, true)
            document.addEventListener("keydown", onKey, true)
          }),
          () =>
            Effect.sync(() => {
              document.removeEventListener("focusin", onFocusIn, true)
              document.removeEventListener("focusout", onFocusOut, true)
              document.removeEventListener("keydown", onKey, true)
            })
        )
      }
      return { fieldFocused: focused.changes, keystrokes: Stream.fromPubSub(keys) }
    })
  )
}

/**
 * true while a field has focus or a key went down less than `pause` ago (on Effect's Clock); false otherwise.
 */
export const typing = (input: UserInputShape, pause: Duration.DurationInput = TYPING_PAUSE): Stream.Stream<boolean> => {
  const recentKey = Stream.concat(
    Stream.make(false),
    input.keystrokes.pipe(
      Stream.flatMap(() => Stream.concat(Stream.make(true), Stream.fromEffect(Effect.as(Effect.sleep(pause), false))), {
        switch: true
      })
    )
  )
  return Stream.zipLatestWith(input.fieldFocused, recentKey, (field, key) => field || key).pipe(Stream.changes)
}
