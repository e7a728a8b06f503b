/**
 * The fast decode path (src/gateway/decode.ts) must stay exactly as strict as the canonical Schema decode: same values
 * on success, the canonical error on failure, null/absent accepted, unknown variants kept, deep required fields
 * rejected with their path, also in a large page.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, ParseResult, Schema } from "effect"
import { readdirSync } from "node:fs"
import { decodeJson, decodeJsonFast, decodeResponse, decodeTwin } from "../../src/gateway/decode.js"
import {
  StateEntityDetailsResponse,
  StateEntityFungiblesPageResponse,
  StateEntityMetadataPageResponse,
  TransactionCommittedDetailsResponse,
  TransactionStatusResponse
} from "../../src/gateway/index.js"
import { accountAddress, makeFakeGateway } from "./fake-gateway.js"
import { fakeHttp, fixture, fixturesDir, fixtureText, withGateway } from "./support.js"

type AnySchema = Schema.Schema<unknown, unknown, never>

const schemaFor = (file: string): AnySchema =>
  (file.startsWith("state_entity_details__")
    ? StateEntityDetailsResponse
    : file.startsWith("transaction_status__")
      ? TransactionStatusResponse
      : TransactionCommittedDetailsResponse) as unknown as AnySchema

const canonical = (schema: AnySchema, input: unknown) => Schema.decodeUnknownEither(schema)(input)
const issuesOf = (e: ParseResult.ParseError) => ParseResult.ArrayFormatter.formatErrorSync(e)

/**
 * Fast and canonical agree: both succeed with equal values, or both fail (`issues`: with the same issues; the fast
 * path reports the canonical error by construction, so the mutation sweep skips formatting them).
 */
const expectSameAsCanonical = (schema: AnySchema, input: unknown, label: string, issues = true) => {
  const fast = decodeResponse(schema, input)
  const slow = canonical(schema, input)
  // The fast path alone must accept exactly what the canonical decoder accepts (no silent canonical retry).
  const twin = decodeTwin(schema, input)
  expect(Either.isRight(twin), label).toBe(Either.isRight(slow))
  if (Either.isRight(twin) && Either.isRight(slow)) expect(twin.right, label).toStrictEqual(slow.right)
  expect(Either.isRight(fast), label).toBe(Either.isRight(slow))
  if (Either.isRight(fast) && Either.isRight(slow)) expect(fast.right, label).toStrictEqual(slow.right)
  if (issues && Either.isLeft(fast) && Either.isLeft(slow))
    expect(issuesOf(fast.left), label).toEqual(issuesOf(slow.left))
  // What the client runs on a parsed body (every input here is plain JSON): its fast path accepts exactly the same
  // inputs with the same values, and its error is the canonical one.
  const jsonFast = decodeJsonFast(schema, input)
  expect(Option.isSome(jsonFast), label).toBe(Either.isRight(slow))
  if (Option.isSome(jsonFast) && Either.isRight(slow)) expect(jsonFast.value, label).toStrictEqual(slow.right)
  if (issues) {
    const json = decodeJson(schema, input)
    if (Either.isLeft(json) && Either.isLeft(slow)) expect(issuesOf(json.left), label).toEqual(issuesOf(slow.left))
  }
  return fast
}

/** A large entity details page as the bench serves it: 20 accounts × 100 fungibles (~440 KB of JSON). */
const bigDetails = () => {
  const fake = makeFakeGateway({ accounts: 20, fungiblesPerAccount: 150, pageSize: 100 })
  const reply = fake.handle("/state/entity/details", {
    addresses: Array.from({ length: 20 }, (_, i) => accountAddress(i))
  })
  return JSON.parse(JSON.stringify(reply.body)) as {
    items: Array<Record<string, unknown> & { fungible_resources: { items: Array<Record<string, unknown>> } }>
  }
}

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [k: string]: Json }

/** Every path to an object key in `value`. */
const keyPaths = (value: Json, path: ReadonlyArray<string | number> = []): Array<ReadonlyArray<string | number>> => {
  if (Array.isArray(value)) return value.flatMap((v: Json, i) => keyPaths(v, [...path, i]))
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => [[...path, k], ...keyPaths(v, [...path, k])])
  return []
}

