/**
 * Bech32m (BIP-350) encoding of Radix addresses: HRP `<entity>_<network suffix>`, 30 data bytes whose first
 * byte is the entity type (32 for an intent hash). Written from the BIP-350 specification. Pure: the app, the
 * exchange server and the devnet share it.
 */

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BECH32M_CONST = 0x2bc830a3
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const

const polymod = (values: ReadonlyArray<number>): number => {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) {
      if ((top >>> i) & 1) chk ^= GENERATOR[i] ?? 0
    }
  }
  return chk >>> 0
}

const hrpExpand = (hrp: string): Array<number> => {
  const out: Array<number> = []
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >>> 5)
  out.push(0)
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31)
  return out
}

const convertBits = (
  data: ReadonlyArray<number>,
  from: number,
  to: number,
  pad: boolean
): Array<number> | undefined => {
  let acc = 0
  let bits = 0
  const out: Array<number> = []
  const maxv = (1 << to) - 1
  for (const value of data) {
    if (value < 0 || value >> from !== 0) return undefined
    acc = (acc << from) | value
    bits += from
    while (bits >= to) {
      bits -= to
      out.push((acc >> bits) & maxv)
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv)
  } else if (bits >= from || ((acc << (to - bits)) & maxv) !== 0) {
    return undefined
  }
  return out
}

/** Encodes bytes as a lower-case bech32m string with the given HRP. */
export const encodeBech32m = (hrp: string, bytes: Uint8Array): string => {
  const data = convertBits(Array.from(bytes), 8, 5, true) ?? []
  const mod = polymod([...hrpExpand(hrp), ...data, 0, 0, 0, 0, 0, 0]) ^ BECH32M_CONST
  const checksum: Array<number> = []
  for (let i = 0; i < 6; i++) checksum.push((mod >>> (5 * (5 - i))) & 31)
  return `${hrp}1${[...data, ...checksum].map((d) => CHARSET[d] ?? "").join("")}`
}

/** Decodes a lower-case bech32m string; undefined when the checksum, charset or padding is wrong. */
export const decodeBech32m = (text: string): { readonly hrp: string; readonly bytes: Uint8Array } | undefined => {
  if (text !== text.toLowerCase()) return undefined
  const sep = text.lastIndexOf("1")
  if (sep < 1 || sep + 7 > text.length) return undefined
  const hrp = text.slice(0, sep)
  const values: Array<number> = []
  for (const c of text.slice(sep + 1)) {
    const v = CHARSET.indexOf(c)
    if (v < 0) return undefined
    values.push(v)
  }
  if (polymod([...hrpExpand(hrp), ...values]) !== BECH32M_CONST) return undefined
  const bytes = convertBits(values.slice(0, -6), 5, 8, false)
  return bytes === undefined ? undefined : { hrp, bytes: Uint8Array.from(bytes) }
}

const LETTER_NETS: Readonly<Record<number, string>> = {
  10: "tdx_a_",
  11: "tdx_b_",
  12: "tdx_c_",
  13: "tdx_d_",
  14: "tdx_e_"
}

/** The HRP suffix of a network id: 1 `rdx`, 2 `tdx_2_`, 240 `loc`, 241 `test`, 242 `sim`, others `tdx_{hex}_`. */
export const hrpSuffix = (networkId: number): string => {
  if (networkId === 1) return "rdx"
  if (networkId === 240) return "loc"
  if (networkId === 241) return "test"
  if (networkId === 242) return "sim"
  return LETTER_NETS[networkId] ?? `tdx_${networkId.toString(16)}_`
}

/**
 * True when `text` is a valid bech32m address of `entity` (account, resource, validator, txid, …) on the network:
 * right HRP, checksum and payload length (30 bytes, 32 for an intent hash).
 */
export const isAddressOf = (entity: string, networkId: number, text: string): boolean => {
  if (text.length > 200) return false
  const decoded = decodeBech32m(text)
  if (decoded === undefined || decoded.hrp !== `${entity}_${hrpSuffix(networkId)}`) return false
  return decoded.bytes.length === (entity === "txid" ? 32 : 30)
}
