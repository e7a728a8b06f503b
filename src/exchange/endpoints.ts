/**
 * The exchange API's routes `{api}/api/*` (spec app §7) as one table: each endpoint's method, path, path parameters,
 * payload and answers. The server's `HttpApi` (definition.ts) is built from it and the app's client (ExchangeApi.ts)
 * reads it, so the two cannot drift; the table itself uses nothing of `@effect/platform`, so the app's first screen
 * does not load the `HttpApi` machinery only the server needs.
 */
import { Schema } from "effect"
import {
  AtomicSwapRequest,
  AtomicSwapResponse,
  BtcPriceResponse,
  HealthResponse,
  LiquidityResponse,
  LivePriceResponse,
  StatsResponse,
  SwapRegistrationRequest,
  SwapRegistrationResponse,
  TransactionStatus,
  TransactionsResponse
} from "./api"

/** Where the API is mounted on its host. */
export const API_PREFIX = "/api"

/** The 202 answer to a registration whose settlement is still under way. */
export const SwapRegistrationPending = Schema.Struct({
  tx_hash: Schema.String,
  status: TransactionStatus,
  message: Schema.String
})

export const MaintenanceState = Schema.Struct({ maintenance: Schema.Boolean })
export const MaintenanceToggle = Schema.Struct({ enabled: Schema.Boolean })

/**
 * One endpoint. `path` is below `API_PREFIX`, with `:name` for each of `params`. `success` answers 200; `pending`,
 * where there is one, answers 202 (a swap still under way) with its own shape.
 */
interface Endpoint {
  readonly method: "GET" | "POST"
  readonly path: `/${string}`
  readonly params?: Schema.Schema.Any
  readonly payload?: Schema.Schema.Any
  readonly success: Schema.Schema.Any
  readonly pending?: Schema.Schema.Any
}

const endpoint = <const E extends Endpoint>(e: E): E => e

export const Endpoints = {
  livePrice: endpoint({
    method: "GET",
    path: "/liveprice/:from/:to",
    params: Schema.Struct({ from: Schema.String, to: Schema.String }),
    success: LivePriceResponse
  }),
  liquidity: endpoint({ method: "GET", path: "/liquidity", success: LiquidityResponse }),
  btcPrice: endpoint({ method: "GET", path: "/btcbridge/price", success: BtcPriceResponse }),
  health: endpoint({ method: "GET", path: "/health", success: HealthResponse }),
  registerSwap: endpoint({
    method: "POST",
    path: "/swap/:txHash",
    params: Schema.Struct({ txHash: Schema.String }),
    payload: SwapRegistrationRequest,
    success: SwapRegistrationResponse,
    pending: SwapRegistrationPending
  }),
  submitAtomicSwap: endpoint({
    method: "POST",
    path: "/atomic-swap",
    payload: AtomicSwapRequest,
    success: AtomicSwapResponse,
    pending: AtomicSwapResponse
  }),
  atomicSwap: endpoint({
    method: "GET",
    path: "/atomic-swap/:subintentId",
    params: Schema.Struct({ subintentId: Schema.String }),
    success: AtomicSwapResponse,
    pending: AtomicSwapResponse
  }),
  latestTransactions: endpoint({ method: "GET", path: "/transactions/latest", success: TransactionsResponse }),
  transactions: endpoint({
    method: "GET",
    path: "/transactions/:account",
    params: Schema.Struct({ account: Schema.String }),
    success: TransactionsResponse
  }),
  stats: endpoint({ method: "GET", path: "/stats", success: StatsResponse }),
  getMaintenance: endpoint({ method: "GET", path: "/maintenance", success: MaintenanceState }),
  setMaintenance: endpoint({
    method: "POST",
    path: "/maintenance",
    payload: MaintenanceToggle,
    success: MaintenanceState
  })
} as const

/** The admin group's place below `API_PREFIX` (its endpoints' paths are below it). */
export const ADMIN_GROUP_PREFIX = "/admin"
