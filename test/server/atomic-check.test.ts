import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  type AtomicAccepted,
  type CheckInput,
  checkPreAuthorization,
  MIN_TIME_TO_SUBMIT_MS,
  type RefusalReason
} from "../../src/server/atomic/check"
import { atomicSubintentManifest } from "../../src/exchange/atomicManifest"
import { fromHex, toHex } from "../../src/txv2"
import {
  accountOf,
  allocatedAccount,
  compile,
  EPOCH,
  exchangeAccount,
  EXPIRES_MS,
  HETH,
  HUSDC,
  LOC,
  NOW_MS,
  quote,
  resource,
  signed,
  stranger,
  user,
  userAccount
} from "./atomic-support"

const input = (hex: string, over: Partial<CheckInput> = {}): CheckInput => ({
  signedPartialHex: hex,
  networkId: LOC,
  terms: { fromResource: HUSDC, toResource: HETH, amountIn: "100", quotedOut: "0.0331", expiresMs: EXPIRES_MS },
  exchangeAccount,
  nowMs: NOW_MS,
  currentEpoch: EPOCH,
  ...over
})

const accepted = (hex: string, over: Partial<CheckInput> = {}): AtomicAccepted => {
  const r = checkPreAuthorization(input(hex, over))
  if (Either.isLeft(r)) throw new Error(`refused: ${r.left.reason}: ${r.left.message}`)
  return r.right
}

const refusal = (hex: string, over: Partial<CheckInput> = {}) => {
  const r = checkPreAuthorization(input(hex, over))
  if (Either.isRight(r)) throw new Error("accepted")
  return r.left
}

const reason = (hex: string, over: Partial<CheckInput> = {}): RefusalReason => refusal(hex, over).reason

/** The canonical manifest with one line replaced (0-based). */
const withLine = (index: number, line: string, account = userAccount) => {
  const lines = atomicSubintentManifest(quote, account).split("\n")
  lines[index] = line
  return lines.join("\n")
}

describe("checkPreAuthorization accepts", () => {
  it("the manifest the app asks the wallet to sign, compiled by txv2, and reports what was signed", () => {
    const s = signed()
    const a = accepted(s.hex)
    expect(a.subintentHash).toBe(toHex(s.subintentHash))
    expect(a.subintentId).toBe(s.subintentId)
    expect(a.account).toBe(userAccount)
    expect([a.amountIn, a.assertedOut, a.windowEndMs]).toEqual(["100", "0.0331", EXPIRES_MS])
  })

  it("the manifest text is the documented shape", () => {
    expect(atomicSubintentManifest(quote, userAccount)).toBe(
      [
        `CALL_METHOD Address("${userAccount}") "withdraw" Address("${HUSDC}") Decimal("100");`,
        `TAKE_FROM_WORKTOP Address("${HUSDC}") Decimal("100") Bucket("sold");`,
        `YIELD_TO_PARENT Bucket("sold");`,
        `ASSERT_WORKTOP_RESOURCES_ONLY Map<Address, Enum>(Address("${HETH}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("0.0331")));`,
        `CALL_METHOD Address("${userAccount}") "deposit_batch" Expression("ENTIRE_WORKTOP");`,
        `YIELD_TO_PARENT;`
      ].join("\n")
    )
  })

  it("the documented variants: TAKE_ALL, RESOURCES_INCLUDE, ASSERT_WORKTOP_CONTAINS, try_deposit_batch_or_abort, a higher minimum, 0x-prefixed hex", () => {
    const variants = [
      withLine(1, `TAKE_ALL_FROM_WORKTOP Address("${HUSDC}") Bucket("sold");`),
      withLine(
        3,
        `ASSERT_WORKTOP_RESOURCES_INCLUDE Map<Address, Enum>(Address("${HETH}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("0.0331")));`
      ),
      withLine(3, `ASSERT_WORKTOP_CONTAINS Address("${HETH}") Decimal("0.0331");`),
      withLine(
        4,
        `CALL_METHOD Address("${userAccount}") "try_deposit_batch_or_abort" Expression("ENTIRE_WORKTOP") None;`
      ),
      withLine(3, `ASSERT_WORKTOP_CONTAINS Address("${HETH}") Decimal("0.04");`)
    ]
    for (const manifest of variants) expect(accepted(signed({ manifest }).hex).account).toBe(userAccount)
    expect(accepted(`0x${signed().hex}`).amountIn).toBe("100")
  })
})

