import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { createServer, type Server } from "node:http"
import {
  MAX_ENTRIES_PER_LIST,
  MAX_RELAY_BODY_BYTES,
  RELAY_TTL,
  RelayEmulator,
  type RelayHttpResponse,
  startDevnetRelay
} from "../../src/devnet/relay/index.js"

const post = (body: unknown) =>
  Effect.flatMap(RelayEmulator, (relay) =>
    relay.handle({ method: "POST", path: "/api/v1", body: typeof body === "string" ? body : JSON.stringify(body) })
  )

const withRelay = <A, E>(effect: Effect.Effect<A, E, RelayEmulator>) => Effect.provide(effect, RelayEmulator.Default)

describe("relay emulator: methods", () => {
  it.effect("sendResponse answers 201 with no body; getResponses returns the entries once, then deletes them", () =>
    withRelay(
      Effect.gen(function* () {
        const sent = yield* post({ method: "sendResponse", sessionId: "s1", publicKey: "ab", data: "00ff" })
        expect(sent).toEqual({ status: 201, json: undefined })
        yield* post({ method: "sendResponse", sessionId: "s1", error: "walletRejected" })
        const first = yield* post({ method: "getResponses", sessionId: "s1" })
        expect(first).toEqual({
          status: 200,
          json: [
            { sessionId: "s1", data: "00ff", publicKey: "ab" },
            { sessionId: "s1", error: "walletRejected" }
          ]
        })
        expect(yield* post({ method: "getResponses", sessionId: "s1" })).toEqual({ status: 200, json: [] })
      })
    )
  )

  it.effect("requests and responses are separate lists per session; identical entries are stored once", () =>
    withRelay(
      Effect.gen(function* () {
        yield* post({ method: "sendRequest", sessionId: "a", data: "r1" })
        yield* post({ method: "sendRequest", sessionId: "a", data: "r1" })
        yield* post({ method: "sendRequest", sessionId: "a", data: "r2" })
        yield* post({ method: "sendRequest", sessionId: "b", data: "other" })
        expect((yield* post({ method: "getResponses", sessionId: "a" })).json).toEqual([])
        expect((yield* post({ method: "getRequests", sessionId: "a" })).json).toEqual(["r1", "r2"])
        expect((yield* post({ method: "getRequests", sessionId: "a" })).json).toEqual([])
        expect((yield* post({ method: "getRequests", sessionId: "b" })).json).toEqual(["other"])
      })
    )
  )

  it.effect("bad input is a 4xx JSON answer", () =>
    withRelay(
      Effect.gen(function* () {
        const invalid = { status: 400, json: { error: "Invalid request" } }
        expect(yield* post("{not json")).toEqual(invalid)
        expect(yield* post({ method: "deleteEverything", sessionId: "s" })).toEqual(invalid)
        expect(yield* post({ method: "sendRequest", sessionId: "s" })).toEqual(invalid)
        expect(yield* post({ method: "sendResponse", sessionId: "s", data: "00" })).toEqual(invalid)
        expect(yield* post({ method: "getResponses", sessionId: "" })).toEqual(invalid)
        expect(yield* post({ method: "getResponses", sessionId: 5 })).toEqual(invalid)
        expect(yield* post([1, 2])).toEqual(invalid)
        const relay = yield* RelayEmulator
        const notFound = { status: 404, json: { error: "Not Found" } }
        expect(yield* relay.handle({ method: "GET", path: "/api/v1", body: "" })).toEqual(notFound)
        expect(yield* relay.handle({ method: "POST", path: "/api/v3", body: "{}" })).toEqual(notFound)
        expect(yield* relay.handle({ method: "POST", path: "/api/v1", body: undefined })).toEqual({
          status: 413,
          json: { error: "Payload Too Large" }
        })
      })
    )
  )

  it.effect(`a list holds at most ${MAX_ENTRIES_PER_LIST} entries (429 beyond)`, () =>
    withRelay(
      Effect.gen(function* () {
        for (let i = 0; i < MAX_ENTRIES_PER_LIST; i++) {
          expect((yield* post({ method: "sendRequest", sessionId: "full", data: `d${i}` })).status).toBe(201)
        }
        const over: RelayHttpResponse = yield* post({ method: "sendRequest", sessionId: "full", data: "one more" })
        expect(over).toEqual({ status: 429, json: { error: "Too Many Requests" } })
        // A repeat of a stored entry is not a new entry.
        expect((yield* post({ method: "sendRequest", sessionId: "full", data: "d0" })).status).toBe(201)
        expect(((yield* post({ method: "getRequests", sessionId: "full" })).json as ReadonlyArray<string>).length).toBe(
          MAX_ENTRIES_PER_LIST
        )
      })
    )
  )
})

