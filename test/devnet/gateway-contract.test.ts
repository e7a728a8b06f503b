/**
 * The Gateway contract: one set of cases, each checked against the devnet emulator AND against the real Gateway's
 * response — recorded (shared `fixtures/gateway/`, Stokenet/Mainnet) or written down from the Gateway v1.10.1
 * source (`fixtures/`, each naming its source). Compared: the status code, the error shape (`message`, `code`,
 * `details.type`, `trace_id`), the named fields' values and the presence of the named fields (opt-ins).
 */
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { Layer, ManagedRuntime } from "effect"
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayEmulator, makeGatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator.js"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { captureLogs, type LogLine, messagesAt } from "../support/logs.js"

type Json = Record<string, unknown>
interface Answer {
  readonly status: number
  readonly json: Json
}

const recorded = (name: string): Answer => ({
  status: 200,
  json: JSON.parse(readFileSync(new URL(`../../../shared/fixtures/gateway/${name}`, import.meta.url), "utf8")) as Json
})
const fromSource = (name: string): Answer & { readonly request: Json | undefined } => {
  const file = JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as Json
  return { status: file["status"] as number, json: file["body"] as Json, request: file["request"] as Json | undefined }
}

/** The value at a dotted path (`a.b.0.c`), undefined when any step is absent. */
const at = (json: unknown, path: string): unknown =>
  path
    .split(".")
    .reduce<unknown>((v, key) => (typeof v === "object" && v !== null ? (v as Json)[key] : undefined), json)

const { XRD, hUSDC } = DevnetAddresses.resources
const [user1 = "", user2 = ""] = DevnetAddresses.users

// Each round change is a committed transaction (a new state version), and these tests run on the real clock: rounds
// of an hour keep the state version still within a test.
// The emulator's logs go to `logs` (the Gateway logs an undecodable payload as a warning; the tests check it is said).
const logs: Array<LogLine> = []
const runtime = ManagedRuntime.make(
  Layer.merge(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }), captureLogs(logs))
)
let emulator: GatewayEmulator
let ledger: Ledger

const post = async (path: string, body?: unknown): Promise<Answer> => {
  const response = await runtime.runPromise(emulator.handle({ method: "POST", path, body }))
  return { status: response.status, json: JSON.parse(JSON.stringify(response.json)) as Json }
}

const transferHex = async (signer: 0 | 1, from: string, amount: string) => {
  const { epoch } = await runtime.runPromise(ledger.state)
  return runtime.runPromise(
    buildNotarizedTransaction({
      manifest: new ManifestBuilder()
        .callMethod(from, "lock_fee", [decimal(5)])
        .callMethod(from, "withdraw", [address(hUSDC), decimal(amount)])
        .takeAllFromWorktop(hUSDC, (b, id) => b.callMethod(user2, "try_deposit_or_abort", [bucket(id), enumeration(0)]))
        .build(),
      signers: [ledger.genesis.users[signer].key],
      notary: ledger.genesis.notary,
      startEpochInclusive: epoch
    })
  )
}

interface Case {
  readonly name: string
  readonly real: Answer
  readonly emulator: () => Promise<Answer>
  /** Paths whose values must be equal in both. */
  readonly equal?: ReadonlyArray<string>
  /** Paths that must be present in both, or absent in both. */
  readonly presence?: ReadonlyArray<string>
}

let committed: { intentHash: string; hex: string }
let pendingIntent: string

beforeAll(async () => {
  ledger = await runtime.runPromise(Ledger)
  emulator = await runtime.runPromise(makeGatewayEmulator)
  const ok = await transferHex(0, user1, "1")
  expect((await post("/transaction/submit", { notarized_transaction_hex: ok.notarizedTransactionHex })).status).toBe(
    200
  )
  committed = { intentHash: ok.intentHash, hex: ok.notarizedTransactionHex }
  // Signed by user2 while user1's account locks the fee: the owner's proof is missing — a temporary rejection.
  const unsigned = await transferHex(1, user1, "2")
  pendingIntent = unsigned.intentHash
  const submitted = await post("/transaction/submit", { notarized_transaction_hex: unsigned.notarizedTransactionHex })
  expect(submitted).toEqual({ status: 200, json: { duplicate: false } })
})
afterAll(() => runtime.dispose())

const errorShape = ["message", "code", "details", "details.type", "trace_id"]

