import { useMemo, useState } from "react"
import { Dialog } from "../../ui/Dialog"
import type { TokenEntry } from "./machine/tokens"

/** The token selector: a button that opens the search dialog ('Search tokens...', 'No tokens found'). */
export function TokenSelect(props: {
  readonly label: string
  readonly value: string
  readonly tokens: ReadonlyArray<TokenEntry>
  readonly onSelect: (symbol: string) => void
}) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState("")
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase()
    return props.tokens.filter(
      (t) => q === "" || t.symbol.toLowerCase().includes(q) || t.name.toLowerCase().includes(q)
    )
  }, [props.tokens, query])
  return (
    <>
      <button
        type="button"
        aria-label={`${props.label}: ${props.value}`}
        onClick={() => {
          setQuery("")
          setOpen(true)
        }}
        className="inline-flex shrink-0 items-center gap-2 rounded-full border border-line bg-panel px-3 py-1.5 text-sm font-semibold hover:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
      >
        <TokenIcon symbol={props.value} />
        {props.value}
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
          className="w-full rounded-lg border border-line bg-panel-2 px-3 py-2 text-sm outline-none focus:border-accent"
        />
        <ul className="mt-3 max-h-72 overflow-y-auto">
          {shown.length === 0 && <li className="py-6 text-center text-sm text-muted">No tokens found</li>}
          {shown.map((t) => (
            <li key={t.symbol}>
              <button
                type="button"
                onClick={() => {
                  props.onSelect(t.symbol)
                  setOpen(false)
                }}
                className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left hover:bg-panel-2 ${t.symbol === props.value ? "text-accent" : ""}`}
              >
                <TokenIcon symbol={t.symbol} />
                <span className="font-semibold">{t.symbol}</span>
                <span className="text-sm text-muted">{t.name}</span>
              </button>
            </li>
          ))}
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
      className="grid h-6 w-6 place-items-center rounded-full text-[11px] font-bold text-white"
      style={{ background: ICON_COLOURS[symbol] ?? "#3b4a7a" }}
    >
      {letter}
    </span>
  )
}
