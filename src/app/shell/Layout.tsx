import { Outlet } from "@tanstack/react-router"
import { useEffect, useState, type ReactNode } from "react"
import type { AppConfigShape } from "../config/AppConfig"
import { useAppConfig } from "../config/useAppConfig"
import { useEffectResult, useFork } from "../runtime/app-runtime"
import { Toasts } from "../ui/Toasts"
import { TooltipProvider } from "../ui/Tooltip"
import { BalanceBadge } from "./BalanceBadge"
import { Logo, RunsOn } from "./Logos"
import { Sidebar } from "./Sidebar"
import { Tagline } from "./Tagline"
import { ValidatorDialogSlot } from "./ValidatorDialogSlot"
import { WalletButton } from "./WalletButton"
import { shellStartup, showWelcome } from "./welcome"

/** The app shell: header, sidebar (a drawer under 768 px), content, toasts and the validator dialog. */
export function Layout({ children }: { readonly children?: ReactNode }) {
  const config = useAppConfig()
  // Started once per mount; unmount interrupts the timers.
  useEffectResult(shellStartup, [])
  return <Shell config={config}>{children ?? <Outlet />}</Shell>
}

function Shell({ config, children }: { readonly config: AppConfigShape; readonly children: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false)
  const fork = useFork()

  useEffect(() => {
    if (!drawerOpen) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setDrawerOpen(false)
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  }, [drawerOpen])

  return (
    <TooltipProvider>
      <div className="min-h-screen">
        <header className="fixed inset-x-0 top-0 z-50 flex h-16 items-center gap-3 border-b border-line bg-surface/90 px-3 backdrop-blur md:px-6">
          <button
            type="button"
            aria-label={drawerOpen ? "Close menu" : "Open menu"}
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
          <Logo name={config.brand.name} />
          <Tagline />
          <button
            type="button"
            aria-label="Welcome message"
            data-testid="welcome-info"
            onClick={() => fork(showWelcome)}
            className="rounded-full p-1.5 text-muted hover:bg-panel-2 hover:text-ink focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5">
              <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
              <path d="M12 11v6M12 7.5v.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <div className="ml-auto flex items-center gap-3">
            <RunsOn className="hidden md:flex" />
            <BalanceBadge />
            <div data-testid="connect-button-slot" className="min-w-[138px]">
              <WalletButton />
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
        <Sidebar brand={config.brand} open={drawerOpen} onNavigate={() => setDrawerOpen(false)} />
        <main className="px-4 pb-16 pt-24 md:ml-64 md:px-8 lg:px-12">{children}</main>
        <Toasts />
        <ValidatorDialogSlot />
      </div>
    </TooltipProvider>
  )
}
