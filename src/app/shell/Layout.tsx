import { Outlet, useRouterState } from "@tanstack/react-router"
import { useEffect, useLayoutEffect, useState, type ReactNode } from "react"
import { brandNameFrom } from "../brand"
import { DRAWER } from "./drawer"
import { PRERENDERED_SHELL_ID } from "./firstPaint"
import {
  BalanceBadgeIsland,
  LiveContent,
  ShellStartupIsland,
  TaglineIsland,
  ToastsIsland,
  ValidatorDialogIsland,
  WalletButtonIsland,
  WelcomeButtonIsland
} from "./islands"
import { Logo, RunsOn } from "./Logos"
import { Sidebar } from "./Sidebar"
import { documentTitle } from "./title"

const brandName = brandNameFrom(import.meta.env)

/**
 * The app shell: header, sidebar (a drawer under 768 px), content, toasts and the validator dialog. The frame paints
 * from the initial bundle; the parts that need the runtime are islands that fill in when the live chunk arrives.
 */
export function Layout({ children }: { readonly children?: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false)

  // The build's static copy of this frame (build/prerenderPages.ts) goes before this one paints.
  useLayoutEffect(() => document.getElementById(PRERENDERED_SHELL_ID)?.remove(), [])

  const pathname = useRouterState({ select: (s) => s.location.pathname })
  useEffect(() => {
    document.title = documentTitle(pathname, brandName)
  }, [pathname])

  useEffect(() => {
    if (!drawerOpen) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setDrawerOpen(false)
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  }, [drawerOpen])

  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only z-[60] rounded-lg bg-accent px-4 py-2 text-sm font-semibold text-accent-ink focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        Skip to main content
      </a>
      {/* Under 768 px the header takes two rows: menu, brand, info and wallet; then the tagline and the balance.
          Opaque, without a backdrop blur: over the page's own background the 90% glass was the same colour (at most
          5/255 apart in a screenshot), and the blur cost the compositor a filter pass in every frame it drew. */}
      <header className="fixed inset-x-0 top-0 z-50 flex min-h-16 flex-wrap items-center gap-x-2 gap-y-1 md:gap-x-3 border-b border-line bg-surface px-3 py-2 md:h-16 md:flex-nowrap md:px-6 md:py-0">
        <button
          type="button"
          aria-label={drawerOpen ? DRAWER.openLabel : DRAWER.closedLabel}
          aria-expanded={drawerOpen}
          aria-controls="sidebar"
          data-testid="menu-toggle"
          onClick={() => setDrawerOpen((o) => !o)}
          className="rounded-lg p-2 text-ink hover:bg-panel-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent md:hidden"
        >
          <svg aria-hidden viewBox="0 0 24 24" className="h-6 w-6">
            <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
        <Logo name={brandName} />
        {/* Under 768 px the tagline and its info button open the second row (at least 3/5 of it, so they never fit
            on the first): the first row keeps its room for the wallet button, wide enough there for a persona's
            name ("Devnet Persona" at 360 px; it read "Devnet Pers..." beside the info button). */}
        <div className="order-5 flex grow basis-3/5 items-center gap-1 md:order-none md:grow-0 md:basis-auto md:gap-3">
          <TaglineIsland />
          <WelcomeButtonIsland />
        </div>
        <div className="contents md:ml-auto md:flex md:items-center md:gap-3">
          <RunsOn className="hidden md:flex" />
          <BalanceBadgeIsland />
          {/* The rest of the first row on a phone (the button's max-width is this slot's). */}
          <div
            data-testid="connect-button-slot"
            className="order-4 flex min-w-[138px] flex-1 basis-0 justify-end md:order-none md:flex-none md:basis-auto"
          >
            <WalletButtonIsland />
          </div>
        </div>
      </header>
      {drawerOpen && (
        <div
          aria-hidden
          data-testid="drawer-backdrop"
          onClick={() => setDrawerOpen(false)}
          className="fixed inset-0 z-30 bg-black/50 md:hidden"
        />
      )}
      <Sidebar open={drawerOpen} onNavigate={() => setDrawerOpen(false)} />
      <main id="main" tabIndex={-1} className="px-4 pb-16 pt-28 focus:outline-none md:ml-64 md:px-8 md:pt-24 lg:px-12">
        <LiveContent>{children ?? <Outlet />}</LiveContent>
      </main>
      <ToastsIsland />
      <ValidatorDialogIsland />
      <ShellStartupIsland drawerOpen={drawerOpen} />
    </div>
  )
}
