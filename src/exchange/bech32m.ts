/**
 * Bech32m (BIP-350) encoding of Radix addresses: HRP `<entity>_<network suffix>`, 30 data bytes whose first
 * byte is the entity type (32 for an intent hash). Written from the BIP-350 specification. Pure: the app, the
 * exchange server and the devnet share it.
 */

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const BECH32M_CONST = 0x2bc830a3
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const

/** The checksum state after one more 5-bit value. */
const step = (chk: number, v: number): number => {
  const top = chk >>> 25
  let next = ((chk & 0x1ffffff) << 5) ^ v
  for (let i = 0; i < 5; i++) {
    if ((top >>> i) & 1) next ^= GENERATOR[i] ?? 0
  }
  return next
}

/** The checksum state after the HRP's expansion (its high bits, a zero, its low bits). */
const hrpChecksum = (hrp: string): number => {
  let chk = 1
  for (let i = 0; i < hrp.length; i++) chk = step(chk, hrp.charCodeAt(i) >>> 5)
  chk = step(chk, 0)
  for (let i = 0; i < hrp.length; i++) chk = step(chk, hrp.charCodeAt(i) & 31)
  return chk
}

/** Where each character stands in CHARSET (-1 when it is not one of them), by char code. */
const VALUE_OF = new Int8Array(128).fill(-1)
for (let i = 0; i < CHARSET.length; i++) VALUE_OF[CHARSET.charCodeAt(i)] = i

/** Encodes bytes as a lower-case bech32m string with the given HRP. */
export const encodeBech32m = (hrp: string, bytes: Uint8Array): string => {
  let chk = hrpChecksum(hrp)
  let out = `${hrp}1`
  let acc = 0
  let bits = 0
  for (const byte of bytes) {
    acc = ((acc << 8) | byte) & 0xfff
    bits += 8
    while (bits >= 5) {
      bits -= 5
      const v = (acc >> bits) & 31
      chk = step(chk, v)
      out += CHARSET[v]
    }
  }
  if (bits > 0) {
    const v = (acc << (5 - bits)) & 31
    chk = step(chk, v)
    out += CHARSET[v]
  }
  for (let i = 0; i < 6; i++) chk = step(chk, 0)
  const mod = (chk ^ BECH32M_CONST) >>> 0
  for (let i = 0; i < 6; i++) out += CHARSET[(mod >>> (5 * (5 - i))) & 31]
  return out
}

/** Decodes a lower-case bech32m string; undefined when the checksum, charset or padding is wrong. */
export const decodeBech32m = (text: string): { readonly hrp: string; readonly bytes: Uint8Array } | undefined => {
  const sep = text.lastIndexOf("1")
  if (sep < 1 || sep + 7 > text.length) return undefined
  for (let i = 0; i < sep; i++) {
    const c = text.charCodeAt(i)
    // Lower case only: an upper-case letter anywhere is refused, as is a character outside printable ASCII.
    if (c < 33 || c > 126 || (c >= 65 && c <= 90)) return undefined
  }
  const hrp = text.slice(0, sep)
  let chk = hrpChecksum(hrp)
  const dataLength = text.length - sep - 1 - 6
  const bytes = new Uint8Array(Math.floor((dataLength * 5) / 8))
  let acc = 0
  let bits = 0
  let n = 0
  for (let i = sep + 1; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const v = c < 128 ? (VALUE_OF[c] ?? -1) : -1
    if (v < 0) return undefined
    chk = step(chk, v)
    if (i >= text.length - 6) continue
    acc = ((acc << 5) | v) & 0xfff
    bits += 5
    if (bits >= 8) {
      bits -= 8
      bytes[n++] = (acc >> bits) & 0xff
    }
  }
  if (chk >>> 0 !== BECH32M_CONST) return undefined
  // At most 4 bits of padding, all zero.
  if (bits >= 5 || ((acc << (8 - bits)) & 0xff) !== 0) return undefined
  return { hrp, bytes }
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
