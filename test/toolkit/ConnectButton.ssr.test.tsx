import { renderToString } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { ConnectButton } from "../../src/toolkit/ConnectButton.js"
import { initialConnectButtonState } from "../../src/toolkit/connectButtonState.js"

describe("ConnectButton without a DOM", () => {
  it("renders the closed button to a string and touches no window", () => {
    expect(typeof document).toBe("undefined")
    const noop = () => undefined
    const html = renderToString(
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
    expect(html).toContain("Connect")
    expect(html).not.toContain("connect-popover")
  })
})
