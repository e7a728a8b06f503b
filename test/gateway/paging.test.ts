import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, TestClock } from "effect"
import type { Recorded, Reply } from "./support.js"
import { fakeHttp, ledgerState, withGateway, forEachTransport } from "./support.js"

const metadataItem = (key: string, value: string) => ({
  key,
  value: { raw_hex: "5c", programmatic_json: { kind: "String", value }, typed: { type: "String", value } },
  is_locked: false,
  last_updated_at_state_version: 1
})

const emptyCollection = { total_count: 0, items: [] }

const entity = (address: string, extra: Record<string, unknown> = {}) => ({
  address,
  metadata: emptyCollection,
  fungible_resources: emptyCollection,
  non_fungible_resources: emptyCollection,
  ...extra
})

const fungible = (resource: string, amount: string, vaults: Record<string, unknown> = {}) => ({
  aggregation_level: "Vault",
  resource_address: resource,
  vaults: {
    total_count: 1,
    items: [{ vault_address: `internal_vault_${resource}`, amount, last_updated_at_state_version: 5 }],
    ...vaults
  }
})

/** Answers `/state/entity/details` with one entity per requested address, at state version 100. */
const detailsHandler = (req: Recorded): Reply => {
  const body = req.body as { addresses: ReadonlyArray<string> }
  return { body: { ledger_state: ledgerState(100), items: body.addresses.map((a) => entity(a)) } }
}

