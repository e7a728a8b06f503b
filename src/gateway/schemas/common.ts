/**
 * Building blocks shared by every Gateway schema: the optional-or-null field helper, the discriminated union with an
 * unknown-variant fallback, ledger state, paging mixins, public keys and metadata.
 */
import { ParseResult, Schema, SchemaAST } from "effect"
import { nullDroppingDecodes, TaggedUnionSpec, type TaggedUnionSpecValue } from "./spec"

/** An optional field that also accepts `null` on decode (the Gateway omits nulls, opaque subtrees keep them). */
export const opt = <S extends Schema.Schema.All>(schema: S) => {
  const field = Schema.optionalWith(schema, { nullable: true })
  // Its decode is `Option.filter(isNotNull)` (see Schema.optionalWith); the fast decoder (../decode.ts) applies it as
  // "drop a null" without an Option per key.
  if (field.ast._tag === "PropertySignatureTransformation") nullDroppingDecodes.add(field.ast.decode)
  return field
}

/** An opaque JSON object (receipts, programmatic SBOR, component state): kept as it came. */
export const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })
export type JsonObject = typeof JsonObject.Type

/** The discriminator value that marks a variant this client does not know yet. */
export const UnknownVariantTag = "UnknownVariant" as const

/**
 * A union member the Gateway added after v1.10.1. The discriminator reads {@link UnknownVariantTag} so that the known
 * variants still narrow; `variant` is the discriminator value the server sent and `raw` the whole object as it came.
 */
export type UnknownVariant<K extends string> = { readonly [k in K]: typeof UnknownVariantTag } & {
  readonly variant: string
  readonly raw: JsonObject
}

const literalsAt = (ast: SchemaAST.AST, key: string): ReadonlyArray<SchemaAST.LiteralValue> => {
  const signature = SchemaAST.getPropertySignatures(ast).find((ps) => ps.name === key)
  if (signature === undefined) return []
  const type = signature.type
  if (SchemaAST.isLiteral(type)) return [type.literal]
  if (SchemaAST.isUnion(type)) return type.types.flatMap((t) => (SchemaAST.isLiteral(t) ? [t.literal] : []))
  return []
}

type RawVariant<K extends string> = { readonly [k in K]: string } & { readonly [key: string]: unknown }

const unknownVariant = <K extends string>(
  key: K,
  known: ReadonlyArray<SchemaAST.LiteralValue>
): Schema.Schema<UnknownVariant<K>, RawVariant<K>> => {
  const from = Schema.Struct(
    {
      [key]: Schema.String.pipe(
        Schema.filter((value) => !known.includes(value), {
          message: (issue) => `${key} ${JSON.stringify(issue.actual)} is known but its variant did not decode`
        })
      )
    },
    JsonObject
  )
  const to = Schema.Struct({ [key]: Schema.Literal(UnknownVariantTag), variant: Schema.String, raw: JsonObject })
  return Schema.transform(from, to, {
    strict: false,
    decode: (raw) => ({ [key]: UnknownVariantTag, variant: raw[key], raw }),
    encode: (value) => value["raw"]
  }) as unknown as Schema.Schema<UnknownVariant<K>, RawVariant<K>>
}

/**
 * A union decoded by its `key` discriminator. A known discriminator value must decode as its variant (a missing field
 * is an error naming the field); an unknown value decodes to an {@link UnknownVariant} that keeps the raw object and
 * does not fail. Dispatch is a map lookup on the discriminator, so decoding costs one variant, not the whole union.
 */
export const taggedUnion = <K extends string, const Members extends ReadonlyArray<Schema.Schema.Any>>(
  key: K,
  ...members: Members
): Schema.Schema<
  Schema.Schema.Type<Members[number]> | UnknownVariant<K>,
  Schema.Schema.Encoded<Members[number]> | RawVariant<K>,
  never
