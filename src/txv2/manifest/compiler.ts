/**
 * Compiles the manifest text a pre-authorisation (a subintent manifest) uses into V2 instructions, with the
 * official `.rtm` syntax. Supported instructions:
 * - `USE_CHILD NamedIntent("n") Intent("subtxid_…");` (first, before any other instruction)
 * - `CALL_METHOD Address("…") "method" args…;`
 * - `TAKE_FROM_WORKTOP`, `TAKE_ALL_FROM_WORKTOP`, `TAKE_NON_FUNGIBLES_FROM_WORKTOP`, `RETURN_TO_WORKTOP`
 * - `ASSERT_WORKTOP_CONTAINS`, `ASSERT_WORKTOP_CONTAINS_ANY`, `ASSERT_WORKTOP_CONTAINS_NON_FUNGIBLES`,
 *   `ASSERT_WORKTOP_IS_EMPTY`, `ASSERT_WORKTOP_RESOURCES_ONLY`/`_INCLUDE`, `ASSERT_NEXT_CALL_RETURNS_ONLY`/`_INCLUDE`,
 *   `ASSERT_BUCKET_CONTENTS`
 * - `YIELD_TO_PARENT args…;`, `YIELD_TO_CHILD NamedIntent("n") args…;`, `VERIFY_PARENT access_rule;`
 * and every value form except proofs, named addresses and address reservations: typed integers, strings, bools,
 * `Enum<…>`, `Tuple`, `Array<…>`, `Map<…, …>`, `Some`/`None`/`Ok`/`Err`, `Bytes`, `Address`, `Bucket`,
 * `Expression`, `Blob`, `Decimal`, `PreciseDecimal`, `NonFungibleLocalId`, `NonFungibleGlobalId`.
 * Buckets are numbered in the order they are taken; each one must exist and be passed on at most once.
 * Anything else fails with a `ManifestCompileError` naming the line and column.
 */
import { Either } from "effect"
import { fromHex, toHex } from "../bytes"
import { fixedToString, normalizeDecimal, parseFixed, PRECISE_DECIMAL } from "../decimal"
import { ManifestCompileError } from "../errors"
import { decodeAddress, decodeTransactionId } from "../ids"
import {
  type InstructionV2,
  type NodeId,
  readResourceConstraint,
  readResourceConstraints,
  type ResourceConstraint,
  type ResourceConstraints
} from "../instructions"
import {
  DecodeFailure,
  EncodeFailure,
  isGlobalEntity,
  isResourceEntity,
  MAX_DEPTH,
  type ManifestValue,
  type NonFungibleLocalId,
  nonFungibleLocalIdProblem,
  Reader,
  valueKindOf,
  type ValueKindName,
  Writer,
  writeValue
} from "../sbor"
import { LexFailure, type Token, tokenize } from "./lexer"

export interface CompiledManifest {
  readonly instructions: ReadonlyArray<InstructionV2>
  /** Subintent hashes from `USE_CHILD`, in `NamedIntent` index order. */
  readonly children: ReadonlyArray<Uint8Array>
}

class CompileFailure {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly reason: string
  ) {}
}

const MAX_MANIFEST_CHARS = 1024 * 1024

