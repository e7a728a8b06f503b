import { Link } from "@tanstack/react-router"
import { Card, PageTitle } from "../../ui/kit"

/** `/`: the swap card lands here with the swap issue; until then the page says so plainly. */
export function ExchangePage() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageTitle subtitle="Fixed-rate exchange of wrapped assets against the operator's own liquidity: no slippage, no pools.">
        Exchange Wrapped Assets
      </PageTitle>
      <Card testId="exchange-placeholder">
        <p className="text-muted">
          The swap card is being wired to the exchange server. For regular exchange through our partners, use the{" "}
          <Link to="/swap" className="font-semibold text-accent underline">
            Swap
          </Link>{" "}
          page.
        </p>
      </Card>
    </div>
  )
}
