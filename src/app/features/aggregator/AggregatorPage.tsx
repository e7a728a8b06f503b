import { Effect, Stream } from "effect"
import { useState } from "react"
import { useAppConfig } from "../../config/useAppConfig"
import { useFork, useStream } from "../../runtime/app-runtime"
import { Browser } from "../../services/Browser"
import { Toaster } from "../../services/Toaster"
import { emptySession, WalletSession } from "../../services/WalletSession"
import { Button, Card, PageTitle, Spinner } from "../../ui/kit"
import {
  DASHBOARD_FRAME_HEIGHT,
  DASHBOARD_FRAME_SANDBOX,
  frameSandbox,
  dashboardTokensUrl,
  partnerSite,
  TRADING_FRAME_SANDBOX,
  tradingFrameUrl
} from "./frames"
import { type EditorTarget, RouteDialog } from "./RouteDialog"
import { RouteList } from "./RouteList"
import { notSavedToast, type RoutesState, selectedRoute, type TradingRoute, TradingRoutes } from "./TradingRoutes"

const sessionStream = Stream.unwrap(Effect.map(WalletSession, (w) => w.session))
const routesStream = Stream.unwrap(Effect.map(TradingRoutes, (r) => r.state)).pipe(
  Stream.map((s): RoutesState | undefined => s)
)

const lastRouteToast = Toaster.show({
  title: "Cannot delete this route",
  description: "At least one route must remain.",
  variant: "destructive"
})

/** The partner's trading interface for one route; a spinner until the frame has loaded. */
function TradingFrame({ src }: { readonly src: string }) {
  const [loaded, setLoaded] = useState(false)
  return (
    <div className="relative overflow-hidden rounded-xl border border-line bg-panel-2">
      {!loaded && (
        <div className="absolute inset-0 grid place-items-center" data-testid="trading-loading">
          <Spinner label="Loading trading interface..." />
        </div>
      )}
      <iframe
        src={src}
        title="Trading interface"
        data-testid="trading-iframe"
        sandbox={frameSandbox(TRADING_FRAME_SANDBOX, src, window.location.origin)}
        referrerPolicy="strict-origin-when-cross-origin"
        onLoad={() => setLoaded(true)}
        className={`block h-[430px] w-full border-0 transition-opacity md:h-[434px] ${loaded ? "opacity-100" : "opacity-0"}`}
      />
    </div>
  )
}

function TradingPanel({ route }: { readonly route: TradingRoute | undefined }) {
  const { tradingUrl } = useAppConfig()
  if (tradingUrl === undefined)
    return (
      <Card testId="trading-unavailable" className="grid h-[430px] place-items-center text-center md:h-[434px]">
        <div>
          <h2 className="text-lg font-semibold">Trading interface not configured</h2>
          <p className="mt-2 text-sm text-muted">
            No trading partner is set for this network, so the embedded exchange cannot be shown.
          </p>
        </div>
      </Card>
    )
  if (route === undefined)
    return (
      <Card className="grid h-[430px] place-items-center text-center md:h-[434px]">
        <p className="text-sm text-muted">Add a route to start trading.</p>
      </Card>
    )
  const src = tradingFrameUrl(tradingUrl, route)
  // A new route is a new frame: the spinner shows again until it has loaded.
  return <TradingFrame key={src} src={src} />
}

function MyTokensPanel({ account, onClose }: { readonly account: string; readonly onClose: () => void }) {
  const { dashboardUrl } = useAppConfig()
  const src = dashboardTokensUrl(dashboardUrl, account)
  return (
    <Card testId="my-tokens-panel" className="mb-6 overflow-hidden p-0!">
      <div id="my-tokens-panel" className="flex items-center justify-between gap-3 border-b border-line px-5 py-3">
        <h2 className="font-semibold">My Tokens</h2>
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      <iframe
        src={src}
        title="My tokens on the dashboard"
        data-testid="my-tokens-iframe"
        sandbox={frameSandbox(DASHBOARD_FRAME_SANDBOX, src, window.location.origin)}
        referrerPolicy="no-referrer"
        style={{ height: DASHBOARD_FRAME_HEIGHT }}
        className="block w-full border-0 bg-white"
      />
    </Card>
  )
}

/** `/swap`: the partner aggregator with the user's favourite routes (spec §2 "Aggregator page"). */
export function AggregatorPage() {
  const { tradingUrl } = useAppConfig()
  const fork = useFork()
  const session = useStream(sessionStream, emptySession)
  const state = useStream(routesStream, undefined)
  const [tokensOpen, setTokensOpen] = useState(false)
  const [editor, setEditor] = useState<EditorTarget | undefined>(undefined)

  const account = session.selected ?? session.accounts[0]?.address
  const route = state === undefined ? undefined : selectedRoute(state)

  const remove = (r: TradingRoute) =>
    fork(
      TradingRoutes.remove(r.id).pipe(
        Effect.catchTags({ LastRouteBlocked: () => lastRouteToast, RoutesNotSaved: () => notSavedToast })
      )
    )
  const select = (r: TradingRoute) =>
    fork(TradingRoutes.select(r.id).pipe(Effect.catchTag("RoutesNotSaved", () => notSavedToast)))

  return (
    <div className="mx-auto max-w-6xl">
      <div className="flex flex-wrap items-start justify-between gap-x-6">
        <PageTitle subtitle="Change your tokens easily and quickly, at a lower cost">Swap</PageTitle>
        <div className="mb-6 flex flex-wrap gap-3">
          {account !== undefined && (
            <Button
              aria-expanded={tokensOpen}
              aria-controls={tokensOpen ? "my-tokens-panel" : undefined}
              onClick={() => setTokensOpen((o) => !o)}
            >
              My Tokens
            </Button>
          )}
          {tradingUrl !== undefined && (
            <Button
              variant="primary"
              onClick={() => fork(Effect.flatMap(Browser, (b) => b.openInNewTab(partnerSite(tradingUrl))))}
            >
              Visit
              <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4">
                <path
                  d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
            </Button>
          )}
        </div>
      </div>

      {tokensOpen && account !== undefined && <MyTokensPanel account={account} onClose={() => setTokensOpen(false)} />}

      <div className="flex flex-col gap-6 md:flex-row md:items-start">
        <div className="order-2 min-w-0 flex-1 md:order-1" data-testid="trading-panel">
          {state === undefined ? (
            <div className="grid h-[430px] place-items-center md:h-[434px]">
              <Spinner label="Loading trading interface..." />
            </div>
          ) : (
            <TradingPanel route={route} />
          )}
        </div>
        <div className="order-1 md:order-2 md:w-72 md:shrink-0">
          {state !== undefined && (
            <RouteList
              routes={state.routes}
              selectedId={route?.id}
              onSelect={select}
              onAdd={() => setEditor({ _tag: "Add" })}
              onEdit={(r) => setEditor({ _tag: "Edit", route: r })}
              onDelete={remove}
            />
          )}
        </div>
      </div>

      <RouteDialog target={editor} onClose={() => setEditor(undefined)} />
    </div>
  )
}
