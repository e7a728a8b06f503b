// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { describe, expect, it, vi } from "vitest"
import { ConnectButton, type ConnectButtonProps } from "../../src/toolkit/ConnectButton.js"
import { type ConnectButtonState, initialConnectButtonState } from "../../src/toolkit/connectButtonState.js"
import type { RequestItem } from "../../src/toolkit/schemas.js"

const handlers = () => ({
  onConnect: vi.fn(),
  onDisconnect: vi.fn(),
  onUpdateSharedAccounts: vi.fn(),
  onCancelRequest: vi.fn(),
  onIgnoreTransaction: vi.fn(),
  onShowQrCode: vi.fn()
})

const setup = (state: Partial<ConnectButtonState>, extra: Partial<ConnectButtonProps> = {}) => {
  const h = handlers()
  const user = userEvent.setup()
  render(<ConnectButton state={{ ...initialConnectButtonState, ...state }} {...h} {...extra} />)
  return { h, user }
}

const item = (id: string, over: Partial<RequestItem> = {}): RequestItem => ({
  type: "sendTransaction",
  status: "pending",
  interactionId: id,
  createdAt: 1,
  showCancel: true,
  isOneTimeRequest: false,
  ...over
})

const connected: Partial<ConnectButtonState> = {
  connected: true,
  personaLabel: "Persona One",
  personaData: [{ field: "emailAddress", value: "p@example.com" }],
  accounts: [
    { address: "account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe", label: "Main", appearanceId: 0 }
  ],
  isExtensionAvailable: true,
  isWalletLinked: true,
  dashboardUrl: "https://stokenet-dashboard.radixdlt.com"
}

describe("ConnectButton face", () => {
  it("reads 'Connect', with a spinner while pending", () => {
    const { unmount } = render(<ConnectButton state={initialConnectButtonState} {...handlers()} />)
    expect(screen.getByTestId("connect-button").textContent).toBe("Connect")
    expect(screen.queryByTestId("connect-button-spinner")).toBeNull()
    unmount()
    render(<ConnectButton state={{ ...initialConnectButtonState, status: "pending" }} {...handlers()} />)
    expect(screen.getByTestId("connect-button-spinner")).toBeTruthy()
    expect(screen.getByTestId("connect-button").getAttribute("aria-busy")).toBe("true")
  })

  it("shows the persona label when connected; compact below 138 px keeps it as the accessible name", () => {
    setup(connected, { width: 100, theme: "black", mode: "dark" })
    const button = screen.getByTestId("connect-button")
    expect(button.textContent).toBe("")
    expect(button.getAttribute("aria-label")).toBe("Persona One")
    expect(button.getAttribute("data-theme")).toBe("black")
    expect(button.getAttribute("data-mode")).toBe("dark")
  })
})

