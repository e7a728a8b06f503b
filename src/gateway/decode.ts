/**
 * Fast response decoding. Every Gateway schema keeps its public definition (and its canonical `Schema.decodeUnknown`);
 * this module compiles, once per schema, a *fast decoder*: the same checks, producing the same value, without the
 * cost of Effect's general interpreter on large pages.
 *
 * Where the time went, first: every struct with an `opt` field (`optionalWith(s, { nullable: true })`) is a
 * Transformation in Effect Schema. Decoding a Transformation decodes its `from` side, maps `null` to absent, and then
 * validates the whole `to` (Type) side again, including every nested struct. With collections nested 5 deep
 * (response → item → collection → resource → vaults) the leaves were walked up to 5 times. The fast decoder decodes the
 * `from` side and applies the property-signature `decode` functions (null → absent) in the same key order as Effect's
 * interpreter, and does not re-validate the `to` side: for these transformations it only re-checks what `from`
 * already checked (`optionalWith` maps `S | null` to `typeSchema(S)`). A {@link taggedUnion} dispatches on its
 * discriminator to its members.
 *
 * Second, allocation: Effect's interpreter wraps every leaf in an `Either`, keeps an issue list per struct and builds
 * closures per call, which made a 440 KB page allocate about ten times its own size. The fast decoder returns plain
 * values and a {@link Fail} marker, so it allocates only the output objects and arrays.
 *
 * Third, calls: a leaf (a string, number or boolean keyword, a literal, or a union of these) is data, not a closure, and
 * a struct, an array or a union checks it inline; an `optionalWith` struct transformation is one pass over its `from`
 * struct that leaves out the nulls. On a vault-aggregated details page of 440 KB, each time freshly parsed (as the
 * client gets it), that took the decode from about 1.35 ms to 0.95–1.0 ms; `JSON.parse` of it takes 2.4 ms and the
 * SDK's model mapping 0.4–0.9 ms.
 *
 * Natively compiled: string/number/boolean/undefined keywords, literals, unknown/any, refinements (their own filter),
 * structs without index signatures, plain arrays, unions whose members are all primitives (plus at most one
 * object-shaped member), suspensions, the `optionalWith` struct transformations and tagged unions. Any other node is
 * decoded by Effect's own decoder for that node, so it is exactly canonical there.
 *
 * {@link decodeResponse} runs the fast decoder and, only when it fails, the canonical decoder, so an error is exactly
 * the canonical ParseError (same paths and messages). A successful fast decode equals the canonical one (tested on every
 * fixture, on mutations of them and on generated pages in test/gateway/decode.test.ts).
 */
import { Either, Option, ParseResult, Schema, SchemaAST } from "effect"
import { nullDroppingDecodes, TaggedUnionSpec, type TaggedUnionSpecValue } from "./schemas/spec"

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
  // `opt` fields: a present null is dropped, anything else kept, with no Option built (see nullDroppingDecodes).
  const dropsNull = transformations.map((t) => nullDroppingDecodes.has(t.decode))
  // Copy-on-write: `decoded` may be the caller's input itself (see {@link struct}), so it is never modified.
  return (decoded) => {
    let drop: Set<PropertyKey> | undefined
    let changed: Map<PropertyKey, unknown> | undefined
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as PropertyKey
      if (dropsNull[i] === true) {
        if (decoded[key] === null && hasOwn.call(decoded, key)) (drop ??= new Set()).add(key)
        continue
      }
      if (!hasOwn.call(decoded, key)) continue
      const value = decoded[key]
      const o = (decodes[i] as (o: Option.Option<unknown>) => Option.Option<unknown>)(Option.some(value))
      if (Option.isNone(o)) (drop ??= new Set()).add(key)
      else if (o.value !== value) (changed ??= new Map()).set(key, o.value)
    }
    if (drop === undefined && changed === undefined) return decoded
    const out: Record<PropertyKey, unknown> = {}
    for (const key of Reflect.ownKeys(decoded)) {
      if (drop?.has(key) === true) continue
      out[key] = changed?.has(key) === true ? changed.get(key) : decoded[key]
    }
    return out
  }
}

