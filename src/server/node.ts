/**
 * The exchange API on `node:http`: body reading with a size limit, the peer address, JSON answers and CORS.
 *
 * CORS: with `corsOrigins` "*" (the default) any origin may call the API; with a list, a request whose `Origin` is
 * exactly one of them gets it echoed back (with `Vary: Origin`), and any other origin gets no CORS header at all, so
 * browsers refuse it the response (preflights included). The admin routes never get a CORS header: no web page may
 * call them, whatever the configuration.
 *
 * A request body must be JSON, declared as such (`Content-Type: application/json`): anything else is a 415. Besides
 * keeping junk out, this closes the admin route to web pages the operator visits: a browser sends a cross-site POST
 * without asking first only as a form or plain text, and asks (a CORS preflight, refused above) before any JSON one.
 * Every answer carries `X-Content-Type-Options: nosniff`.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { ApiRequest, ApiResponse } from "./routes"

const CORS_COMMON = {
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "600"
} as const

/** The CORS headers for a request from `origin` under `allowed`. */
export const corsHeaders = (
  allowed: ReadonlyArray<string> | "*",
  origin: string | undefined
): Record<string, string> => {
  if (allowed === "*") return { "access-control-allow-origin": "*", ...CORS_COMMON }
  if (origin !== undefined && allowed.includes(origin)) {
    return { "access-control-allow-origin": origin, vary: "origin", ...CORS_COMMON }
  }
  return { vary: "origin" }
}

/** Past this many bytes an oversized body is no longer drained: the connection is closed. */
const DRAIN_LIMIT = 1024 * 1024

const readBody = (req: IncomingMessage, max: number): Promise<{ text: string; tooLarge: boolean }> =>
  new Promise((resolve) => {
    const declared = Number(req.headers["content-length"] ?? "0")
    if (Number.isFinite(declared) && declared > max) {
      resolve({ text: "", tooLarge: true })
      return
    }
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    const finish = (tooLarge: boolean) => {
      if (done) return
      done = true
      resolve({ text: tooLarge ? "" : Buffer.concat(chunks).toString("utf8"), tooLarge })
    }
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size <= max) chunks.push(chunk)
      else if (size > DRAIN_LIMIT) {
        finish(true)
        req.destroy()
      }
    })
    req.on("end", () => finish(size > max))
    req.on("error", () => finish(true))
    req.on("close", () => finish(size > max))
  })

export interface NodeHandlerOptions {
  readonly prefix: string
  readonly maxBodyBytes: number
  /** Origins allowed by CORS, exactly as browsers send them ("https://app.example"), or "*". Default "*". */
  readonly corsOrigins?: ReadonlyArray<string> | "*"
}

const send = (res: ServerResponse, response: ApiResponse, close: boolean, cors: Record<string, string>) => {
  if (res.headersSent || res.destroyed) return
  const body = response.status === 204 ? "" : JSON.stringify(response.json)
  res.writeHead(response.status, {
    ...cors,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...(response.status === 204 ? {} : { "content-type": "application/json; charset=utf-8" }),
    "content-length": Buffer.byteLength(body),
    ...(close ? { connection: "close" } : {}),
    ...response.headers
  })
  res.end(body)
}

/** Several `X-Forwarded-For` lines read as one list, in order. */
const forwardedFor = (header: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof header === "string" ? header : header === undefined ? undefined : header.join(",")

/** `application/json`, with or without parameters (`; charset=utf-8`). */
export const isJsonContentType = (type: string | undefined): boolean =>
  type !== undefined && /^application\/json\s*(;|$)/i.test(type.trim())

/** A `node:http` handler for the API mounted at `prefix` ("/api"). */
export const apiNodeHandler =
  (run: (request: ApiRequest) => Promise<ApiResponse>, options: NodeHandlerOptions) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = (req.url ?? "/").split("?")[0] ?? "/"
    const path = url.startsWith(options.prefix) ? url.slice(options.prefix.length) || "/" : url
    const method = req.method ?? "GET"
    const hasBody = method === "POST" || method === "PUT" || method === "PATCH"
    const body = hasBody ? await readBody(req, options.maxBodyBytes) : { text: "", tooLarge: false }
    const admin = path === "/admin" || path.startsWith("/admin/")
    const cors = admin ? {} : corsHeaders(options.corsOrigins ?? "*", req.headers.origin)
    if (!body.tooLarge && body.text.trim() !== "" && !isJsonContentType(req.headers["content-type"])) {
      const message = "The body must be JSON sent as Content-Type: application/json"
      return send(res, { status: 415, json: { error: message, message } }, false, cors)
    }
    const response = await run({
      method,
      path,
      ip: req.socket.remoteAddress ?? "",
      forwardedFor: forwardedFor(req.headers["x-forwarded-for"]),
      body: hasBody ? body.text : undefined,
      bodyTooLarge: body.tooLarge
    })
    send(res, response, body.tooLarge, cors)
  }
