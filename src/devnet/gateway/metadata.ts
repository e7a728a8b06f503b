/**
 * Gateway `EntityMetadataItem` values: `raw_hex` (SBOR of the engine's MetadataValue enum),
 * `programmatic_json` and `typed`, for the metadata types the devnet stores.
 */
import { decodeBech32m } from "../../exchange/bech32m"
import type { MetadataEntry } from "../ledger/Ledger"

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

/** SBOR length prefix: unsigned LEB128. */
const leb128 = (n: number): string => {
  const out: Array<number> = []
  let value = n
  do {
    let byte = value & 0x7f
    value >>>= 7
    if (value !== 0) byte |= 0x80
    out.push(byte)
  } while (value !== 0)
  return hex(Uint8Array.from(out))
}

const sborString = (text: string): string => {
  const bytes = Buffer.from(text, "utf8")
  return `0c${leb128(bytes.length)}${hex(bytes)}`
}

/** Enum variants of the engine's `MetadataValue`. */
const variant = { String: 0, U8: 2, Url: 13 } as const

export interface GatewayMetadataItem {
  readonly key: string
  readonly value: {
    readonly raw_hex: string
    readonly programmatic_json: unknown
    readonly typed: unknown
  }
  readonly is_locked: boolean
  readonly last_updated_at_state_version: number
}

export const metadataItem = (entry: MetadataEntry): GatewayMetadataItem => {
  const v = variant[entry.type]
  const variantHex = v.toString(16).padStart(2, "0")
  const raw =
    entry.type === "U8"
      ? `5c22${variantHex}0107${Number(entry.value).toString(16).padStart(2, "0")}`
      : `5c22${variantHex}01${sborString(entry.value)}`
  const field = entry.type === "U8" ? { kind: "U8", value: entry.value } : { kind: "String", value: entry.value }
  return {
    key: entry.key,
    value: {
      raw_hex: raw,
      programmatic_json: { kind: "Enum", variant_id: v, fields: [field] },
      typed: { type: entry.type, value: entry.value }
    },
    is_locked: false,
    last_updated_at_state_version: entry.lastUpdatedAtStateVersion
  }
}

/**
 * `owner_keys` and `owner_badge` of a virtual Ed25519 account or identity: the public key hash is the address
 * body itself.
 */
export const virtualOwnerMetadata = (address: string, stateVersion: number): ReadonlyArray<GatewayMetadataItem> => {
  const decoded = decodeBech32m(address)
  const entityByte = decoded?.bytes[0]
  if (decoded === undefined || (entityByte !== 0x51 && entityByte !== 0x52)) return []
  const hashHex = hex(decoded.bytes.slice(1))
  const localId = `[${hex(decoded.bytes)}]`
  return [
    {
      key: "owner_badge",
      value: {
        raw_hex: `5c220b01c0021e${hex(decoded.bytes)}`,
        programmatic_json: { kind: "Enum", variant_id: 11, fields: [{ kind: "NonFungibleLocalId", value: localId }] },
        typed: { type: "NonFungibleLocalId", value: localId }
      },
      is_locked: true,
      last_updated_at_state_version: stateVersion
    },
    {
      key: "owner_keys",
      value: {
        raw_hex: `5c228f01202201010120071d${hashHex}`,
        programmatic_json: {
          kind: "Enum",
          variant_id: 143,
          fields: [
            {
              kind: "Array",
              element_kind: "Enum",
              elements: [{ kind: "Enum", variant_id: 1, fields: [{ kind: "Bytes", element_kind: "U8", hex: hashHex }] }]
            }
          ]
        },
        typed: { type: "PublicKeyHashArray", values: [{ key_hash_type: "EddsaEd25519", hash_hex: hashHex }] }
      },
      is_locked: false,
      last_updated_at_state_version: stateVersion
    }
  ]
}
