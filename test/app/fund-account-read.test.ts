import { it } from "@effect/vitest"
import { Effect, Either, Fiber, Layer, TestClock } from "effect"
import { describe, expect } from "vitest"
import { readFundAccountBalances, sumVaults } from "../../src/app/services/fundAccountRead"
import { makeGatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator"
import { Ledger } from "../../src/devnet/ledger/Ledger"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { ApiHttp, type ApiAnswer, type ApiRequest, FetchTransportError } from "../../src/exchange/http"
import { Gateway, GatewayClientName, GatewayClientVersion } from "../../src/gateway/index"
import { testConfig } from "./harness"

const config = testConfig()
const fund = config.fundAccount

/** ApiHttp answering every request with `answer`, recording what was sent. */
const answering = (sent: Array<ApiRequest>, answer: (r: ApiRequest) => Effect.Effect<ApiAnswer, FetchTransportError>) =>
  Layer.succeed(ApiHttp, ApiHttp.of({ send: (request) => Effect.suspend(() => (sent.push(request), answer(request))) }))
const json = (body: unknown, status = 200) => Effect.succeed({ status, text: JSON.stringify(body) })

const failureOf = <E>(effect: Effect.Effect<unknown, E, ApiHttp>, http: Layer.Layer<ApiHttp>) =>
  Effect.flatMap(Effect.either(Effect.provide(effect, http)), (result) =>
    Either.isLeft(result) ? Effect.succeed(result.left) : Effect.die("expected a failure")
  )

describe("the startup read of the fund account (fundAccountRead.ts)", () => {
  it("sums vault amounts exactly, and an amount that is not a decimal is a GatewayDecodeError, never a zero", () => {
    const vaults = (...amounts: ReadonlyArray<string>) => ({
      resource_address: "resource_a",
      vaults: { items: amounts.map((amount) => ({ amount })) }
    })
    expect(sumVaults([vaults("0.1", "0.2"), { ...vaults(), resource_address: "resource_b" }])).toEqual(
      Either.right({ resource_a: "0.3", resource_b: "0" })
    )
    const bad = sumVaults([vaults("0.1", "oops")])
    expect(Either.isLeft(bad) && bad.left._tag).toBe("GatewayDecodeError")
    expect(Either.isLeft(bad) && bad.left.message).toContain("fungible_resources.items.0.vaults.items.1.amount")
  })

  it.effect("over the devnet's Gateway emulator: the same balances as the Gateway client's vault-aggregated read", () =>
    Effect.gen(function* () {
      const emulator = yield* makeGatewayEmulator
      const ledger = yield* Effect.context<Ledger>()
      const sent: Array<ApiRequest> = []
      const http = answering(sent, (request) =>
        Effect.map(
          emulator
            .handle({
              method: "POST",
              path: new URL(request.url, "http://app.invalid").pathname.replace(/^\/gateway/, ""),
              body: JSON.parse(request.body ?? "null")
            })
            .pipe(Effect.provide(ledger)),
          (res) => ({ status: res.status, text: JSON.stringify(res.json) })
        )
      )
      const read = yield* readFundAccountBalances(config, fund).pipe(Effect.provide(http))

      // The Gateway client over the same emulator, for the expected sums and the request it sends.
      const clientBodies: Array<unknown> = []
      const viaClient = yield* Effect.flatMap(Gateway, (g) => g.state.getEntityDetailsVaultAggregated([fund])).pipe(
        Effect.provide(
          Gateway.layerFetch({ basePath: "http://gateway.invalid", applicationName: "test" }).pipe(Layer.orDie)
        ),
        Effect.provideService(
          // FetchHttpClient's Fetch tag, answered by the emulator.
          (yield* Effect.promise(() => import("@effect/platform"))).FetchHttpClient.Fetch,
          (async (input: RequestInfo | URL, init?: RequestInit) => {
            clientBodies.push(JSON.parse(String(init?.body ?? "null")))
            const url = new URL(String(input))
            const res = await Effect.runPromise(
              emulator
                .handle({ method: "POST", path: url.pathname, body: JSON.parse(String(init?.body ?? "null")) })
                .pipe(Effect.provide(ledger))
            )
            return Response.json(res.json, { status: res.status })
          }) as typeof globalThis.fetch
        )
      )
      const expected: Record<string, number> = {}
      for (const item of viaClient[0]?.fungible_resources.items ?? [])
        expected[item.resource_address] = item.vaults.items.reduce((n, v) => n + Number(v.amount), 0)
      expect(Object.keys(expected).length).toBeGreaterThan(0)
      expect(Object.fromEntries(Object.entries(read.amounts).map(([k, v]) => [k, Number(v)]))).toEqual(expected)
      // The fund account holds XRD at genesis.
      expect(Number(read.amounts[DevnetAddresses.resources.XRD])).toBeGreaterThan(0)
      expect(read.firstPageOnly).toBe(false)

      // One request: the client's path, body and headers, cookies only to the same origin (as the client's fetch).
      expect(sent).toHaveLength(1)
      const request = sent[0]!
      expect(request.method).toBe("POST")
      expect(request.url).toBe(`${config.gatewayUrl}/state/entity/details`)
      expect(request.credentials).toBe("same-origin")
      // The same call as the client's: its first request for the account, body for body.
      expect(JSON.parse(request.body ?? "")).toEqual(clientBodies[0])
      expect(JSON.parse(request.body ?? "")).toMatchObject({ addresses: [fund], aggregation_level: "Vault" })
      expect(request.headers).toMatchObject({
        "RDX-Client-Name": GatewayClientName,
        "RDX-Client-Version": GatewayClientVersion,
        "RDX-App-Name": config.brand.name,
        "RDX-App-Version": "1.0.0",
        "RDX-App-Dapp-Definition": config.dAppDefinitionAddress
      })
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("sums every vault of a resource exactly, and says when the Gateway had more pages", () =>
    Effect.gen(function* () {
      const read = yield* readFundAccountBalances(config, fund).pipe(
        Effect.provide(
          answering([], () =>
            json({
              ledger_state: { state_version: 1 },
              items: [
                {
                  address: fund,
                  fungible_resources: {
                    total_count: 140,
                    next_cursor: "page-2",
                    items: [
                      {
                        aggregation_level: "Vault",
                        resource_address: "resource_a",
                        vaults: { items: [{ amount: "0.1" }, { amount: "0.2" }] }
                      },
                      { aggregation_level: "Vault", resource_address: "resource_b", vaults: { items: [] } }
                    ]
                  },
                  unknown_field: { kept: "as it came" }
                }
              ]
            })
          )
        )
      )
      expect(read).toEqual({ amounts: { resource_a: "0.3", resource_b: "0" }, totalCount: 140, firstPageOnly: true })
    })
  )

  it.effect("an entity the Gateway leaves out reads as no balances (the real Gateway omits unknown entities)", () =>
    Effect.gen(function* () {
      const read = yield* readFundAccountBalances(config, fund).pipe(
        Effect.provide(answering([], () => json({ ledger_state: { state_version: 1 }, items: [] })))
      )
      expect(read).toEqual({ amounts: {}, totalCount: undefined, firstPageOnly: false })
    })
  )

  it.effect("a Gateway error answer fails with the client's GatewayResponseError and the Gateway's message", () =>
    Effect.gen(function* () {
      const error = yield* failureOf(
        readFundAccountBalances(config, fund),
        answering([], () =>
          json(
            {
              message: "Invalid request",
              code: 400,
              details: { type: "InvalidRequestError", validation_errors: [{ path: "addresses", errors: ["bad"] }] }
            },
            400
          )
        )
      )
      expect(error._tag).toBe("GatewayResponseError")
      expect(error.message).toBe("Invalid request")
      if (error._tag === "GatewayResponseError") expect(error.details?.type).toBe("InvalidRequestError")

      const plain = yield* failureOf(
        readFundAccountBalances(config, fund),
        answering([], () => Effect.succeed({ status: 503, text: "<html>busy</html>" }))
      )
      expect(plain.message).toBe("Gateway answered HTTP 503 on /state/entity/details")
    })
  )

  it.effect("a body that is not JSON, or not the documented shape, fails with GatewayDecodeError naming the path", () =>
    Effect.gen(function* () {
      const notJson = yield* failureOf(
        readFundAccountBalances(config, fund),
        answering([], () => Effect.succeed({ status: 200, text: "<html>" }))
      )
      expect(notJson.message).toBe(
        "Gateway response from /state/entity/details did not decode: (body) body is not valid JSON (6 bytes)"
      )
      const wrong = yield* failureOf(
        readFundAccountBalances(config, fund),
        answering([], () =>
          json({
            items: [
              {
                address: fund,
                fungible_resources: { items: [{ resource_address: "resource_a", vaults: { items: [{ amount: 5 }] } }] }
              }
            ]
          })
        )
      )
      expect(wrong._tag).toBe("GatewayDecodeError")
      expect(wrong.message).toContain("items.0.fungible_resources.items.0.vaults.items.0.amount")

      // An amount that is not a decimal is no balance of 0: the answer does not decode.
      const notDecimal = yield* failureOf(
        readFundAccountBalances(config, fund),
        answering([], () =>
          json({
            items: [
              {
                address: fund,
                fungible_resources: {
                  items: [{ resource_address: "resource_a", vaults: { items: [{ amount: "0.1" }, { amount: "n/a" }] } }]
                }
              }
            ]
          })
        )
      )
      expect(notDecimal._tag).toBe("GatewayDecodeError")
      expect(notDecimal.message).toContain("items.0.fungible_resources.items.0.vaults.items.1.amount")
    })
  )

  it.effect(
    "no answer fails with GatewayTransportError; none within the client's timeout with GatewayTimeoutError",
    () =>
      Effect.gen(function* () {
        const offline = yield* failureOf(
          readFundAccountBalances(config, fund),
          answering([], (r) => Effect.fail(new FetchTransportError({ url: r.url, reason: "Failed to fetch" })))
        )
        expect(offline.message).toBe("Gateway request to /state/entity/details failed: Failed to fetch")

        const fiber = yield* Effect.fork(
          failureOf(
            readFundAccountBalances(config, fund),
            answering([], () => Effect.never)
          )
        )
        yield* TestClock.adjust("29 seconds")
        expect(fiber.unsafePoll()).toBeNull()
        yield* TestClock.adjust("1 seconds")
        const timedOut = yield* Fiber.join(fiber)
        expect(timedOut.message).toBe("Gateway request to /state/entity/details timed out after 30000 ms")
      })
  )
})