/** What a fast decoder returns when the input does not decode (the canonical decoder then says why). */
const Fail: unique symbol = Symbol("hswap/gateway/decode/Fail")
type Fast = (input: unknown) => unknown

/** The canonical decoder of one node, for the nodes the fast compiler leaves to Effect. */
const delegate = (ast: SchemaAST.AST): Fast => {
  const decode = decoderOf(ast)
  return (input) => {
    const result = decode(input)
    return Either.isRight(result) ? result.right : Fail
  }
}

const isObject = (u: unknown): u is Record<PropertyKey, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * A node whose decode is the identity and that accepts only primitives (or `undefined`/`null`), never an object: a
 * string/number/boolean/undefined keyword, a literal, or a union of these. Described as data rather than a closure, so
 * that a struct, an array or a union checks it inline ({@link accepts}) instead of through a closure call per value
 * (the calls and the megamorphic dispatch cost more than the checks).
 */
interface Leaf {
  /** The `typeof` kinds it accepts (see the bits below); `null` is its own bit. */
  readonly mask: number
  /** Literals it accepts besides (no `null`: that is {@link NULL}). */
  readonly literals: ReadonlyArray<unknown>
}
const STRING = 1
const NUMBER = 2
const BOOLEAN = 4
const UNDEFINED = 8
const NULL = 16

const leafOf = (ast: SchemaAST.AST): Leaf | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return { mask: STRING, literals: [] }
    case "NumberKeyword":
      return { mask: NUMBER, literals: [] }
    case "BooleanKeyword":
      return { mask: BOOLEAN, literals: [] }
    case "UndefinedKeyword":
      return { mask: UNDEFINED, literals: [] }
    case "Literal":
      return ast.literal === null ? { mask: NULL, literals: [] } : { mask: 0, literals: [ast.literal] }
    case "Union": {
      let mask = 0
      const literals: Array<unknown> = []
      for (const member of ast.types) {
        const leaf = leafOf(member)
        if (leaf === undefined) return undefined
        mask |= leaf.mask
        for (const literal of leaf.literals) literals.push(literal)
      }
      return { mask, literals }
    }
    default:
      return undefined
  }
}

/** Whether `leaf` accepts `u` (its decode is then `u` itself). */
const accepts = (leaf: Leaf, u: unknown): boolean => {
  switch (typeof u) {
    case "string":
      if ((leaf.mask & STRING) !== 0) return true
      break
    case "number":
      if ((leaf.mask & NUMBER) !== 0) return true
      break
    case "boolean":
      if ((leaf.mask & BOOLEAN) !== 0) return true
      break
    case "undefined":
      if ((leaf.mask & UNDEFINED) !== 0) return true
      break
    case "object":
      if (u === null) return (leaf.mask & NULL) !== 0
      return false
  }
  const literals = leaf.literals
  for (let i = 0; i < literals.length; i++) if (literals[i] === u) return true
  return false
}

/** Nodes that reject every primitive input (they need an object or an array). */
const isObjectShaped = (ast: SchemaAST.AST): boolean => {
  switch (ast._tag) {
    case "TypeLiteral":
    case "TupleType":
      return true
    case "Transformation":
      return ast.transformation._tag === "TypeLiteralTransformation" && ast.from._tag === "TypeLiteral"
    case "Declaration":
      return ast.annotations[TaggedUnionSpec] !== undefined
    default:
      return false
  }
}

const fastMemo = new WeakMap<SchemaAST.AST, Fast>()

/** The fast decoder of `ast` (see the module comment). Memoized per AST node. */
const fast = (ast: SchemaAST.AST): Fast => {
  const memo = fastMemo.get(ast)
  if (memo !== undefined) return memo
  // A recursive schema reaches itself through a Suspend, which compiles lazily, so this never loops.
  const compiled = compile(ast)
  fastMemo.set(ast, compiled)
  return compiled
}

