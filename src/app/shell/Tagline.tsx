import { useStream } from "../runtime/app-runtime"
import { TAGLINE_LETTER_DELAY_SECONDS, taglineBouncing } from "../services/ShellTimeline"
import { BrandDefaults } from "../brand"
import { TaglineView } from "./views"

const bouncing$ = taglineBouncing(Array.from(BrandDefaults.tagline).length)

/** The header tagline, bouncing on the shell timeline. */
export function Tagline() {
  const bouncing = useStream(bouncing$, false)
  return <TaglineView bouncing={bouncing} letterDelaySeconds={TAGLINE_LETTER_DELAY_SECONDS} />
}
