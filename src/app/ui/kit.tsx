import type { ButtonHTMLAttributes, ReactNode } from "react"

type ButtonVariant = "primary" | "secondary" | "ghost"

const buttonClass: Record<ButtonVariant, string> = {
  primary: "bg-accent text-accent-ink hover:brightness-110 disabled:opacity-50",
  secondary: "border border-line bg-panel-2 text-ink hover:border-accent/60 disabled:opacity-50",
  ghost: "text-muted hover:text-ink hover:bg-panel-2"
}

export function Button({
  variant = "secondary",
  className = "",
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { readonly variant?: ButtonVariant }) {
  return (
    <button
      type="button"
      {...rest}
      className={`inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:cursor-not-allowed aria-disabled:cursor-not-allowed aria-disabled:opacity-50 ${buttonClass[variant]} ${className}`}
    />
  )
}

/** A link that leaves the app: always a new tab, never with an opener. */
export function ExternalLink({
  href,
  children,
  className = ""
}: {
  readonly href: string
  readonly children: ReactNode
  readonly className?: string
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
    </a>
  )
}

export function Card({
  children,
  className = "",
  testId
}: {
  readonly children: ReactNode
  readonly className?: string
  readonly testId?: string
}) {
  // No drop shadow: on the dark surface a card's shadow-lg (black at 10%) changed no pixel by more than 5/255, and
  // its blurred edges were rasterised in the first paint of every page.
  return (
    <section data-testid={testId} className={`rounded-2xl border border-line bg-panel p-5 ${className}`}>
      {children}
    </section>
  )
}

/** A small label, written as given (the spec's status words are 'Soon', 'In Development', 'Active'). */
export function Badge({
  children,
  tone = "muted"
}: {
  readonly children: ReactNode
  readonly tone?: "muted" | "accent" | "warn"
}) {
  const tones = {
    muted: "bg-panel-2 text-muted border-line",
    accent: "bg-accent/15 text-accent border-accent/40",
    warn: "bg-warn/15 text-warn border-warn/40"
  }
  return (
    <span
      className={`inline-flex shrink-0 items-center whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-semibold tracking-wide ${tones[tone]}`}
    >
      {children}
    </span>
  )
}

export function Spinner({ label }: { readonly label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-sm text-muted">
      <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-line border-t-accent" />
      {label !== undefined && <span>{label}</span>}
    </span>
  )
}

/**
 * A determinate progress bar with the markup of Radix Progress (role, value attributes, `data-state` loading or
 * complete, the value as a percentage for assistive technology). It is drawn on the first screen (the swap card's price
 * countdown), where Radix's component would bring its Slot and context modules for a `div`.
 */
export function Progress({
  value,
  max = 100,
  label
}: {
  readonly value: number
  readonly max?: number
  readonly label: string
}) {
  const clamped = Math.max(0, Math.min(max, value))
  const percent = (clamped / max) * 100
  const state = clamped === max ? "complete" : "loading"
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={clamped}
      aria-valuetext={`${Math.round(percent)}%`}
      data-state={state}
      data-value={clamped}
      data-max={max}
      className="relative h-2 w-full overflow-hidden rounded-full bg-panel-2"
    >
      <div
        data-state={state}
        data-value={clamped}
        data-max={max}
        className="h-full bg-accent transition-[width] duration-300"
        style={{ width: `${percent}%` }}
      />
    </div>
  )
}

/**
 * A page's frame: every page starts at the swap page's left edge (a max-w-6xl column, centred), whatever its own
 * width; `width` caps the content inside that column, from its left edge.
 */
export function Page({
  width,
  children
}: {
  readonly width: "max-w-4xl" | "max-w-5xl" | "max-w-6xl"
  readonly children: ReactNode
}) {
  return (
    <div className="mx-auto max-w-6xl">
      <div className={width}>{children}</div>
    </div>
  )
}

export function PageTitle({ children, subtitle }: { readonly children: ReactNode; readonly subtitle?: ReactNode }) {
  return (
    <header className="mb-6">
      <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">{children}</h1>
      {subtitle !== undefined && <p className="mt-2 text-muted">{subtitle}</p>}
    </header>
  )
}

/**
 * Two arrows, up and down: the flip button's icon. Drawn, not a glyph: "⇅" was the first screen's one run of text at
 * 16 px normal weight, a font strike of its own (see e2e/shell.spec.ts, the first screen's type scale).
 */
export function FlipIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="block h-6 w-6">
      <path
        d="M8 20V4M4 8l4-4 4 4M16 4v16M12 16l4 4 4-4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}
