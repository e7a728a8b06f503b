/**
 * The devnet dashboard: small server-rendered pages at `/devnet/dashboard/…`, so the app's dashboard links (and its
 * "My Tokens" embed) work on the devnet.
 *
 *   /                              the genesis accounts
 *   /account/{address}             balances with symbols, and the account's recent transactions
 *   /account/{address}/tokens      the balances alone, for the app's iframe embed
 *   /transaction/{txid}[/summary]  status, balance changes, fee, message, error and manifest
 *
 * Everything from the ledger is escaped (metadata is anybody's text); unknown addresses and transactions get a 404
 * page. Pages carry their own Content-Security-Policy: no scripts at all, frames only from our origin.
 */
import { Effect, Option } from "effect"
import { formatPlain } from "../../lib/decimalText"
import { addressKind, isAccountAddress } from "../ledger/address"
import type { CommittedTransaction, ResourceInfo } from "../ledger/Ledger"
import { Ledger } from "../ledger/Ledger"

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'"
].join("; ")

export interface DashboardPage {
  readonly status: number
  readonly html: string
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;"
}

/** HTML-escapes text for element content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c)

/** A piece of trusted markup; interpolations into `html` are escaped unless they are `Html` themselves. */
class Html {
  constructor(readonly value: string) {}
}

type Part = Html | string | number | ReadonlyArray<Html> | undefined

const html = (strings: TemplateStringsArray, ...parts: ReadonlyArray<Part>): Html => {
  let out = strings[0] ?? ""
  parts.forEach((part, i) => {
    if (part instanceof Html) out += part.value
    else if (Array.isArray(part)) out += part.map((p: Html) => p.value).join("")
    else if (part !== undefined) out += escapeHtml(String(part))
    out += strings[i + 1] ?? ""
  })
  return new Html(out)
}

const STYLE = `
  :root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db44; --ok: #15803d; --bad: #b91c1c; --accent: #2563eb; }
  body { font: 14px/1.45 system-ui, sans-serif; margin: 0; padding: 20px; max-width: 1040px; }
  body.embed { padding: 8px; max-width: none; }
  header { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; margin-bottom: 16px; }
  header a { font-weight: 600; text-decoration: none; color: inherit; }
  .badge { font-size: 11px; text-transform: uppercase; letter-spacing: .06em; padding: 2px 8px; border-radius: 999px; background: #7c3aed; color: #fff; }
  h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
  .mono, code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; word-break: break-all; }
  pre { white-space: pre-wrap; padding: 12px; border: 1px solid var(--line); border-radius: 8px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
  .muted { color: var(--muted); } .pos { color: var(--ok); } .neg { color: var(--bad); }
  .status-CommittedSuccess { color: var(--ok); font-weight: 600; } .status-CommittedFailure, .status-Rejected { color: var(--bad); font-weight: 600; }
  img.icon { width: 20px; height: 20px; border-radius: 50%; vertical-align: middle; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; } dt { color: var(--muted); } dd { margin: 0; }
  a { color: var(--accent); }
`

