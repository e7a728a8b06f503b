/**
 * `npm run server` on the devnet defaults to the genesis exchange account and its key without importing the devnet:
 * the constants it carries are the ones the devnet derives from its default seed.
 */
import { describe, expect, it } from "vitest"
import { keyHex, makeGenesis } from "../../src/devnet/ledger/genesis"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { DEVNET_EXCHANGE_PRIVATE_KEY_HEX, optionsFromEnv } from "../../src/server/main"

describe("npm run server: the devnet genesis exchange", () => {
  it("carries the key and account the devnet derives from its default seed", async () => {
    const genesis = makeGenesis()
    expect(DEVNET_EXCHANGE_PRIVATE_KEY_HEX).toBe(keyHex(genesis.exchange.key).privateKeyHex)
    expect(DevnetAddresses.exchangeAccount).toBe(genesis.exchange.address)
    const options = await optionsFromEnv({})
    expect(options.server.privateKeyHex).toBe(keyHex(genesis.exchange.key).privateKeyHex)
    expect(options.server.exchangeAccount).toBe(genesis.exchange.address)
  })

  it("has no devnet default off network 240", async () => {
    await expect(optionsFromEnv({ HSWAP_NETWORK_ID: "1", HSWAP_EXCHANGE_ACCOUNT: "account_rdx1x" })).rejects.toThrow(
      "HSWAP_EXCHANGE_PRIVATE_KEY must be the exchange account's Ed25519 private key"
    )
  })
})
