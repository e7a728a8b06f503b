import { HttpClient, HttpClientRequest } from "@effect/platform"
import { GatewayApiClient } from "@radixdlt/babylon-gateway-api-sdk"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { emulatorHttpClientLayer } from "../../src/devnet/gateway/httpClient.js"
import { type GatewayEmulator, SUPPORTED_PATHS, makeGatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator.js"
import { derivedResourceAddress, virtualAccountAddress } from "../../src/devnet/ledger/address.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { Gateway, GatewayResponseError } from "../../src/gateway/index.js"

const { XRD, hUSDC } = DevnetAddresses.resources
const BASE = "http://devnet.invalid/gateway"

const runtime = ManagedRuntime.make(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }))
let emulator: GatewayEmulator
let ledger: Ledger

const handle = async (path: string, body: unknown) => {
  const res = await runtime.runPromise(emulator.handle({ method: "POST", path, body }))
  return new Response(JSON.stringify(res.json), { status: res.status, headers: { "content-type": "application/json" } })
}

/** Our client reaches the emulator through the devnet's in-process HttpClient. */
const emulatorHttpClient = Layer.suspend(() => emulatorHttpClientLayer(emulator))

/** Our Gateway client over the emulator: the value, or the failure (never thrown). */
const ours = <A, E>(f: (g: Gateway["Type"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.flatMap(Gateway, f).pipe(
      Effect.either,
      Effect.provide(Gateway.layer({ basePath: BASE, applicationName: "hswap-devnet-test" })),
      Effect.provide(emulatorHttpClient)
    )
  )

const sdk = () =>
  GatewayApiClient.initialize({
    basePath: BASE,
    applicationName: "hswap-devnet-test",
    fetchApi: async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url)
      const text = typeof init?.body === "string" ? init.body : ""
      return handle(url.pathname.replace(/^\/gateway/, ""), text === "" ? undefined : JSON.parse(text))
    }
  })