> => {
  type Decode = ReturnType<typeof ParseResult.decodeUnknownEither<unknown, unknown>>
  const decoderOf = (schema: Schema.Schema.Any): Decode =>
    ParseResult.decodeUnknownEither(schema as unknown as Schema.Schema<unknown, unknown, never>)
  const byTag = new Map<unknown, Decode>()
  const specMembers: Array<readonly [SchemaAST.LiteralValue, SchemaAST.AST]> = []
  for (const member of members) {
    const decode = decoderOf(member)
    for (const literal of literalsAt(member.ast, key)) {
      byTag.set(literal, decode)
      specMembers.push([literal, member.ast])
    }
  }
  const fallback = unknownVariant(key, [...byTag.keys()] as ReadonlyArray<SchemaAST.LiteralValue>)
  const decodeFallback = decoderOf(fallback)
  const union = Schema.Union(...members, fallback) as unknown as Schema.Schema<unknown, unknown, never>
  return Schema.declare([union], {
    decode: (u) => (input, options, ast) => {
      // Validating an already decoded value (the Type side, e.g. in a TaggedError constructor): the plain union.
      if (u.ast !== union.ast) return ParseResult.decodeUnknown(u)(input, options)
      return typeof input === "object" && input !== null && !Array.isArray(input)
        ? (byTag.get((input as Record<string, unknown>)[key]) ?? decodeFallback)(input, options)
        : ParseResult.fail(new ParseResult.Type(ast, input, `Expected an object with a "${key}" discriminator`))
    },
    encode: (u) => (input, options) => ParseResult.encodeUnknown(u)(input, options)
  }).annotations({
    identifier: `TaggedUnion<${key}>`,
    [TaggedUnionSpec]: { key, members: specMembers, fallback: fallback.ast } satisfies TaggedUnionSpecValue
  }) as never
}

/** A string enum as a Schema.Literal that also reads like the SDK's enum objects (`TransactionStatus.Pending`). */
export const literalEnum = <const V extends ReadonlyArray<string>>(...values: V) =>
  Object.assign(
    Schema.Literal(...values),
    Object.fromEntries(values.map((v) => [v, v])) as { readonly [K in V[number]]: K }
  )

// ---------------------------------------------------------------------------------------------------------------------
// Ledger state and paging

export const LedgerState = Schema.Struct({
  network: Schema.String,
  state_version: Schema.Number,
  proposer_round_timestamp: Schema.String,
  epoch: Schema.Number,
  round: Schema.Number
})
export type LedgerState = typeof LedgerState.Type

export const LedgerStateSelector = Schema.Struct({
  state_version: opt(Schema.Number),
  timestamp: opt(Schema.String),
  epoch: opt(Schema.Number),
  round: opt(Schema.Number)
})
export type LedgerStateSelector = typeof LedgerStateSelector.Type

/** `at_ledger_state?` on a request. */
export const AtLedgerState = { at_ledger_state: opt(LedgerStateSelector) }
/** `cursor?`, `limit_per_page?` on a request. */
export const CursorLimit = { cursor: opt(Schema.String), limit_per_page: opt(Schema.Number) }
/** `ledger_state` on a response. */
export const WithLedgerState = { ledger_state: LedgerState }

/** `total_count?`, `next_cursor?`, `items` of a result set. */
export const collection = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Struct({ total_count: opt(Schema.Number), next_cursor: opt(Schema.String), items: Schema.Array(item) })

/** A page response: ledger state plus a result set, plus the echoed request fields. */
export const pageResponse = <S extends Schema.Schema.Any, F extends Schema.Struct.Fields>(item: S, echoed: F) =>
  Schema.Struct({
    ...WithLedgerState,
    total_count: opt(Schema.Number),
    next_cursor: opt(Schema.String),
    items: Schema.Array(item),
    ...echoed
  })

// ---------------------------------------------------------------------------------------------------------------------
// Keys, SBOR values

export const PublicKey = taggedUnion(
  "key_type",
  Schema.Struct({ key_type: Schema.Literal("EcdsaSecp256k1"), key_hex: Schema.String }),
  Schema.Struct({ key_type: Schema.Literal("EddsaEd25519"), key_hex: Schema.String })
)
export type PublicKey = typeof PublicKey.Type

export const PublicKeyHash = taggedUnion(
  "key_hash_type",
  Schema.Struct({ key_hash_type: Schema.Literal("EcdsaSecp256k1"), hash_hex: Schema.String }),
  Schema.Struct({ key_hash_type: Schema.Literal("EddsaEd25519"), hash_hex: Schema.String })
)
export type PublicKeyHash = typeof PublicKeyHash.Type

