/** The Status group: `/status/gateway-status` and `/status/network-configuration`. */
import { Effect } from "effect"
import type { EmulatorContext } from "../context"
import type { Routes } from "../failure"

export const STATUS_PATHS = ["/status/gateway-status", "/status/network-configuration"] as const

/** Release info reported by `/status/gateway-status`. */
export const DEVNET_RELEASE_INFO = {
  release_version: "1.10.1",
  open_api_schema_version: "v1.10.1",
  image_tag: "hswap-devnet"
} as const

export const statusRoutes = ({ ledger, networkConfig }: EmulatorContext): Routes<typeof STATUS_PATHS> => ({
  "/status/gateway-status": () =>
    Effect.map(ledger.state, (ledger_state) => ({ ledger_state, release_info: DEVNET_RELEASE_INFO })),
  "/status/network-configuration": () => Effect.succeed(networkConfig)
})
