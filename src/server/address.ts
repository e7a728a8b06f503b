/**
 * Cheap input checks for Radix addresses and transaction hashes on the configured network: a lower-case bech32m
 * string (BIP-350, written from the specification) whose HRP is `<entity>_<network suffix>` and whose payload has
 * the right length (30 bytes for entities, 32 for an intent hash). Anything else is bad input (a 4xx).
 */

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BECH32M_CONST = 0x2bc830a3
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const

const polymod = (values: ReadonlyArray<number>): number => {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i] ?? 0
  }
  return chk >>> 0
}

const hrpExpand = (hrp: string): Array<number> => {
  const high: Array<number> = []
  const low: Array<number> = []
  for (let i = 0; i < hrp.length; i++) {
    high.push(hrp.charCodeAt(i) >>> 5)
    low.push(hrp.charCodeAt(i) & 31)
  }
  return [...high, 0, ...low]
}

/** Decodes a lower-case bech32m string to its HRP and the number of 8-bit payload bytes, or undefined. */
export const decodeBech32mLength = (text: string): { readonly hrp: string; readonly bytes: number } | undefined => {
  if (text.length < 8 || text.length > 200 || text !== text.toLowerCase()) return undefined
  const sep = text.lastIndexOf("1")
  if (sep < 1 || sep + 7 > text.length) return undefined
  const hrp = text.slice(0, sep)
  const data: Array<number> = []
  for (const ch of text.slice(sep + 1)) {
    const v = CHARSET.indexOf(ch)
    if (v < 0) return undefined
    data.push(v)
  }
  if (polymod([...hrpExpand(hrp), ...data]) !== BECH32M_CONST) return undefined
  const payloadBits = (data.length - 6) * 5
  return { hrp, bytes: Math.floor(payloadBits / 8) }
}

const LETTER_NETS: Readonly<Record<number, string>> = { 10: "tdx_a_", 11: "tdx_b_", 12: "tdx_c_", 13: "tdx_d_", 14: "tdx_e_" }

/** The HRP suffix of a network id: 1 `rdx`, 2 `tdx_2_`, 240 `loc`, 241 `test`, 242 `sim`, others `tdx_{hex}_`. */
export const hrpSuffix = (networkId: number): string => {
  if (networkId === 1) return "rdx"
  if (networkId === 240) return "loc"
  if (networkId === 241) return "test"
  if (networkId === 242) return "sim"
  return LETTER_NETS[networkId] ?? `tdx_${networkId.toString(16)}_`
}

export type AddressKind = "account" | "resource" | "txid"

/** True when `text` is a well-formed `kind` address (or intent hash for `txid`) of `networkId`. */
export const isAddressOf = (kind: AddressKind, networkId: number, text: string): boolean => {
  const decoded = decodeBech32mLength(text)
  if (decoded === undefined || decoded.hrp !== `${kind}_${hrpSuffix(networkId)}`) return false
  return decoded.bytes === (kind === "txid" ? 32 : 30)
}
