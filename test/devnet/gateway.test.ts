import { GatewayApiClient } from "@radixdlt/babylon-gateway-api-sdk"
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { Layer, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayEmulator, makeGatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator.js"
import { encodeBech32m } from "../../src/exchange/bech32m.js"
import { gatewayNodeHandler } from "../../src/devnet/gateway/node.js"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { captureLogs, type LogLine, messagesAt } from "../support/logs.js"

const { XRD, hUSDC } = DevnetAddresses.resources
const [user1 = "", user2 = "", user3 = ""] = DevnetAddresses.users
const exchange = DevnetAddresses.exchangeAccount

type Json = Record<string, unknown>

// Each round change is a committed transaction (a new state version), and these tests run on the real clock: rounds
// of an hour keep the state version still within a test.
// The emulator's logs go to `logs`, for the tests to check what it says (an undecodable payload is a warning).
const logs: Array<LogLine> = []
const runtime = ManagedRuntime.make(
  Layer.merge(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }), captureLogs(logs))
)
let emulator: GatewayEmulator
let ledger: Ledger

const post = async (path: string, body?: unknown): Promise<{ status: number; json: Json }> => {
  const response = await runtime.runPromise(emulator.handle({ method: "POST", path, body }))
  // Round-trip through JSON text, as a client would see it.
  return { status: response.status, json: JSON.parse(JSON.stringify(response.json)) as Json }
}

/** The official SDK, reading the emulator in-process through its fetchApi hook. */
const sdk = () =>
  GatewayApiClient.initialize({
    basePath: "http://devnet.invalid/gateway",
    applicationName: "hswap-devnet-test",
    fetchApi: async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url)
      const text = typeof init?.body === "string" ? init.body : ""
      const res = await post(url.pathname.replace(/^\/gateway/, ""), text === "" ? undefined : JSON.parse(text))
      return new Response(JSON.stringify(res.json), {
        status: res.status,
        headers: { "content-type": "application/json" }
      })
    }
  })

const transfer = async (from: number, to: string, resource: string, amount: string, message?: string) => {
  const key = ledger.genesis.users[from as 0 | 1 | 2].key
  const fromAddress = ledger.genesis.users[from as 0 | 1 | 2].address
  const state = await runtime.runPromise(ledger.state)
  const built = await runtime.runPromise(
    buildNotarizedTransaction({
      manifest: new ManifestBuilder()
        .callMethod(fromAddress, "lock_fee", [decimal(5)])
        .callMethod(fromAddress, "withdraw", [address(resource), decimal(amount)])
        .takeAllFromWorktop(resource, (b, id) => b.callMethod(to, "try_deposit_or_abort", [bucket(id), enumeration(0)]))
        .build(),
      signers: [key],
      notary: ledger.genesis.notary,
      startEpochInclusive: state.epoch,
      ...(message === undefined ? {} : { message })
    })
  )
  return built
}

beforeAll(async () => {
  ledger = await runtime.runPromise(Ledger)
  emulator = await runtime.runPromise(makeGatewayEmulator)
})
afterAll(() => runtime.dispose())

