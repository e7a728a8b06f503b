import { Effect } from "effect"
import { useAppConfig } from "../../config/useAppConfig"
import { useFork } from "../../runtime/app-runtime"
import { Browser } from "../../services/Browser"
import { Badge, Button, Card, Page, PageTitle } from "../../ui/kit"
import { BRIDGE_ASSETS, BRIDGE_NETWORKS, BRIDGE_PARTNERS, type BridgePartner } from "./partners"

function PartnerCard({ partner }: { readonly partner: BridgePartner }) {
  const fork = useFork()
  const open = () => fork(Effect.flatMap(Browser, (b) => b.openInNewTab(partner.website)))
  return (
    <Card testId={`partner-${partner.id}`} className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <span
          aria-hidden
          className="grid h-11 w-11 place-items-center rounded-xl bg-accent/15 text-lg font-semibold text-accent"
        >
          {partner.logo}
        </span>
        <div>
          <h2 className="text-lg font-semibold">{partner.name}</h2>
          <Badge tone="accent">{partner.status === "live" ? "Live" : "In Development"}</Badge>
        </div>
      </div>
      <p className="text-sm text-muted">{partner.description}</p>
      <div className="flex flex-wrap gap-2">
        {partner.supportedAssets.map((a) => (
          <Badge key={a}>{a}</Badge>
        ))}
      </div>
      <ul className="list-disc space-y-1 pl-5 text-sm text-muted">
        {partner.features.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <div className="mt-auto flex flex-wrap gap-3">
        <Button onClick={open}>Visit</Button>
        <Button variant="primary" onClick={open}>
          Bridge with {partner.name}
        </Button>
      </div>
    </Card>
  )
}

export function BridgePage() {
  const { brand } = useAppConfig()
  return (
    <Page width="max-w-5xl">
      <PageTitle
        subtitle={`Bring ${BRIDGE_ASSETS.join(", ")} to Radix from ${BRIDGE_NETWORKS.join(", ")} through our partners.`}
      >
        Cross-Chain Bridge
      </PageTitle>
      <div className="grid gap-5 md:grid-cols-2">
        {BRIDGE_PARTNERS.map((p) => (
          <PartnerCard key={p.id} partner={p} />
        ))}
      </div>
      <Card className="mt-6" testId="own-bridge">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 className="text-lg font-semibold">{brand.name} Bridge</h2>
          <Badge tone="warn">In Development</Badge>
        </div>
        <p className="mt-2 text-sm text-muted">
          Our own bridge for hAssets on {BRIDGE_NETWORKS.join(", ")} is being built. Until it ships, use a partner
          above.
        </p>
      </Card>
    </Page>
  )
}
