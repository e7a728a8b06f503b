/**
 * Generators of hostile wallet messages for the fuzz suites: mutated real messages, arbitrary cloneable values,
 * hostile objects (throwing getters, Proxies, null prototypes, `__proto__` keys, cycles, huge strings, deep nesting).
 *
 * A recipe is plain data (which real message, which mutations, which hostile values); `materialize(recipe, id)` builds
 * a fresh value from it for a given interactionId, so end-to-end runs can aim a message at the live request.
 */
import fc from "fast-check"
import * as Errors from "../../src/toolkit/errors.js"

/** The fixed seed of every fuzz suite (override with FUZZ_SEED to explore; fast-check prints it on failure). */
export const FUZZ_SEED = Number(process.env["FUZZ_SEED"] ?? 16_2026)

/** Counts every call of user code planted in a non-Proxy hostile value: the guarded entry must never make one. */
export const tripwire = { calls: 0 }
const trip = (): never => {
  tripwire.calls += 1
  throw new Error("user code ran")
}
/** Proxy traps are user code that cannot be avoided; they throw, and are not counted. */
const boom = (): never => {
  throw new TypeError("trap")
}

export const HUGE = "a".repeat(2_100_000)
const deepArray = (depth: number): unknown => {
  let v: unknown = "bottom"
  for (let i = 0; i < depth; i++) v = [v]
  return v
}
const DEEP = deepArray(5_000)
/** Wider than the node bound; enumerating its keys alone takes the engine ~100 ms, so it is tested once, not fuzzed. */
export const WIDE: Record<string, number> = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]))

const persona = { identityAddress: "identity_tdx_2_1p", label: "P" }
const account = { address: "account_tdx_2_1a", label: "A", appearanceId: 0 }

/** Genuine messages a wallet or the extension sends, for interaction `id`. */
export const realMessages: ReadonlyArray<(id: string) => Record<string, unknown>> = [
  (id) => ({
    discriminator: "success",
    interactionId: id,
    items: { discriminator: "transaction", send: { transactionIntentHash: "txid_tdx_2_1h" } }
  }),
  (id) => ({ discriminator: "failure", interactionId: id, error: "rejectedByUser", message: "no" }),
  (id) => ({
    discriminator: "success",
    interactionId: id,
    items: {
      discriminator: "authorizedRequest",
      auth: { discriminator: "loginWithoutChallenge", persona },
      ongoingAccounts: { accounts: [account] }
    }
  }),
  (id) => ({
    discriminator: "success",
    interactionId: id,
    items: {
      discriminator: "preAuthorizationResponse",
      response: { expirationTimestamp: 60, subintentHash: "subtxid_1", signedPartialTransaction: "0d0a" }
    }
  }),
  (id) => ({
    discriminator: "success",
    interactionId: id,
    items: {
      discriminator: "unauthorizedRequest",
      oneTimePersonaData: { name: { variant: "western", familyName: "F", nickname: "N", givenNames: "G" } }
    }
  }),
  (id) => ({ eventType: "receivedByExtension", interactionId: id }),
  (id) => ({ eventType: "receivedByWallet", interactionId: id }),
  () => ({ eventType: "extensionStatus", isExtensionAvailable: true, isWalletLinked: true, canHandleSessions: true })
]

/** Hostile values; each call makes a fresh one. */
export const hostileValues: ReadonlyArray<(id: string) => unknown> = [
  () => ({ toString: 1 }),
  () => ({ toString: 1, valueOf: 1 }),
  () => ({ valueOf: {}, toString: {} }),
  () => ({ [Symbol.toPrimitive]: trip, toJSON: 1 }),
  () => Object.create(null),
  (id) => Object.assign(Object.create(null), { discriminator: "failure", interactionId: id, error: "rejectedByUser" }),
  (id) =>
    Object.assign(Object.create(null), {
      discriminator: Object.assign(Object.create(null), { toString: 1 }),
      interactionId: id
    }),
  () => Object.defineProperty({}, "interactionId", { get: trip, enumerable: true }),
  (id) =>
    Object.defineProperty({ discriminator: "success", interactionId: id }, "items", { get: trip, enumerable: true }),
  (id) =>
    Object.defineProperty({ discriminator: "failure", interactionId: id }, "error", { get: trip, enumerable: true }),
  () => {
    const o: Record<string, unknown> = { discriminator: "success" }
    o["items"] = o
    return o
  },
  (id) => {
    const a: Array<unknown> = [id]
    a.push(a)
    return { discriminator: "success", interactionId: id, items: a }
  },
  () => ({ toJSON: trip, toString: trip, valueOf: trip }),
  () =>
    new (class Message {
      get discriminator(): string {
        return trip()
      }
    })(),
  () => new Date(0),
  () => new Map([["discriminator", "success"]]),
  () => new Uint8Array(8),
  () => Object.assign([1, 2], { toString: 1 }),
  () => {
    const holes: Array<unknown> = []
    holes[1] = 1
    return holes
  },
  () => trip,
  () => Symbol("s"),
  () => 10n,
  () => undefined,
  () => NaN,
  () => -Infinity,
  () => HUGE,
  () => ({ discriminator: HUGE }),
  () => DEEP,
  (id) =>
    JSON.parse(
      `{"__proto__":{"toString":1},"discriminator":"failure","interactionId":${JSON.stringify(id)},"error":"x"}`
    ),
  (id) => JSON.parse(`{"discriminator":{"__proto__":null,"toString":1},"interactionId":${JSON.stringify(id)}}`),
  (id) =>
    JSON.parse(
      `{"discriminator":"success","interactionId":${JSON.stringify(id)},"items":{"discriminator":{"toString":1}}}`
    ),
  (id) => ({ eventType: { toString: 1 }, interactionId: id }),
  (id) => ({ eventType: "receivedByWallet", interactionId: { toString: 1, id } }),
  (id) => new Proxy({ discriminator: "failure", interactionId: id, error: "rejectedByUser" }, {}),
  () => new Proxy({}, { get: boom, getOwnPropertyDescriptor: boom, ownKeys: boom, has: boom, getPrototypeOf: boom }),
  (id) => new Proxy({ interactionId: id }, { ownKeys: boom }),
  () => new Proxy([], { getOwnPropertyDescriptor: boom }),
  () =>
    new Proxy(
      { a: 1 },
      {
        getOwnPropertyDescriptor: () => ({
          configurable: true,
          enumerable: true,
          get value() {
            return boom()
          }
        })
      }
    ),
  () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    return proxy
  }
]

