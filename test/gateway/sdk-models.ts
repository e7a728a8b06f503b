/**
 * Reads the official SDK's generated models (`@radixdlt/babylon-gateway-api-sdk@1.10.1`, a devDependency: its
 * `dist/generated/models/*.d.ts`, generated from the Gateway's OpenAPI spec) and compares them, field by field, with
 * our Schemas: which fields exist, which are required, discriminated unions and their variants, enums and primitive
 * kinds. Used by sdk-models.test.ts.
 */
import { SchemaAST } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { TaggedUnionSpec, type TaggedUnionSpecValue } from "../../src/gateway/schemas/spec.js"

export const sdkModelsDir = fileURLToPath(
  new URL("../../node_modules/@radixdlt/babylon-gateway-api-sdk/dist/generated/models", import.meta.url)
)

/** A field's type as the SDK writes it. */
export type SdkType =
  | { readonly kind: "string" | "number" | "boolean" | "object" | "any" }
  | { readonly kind: "array"; readonly item: SdkType }
  | { readonly kind: "ref"; readonly name: string }
  | { readonly kind: "literals"; readonly values: ReadonlyArray<string> }

export interface SdkField {
  readonly name: string
  readonly optional: boolean
  readonly nullable: boolean
  readonly type: SdkType
}

export type SdkModel =
  | { readonly kind: "interface"; readonly name: string; readonly fields: ReadonlyArray<SdkField> }
  | {
      readonly kind: "union"
      readonly name: string
      readonly key: string
      /** Discriminator value → model name. */
      readonly variants: ReadonlyMap<string, string>
    }
  | { readonly kind: "enum"; readonly name: string; readonly values: ReadonlyArray<string> }

const typeOf = (node: ts.TypeNode, enums: ReadonlyMap<string, ReadonlyArray<string>>): SdkType => {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { kind: "string" }
    case ts.SyntaxKind.NumberKeyword:
      return { kind: "number" }
    case ts.SyntaxKind.BooleanKeyword:
      return { kind: "boolean" }
    case ts.SyntaxKind.ObjectKeyword:
      return { kind: "object" }
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UnknownKeyword:
      return { kind: "any" }
  }
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText()
    const arg = node.typeArguments?.[0]
    if (name === "Array" && arg !== undefined) return { kind: "array", item: typeOf(arg, enums) }
    // The generator types date-time strings as Date; on the wire they are strings.
    if (name === "Date") return { kind: "string" }
    const local = enums.get(name)
    return local === undefined ? { kind: "ref", name } : { kind: "literals", values: local }
  }
  if (ts.isArrayTypeNode(node)) return { kind: "array", item: typeOf(node.elementType, enums) }
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal))
    return { kind: "literals", values: [node.literal.text] }
  throw new Error(`unsupported SDK type ${ts.SyntaxKind[node.kind]}: ${node.getText()}`)
}

/** The enum objects a file declares (`export declare const XEnum: { readonly A: "A" }`). */
const enumsOf = (file: ts.SourceFile): Map<string, ReadonlyArray<string>> => {
  const enums = new Map<string, ReadonlyArray<string>>()
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue
    for (const decl of statement.declarationList.declarations) {
      if (decl.type === undefined || !ts.isTypeLiteralNode(decl.type)) continue
      const values = decl.type.members.flatMap((m) =>
        ts.isPropertySignature(m) &&
        m.type !== undefined &&
        ts.isLiteralTypeNode(m.type) &&
        ts.isStringLiteral(m.type.literal)
          ? [m.type.literal.text]
          : []
      )
      enums.set(decl.name.getText(), values)
    }
  }
  return enums
}

