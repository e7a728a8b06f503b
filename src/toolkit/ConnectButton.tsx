/**
 * The connect button (wallet-protocol.md §7): a face that reads 'Connect' or the persona label (a spinner while
 * pending; compact below 138 px) and a popover with the connect flow, or, once connected, the sharing and requests
 * tabs. Presentational: state in, callbacks out. Everything from outside is rendered as text.
 */
import * as Popover from "@radix-ui/react-popover"
import * as Tabs from "@radix-ui/react-tabs"
import { type ReactNode, useState } from "react"
import { GET_WALLET_URL, SETUP_GUIDE_URL } from "./config.js"
import { type ConnectButtonState, shortenAddress } from "./connectButtonState.js"
import type { RequestItem } from "./schemas.js"

export type ConnectButtonTheme = "radix-blue" | "black" | "white-with-outline" | "white" | "custom"
export type ConnectButtonMode = "light" | "dark"

export interface ConnectButtonProps {
  readonly state: ConnectButtonState
  readonly mode?: ConnectButtonMode
  readonly theme?: ConnectButtonTheme
  /** The button width in px (default 138); narrower is compact. */
  readonly width?: number
  readonly onConnect: () => void
  readonly onDisconnect: () => void
  readonly onUpdateSharedAccounts: () => void
  readonly onCancelRequest: (interactionId: string) => void
  readonly onIgnoreTransaction: (interactionId: string) => void
  /** Asks the extension to show its QR code (`openPopup`). */
  readonly onShowQrCode: () => void
  /**
   * The dApp's selected account. With `onSelectAccount`, each shared account becomes a choice, the selected one
   * marked; without it the list only shows the accounts.
   */
  readonly selectedAccount?: string | undefined
  readonly onSelectAccount?: ((address: string) => void) | undefined
}

export const COMPACT_BELOW_PX = 138

const themeClasses: Record<ConnectButtonTheme, string> = {
  "radix-blue": "bg-[#060f8f] text-white hover:bg-[#0a17b8]",
  black: "bg-black text-white hover:bg-neutral-800",
  "white-with-outline": "bg-white text-black ring-1 ring-black hover:bg-neutral-100",
  white: "bg-white text-black hover:bg-neutral-100",
  custom: "bg-accent text-accent-ink hover:opacity-90"
}

const panelClasses: Record<ConnectButtonMode, string> = {
  light: "bg-white text-neutral-900 border-neutral-200",
  dark: "bg-neutral-900 text-neutral-100 border-neutral-700"
}

const mutedClasses: Record<ConnectButtonMode, string> = {
  light: "text-neutral-500",
  dark: "text-neutral-400"
}

const actionClasses =
  "w-full rounded-md bg-[#060f8f] px-3 py-2 text-sm font-semibold text-white hover:bg-[#0a17b8] disabled:cursor-not-allowed disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-[#52e3c2]"

const linkClasses = "underline underline-offset-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-[#52e3c2]"

const Spinner = () => (
  <svg aria-hidden data-testid="connect-button-spinner" viewBox="0 0 24 24" className="h-4 w-4 animate-spin">
    <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
    <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
  </svg>
)

const RadixMark = () => (
  <svg aria-hidden viewBox="0 0 24 24" className="h-4 w-4">
    <path d="M3 13h4l4 7 7-16h3" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round" />
  </svg>
)

const isLive = (item: RequestItem) => item.status === "pending" || item.status === "pendingCommit"

const requestTitles: Record<
  RequestItem["type"],
  Partial<Record<RequestItem["status"], string>> & { readonly pending: string }
> = {
  loginRequest: { pending: "Pending Login", success: "Login Request", fail: "Login Request Rejected" },
  dataRequest: { pending: "Pending Data Request", success: "Data Request", fail: "Data Request Rejected" },
  proofRequest: { pending: "Pending Proof Request", success: "Proof Request", fail: "Proof Request Rejected" },
  sendTransaction: {
    pending: "Pending Transaction",
    success: "Transaction Successful",
    fail: "Transaction Failed",
    ignored: "Transaction Ignored"
  },
  preAuthorizationRequest: {
    pending: "Pending Preauthorization",
    pendingCommit: "Preauthorization Lookup",
    success: "Preauthorization Committed",
    fail: "Preauthorization Rejected",
    ignored: "Preauthorization Ignored",
    timedOut: "Preauthorization Timed Out"
  }
}

export const requestTitle = (item: RequestItem): string => {
  const titles = requestTitles[item.type]
  return titles[item.status] ?? (item.status === "cancelled" ? "Request Cancelled" : titles.pending)
}

