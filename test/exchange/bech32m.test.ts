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
