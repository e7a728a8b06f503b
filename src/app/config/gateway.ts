import type { GatewayConfig } from "../../gateway/config"
import type { AppConfigShape } from "./AppConfig"

/** Spec §7: the toolkit and the Gateway client are configured with the application name and version 1.0.0. */
export const APPLICATION_VERSION = "1.0.0"

/** The Gateway client's configuration for the app's network (spec §7: the app's name, version 1.0.0). */
export const gatewayConfigOf = (config: AppConfigShape): GatewayConfig => ({
  networkId: config.networkId,
  basePath: config.gatewayUrl,
  applicationName: config.brand.name,
  applicationVersion: APPLICATION_VERSION,
  applicationDappDefinitionAddress: config.dAppDefinitionAddress
})
