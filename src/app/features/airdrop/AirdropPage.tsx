import { Effect, Stream } from "effect"
import { useState } from "react"
import { shortenAddressAirdrop } from "../../../exchange/format"
import { useAppConfig } from "../../config/useAppConfig"
import { useRun, useStream } from "../../runtime/app-runtime"
import { emptySession, WalletSession } from "../../services/WalletSession"
import { Badge, Button, Card, Page, PageTitle } from "../../ui/kit"
import { simulateClaim, walletRequiredToast } from "./claim"

const sessionStream = Stream.unwrap(Effect.map(WalletSession, (w) => w.session))

const STEPS = [
  { title: "Use the services", text: "Swap, bridge and hold hAssets: every action counts towards your allocation." },
  { title: "Bridge activity earns more", text: "Bridged volume weighs more than swaps in the Season 1 formula." },
  { title: "Early adopter bonus", text: "Accounts active in the first weeks get a bonus multiplier." }
] as const

export function AirdropPage() {
  const { brand } = useAppConfig()
  const session = useStream(sessionStream, emptySession)
  const run = useRun()
  const [claiming, setClaiming] = useState(false)
  const account = session.selected

  const onClaim = () => {
    if (account === undefined) {
      void run(walletRequiredToast)
      return
    }
    if (claiming) return
    setClaiming(true)
    void run(simulateClaim).then(() => setClaiming(false))
  }

  return (
    <Page width="max-w-4xl">
      <PageTitle subtitle="Earn GKS by using the product.">
        {/* "Season 1" wraps as one: a lone "1" on a line of its own reads as a stray digit. */}
        {`${brand.name} Airdrop - `}
        <span className="whitespace-nowrap">Season 1</span>
      </PageTitle>
      <div className="grid gap-5 md:grid-cols-[1.2fr_1fr]">
        <Card testId="airdrop-claim">
          <h2 className="text-lg font-semibold">Your allocation</h2>
          <dl className="mt-4 space-y-3 text-sm">
            <div className="flex justify-between gap-3">
              <dt className="text-muted">Account</dt>
              <dd data-testid="airdrop-account" className="font-mono">
                {account === undefined ? "Not connected" : shortenAddressAirdrop(account)}
              </dd>
            </div>
            <div className="flex justify-between gap-3">
              <dt className="text-muted">Allocation</dt>
              <dd className="font-semibold">To be determined GKS</dd>
            </div>
          </dl>
          <Button
            variant="primary"
            className="mt-5 w-full"
            aria-disabled={account === undefined || claiming}
            onClick={onClaim}
          >
            {claiming ? "Claiming..." : "Claim GKS Tokens"}
          </Button>
          <p className="mt-4 rounded-lg border border-warn/40 bg-warn/10 p-3 text-xs text-warn">
            The airdrop is in development until the GKS token is deployed.
          </p>
        </Card>
        <Card testId="airdrop-info">
          <h2 className="text-lg font-semibold">How it works</h2>
          <ol className="mt-3 space-y-3">
            {STEPS.map((s, i) => (
              <li key={s.title} className="flex gap-3">
                <span className="grid h-7 w-7 shrink-0 place-items-center rounded-full bg-accent/15 text-sm font-semibold text-accent">
                  {i + 1}
                </span>
                <div>
                  <p className="font-semibold">{s.title}</p>
                  <p className="text-sm text-muted">{s.text}</p>
                </div>
              </li>
            ))}
          </ol>
          <dl className="mt-5 grid grid-cols-2 gap-3 text-sm">
            <div className="rounded-lg bg-panel-2 p-3">
              <dt className="text-muted">Total Supply</dt>
              <dd className="font-semibold">100,000 GKS</dd>
            </div>
            <div className="rounded-lg bg-panel-2 p-3">
              <dt className="text-muted">Season 1 pool</dt>
              <dd className="font-semibold">20,000 GKS</dd>
            </div>
            <div className="col-span-2 rounded-lg bg-panel-2 p-3">
              <dt className="text-muted">Distribution</dt>
              <dd className="font-semibold">
                By usage and activity <Badge tone="accent">Season 1</Badge>
              </dd>
            </div>
          </dl>
        </Card>
      </div>
    </Page>
  )
}
