/**
 * Mutation fuzzing of every decoder entry point: 10,000 mutated inputs each, from a seeded generator (so a failure
 * replays). Every input must come back as a typed result (never a throw), and an accepted payload must re-encode to
 * exactly its own bytes (the codec is canonical). Time is bounded by construction, not measured: every case runs
 * here, in one test.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  compileManifest,
  decodeAddress,
  decodeManifestValue,
  decodeNotarizedTransactionV2,
  decodePartialTransactionV2,
  decodeSignedPartialTransactionV2,
  decodeSignedTransactionIntentV2,
  decodeSubintentV2,
  decodeTransactionId,
  decodeTransactionIntentV2,
  encodeManifestValue,
  encodeNotarizedTransactionV2,
  encodePartialTransactionV2,
  encodeSignedPartialTransactionV2,
  encodeSignedTransactionIntentV2,
  encodeSubintentV2,
  encodeTransactionIntentV2,
  type TxV2DecodeError,
  type TxV2EncodeError
} from "../../src/txv2"
import { hexBytes, right, scenarios, unitVectors } from "./support"

const CASES = 10_000

/** xorshift32: a small seeded generator. */
const prng = (seed: number) => {
  let s = seed >>> 0 || 1
  return (n: number): number => {
    s ^= s << 13
    s >>>= 0
    s ^= s >>> 17
    s ^= s << 5
    s >>>= 0
    return s % n
  }
}

const mutate = (rand: (n: number) => number, base: Uint8Array, donors: ReadonlyArray<Uint8Array>): Uint8Array => {
  let b = Array.from(base)
  const steps = 1 + rand(3)
  for (let i = 0; i < steps; i++) {
    const at = b.length === 0 ? 0 : rand(b.length)
    switch (rand(9)) {
      case 0:
        b[at] = (b[at] ?? 0) ^ (1 << rand(8))
        break
      case 1:
        b[at] = rand(256)
        break
      case 2:
        b.splice(at, 0, rand(256))
        break
      case 3:
        b.splice(at, 1 + rand(4))
        break
      case 4:
        b = b.slice(0, at)
        break
      case 5:
        b[at] = [0x00, 0x7f, 0x80, 0xff, 0x20, 0x21, 0x22, 0x23][rand(8)] ?? 0
        break
      case 6: {
        const len = 1 + rand(16)
        b.splice(at, 0, ...b.slice(at, at + len))
        break
      }
      case 7: {
        const donor = donors[rand(donors.length)] ?? new Uint8Array()
        const from = rand(Math.max(1, donor.length))
        b.splice(at, rand(8), ...Array.from(donor.subarray(from, from + 1 + rand(24))))
        break
      }
      default:
        // A large LEB128 count where a size may be.
        b.splice(at, 1, 0xff, 0xff, 0xff, 0x7f)
    }
  }
  return Uint8Array.from(b)
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])

interface Entry<A> {
  readonly name: string
  readonly seeds: ReadonlyArray<Uint8Array>
  readonly decode: (b: Uint8Array) => Either.Either<A, TxV2DecodeError>
  readonly encode: (a: A) => Either.Either<Uint8Array, TxV2EncodeError>
}

const notarized = [hexBytes(unitVectors[0].payload_hex), ...scenarios.map((s) => s.payload)]
const models = notarized.map((b) => right(decodeNotarizedTransactionV2(b)))
const stis = models.map((m) => m.signedTransactionIntent)
const tis = stis.map((s) => s.transactionIntent)
const subs = tis.flatMap((t) => t.nonRootSubintents)
const partials = tis
  .filter((t) => t.nonRootSubintents.length > 0)
  .map((t) => ({
    rootSubintent: t.nonRootSubintents[0] ?? { intentCore: t.rootIntentCore },
    nonRootSubintents: t.nonRootSubintents.slice(1)
  }))
const signedPartials = models
  .filter((m) => m.signedTransactionIntent.transactionIntent.nonRootSubintents.length > 0)
  .map((m) => ({
    partialTransaction: {
      rootSubintent: m.signedTransactionIntent.transactionIntent.nonRootSubintents[0] ?? {
        intentCore: m.signedTransactionIntent.transactionIntent.rootIntentCore
      },
      nonRootSubintents: m.signedTransactionIntent.transactionIntent.nonRootSubintents.slice(1)
    },
    rootSubintentSignatures: m.signedTransactionIntent.transactionIntentSignatures,
    nonRootSubintentSignatures: m.signedTransactionIntent.nonRootSubintentSignatures.slice(1)
  }))
const args = models.flatMap((m) =>
  m.signedTransactionIntent.transactionIntent.rootIntentCore.instructions.flatMap((i) => ("args" in i ? [i.args] : []))
)

const entries: ReadonlyArray<Entry<never>> = [
  {
    name: "NotarizedTransactionV2",
    seeds: notarized,
    decode: decodeNotarizedTransactionV2,
    encode: encodeNotarizedTransactionV2
  },
  {
    name: "SignedTransactionIntentV2",
    seeds: stis.map((s) => right(encodeSignedTransactionIntentV2(s))),
    decode: decodeSignedTransactionIntentV2,
    encode: encodeSignedTransactionIntentV2
  },
  {
    name: "TransactionIntentV2",
    seeds: tis.map((t) => right(encodeTransactionIntentV2(t))),
    decode: decodeTransactionIntentV2,
    encode: encodeTransactionIntentV2
  },
  {
    name: "SubintentV2",
    seeds: subs.map((s) => right(encodeSubintentV2(s))),
    decode: decodeSubintentV2,
    encode: encodeSubintentV2
  },
  {
    name: "PartialTransactionV2",
    seeds: partials.map((p) => right(encodePartialTransactionV2(p))),
    decode: decodePartialTransactionV2,
    encode: encodePartialTransactionV2
  },
  {
    name: "SignedPartialTransactionV2",
    seeds: signedPartials.map((p) => right(encodeSignedPartialTransactionV2(p))),
    decode: decodeSignedPartialTransactionV2,
    encode: encodeSignedPartialTransactionV2
  },
  {
    name: "ManifestValue",
    seeds: args.map((a) => right(encodeManifestValue(a))),
    decode: decodeManifestValue,
    encode: encodeManifestValue
  }
] as unknown as ReadonlyArray<Entry<never>>