const compile = (ast: SchemaAST.AST): Fast => {
  const leaf = leafOf(ast)
  if (leaf !== undefined) return (u) => (accepts(leaf, u) ? u : Fail)
  switch (ast._tag) {
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "Refinement": {
      const from = fast(ast.from)
      const filter = ast.filter
      return (u) => {
        const a = from(u)
        return a === Fail || Option.isSome(filter(a, SchemaAST.defaultParseOption, ast)) ? Fail : a
      }
    }
    case "TypeLiteral":
      return ast.indexSignatures.length === 0 ? struct(ast, undefined) : delegate(ast)
    case "TupleType": {
      const rest = ast.rest[0]
      if (ast.elements.length !== 0 || ast.rest.length !== 1 || rest === undefined) return delegate(ast)
      const itemLeaf = leafOf(rest.type)
      if (itemLeaf !== undefined)
        // Every item decodes to itself: the input array is the output.
        return (u) => {
          if (!Array.isArray(u)) return Fail
          for (let i = 0; i < u.length; i++) if (!accepts(itemLeaf, u[i])) return Fail
          return u
        }
      const item = fast(rest.type)
      // Copy-on-write: while every item decodes to itself the input array is the output (see {@link struct}).
      return (u) => {
        if (!Array.isArray(u)) return Fail
        let out: Array<unknown> | undefined
        for (let i = 0; i < u.length; i++) {
          const raw: unknown = u[i]
          const v = item(raw)
          if (v === Fail) return Fail
          if (out !== undefined) out[i] = v
          else if (v !== raw) {
            out = u.slice(0, i)
            out.length = u.length
            out[i] = v
          }
        }
        return out ?? u
      }
    }
    case "Union":
      return union(ast)
    case "Suspend": {
      let target: Fast | undefined
      const thunk = ast.f
      return (u) => (target ??= fast(thunk()))(u)
    }
    case "Declaration": {
      const spec = ast.annotations[TaggedUnionSpec] as TaggedUnionSpecValue | undefined
      return spec === undefined ? delegate(ast) : taggedUnionFast(spec)
    }
    case "Transformation": {
      if (ast.transformation._tag !== "TypeLiteralTransformation") return delegate(ast)
      const transformations = ast.transformation.propertySignatureTransformations
      // The usual case (every field an `opt`): one pass that decodes the `from` struct and drops its nulls.
      if (
        ast.from._tag === "TypeLiteral" &&
        ast.from.indexSignatures.length === 0 &&
        transformations.every((t) => t.from === t.to && nullDroppingDecodes.has(t.decode))
      )
        return struct(ast.from, new Set(transformations.map((t) => t.from)))
      const apply = propertySignatureStep(transformations)
      if (apply === undefined) return delegate(ast)
      const from = fast(ast.from)
      return (u) => {
        const a = from(u)
        return a === Fail ? Fail : apply(a as Record<PropertyKey, unknown>)
      }
    }
    default:
      return delegate(ast)
  }
}

/**
 * A struct as Effect decodes it with the default options: a non-array object; every property signature in order (an
 * absent optional key is skipped, an absent required key decodes `undefined`); excess keys dropped.
 *
 * With `dropNull` (the keys of `opt` fields), it is the `from` side of an `optionalWith(…, { nullable: true })`
 * struct transformation and its `decode` in one pass: a key in `dropNull` whose value is a present `null` is left out
 * of the output, as that transformation's decode (`Option.filter(isNotNull)`) leaves it out after the `from` side
 * accepted the `null`. (The `to` side is not checked again: for these transformations it only re-checks what `from`
 * already checked.)
 *
 * Copy-on-write: when every present key decodes to the very same value, no key is dropped, no required key is absent
 * and the input has no other own key, the decoded value is equal to the input, so the input itself is returned and
 * nothing is allocated (the usual case for a Gateway body: decoding then costs a walk, not a second copy of the parsed
 * JSON). Otherwise a fresh object is built. The only observable difference from Effect's output is then key order (the
 * input's, not the schema's). The input is never modified.
 *
 * A field whose type is a {@link Leaf} is checked inline, without a call.
 */