const explorerLink = (
  item: RequestItem,
  dashboardUrl: string
): { readonly href: string; readonly label: string } | undefined => {
  if (!item.transactionIntentHash) return undefined
  if (item.type === "sendTransaction") {
    return { href: `${dashboardUrl}/transaction/${item.transactionIntentHash}`, label: "View transaction" }
  }
  if (item.type === "preAuthorizationRequest") {
    const parent = item.metadata?.parentTransactionIntentHash
    return parent
      ? { href: `${dashboardUrl}/transaction/${parent}`, label: "View transaction" }
      : { href: `${dashboardUrl}/subintent/${item.transactionIntentHash}`, label: "View subintent" }
  }
  return undefined
}

const RequestCard = (props: {
  readonly item: RequestItem
  readonly dashboardUrl: string
  readonly muted: string
  readonly onCancel: (id: string) => void
  readonly onIgnore: (id: string) => void
}) => {
  const { item } = props
  const link = explorerLink(item, props.dashboardUrl)
  return (
    <li
      data-testid="request-card"
      data-status={item.status}
      className="flex items-center justify-between gap-3 rounded-md border border-current/10 p-2"
    >
      <div className="min-w-0">
        <p className="truncate text-sm font-medium">{requestTitle(item)}</p>
        {item.status === "pending" && (
          <p className={`text-xs ${props.muted}`}>Open your Radix Wallet app to review the request</p>
        )}
        {link && (
          <a href={link.href} target="_blank" rel="noopener noreferrer" className={`text-xs ${linkClasses}`}>
            {link.label}
          </a>
        )}
      </div>
      {isLive(item) &&
        (item.showCancel && item.status === "pending" ? (
          <button type="button" className={`text-xs ${linkClasses}`} onClick={() => props.onCancel(item.interactionId)}>
            Cancel
          </button>
        ) : (
          <button type="button" className={`text-xs ${linkClasses}`} onClick={() => props.onIgnore(item.interactionId)}>
            Ignore
          </button>
        ))}
    </li>
  )
}

const NotConnected = (props: ConnectButtonProps & { readonly muted: string }) => {
  const { state } = props
  const pending = state.requestItems.filter(isLive)
  let body: ReactNode
  if (!state.isMobile && !state.isExtensionAvailable) {
    body = (
      <>
        <p className="text-sm">
          To connect your Radix Wallet, you need to install the Radix Wallet Connector browser extension.
        </p>
        <a href={SETUP_GUIDE_URL} target="_blank" rel="noopener noreferrer" className={`text-sm ${linkClasses}`}>
          Download and Setup Guide
        </a>
        <button type="button" className={actionClasses} disabled>
          Connect Now
        </button>
      </>
    )
  } else if (!state.isMobile && !state.isWalletLinked) {
    body = (
      <>
        <p className="text-sm">Link your Radix Wallet to the Connector extension to continue.</p>
        <button type="button" className={actionClasses} onClick={props.onShowQrCode}>
          Open QR Code to Link Wallet
        </button>
      </>
    )
  } else if (pending.length > 0) {
    body = (
      <ul className="flex flex-col gap-2" aria-label="Pending requests">
        {pending.map((item) => (
          <RequestCard
            key={item.interactionId}
            item={item}
            dashboardUrl={state.dashboardUrl}
            muted={props.muted}
            onCancel={props.onCancelRequest}
            onIgnore={props.onIgnoreTransaction}
          />
        ))}
      </ul>
    )
  } else {
    body = (
      <>
        <button type="button" className={actionClasses} onClick={props.onConnect}>
          Connect Now
        </button>
        {state.isMobile && (
          <a href={GET_WALLET_URL} target="_blank" rel="noopener noreferrer" className={`text-sm ${linkClasses}`}>
            Don't have the Radix Wallet?
          </a>
        )}
      </>
    )
  }
  return (
    <div className="flex flex-col gap-3">
      <Popover.Title className="text-base font-semibold">Connect Your Radix Wallet</Popover.Title>
      {body}
    </div>
  )
}

/** An account's label: a toggle that selects it when the dApp lets the user pick, else plain text. */
const AccountName = (props: {
  readonly label: string
  readonly selected: boolean
  readonly onSelect: (() => void) | undefined
}) => {
  if (props.onSelect === undefined) return <span className="truncate">{props.label}</span>
  return (
    <button
      type="button"
      aria-pressed={props.selected}
      onClick={props.onSelect}
      className={`flex w-full min-w-0 items-center gap-2 rounded py-0.5 text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-[#52e3c2] ${props.selected ? "font-semibold" : "opacity-80 hover:opacity-100"}`}
    >
      <span
        aria-hidden
        className={`h-2.5 w-2.5 shrink-0 rounded-full border border-current ${props.selected ? "bg-[#52e3c2]" : ""}`}
      />
      <span className="truncate">{props.label}</span>
    </button>
  )
}

