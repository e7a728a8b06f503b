/**
 * The devnet wallet's in-page part, served as `/devnet/wallet.js` and injected by the devnet server into the app's
 * HTML only (the production build never contains it). It stands in for the Radix Connector browser extension:
 *
 * - it speaks the extension protocol on window CustomEvents (`radix#chromeExtension#send` in,
 *   `radix#chromeExtension#receive` out): the status (linked, sessions supported) on load and for every probe,
 *   `receivedByExtension` synchronously inside the dispatch (as the real extension does), `receivedByWallet`, the
 *   wallet's response, and `requestCancelSuccess` / `requestCancelFail` for cancels; `openPopup` opens the panel;
 * - it shows a small 'Devnet Wallet' panel to approve or reject each request, with a preview of a transaction's
 *   withdrawals and deposits, and of a pre-authorisation's withdrawals and guarantees;
 * - keys stay on the server: the panel asks `/devnet/wallet/review` and `/devnet/wallet/respond`, which sign,
 *   build, notarize and submit, and answer the response to pass on;
 * - auto-approve (for e2e) is a switch in the panel, kept in localStorage, and set by `?devnetWallet=auto`
 *   (`?devnetWallet=manual` turns it off).
 *
 * Everything shown is set as text, never as markup.
 */
import { Either, Schema } from "effect"
import {
  eventType,
  OutgoingExtensionMessage,
  type WalletInteraction,
  type WalletInteractionResponse
} from "../../../toolkit/schemas"
import {
  ApiError,
  AUTO_APPROVE_STORAGE_KEY,
  AUTO_APPROVE_URL_PARAM,
  type Decision,
  DASHBOARD_PREFIX,
  type Move,
  RespondAnswer,
  Review,
  WALLET_API_PREFIX,
  WalletInfo
} from "../api"
import { PANEL_CSS, PANEL_INSET_PROPERTY } from "./style"

interface Entry {
  readonly interactionId: string
  readonly interaction: WalletInteraction
  readonly sessionId: string | undefined
  phase: "loading" | "ready" | "answering"
  review: Review | undefined
  error: string | undefined
  selected: Set<string>
}

interface Installed {
  readonly version: 1
}

const GLOBAL_KEY = "__hswapDevnetWallet"
const decodeOutgoing = Schema.decodeUnknownEither(OutgoingExtensionMessage)

