/**
 * Radix Babylon Gateway API v1.10 client: every path, Schema-decoded, paged, chunked, bounded, retried, typed errors.
 * Runs in the browser and in Node: `Gateway.layer` over any `HttpClient` (e.g. `FetchHttpClient.layer`, or a test
 * double), or `Gateway.layerFetch` over `fetch` itself (no fiber per request). In Node, `layerNode` in `./node.js` (not
 * re-exported here, so that a browser build never sees Node's modules) sends over Node's own http/https: the
 * cheapest there.
 */
export { Gateway } from "./tag"
export { makeGatewayOver, makeGatewayWithFetch, defaultCommittedDetailsOptIns, UnnamedDapp } from "./Gateway"
export { makeGateway, makeGatewayFetch } from "./platform"
export type {
  GatewayService,
  EntityDetailsVaultAggregatedOptions,
  StateEntityDetailsVaultResponseItem
} from "./service"
export {
  GatewayClientName,
  GatewayClientVersion,
  GatewayDefaults,
  gatewayRetrySchedule,
  isRetryable,
  parseRetryAfter,
  resolveBasePath,
  resolveGatewayConfig
} from "./config"
export type { GatewayConfig, GatewayRetryPolicy, ResolvedGatewayConfig } from "./config"
export * from "./errors"
export { RadixNetwork, RadixNetworkConfigById, DefaultGatewayUrl } from "./networks"
export type { RadixNetworkConfig, RadixNetworkId } from "./networks"
export { Endpoints } from "./endpoints"
export type { Endpoint } from "./http"
export { chunk, exhaustPages, remainingPages, pinTo, chunkedAtOneLedgerState } from "./paging"
export type { Page } from "./paging"
export * from "./schemas/common"
export * from "./schemas/enums"
export * from "./schemas/status"
export * from "./schemas/transaction"
export * from "./schemas/stream"
export * from "./schemas/state"
export * from "./schemas/statistics"
export * from "./schemas/extensions"