const cases: ReadonlyArray<Case> = [
  {
    name: "status of a committed transaction (recorded, Stokenet)",
    real: recorded("transaction_status__committed_success.json"),
    emulator: () => post("/transaction/status", { intent_hash: committed.intentHash }),
    equal: [
      "status",
      "intent_status",
      "intent_status_description",
      "known_payloads.0.status",
      "known_payloads.0.payload_status",
      "known_payloads.0.payload_status_description",
      "known_payloads.0.handling_status",
      "known_payloads.0.handling_status_reason"
    ],
    presence: ["ledger_state.state_version", "committed_state_version", "permanently_rejects_at_epoch", "error_message"]
  },
  {
    name: "status of a payload the Gateway is still handling (recorded, Stokenet; legacy status Pending)",
    real: recorded("transaction_status__pending.json"),
    emulator: () => post("/transaction/status", { intent_hash: pendingIntent }),
    equal: [
      "status",
      "known_payloads.0.status",
      "known_payloads.0.handling_status",
      "known_payloads.0.handling_status_reason"
    ],
    presence: ["committed_state_version", "permanently_rejects_at_epoch", "known_payloads.0.payload_hash"]
  },
  {
    name: "status of a temporarily rejected payload (source)",
    real: fromSource("status__likely_rejection.json"),
    emulator: () => post("/transaction/status", { intent_hash: pendingIntent }),
    equal: [
      "status",
      "intent_status",
      "intent_status_description",
      "known_payloads.0.status",
      "known_payloads.0.payload_status",
      "known_payloads.0.payload_status_description",
      "known_payloads.0.handling_status",
      "known_payloads.0.handling_status_reason"
    ],
    presence: [
      "committed_state_version",
      "permanently_rejects_at_epoch",
      "error_message",
      "known_payloads.0.error_message",
      "known_payloads.0.latest_error_message"
    ]
  },
  {
    name: "a temporary rejection answers 200, duplicate false (source)",
    real: fromSource("submit__temporary_rejection.json"),
    emulator: async () => {
      const again = await transferHex(1, user1, "3")
      return post("/transaction/submit", { notarized_transaction_hex: again.notarizedTransactionHex })
    },
    equal: ["duplicate"]
  },
  {
    name: "a non-hex payload is InvalidRequestError with validation_errors (source)",
    real: fromSource("submit__non_hex.json"),
    emulator: () => post("/transaction/submit", { notarized_transaction_hex: "zz" }),
    equal: ["message", "code", "details.type", "details.validation_errors"],
    presence: errorShape
  },
  {
    name: "an empty payload is InvalidRequestError with validation_errors (source)",
    real: fromSource("submit__empty.json"),
    emulator: () => post("/transaction/submit", { notarized_transaction_hex: "" }),
    equal: ["message", "code", "details.type", "details.validation_errors"],
    presence: errorShape
  },
  {
    name: "hex that is no notarized transaction is InvalidTransactionError 'Expected notarized transaction' (source)",
    real: fromSource("submit__undecodable.json"),
    emulator: () => post("/transaction/submit", { notarized_transaction_hex: "4d22030221" }),
    equal: ["message", "code", "details.type"],
    presence: errorShape
  },
  {
    name: "status of a payload refused at submit is Unknown (source)",
    real: fromSource("status__unknown_after_submit_refusal.json"),
    emulator: async () => {
      const built = await runtime.runPromise(
        buildNotarizedTransaction({
          manifest: new ManifestBuilder().callMethod(user1, "lock_fee", [decimal(5)]).build(),
          signers: [ledger.genesis.users[0].key],
          notary: ledger.genesis.notary,
          startEpochInclusive: 50 // beyond the current epoch + 1: the Gateway's own epoch check
        })
      )
      const refused = await post("/transaction/submit", { notarized_transaction_hex: built.notarizedTransactionHex })
      expect(refused.status).toBe(400)
      expect(at(refused.json, "details.type")).toBe("InvalidTransactionError")
      expect(refused.json["message"]).toMatch(
        /^Transaction start epoch 50 is not yet close enough to current epoch \d+$/
      )
      return post("/transaction/status", { intent_hash: built.intentHash })
    },
    equal: ["status", "intent_status", "intent_status_description", "known_payloads"],
    presence: ["permanently_rejects_at_epoch", "error_message", "committed_state_version"]
  },
  {
    name: "entity details: a fungible resource (recorded, Stokenet)",
    real: recorded("state_entity_details__single_fungible_resource.json"),
    emulator: () => post("/state/entity/details", { addresses: [hUSDC], opt_ins: { explicit_metadata: ["name"] } }),
    equal: ["items.0.details.type"],
    presence: [
      "items.0.fungible_resources",
      "items.0.non_fungible_resources",
      "items.0.metadata.items",
      "items.0.explicit_metadata",
      "items.0.details.role_assignments.owner",
      "items.0.details.divisibility",
      "items.0.details.total_supply",
      "items.0.details.total_minted",
      "items.0.details.total_burned"
    ]
  },
  {
    name: "entity details: accounts, Vault aggregation, explicit metadata (recorded, Stokenet)",
    real: recorded("state_entity_details__two_accounts_vault_aggregated.json"),
    emulator: () =>
      post("/state/entity/details", {
        addresses: [user1, user2],
        aggregation_level: "Vault",
        opt_ins: { explicit_metadata: ["name"] }
      }),
    equal: ["items.0.details.type", "items.0.fungible_resources.items.0.aggregation_level"],
    presence: [
      "items.1",
      "items.0.explicit_metadata",
      "items.0.details.package_address",
      "items.0.details.blueprint_name",
      "items.0.details.role_assignments",
      "items.0.fungible_resources.items.0.vaults.items.0.vault_address",
      "items.0.fungible_resources.items.0.vaults.items.0.amount",
      "items.0.fungible_resources.items.0.vaults.items.0.last_updated_at_state_version",
      "items.0.fungible_resources.items.0.explicit_metadata"
    ]
  },
  {
    name: "entity details: a well-formed address not on the ledger is omitted, 200 (source)",
    real: fromSource("entity_details__unknown_omitted.json"),
    emulator: () => post("/state/entity/details", { addresses: [unknownResource] }),
    equal: ["items"]
  },
  {
    name: "committed details with raw_hex: receipt has status and output only (recorded, Mainnet spec example)",
    real: recorded("transaction_committed-details__mainnet_raw_hex_opt_in.json"),
    emulator: () =>
      post("/transaction/committed-details", { intent_hash: committed.intentHash, opt_ins: { raw_hex: true } }),
    equal: ["transaction.transaction_status", "transaction.receipt.status"],
    presence: [
      "transaction.raw_hex",
      "transaction.payload_hash",
      "transaction.intent_hash",
      "transaction.fee_paid",
      "transaction.confirmed_at",
      "transaction.receipt.output",
      "transaction.receipt.output.0.hex",
      "transaction.receipt.fee_summary",
      "transaction.receipt.fee_source",
      "transaction.receipt.fee_destination",
      "transaction.receipt.costing_parameters",
      "transaction.receipt.state_updates",
      "transaction.receipt.events",
      "transaction.affected_global_entities",
      "transaction.balance_changes",
      "transaction.manifest_instructions"
    ]
  },
  {
    name: "committed details with every receipt opt-in (source)",
    real: fromSource("committed_details__all_receipt_opt_ins.json"),
    emulator: () =>
      post("/transaction/committed-details", {
        intent_hash: committed.intentHash,
        ...(fromSource("committed_details__all_receipt_opt_ins.json").request ?? {})
      }),
    equal: ["transaction.transaction_status", "transaction.receipt.status"],
    presence: [
      "transaction.raw_hex",
      "transaction.receipt.output",
      "transaction.receipt.fee_summary",
      "transaction.receipt.fee_source",
      "transaction.receipt.fee_destination",
      "transaction.receipt.costing_parameters",
      "transaction.receipt.state_updates",
      "transaction.receipt.events",
      "transaction.receipt.detailed_events",
      "transaction.affected_global_entities",
      "transaction.balance_changes",
      "transaction.manifest_instructions",
      "transaction.manifest_classes"
    ]
  },
  {
    name: "committed details of an unknown intent: TransactionNotFoundError (source)",
    real: fromSource("committed_details__not_found.json"),
    emulator: () => post("/transaction/committed-details", { intent_hash: pendingIntent }),
    equal: ["message", "code", "details.type"],
    presence: [...errorShape, "details.intent_hash"]
  },
  {
    name: "non-fungible ids of an unknown resource: EntityNotFoundError (source)",
    real: fromSource("non_fungible_ids__unknown_resource.json"),
    emulator: () => post("/state/non-fungible/ids", { resource_address: unknownResource }),
    equal: ["message", "code", "details.type"],
    presence: [...errorShape, "details.address"]
  },
  {
    name: "non-fungible ids of a fungible resource: InvalidEntityError (source)",
    real: fromSource("non_fungible_ids__fungible_resource.json"),
    emulator: () => post("/state/non-fungible/ids", { resource_address: XRD }),
    equal: ["message", "code", "details.type"],
    presence: [...errorShape, "details.address"]
  },
  {
    name: "key-value store data of an unknown store: EntityNotFoundError (source)",
    real: fromSource("key_value_store_data__unknown.json"),
    emulator: () =>
      post("/state/key-value-store/data", {
        key_value_store_address: unknownResource,
        keys: [{ key_hex: "5c0c0161" }]
      }),
    equal: ["message", "code", "details.type"],
    presence: [...errorShape, "details.address"]
  }
]

