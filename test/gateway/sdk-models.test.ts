/**
 * Our Schemas against the official SDK's models (@radixdlt/babylon-gateway-api-sdk 1.10.1, generated from the
 * Gateway's OpenAPI spec): the same fields, the same required/optional split, the same unions and enums, and on real
 * fixtures the client rejects exactly what the SDK's models reject.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { readdirSync } from "node:fs"
import * as Gateway from "../../src/gateway/index.js"
import { decodeResponse } from "../../src/gateway/decode.js"
import { decodeIssues } from "../../src/gateway/http.js"
import { compareSchema, emptyComparison, sdkModels, type SdkType } from "./sdk-models.js"
import { fixture, fixturesDir } from "./support.js"

/** Our export names that differ from the SDK's model names. */
const aliases: Record<string, string> = {
  TransactionAccountDepositPreValidationRequest: "AccountDepositPreValidationRequest",
  TransactionAccountDepositPreValidationResponse: "AccountDepositPreValidationResponse",
  NetworkConfigurationWellKnownAddresses: "NetworkConfigurationResponseWellKnownAddresses"
}

const schemas = Object.entries(Gateway).flatMap(([name, value]) =>
  Schema.isSchema(value) ? [[name, value as Schema.Schema.Any] as const] : []
)

describe("Schemas match the SDK's models", () => {
  const models = sdkModels()

  it("every exported Schema with an SDK model: same fields, required/optional, unions, enums; nothing left opaque", () => {
    const comparison = emptyComparison()
    let roots = 0
    for (const [name, schema] of schemas) {
      const model = aliases[name] ?? name
      if (!models.has(model)) continue
      roots += 1
      compareSchema(name, schema.ast, model, comparison)
    }
    expect(roots).toBeGreaterThan(150)
    expect(comparison.visited.size).toBeGreaterThan(280)
    expect(comparison.mismatches).toEqual([])
    expect([...comparison.opaque]).toEqual([])
  })

  it("every endpoint's request and response has an SDK model and was compared", () => {
    const byValue = new Map(schemas.map(([name, schema]) => [schema, name]))
    const missing: Array<string> = []
    for (const group of Object.values(Gateway.Endpoints))
      for (const endpoint of Object.values(group) as ReadonlyArray<
        Gateway.Endpoint<unknown, unknown, unknown, unknown>
      >)
        for (const schema of [endpoint.request, endpoint.response]) {
          if (schema === undefined) continue
          const name = byValue.get(schema as Schema.Schema.Any)
          if (name === undefined || !models.has(aliases[name] ?? name)) missing.push(`${endpoint.path}: ${name}`)
        }
    expect(missing).toEqual([])
  })

  it("the comparison itself fails on a wrong required/optional split and on a struct where the SDK has a union", () => {
    const loose = Schema.Struct({
      role_key: Gateway.RoleKey,
      assignment: Schema.Struct({
        resolution: Gateway.RoleAssignmentResolution,
        explicit_rule: Gateway.opt(Gateway.JsonObject)
      }),
      updater_roles: Schema.Array(Gateway.RoleKey)
    })
    const { mismatches } = compareSchema("loose", loose.ast, "ComponentEntityRoleAssignmentEntry")
    expect(mismatches).toEqual([
      'loose.assignment: SDK ComponentEntityRoleAssignmentEntryAssignment is a union on "resolution", ours is TypeLiteral',
      "loose.updater_roles: ours required, SDK optional"
    ])
  })
})

// ---------------------------------------------------------------------------------------------------------------------
// Mutated fixtures

interface FieldAt {
  /** Keys from the root to the field. */
  readonly path: ReadonlyArray<string | number>
  readonly required: boolean
  readonly nullable: boolean
}

/** Every field present in `value`, with whether the SDK's model requires it (arrays: their first two elements). */
const sdkFields = (value: unknown, model: string): Array<FieldAt> => {
  const models = sdkModels()
  const out: Array<FieldAt> = []
  const walkType = (v: unknown, type: SdkType, path: ReadonlyArray<string | number>): void => {
    if (type.kind === "array" && Array.isArray(v)) v.slice(0, 2).forEach((x, i) => walkType(x, type.item, [...path, i]))
    else if (type.kind === "ref") walkModel(v, type.name, path)
  }
  const walkModel = (v: unknown, name: string, path: ReadonlyArray<string | number>): void => {
    const m = models.get(name)
    if (m === undefined || typeof v !== "object" || v === null) return
    const record = v as Record<string, unknown>
    if (m.kind === "union") {
      const variant = m.variants.get(String(record[m.key]))
      if (variant !== undefined) walkModel(v, variant, path)
      return
    }
    if (m.kind !== "interface") return
    for (const field of m.fields) {
      if (!(field.name in record)) continue
      out.push({ path: [...path, field.name], required: !field.optional, nullable: field.nullable })
      walkType(record[field.name], field.type, [...path, field.name])
    }
  }
  walkModel(value, model, [])
  return out
}