export const ProgrammaticScryptoSborValueKind = literalEnum(
  "Bool",
  "I8",
  "I16",
  "I32",
  "I64",
  "I128",
  "U8",
  "U16",
  "U32",
  "U64",
  "U128",
  "String",
  "Enum",
  "Array",
  "Bytes",
  "Map",
  "Tuple",
  "Reference",
  "Own",
  "Decimal",
  "PreciseDecimal",
  "NonFungibleLocalId"
)
export type ProgrammaticScryptoSborValueKind = typeof ProgrammaticScryptoSborValueKind.Type

interface SborNamed {
  readonly type_name?: string | undefined
  readonly field_name?: string | undefined
}
type SborValueKind = "I8" | "I16" | "I32" | "I64" | "I128" | "U8" | "U16" | "U32" | "U64" | "U128" | "String"
type SborStringKind = SborValueKind | "Reference" | "Own" | "Decimal" | "PreciseDecimal" | "NonFungibleLocalId"
/** `ProgrammaticScryptoSborValue`: SBOR as JSON, discriminated by `kind` (22 kinds), recursive. */
export type ProgrammaticScryptoSborValue =
  | (SborNamed & { readonly kind: "Bool"; readonly value: boolean })
  | (SborNamed & { readonly kind: SborStringKind; readonly value: string })
  | (SborNamed & {
      readonly kind: "Array"
      readonly element_kind: ProgrammaticScryptoSborValueKind
      readonly element_type_name?: string | undefined
      readonly elements: ReadonlyArray<ProgrammaticScryptoSborValue>
    })
  | (SborNamed & {
      readonly kind: "Bytes"
      readonly element_kind: ProgrammaticScryptoSborValueKind
      readonly element_type_name?: string | undefined
      readonly hex: string
    })
  | (SborNamed & {
      readonly kind: "Enum"
      /** A string in the OpenAPI spec and the SDK's model; the real Gateway sends a number (see the fixtures). */
      readonly variant_id: string | number
      readonly variant_name?: string | undefined
      readonly fields: ReadonlyArray<ProgrammaticScryptoSborValue>
    })
  | (SborNamed & { readonly kind: "Tuple"; readonly fields: ReadonlyArray<ProgrammaticScryptoSborValue> })
  | (SborNamed & {
      readonly kind: "Map"
      readonly key_kind: ProgrammaticScryptoSborValueKind
      readonly key_type_name?: string | undefined
      readonly value_kind: ProgrammaticScryptoSborValueKind
      readonly value_type_name?: string | undefined
      readonly entries: ReadonlyArray<{
        readonly key: ProgrammaticScryptoSborValue
        readonly value: ProgrammaticScryptoSborValue
      }>
    })
  | UnknownVariant<"kind">

const sborValue: Schema.Schema<ProgrammaticScryptoSborValue, unknown> = Schema.suspend(
  (): Schema.Schema<ProgrammaticScryptoSborValue, unknown> => ProgrammaticScryptoSborValue
)
const sborNamed = { type_name: opt(Schema.String), field_name: opt(Schema.String) }

export const ProgrammaticScryptoSborValue: Schema.Schema<ProgrammaticScryptoSborValue, unknown> = taggedUnion(
  "kind",
  Schema.Struct({ kind: Schema.Literal("Bool"), ...sborNamed, value: Schema.Boolean }),
  Schema.Struct({
    kind: Schema.Literal(
      "I8",
      "I16",
      "I32",
      "I64",
      "I128",
      "U8",
      "U16",
      "U32",
      "U64",
      "U128",
      "String",
      "Reference",
      "Own",
      "Decimal",
      "PreciseDecimal",
      "NonFungibleLocalId"
    ),
    ...sborNamed,
    value: Schema.String
  }),
  Schema.Struct({
    kind: Schema.Literal("Array"),
    ...sborNamed,
    element_kind: ProgrammaticScryptoSborValueKind,
    element_type_name: opt(Schema.String),
    elements: Schema.Array(sborValue)
  }),
  Schema.Struct({
    kind: Schema.Literal("Bytes"),
    ...sborNamed,
    element_kind: ProgrammaticScryptoSborValueKind,
    element_type_name: opt(Schema.String),
    hex: Schema.String
  }),
  Schema.Struct({
    kind: Schema.Literal("Enum"),
    ...sborNamed,
    variant_id: Schema.Union(Schema.String, Schema.Number),
    variant_name: opt(Schema.String),
    fields: Schema.Array(sborValue)
  }),
  Schema.Struct({ kind: Schema.Literal("Tuple"), ...sborNamed, fields: Schema.Array(sborValue) }),
  Schema.Struct({
    kind: Schema.Literal("Map"),
    ...sborNamed,
    key_kind: ProgrammaticScryptoSborValueKind,
    key_type_name: opt(Schema.String),
    value_kind: ProgrammaticScryptoSborValueKind,
    value_type_name: opt(Schema.String),
    entries: Schema.Array(Schema.Struct({ key: sborValue, value: sborValue }))
  })
) as unknown as Schema.Schema<ProgrammaticScryptoSborValue, unknown>

