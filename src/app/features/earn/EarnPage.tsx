import { Badge, Card, Page, PageTitle } from "../../ui/kit"

const EARN_ASSETS = ["hUSDC", "hUSDT", "hETH", "hWBTC"] as const

export function EarnPage() {
  return (
    <Page width="max-w-4xl">
      <PageTitle subtitle="Put your hAssets to work.">Earn Rewards</PageTitle>
      <Card testId="earn-card">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold">hAsset staking</h2>
          <Badge tone="warn">In Development</Badge>
        </div>
        <p className="mt-2 text-sm text-muted">Staking features coming soon</p>
        <dl className="mt-5 grid gap-4 sm:grid-cols-3">
          <div className="rounded-xl bg-panel-2 p-4">
            <dt className="text-xs text-muted">APY</dt>
            <dd className="mt-1 text-xl font-semibold">Flexible</dd>
          </div>
          <div className="rounded-xl bg-panel-2 p-4">
            <dt className="text-xs text-muted">Lock Period</dt>
            <dd className="mt-1 text-xl font-semibold">No Lock</dd>
          </div>
          <div className="rounded-xl bg-panel-2 p-4">
            <dt className="text-xs text-muted">Supported assets</dt>
            <dd className="mt-2 flex flex-wrap gap-1.5">
              {EARN_ASSETS.map((a) => (
                <Badge key={a} tone="accent">
                  {a}
                </Badge>
              ))}
            </dd>
          </div>
        </dl>
      </Card>
    </Page>
  )
}
