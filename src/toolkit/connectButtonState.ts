/**
 * What the ConnectButton shows, derived from WalletRequest's streams (wallet-protocol.md §7). The component itself is
 * presentational; the app feeds it `connectButtonState` through its runtime hook.
 */
import { Effect, Stream } from "effect"
import { isAddressOf } from "../exchange/bech32m"
import type { ExtensionStatus } from "./extension"
import type { Account, RequestItem, WalletData } from "./schemas"
import { type ButtonStatus, WalletRequest } from "./walletRequestTag"

export interface PersonaDataLine {
  readonly field: "fullName" | "emailAddress" | "phoneNumber"
  readonly value: string
}

export interface ConnectButtonState {
  readonly status: ButtonStatus
  readonly connected: boolean
  readonly personaLabel: string
  readonly personaData: ReadonlyArray<PersonaDataLine>
  readonly accounts: ReadonlyArray<Account>
  /** Newest first. */
  readonly requestItems: ReadonlyArray<RequestItem>
  readonly isMobile: boolean
  readonly isWalletLinked: boolean
  readonly isExtensionAvailable: boolean
  readonly dAppName: string
  /** Base URL for explorer links (+ /account/, /transaction/, /subintent/). */
  readonly dashboardUrl: string
}

export const initialConnectButtonState: ConnectButtonState = {
  status: "default",
  connected: false,
  personaLabel: "",
  personaData: [],
  accounts: [],
  requestItems: [],
  isMobile: false,
  isWalletLinked: false,
  isExtensionAvailable: false,
  dAppName: "",
  dashboardUrl: "https://dashboard.radixdlt.com"
}

/** Persona data as display lines: the full name in its variant's order, the first e-mail and phone number. */
export const personaDataLines = (walletData: WalletData): ReadonlyArray<PersonaDataLine> =>
  walletData.personaData
    .map((entry): PersonaDataLine | undefined => {
      switch (entry.entry) {
        case "fullName": {
          const { variant, givenNames, familyName, nickname } = entry.fields
          const middle = nickname ? ` "${nickname}" ` : " "
          const value =
            variant === "western" ? `${givenNames}${middle}${familyName}` : `${familyName}${middle}${givenNames}`
          return { field: "fullName", value }
        }
        case "emailAddresses":
          return entry.fields[0] !== undefined ? { field: "emailAddress", value: entry.fields[0] } : undefined
        case "phoneNumbers":
          return entry.fields[0] !== undefined ? { field: "phoneNumber", value: entry.fields[0] } : undefined
      }
    })
    .filter((line): line is PersonaDataLine => line !== undefined && line.value.trim() !== "")

/** `account_tdx_2_12y…ze6rhe`: the first `head` and last `tail` characters. */
export const shortenAddress = (address: string, head = 15, tail = 5): string =>
  address.length <= head + tail + 3 ? address : `${address.slice(0, head)}...${address.slice(-tail)}`

/**
 * The shared accounts the panel lists: those whose address is an account address of the toolkit's network. Anything
 * else (stored data tampered with, a wallet gone wrong) would be shown as an account and linked into the dashboard,
 * so it is left out; `connectButtonState` logs it.
 */
export const listedAccounts = (accounts: ReadonlyArray<Account>, networkId: number): ReadonlyArray<Account> =>
  accounts.every((a) => isAddressOf("account", networkId, a.address))
    ? accounts
    : accounts.filter((a) => isAddressOf("account", networkId, a.address))

export const toConnectButtonState = (input: {
  readonly walletData: WalletData
  readonly networkId: number
  readonly requestItems: ReadonlyArray<RequestItem>
  readonly status: ButtonStatus
  readonly extension: ExtensionStatus
  readonly isMobile: boolean
  readonly dAppName: string
  readonly dashboardUrl: string
}): ConnectButtonState => ({
  status: input.status,
  connected: input.walletData.persona !== undefined,
  personaLabel: input.walletData.persona?.label ?? "",
  personaData: personaDataLines(input.walletData),
  accounts: listedAccounts(input.walletData.accounts, input.networkId),
  requestItems: [...input.requestItems].sort((a, b) => b.createdAt - a.createdAt),
  isMobile: input.isMobile,
  isWalletLinked: input.extension.isWalletLinked,
  isExtensionAvailable: input.extension.isExtensionAvailable,
  dAppName: input.dAppName,
  dashboardUrl: input.dashboardUrl
})

/** The button's state, updated whenever the wallet data, request items, status or extension status change. */
export const connectButtonState: Stream.Stream<ConnectButtonState, never, WalletRequest> = Stream.unwrap(
  Effect.map(WalletRequest, (wr) =>
    Stream.zipLatestAll(
      // Accounts the list leaves out are logged each time wallet data that holds them arrives.
      Stream.tap(wr.walletData, (data) => {
        const listed = listedAccounts(data.accounts, wr.config.networkId)
        if (listed.length === data.accounts.length) return Effect.void
        const left = data.accounts.filter((a) => !listed.includes(a))
        return Effect.logWarning(
          `the wallet data holds ${left.length} account(s) that are not account addresses on network ${wr.config.networkId}; not listed`,
          left.map((a) => JSON.stringify(a.address.slice(0, 80)))
        )
      }),
      wr.requestItems,
      wr.buttonStatus,
      wr.extensionStatus,
      wr.isMobile,
      Stream.merge(Stream.make(""), Stream.fromEffect(wr.dAppName))
    ).pipe(
      Stream.map(([walletData, requestItems, status, extension, isMobile, dAppName]) =>
        toConnectButtonState({
          walletData,
          networkId: wr.config.networkId,
          requestItems,
          status,
          extension,
          isMobile,
          dAppName,
          dashboardUrl: wr.config.dashboardUrl
        })
      )
    )
  )
)

// ---------------------------------------------------------------------------------------------------------------
// Wallet toasts (the app shell shows them through its toaster)
// ---------------------------------------------------------------------------------------------------------------

export interface WalletToast {
  readonly title: "Wallet Connected" | "Wallet Disconnected" | "Account Changed"
  /** The account, shortened 15 + 5; plain text. */
  readonly description: string
  readonly durationMs: number
}

/** 'Wallet Connected' (5 s) when a persona appears, 'Wallet Disconnected' (3 s) when it goes. */
export const walletSessionToast = (previous: WalletData, next: WalletData): WalletToast | undefined => {
  if (!previous.persona && next.persona) {
    return { title: "Wallet Connected", description: shortenAddress(next.accounts[0]?.address ?? ""), durationMs: 5000 }
  }
  if (previous.persona && !next.persona) {
    return {
      title: "Wallet Disconnected",
      description: shortenAddress(previous.accounts[0]?.address ?? ""),
      durationMs: 3000
    }
  }
  return undefined
}

/** 'Account Changed' (3 s) for the newly selected account. */
export const accountChangedToast = (address: string): WalletToast => ({
  title: "Account Changed",
  description: shortenAddress(address),
  durationMs: 3000
})