describe("checkPreAuthorization refuses", () => {
  it("a payload that is not hex, too long, truncated anywhere, or bit-flipped", () => {
    expect(reason("zz")).toBe("payload_malformed")
    expect(reason("0".repeat(2 * 1024 * 1024 + 2))).toBe("payload_malformed")
    const hex = signed().hex
    const bytes = fromHex(hex) ?? new Uint8Array()
    for (let n = 0; n < bytes.length; n += 7) {
      const r = refusal(toHex(bytes.subarray(0, n)))
      expect(r.reason).toBe("payload_malformed")
      expect(r.message).toMatch(/does not decode \(at byte \d+, /)
    }
    for (let i = 0; i < bytes.length; i += 3) {
      const flipped = Uint8Array.from(bytes)
      flipped[i] = (flipped[i] ?? 0) ^ (1 << (i % 8))
      expect(["payload_malformed", "signature_invalid", "wrong_network"]).toContain(reason(toHex(flipped)))
    }
  })

  it("another network: in the header, or our terms on another network", () => {
    const instructions = compile(atomicSubintentManifest(quote, userAccount))
    expect(reason(signed({ header: { networkId: 2 }, instructions }).hex)).toBe("wrong_network")
    expect(refusal(signed({ header: { networkId: 2 }, instructions }).hex).message).toBe(
      "The pre-authorisation was refused: it is for network 2, not this exchange's network 240."
    )
  })

  it("a signature by another key, a forged signature, two signatures, none", () => {
    expect(reason(signed({ signers: [stranger] }).hex)).toBe("signer_not_account")
    const a = signed()
    const b = signed({ header: { intentDiscriminator: 43n } })
    const forged = a.hex.slice(0, a.hex.length - 128) + b.hex.slice(b.hex.length - 128)
    expect(reason(forged)).toBe("signature_invalid")
    expect(reason(signed({ signers: [user, stranger] }).hex)).toBe("signature_invalid")
    expect(reason(signed({ signers: [] }).hex)).toBe("signature_invalid")
  })

  it("another account: the stranger's account signed by the user, an allocated account, the exchange's own", () => {
    const strangers = atomicSubintentManifest(quote, accountOf(stranger))
    expect(reason(signed({ manifest: strangers }).hex)).toBe("signer_not_account")
    expect(reason(signed({ manifest: atomicSubintentManifest(quote, allocatedAccount) }).hex)).toBe(
      "unsupported_account"
    )
    expect(reason(signed({ manifest: atomicSubintentManifest(quote, exchangeAccount) }).hex)).toBe("exchange_account")
  })

  it("a withdrawal of more, less, or another token; a bucket of another amount", () => {
    expect(
      reason(signed({ manifest: atomicSubintentManifest({ ...quote, amountIn: "100.000001" }, userAccount) }).hex)
    ).toBe("wrong_withdrawal")
    const less = refusal(signed({ manifest: atomicSubintentManifest({ ...quote, amountIn: "99" }, userAccount) }).hex)
    expect(less).toEqual({
      _tag: "AtomicRefusal",
      reason: "wrong_withdrawal",
      message: "The pre-authorisation was refused: it withdraws 99, but the quote is for exactly 100."
    })
    expect(
      reason(signed({ manifest: atomicSubintentManifest({ ...quote, fromResource: resource(6) }, userAccount) }).hex)
    ).toBe("wrong_withdrawal")
    expect(
      reason(
        signed({ manifest: withLine(1, `TAKE_FROM_WORKTOP Address("${HUSDC}") Decimal("50") Bucket("sold");`) }).hex
      )
    ).toBe("wrong_withdrawal")
  })

  it("a weaker or missing assertion: lower, on another token, NonZero, exact-only-of-another, none", () => {
    const at = (c: string) =>
      withLine(3, `ASSERT_WORKTOP_RESOURCES_ONLY Map<Address, Enum>(Address("${HETH}") => ${c});`)
    expect(
      reason(signed({ manifest: atomicSubintentManifest({ ...quote, quotedOut: "0.033" }, userAccount) }).hex)
    ).toBe("wrong_assertion")
    expect(
      reason(signed({ manifest: atomicSubintentManifest({ ...quote, toResource: resource(6) }, userAccount) }).hex)
    ).toBe("wrong_assertion")
    expect(reason(signed({ manifest: at("Enum<ResourceConstraint::NonZeroAmount>()") }).hex)).toBe("wrong_assertion")
    expect(reason(signed({ manifest: at(`Enum<ResourceConstraint::ExactAmount>(Decimal("0.0331"))`) }).hex)).toBe(
      "wrong_assertion"
    )
    expect(
      reason(signed({ manifest: withLine(3, `ASSERT_WORKTOP_CONTAINS Address("${HETH}") Decimal("0.03");`) }).hex)
    ).toBe("wrong_assertion")
    expect(reason(signed({ manifest: withLine(3, `ASSERT_WORKTOP_CONTAINS_ANY Address("${HETH}");`) }).hex)).toBe(
      "wrong_assertion"
    )
    const two = withLine(
      3,
      `ASSERT_WORKTOP_RESOURCES_INCLUDE Map<Address, Enum>(Address("${HETH}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("0.0331")), Address("${HUSDC}") => Enum<ResourceConstraint::NonZeroAmount>());`
    )
    expect(reason(signed({ manifest: two }).hex)).toBe("wrong_assertion")
    const without = atomicSubintentManifest(quote, userAccount)
      .split("\n")
      .filter((_, i) => i !== 3)
      .join("\n")
    expect(reason(signed({ manifest: without }).hex)).toBe("wrong_assertion")
  })

  it("an extra instruction, a reordering, no final yield, a deposit elsewhere or of less than everything", () => {
    const lines = atomicSubintentManifest(quote, userAccount).split("\n")
    const extra = [
      ...lines.slice(0, 5),
      `CALL_METHOD Address("${userAccount}") "withdraw" Address("${HUSDC}") Decimal("1");`,
      ...lines.slice(5)
    ]
    expect(reason(signed({ manifest: extra.join("\n") }).hex)).toBe("wrong_shape")
    expect(
      reason(signed({ manifest: [lines[0], lines[1], lines[3], lines[2], lines[4], lines[5]].join("\n") }).hex)
    ).toBe("wrong_shape")
    expect(reason(signed({ manifest: [...lines.slice(0, 5), lines[4]].join("\n") }).hex)).toBe("wrong_shape")
    expect(
      reason(
        signed({
          manifest: withLine(
            4,
            `CALL_METHOD Address("${accountOf(stranger)}") "deposit_batch" Expression("ENTIRE_WORKTOP");`
          )
        }).hex
      )
    ).toBe("wrong_deposit")
    expect(
      reason(
        signed({
          manifest: withLine(
            4,
            `CALL_METHOD Address("${exchangeAccount}") "try_deposit_batch_or_abort" Expression("ENTIRE_WORKTOP") None;`
          )
        }).hex
      )
    ).toBe("wrong_deposit")
    expect(
      reason(
        signed({ manifest: withLine(4, `CALL_METHOD Address("${userAccount}") "deposit_batch" Array<Bucket>();`) }).hex
      )
    ).toBe("wrong_deposit")
    expect(reason(signed({ manifest: withLine(2, `YIELD_TO_PARENT;`) }).hex)).toBe("wrong_shape")
    expect(reason(signed({ manifest: withLine(5, `YIELD_TO_PARENT Decimal("1");`) }).hex)).toBe("wrong_shape")
  })

  it("children and blobs", () => {
    const child = signed({ manifest: "YIELD_TO_PARENT;", header: { intentDiscriminator: 1n } })
    expect(reason(signed({ children: [child.model] }).hex)).toBe("has_children")
    expect(reason(signed({ blobs: [Uint8Array.of(1)] }).hex)).toBe("has_blobs")
  })

  it("an expired, too short, unbounded, late-starting or over-long window; an epoch range without the current epoch", () => {
    const sec = (ms: number) => BigInt(Math.floor(ms / 1000))
    const expired = refusal(signed({ header: { maxProposerTimestampExclusive: sec(NOW_MS - 1000) } }).hex)
    expect(expired.reason).toBe("window_too_short")
    expect(expired.message).toContain("it has already expired")
    const short = refusal(
      signed({ header: { maxProposerTimestampExclusive: sec(NOW_MS + MIN_TIME_TO_SUBMIT_MS - 1000) } }).hex
    )
    expect(short.reason).toBe("window_too_short")
    expect(short.message).toContain("less than 10 seconds")
    expect(
      accepted(signed({ header: { maxProposerTimestampExclusive: sec(NOW_MS + MIN_TIME_TO_SUBMIT_MS) } }).hex)
        .windowEndMs
    ).toBe(NOW_MS + MIN_TIME_TO_SUBMIT_MS)
    expect(reason(signed({ header: { maxProposerTimestampExclusive: null } }).hex)).toBe("window_unbounded")
    expect(reason(signed({ header: { maxProposerTimestampExclusive: sec(EXPIRES_MS) + 1n } }).hex)).toBe(
      "window_after_quote"
    )
    expect(reason(signed({ header: { minProposerTimestampInclusive: sec(NOW_MS) + 5n } }).hex)).toBe("window_start")
    expect(reason(signed({ header: { startEpochInclusive: EPOCH + 1n } }).hex)).toBe("epoch_window")
    expect(reason(signed({ header: { endEpochExclusive: EPOCH } }).hex)).toBe("epoch_window")
    // The same pre-authorisation checked later, once its window has run out.
    expect(reason(signed().hex, { nowMs: EXPIRES_MS - MIN_TIME_TO_SUBMIT_MS + 1 })).toBe("window_too_short")
  })

  it("terms that do not read", () => {
    expect(reason(signed().hex, { terms: { ...input("").terms, amountIn: "1e3" } })).toBe("bad_terms")
  })
})

describe("a fuzz of 10,000 mutated signed partials", () => {
  it("never throws, and accepts only what is the very same pre-authorisation", async () => {
    const base = signed()
    const original = accepted(base.hex)
    const bytes = base.payload
    // xorshift32, seeded: the run is reproducible.
    let state = 0x9e3779b9
    const rand = (n: number) => {
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      return (state >>> 0) % n
    }
    let accepts = 0
    const reasons = new Map<string, number>()
    for (let i = 0; i < 10_000; i++) {
      // Ten thousand checks are a minute on a busy machine: the worker answers its runner meanwhile.
      if (i % 250 === 0) await new Promise<void>((resolve) => setImmediate(resolve))
      let m: Uint8Array
      const op = rand(5)
      if (op === 0) {
        m = Uint8Array.from(bytes)
        const at = rand(m.length)
        m[at] = (m[at] ?? 0) ^ (1 << rand(8))
      } else if (op === 1) {
        m = Uint8Array.from(bytes)
        for (let k = 0; k < 1 + rand(4); k++) m[rand(m.length)] = rand(256)
      } else if (op === 2) {
        m = bytes.subarray(0, rand(bytes.length))
      } else if (op === 3) {
        const at = rand(bytes.length)
        m = Uint8Array.from([...bytes.subarray(0, at), rand(256), ...bytes.subarray(at)])
      } else {
        const at = rand(bytes.length)
        m = Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1 + rand(3))])
      }
      const r = checkPreAuthorization(input(toHex(m)))
      if (Either.isRight(r)) {
        accepts++
        // Only the very bytes signed pass (a mutation that changed nothing, such as a byte set to its own value).
        expect(toHex(m)).toBe(toHex(bytes))
        expect(r.right.subintentHash).toBe(original.subintentHash)
        expect([r.right.account, r.right.amountIn, r.right.assertedOut, r.right.windowEndMs]).toEqual([
          original.account,
          original.amountIn,
          original.assertedOut,
          original.windowEndMs
        ])
      } else {
        reasons.set(r.left.reason, (reasons.get(r.left.reason) ?? 0) + 1)
        expect(r.left.message.length).toBeGreaterThan(0)
      }
    }
    expect(accepts).toBeLessThan(10)
    expect(reasons.get("payload_malformed") ?? 0).toBeGreaterThan(1000)
    expect(reasons.get("signature_invalid") ?? 0).toBeGreaterThan(100)
  }, 300_000)
})

describe("the manifest text compiles to instructions the check accepts", () => {
  it("for other amounts and tokens, and with decimals at the TO divisibility", () => {
    for (const q of [
      { fromResource: HETH, toResource: HUSDC, amountIn: "0.5", quotedOut: "1499.9" },
      { fromResource: HUSDC, toResource: HETH, amountIn: "12.345678", quotedOut: "0.004098765432109876" }
    ]) {
      const instructions = compile(atomicSubintentManifest(q, userAccount))
      expect(instructions.map((i) => i.kind)).toEqual([
        "CallMethod",
        "TakeFromWorktop",
        "YieldToParent",
        "AssertWorktopResourcesOnly",
        "CallMethod",
        "YieldToParent"
      ])
      const a = accepted(signed({ instructions }).hex, {
        terms: {
          fromResource: q.fromResource,
          toResource: q.toResource,
          amountIn: q.amountIn,
          quotedOut: q.quotedOut,
          expiresMs: EXPIRES_MS
        }
      })
      expect(a.assertedOut).toBe(q.quotedOut)
    }
  })
})
