import { Card, PageTitle } from "../../ui/kit"

/** `/swap`: the partner aggregator lands here with the swap issue. */
export function AggregatorPage() {
  return (
    <div className="mx-auto max-w-4xl">
      <PageTitle subtitle="Change your tokens easily and quickly, at a lower cost">Swap</PageTitle>
      <Card testId="aggregator-placeholder">
        <p className="text-muted">The embedded trading interface and your favourite routes are on their way.</p>
      </Card>
    </div>
  )
}
