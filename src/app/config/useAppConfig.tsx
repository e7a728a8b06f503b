import { createContext, use, type ReactNode } from "react"
import type { AppConfigShape } from "./AppConfig"

/** The decoded configuration is a fixed value for the app's lifetime; components read it synchronously. */
const ConfigContext = createContext<AppConfigShape | null>(null)

export function ConfigProvider({
  config,
  children
}: {
  readonly config: AppConfigShape
  readonly children: ReactNode
}) {
  return <ConfigContext value={config}>{children}</ConfigContext>
}

export function useAppConfig(): AppConfigShape {
  const config = use(ConfigContext)
  if (config === null) throw new Error("useAppConfig: no ConfigProvider above this component")
  return config
}
