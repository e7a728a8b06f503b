import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { decodeBech32m, encodeBech32m, hrpSuffix, isAddressOf } from "../../src/exchange/bech32m"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"

describe("bech32m", () => {
  it("round-trips any 30-byte payload", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 30, maxLength: 30 }), (bytes) => {
        const text = encodeBech32m("account_loc", bytes)
        const back = decodeBech32m(text)
        return back !== undefined && back.hrp === "account_loc" && Buffer.from(back.bytes).equals(Buffer.from(bytes))
      })
    )
  })

  it("accepts real addresses and refuses a changed character, the wrong network or the wrong entity", () => {
    const mainnet = "account_rdx12xsvygvltz4uhsht6tdrfxktzpmnl77r0d40j8agmujgdj022sudkk"
    expect(isAddressOf("account", 1, mainnet)).toBe(true)
    expect(isAddressOf("account", 2, mainnet)).toBe(false)
    expect(isAddressOf("resource", 1, mainnet)).toBe(false)
    expect(isAddressOf("account", 1, mainnet.slice(0, -1) + (mainnet.endsWith("k") ? "q" : "k"))).toBe(false)
    expect(isAddressOf("account", 240, DevnetAddresses.exchangeAccount)).toBe(true)
    expect(isAddressOf("resource", 240, DevnetAddresses.resources.hETH)).toBe(true)
    expect(isAddressOf("account", 240, "account_loc1xyz")).toBe(false)
  })

  it("takes BIP-350's valid bech32m strings and refuses its invalid ones and bech32 (not m) checksums", () => {
    // From BIP-350's test vectors: those whose data part converts to whole bytes.
    for (const text of ["a1lqfn3a", "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx", "?1v759aa"]) {
      expect(decodeBech32m(text)?.hrp, text).toBe(text.slice(0, text.lastIndexOf("1")))
    }
    expect(
      Buffer.from(decodeBech32m("abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx")?.bytes ?? []).toString("hex")
    ).toBe("ffbbcdeb38bdab49ca307b9ac5a928398a418820")
    for (const text of [
      "\x201xj0phk",
      "\x7f1g6xzxy",
      "\x801vctc34",
      "qyrz8wqd2c9m",
      "1qyrz8wqd2c9m",
      "y1b0jsk6g",
      "lt1igcx5c0",
      "in1muywd",
      "mm1crxm3i",
      "au1s5cgom",
      "M1VUXWEZ",
      "16plkw9",
      "1p2gdwpf",
      // Valid bech32 (BIP-173), which is not bech32m.
      "a12uel5l",
      "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw"
    ]) {
      expect(decodeBech32m(text), JSON.stringify(text)).toBeUndefined()
    }
  })

  it("refuses every changed, dropped or added character of an address, and upper case", () => {
    const text = encodeBech32m(
      "account_loc",
      new Uint8Array(30).map((_, i) => (i * 37 + 11) & 0xff)
    )
    fc.assert(
      fc.property(
        fc.nat({ max: text.length - 1 }),
        fc.constantFrom(..."qpzry9x8gf2tvdw0s3jn54khce6mua7lQPZ_-1bio"),
        fc.constantFrom("replace", "drop", "insert"),
        (at, c, how) => {
          const changed =
            how === "replace"
              ? text.slice(0, at) + c + text.slice(at + 1)
              : how === "drop"
                ? text.slice(0, at) + text.slice(at + 1)
                : text.slice(0, at) + c + text.slice(at)
          return changed === text || decodeBech32m(changed) === undefined
        }
      )
    )
    expect(decodeBech32m(text.toUpperCase())).toBeUndefined()
  })

  it("names the networks' HRP suffixes", () => {
    expect([1, 2, 12, 34, 240, 241, 242].map(hrpSuffix)).toEqual([
      "rdx",
      "tdx_2_",
      "tdx_c_",
      "tdx_22_",
      "loc",
      "test",
      "sim"
    ])
  })
})