describe("relay emulator: expiry on the Clock", () => {
  it.effect("entries live 600 s after the last write to their list", () =>
    withRelay(
      Effect.gen(function* () {
        expect(Duration.toSeconds(RELAY_TTL)).toBe(600)
        yield* post({ method: "sendResponse", sessionId: "early", publicKey: "aa", data: "01" })
        yield* post({ method: "sendResponse", sessionId: "late", publicKey: "aa", data: "02" })
        yield* TestClock.adjust(Duration.millis(599_999))
        expect((yield* post({ method: "getResponses", sessionId: "early" })).json).toEqual([
          { sessionId: "early", data: "01", publicKey: "aa" }
        ])
        yield* TestClock.adjust(Duration.millis(1))
        expect((yield* post({ method: "getResponses", sessionId: "late" })).json).toEqual([])
      })
    )
  )

  it.effect("a write refreshes the whole list's expiry, as Redis EXPIRE does", () =>
    withRelay(
      Effect.gen(function* () {
        yield* post({ method: "sendRequest", sessionId: "s", data: "first" })
        yield* TestClock.adjust("300 seconds")
        yield* post({ method: "sendRequest", sessionId: "s", data: "second" })
        yield* TestClock.adjust("400 seconds")
        expect((yield* post({ method: "getRequests", sessionId: "s" })).json).toEqual(["first", "second"])
        yield* post({ method: "sendRequest", sessionId: "s", data: "third" })
        yield* TestClock.adjust("600 seconds")
        expect((yield* post({ method: "getRequests", sessionId: "s" })).json).toEqual([])
      })
    )
  )

  it.effect("the sweeper frees expired lists that nobody reads", () =>
    withRelay(
      Effect.gen(function* () {
        const relay = yield* RelayEmulator
        yield* post({ method: "sendRequest", sessionId: "x", data: "d" })
        yield* post({ method: "sendResponse", sessionId: "y", error: "e" })
        expect(yield* relay.size).toBe(2)
        yield* TestClock.adjust("5 minutes")
        expect(yield* relay.size).toBe(2)
        yield* TestClock.adjust("6 minutes")
        expect(yield* relay.size).toBe(0)
      })
    )
  )
})

describe("relay emulator over HTTP", () => {
  const listen = async (handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> => {
    const server = createServer(handler)
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    return { server, url: `http://127.0.0.1:${port}` }
  }

  it("answers with open CORS, accepts text/plain bodies, answers preflights and bounds the body", async () => {
    const relay = startDevnetRelay()
    const { server, url } = await listen((req, res) => void relay.mount.handle(req, res))
    try {
      const send = await fetch(`${url}/relay/api/v1`, {
        method: "POST",
        headers: { "content-type": "text/plain;charset=UTF-8", origin: "http://elsewhere.test" },
        body: JSON.stringify({ method: "sendResponse", sessionId: "h", publicKey: "01", data: "02" })
      })
      expect(send.status).toBe(201)
      expect(send.headers.get("access-control-allow-origin")).toBe("*")
      expect(await send.text()).toBe("")
      const get = await fetch(`${url}/relay/api/v1`, {
        method: "POST",
        body: JSON.stringify({ method: "getResponses", sessionId: "h" })
      })
      expect(get.headers.get("content-type")).toContain("application/json")
      expect(await get.json()).toEqual([{ sessionId: "h", data: "02", publicKey: "01" }])
      const preflight = await fetch(`${url}/relay/api/v1`, { method: "OPTIONS" })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get("access-control-allow-methods")).toContain("POST")
      const huge = await fetch(`${url}/relay/api/v1`, {
        method: "POST",
        body: JSON.stringify({ method: "sendRequest", sessionId: "h", data: "0".repeat(MAX_RELAY_BODY_BYTES) })
      })
      expect(huge.status).toBe(413)
      expect(await huge.json()).toEqual({ error: "Payload Too Large" })
      const bad = await fetch(`${url}/relay/api/v1`, { method: "POST", body: "nope" })
      expect(bad.status).toBe(400)
      expect(await bad.json()).toEqual({ error: "Invalid request" })
      const wrongPath = await fetch(`${url}/relay/api/v2`, { method: "POST", body: "{}" })
      expect(wrongPath.status).toBe(404)
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()))
      await relay.dispose()
    }
  })
})
