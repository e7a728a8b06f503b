/**
 * Fast response decoding. Every Gateway schema keeps its public definition (and its canonical `Schema.decodeUnknown`);
 * this module compiles, once per schema, a *decode twin*: the same checks without the cost that made a 450 KB entity
 * details page take ~15 ms.
 *
 * Where the time went: every struct with an `opt` field (`optionalWith(s, { nullable: true })`) is a Transformation in
 * Effect Schema. Decoding a Transformation decodes its `from` side, maps `null` to absent, and then validates the
 * whole `to` (Type) side again, including every nested struct. With collections nested 5 deep (response → item →
 * collection → resource → vaults) the leaves were walked up to 5 times, and each `to` pass of a tagged union went
 * through the plain union. That was ~85% of the decode time.
 *
 * The twin rewrites the AST:
 * - a struct Transformation made of property-signature transformations becomes a declaration that decodes the `from`
 *   side (its nested structs rewritten too) and applies the property-signature `decode` functions (null → absent), in
 *   the same key order as Effect's interpreter. The `to` side is not re-validated: for these transformations it only
 *   re-checks what `from` already checked (`optionalWith` maps `S | null` to `typeSchema(S)`).
 * - a {@link taggedUnion} dispatches on its discriminator to the twins of its members.
 * - structs, arrays, unions and refinements are rebuilt with rewritten children; anything else is left as it is.
 *
 * {@link decodeResponse} runs the twin and, only when it fails, the canonical decoder, so an error is exactly the
 * canonical ParseError (same paths and messages). A successful twin decode equals the canonical one (tested on every
 * fixture and on generated pages in test/gateway/decode.test.ts).
 */
import { Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import { TaggedUnionSpec, type TaggedUnionSpecValue } from "./schemas/spec.js"

type Decode = (input: unknown, options?: SchemaAST.ParseOptions) => Either.Either<unknown, ParseResult.ParseIssue>

const decoderOf = (ast: SchemaAST.AST): Decode =>
  ParseResult.decodeUnknownEither(Schema.make<unknown, unknown, never>(ast))

const hasOwn = Object.prototype.hasOwnProperty

/**
 * The property-signature transformations of a struct, applied to the (fresh) object its `from` side decoded to. Only
 * same-key transformations that keep an absent key absent (what `optionalWith` builds) are handled here; `undefined`
 * means "leave this Transformation to Effect". A key whose `decode` answers none is dropped (`null` → absent).
 */
const propertySignatureStep = (
  transformations: ReadonlyArray<SchemaAST.PropertySignatureTransformation>
): ((decoded: Record<PropertyKey, unknown>) => Record<PropertyKey, unknown>) | undefined => {
  if (transformations.some((t) => t.from !== t.to || Option.isSome(t.decode(Option.none())))) return undefined
  const keys = transformations.map((t) => t.from)
  const decodes = transformations.map((t) => t.decode)
  return (decoded) => {
    let drop: Set<PropertyKey> | undefined
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as PropertyKey
      if (!hasOwn.call(decoded, key)) continue
      const value = decoded[key]
      const o = (decodes[i] as (o: Option.Option<unknown>) => Option.Option<unknown>)(Option.some(value))
      if (Option.isNone(o)) (drop ??= new Set()).add(key)
      else if (o.value !== value) decoded[key] = o.value
    }
    if (drop === undefined) return decoded
    const out: Record<PropertyKey, unknown> = {}
    for (const key of Reflect.ownKeys(decoded)) if (!drop.has(key)) out[key] = decoded[key]
    return out
  }
}

const twinMemo = new WeakMap<SchemaAST.AST, SchemaAST.AST>()

/** The decode twin of `ast` (see the module comment). Memoized per AST node. */
export const twinAST = (ast: SchemaAST.AST): SchemaAST.AST => {
  const memo = twinMemo.get(ast)
  if (memo !== undefined) return memo
  const twin = rewrite(ast)
  twinMemo.set(ast, twin)
  return twin
}

