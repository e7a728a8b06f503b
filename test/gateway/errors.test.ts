import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, Schedule, TestClock } from "effect"
import type { GatewayError, GatewayErrorDetails, UnknownNetworkError } from "../../src/gateway/index.js"
import {
  GatewayDefaults,
  GatewayResponseError,
  gatewayRetrySchedule,
  parseRetryAfter
} from "../../src/gateway/index.js"
import type { Reply } from "./support.js"
import { fakeHttp, fixture, ledgerState, withGateway, forEachTransport } from "./support.js"

const noRetry = { retry: { retries: 0 } }

const statusBody = fixture("transaction_status__committed_success.json")

/** The error a `transaction.status` call fails with when the server answers `reply`. */
const failWith = (reply: Reply) =>
  Effect.gen(function* () {
    const fake = fakeHttp(() => Effect.succeed(reply))
    return yield* withGateway(fake, (g) => Effect.flip(g.transaction.status("txid_1")), noRetry)
  })

const responseError = (e: GatewayError | UnknownNetworkError) => {
  if (!(e instanceof GatewayResponseError)) throw new Error(`expected GatewayResponseError, got ${e._tag}`)
  return e
}

forEachTransport(() => {
  describe("GatewayResponseError and details variants", () => {
    const variants: ReadonlyArray<{
      status: number
      details: Record<string, unknown>
      check: (d: GatewayErrorDetails) => void
    }> = [
      {
        status: 400,
        details: { type: "InvalidRequestError", validation_errors: [{ path: "intent_hash", errors: ["bad hash"] }] },
        check: (d) => {
          if (d.type !== "InvalidRequestError") throw new Error(d.type)
          expect(d.validation_errors[0]).toEqual({ path: "intent_hash", errors: ["bad hash"] })
        }
      },
      {
        status: 400,
        details: { type: "InvalidEntityError", address: "account_x" },
        check: (d) => expect(d.type === "InvalidEntityError" && d.address).toBe("account_x")
      },
      {
        status: 400,
        details: { type: "InvalidTransactionError" },
        check: (d) => expect(d.type).toBe("InvalidTransactionError")
      },
      {
        status: 404,
        details: { type: "EntityNotFoundError", address: "account_y" },
        check: (d) => expect(d.type === "EntityNotFoundError" && d.address).toBe("account_y")
      },
      {
        status: 404,
        details: { type: "TransactionNotFoundError", intent_hash: "txid_1" },
        check: (d) => expect(d.type === "TransactionNotFoundError" && d.intent_hash).toBe("txid_1")
      },
      {
        status: 404,
        details: { type: "AccountLockerNotFoundError", locker_address: "locker_1", account_address: "account_1" },
        check: (d) => expect(d.type === "AccountLockerNotFoundError" && d.locker_address).toBe("locker_1")
      },
      {
        status: 500,
        details: {
          type: "NotSyncedUpError",
          request_type: "Read",
          current_sync_delay_seconds: 17107200,
          max_allowed_sync_delay_seconds: 60
        },
        check: (d) => {
          if (d.type !== "NotSyncedUpError") throw new Error(d.type)
          expect(d.request_type).toBe("Read")
          expect(d.current_sync_delay_seconds).toBe(17107200)
        }
      },
      {
        status: 500,
        details: { type: "InternalServerError", exception: "UnknownException", cause: "N/A" },
        check: (d) => expect(d.type === "InternalServerError" && d.exception).toBe("UnknownException")
      }
    ]

    for (const v of variants) {
      it.effect(`${v.status} ${String(v.details["type"])}`, () =>
        Effect.gen(function* () {
          const e = responseError(
            yield* failWith({
              status: v.status,
              body: { message: "m", code: v.status, details: v.details, trace_id: "00-abc-01" }
            })
          )
          expect(e.status).toBe(v.status)
          expect(e.path).toBe("/transaction/status")
          expect(e.message).toBe("m")
          expect(e.errorResponse?.trace_id).toBe("00-abc-01")
          const details = e.details
          if (details === undefined) throw new Error("no details")
          v.check(details)
        })
      )
    }

    it.effect("an unknown details.type keeps the raw object and does not fail the decode", () =>
      Effect.gen(function* () {
        const e = responseError(
          yield* failWith({ status: 409, body: { message: "new", details: { type: "QuotaExceededError", limit: 3 } } })
        )
        expect(e.details).toEqual({
          type: "UnknownVariant",
          variant: "QuotaExceededError",
          raw: { type: "QuotaExceededError", limit: 3 }
        })
      })
    )

    it.effect("a 524 with `details: null`, and a bare 404 that is not an ErrorResponse", () =>
      Effect.gen(function* () {
        const timeout = responseError(
          yield* failWith({ status: 524, body: { message: "Request timed out", details: null } })
        )
        expect(timeout.errorResponse).toEqual({ message: "Request timed out" })
        const bare = responseError(yield* failWith({ status: 404, body: "Not Found" }))
        expect(bare.errorResponse).toBeUndefined()
        expect(bare.body).toBe("Not Found")
        expect(bare.message).toBe("Gateway answered HTTP 404 on /transaction/status")
      })
    )
  })

  describe("GatewayDecodeError", () => {
    it.effect("a truncated body", () =>
      Effect.gen(function* () {
        const e = yield* failWith({ status: 200, body: JSON.stringify(statusBody).slice(0, 120) })
        expect(e._tag).toBe("GatewayDecodeError")
        if (e._tag !== "GatewayDecodeError") return
        expect(e.issues[0]?.message).toMatch(/not valid JSON/)
      })
    )

    it.effect("a missing required field names the path and the field", () =>
      Effect.gen(function* () {
        const { known_payloads: _, ...withoutPayloads } = statusBody as Record<string, unknown>
        const e = yield* failWith({ status: 200, body: withoutPayloads })
        expect(e._tag).toBe("GatewayDecodeError")
        if (e._tag !== "GatewayDecodeError") return
        expect(e.path).toBe("/transaction/status")
        expect(e.issues).toContainEqual({ path: "known_payloads", message: "is missing" })
        expect(e.message).toContain("known_payloads")
      })
    )

    it.effect("a known union variant missing a field is an error, not the unknown fallback", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() =>
          Effect.succeed({
            body: {
              ledger_state: ledgerState(1),
              items: [
                {
                  address: "component_1",
                  metadata: { items: [] },
                  details: { type: "Component", blueprint_version: "1.0.0" }
                }
              ]
            }
          })
        )
        const e = yield* withGateway(
          fake,
          (g) => Effect.flip(g.state.entityDetails({ addresses: ["component_1"] })),
          noRetry
        )
        expect(e._tag).toBe("GatewayDecodeError")
        if (e._tag !== "GatewayDecodeError") return
        expect(e.issues).toContainEqual({ path: "items.0.details.blueprint_name", message: "is missing" })
      })
    )

    it.effect(
      "an unknown union variant in a 2xx body decodes and keeps the raw object; null optionals are accepted",
      () =>
        Effect.gen(function* () {
          const fake = fakeHttp(() =>
            Effect.succeed({
              body: {
                ledger_state: ledgerState(1),
                items: [
                  {
                    address: "thing_1",
                    metadata: { items: [], next_cursor: null, total_count: null },
                    ancestor_identities: null,
                    details: { type: "ShinyNewEntity", shine: 11 },
                    some_future_field: true
                  }
                ]
              }
            })
          )
          const r = yield* withGateway(fake, (g) => g.state.entityDetails({ addresses: ["thing_1"] }))
          const item = r.items[0]
          expect(item?.details).toEqual({
            type: "UnknownVariant",
            variant: "ShinyNewEntity",
            raw: { type: "ShinyNewEntity", shine: 11 }
          })
          expect(item?.metadata).toEqual({ items: [] })
          expect(item && "some_future_field" in item).toBe(false)
        })
    )
  })

  describe("retries (TestClock)", () => {
    it("the default schedule: 2, 4, 8 s; with more retries each delay is capped at 10 s", () => {
      const schedule = gatewayRetrySchedule(GatewayDefaults.retry)
      const e500 = new GatewayResponseError({ path: "/x", status: 500, body: "" })
      const delays = Effect.runSync(Schedule.run(Schedule.delays(schedule), 0, [e500, e500, e500]))
      expect(Array.from(delays, Duration.toSeconds)).toEqual([2, 4, 8])
      const capped = gatewayRetrySchedule({ ...GatewayDefaults.retry, retries: 6 })
      const cappedDelays = Effect.runSync(Schedule.run(Schedule.delays(capped), 0, Array(6).fill(e500)))
      expect(Array.from(cappedDelays, Duration.toSeconds)).toEqual([2, 4, 8, 10, 10, 10])
    })

    it("parses retry-after as seconds or as an HTTP date", () => {
      expect(Option.getOrUndefined(parseRetryAfter("7", 0))).toBe(7000)
      const now = Date.parse("2024-01-01T00:00:00Z")
      expect(Option.getOrUndefined(parseRetryAfter("Mon, 01 Jan 2024 00:00:30 GMT", now))).toBe(30000)
      expect(Option.isNone(parseRetryAfter("soon", now))).toBe(true)
    })

    it.effect("429 with retry-after: the next try comes exactly when the server said", () =>
      Effect.gen(function* () {
        let n = 0
        const fake = fakeHttp(() =>
          Effect.succeed(
            n++ === 0
              ? { status: 429, body: "Too Many Requests", headers: { "retry-after": "7" } }
              : { body: statusBody }
          )
        )
        const fiber = yield* Effect.fork(withGateway(fake, (g) => g.transaction.status("txid_1")))
        yield* TestClock.adjust("6999 millis")
        expect(fake.recorded).toHaveLength(1)
        yield* TestClock.adjust("1 millis")
        const r = yield* Fiber.join(fiber)
        expect(r.status).toBe("CommittedSuccess")
        expect(fake.recorded).toHaveLength(2)
      })
    )

    it.effect("500 then success: retried after 2 s", () =>
      Effect.gen(function* () {
        let n = 0
        const fake = fakeHttp(() =>
          Effect.succeed(
            n++ === 0
              ? {
                  status: 500,
                  body: {
                    message: "boom",
                    details: { type: "InternalServerError", exception: "UnknownException", cause: "N/A" }
                  }
                }
              : { body: statusBody }
          )
        )
        const fiber = yield* Effect.fork(withGateway(fake, (g) => g.transaction.status("txid_1")))
        yield* TestClock.adjust("1999 millis")
        expect(fake.recorded).toHaveLength(1)
        yield* TestClock.adjust("1 millis")
        expect((yield* Fiber.join(fiber)).status).toBe("CommittedSuccess")
        expect(fake.recorded).toHaveLength(2)
      })
    )

    it.effect("persistent 5xx: 1 + 3 tries at 0, 2, 6, 14 s, then the last error", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ status: 503, body: "unavailable" }))
        const fiber = yield* Effect.fork(Effect.flip(withGateway(fake, (g) => g.transaction.status("txid_1"))))
        const counts: Array<number> = []
        for (const t of [0, 2, 6, 14]) {
          yield* TestClock.setTime(t * 1000)
          counts.push(fake.recorded.length)
        }
        const e = responseError(yield* Fiber.join(fiber))
        expect(counts).toEqual([1, 2, 3, 4])
        expect(e.status).toBe(503)
      })
    )

    it.effect("network errors are retried; a 400 is not", () =>
      Effect.gen(function* () {
        let n = 0
        const flaky = fakeHttp(() =>
          n++ === 0 ? Effect.fail("network-down" as const) : Effect.succeed({ body: statusBody })
        )
        const fiber = yield* Effect.fork(withGateway(flaky, (g) => g.transaction.status("txid_1")))
        yield* TestClock.adjust("2 seconds")
        expect((yield* Fiber.join(fiber)).status).toBe("CommittedSuccess")
        expect(flaky.recorded).toHaveLength(2)

        const bad = fakeHttp(() => Effect.succeed({ status: 400, body: { message: "bad" } }))
        const e = yield* Effect.flip(withGateway(bad, (g) => g.transaction.status("txid_1")))
        expect(e._tag).toBe("GatewayResponseError")
        expect(bad.recorded).toHaveLength(1)
      })
    )

    it.effect("a transport failure is a GatewayTransportError", () =>
      Effect.gen(function* () {
        const down = fakeHttp(() => Effect.fail("network-down" as const))
        const e = yield* Effect.flip(withGateway(down, (g) => g.transaction.status("txid_1"), noRetry))
        expect(e._tag).toBe("GatewayTransportError")
      })
    )

    it.effect("/transaction/submit is never retried blindly", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ status: 500, body: { message: "boom" } }))
        const fiber = yield* Effect.fork(Effect.flip(withGateway(fake, (g) => g.transaction.submit("4d22"))))
        yield* TestClock.adjust("1 minute")
        const e = responseError(yield* Fiber.join(fiber))
        expect(e.status).toBe(500)
        expect(fake.recorded).toHaveLength(1)
      })
    )

    it.effect("a resubmitted payload answers through `duplicate`", () =>
      Effect.gen(function* () {
        const seen = new Set<string>()
        const fake = fakeHttp((req) => {
          const { notarized_transaction_hex: hex } = req.body as { notarized_transaction_hex: string }
          const duplicate = seen.has(hex)
          seen.add(hex)
          return Effect.succeed({ body: { duplicate } })
        })
        const [first, second] = yield* withGateway(fake, (g) =>
          Effect.all([g.transaction.submit("4d22"), g.transaction.submit("4d22")])
        )
        expect(first.duplicate).toBe(false)
        expect(second.duplicate).toBe(true)
      })
    )

    it.effect(
      "timeouts come from one sweep: each attempt times out at its own deadline, answered ones never, and no timer is left once nothing is in flight",
      () =>
        Effect.gen(function* () {
          const status = {
            ledger_state: ledgerState(5),
            status: "Pending",
            intent_status: "Pending",
            intent_status_description: "pending",
            known_payloads: []
          }
          // txid_hung never answers; txid_slow answers after 2 s; txid_late is sent 1 s after the others.
          const fake = fakeHttp((req) => {
            const id = (req.body as { intent_hash: string }).intent_hash
            if (id === "txid_hung" || id === "txid_late") return Effect.never
            return Effect.as(Effect.sleep("2 seconds"), { body: status })
          })
          const fiber = yield* Effect.fork(
            withGateway(
              fake,
              (g) =>
                Effect.all(
                  [
                    Effect.either(g.transaction.status("txid_hung")),
                    Effect.either(g.transaction.status("txid_slow")),
                    Effect.either(Effect.delay(g.transaction.status("txid_late"), "1 second"))
                  ],
                  { concurrency: "unbounded" }
                ),
              { ...noRetry, timeout: "3 seconds" }
            )
          )
          yield* TestClock.adjust("2999 millis")
          expect(fiber.unsafePoll()).toBeNull()
          yield* TestClock.adjust("1 millis")
          // The hung request timed out at 3 s; the late one (sent at 1 s) is still waiting.
          expect(fiber.unsafePoll()).toBeNull()
          yield* TestClock.adjust("1 second")
          const [hung, slow, late] = yield* Fiber.join(fiber)
          expect(hung._tag === "Left" && hung.left._tag).toBe("GatewayTimeoutError")
          expect(slow._tag).toBe("Right")
          expect(late._tag === "Left" && late.left._tag).toBe("GatewayTimeoutError")
          expect(fake.recorded).toHaveLength(3)
          // Nothing in flight: the sweep stopped, so no sleep of the client keeps a timer (or the process) alive.
          expect(yield* TestClock.sleeps()).toHaveLength(0)
        })
    )

    it.effect("a request that never answers is a GatewayTimeoutError after the configured timeout", () =>
      Effect.gen(function* () {
        const hung = fakeHttp(() => Effect.never)
        const fiber = yield* Effect.fork(
          Effect.flip(withGateway(hung, (g) => g.transaction.status("txid_1"), { ...noRetry, timeout: "3 seconds" }))
        )
        yield* TestClock.adjust("3 seconds")
        const e = yield* Fiber.join(fiber)
        expect(e._tag).toBe("GatewayTimeoutError")
        if (e._tag === "GatewayTimeoutError") expect(e.timeoutMillis).toBe(3000)
      })
    )
  })
})
