/**
 * Interop with the official SDK (@radixdlt/babylon-gateway-api-sdk 1.10.1, devDependency): both clients run against
 * the same fake gateway; request bodies and decoded values must match where the SDK is right, and ours must be right
 * where it is not (a second metadata page without `at_ledger_state`).
 */
import { FetchHttpClient } from "@effect/platform"
import { GatewayApiClient, ResponseError } from "@radixdlt/babylon-gateway-api-sdk"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { GatewayService } from "../../src/gateway/index.js"
import { Gateway } from "../../src/gateway/index.js"
import type { FakeGatewayOptions, RecordedCall } from "./fake-gateway.js"
import { accountAddress, fakeFetch, makeFakeGateway } from "./fake-gateway.js"
import { fixture } from "./support.js"

const basePath = "https://interop.gateway.test"
const app = {
  applicationName: "hSwap interop",
  applicationVersion: "1.2.3",
  applicationDappDefinitionAddress: "account_tdx_2_1dapp"
}

const setup = (options: FakeGatewayOptions) => {
  const sdkFake = fakeFetch(makeFakeGateway(options), basePath)
  const ourFake = fakeFetch(makeFakeGateway(options), basePath)
  const sdk = GatewayApiClient.initialize({ basePath, ...app, fetchApi: sdkFake.fetch })
  const ours = <A, E>(use: (g: GatewayService) => Effect.Effect<A, E>) =>
    Effect.flatMap(Gateway, use).pipe(
      Effect.provide(
        Gateway.layer({ basePath, ...app }).pipe(
          Layer.provide(FetchHttpClient.layer),
          Layer.provide(Layer.succeed(FetchHttpClient.Fetch, ourFake.fetch as typeof globalThis.fetch))
        )
      )
    )
  return { sdk, sdkCalls: sdkFake.calls, ours, ourCalls: ourFake.calls }
}

/** Canonical JSON (sorted keys) so bodies compare regardless of key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v
  )

/** The requests as a sorted multiset of `path body` lines (the SDK fires in parallel, so order differs). */
const requestSet = (calls: ReadonlyArray<RecordedCall>) => calls.map((c) => `${c.path} ${canonical(c.body)}`).sort()

const appHeaders = (calls: ReadonlyArray<RecordedCall>) =>
  calls.map((c) => [
    c.headers["rdx-app-name"],
    c.headers["rdx-app-version"],
    c.headers["rdx-app-dapp-definition"],
    c.headers["rdx-client-version"]
  ])

/** account → [[resource, [amounts…]]…] from either client's result. */
const balances = (
  items: ReadonlyArray<{
    readonly address: string
    readonly fungible_resources: { readonly items: ReadonlyArray<unknown> }
  }>
) =>
  items.map((item) => [
    item.address,
    item.fungible_resources.items.map((r) => {
      const resource = r as { resource_address: string; vaults: { items: ReadonlyArray<{ amount: string }> } }
      return [resource.resource_address, resource.vaults.items.map((v) => v.amount)]
    })
  ])