/** A well-formed resource address that is on no ledger (the devnet's hUSDC with a different body). */
let unknownResource = ""

describe("Gateway contract: the emulator answers as the real Gateway v1.10.1", () => {
  beforeAll(async () => {
    const { derivedResourceAddress } = await import("../../src/devnet/ledger/address.js")
    unknownResource = derivedResourceAddress("not-the-devnet-seed", "nothing")
  })

  for (const c of cases) {
    it(c.name, async () => {
      const mine = await c.emulator()
      expect(mine.status, JSON.stringify(mine.json)).toBe(c.real.status)
      for (const path of c.equal ?? []) expect(at(mine.json, path), path).toEqual(at(c.real.json, path))
      for (const path of c.presence ?? []) {
        expect(at(mine.json, path) !== undefined, `${path} present`).toBe(at(c.real.json, path) !== undefined)
      }
      if (c.real.status >= 400) expect(mine.json["code"]).toBe(mine.status)
    })
  }

  it("no error message prints [object Object]", async () => {
    const answers = await Promise.all([
      post("/transaction/submit", { notarized_transaction_hex: "4d22030221" }),
      post("/transaction/submit", { notarized_transaction_hex: committed.hex.slice(0, committed.hex.length - 8) }),
      post("/transaction/submit", { notarized_transaction_hex: "00".repeat(40) })
    ])
    for (const a of answers) expect(JSON.stringify(a.json)).not.toContain("[object Object]")
    // Each undecodable payload is logged as the Gateway logs it, with the toolkit's own error as readable text.
    const corrupt = messagesAt(logs, "WARN").filter((m) => m.startsWith("Corrupted notarized tx bytes: "))
    expect(corrupt.length).toBeGreaterThanOrEqual(3)
    for (const m of corrupt) expect(m).not.toContain("[object Object]")
  })

  it("the well-known non-fungible badges are served; their collections are empty", async () => {
    const config = await post("/status/network-configuration")
    const badge = at(config.json, "well_known_addresses.ed25519_signature_virtual_badge") as string
    const details = await post("/state/entity/details", { addresses: [badge] })
    expect(at(details.json, "items.0.details")).toMatchObject({
      type: "NonFungibleResource",
      non_fungible_id_type: "Bytes"
    })
    const ids = await post("/state/non-fungible/ids", { resource_address: badge })
    expect(ids.json).toMatchObject({ resource_address: badge, non_fungible_ids: { total_count: 0, items: [] } })
    const data = await post("/state/non-fungible/data", { resource_address: badge, non_fungible_ids: ["[00]"] })
    expect(data.json).toMatchObject({ non_fungible_id_type: "Bytes", non_fungible_ids: [] })
    const vaults = await post("/state/entity/page/non-fungible-vaults/", { address: user1, resource_address: badge })
    expect(vaults.json).toMatchObject({ total_count: 0, items: [], address: user1, resource_address: badge })
    const page = await post("/state/entity/page/non-fungibles/", { address: user1 })
    expect(page.json).toMatchObject({ total_count: 0, items: [], address: user1 })
    const wrong = await post("/state/entity/page/non-fungible-vaults/", { address: user1, resource_address: XRD })
    expect(at(wrong.json, "details.type")).toBe("InvalidEntityError")
    const empty = await post("/state/non-fungible/data", { resource_address: badge, non_fungible_ids: [] })
    expect(at(empty.json, "details.type")).toBe("InvalidRequestError")
    const noKey = await post("/state/key-value-store/data", { key_value_store_address: badge, keys: [{}] })
    expect(at(noKey.json, "details.validation_errors")).toEqual([
      { path: "keys[0]", errors: ["Either key_hex or key_json must be not empty."] }
    ])
  })
})