const struct = (ast: SchemaAST.TypeLiteral, dropNull: ReadonlySet<PropertyKey> | undefined): Fast => {
  const signatures = ast.propertySignatures
  const names = signatures.map((ps) => ps.name)
  const optional = signatures.map((ps) => ps.isOptional)
  const drops = names.map((name) => dropNull?.has(name) === true)
  // In a JSON value (plain objects), a key Object.prototype does not have is own when its value is not `undefined`:
  // one load instead of a hasOwn call and a load. A key it has (`toString`, …) is always tested with hasOwn.
  const inherited = names.map((name) => name in Object.prototype)
  const leaves = signatures.map((ps) => leafOf(ps.type))
  const decoders = signatures.map((ps, i) => (leaves[i] === undefined ? fast(ps.type) : (u: unknown) => u))
  const n = names.length
  /** A fresh output with the keys before `i` as they decoded (each was its input value, or was dropped). */
  const copyBefore = (u: Record<PropertyKey, unknown>, i: number): Record<PropertyKey, unknown> => {
    const out: Record<PropertyKey, unknown> = {}
    for (let j = 0; j < i; j++) {
      const earlier = names[j] as PropertyKey
      if (optional[j] === true && !hasOwn.call(u, earlier)) continue
      const value = u[earlier]
      if (drops[j] === true && value === null) continue
      out[earlier] = value
    }
    return out
  }
  return (u) => {
    if (!isObject(u)) return Fail
    let out: Record<PropertyKey, unknown> | undefined
    let present = 0
    for (let i = 0; i < n; i++) {
      const name = names[i] as PropertyKey
      const raw = u[name]
      const has = jsonInput && inherited[i] !== true ? raw !== undefined || hasOwn.call(u, name) : hasOwn.call(u, name)
      if (optional[i] === true && !has) continue
      if (raw === null && has && drops[i] === true) {
        // A present null of an `opt` field: absent in the output.
        out ??= copyBefore(u, i)
        continue
      }
      const leaf = leaves[i]
      let v: unknown
      if (leaf !== undefined) {
        if (!accepts(leaf, raw)) return Fail
        v = raw
      } else {
        v = (decoders[i] as Fast)(raw)
        if (v === Fail) return Fail
      }
      if (out !== undefined) out[name] = v
      else if (has && v === raw) present += 1
      else {
        out = copyBefore(u, i)
        out[name] = v
      }
    }
    if (out !== undefined) return out
    if (ownKeyCount(u) === present) return u
    out = {}
    for (let i = 0; i < n; i++) {
      const name = names[i] as PropertyKey
      if (hasOwn.call(u, name)) out[name] = u[name]
    }
    return out
  }
}

/**
 * Whether the input being decoded came from `JSON.parse` ({@link decodeJson}): its objects then have only enumerable
 * string keys and the plain prototype, so a `for…in` counts every own key, without the (costly) symbol lookup or an
 * array of keys. Set only for the duration of one synchronous decode.
 */
let jsonInput = false

const ownKeyCount = (u: object): number => {
  if (!jsonInput) return Reflect.ownKeys(u).length
  let count = 0
  for (const _ in u) count += 1
  return count
}

/**
 * A union of primitives decodes to its input when one member accepts it (the output does not depend on which). With
 * one object-shaped member besides, an object can only be that member's and a primitive only the others'. Any other
 * union keeps Effect's candidate order, so it is left to Effect.
 */
