import { Effect, Stream } from "effect"
import { AppConfig } from "../config/AppConfig"
import { SwapMachine } from "../features/exchange/machine/SwapMachine"
import { Overlays } from "../services/Overlays"
import { escapeHtml } from "../ui/escape"
import { Toaster } from "../services/Toaster"
import { ValidatorSupport } from "../services/ValidatorSupport"
import { WELCOME_DELAY, WELCOME_DURATION } from "../services/ShellTimeline"

/** The welcome toast: opened by the header's info button, and by itself 4 s after load; it lasts 10 s. */
export const showWelcome = Effect.gen(function* () {
  const { brand } = yield* AppConfig
  const name = escapeHtml(brand.name)
  yield* Toaster.show({
    title: `Welcome to ${brand.name}`,
    description: `Swap wrapped assets at a <b>fixed rate</b> with no slippage, backed by ${name}'s own liquidity. Connect your Radix Wallet to start, and use only the official ${name} interface.`,
    variant: "welcome",
    duration: WELCOME_DURATION
  })
})

/** true while nothing modal is open (no dialog, no wallet popover) and no swap is in flight. */
export const pageQuiet: Stream.Stream<boolean, never, Overlays | SwapMachine> = Stream.unwrap(
  Effect.gen(function* () {
    const overlays = yield* Overlays
    const machine = yield* SwapMachine
    const swapInFlight = machine.state.pipe(
      Stream.map((s) => s.swap !== undefined),
      Stream.changes
    )
    return Stream.zipLatestWith(overlays.open, swapInFlight, (open, swapping) => open === 0 && !swapping)
  })
)

/**
 * What the shell starts when it mounts: the delayed welcome toast and the validator dialog's auto-open, held while
 * the page is busy.
 */
export const shellStartup = Effect.all(
  [Effect.sleep(WELCOME_DELAY).pipe(Effect.zipRight(showWelcome)), Effect.flatMap(ValidatorSupport, (v) => v.autoOpen(pageQuiet))],
  { concurrency: "unbounded", discard: true }
)
