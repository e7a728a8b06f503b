/**
 * The live chunk: everything that needs Effect, the toolkit or the gateway, loaded by the shell after its first
 * paint (see runtime/live-context.tsx). `boot` decodes the configuration and builds the one runtime of the app's
 * lifetime; the rest are the shell's islands.
 */
import { Either, ManagedRuntime } from "effect"
import { decodeAppConfig, type Env } from "./config/AppConfig"
import type { Boot } from "./runtime/live-context"
import { makeAppLayer } from "./runtime/layers"

export const boot = (env: Env): Boot => {
  const config = decodeAppConfig(env)
  if (Either.isLeft(config)) {
    // A bad configuration stops here, naming the variable, instead of a blank page.
    console.error(config.left.message)
    return { _tag: "Misconfigured", message: config.left.message }
  }
  return { _tag: "Ready", live: { config: config.right, runtime: ManagedRuntime.make(makeAppLayer(config.right)) } }
}

export { BalanceBadge } from "./shell/BalanceBadge"
export { ShellStartup, SidebarLinks, WelcomeButton } from "./shell/LiveShell"
export { Tagline } from "./shell/Tagline"
export { ValidatorDialogSlot } from "./shell/ValidatorDialogSlot"
export { WalletButton } from "./shell/WalletButton"
export { Toasts } from "./ui/Toasts"