describe("interop with @radixdlt/babylon-gateway-api-sdk 1.10.1", () => {
  const addresses = Array.from({ length: 45 }, (_, i) => accountAddress(i))
  const options = { accounts: 45, fungiblesPerAccount: 7, pageSize: 3 }

  it.live("entity details, chunked and paged, at a given ledger state: same request bodies, same balances", () =>
    Effect.gen(function* () {
      const { sdk, sdkCalls, ours, ourCalls } = setup(options)
      const at = { state_version: 5000 }
      const theirs = yield* Effect.promise(() => sdk.state.getEntityDetailsVaultAggregated(addresses, undefined, at))
      const mine = yield* ours((g) => g.state.getEntityDetailsVaultAggregated(addresses, undefined, at))
      // 3 chunks + 45 × 2 fungible pages (7 resources in pages of 3)
      expect(sdkCalls).toHaveLength(3 + 90)
      expect(requestSet(ourCalls)).toEqual(requestSet(sdkCalls))
      expect(balances(mine)).toEqual(balances(theirs))
      expect(mine[44]?.fungible_resources.items).toHaveLength(7)
      expect(appHeaders(ourCalls.slice(0, 1))).toEqual(appHeaders(sdkCalls.slice(0, 1)))
    })
  )

  it.live("entity details without a ledger state: ours also pins chunks 2 and 3 to the first chunk's state", () =>
    Effect.gen(function* () {
      const { sdk, sdkCalls, ours, ourCalls } = setup(options)
      const theirs = yield* Effect.promise(() => sdk.state.getEntityDetailsVaultAggregated(addresses))
      const mine = yield* ours((g) => g.state.getEntityDetailsVaultAggregated(addresses))
      expect(balances(mine)).toEqual(balances(theirs))
      const details = (calls: ReadonlyArray<RecordedCall>) => calls.filter((c) => c.path === "/state/entity/details")
      const sdkDetails = details(sdkCalls)
      const ourDetails = details(ourCalls)
      expect(ourDetails[0]?.body).toEqual(sdkDetails[0]?.body)
      // the SDK reads each chunk at whatever state the server is at; ours reads all of them at one state
      expect(sdkDetails.map((c) => c.body["at_ledger_state"])).toEqual([undefined, undefined, undefined])
      expect(ourDetails.slice(1).map((c) => c.body["at_ledger_state"])).toEqual([
        { state_version: 1000 },
        { state_version: 1000 }
      ])
      const strip = (calls: ReadonlyArray<RecordedCall>) =>
        requestSet(
          details(calls).map((c) => {
            const { at_ledger_state: _, ...rest } = c.body
            return { ...c, body: rest }
          })
        )
      expect(strip(ourCalls)).toEqual(strip(sdkCalls))
    })
  )

  it.live("transaction status and committed details: same bodies, same decoded values", () =>
    Effect.gen(function* () {
      const { sdk, sdkCalls, ours, ourCalls } = setup({
        accounts: 0,
        fungiblesPerAccount: 0,
        transactionStatus: fixture("transaction_status__committed_success.json"),
        committedDetails: fixture("transaction_committed-details__mainnet_raw_hex_opt_in.json")
      })
      const hash = "txid_rdx1t44y7lrqtrmn0pq4gxgsmn035lh5glws273h0lsff37jnzj2ylls3aeumn"
      const theirStatus = yield* Effect.promise(() => sdk.transaction.getStatus(hash))
      const theirDetails = yield* Effect.promise(() => sdk.transaction.getCommittedDetails(hash))
      const [myStatus, myDetails] = yield* ours((g) =>
        Effect.all([g.transaction.status(hash), g.transaction.committedDetails(hash)])
      )
      expect(ourCalls.map((c) => [c.path, canonical(c.body)])).toEqual(sdkCalls.map((c) => [c.path, canonical(c.body)]))
      expect(myStatus.status).toBe(theirStatus.status)
      expect(myStatus.intent_status).toBe(theirStatus.intent_status)
      expect(myStatus.committed_state_version).toBe(theirStatus.committed_state_version)
      expect(myStatus.known_payloads.map((p) => p.payload_hash)).toEqual(
        theirStatus.known_payloads.map((p) => p.payload_hash)
      )
      expect(myDetails.transaction.fee_paid).toBe(theirDetails.transaction.fee_paid)
      expect(myDetails.transaction.intent_hash).toBe(theirDetails.transaction.intent_hash)
      expect(myDetails.transaction.raw_hex).toBe(theirDetails.transaction.raw_hex)
      expect(myDetails.transaction.state_version).toBe(theirDetails.transaction.state_version)
      expect(myDetails.transaction.receipt?.status).toBe(theirDetails.transaction.receipt?.status)
      // the SDK turns confirmed_at into a Date; ours keeps the ISO string
      expect(myDetails.transaction.confirmed_at).toBe(theirDetails.transaction.confirmed_at?.toISOString())
    })
  )

  it.live(
    "metadata: one page matches; across pages the SDK omits at_ledger_state and fails, ours pins it and succeeds",
    () =>
      Effect.gen(function* () {
        const { sdk, sdkCalls, ours, ourCalls } = setup({
          accounts: 1,
          fungiblesPerAccount: 0,
          metadataPerEntity: 7,
          pageSize: 3
        })
        const address = accountAddress(0)
        const theirPage = yield* Effect.promise(() => sdk.state.getEntityMetadata(address))
        const myPage = yield* ours((g) => g.state.entityMetadataPage({ address }))
        expect(ourCalls[0]?.body).toEqual(sdkCalls[0]?.body)
        expect(myPage.items.map((i) => [i.key, i.value.typed])).toEqual(
          theirPage.items.map((i) => [i.key, i.value.typed])
        )
        expect(myPage.next_cursor).toBe(theirPage.next_cursor)

        const sdkError = yield* Effect.promise(() =>
          sdk.state.getAllEntityMetadata(address).then(
            () => undefined,
            (e: unknown) => e
          )
        )
        expect(sdkError).toBeInstanceOf(ResponseError)
        expect((sdkError as ResponseError).status).toBe(400)
        expect(sdkCalls[2]?.body).toEqual({ address, cursor: theirPage.next_cursor })

        const mine = yield* ours((g) => g.state.getAllEntityMetadata(address))
        expect(mine.map((i) => i.key)).toEqual(["name", "key_1", "key_2", "key_3", "key_4", "key_5", "key_6"])
        expect(ourCalls.slice(1).map((c) => c.body["at_ledger_state"])).toEqual([
          undefined,
          { state_version: 1001 },
          { state_version: 1001 }
        ])
        const name = yield* ours((g) => g.dAppName(address))
        expect(name).toBe(`Name of ${address}`)
      })
  )
})
