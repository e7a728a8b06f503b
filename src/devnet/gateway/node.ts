/**
 * Mounting the gateway emulator in a `node:http` server: body reading, JSON, CORS (any origin, as the real
 * Gateway), and a ready-made ledger runtime for `src/devnet/main.ts`.
 */
import { Effect, ManagedRuntime } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { Ledger, type LedgerOptions } from "../ledger/Ledger"
import { readBody } from "../relay/http"
import { type GatewayEmulator, type GatewayResponse, makeGatewayEmulator } from "./GatewayEmulator"

/** Largest accepted request body: a 1 MiB notarized transaction is 2 MiB of hex, plus JSON. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024

const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "*",
  "access-control-allow-headers": "*",
  "access-control-max-age": "1728000"
} as const

const send = (res: ServerResponse, response: GatewayResponse): void => {
  const body = JSON.stringify(response.json)
  res.writeHead(response.status, {
    ...CORS_HEADERS,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "x-content-type-options": "nosniff"
  })
  res.end(body)
}

const badRequest = (message: string): GatewayResponse => ({
  status: 400,
  json: { message, code: 400, details: null, trace_id: "00-devnet-bad-request-00" }
})

/**
 * A `node:http` request handler for the emulator mounted under `prefix` (default `/gateway`): it strips the
 * prefix and the query string, answers CORS preflights, and parses the JSON body.
 */
export const gatewayNodeHandler =
  (
    emulator: GatewayEmulator,
    run: <A>(effect: Effect.Effect<A>) => Promise<A>,
    prefix = "/gateway"
  ): ((req: IncomingMessage, res: ServerResponse) => Promise<void>) =>
  async (req, res) => {
    const url = (req.url ?? "/").split("?")[0] ?? "/"
    const path = url.startsWith(prefix) ? url.slice(prefix.length) || "/" : url
    if (req.method === "OPTIONS") {
      res.writeHead(204, CORS_HEADERS)
      res.end()
      return
    }
    // A body over the limit is answered (the rest of it is read and dropped, not cut off, so that the client sees
    // the answer rather than a reset connection).
    const text = await readBody(req, MAX_BODY_BYTES)
    if (text === undefined) return send(res, badRequest("Bad http request: the body is too large"))
    let body: unknown = undefined
    if (text.trim().length > 0) {
      try {
        body = JSON.parse(text)
      } catch {
        return send(res, badRequest("Bad http request"))
      }
    }
    const response = await run(emulator.handle({ method: req.method ?? "GET", path, body }))
    send(res, response)
  }

export interface DevnetGateway {
  /** Mount this in the devnet server: `{ prefix: "/gateway", handle }`. */
  readonly mount: {
    readonly prefix: string
    readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
  }
  /** The runtime holding the Ledger, for other devnet parts (wallet emulator, dashboard). */
  readonly runtime: ManagedRuntime.ManagedRuntime<Ledger, never>
  readonly emulator: GatewayEmulator
  /** Closes the ledger's SQLite database. */
  readonly dispose: () => Promise<void>
}

/**
 * Opens the devnet ledger (`dataDir/ledger.sqlite`, `reset` starts afresh) and builds the gateway emulator,
 * ready to mount under `/gateway`.
 */
export const startDevnetGateway = async (options: Partial<LedgerOptions> = {}): Promise<DevnetGateway> => {
  const runtime = ManagedRuntime.make(Ledger.layer(options))
  const emulator = await runtime.runPromise(makeGatewayEmulator)
  const run = <A>(effect: Effect.Effect<A>): Promise<A> => runtime.runPromise(effect)
  return {
    mount: { prefix: "/gateway", handle: gatewayNodeHandler(emulator, run) },
    runtime,
    emulator,
    dispose: () => runtime.dispose()
  }
}