export const ScryptoSborValue = Schema.Struct({
  raw_hex: Schema.String,
  programmatic_json: ProgrammaticScryptoSborValue
})
export type ScryptoSborValue = typeof ScryptoSborValue.Type

export const NonFungibleGlobalId = Schema.Struct({ resource_address: Schema.String, non_fungible_id: Schema.String })

// ---------------------------------------------------------------------------------------------------------------------
// Metadata

const stringScalars = [
  "String",
  "U8",
  "U32",
  "U64",
  "I32",
  "I64",
  "Decimal",
  "GlobalAddress",
  "NonFungibleLocalId",
  "Url",
  "Origin"
] as const
const stringArrays = [
  "StringArray",
  "U32Array",
  "U64Array",
  "I32Array",
  "I64Array",
  "DecimalArray",
  "GlobalAddressArray",
  "NonFungibleLocalIdArray",
  "UrlArray",
  "OriginArray"
] as const

export const MetadataValueType = literalEnum(
  ...stringScalars,
  "Bool",
  "PublicKey",
  "NonFungibleGlobalId",
  "Instant",
  "PublicKeyHash",
  ...stringArrays,
  "BoolArray",
  "U8Array",
  "PublicKeyArray",
  "NonFungibleGlobalIdArray",
  "InstantArray",
  "PublicKeyHashArray"
)
export type MetadataValueType = typeof MetadataValueType.Type

/** `MetadataTypedValue`, discriminated by `type` (32 variants; U8…I64 and Decimal values are strings). */
export const MetadataTypedValue = taggedUnion(
  "type",
  Schema.Struct({ type: Schema.Literal(...stringScalars), value: Schema.String }),
  Schema.Struct({ type: Schema.Literal("Bool"), value: Schema.Boolean }),
  Schema.Struct({ type: Schema.Literal("PublicKey"), value: PublicKey }),
  Schema.Struct({ type: Schema.Literal("PublicKeyHash"), value: PublicKeyHash }),
  Schema.Struct({
    type: Schema.Literal("NonFungibleGlobalId"),
    resource_address: Schema.String,
    non_fungible_id: Schema.String
  }),
  Schema.Struct({ type: Schema.Literal("Instant"), value: Schema.String, unix_timestamp_seconds: Schema.String }),
  Schema.Struct({ type: Schema.Literal(...stringArrays), values: Schema.Array(Schema.String) }),
  Schema.Struct({ type: Schema.Literal("BoolArray"), values: Schema.Array(Schema.Boolean) }),
  Schema.Struct({ type: Schema.Literal("U8Array"), value_hex: Schema.String }),
  Schema.Struct({ type: Schema.Literal("PublicKeyArray"), values: Schema.Array(PublicKey) }),
  Schema.Struct({ type: Schema.Literal("PublicKeyHashArray"), values: Schema.Array(PublicKeyHash) }),
  Schema.Struct({ type: Schema.Literal("NonFungibleGlobalIdArray"), values: Schema.Array(NonFungibleGlobalId) }),
  Schema.Struct({
    type: Schema.Literal("InstantArray"),
    values: Schema.Array(Schema.String),
    values_unix_timestamp_seconds: Schema.Array(Schema.String)
  })
)
export type MetadataTypedValue = typeof MetadataTypedValue.Type

export const EntityMetadataItemValue = Schema.Struct({
  raw_hex: Schema.String,
  programmatic_json: ProgrammaticScryptoSborValue,
  typed: MetadataTypedValue
})

export const EntityMetadataItem = Schema.Struct({
  key: Schema.String,
  value: EntityMetadataItemValue,
  is_locked: Schema.Boolean,
  last_updated_at_state_version: Schema.Number
})
export type EntityMetadataItem = typeof EntityMetadataItem.Type

export const EntityMetadataCollection = collection(EntityMetadataItem)
export type EntityMetadataCollection = typeof EntityMetadataCollection.Type