const parseModel = (name: string, text: string): SdkModel | undefined => {
  const file = ts.createSourceFile(`${name}.d.ts`, text, ts.ScriptTarget.Latest, true)
  const enums = enumsOf(file)
  for (const statement of file.statements) {
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === name) {
      const fields = statement.members.flatMap((m): Array<SdkField> => {
        if (!ts.isPropertySignature(m) || m.type === undefined) return []
        const parts = ts.isUnionTypeNode(m.type) ? m.type.types : [m.type]
        const nonNull = parts.filter((p) => !(ts.isLiteralTypeNode(p) && p.literal.kind === ts.SyntaxKind.NullKeyword))
        const only = nonNull[0]
        if (nonNull.length !== 1 || only === undefined) throw new Error(`${name}.${m.name.getText()}: union type`)
        return [
          {
            // The generator renames fields that are reserved words (`class` → `_class`, `package` → `_package`); the wire name is the JSON one.
            name: m.name
              .getText()
              .replace(/^['"]|['"]$/g, "")
              .replace(/^_(class|package)$/, "$1"),
            optional: m.questionToken !== undefined,
            nullable: nonNull.length !== parts.length,
            type: typeOf(only, enums)
          }
        ]
      })
      return { kind: "interface", name, fields }
    }
    if (ts.isTypeAliasDeclaration(statement) && statement.name.text === name) {
      const type = statement.type
      if (ts.isIndexedAccessTypeNode(type)) {
        const values = enums.get(name)
        if (values === undefined) throw new Error(`${name}: enum without values`)
        return { kind: "enum", name, values }
      }
      const members = ts.isIntersectionTypeNode(type) ? [type] : ts.isUnionTypeNode(type) ? type.types : []
      if (members.length > 0 && members.every(ts.isIntersectionTypeNode)) {
        let key: string | undefined
        const variants = new Map<string, string>()
        for (const member of members as ReadonlyArray<ts.IntersectionTypeNode>) {
          const [tag, ref] = member.types
          if (tag === undefined || ref === undefined || !ts.isTypeLiteralNode(tag) || !ts.isTypeReferenceNode(ref))
            throw new Error(`${name}: unexpected union member ${member.getText()}`)
          const prop = tag.members[0]
          if (prop === undefined || !ts.isPropertySignature(prop) || prop.type === undefined) throw new Error(name)
          key = prop.name.getText()
          const literal = prop.type
          if (!ts.isLiteralTypeNode(literal) || !ts.isStringLiteral(literal.literal)) throw new Error(name)
          variants.set(literal.literal.text, ref.typeName.getText())
        }
        if (key === undefined) throw new Error(`${name}: empty union`)
        return { kind: "union", name, key, variants }
      }
    }
  }
  return undefined
}

let cache: ReadonlyMap<string, SdkModel> | undefined

/** Every model of the SDK, by name. */
export const sdkModels = (): ReadonlyMap<string, SdkModel> => {
  if (cache !== undefined) return cache
  const models = new Map<string, SdkModel>()
  for (const file of readdirSync(sdkModelsDir)) {
    if (!file.endsWith(".d.ts") || file === "index.d.ts") continue
    const name = file.slice(0, -".d.ts".length)
    const model = parseModel(name, readFileSync(`${sdkModelsDir}/${file}`, "utf8"))
    if (model !== undefined) models.set(name, model)
  }
  cache = models
  return models
}

// ---------------------------------------------------------------------------------------------------------------------
// Comparison

export interface Comparison {
  /** Differences, e.g. `StateEntityDetailsResponse.items[].details: SDK union on "type", ours a struct`. */
  readonly mismatches: Array<string>
  /** SDK models that a Schema keeps as an opaque JSON object (path → SDK model). */
  readonly opaque: Map<string, string>
  /** SDK models visited (compared field by field). */
  readonly visited: Set<string>
  /** (schema node, SDK model) pairs already compared. */
  readonly seen: WeakMap<SchemaAST.AST, Set<string>>
}

export const emptyComparison = (): Comparison => ({
  mismatches: [],
  opaque: new Map(),
  visited: new Set(),
  seen: new WeakMap()
})

/** The encoded shape of a node: refinements, suspensions and `optionalWith` transformations looked through. */
const encodedNode = (ast: SchemaAST.AST): SchemaAST.AST => {
  switch (ast._tag) {
    case "Refinement":
      return encodedNode(ast.from)
    case "Suspend":
      return encodedNode(ast.f())
    case "Transformation":
      return ast.transformation._tag === "TypeLiteralTransformation" ? encodedNode(ast.from) : ast
    default:
      return ast
  }
}

/** The members of a union other than `null` / `undefined`, and whether it had them. */
const withoutNull = (
  ast: SchemaAST.AST
): { readonly types: ReadonlyArray<SchemaAST.AST>; readonly nullable: boolean } => {
  const node = encodedNode(ast)
  if (node._tag !== "Union") return { types: [node], nullable: false }
  const types = node.types.filter((t) => !(t._tag === "Literal" && t.literal === null) && t._tag !== "UndefinedKeyword")
  return { types: types.map(encodedNode), nullable: types.length !== node.types.length }
}

const literalValues = (ast: SchemaAST.AST): ReadonlyArray<unknown> | undefined => {
  const node = encodedNode(ast)
  if (node._tag === "Literal") return [node.literal]
  if (node._tag === "Union" && node.types.every((t) => t._tag === "Literal"))
    return node.types.map((t) => (t as SchemaAST.Literal).literal)
  return undefined
}

const isOpaqueObject = (node: SchemaAST.AST) =>
  node._tag === "UnknownKeyword" ||
  node._tag === "AnyKeyword" ||
  (node._tag === "TypeLiteral" && node.indexSignatures.length > 0)

export const compareSchema = (root: string, ast: SchemaAST.AST, model: string, out?: Comparison): Comparison => {
  const result: Comparison = out ?? emptyComparison()
  const models = sdkModels()
  const seen = result.seen

  const type = (path: string, ours: SchemaAST.AST, sdk: SdkType): void => {
    const { types } = withoutNull(ours)
    const node = types.length === 1 && types[0] !== undefined ? types[0] : encodedNode(ours)
    switch (sdk.kind) {
      case "string":
      case "number":
      case "boolean": {
        const keyword = { string: "StringKeyword", number: "NumberKeyword", boolean: "BooleanKeyword" }[sdk.kind]
        const literals = literalValues(node)
        // A union that includes the SDK's kind also accepts everything the SDK's model does.
        const inUnion = node._tag === "Union" && node.types.some((t) => encodedNode(t)._tag === keyword)
        const ok =
          node._tag === keyword || inUnion || (literals !== undefined && literals.every((l) => typeof l === sdk.kind))
        if (!ok && !isOpaqueObject(node) && node._tag !== "UnknownKeyword")
          result.mismatches.push(`${path}: SDK ${sdk.kind}, ours ${node._tag}`)
        return
      }
      case "any":
      case "object":
        return
      case "literals": {
        const ourValues = literalValues(node)
        if (ourValues === undefined) {
          if (node._tag !== "StringKeyword") result.mismatches.push(`${path}: SDK enum, ours ${node._tag}`)
          return
        }
        const missing = sdk.values.filter((v) => !ourValues.includes(v))
        const extra = ourValues.filter((v) => !sdk.values.includes(v as string))
        if (missing.length + extra.length > 0)
          result.mismatches.push(
            `${path}: enum differs (ours lacks ${missing.join("|")}; ours adds ${extra.join("|")})`
          )
        return
      }
      case "array": {
        if (node._tag !== "TupleType" || node.rest[0] === undefined) {
          if (!isOpaqueObject(node)) result.mismatches.push(`${path}: SDK array, ours ${node._tag}`)
          return
        }
        type(`${path}[]`, node.rest[0].type, sdk.item)
        return
      }
      case "ref":
        return named(path, node, sdk.name)
    }
  }

  const named = (path: string, node: SchemaAST.AST, name: string, tag?: readonly [string, string]): void => {
    const model = models.get(name)
    if (model === undefined) throw new Error(`${path}: no SDK model ${name}`)
    if (model.kind === "enum") return type(path, node, { kind: "literals", values: model.values })
    if (isOpaqueObject(node) && !(node._tag === "TypeLiteral" && node.propertySignatures.length > 0)) {
      result.opaque.set(path, name)
      return
    }
    // Each (schema node, model) pair once: recursive models (SBOR values) and shared sub-schemas.
    const pairs = seen.get(node) ?? new Set<string>()
    const pair = tag === undefined ? name : `${name}<${tag[1]}>`
    if (pairs.has(pair)) return
    pairs.add(pair)
    seen.set(node, pairs)
    result.visited.add(name)
    if (model.kind === "union") {
      if (node._tag !== "Declaration" || node.annotations[TaggedUnionSpec] === undefined) {
        result.mismatches.push(`${path}: SDK ${name} is a union on "${model.key}", ours is ${node._tag}`)
        return
      }
      const spec = node.annotations[TaggedUnionSpec] as TaggedUnionSpecValue
      if (spec.key !== model.key) result.mismatches.push(`${path}: union key ${spec.key}, SDK ${model.key}`)
      const members = new Map(spec.members.map(([literal, member]) => [literal, member]))
      for (const [literal, variant] of model.variants) {
        const member = members.get(literal)
        if (member === undefined) result.mismatches.push(`${path}: no variant ${model.key}=${literal} (${variant})`)
        else named(`${path}<${literal}>`, encodedNode(member), variant, [model.key, literal])
      }
      for (const literal of members.keys())
        if (!model.variants.has(literal as string)) result.mismatches.push(`${path}: extra variant ${String(literal)}`)
      return
    }
    if (node._tag !== "TypeLiteral") {
      result.mismatches.push(`${path}: SDK ${name} is an object, ours is ${node._tag}`)
      return
    }
    const partial = node.indexSignatures.length > 0
    const ours = new Map(node.propertySignatures.map((ps) => [String(ps.name), ps]))
    for (const field of model.fields) {
      const ps = ours.get(field.name)
      const at = `${path}.${field.name}`
      if (ps === undefined) {
        if (!partial) result.mismatches.push(`${at}: missing (SDK ${field.optional ? "optional" : "required"})`)
        continue
      }
      // A required field the SDK types `T | null`: the Gateway omits nulls, so it may arrive absent.
      const sdkOptional = field.optional || field.nullable
      if (ps.isOptional !== sdkOptional)
        result.mismatches.push(
          `${at}: ours ${ps.isOptional ? "optional" : "required"}, SDK ${field.optional ? "optional" : field.nullable ? "required but nullable" : "required"}`
        )
      if (tag !== undefined && field.name === tag[0]) {
        // A member shared by several discriminator values (e.g. every string-valued metadata type).
        if (!(literalValues(ps.type) ?? []).includes(tag[1])) result.mismatches.push(`${at}: does not accept ${tag[1]}`)
      } else type(at, ps.type, field.type)
    }
    const known = new Set(model.fields.map((f) => f.name))
    for (const key of ours.keys()) if (!known.has(key)) result.mismatches.push(`${path}.${key}: not in SDK ${name}`)
  }

  named(root, encodedNode(ast), model)
  return result
}
