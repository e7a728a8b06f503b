/**
 * The live chunk: everything that needs Effect, the toolkit or the gateway, loaded by the shell after its first
 * paint (see runtime/live-context.tsx). `boot` decodes the configuration and builds the one runtime of the app's
 * lifetime; the rest are the shell's islands.
 */
import { Either, ManagedRuntime } from "effect"
import { type AppConfigShape, decodeAppConfig, type Env } from "./config/AppConfig"
import type { Boot } from "./runtime/live-context"
import { makeAppLayer } from "./runtime/layers"

const misconfigured = (message: string): Boot => {
  // A bad configuration stops here, naming the variable, instead of a blank page.
  console.error(message)
  return { _tag: "Misconfigured", message }
}

const ready = (config: AppConfigShape): Boot => ({
  _tag: "Ready",
  live: { config, runtime: ManagedRuntime.make(makeAppLayer(config)) }
})

export const boot = (env: Env): Boot => {
  const config = decodeAppConfig(env)
  return Either.isLeft(config) ? misconfigured(config.left.message) : ready(config.right)
}

/**
 * `boot` in tasks, `between` giving the browser its turn in between:
 * - the configuration's decoding (its Schemas' first compile), and the runtime's layers, were one task of 70–116 ms
 *   at 4× slowdown (bench:app --trace);
 * - the runtime's build starts in a task of its own. ManagedRuntime builds on first use, and the start of the build
 *   runs synchronously (on Effect's SyncScheduler, until the sliced scheduler takes over): the islands' first
 *   subscriptions, after React's commit, made it part of a task of 60–95 ms;
 * - the boot is ready (React renders the islands with it) a task after that: the build's synchronous start, about
 *   10–15 ms at 4× before the sliced scheduler takes over and one slice after it, and what the boot's readiness sets off
 *   were one task of 40–55 ms under tracing.
 */
export const bootInTasks = async (env: Env, between: () => Promise<void>): Promise<Boot> => {
  const config = decodeAppConfig(env)
  if (Either.isLeft(config)) return misconfigured(config.left.message)
  await between()
  const booted = ready(config.right)
  await between()
  if (booted._tag === "Ready")
    // A failed build shows where the runtime is used (an island's fiber fails with it); this says it once, here.
    booted.live.runtime.runtime().then(
      () => undefined,
      (cause: unknown) => console.error("The app's runtime could not be built", cause)
    )
  await between()
  return booted
}

export { BalanceBadge } from "./shell/BalanceBadge"
export { ShellStartup, SidebarLinks, WelcomeButton } from "./shell/LiveShell"
export { Tagline } from "./shell/Tagline"
export { ValidatorDialogSlot } from "./shell/ValidatorDialogSlot"
export { WalletButton } from "./shell/WalletButton"
export { Toasts } from "./ui/Toasts"
