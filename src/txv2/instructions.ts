/**
 * The V2 manifest instructions (radix-transactions `InstructionV2`): every variant with its discriminator and its
 * fields in their encoded order, and the resource constraints used by the V2 assertions.
 */
import {
  isGlobalEntity,
  isInternalEntity,
  isResourceEntity,
  Kind,
  type ManifestAddress,
  type ManifestValue,
  NODE_ID_LENGTH,
  type NonFungibleLocalId,
  readAddress,
  readDecimalBody,
  readNonFungibleLocalId,
  readValue,
  type Reader,
  writeAddress,
  writeDecimalBody,
  writeNonFungibleLocalId,
  writeValue,
  type Writer
} from "./sbor"
import { toHex } from "./bytes"

/** A 30-byte node id (entity type byte first). */
export type NodeId = Uint8Array

export type LowerBound = { readonly type: "NonZero" } | { readonly type: "Inclusive"; readonly amount: string }
export type UpperBound = { readonly type: "Inclusive"; readonly amount: string } | { readonly type: "Unbounded" }
export type AllowedIds =
  { readonly type: "Allowlist"; readonly ids: ReadonlyArray<NonFungibleLocalId> } | { readonly type: "Any" }

export type ResourceConstraint =
  | { readonly type: "NonZeroAmount" }
  | { readonly type: "ExactAmount"; readonly amount: string }
  | { readonly type: "AtLeastAmount"; readonly amount: string }
  | { readonly type: "ExactNonFungibles"; readonly ids: ReadonlyArray<NonFungibleLocalId> }
  | { readonly type: "AtLeastNonFungibles"; readonly ids: ReadonlyArray<NonFungibleLocalId> }
  | {
      readonly type: "General"
      readonly requiredIds: ReadonlyArray<NonFungibleLocalId>
      readonly lowerBound: LowerBound
      readonly upperBound: UpperBound
      readonly allowedIds: AllowedIds
    }

/** A map from resource address to constraint, in its encoded order. */
export type ResourceConstraints = ReadonlyArray<{
  readonly resourceAddress: NodeId
  readonly constraint: ResourceConstraint
}>

type ConstraintsKind =
  | "AssertWorktopResourcesOnly"
  | "AssertWorktopResourcesInclude"
  | "AssertNextCallReturnsOnly"
  | "AssertNextCallReturnsInclude"
type CallKind = "CallMethod" | "CallRoyaltyMethod" | "CallMetadataMethod" | "CallRoleAssignmentMethod"
type NoFieldKind =
  | "PopFromAuthZone"
  | "DropAuthZoneProofs"
  | "DropAuthZoneRegularProofs"
  | "DropAuthZoneSignatureProofs"
  | "DropNamedProofs"
  | "DropAllProofs"

