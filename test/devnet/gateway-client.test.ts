import { GatewayApiClient } from "@radixdlt/babylon-gateway-api-sdk"
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { emulatorHttpClientLayer } from "../../src/devnet/gateway/httpClient.js"
import { makeGatewayEmulator, type GatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator.js"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { Gateway } from "../../src/gateway/index.js"

const { XRD, hUSDC } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount
const BASE = "http://devnet.invalid/gateway"

// Each round change is a committed transaction (a new state version), and these tests run on the real clock: rounds
// of an hour keep the state version still within a test.
const runtime = ManagedRuntime.make(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }))
let emulator: GatewayEmulator
let ledger: Ledger

const handle = async (path: string, body: unknown) => {
  const res = await runtime.runPromise(emulator.handle({ method: "POST", path, body }))
  return new Response(JSON.stringify(res.json), { status: res.status, headers: { "content-type": "application/json" } })
}

/** Our client reaches the emulator through the devnet's in-process HttpClient. */
const emulatorHttpClient = Layer.suspend(() => emulatorHttpClientLayer(emulator))

const ours = <A, E>(f: (g: Gateway["Type"]) => Effect.Effect<A, E>) =>
  Effect.runPromise(
    Effect.flatMap(Gateway, f).pipe(
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

const FungibleVaults = Schema.Struct({
  resource_address: Schema.String,
  vaults: Schema.Struct({ items: Schema.Array(Schema.Struct({ amount: Schema.String })) })
})
const EntityAmounts = Schema.Struct({
  address: Schema.String,
  fungible_resources: Schema.Struct({ items: Schema.Array(FungibleVaults) })
})
/** The (address, resource, amount) view of decoded entity details, whatever client decoded them. */
const amounts = (items: unknown) =>
  Schema.decodeUnknownSync(Schema.Array(EntityAmounts))(items).map((i) => [
    i.address,
    i.fungible_resources.items.map((r) => [r.resource_address, r.vaults.items[0]?.amount])
  ])
const pairs = (items: unknown) =>
  Schema.decodeUnknownSync(Schema.Array(FungibleVaults))(items).map(
    (r) => `${r.resource_address}=${r.vaults.items[0]?.amount ?? ""}`
  )

beforeAll(async () => {
  ledger = await runtime.runPromise(Ledger)
  emulator = await runtime.runPromise(makeGatewayEmulator)
})
afterAll(() => runtime.dispose())

describe("the Gateway client and the official SDK read the devnet emulator alike", () => {
  it("status, committed details and entity details decode to identical values", async () => {
    const user = ledger.genesis.users[0]
    const { epoch } = await runtime.runPromise(ledger.state)
    const built = await runtime.runPromise(
      buildNotarizedTransaction({
        manifest: new ManifestBuilder()
          .callMethod(user.address, "lock_fee", [decimal(5)])
          .callMethod(user.address, "withdraw", [address(hUSDC), decimal("12.34")])
          .takeAllFromWorktop(hUSDC, (b, id) =>
            b.callMethod(exchange, "try_deposit_or_abort", [bucket(id), enumeration(0)])
          )
          .build(),
        signers: [user.key],
        notary: ledger.genesis.notary,
        startEpochInclusive: epoch,
        message: "swap 12.34 hUSDC"
      })
    )
    const submitted = await ours((g) => g.transaction.submit(built.notarizedTransactionHex))
    expect(submitted.duplicate).toBe(false)

    const [ourStatus, sdkStatus] = [await ours((g) => g.status.gatewayStatus()), await sdk().status.getCurrent()]
    expect(ourStatus.ledger_state.state_version).toBe(sdkStatus.ledger_state.state_version)
    expect(ourStatus.ledger_state.network).toBe("localnet")

    const ourTxStatus = await ours((g) => g.transaction.status(built.intentHash))
    const sdkTxStatus = await sdk().transaction.getStatus(built.intentHash)
    expect(ourTxStatus.intent_status).toBe("CommittedSuccess")
    expect(ourTxStatus.intent_status).toBe(sdkTxStatus.intent_status)
    expect(ourTxStatus.committed_state_version).toBe(sdkTxStatus.committed_state_version)

    const ourDetails = (await ours((g) => g.transaction.committedDetails(built.intentHash))).transaction
    const sdkDetails = (await sdk().transaction.getCommittedDetails(built.intentHash)).transaction
    expect(ourDetails.intent_hash).toBe(built.intentHash)
    expect(ourDetails.fee_paid).toBe(sdkDetails.fee_paid)
    expect(ourDetails.state_version).toBe(sdkDetails.state_version)
    expect(ourDetails.manifest_instructions).toBe(sdkDetails.manifest_instructions)
    expect(JSON.parse(JSON.stringify(ourDetails.balance_changes))).toEqual(
      JSON.parse(JSON.stringify(sdkDetails.balance_changes))
    )
    expect(sdkDetails.balance_changes?.fungible_balance_changes).toEqual(
      expect.arrayContaining([{ entity_address: exchange, resource_address: hUSDC, balance_change: "12.34" }])
    )

    const accounts = [user.address, exchange, XRD]
    const ourEntities = await ours((g) => g.state.getEntityDetailsVaultAggregated(accounts))
    const sdkEntities = await sdk().state.getEntityDetailsVaultAggregated(accounts)
    expect(amounts(ourEntities)).toEqual(amounts(sdkEntities))
    expect(amounts(ourEntities)[0]?.[1]).toEqual(expect.arrayContaining([[hUSDC, "4987.66"]]))
  })

  it("both page a 250-resource account to the end", async () => {
    const holder = ledger.genesis.dAppDefinition.address
    for (let i = 0; i < 250; i++) {
      await runtime.runPromise(
        ledger.createFungibleResource({
          symbol: `P${i}`,
          name: `Paged ${i}`,
          divisibility: 6,
          initialSupply: `${i}.5`,
          to: holder
        })
      )
    }
    const [ourItem] = await ours((g) => g.state.getEntityDetailsVaultAggregated([holder]))
    const sdkItem = await sdk().state.getEntityDetailsVaultAggregated(holder)
    expect(ourItem?.fungible_resources.items.length).toBe(251)
    expect(sdkItem.fungible_resources.items.length).toBe(251)
    expect(pairs(ourItem?.fungible_resources.items ?? [])).toEqual(pairs(sdkItem.fungible_resources.items))
  })
})
