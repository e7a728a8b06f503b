/**
 * What only the fetch transport (`Gateway.layerFetch`) has to get right: its abort signal, fetches that ignore it,
 * RequestInit and header merging, bodies that fail to read, a fetch that throws, and `globalThis.fetch` as the default.
 * Everything else runs over both transports in the other suites (`forEachTransport`).
 */
import { describe, expect, it } from "@effect/vitest"
import { FetchHttpClient } from "@effect/platform"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { afterEach, vi } from "vitest"
import { Gateway } from "../../src/gateway/index.js"
import { otherEndpoints } from "../../src/gateway/Gateway.js"
import type { GatewayConfig } from "../../src/gateway/index.js"
import { BasePath, statusBody, testConfig } from "./support.js"

interface Sent {
  readonly url: string
  readonly init: RequestInit
}

/** Runs `use` against `Gateway.layerFetch` over `fetch`, with optional RequestInit. */
const overFetch = <A, E>(
  fetch: typeof globalThis.fetch,
  use: (gateway: Gateway["Type"]) => Effect.Effect<A, E>,
  config: Partial<GatewayConfig> = {},
  init?: RequestInit
) =>
  // The non-state groups' endpoints loaded first, so that a call is sent at once (the first call of one of them
  // otherwise waits for their module, Gateway.ts otherEndpoints).
  Effect.zipRight(otherEndpoints("warm-up"), Effect.flatMap(Gateway, use)).pipe(
    Effect.provide(
      Gateway.layerFetch({ ...testConfig, ...config }).pipe(
        Layer.provide(
          Layer.mergeAll(
            Layer.succeed(FetchHttpClient.Fetch, fetch),
            init === undefined ? Layer.empty : Layer.succeed(FetchHttpClient.RequestInit, init)
          )
        )
      )
    )
  )

