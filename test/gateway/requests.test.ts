import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { GatewayService } from "../../src/gateway/index.js"
import { Gateway, RadixNetwork, RadixNetworkConfigById } from "../../src/gateway/index.js"
import { BasePath, fakeHttp, withGateway, forEachTransport } from "./support.js"

const ls = { state_version: 42 }

/** One call per Gateway path, with the body it must send (`undefined` = no body). */
const calls: ReadonlyArray<{
  readonly path: string
  readonly run: (g: GatewayService) => Effect.Effect<unknown, unknown>
  readonly body: unknown
}> = [
  { path: "/status/gateway-status", run: (g) => g.status.gatewayStatus(), body: undefined },
  { path: "/status/network-configuration", run: (g) => g.status.networkConfiguration(), body: undefined },
  { path: "/transaction/construction", run: (g) => g.transaction.construction(), body: undefined },
  {
    path: "/transaction/preview",
    run: (g) =>
      g.transaction.preview({
        manifest: "CALL_METHOD",
        start_epoch_inclusive: 1,
        nonce: 7,
        flags: { use_free_credit: true }
      }),
    body: { manifest: "CALL_METHOD", start_epoch_inclusive: 1, nonce: 7, flags: { use_free_credit: true } }
  },
  {
    path: "/transaction/preview-v2",
    run: (g) =>
      g.transaction.previewV2({
        preview_transaction: { type: "Compiled", preview_transaction_hex: "0a" },
        opt_ins: { logs: true }
      }),
    body: { preview_transaction: { type: "Compiled", preview_transaction_hex: "0a" }, opt_ins: { logs: true } }
  },
  {
    path: "/transaction/submit",
    run: (g) => g.transaction.submit("4d22"),
    body: { notarized_transaction_hex: "4d22" }
  },
  { path: "/transaction/status", run: (g) => g.transaction.status("txid_1"), body: { intent_hash: "txid_1" } },
  {
    path: "/transaction/subintent-status",
    run: (g) => g.transaction.subintentStatus("subtxid_1"),
    body: { subintent_hash: "subtxid_1" }
  },
  {
    path: "/transaction/committed-details",
    run: (g) => g.transaction.committedDetails("txid_1", { raw_hex: false }),
    body: {
      intent_hash: "txid_1",
      opt_ins: {
        raw_hex: false,
        receipt_events: true,
        receipt_fee_source: true,
        receipt_fee_destination: true,
        receipt_costing_parameters: true,
        receipt_fee_summary: true,
        receipt_state_changes: true,
        affected_global_entities: true,
        balance_changes: true,
        receipt_output: true,
        manifest_instructions: true
      }
    }
  },
  {
    path: "/transaction/account-deposit-pre-validation",
    run: (g) =>
      g.transaction.accountDepositPreValidation({
        account_address: "account_1",
        resource_addresses: ["resource_1"],
        badge: { badge_type: "ResourceBadge", resource_address: "resource_b" }
      }),
    body: {
      account_address: "account_1",
      resource_addresses: ["resource_1"],
      badge: { badge_type: "ResourceBadge", resource_address: "resource_b" }
    }
  },
  {
    path: "/stream/transactions",
    run: (g) =>
      g.stream.transactions({
        limit_per_page: 10,
        kind_filter: "User",
        order: "Asc",
        opt_ins: { balance_changes: true }
      }),
    body: { limit_per_page: 10, kind_filter: "User", order: "Asc", opt_ins: { balance_changes: true } }
  },
  {
    path: "/state/entity/details",
    run: (g) => g.state.entityDetails({ addresses: ["account_1"], aggregation_level: "Global", at_ledger_state: ls }),
    body: {
      addresses: ["account_1"],
      aggregation_level: "Global",
      at_ledger_state: ls,
      opt_ins: { non_fungible_include_nfids: true }
    }
  },
  {
    path: "/state/entity/page/metadata",
    run: (g) => g.state.entityMetadataPage({ address: "account_1", cursor: "c", at_ledger_state: ls }),
    body: { address: "account_1", cursor: "c", at_ledger_state: ls }
  },
  {
    path: "/state/entity/page/schemas",
    run: (g) => g.state.entitySchemaPage({ address: "package_1" }),
    body: { address: "package_1" }
  },
  {
    path: "/state/entity/page/fungibles/",
    run: (g) =>
      g.state.entityFungiblesPage({
        address: "account_1",
        aggregation_level: "Vault",
        opt_ins: { explicit_metadata: ["name"] }
      }),
    body: { address: "account_1", aggregation_level: "Vault", opt_ins: { explicit_metadata: ["name"] } }
  },
  {
    path: "/state/entity/page/fungible-vaults/",
    run: (g) => g.state.entityFungibleVaultsPage({ address: "account_1", resource_address: "resource_1" }),
    body: { address: "account_1", resource_address: "resource_1" }
  },
  {
    path: "/state/entity/page/non-fungibles/",
    run: (g) => g.state.entityNonFungiblesPage({ address: "account_1", opt_ins: { non_fungible_include_nfids: true } }),
    body: { address: "account_1", opt_ins: { non_fungible_include_nfids: true } }
  },
  {
    path: "/state/entity/page/non-fungible-vaults/",
    run: (g) =>
      g.state.entityNonFungibleVaultsPage({ address: "account_1", resource_address: "resource_1", limit_per_page: 5 }),
    body: { address: "account_1", resource_address: "resource_1", limit_per_page: 5 }
  },
  {
    path: "/state/entity/page/non-fungible-vault/ids",
    run: (g) =>
      g.state.entityNonFungibleVaultIdsPage({
        address: "account_1",
        vault_address: "internal_vault_1",
        resource_address: "resource_1"
      }),
    body: { address: "account_1", vault_address: "internal_vault_1", resource_address: "resource_1" }
  },
  {
    path: "/state/key-value-store/keys",
    run: (g) => g.state.keyValueStoreKeys({ key_value_store_address: "internal_keyvaluestore_1" }),
    body: { key_value_store_address: "internal_keyvaluestore_1" }
  },
  {
    path: "/state/key-value-store/data",
    run: (g) =>
      g.state.keyValueStoreData({ key_value_store_address: "internal_keyvaluestore_1", keys: [{ key_hex: "5c0c" }] }),
    body: { key_value_store_address: "internal_keyvaluestore_1", keys: [{ key_hex: "5c0c" }] }
  },
  {
    path: "/state/non-fungible/ids",
    run: (g) => g.state.nonFungibleIds({ resource_address: "resource_1" }),
    body: { resource_address: "resource_1" }
  },
  {
    path: "/state/non-fungible/data",
    run: (g) => g.state.nonFungibleData({ resource_address: "resource_1", non_fungible_ids: ["#1#"] }),
    body: { resource_address: "resource_1", non_fungible_ids: ["#1#"] }
  },
  {
    path: "/state/non-fungible/location",
    run: (g) => g.state.nonFungibleLocation({ resource_address: "resource_1", non_fungible_ids: ["#1#"] }),
    body: { resource_address: "resource_1", non_fungible_ids: ["#1#"] }
  },
  {
    path: "/state/package/page/blueprints",
    run: (g) => g.state.packageBlueprintsPage({ package_address: "package_1" }),
    body: { package_address: "package_1" }
  },
  {
    path: "/state/package/page/codes",
    run: (g) => g.state.packageCodesPage({ package_address: "package_1" }),
    body: { package_address: "package_1" }
  },
  { path: "/state/validators/list", run: (g) => g.state.validatorsList({ cursor: "c" }), body: { cursor: "c" } },
  {
    path: "/state/account/page/resource-preferences",
    run: (g) => g.state.accountResourcePreferencesPage({ account_address: "account_1" }),
    body: { account_address: "account_1" }
  },
  {
    path: "/state/account/page/authorized-depositors",
    run: (g) => g.state.accountAuthorizedDepositorsPage({ account_address: "account_1" }),
    body: { account_address: "account_1" }
  },
  {
    path: "/state/account-locker/page/vaults",
    run: (g) => g.state.accountLockerVaultsPage({ locker_address: "locker_1", account_address: "account_1" }),
    body: { locker_address: "locker_1", account_address: "account_1" }
  },
  {
    path: "/state/account-lockers/touched-at",
    run: (g) =>
      g.state.accountLockersTouchedAt({
        account_lockers: [{ locker_address: "locker_1", account_address: "account_1" }]
      }),
    body: { account_lockers: [{ locker_address: "locker_1", account_address: "account_1" }] }
  },
  {
    path: "/statistics/validators/uptime",
    run: (g) =>
      g.statistics.validatorsUptime({ validator_addresses: ["validator_1"], from_ledger_state: { epoch: 3 } }),
    body: { validator_addresses: ["validator_1"], from_ledger_state: { epoch: 3 } }
  },
  {
    path: "/extensions/resource-holders/page",
    run: (g) => g.extensions.resourceHoldersPage({ resource_address: "resource_1", limit_per_page: 1000 }),
    body: { resource_address: "resource_1", limit_per_page: 1000 }
  },
  {
    path: "/extensions/entities-by-role-requirement/page",
    run: (g) => g.extensions.entitiesByRoleRequirementPage({ resource_address: "resource_1", non_fungible_id: "#1#" }),
    body: { resource_address: "resource_1", non_fungible_id: "#1#" }
  },
  {
    path: "/extensions/entities-by-role-requirement/lookup",
    run: (g) => g.extensions.entitiesByRoleRequirementLookup({ requirements: [{ resource_address: "resource_1" }] }),
    body: { requirements: [{ resource_address: "resource_1" }] }
  },
  {
    path: "/extensions/implicit-requirements/lookup",
    run: (g) =>
      g.extensions.implicitRequirementsLookup({
        requirements: [{ resource_address: "resource_1", non_fungible_id: "[ab]" }]
      }),
    body: { requirements: [{ resource_address: "resource_1", non_fungible_id: "[ab]" }] }
  }
]

