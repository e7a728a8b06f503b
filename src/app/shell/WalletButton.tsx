import { Effect, Stream } from "effect"
import { useState } from "react"
import { type ConnectButtonState, connectButtonState } from "../../toolkit/connectButtonState"
import { ConnectButton } from "../../toolkit/ConnectButton"
import { WalletRequest, type WalletRequestApi } from "../../toolkit/walletRequestTag"
import { AppConfig } from "../config/AppConfig"
import { Overlays } from "../services/Overlays"
import { type SessionState, WalletSession } from "../services/WalletSession"
import { useEffectResult, useFork, useStream } from "../runtime/app-runtime"
import { WalletButtonPlaceholder } from "./views"

/** The toolkit's state for the button, with explorer links on the configured dashboard (the devnet has its own). */
const buttonState: Stream.Stream<ConnectButtonState | undefined, never, AppConfig | WalletRequest> = Stream.unwrap(
  Effect.map(AppConfig, (config) =>
    connectButtonState.pipe(Stream.map((state) => ({ ...state, dashboardUrl: config.dashboardUrl })))
  )
)

const sessionStream = Stream.unwrap(
  Effect.map(WalletSession, (w) => w.session as Stream.Stream<SessionState | undefined>)
)

/** The toolkit's default width, and the most the persona's name may widen the button to. */
const BUTTON_WIDTH = 138
const MAX_WIDTH = 260

/**
 * How wide the button asks to be: 138 px, or wide enough for the persona's name (icon, gap and padding take about
 * 52 px, a semibold 14 px character up to about 9.5), at most 260 px. The header's slot caps it at the room the row
 * has (the button's max-width is its slot's), so a phone shows as much of the name as fits: all of "Devnet Persona"
 * at 360 px. A longer name is cut with an ellipsis; the button's accessible name is always the whole of it.
 */
export const walletButtonWidth = (label: string | undefined): number => {
  if (label === undefined) return BUTTON_WIDTH
  const wanted = Math.ceil(52 + 9.5 * Array.from(label).length)
  return Math.max(BUTTON_WIDTH, Math.min(wanted, MAX_WIDTH))
}

/**
 * The header's wallet button: the toolkit's ConnectButton over the app's WalletRequest. Its shared-accounts list is
 * where the user picks the account the app works with (spec §6). Until the toolkit's first state arrives (at once on
 * a first visit; after the toolkit has loaded and read a stored session) the placeholder stays, so a returning
 * visitor never sees "Connect" before their persona. Pointing at the button loads the wallet machinery.
 */
export function WalletButton() {
  const state = useStream(buttonState, undefined)
  const session = useStream(sessionStream, undefined)
  const fork = useFork()
  const [popoverOpen, setPopoverOpen] = useState(false)
  // The open popover counts as an overlay: the validator dialog does not open on top of it.
  useEffectResult(popoverOpen ? Overlays.holdWhileRunning : Effect.void, [popoverOpen])
  const wallet = <A, E>(f: (w: WalletRequestApi) => Effect.Effect<A, E>) => fork(Effect.flatMap(WalletRequest, f))
  if (state === undefined) return <WalletButtonPlaceholder />
  return (
    <ConnectButton
      state={state}
      mode="dark"
      theme="custom"
      width={walletButtonWidth(state.connected ? state.personaLabel : undefined)}
      // Once the wallet has connected the popover has done its job: left open it covered 'Your Transactions' on a
      // wide screen and the page on a phone. The button opens it again for the sharing and requests tabs.
      closeOnConnect
      onPopoverOpenChange={setPopoverOpen}
      onIntent={() => wallet((w) => w.prepare)}
      onConnect={() => wallet((w) => w.connect())}
      onDisconnect={() => wallet((w) => w.disconnect())}
      onUpdateSharedAccounts={() => wallet((w) => w.updateSharedAccounts())}
      onCancelRequest={(id) => wallet((w) => w.cancelRequest(id))}
      onIgnoreTransaction={(id) => wallet((w) => w.ignoreTransaction(id))}
      onShowQrCode={() => wallet((w) => w.openPopup)}
      selectedAccount={session?.selected}
      onSelectAccount={(address) => fork(Effect.flatMap(WalletSession, (w) => w.selectAccount(address)))}
    />
  )
}