/** Discriminators for `Enum<Name::Variant>` (radix-transactions manifest_enums.rs). */
const KNOWN_ENUMS: Readonly<Record<string, number>> = {
  "Option::None": 0,
  "Option::Some": 1,
  "Result::Ok": 0,
  "Result::Err": 1,
  "AccessRule::AllowAll": 0,
  "AccessRule::DenyAll": 1,
  "AccessRule::Protected": 2,
  "CompositeRequirement::BasicRequirement": 0,
  "CompositeRequirement::AnyOf": 1,
  "CompositeRequirement::AllOf": 2,
  "AccessRuleNode::ProofRule": 0,
  "AccessRuleNode::AnyOf": 1,
  "AccessRuleNode::AllOf": 2,
  "BasicRequirement::Require": 0,
  "BasicRequirement::AmountOf": 1,
  "BasicRequirement::CountOf": 2,
  "BasicRequirement::AllOf": 3,
  "BasicRequirement::AnyOf": 4,
  "ProofRule::Require": 0,
  "ProofRule::AmountOf": 1,
  "ProofRule::CountOf": 2,
  "ProofRule::AllOf": 3,
  "ProofRule::AnyOf": 4,
  "ResourceOrNonFungible::NonFungible": 0,
  "ResourceOrNonFungible::Resource": 1,
  "PublicKey::Secp256k1": 0,
  "PublicKey::Ed25519": 1,
  "PublicKeyHash::Secp256k1": 0,
  "PublicKeyHash::Ed25519": 1,
  "DefaultDepositRule::Accept": 0,
  "DefaultDepositRule::Reject": 1,
  "DefaultDepositRule::AllowExisting": 2,
  "ResourcePreference::Allowed": 0,
  "ResourcePreference::Disallowed": 1,
  "ResourceConstraint::NonZeroAmount": 0,
  "ResourceConstraint::ExactAmount": 1,
  "ResourceConstraint::AtLeastAmount": 2,
  "ResourceConstraint::ExactNonFungibles": 3,
  "ResourceConstraint::AtLeastNonFungibles": 4,
  "ResourceConstraint::General": 5,
  "LowerBound::NonZero": 0,
  "LowerBound::Inclusive": 1,
  "UpperBound::Inclusive": 0,
  "UpperBound::Unbounded": 1,
  "AllowedIds::Allowlist": 0,
  "AllowedIds::Any": 1
}

/** Value-kind names in `Array<…>`/`Map<…>` and the SBOR kind each stands for. */
const KIND_ALIASES: Readonly<Record<string, ValueKindName>> = {
  Bool: "Bool",
  I8: "I8",
  I16: "I16",
  I32: "I32",
  I64: "I64",
  I128: "I128",
  U8: "U8",
  U16: "U16",
  U32: "U32",
  U64: "U64",
  U128: "U128",
  String: "String",
  Enum: "Enum",
  Array: "Array",
  Tuple: "Tuple",
  Map: "Map",
  Bytes: "Array",
  NonFungibleGlobalId: "Tuple",
  Address: "Address",
  Bucket: "Bucket",
  Proof: "Proof",
  Expression: "Expression",
  Blob: "Blob",
  Decimal: "Decimal",
  PreciseDecimal: "PreciseDecimal",
  NonFungibleLocalId: "NonFungibleLocalId",
  AddressReservation: "AddressReservation",
  NamedAddress: "Address"
}

interface Bucket {
  readonly id: number
  used: boolean
}

class Compiler {
  private pos = 0
  private depth = 0
  private readonly buckets = new Map<string, Bucket>()
  private readonly intents = new Map<string, number>()
  private readonly children: Array<Uint8Array> = []
  private nextBucket = 0

  constructor(
    private readonly tokens: ReadonlyArray<Token>,
    private readonly networkId: number,
    private readonly endLine: number,
    private readonly endCol: number
  ) {}

