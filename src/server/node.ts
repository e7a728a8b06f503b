/**
 * The exchange API on `node:http`: the built `HttpApp` (routes.ts) run by the platform's Node handler, which reads the
 * request (peer address, headers, body on demand) and writes the answer.
 *
 * Every answer carries `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. What the API answers (CORS
 * for the configured origins only, 415 for a body not sent as JSON, 413 past the size limit, …) is the app's.
 */
import { type HttpApp, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { ExchangeHttp } from "./routes"

const COMMON_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const

const withCommonHeaders = (app: HttpApp.Default): HttpApp.Default =>
  Effect.map(app, (response) => HttpServerResponse.setHeaders(response, COMMON_HEADERS))

/** A `node:http` handler for the API (mounted at `/api`): settles when the answer is written or the client left. */
export const nodeApiHandler: Effect.Effect<
  (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  never,
  ExchangeHttp
> = Effect.gen(function* () {
  const { app } = yield* ExchangeHttp
  const handle = yield* NodeHttpServer.makeHandler(withCommonHeaders(app))
  return (req, res) =>
    new Promise<void>((done) => {
      res.once("close", () => done())
      handle(req, res)
    })
})
