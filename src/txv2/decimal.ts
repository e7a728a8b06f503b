/**
 * Radix Decimal (a signed 192-bit integer of attos, 18 decimal places) and PreciseDecimal (signed 256-bit, 36
 * places), as exact decimal strings and as their little-endian two's-complement Manifest SBOR bodies.
 */

export interface FixedPoint {
  readonly bits: number
  readonly scale: number
}
export const DECIMAL: FixedPoint = { bits: 192, scale: 18 }
export const PRECISE_DECIMAL: FixedPoint = { bits: 256, scale: 36 }

const limits = (f: FixedPoint) => ({ max: (1n << BigInt(f.bits - 1)) - 1n, min: -(1n << BigInt(f.bits - 1)) })

/** The canonical text of a fixed-point integer: no exponent, no trailing fractional zeros, `-` only below zero. */
export const fixedToString = (value: bigint, f: FixedPoint): string => {
  const negative = value < 0n
  const abs = negative ? -value : value
  const unit = 10n ** BigInt(f.scale)
  const whole = abs / unit
  const frac = (abs % unit).toString().padStart(f.scale, "0").replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole.toString()}${frac === "" ? "" : `.${frac}`}`
}

/**
 * Parses `-?digits(.digits)?` with at most `scale` fractional digits into the fixed-point integer; a reason
 * string when the text is not such a number or is out of range.
 */
export const parseFixed = (text: string, f: FixedPoint): bigint | string => {
  if (text.length > 200) return "too long"
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text)
  if (m === null) return `not a decimal number: "${text}"`
  const frac = m[3] ?? ""
  if (frac.length > f.scale) return `more than ${f.scale} decimal places`
  const magnitude = BigInt(m[2] ?? "0") * 10n ** BigInt(f.scale) + BigInt(frac.padEnd(f.scale, "0") || "0")
  const value = m[1] === "-" ? -magnitude : magnitude
  const { max, min } = limits(f)
  if (value > max || value < min) return "out of range"
  return value
}

/** Little-endian two's complement of `value` in `bytes` bytes (the value must fit). */
export const toLeBytes = (value: bigint, bytes: number): Uint8Array => {
  const out = new Uint8Array(bytes)
  let v = BigInt.asUintN(bytes * 8, value)
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

export const fromLeBytesSigned = (bytes: Uint8Array): bigint => {
  let v = 0n
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i] ?? 0)
  return BigInt.asIntN(bytes.length * 8, v)
}

export const fromLeBytesUnsigned = (bytes: Uint8Array): bigint => {
  let v = 0n
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i] ?? 0)
  return v
}

/** The canonical form of a Decimal string, or a reason. `"00012.50"` → `"12.5"`. */
export const normalizeDecimal = (text: string): string | { readonly error: string } => {
  const v = parseFixed(text, DECIMAL)
  return typeof v === "string" ? { error: v } : fixedToString(v, DECIMAL)
}
