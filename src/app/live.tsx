/**
 * The live chunk: everything that needs Effect, the toolkit or the gateway, loaded by the shell after its first
 * paint (see runtime/live-context.tsx). `boot` decodes the configuration and builds the one runtime of the app's
 * lifetime; the rest are the shell's islands.
 */
import { Either } from "effect"
import { type AppConfigShape, decodeAppConfig, type Env } from "./config/AppConfig"
import type { Boot } from "./runtime/live-context"
import { makeAppLayer } from "./runtime/layers"
import { makeSlicedRuntime } from "./runtime/scheduler"

const misconfigured = (message: string): Boot => {
  // A bad configuration stops here, naming the variable, instead of a blank page.
  console.error(message)
  return { _tag: "Misconfigured", message }
}

/** The boot, and the build of its runtime on the sliced scheduler (runtime/scheduler.ts makeSlicedRuntime). */
const ready = (config: AppConfigShape, layer: ReturnType<typeof makeAppLayer>) => {
  const { runtime, build } = makeSlicedRuntime(layer)
  const booted: Boot = { _tag: "Ready", live: { config, runtime } }
  return { booted, build }
}

/** The boot in one go; the runtime builds on first use. */
export const boot = (env: Env): Boot => {
  const config = decodeAppConfig(env)
  return Either.isLeft(config)
    ? misconfigured(config.left.message)
    : ready(config.right, makeAppLayer(config.right)).booted
}

/**
 * `boot` in tasks, `between` giving the browser its turn in between:
 * - the configuration's decoding (its Schemas' first compile), and the runtime's layers, were one task of 70–116 ms
 *   at 4× slowdown (bench:app --trace);
 * - the runtime's build starts in a task of its own, on the sliced scheduler from its first operation
 *   (makeSlicedRuntime): ManagedRuntime builds on first use, and started on first use, the start of its build ran on
 *   Effect's SyncScheduler, one task of 57–231 ms at 4× slowdown under tracing;
 * - the boot is ready (React renders the islands with it) a task after that.
 */
export const bootInTasks = async (env: Env, between: () => Promise<void>): Promise<Boot> => {
  const config = decodeAppConfig(env)
  if (Either.isLeft(config)) return misconfigured(config.left.message)
  await between()
  const layer = makeAppLayer(config.right)
  await between()
  const { booted, build } = ready(config.right, layer)
  await between()
  // A failed build shows where the runtime is used (an island's fiber fails with it); this says it once, here.
  build().catch((cause: unknown) => console.error("The app's runtime could not be built", cause))
  await between()
  return booted
}

export { BalanceBadge } from "./shell/BalanceBadge"
export { ShellStartup, SidebarLinks, WelcomeButton } from "./shell/LiveShell"
export { Tagline } from "./shell/Tagline"
export { ValidatorDialogSlot } from "./shell/ValidatorDialogSlot"
export { WalletButton } from "./shell/WalletButton"
export { Toasts } from "./ui/Toasts"
