import * as Tabs from "@radix-ui/react-tabs"
import { Clock, Effect, Stream } from "effect"
import { useState } from "react"
import { readAmountInput } from "../../../exchange/amount"
import type { BtcPriceResponse } from "../../../exchange/api"
import type { ExchangeError } from "../../../exchange/ExchangeApi"
import { formatRelativeTime, formatUsd, formatUsdValue } from "../../../exchange/format"
import { useAppConfig } from "../../config/useAppConfig"
import { useEffectResult, useFork, useStream } from "../../runtime/app-runtime"
import { Loading, type Remote } from "../../runtime/remote"
import { Toaster } from "../../services/Toaster"
import { emptySession, WalletSession } from "../../services/WalletSession"
import { Badge, Button, Card, ExternalLink, FlipIcon, Page, Progress, Spinner } from "../../ui/kit"
import { btcPriceErrorMessage, btcPriceStream } from "./btcPrice"
import { bridgeInDevelopmentToast, type Destination, type Direction, hbtcButtonLabel } from "./labels"

const sessionStream = Stream.unwrap(Effect.map(WalletSession, (w) => w.session))

/** A bridge transaction (spec app §3); the bridge has no backend yet, so the lists are empty. */
export interface BridgeTransaction {
  readonly id: string
  readonly type: "import" | "export"
  readonly amount: string
  readonly fromNetwork: string
  readonly toNetwork: string
  readonly status: "completed" | "pending" | "failed"
  readonly timestamp: number
  readonly txHash?: string
  readonly userAddress: string
}

const BITCOIN_EXPLORER_TX = "https://mempool.space/tx/"

const statusStyle: Record<BridgeTransaction["status"], { icon: string; className: string }> = {
  completed: { icon: "✓", className: "text-ok" },
  pending: { icon: "…", className: "text-warn" },
  failed: { icon: "✕", className: "text-danger" }
}

export function BridgeTransactionRow({
  tx,
  nowMillis
}: {
  readonly tx: BridgeTransaction
  readonly nowMillis: number
}) {
  const style = statusStyle[tx.status]
  return (
    <li data-testid="bridge-tx-row" className="flex items-center gap-3 rounded-lg bg-panel-2 px-3 py-2 text-sm">
      <span aria-label={tx.status} className={`w-5 text-center font-semibold ${style.className}`}>
        {style.icon}
      </span>
      <span className="w-14 capitalize">{tx.type}</span>
      <span className="tabular-nums">
        {tx.amount} {tx.type === "import" ? "BTC" : "hBTC"}
      </span>
      <span className="hidden text-muted sm:inline">
        {tx.fromNetwork} → {tx.toNetwork}
      </span>
      <span className="ml-auto text-muted">{formatRelativeTime(tx.timestamp, nowMillis)}</span>
      {tx.txHash !== undefined && (
        <ExternalLink href={`${BITCOIN_EXPLORER_TX}${encodeURIComponent(tx.txHash)}`} className="text-accent underline">
          View
        </ExternalLink>
      )}
    </li>
  )
}

function TransactionList({
  items,
  nowMillis
}: {
  readonly items: ReadonlyArray<BridgeTransaction>
  readonly nowMillis: number
}) {
  if (items.length === 0)
    return (
      <div className="py-8 text-center">
        <p className="font-semibold">No transactions yet</p>
        <p className="mt-1 text-sm text-muted">Your bridge transactions will appear here</p>
      </div>
    )
  return (
    <ul className="flex flex-col gap-2">
      {items.map((tx) => (
        <BridgeTransactionRow key={tx.id} tx={tx} nowMillis={nowMillis} />
      ))}
    </ul>
  )
}

function PriceLine({ price }: { readonly price: Remote<BtcPriceResponse, ExchangeError> }) {
  if (price._tag === "Success")
    return (
      <p data-testid="btc-price" className="min-w-0 text-sm text-muted wrap-anywhere">
        BTC price: <span className="font-semibold text-ink">{formatUsd(price.value.price)}</span>
      </p>
    )
  if (price._tag === "Loading")
    return (
      <p data-testid="btc-price" className="text-sm text-muted">
        <Spinner label="Loading BTC price..." />
      </p>
    )
  return (
    <p
      data-testid="btc-price"
      className="text-sm text-muted"
      title={price._tag === "Failure" ? btcPriceErrorMessage(price.error) : undefined}
    >
      Price unavailable
    </p>
  )
}

