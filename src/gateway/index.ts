/**
 * Radix Babylon Gateway API v1.10 client: every path, Schema-decoded, paged, chunked, bounded, retried, typed errors.
 * Runs in the browser and in Node: `Gateway.layer` over any `HttpClient` (e.g. `FetchHttpClient.layer`, or a test
 * double), or `Gateway.layerFetch` over `fetch` itself (no fiber per request). In Node, `layerNode` in `./node.js` (not
 * re-exported here, so that a browser build never sees Node's modules) sends over Node's own http/https: the
 * cheapest there.
 */
export { Gateway } from "./tag.js"
export { makeGatewayOver, makeGatewayWithFetch, defaultCommittedDetailsOptIns, UnnamedDapp } from "./Gateway.js"
export { makeGateway, makeGatewayFetch } from "./platform.js"
export type {
  GatewayService,
  EntityDetailsVaultAggregatedOptions,
  StateEntityDetailsVaultResponseItem
} from "./service.js"
export {
  GatewayClientName,
  GatewayClientVersion,
  GatewayDefaults,
  gatewayRetrySchedule,
  isRetryable,
  parseRetryAfter,
  resolveBasePath,
  resolveGatewayConfig
} from "./config.js"
export type { GatewayConfig, GatewayRetryPolicy, ResolvedGatewayConfig } from "./config.js"
export * from "./errors.js"
export { RadixNetwork, RadixNetworkConfigById, DefaultGatewayUrl } from "./networks.js"
export type { RadixNetworkConfig, RadixNetworkId } from "./networks.js"
export { Endpoints } from "./endpoints.js"
export type { Endpoint } from "./http.js"
export { chunk, exhaustPages, remainingPages, pinTo, chunkedAtOneLedgerState } from "./paging.js"
export type { Page } from "./paging.js"
export * from "./schemas/common.js"
export * from "./schemas/enums.js"
export * from "./schemas/status.js"
export * from "./schemas/transaction.js"
export * from "./schemas/stream.js"
export * from "./schemas/state.js"
export * from "./schemas/statistics.js"
export * from "./schemas/extensions.js"
