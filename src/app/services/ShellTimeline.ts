import { Duration, Effect, Stream } from "effect"

/** Tagline letters bounce first at 1 s, then every 30 s, for 2 s each time (spec app §2, §9). */
export const TAGLINE_FIRST = Duration.seconds(1)
export const TAGLINE_PERIOD = Duration.seconds(30)
export const TAGLINE_BOUNCE = Duration.seconds(2)
export const TAGLINE_LETTER_DELAY_SECONDS = 0.06

const after = (d: Duration.Duration) => Stream.fromEffect(Effect.sleep(d)).pipe(Stream.drain)

/**
 * How long the letters carry the bounce animation: each letter bounces for 2 s, starting 0.06 s after the one before
 * it, so the last of `letters` ends 2 s + (letters − 1) × 0.06 s after the first starts. Dropping the animation any
 * sooner would cut the later letters off mid-bounce.
 */
export const taglineBounceWindow = (letters: number): Duration.Duration =>
  Duration.sum(
    TAGLINE_BOUNCE,
    Duration.millis(Math.round(Math.max(0, letters - 1) * TAGLINE_LETTER_DELAY_SECONDS * 1000))
  )

/**
 * false, then true at 1 s, false once the last of `letters` has finished its bounce, true again at 31 s, … on Effect's
 * Clock. A bounce starts every 30 s.
 */
export const taglineBouncing = (letters: number): Stream.Stream<boolean> => {
  const window = taglineBounceWindow(letters)
  return Stream.make(false).pipe(
    Stream.concat(after(TAGLINE_FIRST)),
    Stream.concat(
      Stream.forever(
        Stream.make(true).pipe(
          Stream.concat(after(window)),
          Stream.concat(Stream.make(false)),
          Stream.concat(after(Duration.subtract(TAGLINE_PERIOD, window)))
        )
      )
    )
  )
}

/** The welcome toast opens by itself 4 s after load and lasts 10 s. */
export const WELCOME_DELAY = Duration.seconds(4)
export const WELCOME_DURATION = Duration.seconds(10)

/** Counts down whole seconds: 5, 4, 3, 2, 1, 0 (one per second), then ends. */
export const countdown = (seconds: number): Stream.Stream<number> =>
  Stream.make(seconds).pipe(
    Stream.concat(
      Stream.iterate(seconds - 1, (n) => n - 1).pipe(
        Stream.take(seconds),
        Stream.mapEffect((n) => Effect.as(Effect.sleep(Duration.seconds(1)), n))
      )
    )
  )
