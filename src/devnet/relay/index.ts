/**
 * The relay emulator mounted in the devnet server under `/relay`, so the toolkit's relay base URL is
 * `{origin}/relay` and it POSTs to `{origin}/relay/api/v1`.
 */
import { Effect, ManagedRuntime } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { pathOf, readBody, sendJson } from "./http"
import { MAX_RELAY_BODY_BYTES, RelayEmulator, type RelayHttpResponse } from "./RelayEmulator"

export {
  invalidRequest,
  makeRelayEmulator,
  MAX_ENTRIES_PER_LIST,
  MAX_RELAY_BODY_BYTES,
  MAX_STORED_CHARS,
  notFound,
  payloadTooLarge,
  RELAY_TTL,
  RelayApiV1Request,
  RelayEmulator,
  RelayFull,
  tooManyEntries
} from "./RelayEmulator"
export type { RelayEmulatorApi, RelayHttpRequest, RelayHttpResponse, RelayResponseEntry } from "./RelayEmulator"

export const RELAY_PREFIX = "/relay"

/** CORS is open, as on the real relay (and preflights are answered, which the real one does not need to). */
export const RELAY_CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers": "Content-Type",
  "access-control-max-age": "600"
} as const

export interface Mount {
  readonly prefix: string
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
}

/** A `node:http` handler for the relay mounted under `prefix`. */
export const relayNodeHandler =
  (
    run: (req: { method: string; path: string; body: string | undefined }) => Promise<RelayHttpResponse>,
    prefix = RELAY_PREFIX
  ) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const full = pathOf(req)
    const path = full.startsWith(prefix) ? full.slice(prefix.length) || "/" : full
    if (req.method === "OPTIONS") {
      res.writeHead(204, RELAY_CORS_HEADERS)
      res.end()
      return
    }
    const body = req.method === "POST" ? await readBody(req, MAX_RELAY_BODY_BYTES) : ""
    const answer = await run({ method: req.method ?? "GET", path, body })
    sendJson(res, answer.status, answer.json, RELAY_CORS_HEADERS)
  }

export interface DevnetRelay {
  /** `{ prefix: "/relay", handle }` for the devnet server. */
  readonly mount: Mount
  /** Runs an effect against the relay (the mobile-wallet emulator posts its responses here). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, RelayEmulator>) => Promise<A>
  readonly dispose: () => Promise<void>
}

/** Starts an in-memory relay emulator (its sweeper runs on the runtime until `dispose`). */
export const startDevnetRelay = (): DevnetRelay => {
  const runtime = ManagedRuntime.make(RelayEmulator.Default)
  const run = <A, E>(effect: Effect.Effect<A, E, RelayEmulator>): Promise<A> => runtime.runPromise(effect)
  return {
    mount: {
      prefix: RELAY_PREFIX,
      handle: relayNodeHandler((req) => run(Effect.flatMap(RelayEmulator, (relay) => relay.handle(req))))
    },
    run,
    dispose: () => runtime.dispose()
  }
}
