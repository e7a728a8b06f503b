import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  decodeManifestValue,
  decodeNotarizedTransactionV2,
  decodeSignedPartialTransactionV2,
  decodeSubintentV2,
  encodeNotarizedTransactionV2,
  MAX_DEPTH,
  MAX_PAYLOAD_BYTES,
  TxV2DecodeError
} from "../../src/txv2"
import { hexBytes, scenarios, unitVectors } from "./support"

const vector = hexBytes(unitVectors[0].payload_hex)
const subintent = hexBytes(unitVectors[1].payload_hex)

const leftOf = <A>(e: Either.Either<A, TxV2DecodeError>): TxV2DecodeError => {
  if (Either.isRight(e)) throw new Error("expected a decode error")
  return e.left
}

describe("hostile payloads get typed errors, never a throw", () => {
  it("every truncation of every payload fails with an offset inside the input", () => {
    for (const payload of [vector, ...scenarios.map((s) => s.payload)]) {
      for (let n = 0; n < payload.length; n++) {
        const e = leftOf(decodeNotarizedTransactionV2(payload.subarray(0, n)))
        expect(e).toBeInstanceOf(TxV2DecodeError)
        expect(e.offset).toBeLessThanOrEqual(n)
        expect(e.reason).not.toMatch(/internal/)
      }
    }
  }, 60_000)

  it("says where a truncated instruction list stops", () => {
    const sc = scenarios.find((s) => s.name.startsWith("005"))
    expect(sc).toBeDefined()
    const e = leftOf(decodeNotarizedTransactionV2((sc?.payload ?? vector).subarray(0, 300)))
    expect(e.path).toMatch(/^root\.signedTransactionIntent\.transactionIntent\.rootIntentCore\.instructions\[\d+\]/)
    expect(e.reason).toMatch(/end of input|bytes left|needs/)
  })

  it("every single-bit flip of the canonical vector either fails typed or decodes to a payload that re-encodes to itself", () => {
    let accepted = 0
    for (let i = 0; i < vector.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const mutated = vector.slice()
        mutated[i] = (mutated[i] ?? 0) ^ (1 << bit)
        const d = decodeNotarizedTransactionV2(mutated)
        if (Either.isRight(d)) {
          accepted += 1
          const back = encodeNotarizedTransactionV2(d.right)
          expect(Either.isRight(back) && Buffer.from(back.right).equals(Buffer.from(mutated))).toBe(true)
        } else {
          expect(d.left.reason).not.toMatch(/internal/)
        }
      }
    }
    // Flips inside keys, signatures, hashes and numbers still decode; flips in the structure do not.
    expect(accepted).toBeGreaterThan(0)
    expect(accepted).toBeLessThan(vector.length * 8)
  }, 60_000)

  it("rejects a payload over the 1 MiB limit before reading it", () => {
    const big = new Uint8Array(MAX_PAYLOAD_BYTES + 1)
    big.set(vector)
    const e = leftOf(decodeNotarizedTransactionV2(big))
    expect(e.reason).toMatch(/over the 1048576-byte limit/)
  })

  it(`accepts nesting up to depth ${MAX_DEPTH} and rejects depth ${MAX_DEPTH + 1}`, () => {
    const nested = (depth: number) => {
      // depth - 1 one-field tuples around an empty tuple: `depth` values deep.
      const bytes = [0x4d]
      for (let i = 0; i < depth - 1; i++) bytes.push(0x21, 0x01)
      bytes.push(0x21, 0x00)
      return Uint8Array.from(bytes)
    }
    expect(Either.isRight(decodeManifestValue(nested(MAX_DEPTH)))).toBe(true)
    expect(leftOf(decodeManifestValue(nested(MAX_DEPTH + 1))).reason).toMatch(/deeper than 24/)
    expect(leftOf(decodeManifestValue(nested(100_000))).reason).toMatch(/deeper than 24/)
  })

  it("names the payload type found under a wrong discriminator", () => {
    expect(leftOf(decodeNotarizedTransactionV2(subintent)).reason).toBe(
      "expected a NotarizedTransactionV2 payload (discriminator 12), found SubintentV2 (11)"
    )
    expect(leftOf(decodeSignedPartialTransactionV2(vector)).reason).toMatch(/found NotarizedTransactionV2 \(12\)/)
    const v1 = Uint8Array.from([0x4d, 0x22, 0x03, 0x02])
    expect(leftOf(decodeNotarizedTransactionV2(v1)).reason).toMatch(/found discriminator 3/)
    expect(leftOf(decodeNotarizedTransactionV2(Uint8Array.from([0xde, 0xad]))).reason).toMatch(/not 0x4d/)
  })

  it("rejects trailing bytes after a complete payload", () => {
    const e = leftOf(decodeSubintentV2(Uint8Array.from([...subintent, 0])))
    expect(e.offset).toBe(subintent.length)
    expect(e.reason).toBe("1 trailing bytes after the payload")
  })

  it("rejects a hostile count at once, a non-canonical size, a bad bool and invalid UTF-8", () => {
    // Array<Tuple> claiming 0x0fffffff elements in 6 bytes.
    expect(leftOf(decodeManifestValue(Uint8Array.from([0x4d, 0x20, 0x21, 0xff, 0xff, 0xff, 0x7f]))).reason).toMatch(
      /cannot fit/
    )
    expect(leftOf(decodeManifestValue(Uint8Array.from([0x4d, 0x0c, 0x80, 0x00]))).reason).toBe(
      "non-canonical size prefix"
    )
    expect(leftOf(decodeManifestValue(Uint8Array.from([0x4d, 0x0c, 0x80, 0x80, 0x80, 0x80, 0x01]))).reason).toBe(
      "size prefix longer than 4 bytes"
    )
    expect(leftOf(decodeManifestValue(Uint8Array.from([0x4d, 0x01, 0x02]))).reason).toMatch(/neither 0 nor 1/)
    expect(leftOf(decodeManifestValue(Uint8Array.from([0x4d, 0x0c, 0x02, 0xc3, 0x28]))).reason).toBe(
      "string is not valid UTF-8"
    )
    // A leading BOM is data, kept as is.
    const bom = decodeManifestValue(Uint8Array.from([0x4d, 0x0c, 0x03, 0xef, 0xbb, 0xbf]))
    expect(Either.isRight(bom) && bom.right.kind === "String" && bom.right.value).toBe("\ufeff")
  })

  it("reports a non-Uint8Array input as a typed error", () => {
    const e = leftOf(decodeNotarizedTransactionV2("4d22" as unknown as Uint8Array))
    expect(e.reason).toBe("input is not a Uint8Array")
  })
})