const Connected = (
  props: ConnectButtonProps & { readonly muted: string; readonly tab: string; readonly onTab: (t: string) => void }
) => {
  const { state } = props
  return (
    <Tabs.Root value={props.tab} onValueChange={props.onTab} className="flex flex-col gap-3">
      <Popover.Title className="sr-only">{state.dAppName || "Radix Wallet"}</Popover.Title>
      <Tabs.List aria-label="Wallet" className="flex gap-1 rounded-md bg-current/5 p-1">
        <Tabs.Trigger
          value="sharing"
          className="flex-1 rounded px-2 py-1 text-sm data-[state=active]:bg-current/10 data-[state=active]:font-semibold"
        >
          Sharing
        </Tabs.Trigger>
        <Tabs.Trigger
          value="requests"
          className="flex-1 rounded px-2 py-1 text-sm data-[state=active]:bg-current/10 data-[state=active]:font-semibold"
        >
          Requests
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="sharing" className="flex flex-col gap-3 focus:outline-none">
        <div>
          <p className="text-sm font-semibold" data-testid="persona-label">
            {state.personaLabel}
          </p>
          {state.personaData.map((line) => (
            <p key={line.field} className={`text-xs ${props.muted}`} data-field={line.field}>
              {line.value}
            </p>
          ))}
        </div>
        <ul className="flex flex-col gap-1" aria-label="Shared accounts">
          {state.accounts.map((account) => (
            <li key={account.address} className="flex flex-col items-start gap-0.5 text-sm">
              <AccountName
                label={account.label}
                selected={account.address === props.selectedAccount}
                onSelect={props.onSelectAccount && (() => props.onSelectAccount?.(account.address))}
              />
              <a
                href={`${state.dashboardUrl}/account/${account.address}`}
                target="_blank"
                rel="noopener noreferrer"
                className={`font-mono text-xs ${props.onSelectAccount === undefined ? "" : "ml-5"} ${linkClasses}`}
                title={account.address}
              >
                {shortenAddress(account.address)}
              </a>
            </li>
          ))}
        </ul>
        <button type="button" className={actionClasses} onClick={props.onUpdateSharedAccounts}>
          Update Account Sharing
        </button>
        <button type="button" className={`text-sm ${linkClasses}`} onClick={props.onDisconnect}>
          Log out
        </button>
      </Tabs.Content>
      <Tabs.Content value="requests" className="focus:outline-none">
        {state.requestItems.length === 0 ? (
          <p className={`text-sm ${props.muted}`}>No requests yet</p>
        ) : (
          <ul className="flex max-h-80 flex-col gap-2 overflow-y-auto" aria-label="Requests">
            {state.requestItems.map((item) => (
              <RequestCard
                key={item.interactionId}
                item={item}
                dashboardUrl={state.dashboardUrl}
                muted={props.muted}
                onCancel={props.onCancelRequest}
                onIgnore={props.onIgnoreTransaction}
              />
            ))}
          </ul>
        )}
      </Tabs.Content>
    </Tabs.Root>
  )
}

export const ConnectButton = (props: ConnectButtonProps) => {
  const { state } = props
  const mode = props.mode ?? "light"
  const theme = props.theme ?? "radix-blue"
  const width = props.width ?? COMPACT_BELOW_PX
  const compact = width < COMPACT_BELOW_PX
  const [open, setOpen] = useState(false)
  const [tab, setTab] = useState("sharing")
  const pending = state.status === "pending"
  const face = state.connected ? state.personaLabel : "Connect"

  const onOpenChange = (next: boolean) => {
    if (next) setTab(state.requestItems.some(isLive) ? "requests" : "sharing")
    setOpen(next)
  }

  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Trigger
        data-testid="connect-button"
        data-status={state.status}
        data-theme={theme}
        data-mode={mode}
        aria-label={compact ? face : undefined}
        aria-busy={pending}
        style={{ width: `${width}px`, height: "42px" }}
        className={`inline-flex items-center justify-center gap-2 rounded-md px-3 text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-[#52e3c2] ${themeClasses[theme]}`}
      >
        {pending ? <Spinner /> : <RadixMark />}
        {!compact && <span className="truncate">{face}</span>}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          data-testid="connect-popover"
          className={`z-50 w-80 rounded-lg border p-4 shadow-xl focus:outline-none ${panelClasses[mode]}`}
        >
          {state.connected ? (
            <Connected {...props} muted={mutedClasses[mode]} tab={tab} onTab={setTab} />
          ) : (
            <NotConnected {...props} muted={mutedClasses[mode]} />
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
