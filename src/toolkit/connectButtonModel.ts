/**
 * The connect button's props and the request list's rules, apart from ConnectButton.tsx so that its lazily loaded
 * popover (ConnectPanel.tsx) can use them without importing the face.
 */
import type { ConnectButtonState } from "./connectButtonState"
import type { RequestItem } from "./schemas"

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
  /**
   * Close the popover when the wallet connects while it is open (a phone, where it covers the page). Default false:
   * the popover stays on the sharing tab.
   */
  readonly closeOnConnect?: boolean
  /** Told whenever the popover opens or closes (the dApp may hold other overlays meanwhile). */
  readonly onPopoverOpenChange?: ((open: boolean) => void) | undefined
  /**
   * Told when the user shows intent: the pointer over the button, focus on it, or a press. A dApp that loads its
   * wallet machinery lazily starts it here (see `WalletRequest.prepare`).
   */
  readonly onIntent?: (() => void) | undefined
}

export const isLive = (item: RequestItem) => item.status === "pending" || item.status === "pendingCommit"

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
