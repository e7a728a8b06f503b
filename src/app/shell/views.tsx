/**
 * The parts of the shell that paint before the live chunk is there (see runtime/live-context.tsx): plain React, no
 * runtime imports. The live versions in LiveShell.tsx render these same views, so nothing moves when they arrive.
 */
import type { Boot } from "../runtime/live-context"
import {
  LOAD_FAILURE,
  LOAD_FAILURE_TITLE,
  STOPPED_PLACEHOLDER,
  WALLET_PLACEHOLDER_LOADING,
  WALLET_PLACEHOLDER_STOPPED
} from "./loadFailure"
import { BrandDefaults } from "../brand"

/**
 * 'Swap, Bridge, Save and Earn': the letters bounce at 1 s, then every 30 s, for 2 s, 0.06 s apart, as a wave of
 * colour (index.css, letter-bounce): no letter leaves its place, and with reduced motion nothing plays.
 */
export function TaglineView({
  bouncing,
  letterDelaySeconds
}: {
  readonly bouncing: boolean
  readonly letterDelaySeconds: number
}) {
  return (
    <p
      data-testid="tagline"
      data-bouncing={bouncing ? "true" : "false"}
      className="select-none whitespace-nowrap text-xs leading-4 text-muted sm:text-sm"
    >
      {/* Read as one phrase; the bouncing letters are decoration. */}
      <span className="sr-only">{BrandDefaults.tagline}</span>
      {Array.from(BrandDefaults.tagline).map((ch, i) => (
        <span
          key={i}
          aria-hidden
          className={`whitespace-pre ${bouncing ? "motion-safe-bounce animate-letter-bounce" : ""}`}
          style={bouncing ? { animationDelay: `${(i * letterDelaySeconds).toFixed(2)}s` } : undefined}
        >
          {ch}
        </span>
      ))}
    </p>
  )
}

/** The header's info button; without `onClick` (the live half still loading) it is disabled. */
export function WelcomeButtonView({ onClick }: { readonly onClick?: () => void }) {
  return (
    <button
      type="button"
      aria-label="Welcome message"
      data-testid="welcome-info"
      disabled={onClick === undefined}
      onClick={onClick}
      className="rounded-full p-1.5 text-muted hover:bg-panel-2 hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-60"
    >
      <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5">
        <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M12 11v6M12 7.5v.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  )
}

/**
 * Holds the wallet button's place (same size) while the toolkit loads. `stopped`: the app cannot run (BootFailure
 * says why), so nothing is loading any more and the place stays still instead of pulsing for ever.
 */
export function WalletButtonPlaceholder({ stopped = false }: { readonly stopped?: boolean }) {
  return (
    <div
      aria-hidden
      data-testid={stopped ? WALLET_PLACEHOLDER_STOPPED : WALLET_PLACEHOLDER_LOADING}
      className={`h-10 w-[138px] rounded-xl bg-panel-2 ${stopped ? STOPPED_PLACEHOLDER : "animate-pulse"}`}
    />
  )
}

/** The content area while the live half loads: the outline of a card, announced as loading. */
export function PageSkeleton() {
  return (
    <div
      role="status"
      aria-busy="true"
      data-testid="page-loading"
      className="mx-auto grid max-w-6xl gap-6 lg:grid-cols-2"
    >
      <span className="sr-only">Loading...</span>
      <div className="h-[420px] animate-pulse rounded-2xl border border-line bg-panel" />
      <div className="hidden h-[420px] animate-pulse rounded-2xl border border-line bg-panel lg:block" />
    </div>
  )
}

/** What the content area shows when the app cannot run: a bad build configuration, or a chunk that did not load. */
export function BootFailure({ boot }: { readonly boot: Exclude<Boot, { _tag: "Ready" }> }) {
  return (
    <div role="alert" className={LOAD_FAILURE.box}>
      {boot._tag === "Misconfigured" ? (
        <>
          <h1 className={LOAD_FAILURE.title}>This build of the app is misconfigured</h1>
          <p className={LOAD_FAILURE.message}>{boot.message}</p>
          <p className={LOAD_FAILURE.hint}>Fix the variable in the build environment and rebuild.</p>
        </>
      ) : (
        <>
          <h1 className={LOAD_FAILURE.title}>{LOAD_FAILURE_TITLE}</h1>
          <p className={LOAD_FAILURE.message}>{boot.message}</p>
          <p className={LOAD_FAILURE.hint}>{LOAD_FAILURE.hintText}</p>
          <button type="button" onClick={() => window.location.reload()} className={LOAD_FAILURE.reload}>
            Reload
          </button>
        </>
      )}
    </div>
  )
}
