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
 * `boot` in two tasks: the configuration's decoding (its Schemas' first compile) and the runtime's layers were one
 * task of 70–116 ms at 4× slowdown (bench:app --trace); `between` gives the browser its turn in between.
 */
export const bootInTasks = async (env: Env, between: () => Promise<void>): Promise<Boot> => {
  const config = decodeAppConfig(env)
  if (Either.isLeft(config)) return misconfigured(config.left.message)
  await between()
  return ready(config.right)
}

export { BalanceBadge } from "./shell/BalanceBadge"
export { ShellStartup, SidebarLinks, WelcomeButton } from "./shell/LiveShell"
export { Tagline } from "./shell/Tagline"
export { ValidatorDialogSlot } from "./shell/ValidatorDialogSlot"
export { WalletButton } from "./shell/WalletButton"
export { Toasts } from "./ui/Toasts"
