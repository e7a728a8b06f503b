import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { readdirSync } from "node:fs"
import {
  StateEntityDetailsResponse,
  TransactionCommittedDetailsResponse,
  TransactionStatusResponse
} from "../../src/gateway/index.js"
import { fakeHttp, fixture, fixtureText, fixturesDir, withGateway } from "./support.js"

const schemaFor = (file: string): ((u: unknown) => unknown) | undefined =>
  file.startsWith("state_entity_details__")
    ? Schema.decodeUnknownSync(StateEntityDetailsResponse)
    : file.startsWith("transaction_status__")
      ? Schema.decodeUnknownSync(TransactionStatusResponse)
      : file.startsWith("transaction_committed-details__")
        ? Schema.decodeUnknownSync(TransactionCommittedDetailsResponse)
        : undefined

describe("Gateway fixtures", () => {
  const files = readdirSync(fixturesDir).filter((f) => f.endsWith(".json"))

  it("has a schema for every fixture file", () => {
    expect(files.length).toBe(6)
    for (const file of files) expect(schemaFor(file), file).toBeDefined()
  })

  for (const file of files) {
    it(`decodes ${file}`, () => {
      const decode = schemaFor(file)
      if (decode === undefined) throw new Error(`no schema for ${file}`)
      expect(() => decode(fixture(file))).not.toThrow()
    })
  }

  it("two accounts, vault aggregated: balances, typed metadata, component details", () => {
    const r = Schema.decodeUnknownSync(StateEntityDetailsResponse)(
      fixture("state_entity_details__two_accounts_vault_aggregated.json")
    )
    expect(r.ledger_state.state_version).toBe(73659327)
    const [first, second] = r.items
    expect(first?.address).toBe("account_tdx_2_129vd0a8epu6wa46nh8fkcjhmxwtwet6mut8rgzef2ng68zh5t04t88")
    const xrd = second?.fungible_resources?.items.find(
      (i) =>
        i.aggregation_level === "Vault" &&
        i.resource_address === "resource_tdx_2_1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxtfd2jc"
    )
    expect(xrd?.aggregation_level).toBe("Vault")
    if (xrd?.aggregation_level !== "Vault") throw new Error("not vault aggregated")
    expect(xrd.vaults.items[0]?.amount).toBe("9998.87481552813")
    const details = first?.details
    expect(details?.type).toBe("Component")
    if (details?.type !== "Component") throw new Error("not a component")
    expect(details.blueprint_name).toBe("Account")
    expect(details.blueprint_version).toBe("1.0.0")
    const ownerKeys = first?.metadata.items.find((m) => m.key === "owner_keys")?.value.typed
    expect(ownerKeys?.type).toBe("PublicKeyHashArray")
    if (ownerKeys?.type !== "PublicKeyHashArray") throw new Error("not a key hash array")
    expect(ownerKeys.values[0]).toEqual({
      key_hash_type: "EddsaEd25519",
      hash_hex: "58d7f4f90f34eed753b9d36c4afb3396ecaf5be2ce340b2954d1a38af4"
    })
    const bright = first?.fungible_resources?.items[0]
    if (bright?.aggregation_level !== "Vault") throw new Error("not vault aggregated")
    const tags = bright.explicit_metadata?.items.find((m) => m.key === "tags")
    expect(tags?.value.typed).toEqual({ type: "StringArray", values: ["Bright"] })
  })

  it("single account: non-fungible vaults without ids, 11 fungibles", () => {
    const r = Schema.decodeUnknownSync(StateEntityDetailsResponse)(
      fixture("state_entity_details__single_account_many_nfts_and_fungibles.json")
    )
    const item = r.items[0]
    expect(item?.fungible_resources?.total_count).toBe(11)
    expect(item?.fungible_resources?.next_cursor).toBeUndefined()
    const nft = item?.non_fungible_resources?.items[0]
    if (nft?.aggregation_level !== "Vault") throw new Error("not vault aggregated")
    expect(nft.vaults.items[0]?.total_count).toBe(10)
    expect(nft.vaults.items[0]?.items).toBeUndefined()
    expect(item?.non_fungible_resources?.items).toHaveLength(5)
  })

  it("fungible resource: divisibility is a number, supply a string, role assignments typed", () => {
    const r = Schema.decodeUnknownSync(StateEntityDetailsResponse)(
      fixture("state_entity_details__single_fungible_resource.json")
    )
    const item = r.items[0]
    const details = item?.details
    if (details?.type !== "FungibleResource") throw new Error("not a fungible resource")
    expect(details.divisibility).toBe(10)
    expect(details.total_supply).toBe("21000000")
    expect(details.role_assignments.entries[0]?.role_key).toEqual({ module: "Main", name: "burner" })
    expect(item?.metadata.items.find((m) => m.key === "symbol")?.value.typed).toEqual({
      type: "String",
      value: "BLISS"
    })
  })

  it("transaction status: committed and pending", () => {
    const committed = Schema.decodeUnknownSync(TransactionStatusResponse)(
      fixture("transaction_status__committed_success.json")
    )
    expect(committed.status).toBe("CommittedSuccess")
    expect(committed.intent_status).toBe("CommittedSuccess")
    expect(committed.committed_state_version).toBe(73648065)
    expect(committed.known_payloads[0]?.handling_status).toBe("Concluded")
    const pending = Schema.decodeUnknownSync(TransactionStatusResponse)(fixture("transaction_status__pending.json"))
    expect(pending.status).toBe("Pending")
    expect(pending.permanently_rejects_at_epoch).toBe(51658)
    expect(pending.committed_state_version).toBeUndefined()
  })

  it("committed details: fee as a string, receipt output with nulls kept opaque", () => {
    const r = Schema.decodeUnknownSync(TransactionCommittedDetailsResponse)(
      fixture("transaction_committed-details__mainnet_raw_hex_opt_in.json")
    )
    expect(r.transaction.fee_paid).toBe("0.25417642453")
    expect(r.transaction.transaction_status).toBe("CommittedSuccess")
    expect(r.transaction.state_version).toBe(5150877)
    expect(r.transaction.raw_hex?.startsWith("4d22030221022104")).toBe(true)
    expect(r.transaction.receipt?.status).toBe("CommittedSuccess")
    expect(r.transaction.receipt?.output).toHaveLength(4)
  })

  it.effect("decodes the fixtures through the client too", () =>
    Effect.gen(function* () {
      const fake = fakeHttp((req) =>
        Effect.succeed({
          body:
            req.path === "/transaction/status"
              ? fixtureText("transaction_status__pending.json")
              : fixtureText("transaction_committed-details__mainnet_raw_hex_opt_in.json")
        })
      )
      const [status, details] = yield* withGateway(fake, (g) =>
        Effect.all([g.transaction.status("txid_x"), g.transaction.committedDetails("txid_x")])
      )
      expect(status.intent_status).toBe("Pending")
      expect(details.transaction.intent_hash).toBe(
        "txid_rdx1t44y7lrqtrmn0pq4gxgsmn035lh5glws273h0lsff37jnzj2ylls3aeumn"
      )
    })
  )
})
