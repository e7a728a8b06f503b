/**
 * Radix `Decimal` as exact fixed-point bigint: value = atto / 10^18 (an I192 in the engine). No floats.
 */

export const SCALE = 18
const ONE = 10n ** 18n
/** The engine's Decimal range (I192 / 10^18). */
export const DECIMAL_MAX = 3138550867693340381917894711603833208051177722232017256447n
export const DECIMAL_MIN = -3138550867693340381917894711603833208051177722232017256448n

const DECIMAL_RE = /^([+-]?)(\d+)(?:\.(\d+))?$/

/** Parses a decimal string (as RET prints `Decimal` values) into atto units; undefined if malformed or out of range. */
export const parseDecimal = (text: string): bigint | undefined => {
  const m = DECIMAL_RE.exec(text.trim())
  if (m === null) return undefined
  const [, sign, int = "0", frac = ""] = m
  if (frac.length > SCALE) return undefined
  const atto = BigInt(int) * ONE + BigInt(frac.padEnd(SCALE, "0") || "0")
  const value = sign === "-" ? -atto : atto
  return value > DECIMAL_MAX || value < DECIMAL_MIN ? undefined : value
}

/** Canonical text of an atto amount: no exponent, no trailing fractional zeros ("12.5", "-3", "0"). */
export const formatDecimal = (atto: bigint): string => {
  const negative = atto < 0n
  const abs = negative ? -atto : atto
  const int = abs / ONE
  const frac = (abs % ONE).toString().padStart(SCALE, "0").replace(/0+$/, "")
  return `${negative ? "-" : ""}${int.toString()}${frac.length > 0 ? `.${frac}` : ""}`
}

/** True when `atto` has no more fractional digits than `divisibility` allows. */
export const fitsDivisibility = (atto: bigint, divisibility: number): boolean =>
  atto % 10n ** BigInt(SCALE - divisibility) === 0n

/** The engine's debug form of a decimal, as it appears in error messages: `Decimal("1.5")`. */
export const debugDecimal = (atto: bigint): string => `Decimal("${formatDecimal(atto)}")`
