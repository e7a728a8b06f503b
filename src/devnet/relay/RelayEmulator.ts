/**
 * The Radix Connect relay emulator (`/relay/api/v1`), in memory, with the real relay's JSON semantics
 * (radixdlt/radix-connect-relay, wallet-protocol.md §2):
 *
 * - `POST /api/v1` only; anything else is 404 `{"error":"Not Found"}`. A body that is not JSON or not one of the
 *   methods is 400 `{"error":"Invalid request"}`.
 * - `sendRequest {sessionId, data}` and `sendResponse {sessionId, publicKey, data}` / `{sessionId, error}` answer 201
 *   with no body. Entries are kept per session and direction as a set: an identical entry is stored once.
 * - `getRequests` answers the stored `data` strings, `getResponses` the stored `{sessionId, data, publicKey}` or
 *   `{sessionId, error}` objects, and both **delete what they return**.
 * - Each session's list expires 600 s after its last write (the relay's Redis `EXPIRE` on every add). Time is read
 *   from Effect's `Clock`, so tests drive it with `TestClock`; a sweeper frees expired lists every minute.
 *
 * Bounded: at most `MAX_ENTRIES_PER_LIST` entries per list and `MAX_STORED_CHARS` characters in all (429 beyond).
 */
import { Clock, Duration, Effect, Either, Schedule, Schema } from "effect"

/** How long a session's list lives after its last write. */
export const RELAY_TTL = Duration.seconds(600)
/** Largest accepted request body: the toolkit accepts entries up to 2,000,000 hex characters. */
export const MAX_RELAY_BODY_BYTES = 2_200_000
export const MAX_ENTRIES_PER_LIST = 100
export const MAX_STORED_CHARS = 64 * 1024 * 1024
const SWEEP_EVERY = Duration.minutes(1)

const SessionId = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256))

export const SendRequestBody = Schema.Struct({
  method: Schema.Literal("sendRequest"),
  sessionId: SessionId,
  data: Schema.String
})
export const GetRequestsBody = Schema.Struct({ method: Schema.Literal("getRequests"), sessionId: SessionId })
export const SendSuccessResponseBody = Schema.Struct({
  method: Schema.Literal("sendResponse"),
  sessionId: SessionId,
  publicKey: Schema.String,
  data: Schema.String
})
export const SendErrorResponseBody = Schema.Struct({
  method: Schema.Literal("sendResponse"),
  sessionId: SessionId,
  error: Schema.String
})
export const GetResponsesBody = Schema.Struct({ method: Schema.Literal("getResponses"), sessionId: SessionId })

/** The `/api/v1` methods; the success form of `sendResponse` wins when a body has both shapes, as in the relay. */
export const RelayApiV1Request = Schema.Union(
  SendRequestBody,
  GetRequestsBody,
  SendSuccessResponseBody,
  SendErrorResponseBody,
  GetResponsesBody
)
export type RelayApiV1Request = typeof RelayApiV1Request.Type

/** A stored response entry, as `getResponses` returns it. */
export type RelayResponseEntry =
  | { readonly sessionId: string; readonly data: string; readonly publicKey: string }
  | { readonly sessionId: string; readonly error: string }

export interface RelayHttpRequest {
  readonly method: string
  /** The path below the mount prefix, e.g. `/api/v1`. */
  readonly path: string
  /** The raw body text; `undefined` when it was too large to read. */
  readonly body: string | undefined
}

export interface RelayHttpResponse {
  readonly status: number
  /** `undefined`: no body. */
  readonly json: unknown
}

export const invalidRequest: RelayHttpResponse = { status: 400, json: { error: "Invalid request" } }
export const notFound: RelayHttpResponse = { status: 404, json: { error: "Not Found" } }
export const payloadTooLarge: RelayHttpResponse = { status: 413, json: { error: "Payload Too Large" } }
export const tooManyEntries: RelayHttpResponse = { status: 429, json: { error: "Too Many Requests" } }

interface List {
  readonly entries: Array<string>
  expiresAt: number
}

const decodeRequest = Schema.decodeUnknownEither(RelayApiV1Request)
const ResponseEntry = Schema.parseJson(
  Schema.Union(
    Schema.Struct({ sessionId: Schema.String, data: Schema.String, publicKey: Schema.String }),
    Schema.Struct({ sessionId: Schema.String, error: Schema.String })
  )
)
const decodeStoredResponse = Schema.decodeUnknownSync(ResponseEntry)

export class RelayFull extends Schema.TaggedError<RelayFull>()("RelayFull", { message: Schema.String }) {}

