export {
  DEVNET_RELEASE_INFO,
  type GatewayEmulator,
  type GatewayRequest,
  type GatewayResponse,
  MAX_ADDRESSES,
  MAX_PAGE_SIZE,
  SUPPORTED_PATHS,
  makeGatewayEmulator
} from "./GatewayEmulator"
export { type DevnetGateway, gatewayNodeHandler, startDevnetGateway } from "./node"
export { emulatorHttpClient, emulatorHttpClientLayer } from "./httpClient"