describe("fuzzing the decoders", () => {
  it.each(entries.map((e, i) => [e.name, e, i] as const))(
    "%s: 10,000 mutated payloads, no throw, canonical when accepted",
    (_name, entry, i) => {
      expect(entry.seeds.length).toBeGreaterThan(0)
      const rand = prng(0x5eed + i)
      const donors = [...notarized, ...entry.seeds]
      let accepted = 0
      let rejected = 0
      for (let n = 0; n < CASES; n++) {
        const input = mutate(rand, entry.seeds[rand(entry.seeds.length)] ?? new Uint8Array(), donors)
        const result = entry.decode(input)
        if (Either.isRight(result)) {
          accepted += 1
          const back = entry.encode(result.right)
          if (!(Either.isRight(back) && equal(back.right, input))) throw new Error(`case ${n} is not canonical`)
        } else {
          rejected += 1
          expect(result.left._tag).toBe("TxV2DecodeError")
          if (result.left.reason.startsWith("internal") || result.left.offset > input.length)
            throw new Error(`case ${n}: ${result.left.message}`)
        }
      }
      expect(accepted + rejected).toBe(CASES)
      expect(rejected).toBeGreaterThan(CASES / 2)
    },
    180_000
  )

  it("manifest compiler: 10,000 mutated manifests, no throw, line and column inside the text", () => {
    const rand = prng(0x47e)
    const texts = scenarios.flatMap((sc) => Object.values(sc.manifests))
    const pieces = [
      "(",
      ")",
      "<",
      ">",
      ";",
      ",",
      "=>",
      '"',
      "\\",
      "#",
      "Enum",
      "Tuple",
      "Map",
      "Array",
      'Bucket("x")',
      "5u8",
      "-1i8",
      "\n",
      'Decimal("1")',
      'Expression("ENTIRE_WORKTOP")'
    ]
    let compiled = 0
    for (let n = 0; n < CASES; n++) {
      let text = texts[rand(texts.length)] ?? ""
      for (let k = 0; k <= rand(3); k++) {
        const at = rand(text.length + 1)
        const op = rand(3)
        const piece = pieces[rand(pieces.length)] ?? ""
        if (op === 0) text = text.slice(0, at) + piece + text.slice(at)
        else if (op === 1) text = text.slice(0, at) + text.slice(at + 1 + rand(12))
        else text = text.slice(0, at) + piece + text.slice(at + piece.length)
      }
      const r = compileManifest(text, 242)
      if (Either.isRight(r)) compiled += 1
      else {
        if (r.left.reason.startsWith("internal")) throw new Error(`case ${n}: ${r.left.message}`)
        const lines = text.split("\n")
        expect(r.left.line).toBeGreaterThanOrEqual(1)
        expect(r.left.line).toBeLessThanOrEqual(lines.length)
        expect(r.left.column).toBeLessThanOrEqual((lines[r.left.line - 1] ?? "").length + 1)
      }
    }
    expect(compiled).toBeLessThan(CASES)
  }, 60_000)

  it("ids and addresses: 10,000 mutated strings each, no throw", () => {
    const rand = prng(0x1d5)
    const ids = [
      "txid_sim1v7xlgxkrk59qekpj53x8jul0lml0r4nzn3yfmv4jd5ysjewmkaust5l3t2",
      "subtxid_sim1kd7eh607wd3wnuq6s290w73jnp6c437580n4q46malda89wz3yvq3cph38",
      "account_sim1cyq8zqa0cz6jufuskdum6w8uex3wt3n9dwegkq40y9gu65pyxcusds",
      "resource_sim1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxakj8n3"
    ]
    const alphabet = "qpzry9x8gf2tvdw0s3jn54khce6mua7l_1QPbio-"
    let changedButAccepted = 0
    for (let n = 0; n < CASES; n++) {
      const chars = Array.from(ids[rand(ids.length)] ?? "")
      for (let k = 0; k <= rand(3); k++) {
        const at = rand(chars.length + 1)
        const op = rand(3)
        if (op === 0) chars[at] = alphabet[rand(alphabet.length)] ?? "q"
        else if (op === 1) chars.splice(at, 1)
        else chars.splice(at, 0, alphabet[rand(alphabet.length)] ?? "q")
      }
      const text = chars.join("")
      const a = decodeTransactionId(text)
      const b = decodeAddress(text)
      if ((Either.isRight(a) || Either.isRight(b)) && !ids.includes(text)) changedButAccepted += 1
      if (Either.isLeft(a)) expect(a.left._tag).toBe("TxV2IdError")
      if (Either.isLeft(b)) expect(b.left._tag).toBe("TxV2IdError")
    }
    // A few mutations undo themselves (a character replaced by itself, an insert then a delete); the rest change
    // the text, and none of those may pass as a valid id or address.
    expect(changedButAccepted).toBe(0)
  }, 60_000)
})