export type InstructionV2 =
  | { readonly kind: "TakeFromWorktop"; readonly resourceAddress: NodeId; readonly amount: string }
  | {
      readonly kind: "TakeNonFungiblesFromWorktop"
      readonly resourceAddress: NodeId
      readonly ids: ReadonlyArray<NonFungibleLocalId>
    }
  | { readonly kind: "TakeAllFromWorktop"; readonly resourceAddress: NodeId }
  | { readonly kind: "ReturnToWorktop" | "BurnResource" | "CreateProofFromBucketOfAll"; readonly bucket: number }
  | { readonly kind: "AssertWorktopContainsAny" | "CreateProofFromAuthZoneOfAll"; readonly resourceAddress: NodeId }
  | {
      readonly kind: "AssertWorktopContains" | "CreateProofFromAuthZoneOfAmount"
      readonly resourceAddress: NodeId
      readonly amount: string
    }
  | {
      readonly kind: "AssertWorktopContainsNonFungibles" | "CreateProofFromAuthZoneOfNonFungibles"
      readonly resourceAddress: NodeId
      readonly ids: ReadonlyArray<NonFungibleLocalId>
    }
  | { readonly kind: ConstraintsKind; readonly constraints: ResourceConstraints }
  | { readonly kind: "AssertBucketContents"; readonly bucket: number; readonly constraint: ResourceConstraint }
  | { readonly kind: "CreateProofFromBucketOfAmount"; readonly bucket: number; readonly amount: string }
  | {
      readonly kind: "CreateProofFromBucketOfNonFungibles"
      readonly bucket: number
      readonly ids: ReadonlyArray<NonFungibleLocalId>
    }
  | { readonly kind: "CloneProof" | "DropProof" | "PushToAuthZone"; readonly proof: number }
  | { readonly kind: NoFieldKind }
  | {
      readonly kind: "CallFunction"
      readonly packageAddress: ManifestAddress
      readonly blueprintName: string
      readonly functionName: string
      readonly args: ManifestValue
    }
  | {
      readonly kind: CallKind
      readonly address: ManifestAddress
      readonly methodName: string
      readonly args: ManifestValue
    }
  | {
      readonly kind: "CallDirectVaultMethod"
      readonly address: NodeId
      readonly methodName: string
      readonly args: ManifestValue
    }
  | { readonly kind: "AllocateGlobalAddress"; readonly packageAddress: NodeId; readonly blueprintName: string }
  | { readonly kind: "YieldToParent"; readonly args: ManifestValue }
  | { readonly kind: "YieldToChild"; readonly childIndex: number; readonly args: ManifestValue }
  | { readonly kind: "VerifyParent"; readonly accessRule: ManifestValue }

export type InstructionKind = InstructionV2["kind"]

/** Discriminator and manifest name of every V2 instruction (radix-transactions manifest_instructions.rs). */
export const INSTRUCTIONS: Readonly<
  Record<InstructionKind, { readonly id: number; readonly name: string; readonly fields: number }>