const usdValue = (amount: string, price: Remote<BtcPriceResponse, ExchangeError>): string => {
  if (price._tag !== "Success") return "≈ $0.00"
  return `≈ ${formatUsdValue(amount, price.value.price)}`
}

export function HbtcPage() {
  const { brand } = useAppConfig()
  const fork = useFork()
  const session = useStream(sessionStream, emptySession)
  const price = useStream(btcPriceStream, Loading as Remote<BtcPriceResponse, ExchangeError>)
  const now = useEffectResult(Clock.currentTimeMillis, [])
  const [direction, setDirection] = useState<Direction>("import")
  const [amount, setAmount] = useState("")
  // Why the last edit of the amount was refused; cleared by the next accepted one.
  const [amountRefusal, setAmountRefusal] = useState("")
  const [destination, setDestination] = useState<Destination>("bitcoin")
  const connected = session.selected !== undefined
  const fromAsset = direction === "import" ? "BTC" : "hBTC"
  const toAsset = direction === "import" ? "hBTC" : "BTC"
  const nowMillis = now._tag === "Success" ? now.value : 0
  const globalTransactions: ReadonlyArray<BridgeTransaction> = []
  const myTransactions: ReadonlyArray<BridgeTransaction> = []
  const editAmount = (raw: string) => {
    const read = readAmountInput(raw, amount)
    if (read._tag === "Refused") setAmountRefusal(read.reason)
    else {
      setAmount(read.value)
      setAmountRefusal("")
    }
  }

  return (
    <Page width="max-w-5xl">
      <header className="mb-6 flex items-center gap-4">
        <svg aria-hidden viewBox="0 0 64 64" className="h-14 w-14 shrink-0">
          <circle cx="32" cy="32" r="30" fill="#f7931a" />
          <path
            d="M26 18v28M32 16v4M32 44v4M24 20h12a6 6 0 0 1 0 12H24M24 32h13a7 7 0 0 1 0 14H24"
            stroke="#fff"
            strokeWidth="4"
            fill="none"
            strokeLinecap="round"
          />
        </svg>
        <div>
          <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">hBTC Bridge</h1>
          <p className="mt-1 text-muted">Import Bitcoin to Radix or Export hBTC back to Bitcoin/Lightning Network</p>
        </div>
      </header>
      <div className="grid gap-5 lg:grid-cols-[1.3fr_1fr]">
        <Card testId="hbtc-form">
          <div className="flex items-center justify-between">
            <h2 className="text-lg font-semibold">{direction === "import" ? "Import BTC" : "Export hBTC"}</h2>
            <PriceLine price={price} />
          </div>
          <div className="mt-4 rounded-xl bg-panel-2 p-4">
            <label htmlFor="hbtc-amount" className="text-xs text-muted">
              From ({fromAsset})
            </label>
            <div className="mt-1 flex items-center gap-2">
              <input
                id="hbtc-amount"
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.0"
                value={amount}
                aria-describedby={amountRefusal === "" ? undefined : "hbtc-amount-refusal"}
                onChange={(e) => editAmount(e.target.value)}
                className="w-full bg-transparent text-2xl font-semibold tabular-nums outline-none placeholder:text-muted/50 focus-visible:ring-2 focus-visible:ring-accent rounded-md"
              />
              <button
                type="button"
                className="rounded-md border border-line px-2 py-1 text-xs font-semibold text-muted"
              >
                MAX
              </button>
            </div>
            <p
              id="hbtc-amount-refusal"
              data-testid="hbtc-amount-refusal"
              role="status"
              aria-live="polite"
              className="text-xs text-warn"
            >
              {amountRefusal}
            </p>
            <div className="mt-1 flex justify-between gap-3 text-xs text-muted">
              <span data-testid="hbtc-usd" className="min-w-0 wrap-anywhere">
                {usdValue(amount, price)}
              </span>
              <span className="shrink-0">Balance: 0.0</span>
            </div>
          </div>
          <div className="my-2 flex justify-center">
            <button
              type="button"
              aria-label="Switch direction"
              data-testid="hbtc-direction"
              onClick={() => {
                setDirection((d) => (d === "import" ? "export" : "import"))
                setAmount("")
                setAmountRefusal("")
              }}
              className="rounded-full border border-line bg-panel p-2 hover:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
            >
              <FlipIcon />
            </button>
          </div>
          <div className="rounded-xl bg-panel-2 p-4">
            <p className="text-xs text-muted">To ({toAsset})</p>
            <p
              data-testid="hbtc-to-amount"
              className="mt-1 text-2xl font-semibold tabular-nums text-muted wrap-anywhere"
            >
              {amount === "" ? "0.0" : amount}
            </p>
            <p className="mt-1 text-xs text-muted wrap-anywhere">{usdValue(amount, price)}</p>
            {direction === "export" && (
              <label className="mt-3 flex items-center justify-between gap-3 text-sm">
                <span className="text-muted">Destination</span>
                <select
                  value={destination}
                  data-testid="hbtc-destination"
                  onChange={(e) => setDestination(e.target.value === "lightning" ? "lightning" : "bitcoin")}
                  className="rounded-md border border-line bg-panel px-2 py-1"
                >
                  <option value="bitcoin">Bitcoin</option>
                  <option value="lightning">Lightning</option>
                </select>
              </label>
            )}
          </div>
          <Button
            variant="primary"
            data-testid="hbtc-main"
            className="mt-4 w-full py-3"
            onClick={() => fork(Toaster.show(bridgeInDevelopmentToast))}
          >
            {hbtcButtonLabel(connected, direction, amount)}
          </Button>
        </Card>
        <div className="flex flex-col gap-5">
          <Card testId="hbtc-liquidity">
            <h2 className="text-lg font-semibold">Bridge Liquidity</h2>
            <div className="mt-3 space-y-3 text-sm">
              <div>
                <div className="mb-1 flex justify-between">
                  <span className="text-muted">Bitcoin</span>
                  <span className="tabular-nums">0/15 BTC</span>
                </div>
                <Progress value={0} max={15} label="Bitcoin liquidity" />
              </div>
              <div>
                <div className="mb-1 flex justify-between">
                  <span className="text-muted">Radix</span>
                  <span className="tabular-nums">0/10 hBTC</span>
                </div>
                <Progress value={0} max={10} label="Radix liquidity" />
              </div>
            </div>
          </Card>
          <Card testId="hbtc-fees">
            <h2 className="text-lg font-semibold">Bridge Fees</h2>
            <dl className="mt-3 space-y-2 text-sm">
              {(
                [
                  ["Bitcoin network fee", "0 BTC"],
                  ["Lightning network fee", "0 BTC"],
                  ["Radix network fee", "0 XRD"],
                  ["Service Fee", "0.1%"]
                ] as const
              ).map(([k, v]) => (
                <div key={k} className="flex justify-between">
                  <dt className="text-muted">{k}</dt>
                  <dd className="tabular-nums">{v}</dd>
                </div>
              ))}
            </dl>
          </Card>
        </div>
      </div>
      <Card className="mt-5" testId="hbtc-transactions">
        <Tabs.Root defaultValue="global">
          <Tabs.List aria-label="Bridge transactions" className="mb-4 flex gap-2">
            {(
              [
                ["global", "Global Transactions"],
                ["mine", "My Transactions"]
              ] as const
            ).map(([value, label]) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className="rounded-lg px-3 py-1.5 text-sm text-muted data-[state=active]:bg-accent/15 data-[state=active]:text-accent"
              >
                {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="global">
            <TransactionList items={globalTransactions} nowMillis={nowMillis} />
          </Tabs.Content>
          <Tabs.Content value="mine">
            <TransactionList items={myTransactions} nowMillis={nowMillis} />
          </Tabs.Content>
        </Tabs.Root>
      </Card>
      <div className="mt-5 rounded-xl border border-warn/40 bg-warn/10 p-4 text-sm">
        <div className="flex items-center gap-2">
          <Badge tone="warn">In Development</Badge>
          <span className="font-semibold">The hBTC bridge is a preview.</span>
        </div>
        <p className="mt-2 text-muted">
          Nothing is bridged yet. Questions? Reach us on{" "}
          <ExternalLink href={brand.messagingBotUrl} className="text-accent underline">
            Telegram
          </ExternalLink>{" "}
          or{" "}
          <ExternalLink href={brand.microblogUrl} className="text-accent underline">
            X
          </ExternalLink>
          .
        </p>
      </div>
    </Page>
  )
}
