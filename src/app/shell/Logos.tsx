import { BrandDefaults } from "../brand"

export function Logo({ name }: { readonly name: string }) {
  return (
    <span className="inline-flex items-center gap-2 font-semibold tracking-tight">
      <svg aria-hidden viewBox="0 0 32 32" className="h-7 w-7">
        <rect width="32" height="32" rx="8" fill="#18223f" />
        <path d="M9 8v16M23 8v16M9 16h14" stroke="#52e3c2" strokeWidth="3.5" strokeLinecap="round" />
      </svg>
      <span className="text-lg">{name}</span>
    </span>
  )
}

/** 'Runs on Radix': in the header on wide screens, in the drawer on small ones. */
export function RunsOn({ className = "" }: { readonly className?: string }) {
  return (
    <span data-testid="runs-on" className={`items-center gap-2 text-xs text-muted ${className}`}>
      Runs on
      <span className="inline-flex items-center gap-1 font-semibold text-ink">
        <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4">
          <path
            d="M3 13h4l3 7 6-16h5"
            fill="none"
            stroke="#52e3c2"
            strokeWidth="2.4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {BrandDefaults.networkName}
      </span>
    </span>
  )
}
