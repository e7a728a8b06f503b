import { Effect, Stream } from "effect"
import { formatBadgeBalance } from "../../exchange/format"
import { useStream } from "../runtime/app-runtime"
import { type BalanceBadge as Badge, WalletSession } from "../services/WalletSession"

const gksBalance = Stream.unwrap(Effect.map(WalletSession, (w) => w.gksBalance))
const hidden: Badge = { _tag: "Hidden" }

/** Hidden without an account, '...' while loading, otherwise the GKS balance with 2 decimals. */
export function BalanceBadge() {
  const badge = useStream(gksBalance, hidden)
  if (badge._tag === "Hidden") return null
  return (
    <span
      data-testid="balance-badge"
      className="order-6 inline-flex items-center gap-1 rounded-full md:order-none border border-line bg-panel-2 px-3 py-1 text-sm font-semibold tabular-nums"
    >
      {badge._tag === "Loading" ? "..." : formatBadgeBalance(badge.amount)}
      <span className="text-xs text-muted">GKS</span>
    </span>
  )
}
