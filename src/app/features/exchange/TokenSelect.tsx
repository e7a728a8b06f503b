import { useMemo, useState } from "react"
import { Dialog } from "../../ui/Dialog"
import { Badge } from "../../ui/kit"
import { DEFAULT_TOKENS, type TokenEntry } from "./machine/tokens"

/** Spec §3: the selector offers hUSDC, hETH, hBTC and XRD; any other token the exchange lists is shown, not offered. */
export const SELECTABLE_SYMBOLS: ReadonlySet<string> = new Set(DEFAULT_TOKENS.map((t) => t.symbol))
export const NOT_AVAILABLE_TEXT = "Not available"

/**
 * The token selector: a button that opens the search dialog ('Search tokens...', 'No tokens found'). The selectable
 * tokens come first; the others are listed disabled, marked 'Not available'. A selectable token that would make a
 * pair the exchange has no route for is listed greyed and disabled, with the reason under its name; with an account
 * connected each token shows the account's balance of it.
 */
export function TokenSelect(props: {
  readonly label: string
  readonly value: string
  readonly tokens: ReadonlyArray<TokenEntry>
  readonly onSelect: (symbol: string) => void
  /** Why picking this token makes no exchange route with the other side; undefined when it pairs. */
  readonly unpairedReason?: (symbol: string) => string | undefined
  /** The connected account's balance of a token, as displayed; undefined without an account. */
  readonly balanceOf?: (token: TokenEntry) => string | undefined
}) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState("")
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase()
    const matching = props.tokens.filter(
      (t) => q === "" || t.symbol.toLowerCase().includes(q) || t.name.toLowerCase().includes(q)
    )
    return [
      ...matching.filter((t) => SELECTABLE_SYMBOLS.has(t.symbol)),
      ...matching.filter((t) => !SELECTABLE_SYMBOLS.has(t.symbol))
    ]
  }, [props.tokens, query])
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setQuery("")
          setOpen(true)
        }}
        className="inline-flex shrink-0 items-center gap-2 rounded-full border border-line bg-panel px-3 py-1.5 text-sm font-semibold hover:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        <TokenIcon symbol={props.value} />
        {/* The name starts with what is visible, then says which selector it is (WCAG 2.5.3). */}
        {props.value} <span className="sr-only">{props.label}</span>
        <span aria-hidden className="text-muted">
          ▾
        </span>
      </button>
      <Dialog open={open} onOpenChange={setOpen} title="Select a token" testId="token-dialog">
        <input
          autoFocus
          placeholder="Search tokens..."
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="w-full rounded-lg border border-line bg-panel-2 px-3 py-2 text-sm outline-none focus:border-accent focus-visible:ring-2 focus-visible:ring-accent"
        />
        <ul className="mt-3 max-h-72 overflow-y-auto">
          {shown.length === 0 && <li className="py-6 text-center text-sm text-muted">No tokens found</li>}
          {shown.map((t) => {
            const listed = SELECTABLE_SYMBOLS.has(t.symbol)
            const unpaired = listed ? props.unpairedReason?.(t.symbol) : undefined
            const available = listed && unpaired === undefined
            const balance = props.balanceOf?.(t)
            const reasonId = `token-reason-${props.label.replace(/\W+/g, "-")}-${t.symbol}`
            return (
              <li key={t.symbol}>
                <button
                  type="button"
                  disabled={!available}
                  data-available={available ? "true" : "false"}
                  data-testid={`token-option-${t.symbol}`}
                  aria-describedby={unpaired === undefined ? undefined : reasonId}
                  aria-current={t.symbol === props.value ? "true" : undefined}
                  onClick={() => {
                    props.onSelect(t.symbol)
                    setOpen(false)
                  }}
                  className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left enabled:hover:bg-panel-2 disabled:cursor-not-allowed disabled:opacity-70 ${t.symbol === props.value ? "text-accent" : ""}`}
                >
                  <TokenIcon symbol={t.symbol} />
                  {/* The name under the symbol: whole at 360 px beside the balance, not cut to "USD ...". */}
                  <span className="flex min-w-0 flex-col">
                    <span className={`font-semibold ${available ? "" : "text-muted"}`}>{t.symbol}</span>
                    <span className="text-xs text-muted">{t.name}</span>
                    {unpaired !== undefined && (
                      <span id={reasonId} data-testid="token-unpaired" className="text-xs text-muted">
                        {unpaired}
                      </span>
                    )}
                  </span>
                  <span className="ml-auto flex shrink-0 flex-col items-end gap-0.5">
                    {balance !== undefined && (
                      <span data-testid="token-balance" className="text-sm tabular-nums text-muted">
                        {balance}
                      </span>
                    )}
                    {!listed && <Badge>{NOT_AVAILABLE_TEXT}</Badge>}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      </Dialog>
    </>
  )
}

const ICON_COLOURS: Readonly<Record<string, string>> = {
  hUSDC: "#2775ca",
  hUSDT: "#26a17b",
  hETH: "#627eea",
  hBTC: "#f7931a",
  hWBTC: "#f7931a",
  XRD: "#052cc0"
}

/** A small round badge with the token's initial (no remote images). */
export function TokenIcon({ symbol }: { readonly symbol: string }) {
  const letter = symbol.replace(/^[hx]/, "").charAt(0) || "?"
  return (
    <span
      aria-hidden
      className="grid h-6 w-6 place-items-center rounded-full text-xs font-semibold text-white"
      style={{ background: ICON_COLOURS[symbol] ?? "#3b4a7a" }}
    >
      {letter}
    </span>
  )
}