export const makeRelayEmulator = Effect.gen(function* () {
  const lists = new Map<string, List>()
  let storedChars = 0

  const drop = (key: string, list: List) => {
    lists.delete(key)
    for (const e of list.entries) storedChars -= e.length
  }

  /** The live list under `key`, dropping it first when it has expired. */
  const live = (key: string, now: number): List | undefined => {
    const list = lists.get(key)
    if (list === undefined) return undefined
    if (list.expiresAt <= now) {
      drop(key, list)
      return undefined
    }
    return list
  }

  const add = (key: string, value: string): Effect.Effect<void, RelayFull> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const list = live(key, now) ?? { entries: [], expiresAt: 0 }
      if (!list.entries.includes(value)) {
        if (list.entries.length >= MAX_ENTRIES_PER_LIST)
          return new RelayFull({ message: `more than ${MAX_ENTRIES_PER_LIST} entries are waiting in ${key}` })
        if (storedChars + value.length > MAX_STORED_CHARS)
          return new RelayFull({ message: "the relay emulator holds too much data" })
        list.entries.push(value)
        storedChars += value.length
      }
      list.expiresAt = now + Duration.toMillis(RELAY_TTL)
      lists.set(key, list)
      return Effect.void
    })

  /** Returns and deletes everything under `key`. */
  const take = (key: string): Effect.Effect<ReadonlyArray<string>> =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const list = live(key, now)
      if (list === undefined) return []
      drop(key, list)
      return [...list.entries]
    })

  const requestsKey = (sessionId: string) => `${sessionId}:requests`
  const responsesKey = (sessionId: string) => `${sessionId}:responses`

  const sendRequest = (sessionId: string, data: string) => add(requestsKey(sessionId), data)
  const getRequests = (sessionId: string) => take(requestsKey(sessionId))
  const sendResponse = (entry: RelayResponseEntry) =>
    add(
      responsesKey(entry.sessionId),
      JSON.stringify(
        "error" in entry
          ? { sessionId: entry.sessionId, error: entry.error }
          : { sessionId: entry.sessionId, data: entry.data, publicKey: entry.publicKey }
      )
    )
  const getResponses = (sessionId: string): Effect.Effect<ReadonlyArray<RelayResponseEntry>> =>
    Effect.map(take(responsesKey(sessionId)), (items) => items.map((s) => decodeStoredResponse(s)))

  /** Frees every expired list. */
  const sweep = Effect.map(Clock.currentTimeMillis, (now) => {
    for (const [key, list] of [...lists]) if (list.expiresAt <= now) drop(key, list)
  })

  const run = (request: RelayApiV1Request): Effect.Effect<RelayHttpResponse, RelayFull> => {
    switch (request.method) {
      case "sendRequest":
        return Effect.as(sendRequest(request.sessionId, request.data), { status: 201, json: undefined })
      case "getRequests":
        return Effect.map(getRequests(request.sessionId), (json) => ({ status: 200, json }))
      case "sendResponse":
        return Effect.as(
          sendResponse(
            "error" in request
              ? { sessionId: request.sessionId, error: request.error }
              : { sessionId: request.sessionId, publicKey: request.publicKey, data: request.data }
          ),
          { status: 201, json: undefined }
        )
      case "getResponses":
        return Effect.map(getResponses(request.sessionId), (json) => ({ status: 200, json }))
    }
  }

  /** One HTTP exchange, already stripped of the mount prefix. */
  const handle = (http: RelayHttpRequest): Effect.Effect<RelayHttpResponse> => {
    if (http.method !== "POST" || http.path !== "/api/v1") return Effect.succeed(notFound)
    if (http.body === undefined) return Effect.succeed(payloadTooLarge)
    let json: unknown
    try {
      json = JSON.parse(http.body)
    } catch {
      return Effect.succeed(invalidRequest)
    }
    const decoded = decodeRequest(json)
    if (Either.isLeft(decoded)) return Effect.succeed(invalidRequest)
    return run(decoded.right).pipe(Effect.catchTag("RelayFull", () => Effect.succeed(tooManyEntries)))
  }

  return {
    handle,
    sendRequest,
    getRequests,
    sendResponse,
    getResponses,
    sweep,
    /** How many lists are held (expired ones included until swept). */
    size: Effect.sync(() => lists.size)
  } as const
})

export type RelayEmulatorApi = Effect.Effect.Success<typeof makeRelayEmulator>

export class RelayEmulator extends Effect.Service<RelayEmulator>()("devnet/RelayEmulator", {
  scoped: Effect.gen(function* () {
    const relay = yield* makeRelayEmulator
    yield* Effect.forkScoped(Effect.repeat(relay.sweep, Schedule.spaced(SWEEP_EVERY)))
    return relay
  })
}) {}
