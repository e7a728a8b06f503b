import { useStream } from "../runtime/app-runtime"
import { TAGLINE_LETTER_DELAY_SECONDS, taglineBouncing } from "../services/ShellTimeline"
import { TaglineView } from "./views"

/** The header tagline, bouncing on the shell timeline. */
export function Tagline() {
  const bouncing = useStream(taglineBouncing, false)
  return <TaglineView bouncing={bouncing} letterDelaySeconds={TAGLINE_LETTER_DELAY_SECONDS} />
}