describe("devnet gateway emulator", () => {
  it("serves gateway-status, network-configuration and construction with ledger_state", async () => {
    const status = await post("/status/gateway-status")
    expect(status.status).toBe(200)
    expect(status.json["ledger_state"]).toMatchObject({
      network: "localnet",
      epoch: expect.any(Number),
      round: expect.any(Number)
    })
    expect(status.json["release_info"]).toMatchObject({ release_version: expect.any(String) })
    const config = await post("/status/network-configuration")
    expect(config.json["network_id"]).toBe(240)
    expect(config.json["network_name"]).toBe("localnet")
    const wk = config.json["well_known_addresses"] as Record<string, string>
    expect(wk["xrd"]).toBe(XRD)
    for (const value of Object.values(wk)) expect(value).toMatch(/^[a-z_]+_loc1[02-9ac-hj-np-z]+$/)
    const construction = await post("/transaction/construction")
    expect(construction.json["ledger_state"]).toMatchObject({
      network: "localnet",
      state_version: (status.json["ledger_state"] as Json)["state_version"]
    })
  })

  it("submit, status and committed-details with opt-ins; duplicates and rejections as the Gateway answers them", async () => {
    const built = await transfer(0, exchange, hUSDC, "25.5", "swap 25.5 hUSDC")
    const submitted = await post("/transaction/submit", { notarized_transaction_hex: built.notarizedTransactionHex })
    expect(submitted).toEqual({ status: 200, json: { duplicate: false } })
    const again = await post("/transaction/submit", { notarized_transaction_hex: built.notarizedTransactionHex })
    expect(again.json).toEqual({ duplicate: true })

    const status = await post("/transaction/status", { intent_hash: built.intentHash })
    expect(status.json).toMatchObject({
      status: "CommittedSuccess",
      intent_status: "CommittedSuccess",
      known_payloads: [{ status: "CommittedSuccess", payload_status: "CommittedSuccess", handling_status: "Concluded" }]
    })

    const plain = await post("/transaction/committed-details", { intent_hash: built.intentHash })
    const plainTx = plain.json["transaction"] as Json
    expect(plainTx["balance_changes"]).toBeUndefined()
    expect(plainTx["manifest_instructions"]).toBeUndefined()

    const details = await post("/transaction/committed-details", {
      intent_hash: built.intentHash,
      opt_ins: { balance_changes: true, manifest_instructions: true, raw_hex: true, affected_global_entities: true }
    })
    const tx = details.json["transaction"] as Json
    expect(tx).toMatchObject({
      transaction_status: "CommittedSuccess",
      intent_hash: built.intentHash,
      raw_hex: built.notarizedTransactionHex,
      message: { type: "Plaintext", mime_type: "text/plain", content: { type: "String", value: "swap 25.5 hUSDC" } }
    })
    expect(tx["payload_hash"]).toMatch(/^notarizedtransaction_loc1/)
    expect(tx["manifest_instructions"]).toContain("try_deposit_or_abort")
    expect(tx["balance_changes"]).toEqual({
      fungible_fee_balance_changes: [
        {
          type: "FeePayment",
          entity_address: user1,
          resource_address: XRD,
          balance_change: `-${tx["fee_paid"] as string}`
        }
      ],
      fungible_balance_changes: expect.arrayContaining([
        { entity_address: user1, resource_address: hUSDC, balance_change: "-25.5" },
        { entity_address: exchange, resource_address: hUSDC, balance_change: "25.5" }
      ]),
      non_fungible_balance_changes: []
    })
    expect(tx["affected_global_entities"]).toEqual(expect.arrayContaining([user1, exchange, hUSDC]))

    const bad = await post("/transaction/submit", { notarized_transaction_hex: "deadbeef" })
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({ code: 400, details: { type: "InvalidTransactionError" } })
    expect(typeof bad.json["message"]).toBe("string")
    expect(messagesAt(logs, "WARN").filter((m) => m.startsWith("Corrupted notarized tx bytes: "))).toHaveLength(1)

    const unknown = await post("/transaction/status", {
      intent_hash: "txid_loc1hatxlvla7zcmxeclhl07lghgptvy9v8xma8ppehqpztyndjyenfqzhg8ca"
    })
    expect(unknown.json).toMatchObject({ status: "Unknown", intent_status: "Unknown", known_payloads: [] })
    const missing = await post("/transaction/committed-details", {
      intent_hash: "txid_loc1hatxlvla7zcmxeclhl07lghgptvy9v8xma8ppehqpztyndjyenfqzhg8ca"
    })
    expect(missing.status).toBe(404)
    expect(missing.json["details"]).toMatchObject({ type: "TransactionNotFoundError" })
    const subintent = await post("/transaction/subintent-status", {
      subintent_hash: encodeBech32m("subtxid_loc", new Uint8Array(32).fill(9))
    })
    expect(subintent.json).toMatchObject({ subintent_status: "Unknown" })
    // A hash that is not Bech32m, or not of this network, is refused before the ledger is asked (RadixAddressValidator).
    const invalid = (field: string, error: string) => ({
      status: 400,
      json: expect.objectContaining({
        message: "One or more validation errors occurred",
        details: { type: "InvalidRequestError", validation_errors: [{ path: field, errors: [error] }] }
      }) as unknown
    })
    const notBech32m = "'IntentHash' must be a valid Bech32M-encoded RadixAddress."
    expect(await post("/transaction/status", { intent_hash: "x" })).toEqual(invalid("intent_hash", notBech32m))
    expect(await post("/transaction/committed-details", { intent_hash: "txid_loc1qqq" })).toEqual(
      invalid("intent_hash", notBech32m)
    )
    expect(
      await post("/transaction/status", { intent_hash: encodeBech32m("txid_tdx_2_", new Uint8Array(32)) })
    ).toEqual(invalid("intent_hash", "'IntentHash' doesn't belong to this network. Expected network Hrp suffix: loc"))
    expect(await post("/transaction/subintent-status", { subintent_hash: "subtxid_loc1xyz" })).toEqual(
      invalid("subintent_hash", "'SubintentHash' must be a valid Bech32M-encoded RadixAddress.")
    )
  })

  it("state/entity/details: Global and Vault aggregation, resource details, limits and errors", async () => {
    const global = await post("/state/entity/details", { addresses: [user2, hUSDC] })
    const [account, resource] = global.json["items"] as Array<Json>
    expect(account?.["fungible_resources"]).toMatchObject({
      total_count: 6,
      items: expect.arrayContaining([
        { aggregation_level: "Global", resource_address: XRD, amount: "10000", last_updated_at_state_version: 1 }
      ])
    })
    expect(account?.["details"]).toMatchObject({ type: "Component", blueprint_name: "Account" })
    expect(resource?.["details"]).toMatchObject({ type: "FungibleResource", divisibility: 6, total_supply: "1015000" })
    const names = ((resource?.["metadata"] as Json)["items"] as Array<Json>).map((m) => m["key"])
    expect(names).toEqual(expect.arrayContaining(["name", "symbol", "icon_url", "description"]))

    const vault = await post("/state/entity/details", { addresses: [user2], aggregation_level: "Vault" })
    const vaultItem = ((vault.json["items"] as Array<Json>)[0]?.["fungible_resources"] as Json)["items"] as Array<Json>
    expect(vaultItem[0]).toMatchObject({
      aggregation_level: "Vault",
      vaults: { total_count: 1, items: [{ vault_address: expect.stringMatching(/^internal_vault_loc1/) }] }
    })

    const tooMany = await post("/state/entity/details", { addresses: Array.from({ length: 21 }, () => user1) })
    expect(tooMany.status).toBe(400)
    expect(tooMany.json["details"]).toMatchObject({ type: "InvalidRequestError" })
    const invalid = await post("/state/entity/details", { addresses: ["account_rdx1nothing"] })
    expect(invalid.status).toBe(400)
    const unsupported = await post("/state/validators/list", {})
    expect(unsupported.status).toBe(404)
    expect(unsupported.json["message"]).toContain("not supported by devnet")
    const get = await runtime.runPromise(
      emulator.handle({ method: "GET", path: "/status/gateway-status", body: undefined })
    )
    expect(get.status).toBe(405)
  })

  it("stream/transactions: filters, order and cursor", async () => {
    const a = await transfer(2, user1, hUSDC, "1")
    const b = await transfer(2, user2, hUSDC, "2")
    for (const built of [a, b])
      await post("/transaction/submit", { notarized_transaction_hex: built.notarizedTransactionHex })
    const desc = await post("/stream/transactions", { manifest_accounts_withdrawn_from_filter: [user3] })
    expect((desc.json["items"] as Array<Json>).map((t) => t["intent_hash"])).toEqual([b.intentHash, a.intentHash])
    const deposited = await post("/stream/transactions", {
      manifest_accounts_withdrawn_from_filter: [user3],
      manifest_accounts_deposited_into_filter: [user2],
      opt_ins: { balance_changes: true }
    })
    const only = deposited.json["items"] as Array<Json>
    expect(only.map((t) => t["intent_hash"])).toEqual([b.intentHash])
    expect(only[0]?.["balance_changes"]).toBeDefined()
    const page1 = await post("/stream/transactions", {
      affected_global_entities_filter: [user3],
      order: "Asc",
      limit_per_page: 1
    })
    expect((page1.json["items"] as Array<Json>).map((t) => t["intent_hash"])).toEqual([a.intentHash])
    const page2 = await post("/stream/transactions", {
      affected_global_entities_filter: [user3],
      order: "Asc",
      limit_per_page: 1,
      cursor: page1.json["next_cursor"]
    })
    expect((page2.json["items"] as Array<Json>).map((t) => t["intent_hash"])).toEqual([b.intentHash])
    expect(page2.json["next_cursor"]).toBeUndefined()
  })

  it("pages a 250-resource account by 100 with cursors, and the official SDK reads it whole", async () => {
    const holder = ledger.genesis.fund.address
    for (let i = 0; i < 250; i++) {
      await runtime.runPromise(
        ledger.createFungibleResource({
          symbol: `T${i}`,
          name: `Token ${i}`,
          divisibility: 18,
          initialSupply: `${i + 1}`,
          to: holder
        })
      )
    }
    const first = await post("/state/entity/details", { addresses: [holder] })
    const fungibles = (first.json["items"] as Array<Json>)[0]?.["fungible_resources"] as Json
    expect(fungibles["total_count"]).toBe(251)
    expect((fungibles["items"] as Array<Json>).length).toBe(100)
    expect(typeof fungibles["next_cursor"]).toBe("string")
    const stateVersion = (first.json["ledger_state"] as Json)["state_version"]

    const noState = await post("/state/entity/page/fungibles/", { address: holder, cursor: fungibles["next_cursor"] })
    expect(noState.status).toBe(400)
    expect(JSON.stringify(noState.json)).toContain("AtLedgerState.StateVersion is required if cursor is provided")

    const seen = [...(fungibles["items"] as Array<Json>)]
    let cursor = fungibles["next_cursor"]
    while (typeof cursor === "string") {
      const page = await post("/state/entity/page/fungibles/", {
        address: holder,
        cursor,
        at_ledger_state: { state_version: stateVersion }
      })
      expect(page.status).toBe(200)
      seen.push(...(page.json["items"] as Array<Json>))
      cursor = page.json["next_cursor"]
    }
    expect(seen.length).toBe(251)
    expect(new Set(seen.map((s) => s["resource_address"])).size).toBe(251)

    const viaSdk = await sdk().state.getEntityDetailsVaultAggregated(holder)
    expect(viaSdk.fungible_resources.items.length).toBe(251)
    const amounts = new Map(viaSdk.fungible_resources.items.map((r) => [r.resource_address, r.vaults.items[0]?.amount]))
    for (const s of seen) expect(amounts.get(s["resource_address"] as string)).toBe(s["amount"])
  })

  it("the official SDK decodes status, entity details and committed details as the JSON says", async () => {
    const built = await transfer(1, exchange, XRD, "3.5", "hello devnet")
    await post("/transaction/submit", { notarized_transaction_hex: built.notarizedTransactionHex })
    const client = sdk()
    const status = await client.status.getCurrent()
    expect(status.ledger_state.network).toBe("localnet")
    const network = await client.status.getNetworkConfiguration()
    expect(network.well_known_addresses.xrd).toBe(XRD)
    const details = await client.transaction.getCommittedDetails(built.intentHash)
    expect(details.transaction.intent_hash).toBe(built.intentHash)
    expect(details.transaction.balance_changes?.fungible_balance_changes).toEqual(
      expect.arrayContaining([{ entity_address: exchange, resource_address: XRD, balance_change: "3.5" }])
    )
    const txStatus = await client.transaction.getStatus(built.intentHash)
    expect(txStatus.intent_status).toBe("CommittedSuccess")
    const [account] = await client.state.getEntityDetailsVaultAggregated([user2])
    const xrd = account?.fungible_resources.items.find((r) => r.resource_address === XRD)
    const json = await post("/state/entity/details", { addresses: [user2], aggregation_level: "Vault" })
    const jsonXrd = (
      ((json.json["items"] as Array<Json>)[0]?.["fungible_resources"] as Json)["items"] as Array<Json>
    ).find((r) => r["resource_address"] === XRD)
    expect(xrd?.vaults.items[0]?.amount).toBe(((jsonXrd?.["vaults"] as Json)["items"] as Array<Json>)[0]?.["amount"])
    const missing = await client.transaction
      .getCommittedDetails("txid_loc1hatxlvla7zcmxeclhl07lghgptvy9v8xma8ppehqpztyndjyenfqzhg8ca")
      .then(
        () => "found",
        (e: unknown) => e
      )
    expect(missing).toMatchObject({ status: 404, errorResponse: { details: { type: "TransactionNotFoundError" } } })
  })

  it("mounts in node:http on 127.0.0.1 with CORS and the Gateway error shape for bad JSON", async () => {
    const server = createServer((req, res) => {
      void gatewayNodeHandler(emulator, (e) => runtime.runPromise(e))(req, res)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const { port } = server.address() as AddressInfo
    try {
      const base = `http://127.0.0.1:${port}/gateway`
      const ok = await fetch(`${base}/status/gateway-status`, { method: "POST" })
      expect(ok.status).toBe(200)
      expect(ok.headers.get("access-control-allow-origin")).toBe("*")
      const body = (await ok.json()) as Json
      expect(body["ledger_state"]).toMatchObject({ network: "localnet" })
      const preflight = await fetch(`${base}/state/entity/details`, { method: "OPTIONS" })
      expect(preflight.status).toBe(204)
      const bad = await fetch(`${base}/state/entity/details`, { method: "POST", body: "{not json" })
      expect(bad.status).toBe(400)
      expect(await bad.json()).toMatchObject({ message: "Bad http request", code: 400, details: null })
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
