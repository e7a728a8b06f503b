import { PublicKey, RadixEngineToolkit } from "@radixdlt/radix-engine-toolkit"
import { describe, expect, it } from "vitest"
import { addressKind, vaultAddress } from "../../src/devnet/ledger/address.js"
import { DEFAULT_DEVNET_SEED, genesisAddresses, keyHex, makeGenesis } from "../../src/devnet/ledger/genesis.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"

describe("devnet genesis", () => {
  const genesis = makeGenesis(DEFAULT_DEVNET_SEED)

  it("re-derives exactly the published DevnetAddresses from the default seed", () => {
    expect(genesisAddresses(genesis)).toEqual(DevnetAddresses)
  })

  it("is deterministic per seed and differs between seeds", () => {
    expect(genesisAddresses(makeGenesis(DEFAULT_DEVNET_SEED))).toEqual(genesisAddresses(genesis))
    const other = genesisAddresses(makeGenesis("another seed"))
    expect(other.exchangeAccount).not.toBe(DevnetAddresses.exchangeAccount)
    expect(other.resources.hUSDC).not.toBe(DevnetAddresses.resources.hUSDC)
    expect(other.resources.XRD).toBe(DevnetAddresses.resources.XRD)
  })

  it("derives account and identity addresses exactly as the Radix Engine Toolkit does", async () => {
    for (const account of genesis.accounts) {
      const pk = new PublicKey.Ed25519(keyHex(account.key).publicKeyHex)
      expect(await RadixEngineToolkit.Derive.virtualAccountAddressFromPublicKey(pk, 240)).toBe(account.address)
    }
    const personaPk = new PublicKey.Ed25519(keyHex(genesis.persona.key).publicKeyHex)
    expect(await RadixEngineToolkit.Derive.virtualIdentityAddressFromPublicKey(personaPk, 240)).toBe(
      genesis.persona.address
    )
  })

  it("uses the well-known localnet XRD and valid fungible resource addresses", async () => {
    const known = await RadixEngineToolkit.Utils.knownAddresses(240)
    expect(DevnetAddresses.resources.XRD).toBe(known.resourceAddresses.xrd)
    for (const address of Object.values(DevnetAddresses.resources)) {
      const decoded = await RadixEngineToolkit.Address.decode(address)
      expect(decoded.networkId).toBe(240)
      expect(await RadixEngineToolkit.Address.entityType(address)).toBe("GlobalFungibleResourceManager")
      expect(addressKind(address)).toBe("GlobalFungibleResourceManager")
    }
    const vault = vaultAddress(DevnetAddresses.exchangeAccount, DevnetAddresses.resources.XRD)
    expect(await RadixEngineToolkit.Address.entityType(vault)).toBe("InternalFungibleVault")
  })

  it("funds the users with XRD and hAssets, and resources carry the issue's divisibilities", () => {
    for (const user of genesis.users) {
      expect(user.balances["XRD"]).toBeDefined()
      expect(user.balances["hUSDC"]).toBeDefined()
    }
    const div = Object.fromEntries(genesis.resources.map((r) => [r.symbol, r.divisibility]))
    expect(div).toMatchObject({ XRD: 18, hUSDC: 6, hUSDT: 6, hETH: 18, hBTC: 8, hWBTC: 8 })
    expect(genesis.dAppDefinition.metadata["name"]).toBeDefined()
  })
})
