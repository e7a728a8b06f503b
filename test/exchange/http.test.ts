import { it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { describe, expect } from "vitest"
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
