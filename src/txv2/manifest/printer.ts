/**
 * Prints V2 instructions as manifest text (a readable preview, e.g. for a wallet's approval panel). Buckets are
 * named `bucket1`, `bucket2`, … in the order they are taken, children `child1`, … in `NamedIntent` order, and
 * addresses are bech32m on the given network. Text in the compiler's subset compiles back to the same instructions.
 */
import { Either } from "effect"
import { toHex } from "../bytes"
import type { TxV2IdError } from "../errors"
import { encodeAddress, subintentId } from "../ids"
import { INSTRUCTIONS, type InstructionV2, type ResourceConstraint, type ResourceConstraints } from "../instructions"
import type { ManifestAddress, ManifestValue, NonFungibleLocalId } from "../sbor"

class PrintFailure {
  constructor(readonly error: TxV2IdError) {}
}

const quote = (s: string): string => JSON.stringify(s)

const localId = (id: NonFungibleLocalId): string => {
  switch (id.type) {
    case "String":
      return `<${id.value}>`
    case "Integer":
      return `#${id.value.toString()}#`
    case "Bytes":
      return `[${toHex(id.value)}]`
    case "RUID":
      return `{${toHex(id.value).match(/.{16}/g)?.join("-") ?? ""}}`
  }
}

const INT_SUFFIX: Readonly<Record<string, string>> = {
  I8: "i8",
  I16: "i16",
  I32: "i32",
  I64: "i64",
  I128: "i128",
  U8: "u8",
  U16: "u16",
  U32: "u32",
  U64: "u64",
  U128: "u128"
}

export const printValue = (v: ManifestValue, networkId: number): string => {
  const p = (x: ManifestValue) => printValue(x, networkId)
  switch (v.kind) {
    case "Bool":
      return v.value ? "true" : "false"
    case "I8":
    case "I16":
    case "I32":
    case "U8":
    case "U16":
    case "U32":
    case "I64":
    case "I128":
    case "U64":
    case "U128":
      return `${v.value.toString()}${INT_SUFFIX[v.kind] ?? ""}`
    case "String":
      return quote(v.value)
    case "Tuple":
      return `Tuple(${v.fields.map(p).join(", ")})`
    case "Enum":
      return `Enum<${v.discriminator}u8>(${v.fields.map(p).join(", ")})`
    case "Array":
      return `Array<${v.elementKind}>(${v.elements.map(p).join(", ")})`
    case "Bytes":
      return `Bytes(${quote(toHex(v.value))})`
    case "Map":
      return `Map<${v.keyKind}, ${v.valueKind}>(${v.entries.map(([k, x]) => `${p(k)} => ${p(x)}`).join(", ")})`
    case "Address":
      return address(v.value, networkId)
    case "Bucket":
      return `Bucket("bucket${v.id + 1}")`
    case "Proof":
      return `Proof("proof${v.id + 1}")`
    case "AddressReservation":
      return `AddressReservation("reservation${v.id + 1}")`
    case "Expression":
      return `Expression("${v.value === "EntireWorktop" ? "ENTIRE_WORKTOP" : "ENTIRE_AUTH_ZONE"}")`
    case "Blob":
      return `Blob(${quote(toHex(v.hash))})`
    case "Decimal":
      return `Decimal(${quote(v.value)})`
    case "PreciseDecimal":
      return `PreciseDecimal(${quote(v.value)})`
    case "NonFungibleLocalId":
      return `NonFungibleLocalId(${quote(localId(v.value))})`
  }
}

const nodeAddress = (nodeId: Uint8Array, networkId: number): string => {
  const a = encodeAddress(nodeId, networkId)
  if (Either.isLeft(a)) throw new PrintFailure(a.left)
  return `Address(${quote(a.right)})`
}

const address = (a: ManifestAddress, networkId: number): string =>
  a.type === "Static" ? nodeAddress(a.nodeId, networkId) : `NamedAddress("address${a.id + 1}")`

const decimalText = (amount: string) => `Decimal(${quote(amount)})`
const idsText = (ids: ReadonlyArray<NonFungibleLocalId>) =>
  `Array<NonFungibleLocalId>(${ids.map((id) => `NonFungibleLocalId(${quote(localId(id))})`).join(", ")})`

const constraintText = (c: ResourceConstraint): string => {
  switch (c.type) {
    case "NonZeroAmount":
      return "Enum<0u8>()"
    case "ExactAmount":
      return `Enum<1u8>(${decimalText(c.amount)})`
    case "AtLeastAmount":
      return `Enum<2u8>(${decimalText(c.amount)})`
    case "ExactNonFungibles":
      return `Enum<3u8>(${idsText(c.ids)})`
    case "AtLeastNonFungibles":
      return `Enum<4u8>(${idsText(c.ids)})`
    case "General": {
      const lower = c.lowerBound.type === "NonZero" ? "Enum<0u8>()" : `Enum<1u8>(${decimalText(c.lowerBound.amount)})`
      const upper = c.upperBound.type === "Unbounded" ? "Enum<1u8>()" : `Enum<0u8>(${decimalText(c.upperBound.amount)})`
      const allowed = c.allowedIds.type === "Any" ? "Enum<1u8>()" : `Enum<0u8>(${idsText(c.allowedIds.ids)})`
      return `Enum<5u8>(Tuple(${idsText(c.requiredIds)}, ${lower}, ${upper}, ${allowed}))`
    }
  }
}