describe("ConnectButton popover, not connected", () => {
  it("no extension: the notice, the setup guide and a disabled Connect Now", async () => {
    const { user, h } = setup({ isExtensionAvailable: false })
    await user.click(screen.getByTestId("connect-button"))
    const popover = await screen.findByTestId("connect-popover")
    expect(within(popover).getByText("Connect Your Radix Wallet")).toBeTruthy()
    const guide = within(popover).getByRole("link", { name: "Download and Setup Guide" })
    expect(guide.getAttribute("href")).toBe("https://wallet.radixdlt.com")
    expect(guide.getAttribute("rel")).toBe("noopener noreferrer")
    const connect = within(popover).getByRole("button", { name: "Connect Now" }) as HTMLButtonElement
    expect(connect.disabled).toBe(true)
    await user.click(connect)
    expect(h.onConnect).not.toHaveBeenCalled()
  })

  it("not linked: 'Open QR Code to Link Wallet' asks for the popup", async () => {
    const { user, h } = setup({ isExtensionAvailable: true, isWalletLinked: false })
    await user.click(screen.getByTestId("connect-button"))
    await user.click(await screen.findByRole("button", { name: "Open QR Code to Link Wallet" }))
    expect(h.onShowQrCode).toHaveBeenCalledTimes(1)
  })

  it("pending requests are shown as cards with Cancel", async () => {
    const { user, h } = setup({
      isExtensionAvailable: true,
      isWalletLinked: true,
      requestItems: [item("a", { type: "loginRequest" })]
    })
    await user.click(screen.getByTestId("connect-button"))
    const cards = await screen.findAllByTestId("request-card")
    expect(cards.map((c) => c.textContent)).toEqual([expect.stringContaining("Pending Login")])
    await user.click(screen.getByRole("button", { name: "Cancel" }))
    expect(h.onCancelRequest).toHaveBeenCalledWith("a")
  })

  it("otherwise 'Connect Now', keyboard accessible; on mobile also the get-wallet link", async () => {
    const { user, h } = setup({ isExtensionAvailable: false, isMobile: true })
    screen.getByTestId("connect-button").focus()
    await user.keyboard("{Enter}")
    const connect = await screen.findByRole("button", { name: "Connect Now" })
    expect(screen.getByRole("link", { name: "Don't have the Radix Wallet?" }).getAttribute("href")).toBe(
      "https://app.radixdlt.com/qr-code"
    )
    connect.focus()
    await user.keyboard("{Enter}")
    expect(h.onConnect).toHaveBeenCalledTimes(1)
  })
})

describe("ConnectButton popover, connected", () => {
  it("sharing: persona, data, accounts with dashboard links, update and log out", async () => {
    const { user, h } = setup(connected)
    await user.click(screen.getByTestId("connect-button"))
    await screen.findByTestId("connect-popover")
    expect(screen.getByRole("tab", { name: "Sharing" }).getAttribute("aria-selected")).toBe("true")
    expect(screen.getByTestId("persona-label").textContent).toBe("Persona One")
    expect(screen.getByText("p@example.com")).toBeTruthy()
    const link = screen.getByRole("link", { name: "account_tdx_2_1...a6rhe" })
    expect(link.getAttribute("href")).toBe(
      "https://stokenet-dashboard.radixdlt.com/account/account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe"
    )
    await user.click(screen.getByRole("button", { name: "Update Account Sharing" }))
    expect(h.onUpdateSharedAccounts).toHaveBeenCalledTimes(1)
    await user.click(screen.getByRole("button", { name: "Log out" }))
    expect(h.onDisconnect).toHaveBeenCalledTimes(1)
  })

  it("lists accounts as text only, unless the dApp lets the user pick; then the selected one is pressed", async () => {
    const second = "account_tdx_2_128jm6lz94jf9tnec8d0uqp23xfyu7yc2cyrnqw3dhy8uyxdx6fppu0"
    const twoAccounts = {
      ...connected,
      accounts: [...(connected.accounts ?? []), { address: second, label: "Savings", appearanceId: 1 }]
    }
    const plain = setup(twoAccounts)
    await plain.user.click(screen.getByTestId("connect-button"))
    await screen.findByTestId("connect-popover")
    expect(screen.queryByRole("button", { name: "Main" })).toBeNull()
    expect(screen.getByText("Main")).toBeTruthy()
    cleanup()

    const onSelectAccount = vi.fn()
    const { user } = setup(twoAccounts, { selectedAccount: second, onSelectAccount })
    await user.click(screen.getByTestId("connect-button"))
    await screen.findByTestId("connect-popover")
    expect(screen.getByRole("button", { name: "Savings" }).getAttribute("aria-pressed")).toBe("true")
    expect(screen.getByRole("button", { name: "Main" }).getAttribute("aria-pressed")).toBe("false")
    await user.click(screen.getByRole("button", { name: "Main" }))
    expect(onSelectAccount).toHaveBeenCalledWith(
      "account_tdx_2_12yf9gd53yfep7a669fv2t3wm7nz9zeezwd04n02a433ker8vza6rhe"
    )
  })

  it("opens on requests while some are pending: newest first, Cancel or Ignore, explorer links", async () => {
    const { user, h } = setup({
      ...connected,
      requestItems: [
        item("newest", { createdAt: 3, showCancel: false }),
        item("pre", {
          type: "preAuthorizationRequest",
          status: "pendingCommit",
          createdAt: 2,
          showCancel: false,
          transactionIntentHash: "subtxid_1"
        }),
        item("done", { status: "success", createdAt: 1, transactionIntentHash: "txid_1" })
      ]
    })
    await user.click(screen.getByTestId("connect-button"))
    await screen.findByTestId("connect-popover")
    expect(screen.getByRole("tab", { name: "Requests" }).getAttribute("aria-selected")).toBe("true")
    const cards = screen.getAllByTestId("request-card")
    expect(cards.map((c) => c.getAttribute("data-status"))).toEqual(["pending", "pendingCommit", "success"])
    expect(within(cards[1]!).getByText("Preauthorization Lookup")).toBeTruthy()
    expect(within(cards[1]!).getByRole("link").getAttribute("href")).toBe(
      "https://stokenet-dashboard.radixdlt.com/subintent/subtxid_1"
    )
    expect(within(cards[2]!).getByRole("link").getAttribute("href")).toBe(
      "https://stokenet-dashboard.radixdlt.com/transaction/txid_1"
    )
    expect(within(cards[2]!).queryByRole("button")).toBeNull()
    await user.click(within(cards[0]!).getByRole("button", { name: "Ignore" }))
    expect(h.onIgnoreTransaction).toHaveBeenCalledWith("newest")
    await user.click(screen.getByRole("tab", { name: "Sharing" }))
    expect(screen.getByRole("tab", { name: "Sharing" }).getAttribute("aria-selected")).toBe("true")
  })

  it("renders outside text as text, never as markup", async () => {
    const { user } = setup({ ...connected, personaLabel: "<img src=x onerror=alert(1)>" })
    await user.click(screen.getByTestId("connect-button"))
    await screen.findByTestId("connect-popover")
    expect(document.querySelector("img")).toBeNull()
    expect(screen.getByTestId("persona-label").textContent).toBe("<img src=x onerror=alert(1)>")
  })
})