forEachTransport(() => {
  describe("Gateway requests", () => {
    it("covers all 36 paths", () => {
      expect(new Set(calls.map((c) => c.path)).size).toBe(36)
    })

    for (const c of calls) {
      it.effect(`POST ${c.path}: body and headers`, () =>
        Effect.gen(function* () {
          const fake = fakeHttp(() => Effect.succeed({ body: {} }))
          // The `{}` answer does not decode; only the request matters here.
          yield* withGateway(fake, (g) => Effect.either(c.run(g)), { retry: { retries: 0 } })
          expect(fake.recorded).toHaveLength(1)
          const [req] = fake.recorded
          expect(req?.method).toBe("POST")
          expect(req?.url).toBe(`${BasePath}${c.path}`)
          expect(req?.body).toEqual(c.body)
          expect(req?.contentType).toBe(c.body === undefined ? undefined : "application/json")
          expect(req?.headers).toMatchObject({
            "rdx-client-name": "hswap-gateway-client",
            "rdx-client-version": "1.10.1",
            "rdx-app-name": "hSwap tests",
            "rdx-app-version": "0.0.1",
            "rdx-app-dapp-definition": "account_tdx_2_1dapp"
          })
          expect(Object.keys(req?.headers ?? {})).not.toContain("traceparent")
        })
      )
    }

    it.effect("unknown header values are 'Unknown'; extra headers never override the RDX ones", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ body: {} }))
        yield* Effect.flatMap(Gateway, (g) => Effect.either(g.transaction.status("txid_1"))).pipe(
          Effect.provide(
            Gateway.layer({
              basePath: BasePath,
              applicationName: "",
              headers: { "x-api-key": "k", "RDX-Client-Version": "0" }
            }).pipe(Layer.provide(fake.layer))
          )
        )
        expect(fake.recorded[0]?.headers).toMatchObject({
          "rdx-app-name": "Unknown",
          "rdx-app-version": "Unknown",
          "rdx-app-dapp-definition": "Unknown",
          "rdx-client-version": "1.10.1",
          "x-api-key": "k"
        })
      })
    )
  })

  describe("Gateway base path", () => {
    const urlFor = (config: Omit<Parameters<typeof Gateway.layer>[0], "applicationName">) =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ body: {} }))
        yield* Effect.flatMap(Gateway, (g) => Effect.either(g.status.gatewayStatus())).pipe(
          Effect.provide(Gateway.layer({ applicationName: "t", ...config }).pipe(Layer.provide(fake.layer)))
        )
        return fake.recorded[0]?.url
      })

    it.effect("basePath wins over networkId, and a trailing slash is dropped", () =>
      Effect.gen(function* () {
        expect(yield* urlFor({ basePath: "http://127.0.0.1:8080/", networkId: 1 })).toBe(
          "http://127.0.0.1:8080/status/gateway-status"
        )
      })
    )
    it.effect("networkId picks the public gateway", () =>
      Effect.gen(function* () {
        expect(yield* urlFor({ networkId: RadixNetwork.Stokenet })).toBe(
          "https://stokenet.radixdlt.com/status/gateway-status"
        )
      })
    )
    it.effect("neither set: mainnet", () =>
      Effect.gen(function* () {
        expect(yield* urlFor({})).toBe("https://mainnet.radixdlt.com/status/gateway-status")
      })
    )
    it.effect("a network id without a public URL (localnet 240, or unknown 99) is a typed UnknownNetworkError", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ body: {} }))
        for (const networkId of [RadixNetwork.LocalNet, 99]) {
          const error = yield* Effect.flip(
            Effect.provide(Gateway, Gateway.layer({ applicationName: "t", networkId }).pipe(Layer.provide(fake.layer)))
          )
          expect(error._tag).toBe("UnknownNetworkError")
          expect(error.networkId).toBe(networkId)
        }
      })
    )
    it("maps every network id of the spec, and localnet without URLs", () => {
      const spec = {
        1: "mainnet",
        2: "stokenet",
        32: "gilganet",
        33: "enkinet",
        34: "hammunet",
        36: "mardunet",
        37: "dumunet"
      }
      for (const [id, name] of Object.entries(spec)) {
        const network = RadixNetworkConfigById[Number(id)]
        expect(network?.gatewayUrl).toContain(name)
        expect(network?.dashboardUrl).toMatch(/^https:\/\//)
      }
      expect(RadixNetworkConfigById[1]?.dashboardUrl).toBe("https://dashboard.radixdlt.com")
      expect(RadixNetworkConfigById[35]?.networkName).toBe("Nergalnet")
      expect(RadixNetworkConfigById[240]).toEqual({ networkName: "Localnet", networkId: 240 })
    })
  })

  describe("RequiredError", () => {
    it.effect("a missing request object names the parameter and sends nothing", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ body: {} }))
        const error = yield* withGateway(fake, (g) =>
          Effect.flip(g.state.entityMetadataPage(undefined as unknown as { address: string }))
        )
        expect(error._tag).toBe("RequiredError")
        if (error._tag !== "RequiredError") return
        expect(error.field).toBe("stateEntityMetadataPageRequest")
        expect(error.message).toContain("stateEntityMetadataPageRequest")
        expect(fake.recorded).toHaveLength(0)
      })
    )
    it.effect("a missing required field names the field", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() => Effect.succeed({ body: {} }))
        const error = yield* withGateway(fake, (g) => Effect.flip(g.transaction.status(undefined as unknown as string)))
        expect(error._tag).toBe("RequiredError")
        if (error._tag !== "RequiredError") return
        expect(error.field).toBe("intent_hash")
        expect(error.path).toBe("/transaction/status")
        expect(fake.recorded).toHaveLength(0)
      })
    )
  })
})
