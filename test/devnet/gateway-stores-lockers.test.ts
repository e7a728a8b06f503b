/**
 * The gateway emulator over HTTP, as an SDK user reaches it: key-value stores and account lockers answered as the
 * Gateway v1.10 answers them for a ledger that has none (404 `EntityNotFoundError` for a well-formed address with
 * nothing behind it, 400 `InvalidEntityError` for another kind of entity, 400 `InvalidRequestError` for a malformed
 * one), through our Gateway client over Node's http; bad bodies (not JSON, wrong types, too large) answered with the
 * Gateway's 400 shapes; and the paths it does not serve answering 404 "not supported by devnet", each listed in README.
 */
import { Effect, Either, ManagedRuntime } from "effect"
import { readFileSync } from "node:fs"
import { type Server, createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeGatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator.js"
import { MAX_BODY_BYTES, gatewayNodeHandler } from "../../src/devnet/gateway/node.js"
import { encodeAddress } from "../../src/devnet/ledger/address.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { Gateway, GatewayResponseError } from "../../src/gateway/index.js"
import { layerNode } from "../../src/gateway/node.js"

const runtime = ManagedRuntime.make(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }))
let server: Server
let base: string

const store = encodeAddress("InternalKeyValueStore", new Uint8Array(29).fill(3))
const locker = encodeAddress("GlobalAccountLocker", new Uint8Array(29).fill(4))
const user = DevnetAddresses.users[0]
const { XRD } = DevnetAddresses.resources
/** A key-value store address of another network (mainnet's `rdx` prefix). */
const mainnetStore = "internal_keyvaluestore_rdx1krnvw2lrk6lugd4zfh4gls2g5vmrmncty5ls8jg5qzajsjrqhq6q0v"

