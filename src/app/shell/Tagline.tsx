import { BrandDefaults } from "../brand"
import { useStream } from "../runtime/app-runtime"
import { TAGLINE_LETTER_DELAY_SECONDS, taglineBouncing } from "../services/ShellTimeline"

/** 'Swap, Bridge, Save and Earn': the letters bounce at 1 s, then every 30 s, for 2 s, 0.06 s apart. */
export function Tagline() {
  const bouncing = useStream(taglineBouncing, false)
  return (
    <p
      aria-label={BrandDefaults.tagline}
      data-testid="tagline"
      data-bouncing={bouncing ? "true" : "false"}
      className="hidden select-none text-sm font-medium text-muted sm:block"
    >
      {Array.from(BrandDefaults.tagline).map((ch, i) => (
        <span
          key={i}
          aria-hidden
          className={`inline-block whitespace-pre ${bouncing ? "motion-safe-bounce animate-letter-bounce" : ""}`}
          style={bouncing ? { animationDelay: `${(i * TAGLINE_LETTER_DELAY_SECONDS).toFixed(2)}s` } : undefined}
        >
          {ch}
        </span>
      ))}
    </p>
  )
}