> = {
  TakeFromWorktop: { id: 0x00, name: "TAKE_FROM_WORKTOP", fields: 2 },
  TakeNonFungiblesFromWorktop: { id: 0x01, name: "TAKE_NON_FUNGIBLES_FROM_WORKTOP", fields: 2 },
  TakeAllFromWorktop: { id: 0x02, name: "TAKE_ALL_FROM_WORKTOP", fields: 1 },
  ReturnToWorktop: { id: 0x03, name: "RETURN_TO_WORKTOP", fields: 1 },
  AssertWorktopContains: { id: 0x04, name: "ASSERT_WORKTOP_CONTAINS", fields: 2 },
  AssertWorktopContainsNonFungibles: { id: 0x05, name: "ASSERT_WORKTOP_CONTAINS_NON_FUNGIBLES", fields: 2 },
  AssertWorktopContainsAny: { id: 0x06, name: "ASSERT_WORKTOP_CONTAINS_ANY", fields: 1 },
  AssertWorktopResourcesOnly: { id: 0x08, name: "ASSERT_WORKTOP_RESOURCES_ONLY", fields: 1 },
  AssertWorktopResourcesInclude: { id: 0x09, name: "ASSERT_WORKTOP_RESOURCES_INCLUDE", fields: 1 },
  AssertNextCallReturnsOnly: { id: 0x0a, name: "ASSERT_NEXT_CALL_RETURNS_ONLY", fields: 1 },
  AssertNextCallReturnsInclude: { id: 0x0b, name: "ASSERT_NEXT_CALL_RETURNS_INCLUDE", fields: 1 },
  AssertBucketContents: { id: 0x0c, name: "ASSERT_BUCKET_CONTENTS", fields: 2 },
  PopFromAuthZone: { id: 0x10, name: "POP_FROM_AUTH_ZONE", fields: 0 },
  PushToAuthZone: { id: 0x11, name: "PUSH_TO_AUTH_ZONE", fields: 1 },
  DropAuthZoneProofs: { id: 0x12, name: "DROP_AUTH_ZONE_PROOFS", fields: 0 },
  DropAuthZoneRegularProofs: { id: 0x13, name: "DROP_AUTH_ZONE_REGULAR_PROOFS", fields: 0 },
  CreateProofFromAuthZoneOfAmount: { id: 0x14, name: "CREATE_PROOF_FROM_AUTH_ZONE_OF_AMOUNT", fields: 2 },
  CreateProofFromAuthZoneOfNonFungibles: { id: 0x15, name: "CREATE_PROOF_FROM_AUTH_ZONE_OF_NON_FUNGIBLES", fields: 2 },
  CreateProofFromAuthZoneOfAll: { id: 0x16, name: "CREATE_PROOF_FROM_AUTH_ZONE_OF_ALL", fields: 1 },
  DropAuthZoneSignatureProofs: { id: 0x17, name: "DROP_AUTH_ZONE_SIGNATURE_PROOFS", fields: 0 },
  CreateProofFromBucketOfAmount: { id: 0x21, name: "CREATE_PROOF_FROM_BUCKET_OF_AMOUNT", fields: 2 },
  CreateProofFromBucketOfNonFungibles: { id: 0x22, name: "CREATE_PROOF_FROM_BUCKET_OF_NON_FUNGIBLES", fields: 2 },
  CreateProofFromBucketOfAll: { id: 0x23, name: "CREATE_PROOF_FROM_BUCKET_OF_ALL", fields: 1 },
  BurnResource: { id: 0x24, name: "BURN_RESOURCE", fields: 1 },
  CloneProof: { id: 0x30, name: "CLONE_PROOF", fields: 1 },
  DropProof: { id: 0x31, name: "DROP_PROOF", fields: 1 },
  CallFunction: { id: 0x40, name: "CALL_FUNCTION", fields: 4 },
  CallMethod: { id: 0x41, name: "CALL_METHOD", fields: 3 },
  CallRoyaltyMethod: { id: 0x42, name: "CALL_ROYALTY_METHOD", fields: 3 },
  CallMetadataMethod: { id: 0x43, name: "CALL_METADATA_METHOD", fields: 3 },
  CallRoleAssignmentMethod: { id: 0x44, name: "CALL_ROLE_ASSIGNMENT_METHOD", fields: 3 },
  CallDirectVaultMethod: { id: 0x45, name: "CALL_DIRECT_VAULT_METHOD", fields: 3 },
  DropAllProofs: { id: 0x50, name: "DROP_ALL_PROOFS", fields: 0 },
  AllocateGlobalAddress: { id: 0x51, name: "ALLOCATE_GLOBAL_ADDRESS", fields: 2 },
  DropNamedProofs: { id: 0x52, name: "DROP_NAMED_PROOFS", fields: 0 },
  YieldToParent: { id: 0x60, name: "YIELD_TO_PARENT", fields: 1 },
  YieldToChild: { id: 0x61, name: "YIELD_TO_CHILD", fields: 2 },
  VerifyParent: { id: 0x62, name: "VERIFY_PARENT", fields: 1 }
}

const BY_ID = new Map<number, InstructionKind>(
  (Object.keys(INSTRUCTIONS) as Array<InstructionKind>).map((k) => [INSTRUCTIONS[k].id, k])
)
const FIELD_COUNTS = new Map<number, number>(
  (Object.keys(INSTRUCTIONS) as Array<InstructionKind>).map((k) => [INSTRUCTIONS[k].id, INSTRUCTIONS[k].fields])
)

// ---------------------------------------------------------------------------------------------------------------
// Field readers (each reads a full value: kind byte and body, one level deeper)

const MAX_IDS = 0x0fffffff

const resourceAddress = (r: Reader, name: string): NodeId =>
  r.value(name, Kind.Address, () => {
    const at = r.pos
    const a = readAddress(r)
    if (a.type !== "Static" || !isResourceEntity(a.nodeId[0] ?? 0)) r.fail("expected a static resource address", at)
    return a.nodeId
  })

const packageRef = (r: Reader, name: string, allowNamed: boolean): ManifestAddress =>
  r.value(name, Kind.Address, () => {
    const at = r.pos
    const a = readAddress(r)
    if (a.type === "Named" ? !allowNamed : a.nodeId[0] !== 0x0d) r.fail("expected a package address", at)
    return a
  })