/** Our Gateway client over Node's http to the emulator: the value, or the failure (never thrown). */
const ours = <A, E>(f: (g: Gateway["Type"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.flatMap(Gateway, f).pipe(
      Effect.either,
      Effect.provide(layerNode({ basePath: base, applicationName: "hswap-devnet-test" }))
    )
  )

const failure = <A, E>(e: Either.Either<A, E>) => {
  if (Either.isRight(e)) throw new Error(`expected a failure, got ${JSON.stringify(e.right)}`)
  const error = e.left
  if (!(error instanceof GatewayResponseError)) throw new Error(`expected a GatewayResponseError, got ${String(error)}`)
  return { status: error.status, details: error.details as Record<string, unknown> | undefined }
}

/** A raw POST, for bodies our client would never send. */
const post = async (path: string, body: string | Blob) => {
  const r = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body })
  return { status: r.status, json: (await r.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  const emulator = await runtime.runPromise(makeGatewayEmulator)
  const handle = gatewayNodeHandler(emulator, (effect) => runtime.runPromise(effect))
  server = createServer((req, res) => void handle(req, res))
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  const address = server.address()
  base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/gateway`
})
afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()))
  await runtime.dispose()
})

describe("key-value stores", () => {
  it("a well-formed store address is not found, on both paths", async () => {
    expect(failure(await ours((g) => g.state.keyValueStoreKeys({ key_value_store_address: store })))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: store }
    })
    const data = await ours((g) =>
      g.state.keyValueStoreData({
        key_value_store_address: store,
        keys: [{ key_hex: "5c0c0161" }, { key_json: { kind: "String", value: "a" } }]
      })
    )
    expect(failure(data)).toEqual({ status: 404, details: { type: "EntityNotFoundError", address: store } })
  })

  it("another kind of entity is invalid; a malformed or foreign address is a validation error", async () => {
    expect(failure(await ours((g) => g.state.keyValueStoreKeys({ key_value_store_address: XRD })))).toEqual({
      status: 400,
      details: { type: "InvalidEntityError", address: XRD }
    })
    for (const address of ["internal_keyvaluestore_loc1nope", mainnetStore]) {
      expect(failure(await ours((g) => g.state.keyValueStoreKeys({ key_value_store_address: address })))).toEqual({
        status: 400,
        details: {
          type: "InvalidRequestError",
          validation_errors: [
            { path: "key_value_store_address", errors: [`Invalid address ${address} for network localnet (240)`] }
          ]
        }
      })
    }
  })

  it("keys: none, more than 100, or not hex are refused before the store is looked up", async () => {
    const data = (keys: ReadonlyArray<{ key_hex?: string }>) =>
      ours((g) => g.state.keyValueStoreData({ key_value_store_address: store, keys }))
    expect(failure(await data([]))).toMatchObject({
      status: 400,
      details: { validation_errors: [{ path: "keys", errors: ["'Keys' must not be empty."] }] }
    })
    expect(failure(await data(Array.from({ length: 101 }, () => ({ key_hex: "00" }))))).toMatchObject({
      status: 400,
      details: { validation_errors: [{ path: "keys.Count" }] }
    })
    expect(failure(await data([{ key_hex: "zz" }]))).toMatchObject({
      status: 400,
      details: { validation_errors: [{ path: "keys[0].key_hex", errors: ["'Key Hex' must be HEX-encoded value."] }] }
    })
    expect(failure(await data([{}]))).toMatchObject({
      status: 400,
      details: { validation_errors: [{ path: "keys[0]" }] }
    })
  })
})

describe("account lockers", () => {
  it("vaults of a locker: none exists, so a locker is not found and any other entity is invalid", async () => {
    const vaults = (locker_address: string) =>
      ours((g) => g.state.accountLockerVaultsPage({ locker_address, account_address: user }))
    expect(failure(await vaults(locker))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: locker }
    })
    expect(failure(await vaults(user))).toEqual({ status: 400, details: { type: "InvalidEntityError", address: user } })
    const bad = await ours((g) =>
      g.state.accountLockerVaultsPage({ locker_address: "locker_loc1x", account_address: "account_loc1y" })
    )
    expect(failure(bad)).toEqual({
      status: 400,
      details: {
        type: "InvalidRequestError",
        validation_errors: [
          { path: "locker_address", errors: ["Invalid address locker_loc1x for network localnet (240)"] },
          { path: "account_address", errors: ["Invalid address account_loc1y for network localnet (240)"] }
        ]
      }
    })
    const paged = await ours((g) =>
      g.state.accountLockerVaultsPage({ locker_address: locker, account_address: user, limit_per_page: 0 })
    )
    expect(failure(paged)).toMatchObject({ status: 400, details: { validation_errors: [{ path: "limit_per_page" }] } })
  })

  it("touched-at: no pair is found; an address with nothing behind it is a 404; 1 to 100 pairs", async () => {
    const touched = (account_lockers: ReadonlyArray<{ locker_address: string; account_address: string }>) =>
      ours((g) => g.state.accountLockersTouchedAt({ account_lockers }))
    const none = await touched([{ locker_address: user, account_address: user }])
    if (Either.isLeft(none)) throw new Error(`expected an answer, got ${String(none.left)}`)
    expect(none.right.items).toEqual([])
    expect(none.right.ledger_state.state_version).toBeGreaterThan(0)
    expect(failure(await touched([{ locker_address: locker, account_address: user }]))).toEqual({
      status: 404,
      details: { type: "EntityNotFoundError", address: locker }
    })
    expect(failure(await touched([]))).toMatchObject({
      status: 400,
      details: { validation_errors: [{ path: "account_lockers", errors: ["'Account Lockers' must not be empty."] }] }
    })
    const many = Array.from({ length: 101 }, () => ({ locker_address: locker, account_address: user }))
    expect(failure(await touched(many))).toMatchObject({
      status: 400,
      details: { validation_errors: [{ path: "account_lockers.Count" }] }
    })
    expect(failure(await touched([{ locker_address: locker, account_address: "nope" }]))).toMatchObject({
      status: 400,
      details: { validation_errors: [{ path: "account_lockers[0].account_address" }] }
    })
  })
})

const PATHS = [
  "/state/key-value-store/keys",
  "/state/key-value-store/data",
  "/state/account-locker/page/vaults",
  "/state/account-lockers/touched-at"
] as const

describe("bad bodies on these paths", () => {
  it.each(PATHS)("%s: not JSON is the Gateway's bad http request", async (path) => {
    expect(await post(path, "{nope")).toEqual({
      status: 400,
      json: { message: "Bad http request", code: 400, details: null, trace_id: expect.any(String) }
    })
  })

  it.each(PATHS)("%s: fields of the wrong type are validation errors naming them", async (path) => {
    const answer = await post(
      path,
      JSON.stringify({
        key_value_store_address: 5,
        keys: "k",
        locker_address: [],
        account_address: {},
        account_lockers: 1
      })
    )
    expect(answer.status).toBe(400)
    expect(answer.json["details"]).toMatchObject({ type: "InvalidRequestError" })
    const paths = (answer.json["details"] as { validation_errors: ReadonlyArray<{ path: string }> }).validation_errors
    expect(paths.length).toBeGreaterThan(0)
  })

  it.each(PATHS)("%s: a body over the limit is refused, and the emulator still answers", async (path) => {
    const huge = new Blob([new Uint8Array(MAX_BODY_BYTES + 1024).fill(0x20)])
    // Answered (the rest of the body is read and dropped), never a reset connection.
    const answer = await post(path, huge)
    expect(answer).toMatchObject({ status: 400, json: { message: "Bad http request: the body is too large" } })
    expect(failure(await ours((g) => g.state.keyValueStoreKeys({ key_value_store_address: store }))).status).toBe(404)
  })
})

describe("accounts and identities allocated by a transaction (not derived from a key)", () => {
  const allocatedAccount = encodeAddress("GlobalAccount", new Uint8Array(29).fill(7))
  const allocatedIdentity = encodeAddress("GlobalIdentity", new Uint8Array(29).fill(8))

  it("none was created on the devnet: not found where one is required, left out of the details", async () => {
    const fungibles = await post("/state/entity/page/fungibles/", JSON.stringify({ address: allocatedAccount }))
    expect([fungibles.status, fungibles.json["details"]]).toEqual([
      404,
      { type: "EntityNotFoundError", address: allocatedAccount }
    ])
    const details = await post(
      "/state/entity/details",
      JSON.stringify({ addresses: [allocatedAccount, allocatedIdentity, user] })
    )
    expect(details.status).toBe(200)
    const items = details.json["items"] as ReadonlyArray<{ address: string }>
    expect(items.map((i) => i.address)).toEqual([user])
  })
})

describe("bodies built to make the answer large or the formatting deep", () => {
  it("a million bad items get a short answer: at most 20 validation errors, none echoing a long value", async () => {
    const body = JSON.stringify({ addresses: new Array(1_000_000).fill(1) })
    const answer = await post("/state/entity/details", body)
    expect(answer.status).toBe(400)
    const errors = (answer.json["details"] as { validation_errors: ReadonlyArray<{ path: string; errors: string[] }> })
      .validation_errors
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.length).toBeLessThanOrEqual(20)
    expect(JSON.stringify(answer.json).length).toBeLessThan(10_000)
  })

  it("a 3 MB string where a number goes: every message cut to 200 characters", async () => {
    const body = JSON.stringify({ addresses: [user], at_ledger_state: { state_version: "9".repeat(3_000_000) } })
    const answer = await post("/state/entity/details", body)
    expect(answer.status).toBe(400)
    const errors = (answer.json["details"] as { validation_errors: ReadonlyArray<{ path: string; errors: string[] }> })
      .validation_errors
    expect(errors.map((e) => e.path)).toContain("at_ledger_state.state_version")
    for (const e of errors) for (const m of e.errors) expect(m.length).toBeLessThanOrEqual(200)
    expect(JSON.stringify(answer.json).length).toBeLessThan(10_000)
  })

  it.each([1_000, 3_000, 50_000])("a value %i arrays deep is a 400 InvalidRequestError, not a 500", async (depth) => {
    const answer = await post("/transaction/status", `{"intent_hash":${"[".repeat(depth)}${"]".repeat(depth)}}`)
    expect(answer.status).toBe(400)
    expect(answer.json["details"]).toMatchObject({ type: "InvalidRequestError" })
  })
})

/** The Gateway v1.10 paths the devnet does not serve, and why (README says the same). */
const NOT_SERVED = [
  "/state/validators/list",
  "/statistics/validators/uptime",
  "/state/package/page/blueprints",
  "/state/package/page/codes",
  "/state/entity/page/schemas",
  "/extensions/entities-by-role-requirement/page",
  "/extensions/entities-by-role-requirement/lookup",
  "/extensions/implicit-requirements/lookup",
  "/transaction/preview-v2"
]

describe("paths not served", () => {
  it.each(NOT_SERVED)("%s answers 404 not supported by devnet, and README lists it", async (path) => {
    const answer = await post(path, "{}")
    expect(answer.status).toBe(404)
    expect(String(answer.json["message"])).toContain(`${path} is not supported by devnet`)
    const readme = readFileSync("README.md", "utf8")
    const listed = path.startsWith("/extensions/entities-by-role-requirement/")
      ? readme.includes("/extensions/entities-by-role-requirement/*")
      : readme.includes(`\`${path}\``)
    expect(listed).toBe(true)
  })
})