const value = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected a success, got ${JSON.stringify(e.left)}`)
  return e.right
}

/** The Gateway's answer for a failed call: HTTP status, `details.type`, and the rest of `details`. */
const failure = <A, E>(e: Either.Either<A, E>) => {
  if (Either.isRight(e)) throw new Error(`expected a failure, got ${JSON.stringify(e.right)}`)
  const error = e.left
  if (!(error instanceof GatewayResponseError)) throw new Error(`expected a GatewayResponseError, got ${String(error)}`)
  return { status: error.status, details: error.details as Record<string, unknown> | undefined }
}

/** What both account pages have in common. */
interface AccountPage {
  readonly account_address: string
  readonly total_count?: number | undefined
  readonly next_cursor?: string | undefined
  readonly items: ReadonlyArray<unknown>
}

/** A well-formed resource address that is on no ledger, and an account no transaction ever touched. */
const unknownResource = derivedResourceAddress("not-the-devnet-seed", "nothing")
const untouchedAccount = virtualAccountAddress(new Uint8Array(32).fill(7))

beforeAll(async () => {
  ledger = await runtime.runPromise(Ledger)
  emulator = await runtime.runPromise(makeGatewayEmulator)
})
afterAll(() => runtime.dispose())

describe("paths the devnet serves beyond the product's own", () => {
  it("every one of them is listed as served", () => {
    expect(SUPPORTED_PATHS).toEqual(
      expect.arrayContaining([
        "/transaction/account-deposit-pre-validation",
        "/state/account/page/resource-preferences",
        "/state/account/page/authorized-depositors",
        "/extensions/resource-holders/page",
        "/state/key-value-store/keys",
        "/state/key-value-store/data"
      ])
    )
  })

  it("account deposit pre-validation: Accept everywhere, vaults as the ledger has them, alike for both clients", async () => {
    const user = ledger.genesis.users[0].address
    const request = { account_address: user, resource_addresses: [XRD, hUSDC, unknownResource] }
    const mine = value(await ours((g) => g.transaction.accountDepositPreValidation(request)))
    expect(mine.allows_try_deposit_batch).toBe(true)
    expect(mine.resource_specific_behaviour).toEqual([
      { resource_address: XRD, allows_try_deposit: true },
      { resource_address: hUSDC, allows_try_deposit: true },
      { resource_address: unknownResource, allows_try_deposit: true }
    ])
    expect(mine.deciding_factors.default_deposit_rule).toBe("Accept")
    expect(mine.deciding_factors.is_badge_authorized_depositor ?? undefined).toBeUndefined()
    expect(mine.deciding_factors.resource_specific_details).toEqual([
      { resource_address: XRD, vault_exists: true, is_xrd: true },
      { resource_address: hUSDC, vault_exists: true, is_xrd: false },
      { resource_address: unknownResource, vault_exists: false, is_xrd: false }
    ])
    const theirs = await sdk().transaction.innerClient.accountDepositPreValidation({
      accountDepositPreValidationRequest: request
    })
    expect(theirs.allows_try_deposit_batch).toBe(mine.allows_try_deposit_batch)
    expect(theirs.deciding_factors.resource_specific_details).toEqual(mine.deciding_factors.resource_specific_details)
    expect(theirs.ledger_state.state_version).toBe(mine.ledger_state.state_version)

    // A pre-allocated account that never held anything has no vault; a badge is never an authorized depositor.
    const fresh = value(
      await ours((g) =>
        g.transaction.accountDepositPreValidation({
          account_address: untouchedAccount,
          resource_addresses: [XRD],
          badge: { badge_type: "ResourceBadge", resource_address: hUSDC }
        })
      )
    )
    expect(fresh.deciding_factors).toMatchObject({
      is_badge_authorized_depositor: false,
      resource_specific_details: [{ resource_address: XRD, vault_exists: false, is_xrd: true }]
    })
  })

  it("account deposit pre-validation refuses what the Gateway refuses", async () => {
    const user = ledger.genesis.users[0].address
    const pre = (account_address: string, resource_addresses: ReadonlyArray<string>) =>
      ours((g) => g.transaction.accountDepositPreValidation({ account_address, resource_addresses }))
    expect(failure(await pre(user, []))).toMatchObject({
      status: 400,
      details: { type: "InvalidRequestError", validation_errors: [{ path: "resource_addresses" }] }
    })
    expect(
      failure(
        await pre(
          user,
          Array.from({ length: 21 }, () => XRD)
        )
      )
    ).toMatchObject({
      status: 400,
      details: { type: "InvalidRequestError", validation_errors: [{ path: "resource_addresses.Count" }] }
    })
    expect(failure(await pre(user, ["resource_rdx1nothing"]))).toMatchObject({
      status: 400,
      details: { type: "InvalidRequestError", validation_errors: [{ path: "resource_addresses[0]" }] }
    })
    expect(failure(await pre(hUSDC, [XRD]))).toEqual({
      status: 400,
      details: { type: "InvalidEntityError", address: hUSDC }
    })
    expect(failure(await pre(unknownResource, [XRD]))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: unknownResource }
    })
  })

  it("account resource preferences and authorized depositors: empty pages, and the Gateway's errors", async () => {
    const user = ledger.genesis.users[0].address
    type AccountPageBody = { account_address: string; cursor?: string }
    const pages = [
      (g: Gateway["Type"], body: AccountPageBody) =>
        Effect.map(g.state.accountResourcePreferencesPage(body), (r): AccountPage => r),
      (g: Gateway["Type"], body: AccountPageBody) =>
        Effect.map(g.state.accountAuthorizedDepositorsPage(body), (r): AccountPage => r)
    ]
    for (const call of pages) {
      const page = (body: AccountPageBody) => ours((g) => call(g, body))
      const mine = value(await page({ account_address: user }))
      expect(mine).toMatchObject({ account_address: user, total_count: 0, items: [] })
      expect(mine.next_cursor ?? undefined).toBeUndefined()
      expect(value(await page({ account_address: untouchedAccount }))).toMatchObject({
        total_count: 0,
        items: []
      })
      expect(failure(await page({ account_address: XRD }))).toEqual({
        status: 400,
        details: { type: "InvalidEntityError", address: XRD }
      })
      expect(failure(await page({ account_address: unknownResource }))).toEqual({
        status: 404,
        details: { type: "EntityNotFoundError", address: unknownResource }
      })
      expect(failure(await page({ account_address: user, cursor: "eyJvIjoxMDB9" }))).toMatchObject({
        status: 400,
        details: { type: "InvalidRequestError", validation_errors: [{ path: "at_ledger_state" }] }
      })
    }
    const preferences = await sdk().state.innerClient.accountResourcePreferencesPage({
      stateAccountResourcePreferencesPageRequest: { account_address: user }
    })
    expect(preferences).toMatchObject({ account_address: user, total_count: 0, items: [] })
    const depositors = await sdk().state.innerClient.accountAuthorizedDepositorsPage({
      stateAccountAuthorizedDepositorsPageRequest: { account_address: user }
    })
    expect(depositors).toMatchObject({ account_address: user, total_count: 0, items: [] })
  })

  it("resource holders: most first, paged by cursor, the same through the SDK's helper", async () => {
    const holders = (
      await runtime.runPromise(
        Effect.forEach(ledger.genesis.users, (u) =>
          Effect.map(ledger.balance(u.address, hUSDC), (amount) => ({ u, amount }))
        )
      )
    ).filter((h) => h.amount !== "0")
    expect(holders.length).toBeGreaterThan(1)
    const all = value(await ours((g) => g.extensions.resourceHoldersPage({ resource_address: hUSDC })))
    expect(all.total_count).toBeGreaterThanOrEqual(holders.length)
    const amounts = all.items.map((i) => Number("amount" in i ? String(i.amount) : "NaN"))
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a))
    for (const h of holders) {
      expect(all.items).toContainEqual(
        expect.objectContaining({ type: "FungibleResource", holder_address: h.u.address, amount: h.amount })
      )
    }

    const firstPage = value(
      await ours((g) => g.extensions.resourceHoldersPage({ resource_address: hUSDC, limit_per_page: 2 }))
    )
    expect(firstPage.items).toEqual(all.items.slice(0, 2))
    expect(firstPage.next_cursor).toBeDefined()
    const secondPage = value(
      await ours((g) =>
        g.extensions.resourceHoldersPage({
          resource_address: hUSDC,
          limit_per_page: 2,
          cursor: firstPage.next_cursor
        })
      )
    )
    expect(secondPage.items).toEqual(all.items.slice(2, 4))

    const theirs = await sdk().extensions.getResourceHolders(hUSDC)
    expect(JSON.parse(JSON.stringify(theirs.items))).toEqual(JSON.parse(JSON.stringify(all.items)))
  })

  it("resource holders: unknown resource, wrong entity, bad page size, a badge nobody holds", async () => {
    const page = (body: { resource_address: string; limit_per_page?: number }) =>
      ours((g) => g.extensions.resourceHoldersPage(body))
    expect(failure(await page({ resource_address: unknownResource }))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: unknownResource }
    })
    const user = ledger.genesis.users[0].address
    expect(failure(await page({ resource_address: user }))).toEqual({
      status: 400,
      details: { type: "InvalidEntityError", address: user }
    })
    expect(failure(await page({ resource_address: untouchedAccount }))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: untouchedAccount }
    })
    // 0, and a number past the Gateway's 32-bit int (which does not bind there).
    for (const limit_per_page of [0, 3_000_000_000]) {
      const refused = failure(await page({ resource_address: hUSDC, limit_per_page }))
      expect(refused).toMatchObject({ status: 400, details: { type: "InvalidRequestError" } })
      const errors = (refused.details as { validation_errors: ReadonlyArray<{ path: string }> }).validation_errors
      expect(new Set(errors.map((e) => e.path))).toEqual(new Set(["limit_per_page"]))
    }
    const config = value(await ours((g) => g.status.networkConfiguration()))
    const badge = config.well_known_addresses.ed25519_signature_virtual_badge
    expect(value(await page({ resource_address: badge }))).toMatchObject({ total_count: 0, items: [] })
  })

  it("key-value stores through the client: none exists, so a store is not found and other entities are invalid", async () => {
    const user = ledger.genesis.users[0].address
    const data = (key_value_store_address: string) =>
      ours((g) => g.state.keyValueStoreData({ key_value_store_address, keys: [{ key_hex: "5c0c0161" }] }))
    expect(failure(await data(unknownResource))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: unknownResource }
    })
    expect(failure(await data(untouchedAccount))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: untouchedAccount }
    })
    expect(failure(await data(user))).toEqual({ status: 400, details: { type: "InvalidEntityError", address: user } })
    expect(failure(await ours((g) => g.state.keyValueStoreKeys({ key_value_store_address: XRD })))).toEqual({
      status: 400,
      details: { type: "InvalidEntityError", address: XRD }
    })
    expect(failure(await ours((g) => g.state.keyValueStoreKeys({ key_value_store_address: unknownResource })))).toEqual(
      {
        status: 404,
        details: { type: "EntityNotFoundError", address: unknownResource }
      }
    )
    const sdkMissing = await sdk()
      .state.innerClient.keyValueStoreData({
        stateKeyValueStoreDataRequest: { key_value_store_address: unknownResource, keys: [{ key_hex: "5c0c0161" }] }
      })
      .then(
        () => "found",
        (e: unknown) => e
      )
    expect(sdkMissing).toMatchObject({ status: 404, errorResponse: { details: { type: "EntityNotFoundError" } } })
  })

  it("the in-process HttpClient answers a body that is not JSON as the Gateway's bad request", async () => {
    const answer = await Effect.runPromise(
      Effect.flatMap(HttpClient.HttpClient, (client) =>
        client.execute(HttpClientRequest.bodyText(HttpClientRequest.post(`${BASE}/status/gateway-status`), "{nope"))
      ).pipe(
        Effect.flatMap((res) => Effect.map(res.json, (json) => ({ status: res.status, json }))),
        Effect.provide(emulatorHttpClient)
      )
    )
    expect(answer).toMatchObject({ status: 400, json: { message: "Bad http request", code: 400, details: null } })
  })
})