const globalRef = (r: Reader, name: string): ManifestAddress =>
  r.value(name, Kind.Address, () => {
    const at = r.pos
    const a = readAddress(r)
    if (a.type === "Static" && !isGlobalEntity(a.nodeId[0] ?? 0)) r.fail("expected a global address", at)
    return a
  })

const internalAddress = (r: Reader, name: string): NodeId =>
  r.value(name, Kind.Address, () => {
    const at = r.pos
    const a = readAddress(r)
    if (a.type !== "Static" || !isInternalEntity(a.nodeId[0] ?? 0)) r.fail("expected an internal address", at)
    return a.nodeId
  })

const decimal = (r: Reader, name: string): string => r.value(name, Kind.Decimal, readDecimalBody)
const u32Of = (r: Reader, name: string, kind: number): number => r.value(name, kind, () => r.uint(4))
const stringOf = (r: Reader, name: string): string => r.value(name, Kind.String, () => r.stringBody())

const idKey = (id: NonFungibleLocalId): string =>
  `${id.type}:${id.type === "String" ? id.value : id.type === "Integer" ? id.value.toString() : toHex(id.value)}`

/** An Array<NonFungibleLocalId>; `unique` for the engine's IndexSet, which rejects a repeated id. */
const idsOf = (r: Reader, name: string, unique: boolean): Array<NonFungibleLocalId> =>
  r.value(name, Kind.Array, () => {
    const seen = new Set<string>()
    return r.array(Kind.NonFungibleLocalId, MAX_IDS, "ids", () => {
      const at = r.pos
      const id = readNonFungibleLocalId(r)
      if (unique) {
        const key = idKey(id)
        if (seen.has(key)) r.fail("repeated id in a set", at)
        seen.add(key)
      }
      return id
    })
  })

const constraintBody = (r: Reader): ResourceConstraint => {
  const d = r.enumHeader({ 0: 0, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 })
  switch (d) {
    case 0:
      return { type: "NonZeroAmount" }
    case 1:
      return { type: "ExactAmount", amount: decimal(r, "amount") }
    case 2:
      return { type: "AtLeastAmount", amount: decimal(r, "amount") }
    case 3:
      return { type: "ExactNonFungibles", ids: idsOf(r, "ids", true) }
    case 4:
      return { type: "AtLeastNonFungibles", ids: idsOf(r, "ids", true) }
    default:
      return r.value("general", Kind.Tuple, () => {
        r.tupleHeader(4)
        const requiredIds = idsOf(r, "requiredIds", true)
        const lowerBound = r.value("lowerBound", Kind.Enum, (): LowerBound =>
          r.enumHeader({ 0: 0, 1: 1 }) === 0 ? { type: "NonZero" } : { type: "Inclusive", amount: decimal(r, "amount") }
        )
        const upperBound = r.value("upperBound", Kind.Enum, (): UpperBound =>
          r.enumHeader({ 0: 1, 1: 0 }) === 0
            ? { type: "Inclusive", amount: decimal(r, "amount") }
            : { type: "Unbounded" }
        )
        const allowedIds = r.value("allowedIds", Kind.Enum, (): AllowedIds =>
          r.enumHeader({ 0: 1, 1: 0 }) === 0 ? { type: "Allowlist", ids: idsOf(r, "ids", true) } : { type: "Any" }
        )
        return { type: "General", requiredIds, lowerBound, upperBound, allowedIds }
      })
  }
}

const constraint = (r: Reader, name: string): ResourceConstraint => r.value(name, Kind.Enum, constraintBody)

