import { useAppConfig } from "../../config/useAppConfig"
import { dashboardLink } from "../../config/AppConfig"
import { Badge, Card, ExternalLink, Page, PageTitle } from "../../ui/kit"

export interface Fund {
  readonly id: string
  readonly name: string
  readonly symbol: string
  readonly totalValue: string
  readonly composition: string
  readonly inception: string
  readonly performance: string
  readonly address: string
  readonly description: string
  readonly manager: string
  readonly minimumInvestment: string
  readonly status: "Active"
}

export function ProofOfFundsPage() {
  const config = useAppConfig()
  const funds: ReadonlyArray<Fund> = [
    {
      id: "radix-account",
      name: "Radix Account Funds",
      symbol: "XRD",
      totalValue: "< $1,500",
      composition: "Stablecoins, bridged ETH/BTC and XRD",
      inception: "2024-01-15",
      performance: "+0.9%",
      address: config.fundAccount,
      description: `The operating funds of ${config.brand.name}, held in one account on the Radix network.`,
      manager: `${config.brand.name} team, self custodied`,
      minimumInvestment: "100 XRD",
      status: "Active"
    }
  ]
  return (
    <Page width="max-w-4xl">
      <PageTitle subtitle="Our funds are on-ledger: check them yourself on the dashboard.">Proof of Funds</PageTitle>
      {funds.map((f) => (
        <Card key={f.id} testId={`fund-${f.id}`}>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <h2 className="text-lg font-semibold">{f.name}</h2>
              <p className="text-sm text-muted">on the Radix network</p>
            </div>
            <Badge tone="accent">{f.status}</Badge>
          </div>
          <p className="mt-3 text-sm text-muted">{f.description}</p>
          <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
            {(
              [
                ["Value", f.totalValue],
                ["Composition", f.composition],
                ["Inception", f.inception],
                ["Performance", f.performance],
                ["Minimum investment", f.minimumInvestment],
                ["Manager", f.manager]
              ] as const
            ).map(([k, v]) => (
              <div key={k} className="flex justify-between gap-3 rounded-lg bg-panel-2 px-3 py-2">
                <dt className="text-muted">{k}</dt>
                <dd className="text-right">{v}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-5 flex justify-end">
            <ExternalLink
              href={dashboardLink(config, "account", f.address)}
              className="rounded-lg bg-accent px-4 py-2 text-sm font-semibold text-accent-ink hover:brightness-110"
            >
              Details
            </ExternalLink>
          </div>
        </Card>
      ))}
      <p className="mt-6 text-xs text-muted">
        Disclaimer: the figures in this text may be out of date. The ledger is the source of truth; the Details button
        shows the account as it is now.
      </p>
    </Page>
  )
}