const constraintsText = (cs: ResourceConstraints, networkId: number): string =>
  `Map<Address, Enum>(${cs.map((c) => `${nodeAddress(c.resourceAddress, networkId)} => ${constraintText(c.constraint)}`).join(", ")})`

const argsText = (args: ManifestValue, networkId: number): Array<string> =>
  args.kind === "Tuple" ? args.fields.map((f) => printValue(f, networkId)) : [printValue(args, networkId)]

const instructionText = (ins: InstructionV2, networkId: number, newBucket: () => string): string => {
  const name = INSTRUCTIONS[ins.kind].name
  const parts: Array<string> = []
  switch (ins.kind) {
    case "TakeFromWorktop":
      parts.push(nodeAddress(ins.resourceAddress, networkId), decimalText(ins.amount), newBucket())
      break
    case "TakeNonFungiblesFromWorktop":
      parts.push(nodeAddress(ins.resourceAddress, networkId), idsText(ins.ids), newBucket())
      break
    case "TakeAllFromWorktop":
      parts.push(nodeAddress(ins.resourceAddress, networkId), newBucket())
      break
    case "AssertWorktopContains":
    case "CreateProofFromAuthZoneOfAmount":
      parts.push(nodeAddress(ins.resourceAddress, networkId), decimalText(ins.amount))
      break
    case "AssertWorktopContainsNonFungibles":
    case "CreateProofFromAuthZoneOfNonFungibles":
      parts.push(nodeAddress(ins.resourceAddress, networkId), idsText(ins.ids))
      break
    case "AssertWorktopContainsAny":
    case "CreateProofFromAuthZoneOfAll":
      parts.push(nodeAddress(ins.resourceAddress, networkId))
      break
    case "ReturnToWorktop":
    case "BurnResource":
    case "CreateProofFromBucketOfAll":
      parts.push(`Bucket("bucket${ins.bucket + 1}")`)
      break
    case "AssertWorktopResourcesOnly":
    case "AssertWorktopResourcesInclude":
    case "AssertNextCallReturnsOnly":
    case "AssertNextCallReturnsInclude":
      parts.push(constraintsText(ins.constraints, networkId))
      break
    case "AssertBucketContents":
      parts.push(`Bucket("bucket${ins.bucket + 1}")`, constraintText(ins.constraint))
      break
    case "CreateProofFromBucketOfAmount":
      parts.push(`Bucket("bucket${ins.bucket + 1}")`, decimalText(ins.amount))
      break
    case "CreateProofFromBucketOfNonFungibles":
      parts.push(`Bucket("bucket${ins.bucket + 1}")`, idsText(ins.ids))
      break
    case "CloneProof":
    case "DropProof":
    case "PushToAuthZone":
      parts.push(`Proof("proof${ins.proof + 1}")`)
      break
    case "PopFromAuthZone":
    case "DropAuthZoneProofs":
    case "DropAuthZoneRegularProofs":
    case "DropAuthZoneSignatureProofs":
    case "DropNamedProofs":
    case "DropAllProofs":
      break
    case "CallFunction":
      parts.push(
        address(ins.packageAddress, networkId),
        quote(ins.blueprintName),
        quote(ins.functionName),
        ...argsText(ins.args, networkId)
      )
      break
    case "CallMethod":
    case "CallRoyaltyMethod":
    case "CallMetadataMethod":
    case "CallRoleAssignmentMethod":
      parts.push(address(ins.address, networkId), quote(ins.methodName), ...argsText(ins.args, networkId))
      break
    case "CallDirectVaultMethod":
      parts.push(nodeAddress(ins.address, networkId), quote(ins.methodName), ...argsText(ins.args, networkId))
      break
    case "AllocateGlobalAddress":
      parts.push(nodeAddress(ins.packageAddress, networkId), quote(ins.blueprintName))
      break
    case "YieldToParent":
      parts.push(...argsText(ins.args, networkId))
      break
    case "YieldToChild":
      parts.push(`NamedIntent("child${ins.childIndex + 1}")`, ...argsText(ins.args, networkId))
      break
    case "VerifyParent":
      parts.push(printValue(ins.accessRule, networkId))
  }
  return parts.length === 0 ? `${name};` : `${name} ${parts.join(" ")};`
}

/** The manifest text of an intent's instructions (and its `USE_CHILD` lines), one instruction per line. */
export const printManifest = (
  manifest: { readonly instructions: ReadonlyArray<InstructionV2>; readonly children?: ReadonlyArray<Uint8Array> },
  networkId: number
): Either.Either<string, TxV2IdError> => {
  try {
    let buckets = 0
    const newBucket = () => `Bucket("bucket${++buckets}")`
    const lines = (manifest.children ?? []).map(
      (c, i) => `USE_CHILD NamedIntent("child${i + 1}") Intent(${quote(subintentId(c, networkId))});`
    )
    for (const ins of manifest.instructions) lines.push(instructionText(ins, networkId, newBucket))
    return Either.right(lines.join("\n") + (lines.length > 0 ? "\n" : ""))
  } catch (e) {
    if (e instanceof PrintFailure) return Either.left(e.error)
    throw e
  }
}
