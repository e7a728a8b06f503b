/**
 * The devnet Gateway API emulator: a framework-light request handler over the devnet `Ledger` that answers the
 * Babylon Gateway API v1.10 paths the devnet can answer honestly, with the real JSON shapes, `ledger_state`, errors
 * and limits (20 addresses per request, pages of 100 with opaque cursors). Any other path answers the Gateway's
 * ErrorResponse shape saying it is not supported by the devnet.
 *
 * This module is the router: one module per API group of the Gateway (`routes/status.ts`, `transaction.ts`,
 * `stream.ts`, `state.ts`, `extensions.ts`) builds its handlers over the shared `EmulatorContext` (`context.ts`).
 */
import { Cause, Effect } from "effect"
import { vaultAddress } from "../ledger/address"
import type { Ledger } from "../ledger/Ledger"
import { makeEmulatorContext } from "./context"
import {
  type GatewayFailure,
  type GatewayRequest,
  type GatewayResponse,
  type RouteHandler,
  gatewayFailure
} from "./failure"
import { EXTENSIONS_PATHS, extensionsRoutes } from "./routes/extensions"
import { STATE_PATHS, stateRoutes } from "./routes/state"
import { STATUS_PATHS, statusRoutes } from "./routes/status"
import { STREAM_PATHS, streamRoutes } from "./routes/stream"
import { TRANSACTION_PATHS, transactionRoutes } from "./routes/transaction"

export {
  type GatewayRequest,
  type GatewayResponse,
  MAX_ADDRESSES,
  MAX_EXPLICIT_METADATA,
  MAX_PAGE_SIZE,
  MAX_STREAM_FILTERS
} from "./failure"
export { DEVNET_RELEASE_INFO } from "./routes/status"

export const SUPPORTED_PATHS = [
  ...STATUS_PATHS,
  ...TRANSACTION_PATHS,
  ...STREAM_PATHS,
  ...STATE_PATHS,
  ...EXTENSIONS_PATHS
] as const
type SupportedPath = (typeof SUPPORTED_PATHS)[number]

const notSupported = (path: string) =>
  gatewayFailure(
    404,
    `${path} is not supported by devnet: the hSwap devnet gateway emulator serves ${SUPPORTED_PATHS.join(", ")}`,
    null
  )

export interface GatewayEmulator {
  readonly handle: (request: GatewayRequest) => Effect.Effect<GatewayResponse>
}

export const makeGatewayEmulator: Effect.Effect<GatewayEmulator, never, Ledger> = Effect.gen(function* () {
  const ctx = yield* makeEmulatorContext
  let traceCounter = 0

  const routes: Record<SupportedPath, RouteHandler> = {
    ...statusRoutes(ctx),
    ...transactionRoutes(ctx),
    ...streamRoutes(ctx),
    ...stateRoutes(ctx),
    ...extensionsRoutes(ctx)
  }

  const findRoute = (path: string) => {
    const normalized = path.endsWith("/") ? path.slice(0, -1) : path
    const key = SUPPORTED_PATHS.find((p) => p === path || p.replace(/\/$/, "") === normalized)
    return key === undefined ? undefined : routes[key]
  }

  const errorResponse = (failure: GatewayFailure): GatewayResponse => ({
    status: failure.status,
    json: {
      message: failure.message,
      code: failure.status,
      ...(failure.details === undefined ? {} : { details: failure.details }),
      trace_id: `00-devnet${(++traceCounter).toString(16).padStart(23, "0")}-0000000000000000-00`
    }
  })

  const handle = (request: GatewayRequest): Effect.Effect<GatewayResponse> => {
    const route = findRoute(request.path)
    if (route === undefined) return Effect.succeed(errorResponse(notSupported(request.path)))
    if (request.method.toUpperCase() !== "POST") {
      return Effect.succeed(errorResponse(gatewayFailure(405, `Method ${request.method} not allowed: use POST`, null)))
    }
    return route(request.body).pipe(
      Effect.map((json): GatewayResponse => ({ status: 200, json })),
      Effect.catchAll((failure) => Effect.succeed(errorResponse(failure))),
      // A bug in the emulator answers as the Gateway's unexpected-exception 500, and is logged, not lost.
      Effect.catchAllDefect((defect) =>
        Effect.logError(`Gateway emulator: ${request.path} failed`, Cause.die(defect)).pipe(
          Effect.as(
            errorResponse(
              gatewayFailure(500, "An unexpected error occurred handling the request.", {
                type: "InternalServerError",
                exception: "UnknownException",
                cause: "N/A"
              })
            )
          )
        )
      ),
      Effect.withSpan("GatewayEmulator.handle", { attributes: { path: request.path } })
    )
  }

  return { handle } satisfies GatewayEmulator
})

/** Addresses of vaults are derived, so callers can compute them for assertions. */
export { vaultAddress }