const constraints = (r: Reader, name: string): ResourceConstraints =>
  r.value(name, Kind.Map, () => {
    r.expectKind(Kind.Address)
    r.expectKind(Kind.Enum)
    const n = r.count(MAX_IDS, "constraints", 2)
    const seen = new Set<string>()
    const out: Array<{ resourceAddress: NodeId; constraint: ResourceConstraint }> = []
    for (let i = 0; i < n; i++) {
      r.enter(i)
      const at = r.pos
      const a = readAddress(r)
      if (a.type !== "Static" || !isResourceEntity(a.nodeId[0] ?? 0)) r.fail("expected a static resource address", at)
      const key = toHex(a.nodeId)
      if (seen.has(key)) r.fail("a resource constrained twice", at)
      seen.add(key)
      r.leave()
      r.enter(i)
      const c = constraintBody(r)
      r.leave()
      out.push({ resourceAddress: a.nodeId, constraint: c })
    }
    return out
  })

/** Reads a full ResourceConstraints value (a Map<Address, Enum>) under `name`. */
export const readResourceConstraints = constraints
/** Reads a full ResourceConstraint value (an Enum) under `name`. */
export const readResourceConstraint = constraint

/** Reads one instruction's enum body (its kind byte already read). */
export const readInstructionBody = (r: Reader): InstructionV2 => {
  const d = r.enumHeader(FIELD_COUNTS)
  const kind = BY_ID.get(d) as InstructionKind
  switch (kind) {
    case "TakeFromWorktop":
    case "AssertWorktopContains":
    case "CreateProofFromAuthZoneOfAmount":
      return { kind, resourceAddress: resourceAddress(r, "resourceAddress"), amount: decimal(r, "amount") }
    case "TakeNonFungiblesFromWorktop":
    case "AssertWorktopContainsNonFungibles":
    case "CreateProofFromAuthZoneOfNonFungibles":
      return { kind, resourceAddress: resourceAddress(r, "resourceAddress"), ids: idsOf(r, "ids", false) }
    case "TakeAllFromWorktop":
    case "AssertWorktopContainsAny":
    case "CreateProofFromAuthZoneOfAll":
      return { kind, resourceAddress: resourceAddress(r, "resourceAddress") }
    case "ReturnToWorktop":
    case "BurnResource":
    case "CreateProofFromBucketOfAll":
      return { kind, bucket: u32Of(r, "bucket", Kind.Bucket) }
    case "AssertWorktopResourcesOnly":
    case "AssertWorktopResourcesInclude":
    case "AssertNextCallReturnsOnly":
    case "AssertNextCallReturnsInclude":
      return { kind, constraints: constraints(r, "constraints") }
    case "AssertBucketContents":
      return { kind, bucket: u32Of(r, "bucket", Kind.Bucket), constraint: constraint(r, "constraint") }
    case "CreateProofFromBucketOfAmount":
      return { kind, bucket: u32Of(r, "bucket", Kind.Bucket), amount: decimal(r, "amount") }
    case "CreateProofFromBucketOfNonFungibles":
      return { kind, bucket: u32Of(r, "bucket", Kind.Bucket), ids: idsOf(r, "ids", false) }
    case "CloneProof":
    case "DropProof":
    case "PushToAuthZone":
      return { kind, proof: u32Of(r, "proof", Kind.Proof) }
    case "PopFromAuthZone":
    case "DropAuthZoneProofs":
    case "DropAuthZoneRegularProofs":
    case "DropAuthZoneSignatureProofs":
    case "DropNamedProofs":
    case "DropAllProofs":
      return { kind }
    case "CallFunction":
      return {
        kind,
        packageAddress: packageRef(r, "packageAddress", true),
        blueprintName: stringOf(r, "blueprintName"),
        functionName: stringOf(r, "functionName"),
        args: readValue(r, "args")
      }
    case "CallMethod":
    case "CallRoyaltyMethod":
    case "CallMetadataMethod":
    case "CallRoleAssignmentMethod":
      return {
        kind,
        address: globalRef(r, "address"),
        methodName: stringOf(r, "methodName"),
        args: readValue(r, "args")
      }
    case "CallDirectVaultMethod":
      return {
        kind,
        address: internalAddress(r, "address"),
        methodName: stringOf(r, "methodName"),
        args: readValue(r, "args")
      }
    case "AllocateGlobalAddress": {
      const pkg = packageRef(r, "packageAddress", false)
      return {
        kind,
        packageAddress: pkg.type === "Static" ? pkg.nodeId : new Uint8Array(NODE_ID_LENGTH),
        blueprintName: stringOf(r, "blueprintName")
      }
    }
    case "YieldToParent":
      return { kind, args: readValue(r, "args") }
    case "YieldToChild":
      return { kind, childIndex: u32Of(r, "childIndex", Kind.U32), args: readValue(r, "args") }
    case "VerifyParent": {
      const at = r.pos
      const accessRule = readValue(r, "accessRule")
      if (accessRule.kind !== "Enum") r.fail("an access rule must be an enum", at)
      return { kind, accessRule }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Writers

const wResource = (w: Writer, name: string, nodeId: NodeId): void =>
  w.at(name, () => {
    if (!isResourceEntity(nodeId[0] ?? 0)) w.fail("expected a resource address")
    w.byte(Kind.Address)
    writeAddress(w, { type: "Static", nodeId })
  })
const wDecimal = (w: Writer, name: string, amount: string): void =>
  w.at(name, () => {
    w.byte(Kind.Decimal)
    writeDecimalBody(w, amount)
  })
const wU32 = (w: Writer, name: string, kind: number, v: number): void =>
  w.at(name, () => {
    w.byte(kind)
    w.uint(v, 4, name)
  })
const wString = (w: Writer, name: string, s: string): void =>
  w.at(name, () => {
    w.byte(Kind.String)
    w.stringBody(s)
  })
const wIds = (w: Writer, name: string, ids: ReadonlyArray<NonFungibleLocalId>): void =>
  w.at(name, () => {
    w.byte(Kind.Array)
    w.byte(Kind.NonFungibleLocalId)
    w.size(ids.length)
    ids.forEach((id, i) => w.at(i, () => writeNonFungibleLocalId(w, id)))
  })
const wAddress = (w: Writer, name: string, a: ManifestAddress): void =>
  w.at(name, () => {
    w.byte(Kind.Address)
    writeAddress(w, a)
  })
const wValue = (w: Writer, name: string, v: ManifestValue): void => w.at(name, () => writeValue(w, v))

const wConstraintBody = (w: Writer, c: ResourceConstraint): void => {
  switch (c.type) {
    case "NonZeroAmount":
      w.byte(0)
      w.size(0)
      return
    case "ExactAmount":
    case "AtLeastAmount":
      w.byte(c.type === "ExactAmount" ? 1 : 2)
      w.size(1)
      wDecimal(w, "amount", c.amount)
      return
    case "ExactNonFungibles":
    case "AtLeastNonFungibles":
      w.byte(c.type === "ExactNonFungibles" ? 3 : 4)
      w.size(1)
      wIds(w, "ids", c.ids)
      return
    case "General":
      w.byte(5)
      w.size(1)
      w.byte(Kind.Tuple)
      w.size(4)
      wIds(w, "requiredIds", c.requiredIds)
      w.byte(Kind.Enum)
      if (c.lowerBound.type === "NonZero") {
        w.byte(0)
        w.size(0)
      } else {
        w.byte(1)
        w.size(1)
        wDecimal(w, "lowerBound", c.lowerBound.amount)
      }
      w.byte(Kind.Enum)
      if (c.upperBound.type === "Inclusive") {
        w.byte(0)
        w.size(1)
        wDecimal(w, "upperBound", c.upperBound.amount)
      } else {
        w.byte(1)
        w.size(0)
      }
      w.byte(Kind.Enum)
      if (c.allowedIds.type === "Allowlist") {
        w.byte(0)
        w.size(1)
        wIds(w, "allowedIds", c.allowedIds.ids)
      } else {
        w.byte(1)
        w.size(0)
      }
  }
}

/** Writes one instruction's enum body (not its kind byte). */
export const writeInstructionBody = (w: Writer, ins: InstructionV2): void => {
  const meta = INSTRUCTIONS[ins.kind]
  if (meta === undefined) w.fail(`unknown instruction kind ${String(ins.kind)}`)
  w.byte(meta.id)
  w.size(meta.fields)
  switch (ins.kind) {
    case "TakeFromWorktop":
    case "AssertWorktopContains":
    case "CreateProofFromAuthZoneOfAmount":
      wResource(w, "resourceAddress", ins.resourceAddress)
      wDecimal(w, "amount", ins.amount)
      return
    case "TakeNonFungiblesFromWorktop":
    case "AssertWorktopContainsNonFungibles":
    case "CreateProofFromAuthZoneOfNonFungibles":
      wResource(w, "resourceAddress", ins.resourceAddress)
      wIds(w, "ids", ins.ids)
      return
    case "TakeAllFromWorktop":
    case "AssertWorktopContainsAny":
    case "CreateProofFromAuthZoneOfAll":
      wResource(w, "resourceAddress", ins.resourceAddress)
      return
    case "ReturnToWorktop":
    case "BurnResource":
    case "CreateProofFromBucketOfAll":
      wU32(w, "bucket", Kind.Bucket, ins.bucket)
      return
    case "AssertWorktopResourcesOnly":
    case "AssertWorktopResourcesInclude":
    case "AssertNextCallReturnsOnly":
    case "AssertNextCallReturnsInclude":
      w.at("constraints", () => {
        w.byte(Kind.Map)
        w.byte(Kind.Address)
        w.byte(Kind.Enum)
        w.size(ins.constraints.length)
        ins.constraints.forEach((c, i) =>
          w.at(i, () => {
            if (!isResourceEntity(c.resourceAddress[0] ?? 0)) w.fail("expected a resource address")
            writeAddress(w, { type: "Static", nodeId: c.resourceAddress })
            wConstraintBody(w, c.constraint)
          })
        )
      })
      return
    case "AssertBucketContents":
      wU32(w, "bucket", Kind.Bucket, ins.bucket)
      w.at("constraint", () => {
        w.byte(Kind.Enum)
        wConstraintBody(w, ins.constraint)
      })
      return
    case "CreateProofFromBucketOfAmount":
      wU32(w, "bucket", Kind.Bucket, ins.bucket)
      wDecimal(w, "amount", ins.amount)
      return
    case "CreateProofFromBucketOfNonFungibles":
      wU32(w, "bucket", Kind.Bucket, ins.bucket)
      wIds(w, "ids", ins.ids)
      return
    case "CloneProof":
    case "DropProof":
    case "PushToAuthZone":
      wU32(w, "proof", Kind.Proof, ins.proof)
      return
    case "PopFromAuthZone":
    case "DropAuthZoneProofs":
    case "DropAuthZoneRegularProofs":
    case "DropAuthZoneSignatureProofs":
    case "DropNamedProofs":
    case "DropAllProofs":
      return
    case "CallFunction":
      wAddress(w, "packageAddress", ins.packageAddress)
      wString(w, "blueprintName", ins.blueprintName)
      wString(w, "functionName", ins.functionName)
      wValue(w, "args", ins.args)
      return
    case "CallMethod":
    case "CallRoyaltyMethod":
    case "CallMetadataMethod":
    case "CallRoleAssignmentMethod":
      wAddress(w, "address", ins.address)
      wString(w, "methodName", ins.methodName)
      wValue(w, "args", ins.args)
      return
    case "CallDirectVaultMethod":
      wAddress(w, "address", { type: "Static", nodeId: ins.address })
      wString(w, "methodName", ins.methodName)
      wValue(w, "args", ins.args)
      return
    case "AllocateGlobalAddress":
      wAddress(w, "packageAddress", { type: "Static", nodeId: ins.packageAddress })
      wString(w, "blueprintName", ins.blueprintName)
      return
    case "YieldToParent":
      wValue(w, "args", ins.args)
      return
    case "YieldToChild":
      wU32(w, "childIndex", Kind.U32, ins.childIndex)
      wValue(w, "args", ins.args)
      return
    case "VerifyParent":
      wValue(w, "accessRule", ins.accessRule)
  }
}
