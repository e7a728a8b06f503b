/**
 * The shell's islands: each renders its fallback (a same-size placeholder, or nothing) until the live chunk is loaded
 * and the runtime is ready, then the live component. The chunk is one load, shared by all of them and by the boot in
 * main.tsx, in stages (runtime/inStages.ts), each evaluated in a task of its own.
 */
import { type ComponentType, lazy, type ReactNode, Suspense } from "react"
import { LiveOnly } from "../runtime/live-context"
import { importInStages, once } from "../runtime/inStages"
import { BootFailure, PageSkeleton, TaglineView, WalletButtonPlaceholder, WelcomeButtonView } from "./views"

type LiveModule = typeof import("../live")

/**
 * The live chunk's graph in stages, each evaluated in a task of its own: Effect's parts, then the app's. main.tsx
 * requests their files at once (preloadLiveChunks), so a stage waits for its turn, not for a request.
 */
export const loadLiveModule: () => Promise<LiveModule> = once(() =>
  importInStages(
    [
      () => import("../runtime/stages/data").then((m) => m.stage),
      () => import("../runtime/stages/effect").then((m) => m.stage),
      () => import("../runtime/stages/schema").then((m) => m.stage),
      () => import("../runtime/stages/stream").then((m) => m.stage),
      () => import("../config/AppConfig").then((m) => m.decodeAppConfig),
      () => import("../../gateway/config").then((m) => m.resolveGatewayConfig),
      () => import("../../toolkit/transportErrors").then((m) => m.FailedToFetch),
      () => import("../../exchange/ExchangeApi").then((m) => m.ExchangeApi),
      () => import("../features/exchange/machine/SwapMachine").then((m) => m.SwapMachine)
    ],
    () => import("../live")
  )
)

/** `down`: what the island shows when the app cannot run; its loading fallback unless that would still look busy. */
const island = <P extends object>(
  pick: (m: LiveModule) => ComponentType<P>,
  fallback: ReactNode,
  down: ReactNode = fallback
) => {
  const Live = lazy(() => loadLiveModule().then((m) => ({ default: pick(m) })))
  return function Island(props: P) {
    return (
      <LiveOnly pending={fallback} whenDown={() => down}>
        <Suspense fallback={fallback}>
          <Live {...props} />
        </Suspense>
      </LiveOnly>
    )
  }
}

export const TaglineIsland = island((m) => m.Tagline, <TaglineView bouncing={false} letterDelaySeconds={0} />)
export const WelcomeButtonIsland = island((m) => m.WelcomeButton, <WelcomeButtonView />)
export const BalanceBadgeIsland = island((m) => m.BalanceBadge, null)
export const WalletButtonIsland = island(
  (m) => m.WalletButton,
  <WalletButtonPlaceholder />,
  <WalletButtonPlaceholder stopped />
)
export const SidebarLinksIsland = island((m) => m.SidebarLinks, null)
export const ToastsIsland = island((m) => m.Toasts, null)
export const ValidatorDialogIsland = island((m) => m.ValidatorDialogSlot, null)
export const ShellStartupIsland = island((m) => m.ShellStartup, null)

/**
 * The routed page: the skeleton while the live half loads, the failure message when the app cannot run. The page is
 * rendered straight from the route (the router loads its chunk) once the boot is ready; on `/` the build has
 * prerendered it that way, and main.tsx hydrates once the boot is ready, so the server's markup stays.
 */
export function LiveContent({ children }: { readonly children: ReactNode }) {
  return (
    <LiveOnly hydrate="settled" pending={<PageSkeleton />} whenDown={(boot) => <BootFailure boot={boot} />}>
      {children}
    </LiveOnly>
  )
}
