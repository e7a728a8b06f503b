/**
 * The anchor dApp of `npm run bench:app` (DESIGN §6): the landing page a typical Radix dApp ships on the common stack,
 * React + the official dApp toolkit (whose `<radix-connect-button>` it loads lazily) + the official gateway SDK +
 * TanStack Query + wouter + Radix UI (dialog, toast, tooltip). It mirrors hSwap's `/`: a header with the connect
 * button, a swap card (token picker dialog, amount, flip, rate line with a tooltip, action button that sends a
 * transaction), the gateway status and the account's balances through TanStack Query, a toast, and a lazy route.
 *
 * Built by bench/app.ts with Vite's JS API; it is never shipped. It talks to the devnet on its own origin (/gateway).
 */
import * as Dialog from "@radix-ui/react-dialog"
import * as Toast from "@radix-ui/react-toast"
import * as Tooltip from "@radix-ui/react-tooltip"
import { GatewayApiClient, type StateEntityDetailsVaultResponseItem } from "@radixdlt/babylon-gateway-api-sdk"
import { DataRequestBuilder, RadixDappToolkit, type WalletDataStateAccount } from "@radixdlt/radix-dapp-toolkit"
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query"
import { lazy, StrictMode, Suspense, useEffect, useMemo, useState } from "react"
import { createRoot } from "react-dom/client"
import { Link, Route, Switch } from "wouter"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import "./anchor.css"

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "radix-connect-button": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>
    }
  }
}

const gatewayBaseUrl = `${window.location.origin}/gateway`

const rdt = RadixDappToolkit({
  networkId: DevnetAddresses.networkId,
  dAppDefinitionAddress: DevnetAddresses.dAppDefinition,
  applicationName: "Anchor dApp",
  applicationVersion: "1.0.0",
  gatewayBaseUrl,
  // The devnet (network 240) is not in the toolkit's list of networks, so its dashboard is named here.
  explorer: {
    baseUrl: `${window.location.origin}/devnet/dashboard`,
    transactionPath: "/transaction/",
    subintentPath: "/subintent/",
    accountsPath: "/account/"
  }
})
rdt.walletApi.setRequestData(DataRequestBuilder.accounts().atLeast(1))
rdt.buttonApi.setMode("dark")

const gatewayApi = GatewayApiClient.initialize({
  basePath: gatewayBaseUrl,
  applicationName: "Anchor dApp",
  networkId: DevnetAddresses.networkId
})

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity } }
})

interface Token {
  readonly symbol: string
  readonly address: string
  readonly usd: number
}

const TOKENS: ReadonlyArray<Token> = [
  { symbol: "hETH", address: DevnetAddresses.resources.hETH, usd: 3000 },
  { symbol: "hUSDC", address: DevnetAddresses.resources.hUSDC, usd: 1 },
  { symbol: "hUSDT", address: DevnetAddresses.resources.hUSDT, usd: 1 },
  { symbol: "hBTC", address: DevnetAddresses.resources.hBTC, usd: 60000 },
  { symbol: "XRD", address: DevnetAddresses.resources.XRD, usd: 0.02 }
]

const useAccounts = (): ReadonlyArray<WalletDataStateAccount> => {
  const [accounts, setAccounts] = useState<ReadonlyArray<WalletDataStateAccount>>([])
  useEffect(() => {
    const sub = rdt.walletApi.walletData$.subscribe((data) => setAccounts(data.accounts))
    return () => sub.unsubscribe()
  }, [])
  return accounts
}

