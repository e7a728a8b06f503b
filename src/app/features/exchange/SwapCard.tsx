import { Link } from "@tanstack/react-router"
import { Effect, Stream } from "effect"
import { useEffect, useRef, useState } from "react"
import type { LiquidityResponse } from "../../../exchange/api"
import { exceedsBalance } from "../../../exchange/amount"
import { divisibilityOf, formatBalance, formatRate, formatTokenAmount, formatUsdValue } from "../../../exchange/format"
import { Amount } from "./Amount"
import {
  actionLabel,
  actionState,
  type ActionState,
  formatNetworkFee,
  isBlockingAmountState,
  PRICE_IMPACT_TEXT,
  unpairedReason
} from "../../../exchange/swap"
import { WalletRequest } from "../../../toolkit/walletRequestTag"
import { useAppConfig } from "../../config/useAppConfig"
import { useEffectResult, useFork, useStream } from "../../runtime/app-runtime"
import { type Balances, emptySession, WalletSession } from "../../services/WalletSession"
import { Card, FlipIcon, Progress } from "../../ui/kit"
import { Tooltip } from "../../ui/Tooltip"
import { useAmountField } from "./amountField"
import { liquidityOf } from "./liquidity"
import { SwapMachine } from "./machine/SwapMachine"
import { ATOMIC_FEE_TEXT, atomicTermsText } from "./machine/atomic"
import {
  atomicOffered,
  initialSwapState,
  type NetworkFeeState,
  networkFeeText,
  PRICE_CYCLE_SECONDS,
  type SwapState
} from "./machine/state"
import { buildTokenList, type TokenEntry } from "./machine/tokens"
import { TokenSelect } from "./TokenSelect"

const machineState = Stream.unwrap(Effect.map(SwapMachine, (m) => m.state))
const machineLiquidity = Stream.unwrap(Effect.map(SwapMachine, (m) => m.liquidity))
const machineFee = Stream.unwrap(Effect.map(SwapMachine, (m) => m.networkFee))
const sessionStream = Stream.unwrap(Effect.map(WalletSession, (w) => w.session))
const balancesStream = Stream.unwrap(Effect.map(WalletSession, (w) => w.balances))
const runMachine = Effect.flatMap(SwapMachine, (m) => m.run)
const noBalances: Balances = { _tag: "None" }

export type SwapDialog = "liquidity" | "faq" | "routes"

