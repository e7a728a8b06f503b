/**
 * The Gateway client over Node's http (`layerNode`, the exchange server's), against a real HTTP server on 127.0.0.1:
 * what goes on the wire, encoded answers, error answers with their headers, a refused connection, an answer cut off
 * mid-body, an interrupted caller (the server sees the request closed and the slot comes back), and base paths that
 * are not http(s) URLs. The Gateway's own rules (retries, paging, decoding) are the shared suites' (`forEachTransport`);
 * only the transport is tested here.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { otherEndpoints } from "../../src/gateway/Gateway.js"
import type { GatewayConfig } from "../../src/gateway/index.js"
import { Gateway } from "../../src/gateway/index.js"
import { layerNode } from "../../src/gateway/node.js"
import { statusBody, testConfig } from "./support.js"

interface Received {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** A server on a free port of 127.0.0.1; `answer` replies to each request. Closed when the scope ends. */
const serve = (answer: (request: Received, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: Server; readonly url: string; readonly received: Array<Received> }>((resume) => {
      const received: Array<Received> = []
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const request = {
            method: req.method ?? "",
            url: req.url ?? "",
            headers: req.headers,
            body: Buffer.concat(chunks).toString("utf8")
          }
          received.push(request)
          answer(request, res)
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            server,
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            received
          })
        )
      )
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const json = (res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(body)
}

/** Runs `use` against `layerNode` at `basePath` (the non-state endpoints loaded first, so a call is sent at once). */
const overNode = <A, E>(
  basePath: string,
  use: (gateway: Gateway["Type"]) => Effect.Effect<A, E>,
  config: Partial<GatewayConfig> = {}
) =>
  Effect.zipRight(otherEndpoints("warm-up"), Effect.flatMap(Gateway, use)).pipe(
    Effect.provide(layerNode({ ...testConfig, ...config, basePath }))
  )

