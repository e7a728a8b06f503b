/**
 * The Gateway client over Node's own `http`/`https` modules (`layerNode`, the exchange server's): for a
 * process that runs in Node, not in a browser.
 *
 * Why not `fetch` there: Node's `fetch` (undici) builds a `Request`, `Headers`, an `AbortSignal` and a WHATWG
 * `ReadableStream` for every exchange, and reads the body through that stream. Over `http.request` the same exchange
 * costs a plain request object and the socket's chunks. What stays the same is in `http.ts` (the limiter, retries,
 * timeouts, decoding), so both transports behave alike above `transport.ts`'s line.
 *
 * - Connections are kept alive in one agent per client, with no bound of its own: the client's limiter bounds what
 *   is in flight.
 * - It asks for gzip, deflate or brotli, as `fetch` does, and inflates what comes back so encoded.
 * - Redirects are not followed (the Gateway's API answers its POSTs where they are sent): a 3xx comes back as an
 *   answer, which `http.ts` reports as an error with its status.
 * - Aborting destroys the request (and its socket); `done` reports `Aborted` at once.
 *
 * This module imports Node built-ins: the browser app never loads it.
 */
import { Effect, Layer } from "effect"
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib"
import type { GatewayConfig } from "./config"
import type { UnknownNetworkError } from "./errors"
import { makeGatewayOver } from "./Gateway"
import type { GatewayService } from "./service"
import { Gateway } from "./tag"
import type { ExchangeEnd, Starter, Transport } from "./transport"

/** How long an idle connection is kept for the next request (Node's agents close it after this). */
const IDLE_SOCKET_MS = 4_000

const ACCEPT_ENCODING = "gzip, deflate, br"

/** The body of `response`, inflated when the server encoded it; one stream of Buffers either way. */
const bodyOf = (response: IncomingMessage): NodeJS.ReadableStream => {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase()
  if (encoding === "gzip" || encoding === "x-gzip") return response.pipe(createGunzip())
  if (encoding === "deflate") return response.pipe(createInflate())
  if (encoding === "br") return response.pipe(createBrotliDecompress())
  return response
}

/** A header of `response` by name, several values joined as `fetch`'s `Headers.get` joins them. */
const headerOf =
  (response: IncomingMessage) =>
  (name: string): string | undefined => {
    const value = response.headers[name.toLowerCase()]
    return Array.isArray(value) ? value.join(", ") : value
  }

/**
 * `http.request`/`https.request` to `basePath` + each request's path, with `headers` (and `content-type` and
 * `content-length` for a body) on every request.
 */
export const nodeTransport = (options: {
  readonly basePath: string
  readonly headers: Readonly<Record<string, string>>
}): Transport => {
  // A base path that is not an http(s) URL fails every request (a GatewayTransportError), as it does over `fetch`.
  let base: URL
  let invalid: Error | undefined
  try {
    base = new URL(options.basePath)
    if (base.protocol !== "http:" && base.protocol !== "https:")
      invalid = new TypeError(`the Gateway's base path must be an http: or https: URL, not ${base.protocol}`)
  } catch (cause) {
    base = new URL("http://invalid.invalid")
    invalid = new TypeError(`the Gateway's base path is not a URL: ${JSON.stringify(options.basePath)}`, { cause })
  }
  const secure = base.protocol === "https:"
  const send = secure ? httpsRequest : httpRequest
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" })
    : new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: "lifo" })
  const prefix = base.pathname.replace(/\/$/, "")
  const bodiless: Record<string, string> = { "accept-encoding": ACCEPT_ENCODING }
  for (const [key, value] of Object.entries(options.headers)) bodiless[key.toLowerCase()] = value
  const starter: Starter = {
    start: (request, done) => {
      let ended = false
      const end = (value: ExchangeEnd) => {
        if (ended) return
        ended = true
        done(value)
      }
      const body = request.body === undefined ? undefined : Buffer.from(request.body, "utf8")
      const headers =
        body === undefined
          ? bodiless
          : { ...bodiless, "content-type": "application/json", "content-length": String(body.length) }
      let outgoing: ReturnType<typeof send>
      try {
        if (invalid !== undefined) throw invalid
        outgoing = send({
          protocol: base.protocol,
          hostname: base.hostname.replace(/^\[|\]$/g, ""),
          port: base.port === "" ? undefined : Number(base.port),
          path: prefix + request.path,
          method: "POST",
          headers,
          agent
        })
      } catch (cause) {
        // An invalid base path, or a header value Node refuses, throws at once: reported after `start` returns, as the
        // contract asks.
        queueMicrotask(() => end({ _tag: "Failed", reason: "Transport", cause }))
        return () => end({ _tag: "Aborted" })
      }
      outgoing.on("error", (cause) => end({ _tag: "Failed", reason: "Transport", cause }))
      outgoing.on("response", (response) => {
        const chunks: Array<Buffer> = []
        const stream = bodyOf(response)
        stream.on("data", (chunk: Buffer) => chunks.push(chunk))
        const cutOff = (cause: unknown) => end({ _tag: "Failed", reason: "Decode", cause })
        stream.on("error", cutOff)
        // A connection lost mid-body is an error on the response itself (Node's 'aborted' event is deprecated), which
        // a pipe into an inflater does not pass on.
        if (stream !== response) response.on("error", cutOff)
        stream.on("end", () => {
          const raw = chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")
          // As `fetch`'s `text()`: a UTF-8 byte order mark is not part of the text.
          const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
          end({ _tag: "Answer", status: response.statusCode ?? 0, text, header: headerOf(response) })
        })
      })
      outgoing.end(body)
      return () => {
        if (ended) return
        end({ _tag: "Aborted" })
        outgoing.destroy()
      }
    }
  }
  return { forCaller: () => starter }
}

/** Builds a Gateway client over Node's `http`/`https` (see the module comment). */
export const makeGatewayNode = (config: GatewayConfig): Effect.Effect<GatewayService, UnknownNetworkError> =>
  makeGatewayOver(config, (resolved) => nodeTransport({ basePath: resolved.basePath, headers: resolved.headers }))

/** `Gateway` over Node's `http`/`https`: what a Node process (the exchange server) uses. */
export const layerNode = (config: GatewayConfig): Layer.Layer<Gateway, UnknownNetworkError> =>
  Layer.effect(Gateway, makeGatewayNode(config))