/** The spec's swap card (§2 "Main swap page"): its state is the SwapMachine's; this only renders and forwards clicks. */
export function SwapCard({ onOpenDialog }: { readonly onOpenDialog: (dialog: SwapDialog) => void }) {
  const config = useAppConfig()
  const fork = useFork()
  const s: SwapState = useStream(machineState, initialSwapState)
  const liquidity: LiquidityResponse | undefined = useStream(machineLiquidity, undefined)
  const networkFee: NetworkFeeState | undefined = useStream(machineFee, undefined)
  const session = useStream(sessionStream, emptySession)
  const balances = useStream(balancesStream, noBalances)
  // The card's timers run while it is shown.
  useEffectResult(runMachine, [])
  const [refreshing, setRefreshing] = useState(false)
  // The field shows its own text until the machine has read it, the typing into the prerendered field included.
  const amountField = useAmountField(s, (raw, input) =>
    fork(Effect.flatMap(SwapMachine, (m) => m.setAmount(raw, input)))
  )

  const actionArea = useRef<HTMLDivElement>(null)
  const phase = s.swap?._tag
  useEffect(() => {
    if (phase === "wallet" || phase === "signing")
      actionArea.current?.scrollIntoView?.({ block: "nearest", behavior: "smooth" })
  }, [phase])

  const tokens = buildTokenList(config.tokenResources, liquidity?.assets ?? [])
  const from = tokens.find((t) => t.symbol === s.from)
  const to = tokens.find((t) => t.symbol === s.to)
  const balanceOf = (resource: string | undefined) =>
    balances._tag === "Ready" && resource !== undefined ? (balances.amounts[resource] ?? "0") : undefined
  const listBalance = (t: TokenEntry) => {
    const b = balanceOf(t.resourceAddress)
    return b === undefined ? undefined : formatBalance(b, t.decimals)
  }
  const fromDecimals = from?.decimals ?? divisibilityOf(s.from)
  const toDecimals = to?.decimals ?? divisibilityOf(s.to)
  const fromBalance = balanceOf(from?.resourceAddress)
  const toBalance = balanceOf(to?.resourceAddress)
  const toLiquidity = liquidityOf(liquidity, s.to)
  const exceeds = fromBalance !== undefined && exceedsBalance(s.amount, fromBalance)
  const usd = (amount: string | undefined, symbol: string) => {
    const price = s.prices[symbol]
    return price === undefined || amount === undefined ? "$0.00" : formatUsdValue(amount, price)
  }
  const state: ActionState = actionState({
    status: s.status,
    quotePrepared: s.quotePrepared,
    account: session.selected,
    from: s.from,
    to: s.to,
    amount: s.amount,
    expectedOutput: s.quote?.toAmount,
    toLiquidity,
    limits: s.quote?.limits,
    balance: fromBalance
  })
  const label = actionLabel(state, {
    from: s.from,
    amount: s.amount,
    balance: fromBalance,
    limits: s.quote?.limits,
    countdown: s.countdown,
    fromDivisibility: fromDecimals
  })
  const machine = <A, E>(f: (m: SwapMachine) => Effect.Effect<A, E>) => fork(Effect.flatMap(SwapMachine, f))
  const onAction = () => {
    if (state === "disconnected") fork(Effect.flatMap(WalletRequest, (w) => w.connect()))
    else if (state === "ready") machine((m) => m.prepare)
    // Above the balance the button is orange, not a green Execute; a press gives the spec's balance toast (§5).
    else if (state === "success" || (state === "err_balance" && s.quotePrepared)) machine((m) => m.execute)
    else if (state === "err_balance") machine((m) => m.explainBalance)
  }
  const binding = s.quote?.binding
  // Execute asks for a pre-authorisation: the card says what it binds.
  const atomic = atomicOffered(s)
  const heldSeconds = binding === undefined ? undefined : Math.max(0, Math.ceil((binding.expiresAt - s.now) / 1000))
  const clickable = state === "disconnected" || state === "ready" || state === "success" || state === "err_balance"

  if (s.serviceMode === "maintenance")
    return (
      <ModeCard
        title="Service Temporarily Unavailable"
        text="Service in maintenance"
        hint="The card comes back by itself when the exchange is available again."
      />
    )
  if (s.serviceMode === "rate_limited")
    return (
      <ModeCard
        title="Rate Limit Reached"
        text="Rate limit exceeded"
        hint="The card comes back by itself in a moment."
      />
    )

  return (
    <div className="flex flex-col gap-4">
      {s.apiUnavailable && (
        <div
          role="alert"
          data-testid="api-unavailable"
          className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm"
        >
          <p className="font-semibold text-danger">API Unavailable</p>
          <p className="text-muted">Cannot connect to price API</p>
        </div>
      )}
      <Card testId="swap-card" className="flex flex-col gap-3">
        <header className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-xl font-semibold md:text-2xl">Exchange Wrapped Assets</h1>
            <Link to="/swap" className="text-xs text-accent underline">
              Regular exchange through our partners →
            </Link>
          </div>
          <div className="flex gap-1.5">
            {(["liquidity", "faq", "routes"] as const).map((d) => (
              <button
                key={d}
                type="button"
                onClick={() => onOpenDialog(d)}
                className="rounded-lg border border-line px-2.5 py-1 text-xs font-semibold text-muted hover:border-accent hover:text-ink"
              >
                {d === "liquidity" ? "Liquidity" : d === "faq" ? "FAQ" : "Routes"}
              </button>
            ))}
          </div>
        </header>

        <section aria-label="From" className="rounded-xl bg-panel-2 p-4">
          <div className="flex items-center justify-between text-xs text-muted">
            <span>From</span>
            <span data-testid="from-balance" className="text-right">
              Balance:{" "}
              {fromBalance === undefined ? "—" : <Amount value={fromBalance} decimals={fromDecimals} balance />}{" "}
              <button
                type="button"
                disabled={refreshing || session.selected === undefined}
                onClick={() => {
                  setRefreshing(true)
                  void fork(Effect.flatMap(WalletSession, (w) => w.refreshBalances)).addObserver(() =>
                    setRefreshing(false)
                  )
                }}
                className="ml-1 text-accent underline disabled:opacity-50"
              >
                Update balances
              </button>
            </span>
          </div>
          {/* Narrow screens stack the token and MAX above a full-width amount, so a long amount shows whole. */}
          <div className="mt-2 flex flex-wrap items-center gap-2 sm:flex-nowrap">
            <TokenSelect
              label="From token"
              value={s.from}
              tokens={tokens}
              onSelect={(t) => machine((m) => m.setFrom(t))}
              unpairedReason={(t) => unpairedReason("from", t, s)}
              balanceOf={listBalance}
            />
            <input
              ref={amountField.ref}
              aria-label="Amount to swap"
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.0"
              value={amountField.value}
              readOnly={s.swap !== undefined}
              onChange={(e) => amountField.onChange(e.target.value)}
              data-exceeds={exceeds ? "true" : "false"}
              aria-invalid={s.amountNotice !== undefined || exceeds}
              aria-describedby={s.amountNotice === undefined ? undefined : "amount-notice"}
              className={`order-3 w-full min-w-0 basis-full rounded-lg border bg-transparent px-2 py-1 text-right text-2xl font-semibold tabular-nums outline-none focus-visible:ring-2 sm:order-2 sm:basis-auto sm:flex-1 ${
                exceeds || s.amountNotice !== undefined
                  ? "border-warn focus-visible:ring-warn/60"
                  : "border-transparent focus:border-line focus-visible:ring-accent"
              }`}
            />
            <button
              type="button"
              disabled={fromBalance === undefined || s.swap !== undefined}
              onClick={() => fromBalance !== undefined && machine((m) => m.setAmount(fromBalance))}
              className="order-2 ml-auto rounded-md border border-line px-2 py-1 text-xs font-semibold text-muted hover:text-ink disabled:opacity-50 sm:order-3 sm:ml-0"
            >
              MAX
            </button>
          </div>
          <p
            id="amount-notice"
            role="status"
            aria-live="polite"
            data-testid="amount-notice"
            className="mt-1 text-right text-xs text-warn"
          >
            {s.amountNotice ?? ""}
          </p>
          <p data-testid="from-usd" className="mt-1 text-right text-xs text-muted wrap-anywhere">
            ≈ {usd(s.amount, s.from)}
          </p>
        </section>

        <div className="-my-1 flex justify-center">
          <button
            type="button"
            aria-label="Flip direction"
            onClick={() => machine((m) => m.flip)}
            className="rounded-full border border-line bg-panel p-2 hover:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
          >
            <FlipIcon />
          </button>
        </div>

        <section aria-label="To" className="rounded-xl bg-panel-2 p-4">
          <div className="flex items-center justify-between text-xs text-muted">
            <span>To</span>
            <span>
              Balance: {toBalance === undefined ? "—" : <Amount value={toBalance} decimals={toDecimals} balance />}
            </span>
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-2 sm:flex-nowrap">
            <TokenSelect
              label="To token"
              value={s.to}
              tokens={tokens}
              onSelect={(t) => machine((m) => m.setTo(t))}
              unpairedReason={(t) => unpairedReason("to", t, s)}
              balanceOf={listBalance}
            />
            <output
              data-testid="to-amount"
              className="w-full min-w-0 basis-full break-all text-right text-2xl font-semibold tabular-nums text-muted sm:basis-auto sm:flex-1"
            >
              {s.quote === undefined ? "0.0" : <Amount value={s.quote.toAmount} decimals={toDecimals} />}
            </output>
          </div>
          <div className="mt-1 flex flex-wrap justify-between gap-x-3 text-xs text-muted">
            <span data-testid="exchange-liquidity" className="whitespace-nowrap">
              Exchange Liquidity:{" "}
              {toLiquidity === undefined ? "—" : `${formatTokenAmount(toLiquidity, toDecimals)} ${s.to}`}
            </span>
            <span data-testid="to-usd" className="ml-auto min-w-0 text-right wrap-anywhere">
              <span className="text-warn">-$0.10</span> ≈ {usd(s.quote?.toAmount, s.to)}
            </span>
          </div>
        </section>

        {/* A trade that cannot happen as entered (above the balance, outside the limits) shows its reason only. */}
        {s.quote !== undefined && !isBlockingAmountState(state) && (
          <dl data-testid="rate-panel" className="space-y-1.5 rounded-xl border border-line p-3 text-sm">
            <Row label="Rate">
              1 {s.from} = {formatRate(s.quote.rate)} {s.to}
            </Row>
            <Row label="Rate">
              1 {s.to} = {formatRate(s.quote.inverseRate)} {s.from}
            </Row>
            <Row label="Price impact">{PRICE_IMPACT_TEXT}</Row>
            <Row label="Network fee">
              <span data-testid="network-fee">
                {atomic ? ATOMIC_FEE_TEXT : networkFeeText(networkFee, s.from, s.amount, formatNetworkFee)}
              </span>
            </Row>
            <Row
              label={
                <Tooltip content="A 0.1% spread is included in the rate, and 0.1 USD worth of the received token is deducted from the payout to cover the network fee.">
                  <span tabIndex={0} className="cursor-help underline decoration-dotted">
                    Spread + fee
                  </span>
                </Tooltip>
              }
            >
              0.1% + 0.1 USD
            </Row>
            {/* An atomic swap's least is what the ledger asserts, the quoted output: the card says no other figure. */}
            <Row label="Minimum received">
              <span data-testid="minimum-received">
                <Amount value={atomic ? s.quote.toAmount : s.quote.minimumReceived} decimals={toDecimals} /> {s.to}
              </span>
            </Row>
            {binding !== undefined && s.quotePrepared && (
              <Row label="Quote">
                <span data-testid="quote-binding">
                  Fixed: you receive exactly <Amount value={s.quote.toAmount} decimals={toDecimals} /> {s.to}
                </span>
              </Row>
            )}
          </dl>
        )}

        {/* What the user must act on stays in view: on a short screen the action area sticks to the bottom edge
            while the card scrolls (above the devnet wallet's folded panel, which publishes how far it reaches up),
            and the wallet step is scrolled into view when it begins. */}
        <div
          ref={actionArea}
          data-testid="swap-actions"
          className="sticky bottom-[min(var(--devnet-wallet-inset,0px),6rem)] z-10 -mx-1 -mb-1 flex flex-col gap-3 rounded-xl bg-panel px-1 pb-1 pt-1"
        >
          {atomic && s.quote !== undefined && s.quotePrepared && (
            <p data-testid="atomic-terms" className="text-center text-sm">
              {atomicTermsText(
                `${formatTokenAmount(s.amount, fromDecimals)} ${s.from}`,
                `${formatTokenAmount(s.quote.toAmount, toDecimals)} ${s.to}`
              )}
            </p>
          )}
          {s.atomicOutcome === "committed" && s.status._tag === "success" && s.quote !== undefined && (
            <p role="status" data-testid="atomic-result" className="text-center text-sm text-ok">
              Sent exactly {formatTokenAmount(s.amount, fromDecimals)} {s.from} and received{" "}
              {formatTokenAmount(s.quote.toAmount, toDecimals)} {s.to}, in one transaction.
            </p>
          )}
          <button
            type="button"
            data-testid="swap-action"
            data-state={state}
            aria-disabled={!clickable}
            onClick={clickable ? onAction : undefined}
            className={`w-full rounded-xl px-4 py-3 text-base font-semibold transition focus:outline-none focus-visible:ring-2 focus-visible:ring-accent ${
              state === "err_balance"
                ? "border border-warn bg-warn/10 text-warn hover:bg-warn/20"
                : clickable
                  ? "bg-accent text-accent-ink hover:brightness-110"
                  : "cursor-not-allowed bg-panel-2 text-muted"
            }`}
          >
            {state === "swapping" && (
              <span
                aria-hidden
                className="mr-2 inline-block h-4 w-4 animate-spin rounded-full border-2 border-accent-ink/30 border-t-accent-ink align-[-2px]"
              />
            )}
            {label}
          </button>
          {s.swap !== undefined && s.swap._tag !== "checking" && (
            <div
              role="status"
              aria-live="polite"
              data-testid="wallet-pending"
              data-phase={s.swap._tag}
              className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-accent/40 bg-accent/5 p-3 text-sm"
            >
              <div>
                <p className="font-semibold">
                  {s.swap._tag === "wallet"
                    ? "Approve in your wallet"
                    : s.swap._tag === "signing"
                      ? "Approve the pre-authorisation in your wallet"
                      : s.swap._tag === "canceling"
                        ? "Canceling the request in your wallet..."
                        : s.swap._tag === "submitting"
                          ? "Signed. The exchange is making the swap in one transaction..."
                          : "Sent. Waiting for the ledger to confirm..."}
                </p>
                {heldSeconds !== undefined && (s.swap._tag === "signing" || s.swap._tag === "submitting") && (
                  <p data-testid="rate-held" className="text-xs text-muted">
                    {heldSeconds > 0
                      ? `Your pre-authorisation ends with the quote in ${minutesSeconds(heldSeconds)}; if the swap is not made by then, nothing moves`
                      : "The quote has expired: if the swap was not made, nothing moved"}
                  </p>
                )}
                {heldSeconds !== undefined && (s.swap._tag === "wallet" || s.swap._tag === "canceling") && (
                  <p data-testid="rate-held" className="text-xs text-muted">
                    {heldSeconds > 0
                      ? `The rate is held for ${minutesSeconds(heldSeconds)}`
                      : "The quote has expired: you are paid at the current rate if it is at least the minimum received, otherwise refunded in full"}
                  </p>
                )}
              </div>
              {(s.swap._tag === "wallet" || s.swap._tag === "signing") && (
                <button
                  type="button"
                  data-testid="swap-cancel"
                  onClick={() => machine((m) => m.cancel)}
                  className="rounded-lg border border-line px-3 py-1.5 text-sm font-semibold hover:border-danger hover:text-danger focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
                >
                  Cancel
                </button>
              )}
            </div>
          )}
          {s.status._tag === "error" && (
            <p role="alert" data-testid="swap-error" className="text-center text-sm text-danger">
              {s.status.message}
            </p>
          )}
          {s.notice !== undefined && s.status._tag !== "error" && (
            <p role="status" data-testid="swap-notice" className="text-center text-sm text-muted">
              {s.notice}
            </p>
          )}
        </div>
      </Card>

      <Card testId="live-prices" className="flex flex-col gap-2">
        <div className="flex items-center justify-between text-sm">
          <span className="font-semibold">Live prices</span>
          <span className="text-xs text-muted">Refresh in {s.cycle}s</span>
        </div>
        <Progress value={PRICE_CYCLE_SECONDS - s.cycle} max={PRICE_CYCLE_SECONDS} label="Price refresh countdown" />
        <p className="text-xs text-muted">
          Use only the official {config.brand.name} interface at {config.brand.website}. We never ask for your seed
          phrase.
        </p>
      </Card>
    </div>
  )
}

/** Seconds as m:ss. */
const minutesSeconds = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`

function Row({ label, children }: { readonly label: React.ReactNode; readonly children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-3">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 text-right tabular-nums wrap-anywhere">{children}</dd>
    </div>
  )
}

/** A service mode's card: its title, the spec §8 message word for word, and when the card comes back. */
function ModeCard({ title, text, hint }: { readonly title: string; readonly text: string; readonly hint: string }) {
  return (
    <Card testId="service-mode" className="self-start py-10 text-center">
      <h2 className="text-xl font-semibold">{title}</h2>
      <p className="mt-2 text-ink" data-testid="service-mode-message">
        {text}
      </p>
      <p className="mt-1 text-sm text-muted">{hint}</p>
    </Card>
  )
}