const install = () => {
  const w = window as unknown as Record<string, Installed | undefined>
  if (w[GLOBAL_KEY] !== undefined) return
  w[GLOBAL_KEY] = { version: 1 }

  const entries = new Map<string, Entry>()
  const log: Array<{ readonly text: string; readonly href?: string }> = []
  let info: WalletInfo | undefined
  let open = false

  // ---------------------------------------------------------------------------------------------------------------
  // Auto-approve switch

  const readAuto = (): boolean => {
    try {
      const param = new URLSearchParams(window.location.search).get(AUTO_APPROVE_URL_PARAM)
      if (param === "auto") window.localStorage.setItem(AUTO_APPROVE_STORAGE_KEY, "1")
      if (param === "manual") window.localStorage.setItem(AUTO_APPROVE_STORAGE_KEY, "0")
      return window.localStorage.getItem(AUTO_APPROVE_STORAGE_KEY) === "1"
    } catch {
      return false
    }
  }
  let autoApprove = readAuto()
  const setAuto = (on: boolean) => {
    autoApprove = on
    try {
      window.localStorage.setItem(AUTO_APPROVE_STORAGE_KEY, on ? "1" : "0")
    } catch {
      // storage unavailable: the switch lasts for this page only
    }
    if (on) for (const e of entries.values()) if (e.phase === "ready") void respond(e, { approve: true })
    render()
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Extension protocol

  const emit = (detail: unknown) => window.dispatchEvent(new CustomEvent(eventType.incomingMessage, { detail }))
  /** Runs `f` after the current dispatch (the real extension answers the status probe asynchronously). */
  const later = (f: () => void, ms = 0) => {
    window.setTimeout(f, ms)
  }
  const status = {
    eventType: "extensionStatus",
    isExtensionAvailable: true,
    isWalletLinked: true,
    canHandleSessions: true
  }

  const api = async <A, I>(path: string, body: unknown, schema: Schema.Schema<A, I>): Promise<A> => {
    const res = await fetch(`${WALLET_API_PREFIX}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const json: unknown = await res.json().catch(() => undefined)
    if (!res.ok) {
      const err = Schema.decodeUnknownEither(ApiError)(json)
      throw new Error(Either.isRight(err) ? err.right.error : `HTTP ${res.status}`)
    }
    const decoded = Schema.decodeUnknownEither(schema)(json)
    if (Either.isLeft(decoded)) throw new Error("The devnet wallet server answered something unexpected")
    return decoded.right
  }

  const accept = (interactionId: string, raw: WalletInteraction, sessionId: string | undefined) => {
    emit({ eventType: "receivedByExtension", interactionId })
    // The extension stamps the page's origin, whatever the dApp wrote.
    const interaction: WalletInteraction = { ...raw, metadata: { ...raw.metadata, origin: window.location.origin } }
    const entry: Entry = {
      interactionId,
      interaction,
      sessionId,
      phase: "loading",
      review: undefined,
      error: undefined,
      selected: new Set()
    }
    entries.set(interactionId, entry)
    open = true
    render()
    // The wallet acknowledges before it can answer: once, shortly after receipt or at the latest before a response.
    let acknowledged = false
    const acknowledge = () => {
      if (acknowledged || entries.get(interactionId) !== entry) return
      acknowledged = true
      emit({ eventType: "receivedByWallet", interactionId })
    }
    later(acknowledge, 50)
    api("/review", { interaction }, Review).then(
      (review) => {
        if (entries.get(interactionId) !== entry) return
        entry.review = review
        entry.phase = "ready"
        entry.selected = new Set(review.accounts[0]?.suggested ?? [])
        render()
        acknowledge()
        if (autoApprove) void respond(entry, { approve: true })
      },
      (e: unknown) => {
        entry.phase = "ready"
        entry.error = e instanceof Error ? e.message : String(e)
        render()
      }
    )
  }

  const describeResult = (response: WalletInteractionResponse): { text: string; href?: string } => {
    if (response.discriminator === "failure")
      return { text: `Answered ${response.error}${response.message !== undefined ? `: ${response.message}` : ""}` }
    if (response.items.discriminator === "transaction") {
      const hash = response.items.send.transactionIntentHash
      return { text: `Submitted ${hash}`, href: `${DASHBOARD_PREFIX}/transaction/${encodeURIComponent(hash)}` }
    }
    if (response.items.discriminator === "preAuthorizationResponse" && response.items.response !== undefined) {
      const signed = response.items.response
      return {
        text: `Signed ${signed.subintentHash}, valid until ${new Date(signed.expirationTimestamp * 1000).toISOString()}`
      }
    }
    return { text: "Approved and shared" }
  }

  const respond = async (entry: Entry, decision: Decision) => {
    if (entry.phase === "answering" || entries.get(entry.interactionId) !== entry) return
    entry.phase = "answering"
    entry.error = undefined
    render()
    try {
      const { response } = await api("/respond", { interaction: entry.interaction, decision }, RespondAnswer)
      if (entries.get(entry.interactionId) !== entry) return
      entries.delete(entry.interactionId)
      log.unshift(describeResult(response))
      log.splice(5)
      render()
      emit(response)
    } catch (e) {
      entry.phase = "ready"
      entry.error = e instanceof Error ? e.message : String(e)
      render()
    }
  }

  const cancel = (interactionId: string) => {
    const entry = entries.get(interactionId)
    if (entry !== undefined && entry.phase !== "answering") {
      entries.delete(interactionId)
      log.unshift({ text: "The dApp cancelled a request" })
      log.splice(5)
      render()
      later(() => emit({ eventType: "requestCancelSuccess", interactionId }))
    } else {
      later(() => emit({ eventType: "requestCancelFail", interactionId }))
    }
  }

  window.addEventListener(eventType.outgoingMessage, (event: Event) => {
    const decoded = decodeOutgoing((event as CustomEvent<unknown>).detail)
    if (Either.isLeft(decoded)) {
      console.warn("[devnet wallet] ignored a message that is not part of the extension protocol")
      return
    }
    const message = decoded.right
    if ("discriminator" in message) {
      switch (message.discriminator) {
        case "extensionStatus":
          later(() => emit(status))
          return
        case "openPopup":
          open = true
          render()
          return
        case "walletInteraction":
          if (message.interaction.items.discriminator === "cancelRequest") return cancel(message.interactionId)
          return accept(message.interactionId, message.interaction, message.sessionId)
        case "cancelWalletInteraction":
          return cancel(message.interactionId)
      }
    }
    // Legacy forms: a bare interaction, or a bare cancel.
    if ("items" in message) {
      if (message.items.discriminator === "cancelRequest") return cancel(message.interactionId)
      if ("metadata" in message && "interactionId" in message && message.metadata.version === 2) {
        const interaction = message as WalletInteraction
        return accept(interaction.interactionId, interaction, undefined)
      }
    }
  })

  // ---------------------------------------------------------------------------------------------------------------
  // Panel (plain DOM in a shadow root; text only)

  type Child = Node | string | undefined | false
  const el = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Readonly<Record<string, string>> = {},
    ...children: ReadonlyArray<Child>
  ): HTMLElementTagNameMap[K] => {
    const node = document.createElement(tag)
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
    for (const c of children)
      if (c !== undefined && c !== false) node.append(typeof c === "string" ? document.createTextNode(c) : c)
    return node
  }

  const host = document.createElement("div")
  host.id = "hswap-devnet-wallet"
  host.setAttribute("data-testid", "devnet-wallet")
  const root = host.attachShadow({ mode: "open" })
  if ("adoptedStyleSheets" in root && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(PANEL_CSS)
    root.adoptedStyleSheets = [sheet]
  } else {
    // Older engines (and jsdom): a style element, which needs style-src 'unsafe-inline' (the app's CSP has it).
    root.append(Object.assign(document.createElement("style"), { textContent: PANEL_CSS }))
  }
  const panel = el("section", { class: "panel", role: "region", "aria-label": "Devnet Wallet" })
  root.append(panel)

  const short = (address: string) => (address.length > 24 ? `${address.slice(0, 14)}…${address.slice(-8)}` : address)
  const accountName = (address: string, label?: string) =>
    label ?? info?.accounts.find((a) => a.address === address)?.label ?? short(address)

  const movesTable = (title: string, moves: ReadonlyArray<Move>, sign: "-" | "+") =>
    el(
      "div",
      { class: "moves" },
      el("h4", {}, title),
      moves.length === 0
        ? el("p", { class: "muted" }, "None")
        : el(
            "table",
            { "data-testid": sign === "-" ? "devnet-wallet-withdrawals" : "devnet-wallet-deposits" },
            ...moves.map((m) =>
              el(
                "tr",
                {},
                el("td", { title: m.account }, accountName(m.account, m.accountLabel)),
                el("td", { class: `num ${sign === "-" ? "neg" : "pos"}` }, `${sign}${m.amount}`),
                el("td", { title: m.resource }, m.symbol)
              )
            )
          )
    )

  const card = (entry: Entry): HTMLElement => {
    const review = entry.review
    const busy = entry.phase !== "ready"
    const approve = el(
      "button",
      { class: "approve", "data-testid": "devnet-wallet-approve" },
      entry.phase === "answering" ? "Working…" : "Approve"
    )
    const reject = el("button", { class: "reject", "data-testid": "devnet-wallet-reject" }, "Reject")
    approve.disabled = busy
    reject.disabled = entry.phase === "answering"
    approve.addEventListener("click", () => {
      const asks = review?.problem === undefined ? (review?.accounts ?? []) : []
      const picked = entry.selected.size
      const wrong = asks.find(({ numberOfAccounts: n }) =>
        n.quantifier === "exactly" ? picked !== n.quantity : picked < n.quantity
      )
      if (wrong !== undefined) {
        const n = wrong.numberOfAccounts
        entry.error = `Choose ${n.quantifier === "exactly" ? "exactly" : "at least"} ${n.quantity} account(s) to share`
        render()
        return
      }
      void respond(entry, asks.length > 0 ? { approve: true, accounts: [...entry.selected] } : { approve: true })
    })
    reject.addEventListener("click", () => void respond(entry, { approve: false }))
    const accountsPicker =
      review !== undefined && review.accounts.length > 0 && review.problem === undefined && info !== undefined
        ? el(
            "fieldset",
            {},
            el("legend", {}, "Accounts to share"),
            ...info.accounts.map((a) => {
              const box = el("input", { type: "checkbox", "data-testid": "devnet-wallet-account", value: a.address })
              box.checked = entry.selected.has(a.address)
              box.addEventListener("change", () => {
                if (box.checked) entry.selected.add(a.address)
                else entry.selected.delete(a.address)
              })
              return el(
                "label",
                { title: a.address },
                box,
                ` ${a.label} `,
                el("span", { class: "muted" }, short(a.address))
              )
            })
          )
        : undefined
    const t = review?.transaction
    const p = review?.preAuthorization
    return el(
      "article",
      { class: "card", "data-testid": "devnet-wallet-request", "data-kind": review?.kind ?? "loading" },
      el("h3", {}, review?.title ?? "New request"),
      el("p", { class: "muted origin" }, `from ${entry.interaction.metadata.origin}`),
      entry.phase === "loading" && el("p", { class: "muted" }, "Preparing…"),
      review !== undefined && el("ul", {}, ...review.lines.map((line) => el("li", {}, line))),
      review?.problem !== undefined &&
        el("p", { class: "problem" }, `${review.problem.message} (approving answers ${review.problem.error})`),
      accountsPicker,
      t !== undefined &&
        el(
          "div",
          { class: "tx" },
          movesTable("Withdrawals", t.withdrawals, "-"),
          movesTable("Deposits", t.deposits, "+"),
          t.message !== undefined && el("p", {}, "Message: ", el("q", {}, t.message)),
          el(
            "p",
            { class: t.predicted === "CommittedSuccess" ? "pos" : "neg", "data-testid": "devnet-wallet-predicted" },
            t.predicted === "CommittedSuccess"
              ? "Expected to succeed"
              : `Expected outcome: ${t.predicted}${t.error !== undefined ? ` — ${t.error}` : ""}`
          ),
          el("details", {}, el("summary", {}, "Manifest"), el("pre", {}, t.manifest))
        ),
      p !== undefined &&
        el(
          "div",
          { class: "tx" },
          movesTable("Withdrawals", p.withdrawals, "-"),
          el(
            "div",
            { class: "moves" },
            el("h4", {}, "Guaranteed to get back"),
            p.guarantees.length === 0
              ? el("p", { class: "muted" }, "Nothing (the subintent asserts nothing)")
              : el(
                  "table",
                  { "data-testid": "devnet-wallet-guarantees" },
                  ...p.guarantees.map((g) =>
                    el(
                      "tr",
                      {},
                      el("td", { class: "num pos" }, g.amount),
                      el("td", { title: g.resource }, g.symbol),
                      el(
                        "td",
                        { class: "muted" },
                        g.where === "worktop"
                          ? "on the worktop"
                          : g.where === "nextCall"
                            ? "from the next call"
                            : "in a bucket"
                      )
                    )
                  )
                )
          ),
          p.message !== undefined && el("p", {}, "Message: ", el("q", {}, p.message)),
          el(
            "p",
            { "data-testid": "devnet-wallet-expiry" },
            p.expiry.expiresAt === undefined
              ? `Valid in epochs ${p.expiry.startEpochInclusive}–${p.expiry.endEpochExclusive - 1}`
              : p.expiration.discriminator === "expireAfterDelay"
                ? `Expires ${p.expiration.expireAfterSeconds} s after approval`
                : `Expires at ${new Date(p.expiry.expiresAt * 1000).toISOString()}`
          ),
          el("details", {}, el("summary", {}, "Subintent manifest"), el("pre", {}, p.manifest))
        ),
      entry.error !== undefined && el("p", { class: "problem" }, entry.error),
      el("div", { class: "actions" }, reject, approve)
    )
  }

  function render() {
    const count = entries.size
    const toggle = el(
      "button",
      { class: "toggle", "aria-expanded": String(open), "data-testid": "devnet-wallet-toggle" },
      open ? "Hide" : count > 0 ? `Show (${count})` : "Show"
    )
    toggle.addEventListener("click", () => {
      open = !open
      render()
    })
    const auto = el("input", { type: "checkbox", "data-testid": "devnet-wallet-auto" })
    auto.checked = autoApprove
    auto.addEventListener("change", () => setAuto(auto.checked))
    const header = el(
      "header",
      {},
      el("strong", {}, "Devnet Wallet"),
      el("span", { class: "badge" }, "devnet only"),
      count > 0 && el("span", { class: "count", "data-testid": "devnet-wallet-count" }, String(count)),
      el("label", { class: "auto" }, auto, " Auto-approve"),
      toggle
    )
    const body = el(
      "div",
      { class: "body" },
      count === 0 && el("p", { class: "muted" }, "No pending requests."),
      ...[...entries.values()].map(card),
      log.length > 0 &&
        el(
          "ol",
          { class: "log", "data-testid": "devnet-wallet-log" },
          ...log.map((l) =>
            el(
              "li",
              {},
              l.href === undefined
                ? l.text
                : el("a", { href: l.href, target: "_blank", rel: "noopener noreferrer" }, l.text)
            )
          )
        ),
      info !== undefined &&
        el(
          "details",
          { class: "accounts" },
          el("summary", {}, "Accounts"),
          el(
            "ul",
            {},
            ...info.accounts.map((a) =>
              el(
                "li",
                {},
                el(
                  "a",
                  {
                    href: `${info?.dashboardUrl ?? DASHBOARD_PREFIX}/account/${encodeURIComponent(a.address)}`,
                    target: "_blank",
                    rel: "noopener noreferrer"
                  },
                  a.label
                ),
                ` ${short(a.address)}`
              )
            )
          )
        )
    )
    panel.replaceChildren(header, ...(open ? [body] : []))
    panel.classList.toggle("open", open)
  }

  // How far up from the viewport's bottom the panel reaches, as a CSS variable on the page's root: the app's
  // bottom-anchored toasts sit above it where the two would meet (a phone's width), instead of under the panel.
  const publishInset = () => {
    const { top, height } = panel.getBoundingClientRect()
    const inset = height === 0 ? 0 : Math.max(0, Math.ceil(window.innerHeight - top))
    document.documentElement.style.setProperty(PANEL_INSET_PROPERTY, `${inset}px`)
  }
  const mount = () => {
    document.body.append(host)
    render()
    publishInset()
    // The panel's height follows its content and, through its width, the viewport's: one observer sees both.
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(publishInset).observe(panel)
  }
  if (document.body !== null) mount()
  else document.addEventListener("DOMContentLoaded", mount, { once: true })

  fetch(WALLET_API_PREFIX, { headers: { accept: "application/json" } })
    .then((res) => res.json() as Promise<unknown>)
    .then((json) => {
      const decoded = Schema.decodeUnknownEither(WalletInfo)(json)
      if (Either.isRight(decoded)) {
        info = decoded.right
        render()
      }
    })
    .catch(() => undefined)

  // The real extension announces itself when its content script loads.
  later(() => emit(status))
}

install()
