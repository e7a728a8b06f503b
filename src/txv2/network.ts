/** Radix networks and their bech32m HRP suffixes (radix-common network/mod.rs). */
import { hrpSuffix } from "../exchange/bech32m"

export const NetworkId = { mainnet: 1, stokenet: 2, localnet: 240, inttestnet: 241, simulator: 242 } as const

/** The HRP suffix of a network id: 1 `rdx`, 2 `tdx_2_`, 240 `loc`, 241 `test`, 242 `sim`, others `tdx_{hex}_`. */
export const networkSuffix = (networkId: number): string => hrpSuffix(networkId)

const LETTERS: Readonly<Record<string, number>> = { a: 10, b: 11, c: 12, d: 13, e: 14 }

/** The network id of an HRP suffix, or undefined when the suffix names no network. */
export const networkIdOfSuffix = (suffix: string): number | undefined => {
  if (suffix === "rdx") return 1
  if (suffix === "loc") return 240
  if (suffix === "test") return 241
  if (suffix === "sim") return 242
  const m = /^tdx_([0-9a-f]{1,2})_$/.exec(suffix)
  if (m === null) return undefined
  const tag = m[1] ?? ""
  const id = LETTERS[tag] ?? parseInt(tag, 16)
  // Each id has exactly one suffix: reject spellings that hrpSuffix would not produce (e.g. `tdx_0a_`).
  return hrpSuffix(id) === suffix && id >= 0 && id <= 255 ? id : undefined
}
