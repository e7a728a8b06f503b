// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react"
import userEvent from "@testing-library/user-event"
import { expect, it, vi } from "vitest"
import { ConnectButton } from "../../src/toolkit/ConnectButton.js"
import { initialConnectButtonState } from "../../src/toolkit/connectButtonState.js"

// The popover's chunk cannot be fetched (a deploy replaced it, the network dropped).
vi.mock("../../src/toolkit/ConnectPanel.js", () => {
  throw new Error("Failed to fetch dynamically imported module")
})

it("a popover chunk that cannot load is reported, the button stays usable and closed, and the next press tries again", async () => {
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
  const noop = () => undefined
  const user = userEvent.setup()
  render(
    <ConnectButton
      state={initialConnectButtonState}
      onConnect={noop}
      onDisconnect={noop}
      onUpdateSharedAccounts={noop}
      onCancelRequest={noop}
      onIgnoreTransaction={noop}
      onShowQrCode={noop}
    />
  )
  const button = screen.getByTestId("connect-button")
  await user.click(button)
  await waitFor(() =>
    expect(error).toHaveBeenCalledWith("Connect button: the wallet panel could not be loaded", expect.anything())
  )
  await waitFor(() => expect(button.getAttribute("aria-expanded")).toBe("false"))
  expect(screen.queryByTestId("connect-popover")).toBeNull()
  const calls = error.mock.calls.length
  await user.click(button)
  await waitFor(() => expect(error.mock.calls.length).toBeGreaterThan(calls))
  error.mockRestore()
})