const rewrite = (ast: SchemaAST.AST): SchemaAST.AST => {
  switch (ast._tag) {
    case "TypeLiteral": {
      const ps = ast.propertySignatures.map(
        (p) => new SchemaAST.PropertySignature(p.name, twinAST(p.type), p.isOptional, p.isReadonly, p.annotations)
      )
      const is = ast.indexSignatures.map(
        (s) => new SchemaAST.IndexSignature(s.parameter, twinAST(s.type), s.isReadonly)
      )
      return new SchemaAST.TypeLiteral(ps, is, ast.annotations)
    }
    case "TupleType":
      return new SchemaAST.TupleType(
        ast.elements.map((e) => new SchemaAST.OptionalType(twinAST(e.type), e.isOptional, e.annotations)),
        ast.rest.map((r) => new SchemaAST.Type(twinAST(r.type), r.annotations)),
        ast.isReadonly,
        ast.annotations
      )
    case "Union":
      return SchemaAST.Union.make(ast.types.map(twinAST), ast.annotations)
    case "Refinement":
      return new SchemaAST.Refinement(twinAST(ast.from), ast.filter, ast.annotations)
    case "Declaration": {
      const spec = ast.annotations[TaggedUnionSpec] as TaggedUnionSpecValue | undefined
      return spec === undefined ? ast : taggedUnionTwin(spec, ast)
    }
    case "Transformation": {
      if (ast.transformation._tag !== "TypeLiteralTransformation") return ast
      const apply = propertySignatureStep(ast.transformation.propertySignatureTransformations)
      if (apply === undefined) return ast
      const from = decoderOf(twinAST(ast.from))
      return new SchemaAST.Declaration(
        [],
        () => (input, options) => Either.map(from(input, options), (a) => apply(a as Record<PropertyKey, unknown>)),
        () => (input, _options, self) => ParseResult.fail(new ParseResult.Forbidden(self, input, "decode twin")),
        { [SchemaAST.IdentifierAnnotationId]: `DecodeTwin<${String(ast.to)}>` }
      )
    }
    default:
      return ast
  }
}

const taggedUnionTwin = (spec: TaggedUnionSpecValue, original: SchemaAST.Declaration): SchemaAST.AST => {
  const byTag = new Map<unknown, Decode>()
  for (const [literal, member] of spec.members) byTag.set(literal, decoderOf(twinAST(member)))
  const fallback = decoderOf(twinAST(spec.fallback))
  return new SchemaAST.Declaration(
    [],
    () => (input, options, self) =>
      typeof input === "object" && input !== null && !Array.isArray(input)
        ? (byTag.get((input as Record<string, unknown>)[spec.key]) ?? fallback)(input, options)
        : ParseResult.fail(new ParseResult.Type(self, input, `Expected an object with a "${spec.key}" discriminator`)),
    () => (input, _options, self) => ParseResult.fail(new ParseResult.Forbidden(self, input, "decode twin")),
    original.annotations
  )
}

const compiled = new WeakMap<SchemaAST.AST, { twin: Decode; canonical: Decode }>()

const compile = (schema: Schema.Schema.Any) => {
  let entry = compiled.get(schema.ast)
  if (entry === undefined) {
    entry = { twin: decoderOf(twinAST(schema.ast)), canonical: decoderOf(schema.ast) }
    compiled.set(schema.ast, entry)
  }
  return entry
}

/** The twin alone (no canonical retry): for tests that check the fast path accepts and rejects what Effect does. */
export const decodeTwin = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown) =>
  compile(schema).twin(input) as Either.Either<A, ParseResult.ParseIssue>

/**
 * Decodes `input` with the compiled twin of `schema` (compiled on first use, then cached); on failure returns the
 * canonical decoder's result, so errors read exactly as `Schema.decodeUnknownEither(schema)` would report them.
 */
export const decodeResponse = <A, I>(
  schema: Schema.Schema<A, I, never>,
  input: unknown
): Either.Either<A, ParseResult.ParseError> => {
  const entry = compile(schema)
  const fast = entry.twin(input)
  if (Either.isRight(fast)) return fast as Either.Either<A, never>
  return Either.mapLeft(entry.canonical(input), ParseResult.parseError) as Either.Either<A, ParseResult.ParseError>
}