  private fail(reason: string, tok: Token | undefined = this.tokens[this.pos]): never {
    throw new CompileFailure(tok?.line ?? this.endLine, tok?.col ?? this.endCol, reason)
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos]
  }

  private next(what: string): Token {
    const t = this.tokens[this.pos]
    if (t === undefined) return this.fail(`unexpected end of the manifest, expected ${what}`)
    this.pos += 1
    return t
  }

  private punct(v: string): void {
    const t = this.next(`"${v}"`)
    if (t.t !== "punct" || t.v !== v) this.fail(`expected "${v}"`, t)
  }

  private isPunct(v: string): boolean {
    const t = this.peek()
    return t !== undefined && t.t === "punct" && t.v === v
  }

  private string(what: string): { readonly v: string; readonly tok: Token } {
    const t = this.next(what)
    if (t.t !== "string") return this.fail(`expected ${what} (a quoted string)`, t)
    return { v: t.v, tok: t }
  }

  /** `Name("text")`: the one string argument of a custom value. */
  private stringArg(name: string): { readonly v: string; readonly tok: Token } {
    this.punct("(")
    const s = this.string(`the text of ${name}(…)`)
    this.punct(")")
    return s
  }

  // --- values ---------------------------------------------------------------------------------------------

  private values(open: string, close: string): Array<ManifestValue> {
    this.punct(open)
    const out: Array<ManifestValue> = []
    while (!this.isPunct(close)) {
      out.push(this.value())
      if (!this.isPunct(close)) this.punct(",")
    }
    this.punct(close)
    return out
  }

  private kindArg(): ValueKindName {
    const t = this.next("a value kind")
    const k = t.t === "ident" ? KIND_ALIASES[t.v] : undefined
    if (k === undefined) return this.fail("expected a value kind (U8, String, Address, Enum, …)", t)
    return k
  }

  private address(tok: Token, text: string, check: (entity: number) => boolean, what: string): NodeId {
    const d = decodeAddress(text, this.networkId)
    if (Either.isLeft(d)) return this.fail(`invalid address: ${d.left.reason}`, tok)
    if (!check(d.right.entityType)) return this.fail(`expected ${what}`, tok)
    return d.right.nodeId
  }

  private localId(tok: Token, text: string): NonFungibleLocalId {
    let id: NonFungibleLocalId | undefined
    const m = /^([<#[{])(.*)([>#\]}])$/s.exec(text)
    const open = m?.[1]
    const inner = m?.[2] ?? ""
    const close = m?.[3]
    if (open === "<" && close === ">") id = { type: "String", value: inner }
    else if (open === "#" && close === "#" && /^[0-9]{1,20}$/.test(inner))
      id = { type: "Integer", value: BigInt(inner) }
    else if (open === "[" && close === "]") {
      const b = fromHex(inner)
      if (b !== undefined) id = { type: "Bytes", value: b }
    } else if (open === "{" && close === "}" && /^[0-9a-f]{16}(-[0-9a-f]{16}){3}$/.test(inner)) {
      const b = fromHex(inner.replace(/-/g, ""))
      if (b !== undefined) id = { type: "RUID", value: b }
    }
    if (id === undefined) return this.fail(`invalid non-fungible local id "${text.slice(0, 80)}"`, tok)
    const problem = nonFungibleLocalIdProblem(id)
    if (problem !== undefined) return this.fail(`invalid non-fungible local id: ${problem}`, tok)
    return id
  }

  private bucketRef(tok: Token, name: string, consume: boolean): number {
    const b = this.buckets.get(name)
    if (b === undefined) return this.fail(`bucket "${name}" is not defined`, tok)
    if (b.used) return this.fail(`bucket "${name}" was already used`, tok)
    if (consume) b.used = true
    return b.id
  }

  private value(): ManifestValue {
    this.depth += 1
    if (this.depth > MAX_DEPTH) this.fail(`values nested deeper than ${MAX_DEPTH} levels`)
    const v = this.valueInner()
    this.depth -= 1
    return v
  }

  private valueInner(): ManifestValue {
    const t = this.next("a value")
    switch (t.t) {
      case "bool":
        return { kind: "Bool", value: t.v }
      case "string":
        return { kind: "String", value: t.v }
      case "int":
        return t.kind === "I64" || t.kind === "I128" || t.kind === "U64" || t.kind === "U128"
          ? { kind: t.kind, value: t.v }
          : { kind: t.kind, value: Number(t.v) }
      case "punct":
        return this.fail("expected a value", t)
      case "ident":
        break
    }
    switch (t.v) {
      case "Tuple":
        return { kind: "Tuple", fields: this.values("(", ")") }
      case "Enum": {
        this.punct("<")
        const d = this.next("an enum discriminator")
        let discriminator: number | undefined
        if (d.t === "int" && d.kind === "U8") discriminator = Number(d.v)
        else if (d.t === "ident") discriminator = KNOWN_ENUMS[d.v]
        if (discriminator === undefined) return this.fail("expected an enum discriminator (2u8 or Name::Variant)", d)
        this.punct(">")
        return { kind: "Enum", discriminator, fields: this.values("(", ")") }
      }
      case "Array": {
        this.punct("<")
        const elementKind = this.kindArg()
        this.punct(">")
        const startTok = this.peek()
        const elements = this.values("(", ")")
        elements.forEach((e) => {
          if (valueKindOf(e) !== elementKind) this.fail(`an Array<${elementKind}> holds a ${valueKindOf(e)}`, startTok)
        })
        if (elementKind === "U8")
          return { kind: "Bytes", value: Uint8Array.from(elements.map((e) => (e.kind === "U8" ? e.value : 0))) }
        return { kind: "Array", elementKind, elements }
      }
      case "Map": {
        this.punct("<")
        const keyKind = this.kindArg()
        this.punct(",")
        const valueKind = this.kindArg()
        this.punct(">")
        this.punct("(")
        const entries: Array<readonly [ManifestValue, ManifestValue]> = []
        while (!this.isPunct(")")) {
          const kt = this.peek()
          const k = this.value()
          this.punct("=>")
          const v = this.value()
          if (valueKindOf(k) !== keyKind || valueKindOf(v) !== valueKind)
            this.fail(`a Map<${keyKind}, ${valueKind}> entry of ${valueKindOf(k)} => ${valueKindOf(v)}`, kt)
          entries.push([k, v])
          if (!this.isPunct(")")) this.punct(",")
        }
        this.punct(")")
        return { kind: "Map", keyKind, valueKind, entries }
      }
      case "Some":
      case "Ok":
      case "Err": {
        const fields = this.values("(", ")")
        if (fields.length !== 1) this.fail(`${t.v}(…) takes one value`, t)
        return { kind: "Enum", discriminator: t.v === "Err" ? 1 : t.v === "Some" ? 1 : 0, fields }
      }
      case "None":
        return { kind: "Enum", discriminator: 0, fields: [] }
      case "Bytes": {
        const s = this.stringArg("Bytes")
        const b = fromHex(s.v)
        if (b === undefined) return this.fail("Bytes(…) needs hex", s.tok)
        return { kind: "Bytes", value: b }
      }
      case "Address": {
        const s = this.stringArg("Address")
        return {
          kind: "Address",
          value: { type: "Static", nodeId: this.address(s.tok, s.v, () => true, "an address") }
        }
      }
      case "Bucket": {
        const s = this.stringArg("Bucket")
        return { kind: "Bucket", id: this.bucketRef(s.tok, s.v, true) }
      }
      case "Expression": {
        const s = this.stringArg("Expression")
        if (s.v === "ENTIRE_WORKTOP") return { kind: "Expression", value: "EntireWorktop" }
        if (s.v === "ENTIRE_AUTH_ZONE") return { kind: "Expression", value: "EntireAuthZone" }
        return this.fail(`unknown expression "${s.v.slice(0, 40)}"`, s.tok)
      }
      case "Blob": {
        const s = this.stringArg("Blob")
        const b = fromHex(s.v)
        if (b === undefined || b.length !== 32) return this.fail("Blob(…) needs a 32-byte hash in hex", s.tok)
        return { kind: "Blob", hash: b }
      }
      case "Decimal": {
        const s = this.stringArg("Decimal")
        const d = normalizeDecimal(s.v)
        if (typeof d !== "string") return this.fail(`invalid Decimal "${s.v.slice(0, 60)}": ${d.error}`, s.tok)
        return { kind: "Decimal", value: d }
      }
      case "PreciseDecimal": {
        const s = this.stringArg("PreciseDecimal")
        const d = parseFixed(s.v, PRECISE_DECIMAL)
        if (typeof d === "string") return this.fail(`invalid PreciseDecimal "${s.v.slice(0, 60)}": ${d}`, s.tok)
        return { kind: "PreciseDecimal", value: fixedToString(d, PRECISE_DECIMAL) }
      }
      case "NonFungibleLocalId": {
        const s = this.stringArg("NonFungibleLocalId")
        return { kind: "NonFungibleLocalId", value: this.localId(s.tok, s.v) }
      }
      case "NonFungibleGlobalId": {
        const s = this.stringArg("NonFungibleGlobalId")
        const sep = s.v.indexOf(":")
        if (sep < 0) return this.fail("NonFungibleGlobalId(…) needs resource:local_id", s.tok)
        const nodeId = this.address(s.tok, s.v.slice(0, sep), (e) => e === 0x9a, "a non-fungible resource address")
        return {
          kind: "Tuple",
          fields: [
            { kind: "Address", value: { type: "Static", nodeId } },
            { kind: "NonFungibleLocalId", value: this.localId(s.tok, s.v.slice(sep + 1)) }
          ]
        }
      }
      default:
        return this.fail(`"${t.v.slice(0, 40)}" is not a value this compiler supports`, t)
    }
  }

  // --- instructions ---------------------------------------------------------------------------------------

  /** Values up to the instruction's `;`. */
  private args(): Array<ManifestValue> {
    const out: Array<ManifestValue> = []
    while (this.peek() !== undefined && !this.isPunct(";")) out.push(this.value())
    return out
  }

  private end(): void {
    this.punct(";")
  }

  private resourceArg(): NodeId {
    const t = this.next("Address(…) of a resource")
    if (t.t !== "ident" || t.v !== "Address") return this.fail('expected Address("resource_…")', t)
    const s = this.stringArg("Address")
    return this.address(s.tok, s.v, isResourceEntity, "a resource address")
  }

  private decimalArg(): string {
    const t = this.peek()
    const v = this.value()
    if (v.kind !== "Decimal") return this.fail('expected Decimal("…")', t)
    return v.value
  }

  private newBucket(): number {
    const t = this.next('Bucket("name")')
    if (t.t !== "ident" || t.v !== "Bucket") return this.fail('expected Bucket("name") for the new bucket', t)
    const s = this.stringArg("Bucket")
    if (this.buckets.has(s.v)) return this.fail(`bucket "${s.v}" is already defined`, s.tok)
    const id = this.nextBucket++
    this.buckets.set(s.v, { id, used: false })
    return id
  }

  private namedIntent(declare: boolean): number {
    const t = this.next('NamedIntent("name")')
    if (t.t !== "ident" || t.v !== "NamedIntent") return this.fail('expected NamedIntent("name")', t)
    const s = this.stringArg("NamedIntent")
    if (declare) {
      if (this.intents.has(s.v)) return this.fail(`named intent "${s.v}" is already defined`, s.tok)
      const index = this.intents.size
      this.intents.set(s.v, index)
      return index
    }
    const index = this.intents.get(s.v)
    if (index === undefined) return this.fail(`named intent "${s.v}" is not defined by a USE_CHILD`, s.tok)
    return index
  }

  /** Re-reads a generic value with a typed reader (constraints), so the typed model checks its shape. */
  private typed<T>(tok: Token | undefined, v: ManifestValue, read: (r: Reader) => T): T {
    try {
      const w = new Writer()
      writeValue(w, v)
      const r = new Reader(w.finish())
      const out = read(r)
      r.end()
      return out
    } catch (e) {
      if (e instanceof DecodeFailure || e instanceof EncodeFailure)
        return this.fail(
          `not a valid ${e instanceof DecodeFailure ? e.path.replace(/^root\.?/, "") || "value" : "value"}: ${e.reason}`,
          tok
        )
      throw e
    }
  }

  private constraintsArg(): ResourceConstraints {
    const t = this.peek()
    return this.typed(t, this.value(), (r) => readResourceConstraints(r, "constraints"))
  }

  private constraintArg(): ResourceConstraint {
    const t = this.peek()
    return this.typed(t, this.value(), (r) => readResourceConstraint(r, "constraint"))
  }

  private instruction(name: Token & { readonly t: "ident" }, seenOther: boolean): InstructionV2 | undefined {
    switch (name.v) {
      case "USE_CHILD": {
        if (seenOther) this.fail("USE_CHILD must come before every other instruction", name)
        this.namedIntent(true)
        const t = this.next('Intent("subtxid_…")')
        if (t.t !== "ident" || t.v !== "Intent") this.fail('expected Intent("subtxid_…")', t)
        const s = this.stringArg("Intent")
        const id = decodeTransactionId(s.v, { kind: "subintent", networkId: this.networkId })
        if (Either.isLeft(id)) return this.fail(`invalid subintent id: ${id.left.reason}`, s.tok)
        if (this.children.some((c) => toHex(c) === toHex(id.right.hash)))
          this.fail("the same child is used twice", s.tok)
        this.children.push(id.right.hash)
        this.end()
        return undefined
      }
      case "CALL_METHOD": {
        const t = this.next("Address(…)")
        if (t.t !== "ident" || t.v !== "Address")
          return this.fail('expected Address("…") (named addresses are not supported)', t)
        const s = this.stringArg("Address")
        const nodeId = this.address(s.tok, s.v, isGlobalEntity, "a global address")
        const method = this.string("the method name").v
        const args = this.args()
        this.end()
        return {
          kind: "CallMethod",
          address: { type: "Static", nodeId },
          methodName: method,
          args: { kind: "Tuple", fields: args }
        }
      }
      case "TAKE_FROM_WORKTOP": {
        const resourceAddress = this.resourceArg()
        const amount = this.decimalArg()
        this.newBucket()
        this.end()
        return { kind: "TakeFromWorktop", resourceAddress, amount }
      }
      case "TAKE_ALL_FROM_WORKTOP": {
        const resourceAddress = this.resourceArg()
        this.newBucket()
        this.end()
        return { kind: "TakeAllFromWorktop", resourceAddress }
      }
      case "TAKE_NON_FUNGIBLES_FROM_WORKTOP":
      case "ASSERT_WORKTOP_CONTAINS_NON_FUNGIBLES": {
        const resourceAddress = this.resourceArg()
        const t = this.peek()
        const ids = this.value()
        if (ids.kind !== "Array" || ids.elementKind !== "NonFungibleLocalId")
          return this.fail("expected Array<NonFungibleLocalId>(…)", t)
        const list = ids.elements.flatMap((e) => (e.kind === "NonFungibleLocalId" ? [e.value] : []))
        if (name.v === "TAKE_NON_FUNGIBLES_FROM_WORKTOP") {
          this.newBucket()
          this.end()
          return { kind: "TakeNonFungiblesFromWorktop", resourceAddress, ids: list }
        }
        this.end()
        return { kind: "AssertWorktopContainsNonFungibles", resourceAddress, ids: list }
      }
      case "RETURN_TO_WORKTOP": {
        const t = this.peek()
        const v = this.value()
        if (v.kind !== "Bucket") return this.fail('expected Bucket("name")', t)
        this.end()
        return { kind: "ReturnToWorktop", bucket: v.id }
      }
      case "ASSERT_WORKTOP_CONTAINS": {
        const resourceAddress = this.resourceArg()
        const amount = this.decimalArg()
        this.end()
        return { kind: "AssertWorktopContains", resourceAddress, amount }
      }
      case "ASSERT_WORKTOP_CONTAINS_ANY": {
        const resourceAddress = this.resourceArg()
        this.end()
        return { kind: "AssertWorktopContainsAny", resourceAddress }
      }
      case "ASSERT_WORKTOP_IS_EMPTY":
        this.end()
        return { kind: "AssertWorktopResourcesOnly", constraints: [] }
      case "ASSERT_WORKTOP_RESOURCES_ONLY":
      case "ASSERT_WORKTOP_RESOURCES_INCLUDE":
      case "ASSERT_NEXT_CALL_RETURNS_ONLY":
      case "ASSERT_NEXT_CALL_RETURNS_INCLUDE": {
        const constraints = this.constraintsArg()
        this.end()
        const kind =
          name.v === "ASSERT_WORKTOP_RESOURCES_ONLY"
            ? "AssertWorktopResourcesOnly"
            : name.v === "ASSERT_WORKTOP_RESOURCES_INCLUDE"
              ? "AssertWorktopResourcesInclude"
              : name.v === "ASSERT_NEXT_CALL_RETURNS_ONLY"
                ? "AssertNextCallReturnsOnly"
                : "AssertNextCallReturnsInclude"
        return { kind, constraints }
      }
      case "ASSERT_BUCKET_CONTENTS": {
        const t = this.next('Bucket("name")')
        if (t.t !== "ident" || t.v !== "Bucket") return this.fail('expected Bucket("name")', t)
        const s = this.stringArg("Bucket")
        const bucket = this.bucketRef(s.tok, s.v, false)
        const constraint = this.constraintArg()
        this.end()
        return { kind: "AssertBucketContents", bucket, constraint }
      }
      case "YIELD_TO_PARENT": {
        const args = this.args()
        this.end()
        return { kind: "YieldToParent", args: { kind: "Tuple", fields: args } }
      }
      case "YIELD_TO_CHILD": {
        const childIndex = this.namedIntent(false)
        const args = this.args()
        this.end()
        return { kind: "YieldToChild", childIndex, args: { kind: "Tuple", fields: args } }
      }
      case "VERIFY_PARENT": {
        const t = this.peek()
        const accessRule = this.value()
        if (accessRule.kind !== "Enum") return this.fail("expected an access rule (Enum<…>(…))", t)
        this.end()
        return { kind: "VerifyParent", accessRule }
      }
      default:
        return this.fail(`instruction ${name.v.slice(0, 60)} is outside the supported subset`, name)
    }
  }

  compile(): CompiledManifest {
    const instructions: Array<InstructionV2> = []
    let seenOther = false
    while (this.pos < this.tokens.length) {
      const t = this.next("an instruction")
      if (t.t !== "ident" || !/^[A-Z][A-Z_]*$/.test(t.v))
        this.fail("expected an instruction name (UPPER_SNAKE_CASE)", t)
      const ins = this.instruction(t as Token & { readonly t: "ident" }, seenOther)
      if (ins !== undefined) {
        seenOther = true
        instructions.push(ins)
      }
    }
    return { instructions, children: this.children }
  }
}

/** Compiles manifest text for a network into V2 instructions and the children its `USE_CHILD` lines name. */
export const compileManifest = (
  text: string,
  networkId: number
): Either.Either<CompiledManifest, ManifestCompileError> => {
  if (typeof text !== "string")
    return Either.left(new ManifestCompileError({ line: 1, column: 1, reason: "not a string" }))
  if (text.length > MAX_MANIFEST_CHARS)
    return Either.left(new ManifestCompileError({ line: 1, column: 1, reason: "manifest longer than 1 MiB" }))
  const lines = text.split("\n")
  const endLine = lines.length
  const endCol = (lines[lines.length - 1] ?? "").length + 1
  try {
    return Either.right(new Compiler(tokenize(text), networkId, endLine, endCol).compile())
  } catch (e) {
    if (e instanceof CompileFailure || e instanceof LexFailure)
      return Either.left(new ManifestCompileError({ line: e.line, column: e.col, reason: e.reason }))
    return Either.left(
      new ManifestCompileError({ line: 1, column: 1, reason: `internal compiler error: ${String(e)}` })
    )
  }
}
