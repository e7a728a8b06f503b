import { Clock, Duration, Schedule, Stream } from "effect"
import { useStream } from "../../../runtime/app-runtime"

/** How often relative times ("12s ago") are recomputed: often enough to read as live, cheap for long lists. */
export const NOW_TICK = Duration.seconds(5)

/** The current time (epoch millis) from Effect's Clock, at once and then every 5 s. */
export const nowStream: Stream.Stream<number> = Stream.repeatEffectWithSchedule(
  Clock.currentTimeMillis,
  Schedule.spaced(NOW_TICK)
)

/** The Clock's time for relative ages; undefined until the first reading. */
export const useNow = (): number | undefined => useStream<number | undefined, never>(nowStream, undefined)
