/**
 * Bech32m ids of transaction parts (`txid_`, `signedintent_`, `subtxid_`, `notarizedtransaction_` + network suffix,
 * 32-byte hash) and of addresses (entity HRP + network suffix, 30-byte node id). Pure; the bech32m codec is the
 * app's own (src/exchange/bech32m.ts, which imports nothing).
 */
import { Either } from "effect"
import { decodeBech32m, encodeBech32m } from "../exchange/bech32m"
import { TxV2IdError } from "./errors"
import { networkIdOfSuffix, networkSuffix } from "./network"
import { EntityType, NODE_ID_LENGTH } from "./sbor"

export const TransactionIdKind = {
  transactionIntent: "txid",
  signedTransactionIntent: "signedintent",
  subintent: "subtxid",
  notarizedTransaction: "notarizedtransaction"
} as const
export type TransactionIdKindName = keyof typeof TransactionIdKind

const KIND_BY_PREFIX = new Map<string, TransactionIdKindName>(
  (Object.keys(TransactionIdKind) as Array<TransactionIdKindName>).map((k) => [TransactionIdKind[k], k])
)

const MAX_ID_LENGTH = 200
const cut = (s: string) => s.slice(0, 120)

export const encodeTransactionId = (kind: TransactionIdKindName, hash: Uint8Array, networkId: number): string =>
  encodeBech32m(`${TransactionIdKind[kind]}_${networkSuffix(networkId)}`, hash)

export const transactionIntentId = (hash: Uint8Array, networkId: number) =>
  encodeTransactionId("transactionIntent", hash, networkId)
export const signedTransactionIntentId = (hash: Uint8Array, networkId: number) =>
  encodeTransactionId("signedTransactionIntent", hash, networkId)
export const subintentId = (hash: Uint8Array, networkId: number) => encodeTransactionId("subintent", hash, networkId)
export const notarizedTransactionId = (hash: Uint8Array, networkId: number) =>
  encodeTransactionId("notarizedTransaction", hash, networkId)

export interface DecodedTransactionId {
  readonly kind: TransactionIdKindName
  readonly networkId: number
  readonly hash: Uint8Array
}

const splitHrp = (hrp: string): { readonly prefix: string; readonly networkId: number } | string => {
  const m = /^([a-z_]+?)_(rdx|loc|test|sim|tdx_[0-9a-f]{1,2}_)$/.exec(hrp)
  if (m === null) return `HRP "${hrp}" has no network suffix`
  const networkId = networkIdOfSuffix(m[2] ?? "")
  if (networkId === undefined) return `unknown network suffix "${m[2] ?? ""}"`
  return { prefix: m[1] ?? "", networkId }
}

/**
 * Decodes a transaction id back to its kind, network and hash. With `expected`, the kind and network must match.
 */
export const decodeTransactionId = (
  input: string,
  expected?: { readonly kind?: TransactionIdKindName; readonly networkId?: number }
): Either.Either<DecodedTransactionId, TxV2IdError> => {
  const fail = (reason: string) => Either.left(new TxV2IdError({ input: cut(String(input)), reason }))
  if (typeof input !== "string") return fail("not a string")
  if (input.length > MAX_ID_LENGTH) return fail("too long")
  const decoded = decodeBech32m(input)
  if (decoded === undefined) return fail("not a valid lower-case bech32m string")
  const hrp = splitHrp(decoded.hrp)
  if (typeof hrp === "string") return fail(hrp)
  const kind = KIND_BY_PREFIX.get(hrp.prefix)
  if (kind === undefined) return fail(`"${hrp.prefix}_" is not a transaction id prefix`)
  if (decoded.bytes.length !== 32) return fail(`carries ${decoded.bytes.length} bytes, not a 32-byte hash`)
  if (expected?.kind !== undefined && expected.kind !== kind)
    return fail(`is a ${kind} id, expected a ${expected.kind} id`)
  if (expected?.networkId !== undefined && expected.networkId !== hrp.networkId)
    return fail(`is for network ${hrp.networkId}, expected network ${expected.networkId}`)
  return Either.right({ kind, networkId: hrp.networkId, hash: decoded.bytes })
}