describe("ConnectButton popover, opening and closing", () => {
  it("the button toggles it and says so; Escape closes it and gives focus back to the button", async () => {
    const { user } = setup(connected)
    const button = screen.getByTestId("connect-button")
    expect(button.getAttribute("aria-haspopup")).toBe("dialog")
    expect(button.getAttribute("aria-expanded")).toBe("false")
    await user.click(button)
    const popover = await screen.findByTestId("connect-popover")
    expect(button.getAttribute("aria-expanded")).toBe("true")
    expect(button.getAttribute("aria-controls")).toBe(popover.id)
    // A press on the button while open closes it (it is not an outside press that reopens it).
    await user.click(button)
    expect(screen.queryByTestId("connect-popover")).toBeNull()
    expect(button.getAttribute("aria-expanded")).toBe("false")
    await user.click(button)
    await screen.findByTestId("connect-popover")
    await user.keyboard("{Escape}")
    expect(screen.queryByTestId("connect-popover")).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it("a press outside closes it and leaves focus where the user went", async () => {
    const h = handlers()
    const user = userEvent.setup()
    render(
      <div>
        <ConnectButton state={{ ...initialConnectButtonState, ...connected }} {...h} />
        <input aria-label="elsewhere" />
      </div>
    )
    await user.click(screen.getByTestId("connect-button"))
    await screen.findByTestId("connect-popover")
    await user.click(screen.getByLabelText("elsewhere"))
    expect(screen.queryByTestId("connect-popover")).toBeNull()
    expect(document.activeElement).toBe(screen.getByLabelText("elsewhere"))
  })
})
