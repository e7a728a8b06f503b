/**
 * The devnet's gateway emulator as an `HttpClient`, in process: a Gateway client built with `Gateway.layer` over
 * this layer reaches the emulator with no socket, no port and no `fetch` shim. The request's JSON body is read
 * once into the emulator's request; the answer comes back as the emulator's status and JSON, as over HTTP.
 */
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { Context, Effect, FiberRef, Layer } from "effect"
import type { GatewayEmulator, GatewayResponse } from "./GatewayEmulator"

const badRequest: GatewayResponse = {
  status: 400,
  json: { message: "Bad http request", code: 400, details: null, trace_id: "00-devnet-bad-request-00" }
}

const parseBody = (bytes: Uint8Array): { readonly ok: true; readonly body: unknown } | { readonly ok: false } => {
  const text = new TextDecoder().decode(bytes)
  if (text.trim() === "") return { ok: true, body: undefined }
  try {
    return { ok: true, body: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}

/** An `HttpClient` that answers every request from `emulator`, for paths below `prefix` (default `/gateway`). */
export const emulatorHttpClient = (emulator: GatewayEmulator, prefix = "/gateway"): HttpClient.HttpClient =>
  HttpClient.make((request, url) =>
    Effect.gen(function* () {
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) || "/" : url.pathname
      const body = request.body
      const parsed =
        body._tag === "Empty"
          ? ({ ok: true, body: undefined } as const)
          : body._tag === "Uint8Array"
            ? parseBody(body.body)
            : ({ ok: false } as const)
      // With none of the caller's services: a caller inside a database transaction (the exchange server's settlement
      // on PostgreSQL) would otherwise lend its transaction's connection to the emulator's own store.
      const answer = parsed.ok
        ? yield* Effect.locally(
            emulator.handle({ method: request.method, path, body: parsed.body }),
            FiberRef.currentContext,
            Context.empty()
          )
        : badRequest
      return HttpClientResponse.fromWeb(
        request,
        new Response(JSON.stringify(answer.json), {
          status: answer.status,
          headers: { "content-type": "application/json; charset=utf-8" }
        })
      )
    })
  )

/** `emulatorHttpClient` as a layer. */
export const emulatorHttpClientLayer = (
  emulator: GatewayEmulator,
  prefix?: string
): Layer.Layer<HttpClient.HttpClient> => Layer.succeed(HttpClient.HttpClient, emulatorHttpClient(emulator, prefix))