// ---------------------------------------------------------------------------------------------------------------
// Addresses

const ENTITY_HRP: Readonly<Record<number, string>> = {
  [EntityType.GlobalPackage]: "package",
  [EntityType.GlobalFungibleResourceManager]: "resource",
  [EntityType.GlobalNonFungibleResourceManager]: "resource",
  [EntityType.GlobalConsensusManager]: "consensusmanager",
  [EntityType.GlobalValidator]: "validator",
  [EntityType.GlobalAccessController]: "accesscontroller",
  [EntityType.GlobalAccount]: "account",
  [EntityType.GlobalIdentity]: "identity",
  [EntityType.GlobalGenericComponent]: "component",
  [EntityType.GlobalPreallocatedSecp256k1Account]: "account",
  [EntityType.GlobalPreallocatedEd25519Account]: "account",
  [EntityType.GlobalPreallocatedSecp256k1Identity]: "identity",
  [EntityType.GlobalPreallocatedEd25519Identity]: "identity",
  [EntityType.InternalFungibleVault]: "internal_vault",
  [EntityType.InternalNonFungibleVault]: "internal_vault",
  [EntityType.InternalGenericComponent]: "internal_component",
  [EntityType.InternalKeyValueStore]: "internal_keyvaluestore",
  [EntityType.GlobalOneResourcePool]: "pool",
  [EntityType.GlobalTwoResourcePool]: "pool",
  [EntityType.GlobalMultiResourcePool]: "pool",
  [EntityType.GlobalAccountLocker]: "locker",
  [EntityType.GlobalTransactionTracker]: "transactiontracker"
}

/** The bech32m address of a 30-byte node id on a network; a typed error for an unknown entity type. */
export const encodeAddress = (nodeId: Uint8Array, networkId: number): Either.Either<string, TxV2IdError> => {
  const entity = ENTITY_HRP[nodeId[0] ?? -1]
  if (nodeId.length !== NODE_ID_LENGTH || entity === undefined)
    return Either.left(
      new TxV2IdError({ input: `node id of ${nodeId.length} bytes`, reason: "not a known 30-byte node id" })
    )
  return Either.right(encodeBech32m(`${entity}_${networkSuffix(networkId)}`, nodeId))
}

export interface DecodedAddress {
  readonly nodeId: Uint8Array
  readonly networkId: number
  readonly entityType: number
}

/** Decodes an address to its node id; the HRP must match the node id's entity type (and `networkId` if given). */
export const decodeAddress = (input: string, networkId?: number): Either.Either<DecodedAddress, TxV2IdError> => {
  const fail = (reason: string) => Either.left(new TxV2IdError({ input: cut(String(input)), reason }))
  if (typeof input !== "string") return fail("not a string")
  if (input.length > MAX_ID_LENGTH) return fail("too long")
  const decoded = decodeBech32m(input)
  if (decoded === undefined) return fail("not a valid lower-case bech32m string")
  if (decoded.bytes.length !== NODE_ID_LENGTH)
    return fail(`carries ${decoded.bytes.length} bytes, not a 30-byte node id`)
  const hrp = splitHrp(decoded.hrp)
  if (typeof hrp === "string") return fail(hrp)
  const entityType = decoded.bytes[0] ?? 0
  const entity = ENTITY_HRP[entityType]
  if (entity === undefined) return fail(`unknown entity type 0x${entityType.toString(16)}`)
  if (entity !== hrp.prefix) return fail(`HRP "${hrp.prefix}_" does not match the entity type (${entity})`)
  if (networkId !== undefined && networkId !== hrp.networkId)
    return fail(`is for network ${hrp.networkId}, expected network ${networkId}`)
  return Either.right({ nodeId: decoded.bytes, networkId: hrp.networkId, entityType })
}
