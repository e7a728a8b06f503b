import { Effect, Stream } from "effect"
import { connectButtonState, initialConnectButtonState } from "../../toolkit/connectButtonState"
import { ConnectButton } from "../../toolkit/ConnectButton"
import { WalletRequest } from "../../toolkit/index"
import { AppConfig } from "../config/AppConfig"
import { type SessionState, WalletSession } from "../services/WalletSession"
import { useFork, useStream } from "../runtime/app-runtime"

/** The toolkit's state for the button, with explorer links on the configured dashboard (the devnet has its own). */
const buttonState = Stream.unwrap(
  Effect.map(AppConfig, (config) =>
    connectButtonState.pipe(Stream.map((state) => ({ ...state, dashboardUrl: config.dashboardUrl })))
  )
)

const sessionStream = Stream.unwrap(
  Effect.map(WalletSession, (w) => w.session as Stream.Stream<SessionState | undefined>)
)

/**
 * The header's wallet button: the toolkit's ConnectButton over the app's WalletRequest. Its shared-accounts list is
 * where the user picks the account the app works with (spec §6).
 */
export function WalletButton() {
  const state = useStream(buttonState, initialConnectButtonState)
  const session = useStream(sessionStream, undefined)
  const fork = useFork()
  const wallet = <A, E>(f: (w: WalletRequest) => Effect.Effect<A, E>) => fork(Effect.flatMap(WalletRequest, f))
  return (
    <ConnectButton
      state={state}
      mode="dark"
      theme="custom"
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