const union = (ast: SchemaAST.Union): Fast => {
  let mask = 0
  const literals: Array<unknown> = []
  const objects: Array<SchemaAST.AST> = []
  for (const member of ast.types) {
    const leaf = leafOf(member)
    if (leaf !== undefined) {
      mask |= leaf.mask
      for (const literal of leaf.literals) literals.push(literal)
    } else if (isObjectShaped(member)) objects.push(member)
    else return delegate(ast)
  }
  if (objects.length > 1) return delegate(ast)
  const primitives: Leaf = { mask, literals }
  const objectMember = objects[0]
  const object = objectMember === undefined ? undefined : fast(objectMember)
  return (u) => {
    if (typeof u === "object" && u !== null) return object === undefined ? Fail : object(u)
    return accepts(primitives, u) ? u : Fail
  }
}

const taggedUnionFast = (spec: TaggedUnionSpecValue): Fast => {
  const byTag = new Map<unknown, Fast>()
  for (const [literal, member] of spec.members) byTag.set(literal, fast(member))
  const fallback = fast(spec.fallback)
  const key = spec.key
  return (u) => (isObject(u) ? (byTag.get(u[key]) ?? fallback)(u) : Fail)
}

const compiled = new WeakMap<SchemaAST.AST, { fast: Fast; canonical: Decode }>()

const entryOf = (schema: Schema.Schema.Any) => {
  let entry = compiled.get(schema.ast)
  if (entry === undefined) {
    entry = { fast: fast(schema.ast), canonical: decoderOf(schema.ast) }
    compiled.set(schema.ast, entry)
  }
  return entry
}

/**
 * The fast decoder alone: whether it accepts is decided without the canonical decoder, which only supplies the issue
 * when it rejects. For tests that check the fast path accepts and rejects exactly what Effect does.
 */
export const decodeTwin = <A, I>(
  schema: Schema.Schema<A, I, never>,
  input: unknown
): Either.Either<A, ParseResult.ParseIssue> => {
  const entry = entryOf(schema)
  const value = entry.fast(input)
  if (value !== Fail) return Either.right(value as A)
  const canonical = entry.canonical(input)
  return Either.isLeft(canonical)
    ? Either.left(canonical.left)
    : Either.left(new ParseResult.Forbidden(schema.ast, input, "the fast decoder rejected what Effect accepts"))
}

/**
 * {@link decodeResponse} for a value `JSON.parse` returned (what the client decodes): objects whose own keys are all
 * enumerable strings. The result is the same; only the check that an object has no key besides its schema's is cheaper.
 */
export const decodeJson = <A, I>(
  schema: Schema.Schema<A, I, never>,
  parsed: unknown
): Either.Either<A, ParseResult.ParseError> => {
  const entry = entryOf(schema)
  jsonInput = true
  let value: unknown
  try {
    value = entry.fast(parsed)
  } finally {
    jsonInput = false
  }
  if (value !== Fail) return Either.right(value as A)
  return Either.mapLeft(entry.canonical(parsed), ParseResult.parseError) as Either.Either<A, ParseResult.ParseError>
}

/** The fast decoder alone in {@link decodeJson}'s mode: the value, or none where it rejects. For tests. */
export const decodeJsonFast = <A, I>(schema: Schema.Schema<A, I, never>, parsed: unknown): Option.Option<A> => {
  const entry = entryOf(schema)
  jsonInput = true
  try {
    const value = entry.fast(parsed)
    return value === Fail ? Option.none() : Option.some(value as A)
  } finally {
    jsonInput = false
  }
}

/**
 * Decodes `input` with the compiled fast decoder of `schema` (compiled on first use, then cached); on failure returns
 * the canonical decoder's result, so errors read exactly as `Schema.decodeUnknownEither(schema)` would report them.
 */
export const decodeResponse = <A, I>(
  schema: Schema.Schema<A, I, never>,
  input: unknown
): Either.Either<A, ParseResult.ParseError> => {
  const entry = entryOf(schema)
  const value = entry.fast(input)
  if (value !== Fail) return Either.right(value as A)
  return Either.mapLeft(entry.canonical(input), ParseResult.parseError) as Either.Either<A, ParseResult.ParseError>
}
