import { it } from "@effect/vitest"
import { Duration, Effect, Either, Exit, Fiber, Layer, TestClock } from "effect"
import { describe, expect } from "vitest"
import { API_GET_TIMEOUT, API_POST_TIMEOUT, ExchangeApi, ExchangeApiConfig } from "../../src/exchange/ExchangeApi"
import { ApiHttp, fetchJson, joinKey } from "../../src/exchange/http"

/** The app's transport (`ApiHttp.fetch`) over a stubbed fetch, so the credentials option is observable. */
const withFetch = (
  handler: (req: Request, init: RequestInit | undefined) => Response,
  seen: Array<RequestInit | undefined>
) =>
  ApiHttp.fetchWith((async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(init)
    return handler(new Request(input, init), init)
  }) as typeof fetch)

describe("joinKey", () => {
  it.effect("joins segments with single slashes", () =>
    Effect.sync(() => {
      expect(joinKey(["https://api.x", "api", "stats"])).toBe("https://api.x/api/stats")
      expect(joinKey(["https://api.x/", "/api/", "/stats"])).toBe("https://api.x/api/stats")
      expect(joinKey(["", "api", 42])).toBe("/api/42")
    })
  )
})

describe("fetchJson", () => {
  it.effect("GETs the joined URL with credentials included and returns the JSON body", () => {
    const seen: Array<RequestInit | undefined> = []
    const urls: Array<string> = []
    return Effect.gen(function* () {
      const body = yield* fetchJson(["http://127.0.0.1:9", "api", "stats"])
      expect(body).toEqual({ ok: 1 })
      expect(urls).toEqual(["GET http://127.0.0.1:9/api/stats"])
      expect(seen[0]?.credentials).toBe("include")
    }).pipe(
      Effect.provide(
        withFetch((req) => {
          urls.push(`${req.method} ${req.url}`)
          return Response.json({ ok: 1 })
        }, seen)
      )
    )
  })

  it.effect("fails on non-2xx with '{status}: {body}', or the status text when the body is empty", () =>
    Effect.gen(function* () {
      const withBody = yield* Effect.flip(fetchJson(["http://h", "a"]))
      expect(withBody.message).toBe("503: maintenance window")
      const empty = yield* Effect.flip(fetchJson(["http://h", "b"]))
      expect(empty.message).toBe("404: Not Found")
    }).pipe(
      Effect.provide(
        withFetch(
          (req) =>
            req.url.endsWith("/a")
              ? new Response("maintenance window", { status: 503 })
              : new Response(null, { status: 404 }),
          []
        )
      )
    )
  )

  it.effect("returns null on 401 only when asked to", () =>
    Effect.gen(function* () {
      expect(yield* fetchJson(["http://h", "me"], { returnNullOn401: true })).toBeNull()
      const exit = yield* Effect.exit(fetchJson(["http://h", "me"]))
      expect(Exit.isFailure(exit)).toBe(true)
    }).pipe(Effect.provide(withFetch(() => new Response("no session", { status: 401 }), [])))
  )

  it.effect("maps a network failure and a non-JSON body to their own errors", () =>
    Effect.gen(function* () {
      const down = yield* Effect.flip(fetchJson(["http://h", "down"]))
      expect(down._tag).toBe("FetchTransportError")
      const garbage = yield* Effect.flip(fetchJson(["http://h", "garbage"]))
      expect(garbage._tag).toBe("FetchJsonError")
    }).pipe(
      Effect.provide(
        withFetch((req) => {
          if (req.url.endsWith("/down")) throw new TypeError("Failed to fetch")
          return new Response("<html>", { status: 200 })
        }, [])
      )
    )
  )
})

describe("ExchangeApi: an answer that never comes", () => {
  /** An ApiHttp whose requests never answer, counting those that were let go (the fetch aborted). */
  const silent = () => {
    const state = { sent: 0, aborted: 0 }
    const layer = Layer.succeed(ApiHttp, {
      send: () =>
        Effect.async<never>(() => {
          state.sent++
          return Effect.sync(() => void state.aborted++)
        })
    })
    return { state, layer }
  }
  const client = (http: Layer.Layer<ApiHttp>) =>
    ExchangeApi.Default.pipe(
      Layer.provide(ExchangeApiConfig.layer({ apiBase: "http://api.invalid" })),
      Layer.provide(http)
    )

  it.effect(
    "a GET is given up after API_GET_TIMEOUT, a POST after API_POST_TIMEOUT, each aborted, on the Clock",
    () => {
      const { state, layer } = silent()
      return Effect.gen(function* () {
        const api = yield* ExchangeApi
        const get = yield* Effect.fork(Effect.either(api.health))
        const post = yield* Effect.fork(Effect.either(api.registerSwap("txid_x")))
        yield* TestClock.adjust(Duration.subtract(API_GET_TIMEOUT, Duration.millis(1)))
        expect(get.unsafePoll()).toBeNull()
        yield* TestClock.adjust(Duration.millis(1))
        const got = yield* Fiber.join(get)
        expect(Either.isLeft(got) && got.left._tag).toBe("FetchTransportError")
        expect(post.unsafePoll()).toBeNull()
        yield* TestClock.adjust(Duration.subtract(API_POST_TIMEOUT, API_GET_TIMEOUT))
        const posted = yield* Fiber.join(post)
        expect(Either.isLeft(posted) && posted.left._tag).toBe("FetchTransportError")
        expect(state).toEqual({ sent: 2, aborted: 2 })
      }).pipe(Effect.provide(client(layer)))
    }
  )
})
