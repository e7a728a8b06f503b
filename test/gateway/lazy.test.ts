import { HttpClient, HttpClientResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { afterEach, vi } from "vitest"
import { Effect, Either, Exit } from "effect"
import { Gateway } from "../../src/gateway/index.js"
import {
  lazyGateway,
  loadGatewayModule,
  loadGatewayPlatformModule,
  makeLazyGateway,
  makeLazyGatewayWithFetch
} from "../../src/gateway/lazy.js"

const ledgerState = {
  network: "stokenet",
  state_version: 7,
  proposer_round_timestamp: "2024-04-10T08:21:27.466Z",
  epoch: 1,
  round: 1
}
const config = {
  networkId: 2,
  basePath: "https://gw.test",
  applicationName: "hSwap",
  applicationDappDefinitionAddress: "account_x"
}

/** A metadata page of `account_x` whose `name` is hSwap. */
const metadataPage = () =>
  new Response(
    JSON.stringify({
      ledger_state: ledgerState,
      address: "account_x",
      items: [
        {
          key: "name",
          value: {
            raw_hex: "00",
            programmatic_json: { kind: "String", value: "hSwap" },
            typed: { type: "String", value: "hSwap" }
          },
          is_locked: false,
          last_updated_at_state_version: 1
        }
      ]
    }),
    { status: 200, headers: { "content-type": "application/json" } }
  )

/** An HttpClient that answers every metadata page with a `name` and records the URLs it was asked for. */
const recordingHttp = () => {
  const urls: Array<string> = []
  const client = HttpClient.make((request) =>
    Effect.sync(() => {
      urls.push(request.url)
      return HttpClientResponse.fromWeb(request, metadataPage())
    })
  )
  return { urls, client }
}

/** The real module's loader, counting its calls; `failures` first calls fail as a chunk that cannot be fetched. */
const countingLoader = (failures = 0) => {
  const calls = { count: 0 }
  const load = () => {
    calls.count += 1
    return calls.count <= failures ? Promise.reject(new Error("chunk unavailable")) : loadGatewayPlatformModule()
  }
  return { calls, load }
}

describe("the lazy Gateway client", () => {
  it.effect(
    "resolves its configuration at once but loads the client only on the first call, once for concurrent calls",
    () =>
      Effect.gen(function* () {
        const { urls, client } = recordingHttp()
        const { calls, load } = countingLoader()
        const gateway = yield* makeLazyGateway(config, load).pipe(Effect.provideService(HttpClient.HttpClient, client))
        expect(calls.count).toBe(0)
        expect(gateway.config.basePath).toBe("https://gw.test")
        expect(gateway.config.headers["RDX-App-Name"]).toBe("hSwap")
        const names = yield* Effect.all([gateway.dAppName("account_x"), gateway.dAppName("account_y")], {
          concurrency: "unbounded"
        })
        expect(names).toEqual(["hSwap", "hSwap"])
        expect(calls.count).toBe(1)
        // A grouped method goes to the same client, with no second load.
        const page = yield* gateway.state.entityMetadataPage({ address: "account_z" })
        expect(page.ledger_state.state_version).toBe(7)
        expect(calls.count).toBe(1)
        expect(urls).toEqual([
          "https://gw.test/state/entity/page/metadata",
          "https://gw.test/state/entity/page/metadata",
          "https://gw.test/state/entity/page/metadata"
        ])
      })
  )

  it.effect(
    "a client that cannot be loaded fails the call with GatewayTransportError, and the next call loads again",
    () =>
      Effect.gen(function* () {
        const { client } = recordingHttp()
        const { calls, load } = countingLoader(1)
        const gateway = yield* makeLazyGateway(config, load).pipe(Effect.provideService(HttpClient.HttpClient, client))
        const first = yield* Effect.either(gateway.transaction.status("txid_1"))
        expect(Either.isLeft(first) && first.left._tag).toBe("GatewayTransportError")
        expect(Either.isLeft(first) && first.left.message).toContain("transaction.status")
        expect(yield* gateway.dAppName("account_x")).toBe("hSwap")
        expect(calls.count).toBe(2)
      })
  )

  it.effect("an unknown network without a base path fails when the layer is built, before any load", () =>
    Effect.gen(function* () {
      const { client } = recordingHttp()
      const { calls, load } = countingLoader()
      const exit = yield* Effect.exit(
        Effect.provide(Gateway, lazyGateway({ networkId: 99, applicationName: "hSwap" }, load)).pipe(
          Effect.provideService(HttpClient.HttpClient, client)
        )
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(JSON.stringify(exit)).toContain("UnknownNetworkError")
      expect(calls.count).toBe(0)
    })
  )

  it.effect("forwards every member of the real client: each group's methods are there, and nothing else is", () =>
    Effect.gen(function* () {
      const { client } = recordingHttp()
      const module = yield* Effect.promise(loadGatewayPlatformModule)
      const real = yield* module.makeGateway(config).pipe(Effect.provideService(HttpClient.HttpClient, client))
      const lazy = yield* makeLazyGateway(config).pipe(Effect.provideService(HttpClient.HttpClient, client))
      expect(Object.keys(lazy).sort()).toEqual(Object.keys(real).sort())
      for (const [key, value] of Object.entries(real)) {
        if (key === "config") continue
        const forwarded = (lazy as unknown as Record<string, unknown>)[key]
        if (typeof value === "function") {
          expect(typeof forwarded, key).toBe("function")
          continue
        }
        for (const [method, impl] of Object.entries(value as Record<string, unknown>)) {
          expect(typeof impl, `${key}.${method} of the real client`).toBe("function")
          expect(typeof (forwarded as Record<string, unknown>)[method], `${key}.${method}`).toBe("function")
        }
      }
    })
  )

  describe("over fetch itself (the app's)", () => {
    afterEach(() => {
      vi.unstubAllGlobals()
    })

    it.effect("loads Gateway.ts only on the first call and sends with globalThis.fetch, the RDX headers on", () =>
      Effect.gen(function* () {
        const sent: Array<{ url: string; headers: Headers; method: string | undefined }> = []
        vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
          sent.push({ url: String(input), headers: new Headers(init?.headers), method: init?.method })
          return Promise.resolve(metadataPage())
        })
        const loads = { count: 0 }
        const gateway = yield* makeLazyGatewayWithFetch(config, () => {
          loads.count += 1
          return loadGatewayModule()
        })
        expect(loads.count).toBe(0)
        expect(yield* gateway.dAppName("account_x")).toBe("hSwap")
        expect(loads.count).toBe(1)
        expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual(["POST https://gw.test/state/entity/page/metadata"])
        expect(sent[0]?.headers.get("rdx-app-name")).toBe("hSwap")
        expect(sent[0]?.headers.get("content-type")).toBe("application/json")
      })
    )

    it.effect("forwards the same members as the client over an HttpClient", () =>
      Effect.gen(function* () {
        const { client } = recordingHttp()
        const overFetch = yield* makeLazyGatewayWithFetch(config)
        const overClient = yield* makeLazyGateway(config).pipe(Effect.provideService(HttpClient.HttpClient, client))
        expect(Object.keys(overFetch).sort()).toEqual(Object.keys(overClient).sort())
        const real = yield* (yield* Effect.promise(loadGatewayModule)).makeGatewayWithFetch(config)
        expect(Object.keys(real).sort()).toEqual(Object.keys(overFetch).sort())
      })
    )
  })
})
