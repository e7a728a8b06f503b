import { useLive } from "../runtime/live-context"
import type { AppConfigShape } from "./AppConfig"

/** The decoded configuration is a fixed value for the app's lifetime; components read it synchronously. */
export function useAppConfig(): AppConfigShape {
  return useLive().config
}