/** A copy of `value` with `f` applied to the parent object of `path` (its last segment is the key). */
const mutate = (
  value: Json,
  path: ReadonlyArray<string | number>,
  f: (parent: Record<string, Json>, key: string) => void
) => {
  const copy = structuredClone(value) as Json
  let cur = copy as Record<string | number, Json>
  for (const seg of path.slice(0, -1)) cur = cur[seg] as Record<string | number, Json>
  f(cur as Record<string, Json>, String(path[path.length - 1]))
  return copy
}

describe("fast response decoding", () => {
  const files = readdirSync(fixturesDir).filter((f) => f.endsWith(".json"))

  for (const file of files)
    it(`decodes ${file} to exactly the canonical value`, () => {
      const fast = expectSameAsCanonical(schemaFor(file), fixture(file), file)
      expect(Either.isRight(fast)).toBe(true)
    })

  it("agrees with the canonical decoder on every key of the fixtures deleted, set to null or to a number", () => {
    let checked = 0
    let rejected = 0
    for (const file of files) {
      const value = fixture(file) as Json
      const schema = schemaFor(file)
      const paths = keyPaths(value)
      // Every key of the small fixtures; every 4th key of the 77 KB one (about 1,500 mutations in all).
      const step = paths.length > 1000 ? 4 : 1
      for (let i = 0; i < paths.length; i += step) {
        const path = paths[i] ?? []
        for (const [name, f] of [
          ["delete", (o: Record<string, Json>, k: string) => void delete o[k]],
          ["null", (o: Record<string, Json>, k: string) => void (o[k] = null)],
          ["number", (o: Record<string, Json>, k: string) => void (o[k] = 42)]
        ] as const) {
          const input = mutate(value, path, f)
          const fast = expectSameAsCanonical(schema, input, `${file} ${name} ${path.join(".")}`, false)
          checked += 1
          if (Either.isLeft(fast)) rejected += 1
        }
      }
    }
    expect(checked).toBeGreaterThan(1000)
    // Most mutations hit required or typed fields and must be rejected; opaque subtrees and nullable fields accept.
    expect(rejected).toBeGreaterThan(checked / 3)
    // About 4,500 decodes each way: 5–10 s on a quiet machine, past 20 s on a slow one beside the other test files.
  }, 90_000)

  it("keys a schema does not declare are dropped, also keys named like Object.prototype's or __proto__", () => {
    const base = fixtureText("transaction_status__committed_success.json").trim()
    for (const extra of ['"extra":1', '"toString":"x"', '"__proto__":{"status":"x"}', '"constructor":null']) {
      // Parsed from text, so `__proto__` is an own key as in a response body.
      const input = JSON.parse(`{${extra},${base.slice(1)}`) as Json
      const fast = expectSameAsCanonical(TransactionStatusResponse as unknown as AnySchema, input, extra)
      if (Either.isLeft(fast)) throw new Error(`${extra}: did not decode`)
      expect(Object.keys(fast.right as object), extra).not.toContain(extra.split('"')[1])
      expect(Object.keys(fast.right as object).length, extra).toBe(Object.keys(input as object).length - 1)
    }
  })

  it("a large page: equal to canonical, nulls become absent, unknown variants are kept", () => {
    const body = bigDetails()
    const item = body.items[7] as Record<string, unknown> & {
      fungible_resources: { items: Array<Record<string, unknown>> }
    }
    const resource = item.fungible_resources.items[63] as Record<string, unknown>
    resource["explicit_metadata"] = null
    ;(resource["vaults"] as Record<string, unknown>)["next_cursor"] = null
    item["details"] = { type: "SomethingNew", blueprint_name: "Account", extra: { deep: [1, null] } }
    ;(item["metadata"] as { items: Array<{ value: { typed: unknown } }> }).items[1]!.value.typed = {
      type: "U256Array",
      values: ["1"]
    }
    const fast = expectSameAsCanonical(StateEntityDetailsResponse as unknown as AnySchema, body, "big page")
    if (Either.isLeft(fast)) throw new Error("did not decode")
    const decoded = fast.right as typeof StateEntityDetailsResponse.Type
    const r = decoded.items[7]?.fungible_resources?.items[63]
    expect(r !== undefined && "explicit_metadata" in r).toBe(false)
    if (r?.aggregation_level !== "Vault") throw new Error("not vault")
    expect("next_cursor" in r.vaults).toBe(false)
    expect(decoded.items[7]?.details).toEqual({
      type: "UnknownVariant",
      variant: "SomethingNew",
      raw: { type: "SomethingNew", blueprint_name: "Account", extra: { deep: [1, null] } }
    })
    expect(decoded.items[7]?.metadata.items[1]?.value.typed).toMatchObject({
      type: "UnknownVariant",
      variant: "U256Array"
    })
    expect(decoded.items.flatMap((i) => i.fungible_resources?.items ?? [])).toHaveLength(2000)
  })

  it("a large page: a known variant missing a field is an error, not an unknown variant", () => {
    const body = bigDetails()
    body.items[19]!["details"] = { type: "Component", blueprint_version: "1.0.0" }
    const fast = expectSameAsCanonical(StateEntityDetailsResponse as unknown as AnySchema, body, "known variant")
    if (Either.isRight(fast)) throw new Error("decoded")
    // The first issue is the missing field; the others are the `null`/`undefined` alternatives of the optional field.
    expect(issuesOf(fast.left)[0]).toEqual({
      _tag: "Missing",
      path: ["items", 19, "details", "blueprint_name"],
      message: "is missing"
    })
  })

  it.effect("through the client: a required field missing deep inside a large page names its path", () =>
    Effect.gen(function* () {
      const body = bigDetails()
      const vaults = body.items[13]!.fungible_resources.items[77]!["vaults"] as {
        items: Array<Record<string, unknown>>
      }
      delete vaults.items[0]!["amount"]
      const fake = fakeHttp(() => Effect.succeed({ body }))
      const error = yield* withGateway(fake, (g) =>
        g.state.entityDetails({ addresses: [accountAddress(0)], aggregation_level: "Vault" })
      ).pipe(Effect.flip)
      expect(error._tag).toBe("GatewayDecodeError")
      if (error._tag !== "GatewayDecodeError") return
      expect(error.issues[0]).toEqual({
        path: "items.13.fungible_resources.items.77.vaults.items.0.amount",
        message: "is missing"
      })
    })
  )

  it.effect("through the client: null for a required field is rejected, null for an optional one is absent", () =>
    Effect.gen(function* () {
      const page = (nextCursor: unknown, address: unknown) => ({
        ledger_state: { network: "stokenet", state_version: 1, proposer_round_timestamp: "t", epoch: 1, round: 1 },
        total_count: null,
        next_cursor: nextCursor,
        address,
        items: []
      })
      const ok = yield* withGateway(
        fakeHttp(() => Effect.succeed({ body: page(null, "account_x") })),
        (g) => g.state.entityFungiblesPage({ address: "account_x" })
      )
      expect(ok).toStrictEqual({
        ledger_state: { network: "stokenet", state_version: 1, proposer_round_timestamp: "t", epoch: 1, round: 1 },
        address: "account_x",
        items: []
      })
      const error = yield* withGateway(
        fakeHttp(() => Effect.succeed({ body: page("c", null) })),
        (g) => g.state.entityFungiblesPage({ address: "account_x" })
      ).pipe(Effect.flip)
      expect(error._tag === "GatewayDecodeError" && error.issues).toEqual([
        { path: "address", message: "Expected string, actual null" }
      ])
    })
  )

  it("pages of other shapes agree too (metadata page with typed values, fungibles page)", () => {
    const fake = makeFakeGateway({ accounts: 2, fungiblesPerAccount: 150, pageSize: 100, metadataPerEntity: 120 })
    const at = { at_ledger_state: { state_version: 1000 } }
    const cursor = btoa(JSON.stringify({ o: 100 }))
    const fungibles = fake.handle("/state/entity/page/fungibles/", { address: accountAddress(1), cursor, ...at }).body
    const metadata = fake.handle("/state/entity/page/metadata", { address: accountAddress(1), ...at }).body
    for (const [schema, body] of [
      [StateEntityFungiblesPageResponse, fungibles],
      [StateEntityMetadataPageResponse, metadata]
    ] as const)
      expect(Either.isRight(expectSameAsCanonical(schema as unknown as AnySchema, body, "page"))).toBe(true)
  })

  it("an already-canonical body is returned as is (no second copy); anything else is copied, the input never modified", () => {
    const fake = makeFakeGateway({ accounts: 20, fungiblesPerAccount: 150, pageSize: 100 })
    const details = fake.handle("/state/entity/details", {
      addresses: Array.from({ length: 20 }, (_, i) => accountAddress(i))
    }).body as { items: Array<Record<string, unknown>> }
    const same = decodeResponse(StateEntityDetailsResponse, details)
    expect(Either.isRight(same) && same.right).toBe(details)
    // An excess key, a null optional and a number where a union keeps the input: each copies only what differs.
    const dirty = structuredClone(details)
    const item = dirty.items[3] as Record<string, unknown>
    item["unknown_extra"] = 1
    ;(dirty as Record<string, unknown>)["next_cursor"] = null
    const before = structuredClone(dirty)
    const decoded = expectSameAsCanonical(StateEntityDetailsResponse as unknown as AnySchema, dirty, "dirty")
    expect(dirty).toStrictEqual(before)
    if (Either.isRight(decoded)) {
      const out = decoded.right as { items: Array<Record<string, unknown>> }
      expect(out).not.toBe(dirty)
      expect("next_cursor" in out).toBe(false)
      expect("unknown_extra" in (out.items[3] as object)).toBe(false)
      expect(out.items[2]).toBe(dirty.items[2])
    } else expect.fail("the dirty body should decode")
  })

  it("shapes the compiled fast path handles itself or leaves to Effect agree with the canonical decoder", () => {
    interface Tree {
      readonly name: string
      readonly children: ReadonlyArray<Tree>
    }
    const Tree: Schema.Schema<Tree> = Schema.Struct({
      name: Schema.String,
      children: Schema.Array(Schema.suspend(() => Tree))
    })
    const A = Schema.Struct({ kind: Schema.Literal("a"), n: Schema.Number })
    const B = Schema.Struct({ kind: Schema.Literal("b"), s: Schema.String })
    const cases: ReadonlyArray<readonly [string, AnySchema, ReadonlyArray<unknown>]> = [
      [
        "union of two structs",
        Schema.Union(A, B) as AnySchema,
        [{ kind: "a", n: 1, x: 2 }, { kind: "b", s: "" }, { kind: "b", n: 1 }, null]
      ],
      ["struct or null", Schema.NullOr(A) as AnySchema, [null, { kind: "a", n: 1 }, { kind: "a" }, "a", []]],
      [
        "primitives",
        Schema.Union(Schema.String, Schema.Number, Schema.Literal(true)) as AnySchema,
        ["x", 1, true, false, null, {}]
      ],
      ["union with unknown", Schema.Union(Schema.String, Schema.Unknown) as AnySchema, ["x", 1, { a: 1 }]],
      [
        "recursive",
        Tree as unknown as AnySchema,
        [
          { name: "r", children: [{ name: "c", children: [], extra: 1 }] },
          { name: "r", children: [{ name: 1, children: [] }] }
        ]
      ],
      ["non-empty array", Schema.NonEmptyArray(Schema.Number) as AnySchema, [[1, 2], [], ["x"]]],
      ["record", Schema.Record({ key: Schema.String, value: Schema.Number }) as AnySchema, [{ a: 1 }, { a: "x" }, []]],
      ["refinement", Schema.String.pipe(Schema.minLength(2)) as AnySchema, ["ab", "a", 3]],
      [
        "optional and required-undefined keys",
        Schema.Struct({ a: Schema.optional(Schema.Number), b: Schema.UndefinedOr(Schema.String) }) as AnySchema,
        [{}, { a: undefined }, { a: 1, b: "x" }, { b: 2 }]
      ],
      [
        "transformation left to Effect",
        Schema.Struct({ n: Schema.NumberFromString }) as AnySchema,
        [{ n: "1" }, { n: 1 }]
      ]
    ]
    for (const [label, schema, inputs] of cases)
      inputs.forEach((input, i) => expectSameAsCanonical(schema, input, `${label} #${i}`))
  })
})
