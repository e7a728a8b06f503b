/**
 * The connect button's popover (see ConnectButton.tsx, which loads this chunk on first approach): the connect flow
 * when not connected, the sharing and requests tabs once connected. Anchored to the button the dApp already shows.
 */
import * as Popover from "@radix-ui/react-popover"
import * as Tabs from "@radix-ui/react-tabs"
import { type ReactNode, type RefObject, useRef } from "react"
import { GET_WALLET_URL, SETUP_GUIDE_URL } from "./config"
import { type ConnectButtonMode, type ConnectButtonProps, isLive, requestTitle } from "./connectButtonModel"
import { shortenAddress } from "./connectButtonState"
import { isInToastRegion } from "./toastRegion"
import type { RequestItem } from "./schemas"

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
        <p className="truncate text-sm font-semibold">{requestTitle(item)}</p>
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

/** A labelled list of request cards. */
const RequestCards = (
  props: ConnectButtonProps & {
    readonly muted: string
    readonly items: ReadonlyArray<RequestItem>
    readonly label: string
    readonly className: string
  }
) => (
  <ul className={props.className} aria-label={props.label}>
    {props.items.map((item) => (
      <RequestCard
        key={item.interactionId}
        item={item}
        dashboardUrl={props.state.dashboardUrl}
        muted={props.muted}
        onCancel={props.onCancelRequest}
        onIgnore={props.onIgnoreTransaction}
      />
    ))}
  </ul>
)

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
    body = <RequestCards {...props} items={pending} label="Pending requests" className="flex flex-col gap-2" />
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
          {/* A persona's label and data are the user's own text, of any length: cut to the panel, whole on hover. */}
          <p className="truncate text-sm font-semibold" data-testid="persona-label" title={state.personaLabel}>
            {state.personaLabel}
          </p>
          {state.personaData.map((line) => (
            <p
              key={line.field}
              className={`truncate text-xs ${props.muted}`}
              data-field={line.field}
              title={line.value}
            >
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
          <RequestCards
            {...props}
            items={state.requestItems}
            label="Requests"
            className="flex max-h-80 flex-col gap-2 overflow-y-auto"
          />
        )}
      </Tabs.Content>
    </Tabs.Root>
  )
}

export interface ConnectPanelProps extends ConnectButtonProps {
  readonly open: boolean
  readonly onOpenChange: (open: boolean) => void
  /** The connect button: the popover's anchor, and where focus returns when it closes. */
  readonly anchor: RefObject<HTMLButtonElement | null>
  /** The id the button's aria-controls names. */
  readonly contentId: string
  readonly tab: string
  readonly onTab: (tab: string) => void
}

export const ConnectPanel = (props: ConnectPanelProps) => {
  const mode: ConnectButtonMode = props.mode ?? "light"
  // Whether the popover closed because the user went elsewhere (then focus stays where they went).
  const wentOutside = useRef(false)
  const onButton = (target: EventTarget | null) => target instanceof Node && props.anchor.current?.contains(target)
  return (
    <Popover.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Popover.Anchor virtualRef={props.anchor as RefObject<HTMLButtonElement>} />
      <Popover.Portal>
        <Popover.Content
          id={props.contentId}
          align="end"
          sideOffset={8}
          data-testid="connect-popover"
          className={`z-50 w-80 rounded-lg border p-4 shadow-xl focus:outline-none ${panelClasses[mode]}`}
          onOpenAutoFocus={() => {
            wentOutside.current = false
          }}
          onInteractOutside={(event) => {
            // The button toggles the popover itself; a press on it is not a dismissal. Nor is one on the page's
            // notifications (toastRegion.ts), as with Radix's own toasts.
            if (onButton(event.target) || isInToastRegion(event.target)) event.preventDefault()
            else wentOutside.current = true
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            if (!wentOutside.current) props.anchor.current?.focus()
          }}
        >
          {props.state.connected ? (
            <Connected {...props} muted={mutedClasses[mode]} tab={props.tab} onTab={props.onTab} />
          ) : (
            <NotConnected {...props} muted={mutedClasses[mode]} />
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
