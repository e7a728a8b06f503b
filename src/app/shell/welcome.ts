import { KeyValueStore } from "@effect/platform"
import { Effect, Option, Stream } from "effect"
import { storageKey } from "../../toolkit/config"
import { storedSessionNeedsToolkit } from "../../toolkit/lazy"
import { WalletRequest } from "../../toolkit/walletRequestTag"
import { AppConfig } from "../config/AppConfig"
import { SwapMachine } from "../features/exchange/machine/SwapMachine"
import { readFlag, setFlag, VisitStore } from "../services/flags"
import { Overlays } from "../services/Overlays"
import { escapeHtml } from "../ui/escape"
import { Toaster } from "../services/Toaster"
import { typing, UserInput } from "../services/UserInput"
import { ValidatorSupport } from "../services/ValidatorSupport"
import { WalletSession } from "../services/WalletSession"
import { WELCOME_DELAY, WELCOME_DURATION } from "../services/ShellTimeline"

/** sessionStorage: the welcome toast has opened by itself in this visit. */
export const WELCOME_SHOWN_KEY = "hswap:welcome-shown"

/** Whether an account is connected now, as the app's session has it. */
const connectedNow = Effect.flatMap(WalletSession, (w) => Stream.runHead(w.session)).pipe(
  Effect.map(Option.exists((s) => s.accounts.length > 0))
)

/**
 * Whether this browser holds a wallet session for the dApp: the toolkit's stored state has accounts, a persona or
 * proofs. Nothing stored means nobody is connected, whatever the toolkit is doing. Storage that cannot be read is the
 * toolkit's to report; here it means "cannot tell", so the caller waits for the toolkit.
 */
const sessionStored = Effect.gen(function* () {
  const { config } = yield* WalletRequest
  const kv = yield* KeyValueStore.KeyValueStore
  return yield* kv.get(storageKey(config.dAppDefinitionAddress, config.networkId, "state")).pipe(
    Effect.map((state) => storedSessionNeedsToolkit(state, Option.none())),
    Effect.orElseSucceed(() => true)
  )
})

/**
 * Whether the visitor is connected: the session, else (when this browser holds a stored session) the toolkit's first
 * wallet data, which waits while the toolkit loads that session (a returning visitor's session arrives seconds after
 * load). A visitor with nothing stored is not connected even while the toolkit loads slowly (a slow phone, or the
 * toolkit loading for the connect button). A stored session still unknown after the welcome toast's own 10 s counts
 * as connected: the toast is not worth telling a returning user to connect.
 */
const connected = Effect.gen(function* () {
  if (yield* connectedNow) return true
  if (!(yield* sessionStored)) return false
  const wallet = yield* WalletRequest
  return yield* Stream.runHead(wallet.walletData).pipe(
    Effect.map(Option.match({ onNone: () => false, onSome: (d) => d.accounts.length > 0 || d.persona !== undefined })),
    Effect.timeoutTo({ duration: WELCOME_DURATION, onSuccess: (known) => known, onTimeout: () => true })
  )
})

/** The welcome toast (10 s); it asks to connect only a visitor who is not connected. Answers its id. */
const welcomeToast = (askToConnect: boolean) =>
  Effect.gen(function* () {
    const { brand } = yield* AppConfig
    const name = escapeHtml(brand.name)
    return yield* Toaster.show({
      title: `Welcome to ${brand.name}`,
      description: askToConnect
        ? `Swap wrapped assets at a <b>fixed rate</b> with no slippage, backed by ${name}'s own liquidity. Connect your Radix Wallet to start, and use only the official ${name} interface.`
        : `Swap wrapped assets at a <b>fixed rate</b> with no slippage, backed by ${name}'s own liquidity. Use only the official ${name} interface.`,
      variant: "welcome",
      duration: WELCOME_DURATION
    })
  })

/** The header's info button: the welcome toast, whoever asks. */
export const showWelcome = Effect.flatMap(connectedNow, (isConnected) => welcomeToast(!isConnected))

/**
 * The welcome toast by itself, 4 s after load (spec §2), for a visitor who is not connected, once per visit
 * (sessionStorage), and not over work: it waits while a dialog, the drawer or the wallet popover is open, and steps
 * aside (closes) when one opens over it or the wallet connects. Answers whether it showed.
 */
export const autoWelcome = Effect.gen(function* () {
  yield* Effect.sleep(WELCOME_DELAY)
  const visit = yield* VisitStore
  if (yield* readFlag(visit, WELCOME_SHOWN_KEY)) return false
  if (yield* connected) return false
  const overlays = yield* Overlays
  yield* overlays.open.pipe(
    Stream.filter((n) => n === 0),
    Stream.take(1),
    Stream.runDrain
  )
  if (yield* connectedNow) return false
  const id = yield* welcomeToast(true)
  yield* setFlag(visit, WELCOME_SHOWN_KEY)
  const toaster = yield* Toaster
  const session = yield* WalletSession
  // Shown (it may first wait behind another toast), then closed: its work is done.
  const closed = toaster.toasts.pipe(
    Stream.map((ts) => ts.some((t) => t.id === id && t.open)),
    Stream.changes,
    Stream.dropWhile((open) => !open),
    Stream.filter((open) => !open),
    Stream.take(1),
    Stream.runDrain
  )
  const coveredOrConnected = Effect.raceFirst(
    overlays.open.pipe(
      Stream.filter((n) => n > 0),
      Stream.take(1),
      Stream.runDrain
    ),
    session.session.pipe(
      Stream.filter((s) => s.accounts.length > 0),
      Stream.take(1),
      Stream.runDrain
    )
  ).pipe(Effect.zipRight(toaster.dismiss(id)))
  yield* Effect.raceFirst(closed, coveredOrConnected)
  return true
})

/**
 * true while nothing is open over the page (no dialog, drawer or wallet popover), no swap is in flight and nobody is
 * typing (no field focused, no key pressed in the last 2 s): a dialog that opened then took the keystrokes.
 */
export const pageQuiet: Stream.Stream<boolean, never, Overlays | SwapMachine | UserInput> = Stream.unwrap(
  Effect.gen(function* () {
    const overlays = yield* Overlays
    const machine = yield* SwapMachine
    const input = yield* UserInput
    const swapInFlight = machine.state.pipe(
      Stream.map((s) => s.swap !== undefined),
      Stream.changes
    )
    return Stream.zipLatestAll(overlays.open, swapInFlight, typing(input)).pipe(
      Stream.map(([open, swapping, typed]) => open === 0 && !swapping && !typed)
    )
  })
)

/**
 * What the shell starts when it mounts: the delayed welcome toast and the validator dialog's auto-open, held while
 * the page is busy.
 */
export const shellStartup = Effect.all([autoWelcome, Effect.flatMap(ValidatorSupport, (v) => v.autoOpen(pageQuiet))], {
  concurrency: "unbounded",
  discard: true
})