forEachTransport(() => {
  describe("paging", () => {
    it.effect("getAllEntityMetadata follows next_cursor over 3 pages, pinning at_ledger_state on pages 2 and 3", () =>
      Effect.gen(function* () {
        const pages: Record<string, unknown> = {
          first: { items: [metadataItem("name", "hSwap")], next_cursor: "c2" },
          c2: { items: [metadataItem("description", "d")], next_cursor: "c3" },
          c3: { items: [metadataItem("icon_url", "https://x")], next_cursor: null }
        }
        const fake = fakeHttp((req) => {
          const { cursor } = req.body as { cursor?: string }
          const page = pages[cursor ?? "first"] as object
          // Each page answers at a later state version: only the first one counts.
          return Effect.succeed({
            body: { ledger_state: ledgerState(cursor === undefined ? 100 : 200), address: "account_1", ...page }
          })
        })
        const items = yield* withGateway(fake, (g) => g.state.getAllEntityMetadata("account_1"))
        expect(items.map((i) => i.key)).toEqual(["name", "description", "icon_url"])
        expect(fake.recorded.map((r) => r.body)).toEqual([
          { address: "account_1" },
          { address: "account_1", cursor: "c2", at_ledger_state: { state_version: 100 } },
          { address: "account_1", cursor: "c3", at_ledger_state: { state_version: 100 } }
        ])
      })
    )

    it.effect("getAllValidators and getAllNonFungibleIds pin follow-ups to the first page's state version", () =>
      Effect.gen(function* () {
        const fake = fakeHttp((req) => {
          const { cursor } = req.body as { cursor?: string }
          const next = cursor === undefined ? "v2" : undefined
          if (req.path === "/state/non-fungible/ids")
            return Effect.succeed({
              body: {
                ledger_state: ledgerState(cursor === undefined ? 70 : 71),
                resource_address: "resource_nft",
                non_fungible_ids: { items: [cursor ?? "#1#"], ...(next ? { next_cursor: next } : {}) }
              }
            })
          return Effect.succeed({
            body: {
              ledger_state: ledgerState(cursor === undefined ? 50 : 51),
              validators: { items: [], ...(next ? { next_cursor: next } : {}) }
            }
          })
        })
        const ids = yield* withGateway(fake, (g) =>
          Effect.zipRight(
            g.state.getAllValidators(),
            g.state.getAllNonFungibleIds("resource_nft", undefined, { epoch: 9 })
          )
        )
        expect(ids).toEqual(["#1#", "v2"])
        expect(fake.recorded.map((r) => r.body)).toEqual([
          {},
          { cursor: "v2", at_ledger_state: { state_version: 50 } },
          { resource_address: "resource_nft", at_ledger_state: { epoch: 9 } },
          { resource_address: "resource_nft", cursor: "v2", at_ledger_state: { state_version: 70 } }
        ])
      })
    )

    it.effect(
      "getEntityDetailsVaultAggregated pages fungibles, vaults, non-fungibles, nf ids and metadata, keeping opt-ins",
      () =>
        Effect.gen(function* () {
          const fake = fakeHttp((req) => {
            const body = req.body as Record<string, unknown>
            const ls = { ledger_state: ledgerState(300) }
            switch (req.path) {
              case "/state/entity/details":
                return Effect.succeed({
                  body: {
                    ...ls,
                    items: [
                      entity("account_1", {
                        metadata: { total_count: 2, items: [metadataItem("a", "1")], next_cursor: "m2" },
                        fungible_resources: {
                          total_count: 2,
                          items: [fungible("resource_a", "1.5", { next_cursor: "fv2" })],
                          next_cursor: "f2"
                        },
                        non_fungible_resources: {
                          total_count: 1,
                          items: [
                            {
                              aggregation_level: "Vault",
                              resource_address: "resource_n",
                              vaults: {
                                total_count: 1,
                                items: [
                                  {
                                    vault_address: "internal_vault_n",
                                    total_count: 2,
                                    last_updated_at_state_version: 1,
                                    items: ["#1#"],
                                    next_cursor: "id2"
                                  }
                                ]
                              }
                            }
                          ],
                          next_cursor: "n2"
                        }
                      }),
                      // an internal vault: no resource collections at all
                      { address: "internal_vault_x", metadata: emptyCollection }
                    ]
                  }
                })
              case "/state/entity/page/metadata":
                return Effect.succeed({ body: { ...ls, address: "account_1", items: [metadataItem("b", "2")] } })
              case "/state/entity/page/fungibles/":
                return Effect.succeed({ body: { ...ls, address: "account_1", items: [fungible("resource_b", "7")] } })
              case "/state/entity/page/fungible-vaults/":
                return Effect.succeed({
                  body: {
                    ...ls,
                    address: "account_1",
                    resource_address: body["resource_address"],
                    items: [{ vault_address: "internal_vault_second", amount: "2", last_updated_at_state_version: 3 }]
                  }
                })
              case "/state/entity/page/non-fungibles/":
                return Effect.succeed({ body: { ...ls, address: "account_1", items: [] } })
              case "/state/entity/page/non-fungible-vault/ids":
                return Effect.succeed({
                  body: { ...ls, address: "account_1", resource_address: "resource_n", items: ["#2#"] }
                })
              default:
                return Effect.succeed({ status: 404, body: "no" })
            }
          })
          const items = yield* withGateway(fake, (g) =>
            g.state.getEntityDetailsVaultAggregated(["account_1", "internal_vault_x"], { explicitMetadata: ["name"] })
          )
          const [account, vault] = items
          expect(account?.metadata.items.map((m) => m.key)).toEqual(["a", "b"])
          expect(account?.metadata.next_cursor).toBeUndefined()
          const fungibles = account?.fungible_resources.items.flatMap((r) =>
            r.aggregation_level === "Vault" ? [[r.resource_address, r.vaults.items.map((v) => v.amount)]] : []
          )
          expect(fungibles).toEqual([
            ["resource_a", ["1.5", "2"]],
            ["resource_b", ["7"]]
          ])
          expect(account && "next_cursor" in account.fungible_resources).toBe(false)
          const nf = account?.non_fungible_resources.items[0]
          if (nf?.aggregation_level !== "Vault") throw new Error("not vault aggregated")
          expect(nf.vaults.items[0]?.items).toEqual(["#1#", "#2#"])
          expect(vault?.fungible_resources).toEqual({ total_count: 0, items: [] })
          expect(vault?.non_fungible_resources).toEqual({ total_count: 0, items: [] })

          const sent = (path: string) => fake.recorded.filter((r) => r.path === path).map((r) => r.body)
          const pin = { state_version: 300 }
          expect(sent("/state/entity/details")).toEqual([
            {
              addresses: ["account_1", "internal_vault_x"],
              aggregation_level: "Vault",
              opt_ins: {
                ancestor_identities: false,
                component_royalty_vault_balance: false,
                package_royalty_vault_balance: false,
                non_fungible_include_nfids: true,
                explicit_metadata: ["name"],
                dapp_two_way_links: false,
                native_resource_details: false
              }
            }
          ])
          expect(sent("/state/entity/page/fungibles/")).toEqual([
            {
              address: "account_1",
              cursor: "f2",
              aggregation_level: "Vault",
              at_ledger_state: pin,
              opt_ins: { explicit_metadata: ["name"] }
            }
          ])
          expect(sent("/state/entity/page/non-fungibles/")).toEqual([
            {
              address: "account_1",
              cursor: "n2",
              aggregation_level: "Vault",
              at_ledger_state: pin,
              opt_ins: { explicit_metadata: ["name"], non_fungible_include_nfids: true }
            }
          ])
          expect(sent("/state/entity/page/fungible-vaults/")).toEqual([
            { address: "account_1", resource_address: "resource_a", cursor: "fv2", at_ledger_state: pin }
          ])
          expect(sent("/state/entity/page/non-fungible-vault/ids")).toEqual([
            {
              address: "account_1",
              vault_address: "internal_vault_n",
              resource_address: "resource_n",
              cursor: "id2",
              at_ledger_state: pin
            }
          ])
          expect(sent("/state/entity/page/metadata")).toEqual([
            { address: "account_1", cursor: "m2", at_ledger_state: pin }
          ])
        })
    )
  })

  describe("chunking", () => {
    const addresses = Array.from({ length: 45 }, (_, i) => `account_${i}`)

    /** Every request takes 20 ms on the TestClock, so concurrent ones overlap. */
    const slow = (handler: (req: Recorded) => Reply) =>
      fakeHttp((req) => Effect.as(Effect.sleep("20 millis"), handler(req)))

    it.effect("45 addresses: 3 requests of 20, 20 and 5, merged in input order, at most `concurrency` in flight", () =>
      Effect.gen(function* () {
        const fake = slow(detailsHandler)
        const fiber = yield* Effect.fork(
          withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated(addresses), { concurrency: 2 })
        )
        yield* TestClock.adjust("1 second")
        const items = yield* Fiber.join(fiber)
        expect(items.map((i) => i.address)).toEqual(addresses)
        const bodies = fake.recorded.map(
          (r) => r.body as { addresses: ReadonlyArray<string>; at_ledger_state?: unknown }
        )
        expect(bodies.map((b) => b.addresses.length)).toEqual([20, 20, 5])
        expect(bodies[0]?.at_ledger_state).toBeUndefined()
        // chunks after the first are pinned to the first chunk's ledger state
        expect(bodies[1]?.at_ledger_state).toEqual({ state_version: 100 })
        expect(bodies[2]?.at_ledger_state).toEqual({ state_version: 100 })
        expect(fake.stats.peak).toBe(2)
      })
    )

    it.effect("the in-flight bound holds across nested paging too (maxConcurrency 4)", () =>
      Effect.gen(function* () {
        const many = Array.from({ length: 200 }, (_, i) => `account_${i}`)
        const fake = slow((req) => {
          if (req.path === "/state/entity/page/fungibles/")
            return { body: { ledger_state: ledgerState(100), address: "x", items: [fungible("resource_z", "1")] } }
          const body = req.body as { addresses: ReadonlyArray<string> }
          return {
            body: {
              ledger_state: ledgerState(100),
              items: body.addresses.map((a) => entity(a, { fungible_resources: { items: [], next_cursor: "more" } }))
            }
          }
        })
        const fiber = yield* Effect.fork(
          withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated(many), { maxConcurrency: 4 })
        )
        yield* TestClock.adjust("10 seconds")
        const items = yield* Fiber.join(fiber)
        expect(items).toHaveLength(200)
        expect(items.every((i) => i.fungible_resources.items.length === 1)).toBe(true)
        expect(fake.recorded).toHaveLength(10 + 200)
        expect(fake.stats.peak).toBe(4)
      })
    )

    it.effect("empty input makes no request", () =>
      Effect.gen(function* () {
        const fake = fakeHttp((req) => Effect.succeed(detailsHandler(req)))
        expect(yield* withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated([]))).toEqual([])
        expect(yield* withGateway(fake, (g) => g.state.getNonFungibleData("resource_1", []))).toEqual([])
        expect(fake.recorded).toHaveLength(0)
      })
    )

    it.effect("non-fungible data in chunks of 29, validators uptime in chunks of 200, merged in order", () =>
      Effect.gen(function* () {
        const ids = Array.from({ length: 60 }, (_, i) => `#${i}#`)
        const validators = Array.from({ length: 401 }, (_, i) => `validator_${i}`)
        const fake = fakeHttp((req) => {
          const body = req.body as {
            non_fungible_ids?: ReadonlyArray<string>
            validator_addresses?: ReadonlyArray<string>
          }
          if (req.path === "/state/non-fungible/data")
            return Effect.succeed({
              body: {
                ledger_state: ledgerState(9),
                resource_address: "resource_1",
                non_fungible_id_type: "Integer",
                non_fungible_ids: (body.non_fungible_ids ?? []).map((id) => ({
                  is_burned: false,
                  non_fungible_id: id,
                  last_updated_at_state_version: 1
                }))
              }
            })
          return Effect.succeed({
            body: {
              ledger_state: ledgerState(9),
              validators: {
                items: (body.validator_addresses ?? []).map((address) => ({ address, epochs_active_in: 3 }))
              }
            }
          })
        })
        const [data, uptime] = yield* withGateway(fake, (g) =>
          Effect.all([
            g.state.getNonFungibleData("resource_1", ids),
            g.statistics.getValidatorsUptimeFromTo(validators, new Date("2024-01-01T00:00:00.000Z"), 1234)
          ])
        )
        expect(data.map((d) => d.non_fungible_id)).toEqual(ids)
        expect(uptime.map((u) => u.address)).toEqual(validators)
        const sizes = (path: string, key: "non_fungible_ids" | "validator_addresses") =>
          fake.recorded
            .filter((r) => r.path === path)
            .map((r) => (r.body as Record<string, ReadonlyArray<string>>)[key]?.length)
        expect(sizes("/state/non-fungible/data", "non_fungible_ids")).toEqual([29, 29, 2])
        expect(sizes("/statistics/validators/uptime", "validator_addresses")).toEqual([200, 200, 1])
        const uptimeBody = fake.recorded.find((r) => r.path === "/statistics/validators/uptime")?.body
        expect(uptimeBody).toMatchObject({
          from_ledger_state: { timestamp: "2024-01-01T00:00:00.000Z" },
          at_ledger_state: { state_version: 1234 }
        })
      })
    )
  })

  describe("follow-up rounds (one batch of requests per round)", () => {
    /** Two accounts whose fungibles have a second page; `page` answers each account's page request. */
    const twoAccounts = (page: (address: string, n: number) => Effect.Effect<Reply, "network-down">) => {
      const counts = new Map<string, number>()
      return fakeHttp((req) => {
        const body = req.body as { addresses?: ReadonlyArray<string>; address?: string }
        if (req.path === "/state/entity/details")
          return Effect.succeed({
            body: {
              ledger_state: ledgerState(100),
              items: (body.addresses ?? []).map((a) =>
                entity(a, {
                  fungible_resources: { total_count: 2, items: [fungible(`${a}_r1`, "1")], next_cursor: "f2" }
                })
              )
            }
          })
        const address = body.address ?? ""
        const n = (counts.get(address) ?? 0) + 1
        counts.set(address, n)
        return page(address, n)
      })
    }
    const secondPage = (address: string): Reply => ({
      body: { ledger_state: ledgerState(100), address, items: [fungible(`${address}_r2`, "2")] }
    })

    it.effect("a page that fails with a 500 is retried after 2 s within its round, and the read completes", () =>
      Effect.gen(function* () {
        const fake = twoAccounts((address, n) =>
          Effect.succeed(address === "account_1" && n === 1 ? { status: 500, body: "boom" } : secondPage(address))
        )
        const fiber = yield* Effect.fork(
          withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated(["account_1", "account_2"]))
        )
        yield* TestClock.adjust("1999 millis")
        expect(fake.recorded).toHaveLength(3)
        yield* TestClock.adjust("1 millis")
        const items = yield* Fiber.join(fiber)
        expect(fake.recorded).toHaveLength(4)
        expect(items.map((i) => i.fungible_resources.items.map((r) => r.resource_address))).toEqual([
          ["account_1_r1", "account_1_r2"],
          ["account_2_r1", "account_2_r2"]
        ])
      })
    )

    it.effect("the first page that fails fails the read, once the other pages of its round are aborted", () =>
      Effect.gen(function* () {
        const fake = twoAccounts((address) =>
          address === "account_1" ? Effect.succeed({ status: 400, body: "bad" }) : Effect.never
        )
        const e = yield* Effect.flip(
          withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated(["account_1", "account_2"]))
        )
        expect(e._tag).toBe("GatewayResponseError")
        if (e._tag === "GatewayResponseError") expect(e.status).toBe(400)
        expect(fake.recorded).toHaveLength(3)
        // account_2's page never answers: it was aborted (its handler interrupted) before the read failed.
        expect(fake.stats.inFlight).toBe(0)
      })
    )

    it.effect("interrupting the read aborts the pages of its round in flight", () =>
      Effect.gen(function* () {
        const fake = twoAccounts(() => Effect.never)
        const fiber = yield* Effect.fork(
          withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated(["account_1", "account_2"]))
        )
        yield* TestClock.adjust("1 millis")
        expect(fake.recorded).toHaveLength(3)
        expect(fake.stats.inFlight).toBe(2)
        yield* Fiber.interrupt(fiber)
        expect(fake.stats.inFlight).toBe(0)
      })
    )

    it.effect("a non-vault item on a second page fails the read, naming its index in the whole collection", () =>
      Effect.gen(function* () {
        const fake = twoAccounts((address) =>
          Effect.succeed({
            body: {
              ledger_state: ledgerState(100),
              address,
              items: [
                fungible(`${address}_r2`, "2"),
                { aggregation_level: "Global", resource_address: "r", amount: "1", last_updated_at_state_version: 1 }
              ]
            }
          })
        )
        const e = yield* Effect.flip(withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated(["account_1"])))
        expect(e._tag).toBe("GatewayDecodeError")
        if (e._tag === "GatewayDecodeError")
          expect(e.issues[0]?.path).toBe("account_1.fungible_resources.items.2.aggregation_level")
      })
    )
  })

  describe("connector helpers", () => {
    it.effect("dAppName reads the metadata name, and falls back to 'Unnamed dApp'", () =>
      Effect.gen(function* () {
        const fake = fakeHttp((req) => {
          const { address } = req.body as { address: string }
          const items =
            address === "account_named" ? [metadataItem("description", "x"), metadataItem("name", "Radix Swap")] : []
          return Effect.succeed({ body: { ledger_state: ledgerState(1), address, items } })
        })
        const [named, unnamed] = yield* withGateway(fake, (g) =>
          Effect.all([g.dAppName("account_named"), g.dAppName("account_blank")])
        )
        expect(named).toBe("Radix Swap")
        expect(unnamed).toBe("Unnamed dApp")
        expect(fake.recorded.map((r) => r.path)).toEqual(["/state/entity/page/metadata", "/state/entity/page/metadata"])
      })
    )

    it.effect("stream.getTransactionsList sends the affected-entities filter and cursor", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() =>
          Effect.succeed({
            body: {
              ledger_state: ledgerState(1),
              items: [
                {
                  state_version: 5,
                  epoch: 1,
                  round: 2,
                  round_timestamp: "2024-01-01T00:00:00Z",
                  transaction_status: "CommittedSuccess",
                  intent_hash: "txid_9"
                }
              ],
              next_cursor: "n"
            }
          })
        )
        const page = yield* withGateway(fake, (g) => g.stream.getTransactionsList(["account_1"], "c1"))
        expect(page.items[0]?.intent_hash).toBe("txid_9")
        expect(page.next_cursor).toBe("n")
        expect(fake.recorded[0]?.body).toEqual({ cursor: "c1", affected_global_entities_filter: ["account_1"] })
      })
    )
  })

  describe("vault aggregation contract", () => {
    it.effect("a globally aggregated item in a vault-aggregated answer is a GatewayDecodeError naming where", () =>
      Effect.gen(function* () {
        const fake = fakeHttp(() =>
          Effect.succeed({
            body: {
              ledger_state: ledgerState(1),
              items: [
                entity("account_1", {
                  fungible_resources: {
                    items: [
                      fungible("resource_a", "1"),
                      {
                        aggregation_level: "Global",
                        resource_address: "resource_b",
                        amount: "2",
                        last_updated_at_state_version: 1
                      }
                    ]
                  }
                })
              ]
            }
          })
        )
        const e = yield* Effect.flip(withGateway(fake, (g) => g.state.getEntityDetailsVaultAggregated(["account_1"])))
        expect(e._tag).toBe("GatewayDecodeError")
        if (e._tag !== "GatewayDecodeError") return
        expect(e.issues[0]?.path).toBe("account_1.fungible_resources.items.1.aggregation_level")
      })
    )
  })
})