/** A fetch that never answers, and records whether its signal was aborted. */
const hangingFetch = (honoursSignal: boolean) => {
  const sent: Array<Sent & { aborted: () => boolean }> = []
  const fetch: typeof globalThis.fetch = (input, init = {}) => {
    const signal = init.signal ?? undefined
    sent.push({ url: String(input), init, aborted: () => signal?.aborted === true })
    return new Promise<Response>((_, reject) => {
      if (honoursSignal)
        signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")), { once: true })
    })
  }
  return { sent, fetch }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("fetch transport", () => {
  it.effect("sends a POST with the RDX headers over RequestInit's, content-type only with a body", () =>
    Effect.gen(function* () {
      const sent: Array<Sent> = []
      const fetch: typeof globalThis.fetch = (input, init = {}) => {
        sent.push({ url: String(input), init })
        return Promise.resolve(new Response(statusBody, { status: 200 }))
      }
      const result = yield* overFetch(
        fetch,
        (g) => g.transaction.status("txid_1"),
        {},
        {
          credentials: "include",
          headers: { "X-Api-Key": "k", "RDX-Client-Name": "spoofed" }
        }
      )
      expect(result.status).toBe("CommittedSuccess")
      // The body does not decode as a gateway status; only the request matters here.
      yield* Effect.either(overFetch(fetch, (g) => g.status.gatewayStatus(), { retry: { retries: 0 } }))
      expect(sent).toHaveLength(2)
      const [withBody, bodiless] = sent
      expect(withBody?.url).toBe(`${BasePath}/transaction/status`)
      expect(withBody?.init.method).toBe("POST")
      expect(withBody?.init.credentials).toBe("include")
      expect(JSON.parse(String(withBody?.init.body))).toEqual({ intent_hash: "txid_1" })
      const headers = new Headers(withBody?.init.headers)
      expect(headers.get("x-api-key")).toBe("k")
      expect(headers.get("rdx-client-name")).toBe("hswap-gateway-client")
      expect(headers.get("rdx-app-name")).toBe("hSwap tests")
      expect(headers.get("content-type")).toBe("application/json")
      expect(bodiless?.url).toBe(`${BasePath}/status/gateway-status`)
      expect(bodiless?.init.body).toBeUndefined()
      expect(new Headers(bodiless?.init.headers).get("content-type")).toBeNull()
    })
  )

  it.effect("interrupting the caller aborts the fetch and gives its slot back", () =>
    Effect.gen(function* () {
      const hang = hangingFetch(true)
      yield* overFetch(
        hang.fetch,
        (g) =>
          Effect.gen(function* () {
            const first = yield* Effect.fork(g.transaction.status("txid_1"))
            yield* Effect.yieldNow()
            expect(hang.sent).toHaveLength(1)
            yield* Fiber.interrupt(first)
            expect(hang.sent[0]?.aborted()).toBe(true)
            // With one slot, a second request can only be sent if the first gave it back.
            const second = yield* Effect.fork(g.transaction.status("txid_2"))
            yield* Effect.yieldNow()
            expect(hang.sent).toHaveLength(2)
            yield* Fiber.interrupt(second)
          }),
        { concurrency: 1, maxConcurrency: 1 }
      )
    })
  )

  it.effect("a fetch that ignores its signal still times out, and its slot comes back", () =>
    Effect.gen(function* () {
      const hang = hangingFetch(false)
      yield* overFetch(
        hang.fetch,
        (g) =>
          Effect.gen(function* () {
            const first = yield* Effect.fork(Effect.flip(g.transaction.status("txid_1")))
            yield* Effect.yieldNow()
            yield* TestClock.adjust("3 seconds")
            const error = yield* Fiber.join(first)
            expect(error._tag).toBe("GatewayTimeoutError")
            expect(error.message).toContain("/transaction/status")
            expect(hang.sent[0]?.aborted()).toBe(true)
            const second = yield* Effect.fork(Effect.flip(g.transaction.status("txid_2")))
            yield* Effect.yieldNow()
            expect(hang.sent).toHaveLength(2)
            yield* TestClock.adjust("3 seconds")
            expect((yield* Fiber.join(second))._tag).toBe("GatewayTimeoutError")
          }),
        { concurrency: 1, maxConcurrency: 1, timeout: "3 seconds", retry: { retries: 0 } }
      )
    })
  )

  it.effect("a body that fails to read is a GatewayTransportError (Decode), not a hang or a defect", () =>
    Effect.gen(function* () {
      const fetch: typeof globalThis.fetch = () =>
        Promise.resolve(
          new Response(
            new ReadableStream({
              start: (controller) => controller.error(new Error("connection reset mid-body"))
            }),
            { status: 200 }
          )
        )
      const error = yield* Effect.flip(
        overFetch(fetch, (g) => g.transaction.status("txid_1"), { retry: { retries: 0 } })
      )
      expect(error._tag).toBe("GatewayTransportError")
      expect(error._tag === "GatewayTransportError" ? error.reason : "").toBe("Decode")
    })
  )

  it.effect("a fetch that throws instead of rejecting is a GatewayTransportError (Transport)", () =>
    Effect.gen(function* () {
      const fetch: typeof globalThis.fetch = () => {
        throw new TypeError("Invalid URL")
      }
      const error = yield* Effect.flip(
        overFetch(fetch, (g) => g.transaction.status("txid_1"), { retry: { retries: 0 } })
      )
      expect(error._tag).toBe("GatewayTransportError")
      expect(error.message).toBe("Gateway request to /transaction/status failed: Transport")
    })
  )

  it.effect("without FetchHttpClient.Fetch it sends with globalThis.fetch, looked up when the client is built", () =>
    Effect.gen(function* () {
      const urls: Array<string> = []
      vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
        urls.push(String(input))
        return Promise.resolve(new Response(statusBody, { status: 200 }))
      })
      const result = yield* Effect.flatMap(Gateway, (g) => g.transaction.status("txid_1")).pipe(
        Effect.provide(Gateway.layerFetch(testConfig))
      )
      expect(result.intent_status).toBe("CommittedSuccess")
      expect(urls).toEqual([`${BasePath}/transaction/status`])
    })
  )
})
