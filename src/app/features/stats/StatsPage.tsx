import { Duration, Effect, Stream } from "effect"
import { ExchangeApi } from "../../../exchange/ExchangeApi"
import type { StatsResponse } from "../../../exchange/api"
import { formatCurrency } from "../../../exchange/format"
import { useStream } from "../../runtime/app-runtime"
import { Loading, polled, type Remote } from "../../runtime/remote"
import { Badge, Card, Page, PageTitle, Spinner } from "../../ui/kit"

/** Spec §7/§9: GET {api}/api/stats on load and every 30 s. */
export const STATS_REFRESH = Duration.millis(30_000)

export const statsStream = Stream.unwrap(Effect.map(ExchangeApi, (api) => polled(api.stats, STATS_REFRESH)))

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 })

export function StatsView({ stats }: { readonly stats: Remote<StatsResponse, unknown> }) {
  // Spec §2: 'Total Volume (USD)', 'Active Users (unique addresses)', 'TVL (USD)', 'Total Transactions'.
  const cards: ReadonlyArray<{ label: string; hint?: string; value: (s: StatsResponse) => string }> = [
    { label: "Total Volume", hint: "USD", value: (s) => formatCurrency(s.total_volume) },
    { label: "Active Users", hint: "unique addresses", value: (s) => integer.format(s.active_users) },
    { label: "TVL", hint: "USD", value: (s) => formatCurrency(s.tvl) },
    { label: "Total Transactions", value: (s) => integer.format(s.total_transactions) }
  ]
  return (
    <div className="grid gap-4 sm:grid-cols-2 2xl:grid-cols-4">
      {cards.map((c) => (
        <Card key={c.label} testId={`stat-${c.label}`}>
          <p className="text-sm text-muted">
            {c.label}
            {c.hint !== undefined && <span className="text-xs"> ({c.hint})</span>}
          </p>
          <div className="mt-2 text-2xl font-semibold tabular-nums [overflow-wrap:anywhere]">
            {stats._tag === "Loading" && <Spinner label="Loading..." />}
            {stats._tag === "Failure" && <span className="text-base text-danger">Error loading data</span>}
            {stats._tag === "Success" && c.value(stats.value)}
          </div>
        </Card>
      ))}
    </div>
  )
}

export function StatsPage() {
  const stats = useStream(statsStream, Loading as Remote<StatsResponse, unknown>)
  return (
    <Page width="max-w-5xl">
      <PageTitle subtitle="Live figures from the exchange server, refreshed every 30 seconds.">Stats</PageTitle>
      <StatsView stats={stats} />
      <Card className="mt-6" testId="advanced-analytics">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold">Advanced Analytics</h2>
          <Badge tone="warn">In Development</Badge>
        </div>
        <p className="mt-2 text-sm text-muted">Volume by pair, fee history and liquidity over time.</p>
      </Card>
    </Page>
  )
}
