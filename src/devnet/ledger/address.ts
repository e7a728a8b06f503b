/**
 * Radix addresses on the devnet (network 240, HRP suffix `loc`): entity-type bytes, bech32m HRPs, and the
 * virtual account / identity derivation from an Ed25519 public key (entity byte + the last 29 bytes of
 * blake2b-256(public key)).
 */
import { blake2b } from "@noble/hashes/blake2.js"
import { decodeBech32m, encodeBech32m } from "../../exchange/bech32m"

export const DEVNET_NETWORK_ID = 240
export const DEVNET_NETWORK_NAME = "localnet"
export const DEVNET_HRP_SUFFIX = "loc"

/** First byte of a Radix node id, by entity type (radix-common `EntityType`). */
export const EntityByte = {
  GlobalPackage: 0x0d,
  GlobalFungibleResourceManager: 0x5d,
  GlobalNonFungibleResourceManager: 0x9a,
  GlobalConsensusManager: 0x86,
  GlobalValidator: 0x83,
  GlobalGenericComponent: 0xc0,
  GlobalAccount: 0xc1,
  GlobalIdentity: 0xc2,
  GlobalVirtualEd25519Account: 0x51,
  GlobalVirtualSecp256k1Account: 0xd1,
  GlobalVirtualEd25519Identity: 0x52,
  GlobalVirtualSecp256k1Identity: 0xd2,
  InternalFungibleVault: 0x58,
  InternalNonFungibleVault: 0x98,
  // Kinds the devnet never creates, known so that their well-formed addresses are found missing, not malformed.
  GlobalAccountLocker: 0x68,
  InternalKeyValueStore: 0xb0
} as const
export type EntityKind = keyof typeof EntityByte

const hrpPrefix: Record<EntityKind, string> = {
  GlobalPackage: "package",
  GlobalFungibleResourceManager: "resource",
  GlobalNonFungibleResourceManager: "resource",
  GlobalConsensusManager: "consensusmanager",
  GlobalValidator: "validator",
  GlobalGenericComponent: "component",
  GlobalAccount: "account",
  GlobalIdentity: "identity",
  GlobalVirtualEd25519Account: "account",
  GlobalVirtualSecp256k1Account: "account",
  GlobalVirtualEd25519Identity: "identity",
  GlobalVirtualSecp256k1Identity: "identity",
  InternalFungibleVault: "internal_vault",
  InternalNonFungibleVault: "internal_vault",
  GlobalAccountLocker: "locker",
  InternalKeyValueStore: "internal_keyvaluestore"
}

export const blake2b256 = (bytes: Uint8Array): Uint8Array => blake2b(bytes, { dkLen: 32 })

const utf8 = new TextEncoder()
export const utf8Bytes = (text: string): Uint8Array => utf8.encode(text)

/** Encodes a 30-byte node id (entity byte first) as a devnet address. */
export const encodeAddress = (kind: EntityKind, body29: Uint8Array): string => {
  const bytes = new Uint8Array(30)
  bytes[0] = EntityByte[kind]
  bytes.set(body29.slice(0, 29), 1)
  return encodeBech32m(`${hrpPrefix[kind]}_${DEVNET_HRP_SUFFIX}`, bytes)
}

/**
 * A memo of a pure function of a string, dropped whole when it reaches `limit` entries (addresses come from requests
 * too, so it may not grow without bound).
 */
const memo = <A>(limit: number, f: (key: string) => A): ((key: string) => A) => {
  const known = new Map<string, A>()
  return (key) => {
    if (known.has(key)) return known.get(key) as A
    if (known.size >= limit) known.clear()
    const value = f(key)
    known.set(key, value)
    return value
  }
}

/**
 * The entity kind of a devnet address, or undefined when it is not a valid network-240 address. Remembered per
 * address: every request names a few, and a bech32m decode with its checksum is most of what checking one costs.
 */
export const addressKind = memo(50_000, (address: string): EntityKind | undefined => {
  const decoded = decodeBech32m(address)
  if (decoded === undefined || decoded.bytes.length !== 30) return undefined
  const byte = decoded.bytes[0]
  const kind = (Object.keys(EntityByte) as Array<EntityKind>).find((k) => EntityByte[k] === byte)
  if (kind === undefined) return undefined
  return decoded.hrp === `${hrpPrefix[kind]}_${DEVNET_HRP_SUFFIX}` ? kind : undefined
})

export const isAccountAddress = (address: string): boolean => {
  const kind = addressKind(address)
  return kind === "GlobalVirtualEd25519Account" || kind === "GlobalVirtualSecp256k1Account" || kind === "GlobalAccount"
}

export const isFungibleResourceAddress = (address: string): boolean =>
  addressKind(address) === "GlobalFungibleResourceManager"

/** The 29-byte public key hash Radix uses for virtual entities: the last 29 bytes of blake2b-256(pk). */
export const publicKeyHash = (publicKey: Uint8Array): Uint8Array => blake2b256(publicKey).slice(3)

export const virtualAccountAddress = (ed25519PublicKey: Uint8Array): string =>
  encodeAddress("GlobalVirtualEd25519Account", publicKeyHash(ed25519PublicKey))

export const virtualIdentityAddress = (ed25519PublicKey: Uint8Array): string =>
  encodeAddress("GlobalVirtualEd25519Identity", publicKeyHash(ed25519PublicKey))

/** A deterministic fungible resource address for `label`, derived from the genesis seed. */
export const derivedResourceAddress = (seed: string, label: string): string =>
  encodeAddress("GlobalFungibleResourceManager", blake2b256(utf8Bytes(`${seed}/resource/${label}`)))

const vaultAddressOf = memo(100_000, (path: string) =>
  encodeAddress("InternalFungibleVault", blake2b256(utf8Bytes(path)))
)

/**
 * The vault that holds `resource` for `account` (one vault per account and resource). Remembered: every read of an
 * account's vaults names each one, and a Blake2b hash and a bech32m encoding per vault and read added up.
 */
export const vaultAddress = (account: string, resource: string): string =>
  vaultAddressOf(`vault/${account}/${resource}`)

/**
 * A well-known address (same node id on every network) on the devnet: the node id of `address` under the devnet's
 * HRP, e.g. `consensusmanager_rdx1…` → `consensusmanager_loc1…`. Answers the input when it is not bech32m.
 */
export const wellKnownOnDevnet = (address: string): string => {
  const decoded = decodeBech32m(address)
  if (decoded === undefined) return address
  const prefix = decoded.hrp.replace(/_(sim|loc|rdx|test|tdx_[0-9a-f]{1,2}_)$/, "")
  return encodeBech32m(`${prefix}_${DEVNET_HRP_SUFFIX}`, decoded.bytes)
}

/** The consensus manager (radix-engine well-known `CONSENSUS_MANAGER`), which every round update touches. */
export const CONSENSUS_MANAGER = wellKnownOnDevnet(
  "consensusmanager_rdx1scxxxxxxxxxxcnsmgrxxxxxxxxx000999665565xxxxxxxxxcnsmgr"
)
