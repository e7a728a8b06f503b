import { useLive } from "./live-context"
import { makeRuntimeContext } from "./runtime"
import type { AppServices } from "./services"

export type { AppServices } from "./services"

export const { useRuntime, useEffectResult, useStream, useRun, useFork } = makeRuntimeContext<AppServices>(
  () => useLive().runtime
)