const mutate = (value: unknown, path: ReadonlyArray<string | number>, change: "delete" | "null"): unknown => {
  const copy = structuredClone(value) as Record<string | number, unknown>
  let node = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  const last = path[path.length - 1] as string | number
  if (change === "delete") delete node[last]
  else node[last] = null
  return copy
}

const fixtureModels: ReadonlyArray<readonly [string, string, Schema.Schema<unknown, unknown, never>]> = [
  ["state_entity_details__", "StateEntityDetailsResponse", Gateway.StateEntityDetailsResponse as never],
  ["transaction_status__", "TransactionStatusResponse", Gateway.TransactionStatusResponse as never],
  [
    "transaction_committed-details__",
    "TransactionCommittedDetailsResponse",
    Gateway.TransactionCommittedDetailsResponse as never
  ]
]

describe("the client rejects what the SDK's models reject (mutated real fixtures)", () => {
  const files = readdirSync(fixturesDir).filter((f) => f.endsWith(".json"))
  for (const file of files) {
    const entry = fixtureModels.find(([prefix]) => file.startsWith(prefix))
    it(`${file}: every required field deleted or nulled is rejected, every optional one is not`, () => {
      if (entry === undefined) throw new Error(`no model for ${file}`)
      const [, model, schema] = entry
      const original = fixture(file)
      expect(Either.isRight(decodeResponse(schema, original))).toBe(true)
      const fields = sdkFields(original, model)
      expect(fields.length).toBeGreaterThan(5)
      const wrong: Array<string> = []
      for (const field of fields) {
        for (const change of ["delete", "null"] as const) {
          // The SDK's model rejects a missing required field, and null where the field is not `| null`.
          const sdkRejects = change === "delete" ? field.required : !field.nullable && field.required
          // An optional field sent as null: the Gateway omits nulls, and we read null as absent (like the SDK).
          const expected = change === "null" && !field.required ? false : sdkRejects
          const decoded = decodeResponse(schema, mutate(original, field.path, change))
          if (Either.isLeft(decoded) !== expected)
            wrong.push(`${change} ${field.path.join(".")}: ${expected ? "accepted" : "rejected"}`)
        }
      }
      expect(wrong).toEqual([])
    })
  }

  const fungible = () =>
    fixture("state_entity_details__single_fungible_resource.json") as {
      items: Array<{ details: { role_assignments: { entries: Array<{ assignment: Record<string, unknown> }> } } }>
    }

  it('a role assignment with resolution "Explicit" and no explicit_rule is rejected, with its path', () => {
    const body = fungible()
    const entries = body.items[0]?.details.role_assignments.entries ?? []
    const explicit = entries.findIndex((e) => e.assignment["resolution"] === "Explicit")
    expect(explicit).toBeGreaterThanOrEqual(0)
    delete entries[explicit]?.assignment["explicit_rule"]
    const decoded = decodeResponse(Gateway.StateEntityDetailsResponse, body)
    expect(Either.isLeft(decoded)).toBe(true)
    if (Either.isRight(decoded)) return
    expect(decodeIssues(decoded.left)).toContainEqual({
      path: `items.0.details.role_assignments.entries.${explicit}.assignment.explicit_rule`,
      message: "is missing"
    })
  })

  it('"Owner" needs no explicit_rule, and an Explicit assignment keeps its rule', () => {
    const body = fungible()
    const entries = body.items[0]?.details.role_assignments.entries ?? []
    const owner = entries.findIndex((e) => e.assignment["resolution"] === "Owner")
    expect(owner).toBeGreaterThanOrEqual(0)
    const decoded = decodeResponse(Gateway.StateEntityDetailsResponse, body)
    if (Either.isLeft(decoded)) throw new Error(String(decoded.left))
    const details = decoded.right.items[0]?.details
    if (details?.type !== "FungibleResource") throw new Error("not a fungible resource")
    const explicit = details.role_assignments.entries.find((e) => e.assignment.resolution === "Explicit")
    if (explicit?.assignment.resolution !== "Explicit") throw new Error("no explicit entry")
    expect(explicit.assignment.explicit_rule).toBeTypeOf("object")
  })
})