describe("Gateway over Node's http (layerNode)", () => {
  it.scoped("sends a POST under the base path with the RDX headers, content-type and length only with a body", () =>
    Effect.gen(function* () {
      const { url, received } = yield* serve((request, res) =>
        request.url.endsWith("/transaction/status") ? json(res, 200, statusBody) : json(res, 200, "{}")
      )
      const status = yield* overNode(`${url}/gateway/`, (g) => g.transaction.status("txid_1"))
      expect(status.intent_status).toBe("CommittedSuccess")
      // The body does not decode as a gateway status; only the request matters here.
      yield* Effect.either(overNode(`${url}/gateway`, (g) => g.status.gatewayStatus(), { retry: { retries: 0 } }))
      const [withBody, bodiless] = received
      expect(withBody?.method).toBe("POST")
      expect(withBody?.url).toBe("/gateway/transaction/status")
      expect(JSON.parse(withBody?.body ?? "")).toEqual({ intent_hash: "txid_1" })
      expect(withBody?.headers["content-type"]).toBe("application/json")
      expect(withBody?.headers["content-length"]).toBe(String(Buffer.byteLength(withBody?.body ?? "")))
      expect(withBody?.headers["rdx-client-name"]).toBe("hswap-gateway-client")
      expect(withBody?.headers["rdx-app-name"]).toBe("hSwap tests")
      expect(withBody?.headers["accept-encoding"]).toBe("gzip, deflate, br")
      expect(withBody?.headers["connection"]).toBe("keep-alive")
      expect(bodiless?.url).toBe("/gateway/status/gateway-status")
      expect(bodiless?.body).toBe("")
      expect(bodiless?.headers["content-type"]).toBeUndefined()
    })
  )

  it.scoped("inflates gzip and brotli answers, and drops a UTF-8 byte order mark as fetch does", () =>
    Effect.gen(function* () {
      const { url } = yield* serve((request, res) => {
        const hash = (JSON.parse(request.body) as { intent_hash: string }).intent_hash
        if (hash === "txid_gzip") json(res, 200, gzipSync(statusBody), { "content-encoding": "gzip" })
        else if (hash === "txid_br") json(res, 200, brotliCompressSync(statusBody), { "content-encoding": "br" })
        else json(res, 200, `\uFEFF${statusBody}`)
      })
      for (const hash of ["txid_gzip", "txid_br", "txid_bom"]) {
        const status = yield* overNode(url, (g) => g.transaction.status(hash))
        expect(status.intent_status).toBe("CommittedSuccess")
      }
    })
  )

  it.scoped("a Gateway error answer keeps its status and message, and is not retried", () =>
    Effect.gen(function* () {
      const { url, received } = yield* serve((_, res) =>
        json(
          res,
          404,
          JSON.stringify({
            message: "Entity not found",
            code: 404,
            details: { type: "EntityNotFoundError", address: "account_tdx_2_1x" }
          })
        )
      )
      const error = yield* Effect.flip(overNode(url, (g) => g.transaction.status("txid_1")))
      expect(error._tag).toBe("GatewayResponseError")
      expect(error._tag === "GatewayResponseError" ? error.status : 0).toBe(404)
      expect(error.message).toContain("Entity not found")
      expect(received).toHaveLength(1)
    })
  )

  it.scoped("a 429 with retry-after is waited out and retried (the header is read from Node's answer)", () =>
    Effect.gen(function* () {
      let calls = 0
      const { url, received } = yield* serve((_, res) => {
        calls += 1
        if (calls === 1)
          json(res, 429, JSON.stringify({ message: "Too many requests", code: 429 }), { "retry-after": "0" })
        else json(res, 200, statusBody)
      })
      const status = yield* overNode(url, (g) => g.transaction.status("txid_1"))
      expect(status.intent_status).toBe("CommittedSuccess")
      expect(received).toHaveLength(2)
    })
  )

  it.scoped("a refused connection is a GatewayTransportError (Transport)", () =>
    Effect.gen(function* () {
      // A port that was free a moment ago: nothing listens there now.
      const { server, url } = yield* serve(() => undefined)
      yield* Effect.async<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
      const error = yield* Effect.flip(overNode(url, (g) => g.transaction.status("txid_1"), { retry: { retries: 0 } }))
      expect(error._tag).toBe("GatewayTransportError")
      expect(error.message).toBe("Gateway request to /transaction/status failed: Transport")
    })
  )

  it.scoped("an answer cut off mid-body is a GatewayTransportError, not a hang or a half-read JSON", () =>
    Effect.gen(function* () {
      const { url } = yield* serve((_, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(statusBody.length) })
        res.write(statusBody.slice(0, 40))
        setImmediate(() => res.destroy())
      })
      const error = yield* Effect.flip(overNode(url, (g) => g.transaction.status("txid_1"), { retry: { retries: 0 } }))
      expect(error._tag).toBe("GatewayTransportError")
    })
  )

  it.scoped("interrupting the caller closes the request, and its slot comes back", () =>
    Effect.gen(function* () {
      const arrived = yield* Deferred.make<void>()
      const closed = yield* Deferred.make<void>()
      const { url, received } = yield* serve((request, res) => {
        if (request.body.includes("txid_hang")) {
          res.on("close", () => Deferred.unsafeDone(closed, Effect.void))
          Deferred.unsafeDone(arrived, Effect.void)
        } else json(res, 200, statusBody)
      })
      yield* overNode(
        url,
        (g) =>
          Effect.gen(function* () {
            const first = yield* Effect.fork(g.transaction.status("txid_hang"))
            yield* Deferred.await(arrived)
            yield* Fiber.interrupt(first)
            yield* Deferred.await(closed)
            // With one slot, the second request is sent only if the first gave it back.
            const second = yield* g.transaction.status("txid_2")
            expect(second.intent_status).toBe("CommittedSuccess")
          }),
        { concurrency: 1, maxConcurrency: 1 }
      )
      expect(received.map((r) => JSON.parse(r.body) as unknown)).toEqual([
        { intent_hash: "txid_hang" },
        { intent_hash: "txid_2" }
      ])
    })
  )

  it.effect("a base path that is not an http(s) URL fails each call with a GatewayTransportError, as over fetch", () =>
    Effect.gen(function* () {
      for (const basePath of ["ftp://127.0.0.1/gateway", "not a url"]) {
        const error = yield* Effect.flip(
          overNode(basePath, (g) => g.transaction.status("txid_1"), { retry: { retries: 0 } })
        )
        expect(error._tag).toBe("GatewayTransportError")
        expect(error.message).toBe("Gateway request to /transaction/status failed: Transport")
      }
    })
  )
})