export type Mutation =
  | { readonly op: "replace"; readonly at: number; readonly value: ValueRecipe }
  | { readonly op: "delete"; readonly at: number }
  | { readonly op: "addKey"; readonly at: number; readonly key: string; readonly value: ValueRecipe }

export type ValueRecipe =
  | { readonly kind: "hostile"; readonly index: number }
  | { readonly kind: "data"; readonly value: unknown }
  | { readonly kind: "id" }

export type Recipe =
  | { readonly kind: "mutated"; readonly base: number; readonly mutations: ReadonlyArray<Mutation> }
  | { readonly kind: "value"; readonly value: ValueRecipe }

const keyArb = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "toString",
    "valueOf",
    "constructor",
    "hasOwnProperty",
    "interactionId",
    "discriminator",
    "items",
    "eventType",
    "error",
    "then"
  ),
  fc.string({ maxLength: 6 })
)

/** Cloneable values of every kind (null prototypes, boxed values, dates, maps, typed and sparse arrays, bigints). */
const anythingArb = fc.anything({
  maxDepth: 3,
  maxKeys: 4,
  withNullPrototype: true,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withSparseArray: true,
  withObjectString: true
})

export const valueRecipeArb: fc.Arbitrary<ValueRecipe> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.nat({ max: hostileValues.length - 1 }).map((index) => ({ kind: "hostile" as const, index }))
  },
  { weight: 2, arbitrary: anythingArb.map((value) => ({ kind: "data" as const, value })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("success", "failure", "transaction", "receivedByWallet", "")
      .map((value) => ({ kind: "data" as const, value }))
  },
  { weight: 1, arbitrary: fc.constant({ kind: "id" as const }) }
)

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("replace" as const), at: fc.nat(), value: valueRecipeArb }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("addKey" as const), at: fc.nat(), key: keyArb, value: valueRecipeArb })
)

export const recipeArb: fc.Arbitrary<Recipe> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("mutated" as const),
      base: fc.nat({ max: realMessages.length - 1 }),
      mutations: fc.array(mutationArb, { minLength: 1, maxLength: 3 })
    })
  },
  { weight: 3, arbitrary: valueRecipeArb.map((value) => ({ kind: "value" as const, value })) },
  {
    weight: 1,
    arbitrary: fc
      .jsonValue({ maxDepth: 4 })
      .map((value) => ({ kind: "value" as const, value: { kind: "data" as const, value } }))
  }
)

const makeValue = (v: ValueRecipe, id: string): unknown =>
  v.kind === "hostile" ? hostileValues[v.index]!(id) : v.kind === "id" ? id : v.value

/** Every container (object or array) in a plain tree, with its parent path, for picking a mutation site. */
const containers = (root: unknown): Array<Record<string, unknown> | Array<unknown>> => {
  const out: Array<Record<string, unknown> | Array<unknown>> = []
  const visit = (v: unknown) => {
    if (typeof v !== "object" || v === null) return
    out.push(v as Record<string, unknown>)
    for (const child of Object.values(v)) visit(child)
  }
  visit(root)
  return out
}

const setOwn = (target: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })

/** Builds a fresh value from a recipe, aimed at interaction `id`. */
export const materialize = (recipe: Recipe, id: string): unknown => {
  if (recipe.kind === "value") return makeValue(recipe.value, id)
  const message = structuredClone(realMessages[recipe.base]!(id))
  // Sites are taken from the genuine message once, so hostile values placed by a mutation are never walked here.
  const sites = containers(message)
  for (const m of recipe.mutations) {
    const site = sites[m.at % sites.length]!
    const keys = Object.keys(site)
    if (m.op === "addKey") {
      setOwn(site as Record<string, unknown>, m.key, makeValue(m.value, id))
      continue
    }
    if (keys.length === 0) continue
    const key = keys[m.at % keys.length]!
    if (m.op === "delete") delete (site as Record<string, unknown>)[key]
    else setOwn(site as Record<string, unknown>, key, makeValue(m.value, id))
  }
  return message
}

/** Every `_tag` in the toolkit's error catalogue. */
export const catalogueTags: ReadonlySet<string> = new Set(
  Object.values(Errors).flatMap((v) =>
    typeof v === "function" && typeof (v as { _tag?: unknown })._tag === "string" ? [(v as { _tag: string })._tag] : []
  )
)

/** A tagged error of the catalogue, whose message can be read and printed. */
export const isCatalogueError = (e: unknown): boolean => {
  if (typeof e !== "object" || e === null || !(e instanceof Error)) return false
  const tag = (e as { _tag?: unknown })._tag
  return typeof tag === "string" && catalogueTags.has(tag) && typeof String(e.message) === "string"
}