function TokenPicker(props: { readonly value: Token; readonly onPick: (t: Token) => void }) {
  const [open, setOpen] = useState(false)
  const [search, setSearch] = useState("")
  const found = TOKENS.filter((t) => t.symbol.toLowerCase().includes(search.toLowerCase()))
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="token">{props.value.symbol} ▾</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>Select a token</Dialog.Title>
          <Dialog.Description className="muted">Tokens accepted by the exchange.</Dialog.Description>
          <input placeholder="Search tokens..." value={search} onChange={(e) => setSearch(e.target.value)} />
          <ul>
            {found.length === 0 ? <li className="muted">No tokens found</li> : null}
            {found.map((t) => (
              <li key={t.symbol}>
                <button
                  type="button"
                  onClick={() => {
                    props.onPick(t)
                    setOpen(false)
                  }}
                >
                  {t.symbol}
                </button>
              </li>
            ))}
          </ul>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

const fungibleAmount = (details: StateEntityDetailsVaultResponseItem, resource: string): number => {
  const item = details.fungible_resources?.items.find((i) => i.resource_address === resource)
  return item === undefined ? 0 : item.vaults.items.reduce((sum, v) => sum + Number(v.amount), 0)
}

function SwapCard(props: {
  readonly account: WalletDataStateAccount | undefined
  readonly notify: (s: string) => void
}) {
  const [from, setFrom] = useState<Token>(TOKENS[0] ?? { symbol: "hETH", address: "", usd: 0 })
  const [to, setTo] = useState<Token>(TOKENS[1] ?? { symbol: "hUSDC", address: "", usd: 0 })
  const [amount, setAmount] = useState("")
  const address = props.account?.address
  const balances = useQuery({
    queryKey: ["balances", address],
    queryFn: () => gatewayApi.state.getEntityDetailsVaultAggregated(address ?? ""),
    enabled: address !== undefined
  })
  const balance = balances.data === undefined ? 0 : fungibleAmount(balances.data, from.address)
  const value = Number(amount)
  const out = useMemo(() => (value > 0 ? (value * from.usd * 0.999 - 0.1) / to.usd : 0), [value, from, to])
  const over = address !== undefined && value > balance
  const label =
    address === undefined
      ? "Connect Wallet"
      : value <= 0
        ? "Enter Amount to Swap"
        : over
          ? "Amount exceeds balance"
          : "Swap"
  const swap = async () => {
    if (address === undefined) return
    const manifest = [
      `CALL_METHOD Address("${address}") "withdraw" Address("${from.address}") Decimal("${amount}");`,
      `TAKE_ALL_FROM_WORKTOP Address("${from.address}") Bucket("b");`,
      `CALL_METHOD Address("${DevnetAddresses.exchangeAccount}") "try_deposit_or_abort" Bucket("b") None;`
    ].join("\n")
    const result = await rdt.walletApi.sendTransaction({
      transactionManifest: manifest,
      version: 1,
      message: `anchor | Radix | ${from.symbol} -> ${to.symbol}`
    })
    props.notify(
      result.isOk() ? `Sent ${result.value.transactionIntentHash}` : `Transaction failed: ${result.error.error}`
    )
  }
  return (
    <section className="card">
      <div className="row">
        <h1>Swap</h1>
        <Link href="/stats">Stats</Link>
      </div>
      <div className={over ? "field over" : "field"}>
        <label htmlFor="from-amount">From</label>
        <div className="row">
          <input
            id="from-amount"
            className="amount"
            inputMode="decimal"
            placeholder="0.0"
            value={amount}
            onChange={(e) => setAmount(e.target.value.replace(/[^0-9.]/g, ""))}
          />
          <TokenPicker value={from} onPick={setFrom} />
        </div>
        <div className="row muted">
          <span>≈ ${(value * from.usd).toFixed(2)}</span>
          <span>Balance: {balance.toFixed(8)}</span>
        </div>
      </div>
      <button
        type="button"
        className="flip"
        aria-label="Flip"
        onClick={() => {
          setFrom(to)
          setTo(from)
        }}
      >
        ⇅
      </button>
      <div className="field">
        <label htmlFor="to-amount">To</label>
        <div className="row">
          <input id="to-amount" className="amount" readOnly value={out > 0 ? out.toFixed(6) : ""} placeholder="0.0" />
          <TokenPicker value={to} onPick={setTo} />
        </div>
      </div>
      <div className="row muted">
        <span>
          1 {from.symbol} = {(from.usd / to.usd).toFixed(6)} {to.symbol}
        </span>
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <span tabIndex={0}>Fee ⓘ</span>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content className="tooltip" sideOffset={6}>
              0.1% spread plus 0.1 USD network fee
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      </div>
      <button type="button" className="action" disabled={label !== "Swap"} onClick={() => void swap()}>
        {label}
      </button>
    </section>
  )
}

function GatewayStatus() {
  const status = useQuery({ queryKey: ["gateway-status"], queryFn: () => gatewayApi.status.getCurrent() })
  return (
    <section className="card">
      <h2>Network</h2>
      {status.isPending ? <p className="muted">Loading…</p> : null}
      {status.isError ? <p className="muted">Gateway unavailable</p> : null}
      {status.data === undefined ? null : (
        <>
          <div className="tx">
            <span>Network</span>
            <span>{status.data.ledger_state.network}</span>
          </div>
          <div className="tx">
            <span>Epoch</span>
            <span>{status.data.ledger_state.epoch}</span>
          </div>
          <div className="tx">
            <span>State version</span>
            <span>{status.data.ledger_state.state_version}</span>
          </div>
        </>
      )}
    </section>
  )
}

function FaqDialog() {
  return (
    <Dialog.Root>
      <Dialog.Trigger className="token">FAQ</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>FAQ</Dialog.Title>
          <Dialog.Description>Swaps settle at a fixed rate with a 0.3% spread.</Dialog.Description>
          <Dialog.Close className="token">Close</Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

const StatsPage = lazy(() => import("./StatsPage"))

function App() {
  const accounts = useAccounts()
  const [toasts, setToasts] = useState<ReadonlyArray<{ readonly id: number; readonly text: string }>>([])
  const notify = (text: string) => setToasts((ts) => [...ts, { id: Date.now(), text }])
  useEffect(() => {
    const timer = setTimeout(() => notify("Welcome! Connect your Radix wallet to swap."), 4000)
    return () => clearTimeout(timer)
  }, [])
  return (
    <Toast.Provider swipeDirection="right">
      <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
        <header className="header">
          <span className="brand">Anchor</span>
          <nav className="nav">
            <Link href="/">Swap</Link>
            <Link href="/stats">Stats</Link>
            <FaqDialog />
          </nav>
          <radix-connect-button />
        </header>
        <Switch>
          <Route path="/stats">
            <Suspense fallback={<p className="muted">Loading…</p>}>
              <StatsPage />
            </Suspense>
          </Route>
          <Route>
            <main className="main">
              <SwapCard account={accounts[0]} notify={notify} />
              <GatewayStatus />
            </main>
          </Route>
        </Switch>
        {toasts.map((t) => (
          <Toast.Root
            key={t.id}
            className="toast"
            duration={5000}
            onOpenChange={(open) => {
              if (!open) setToasts((ts) => ts.filter((x) => x.id !== t.id))
            }}
          >
            <Toast.Description>{t.text}</Toast.Description>
          </Toast.Root>
        ))}
        <Toast.Viewport className="toast-viewport" />
      </Tooltip.Provider>
    </Toast.Provider>
  )
}

const root = document.getElementById("root")
if (root === null) throw new Error("index.html has no #root element")
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>
)