const page = (
  title: string,
  body: Html,
  options: { readonly status?: number; readonly embed?: boolean } = {}
): DashboardPage => ({
  status: options.status ?? 200,
  html: html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} · hSwap devnet dashboard</title><style>${new Html(STYLE)}</style></head>
<body${new Html(options.embed === true ? ' class="embed"' : "")}>${
    options.embed === true
      ? ""
      : html`<header>
          <a href="/devnet/dashboard/">hSwap devnet dashboard</a><span class="badge">devnet · network 240</span>
        </header>`
  }${body}</body></html>`.value
})

const notFoundPage = (what: string, id: string): DashboardPage =>
  page(
    "Not found",
    html`<h1>Not found</h1>
      <p>No ${what} <span class="mono">${id}</span> on the devnet ledger.</p>
      <p><a href="/devnet/dashboard/">Back to the dashboard</a></p>`,
    { status: 404 }
  )

const accountLink = (address: string, label?: string, target?: string) =>
  html`<a
    class="mono"
    href="/devnet/dashboard/account/${encodeURIComponent(address)}"
    ${new Html(target === undefined ? "" : ` target="${target}" rel="noopener noreferrer"`)}
    >${label ?? address}</a
  >`

const txLink = (txid: string) =>
  html`<a class="mono" href="/devnet/dashboard/transaction/${encodeURIComponent(txid)}">${txid}</a>`

/** Only self-contained images: the devnet's own data-URL icons. Anything else is not loaded. */
const iconOf = (r: ResourceInfo | undefined) =>
  r !== undefined && /^data:image\/(svg\+xml|png|webp|jpeg);base64,[A-Za-z0-9+/=]+$/.test(r.iconUrl)
    ? html`<img class="icon" alt="" src="${r.iconUrl}" />`
    : html``

const signed = (change: string) =>
  change.startsWith("-") ? html`<span class="neg">${change}</span>` : html`<span class="pos">+${change}</span>`

const TXID = /^txid_loc1[02-9ac-hj-np-z]{20,120}$/

export const makeDashboard = Effect.gen(function* () {
  const ledger = yield* Ledger
  const genesis = ledger.genesis
  const roles = new Map<string, string>([
    [genesis.exchange.address, "hSwap exchange"],
    [genesis.fund.address, "hSwap fund"],
    [genesis.dAppDefinition.address, "hSwap dApp definition"],
    ...genesis.users.map((u, i): [string, string] => [u.address, `Devnet user ${i + 1}`]),
    [genesis.persona.address, "Devnet persona"]
  ])

  const resourceOf = (address: string) => Effect.map(ledger.resource(address), Option.getOrUndefined)

  const balancesTable = Effect.fn("Dashboard.balancesTable")(function* (address: string, embed: boolean) {
    const vaults = (yield* ledger.accountVaults(address)).filter((v) => v.amount !== "0")
    if (vaults.length === 0) return html`<p class="muted">This account holds no tokens.</p>`
    const rows: Array<Html> = []
    for (const v of vaults) {
      const r = yield* resourceOf(v.resource)
      rows.push(
        html`<tr>
          <td>${iconOf(r)}</td>
          <td><strong>${r?.symbol ?? "?"}</strong></td>
          <td>${r?.name ?? ""}</td>
          <td class="num">${v.amount}</td>
          ${embed ? html`` : html`<td class="mono muted">${v.resource}</td>`}
        </tr>`
      )
    }
    return html`<table data-testid="balances">
      <thead>
        <tr>
          <th></th>
          <th>Symbol</th>
          <th>Name</th>
          <th class="num">Amount</th>
          ${embed ? html`` : html`<th>Resource</th>`}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`
  })

  const symbolOf = (resource: string) => Effect.map(resourceOf(resource), (r) => r?.symbol ?? resource)

  const accountPage = Effect.fn("Dashboard.accountPage")(function* (address: string) {
    const kind = addressKind(address)
    if (kind === undefined || !(isAccountAddress(address) || kind === "GlobalVirtualEd25519Identity"))
      return notFoundPage("account", address)
    const metadata = yield* ledger.metadata(address)
    const name = metadata.find((m) => m.key === "name")?.value
    const balances = yield* balancesTable(address, false)
    const history = yield* ledger.transactions({
      order: "Desc",
      kind: "All",
      status: "All",
      withdrawnFrom: [],
      depositedInto: [],
      affected: [address],
      resources: [],
      limit: 20
    })
    const rows: Array<Html> = []
    for (const tx of history.items) {
      const mine = [...tx.feeBalanceChanges, ...tx.balanceChanges].filter((c) => c.entity === address)
      const changes: Array<Html> = []
      for (const c of mine) changes.push(html`<div>${signed(c.change)} ${yield* symbolOf(c.resource)}</div>`)
      rows.push(
        html`<tr>
          <td class="num">${tx.stateVersion}</td>
          <td class="muted">${tx.roundTimestamp}</td>
          <td class="status-${tx.status}">${tx.status}</td>
          <td>${tx.intentHash === undefined ? html`<span class="muted">${tx.kind}</span>` : txLink(tx.intentHash)}</td>
          <td class="num">${changes}</td>
        </tr>`
      )
    }
    return page(
      "Account",
      html`<h1>${name ?? roles.get(address) ?? "Account"}</h1>
        <p class="mono" data-testid="account-address">${address}</p>
        ${roles.has(address) && name !== undefined ? html`<p class="muted">${roles.get(address)}</p>` : html``}
        <h2>Tokens</h2>
        ${balances}
        <h2>Recent transactions</h2>
        ${
          rows.length === 0
            ? html`<p class="muted">None yet.</p>`
            : html`<table>
                <thead>
                  <tr>
                    <th class="num">State version</th>
                    <th>Time</th>
                    <th>Status</th>
                    <th>Transaction</th>
                    <th class="num">Change</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows}
                </tbody>
              </table>`
        }`
    )
  })

  const tokensEmbed = Effect.fn("Dashboard.tokensEmbed")(function* (address: string) {
    if (!isAccountAddress(address)) return notFoundPage("account", address)
    const balances = yield* balancesTable(address, true)
    return page(
      "Tokens",
      html`${balances}
        <p class="muted">${accountLink(address, "Open in the devnet dashboard", "_blank")}</p>`,
      {
        embed: true
      }
    )
  })

  const changesTable = Effect.fn("Dashboard.changesTable")(function* (
    changes: CommittedTransaction["balanceChanges"],
    testId: string
  ) {
    if (changes.length === 0) return html`<p class="muted">None.</p>`
    const rows: Array<Html> = []
    for (const c of changes) {
      rows.push(
        html`<tr>
          <td>${accountLink(c.entity, roles.get(c.entity) ?? c.entity)}</td>
          <td><strong>${yield* symbolOf(c.resource)}</strong></td>
          <td class="num">${signed(c.change)}</td>
        </tr>`
      )
    }
    return html`<table data-testid="${testId}">
      <thead>
        <tr>
          <th>Account</th>
          <th>Token</th>
          <th class="num">Change</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>`
  })

  const transactionPage = Effect.fn("Dashboard.transactionPage")(function* (txid: string) {
    if (!TXID.test(txid)) return notFoundPage("transaction", txid)
    const status = yield* ledger.transactionStatus(txid)
    if (status._tag === "Unknown") return notFoundPage("transaction", txid)
    if (status._tag === "Rejected") {
      return page(
        "Transaction",
        html`<h1>Transaction</h1>
          <p class="mono">${txid}</p>
          <dl>
            <dt>Status</dt>
            <dd class="status-Rejected" data-testid="status">Rejected</dd>
            <dt>Reason</dt>
            <dd class="mono">${status.reason}</dd>
          </dl>`
      )
    }
    const tx = status.transaction
    const message = tx.message
    const messageText =
      message === undefined
        ? undefined
        : message.type === "Encrypted"
          ? "(encrypted)"
          : message.content.type === "String"
            ? message.content.value
            : `(binary, ${message.content.value_hex.length / 2} bytes)`
    return page(
      "Transaction",
      html`<h1>Transaction</h1>
        <p class="mono" data-testid="txid">${txid}</p>
        <dl>
          <dt>Status</dt>
          <dd class="status-${tx.status}" data-testid="status">${tx.status}</dd>
          <dt>State version</dt>
          <dd>${tx.stateVersion}</dd>
          <dt>Epoch / round</dt>
          <dd>${tx.epoch} / ${tx.round}</dd>
          <dt>Time</dt>
          <dd>${tx.roundTimestamp}</dd>
          <dt>Fee paid</dt>
          <dd>${formatPlain(tx.feePaid)} XRD</dd>
          ${
            tx.errorMessage === undefined
              ? html``
              : html`<dt>Error</dt>
                  <dd class="mono neg" data-testid="error">${tx.errorMessage}</dd>`
          }
          ${
            messageText === undefined
              ? html``
              : html`<dt>Message</dt>
                  <dd data-testid="message">${messageText}</dd>`
          }
        </dl>
        <h2>Balance changes</h2>
        ${yield* changesTable(tx.balanceChanges, "balance-changes")}
        <h2>Fees</h2>
        ${yield* changesTable(tx.feeBalanceChanges, "fee-changes")}
        ${
          tx.manifest === undefined
            ? html``
            : html`<h2>Manifest</h2>
                <pre>${tx.manifest}</pre>`
        }`
    )
  })

  const indexPage = Effect.sync(() => {
    const rows = [...roles].map(
      ([address, role]) =>
        html`<tr>
          <td>${role}</td>
          <td>${accountLink(address)}</td>
        </tr>`
    )
    return page(
      "Dashboard",
      html`<h1>Devnet accounts</h1>
        <table>
          <tbody>
            ${rows}
          </tbody>
        </table>`
    )
  })

  /** Renders the page for a path below `/devnet/dashboard`. */
  const render = (path: string): Effect.Effect<DashboardPage> => {
    let segments: Array<string>
    try {
      segments = path
        .split("/")
        .filter((s) => s.length > 0)
        .map(decodeURIComponent)
    } catch {
      return Effect.succeed(notFoundPage("page", path))
    }
    const [section, id, sub, ...rest] = segments
    if (section === undefined) return indexPage
    if (rest.length === 0 && id !== undefined) {
      if (section === "account" && sub === undefined) return accountPage(id)
      if (section === "account" && sub === "tokens") return tokensEmbed(id)
      if (section === "transaction" && (sub === undefined || sub === "summary")) return transactionPage(id)
    }
    return Effect.succeed(notFoundPage("page", path))
  }

  return { render } as const
})

export type Dashboard = Effect.Effect.Success<typeof makeDashboard>
