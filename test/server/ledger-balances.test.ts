import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Effect, Either } from "effect"
import { formatPlain } from "../../src/lib/decimalText"
import { accountBalances, VaultAmountInvalid } from "../../src/server/ledger"
import { fakeHttp, fixture, withGateway } from "../gateway/support"

interface Vault {
  amount: string
}
interface FungibleItem {
  aggregation_level: string
  resource_address: string
  vaults?: { items: Array<Vault> }
}
interface DetailsFixture {
  items: Array<{ address: string; fungible_resources: { items: Array<FungibleItem> } }>
}

/** The real two-account answer, its first account's first vault's amount replaced by `amount` (when given). */
const details = (amount?: string) => {
  const body = fixture("state_entity_details__two_accounts_vault_aggregated.json") as DetailsFixture
  const account = body.items[0]
  const vault = account?.fungible_resources.items[0]?.vaults?.items[0]
  if (account === undefined || vault === undefined) throw new Error("the fixture changed shape")
  if (amount !== undefined) vault.amount = amount
  return { body: { ...body, items: [account] }, account: account.address }
}

describe("the exchange account's balances", () => {
  it.effect("sum each resource's vaults from the Gateway's answer", () =>
    Effect.gen(function* () {
      const { body, account } = details()
      const balances = yield* withGateway(
        fakeHttp(() => Effect.succeed({ body })),
        (gateway) => accountBalances(gateway, account)
      )
      // Every vault resource of the answer, each the sum of its vaults (the fixture's first holds 21000000).
      const vaulted = body.items[0]?.fungible_resources.items.filter((r) => r.aggregation_level === "Vault") ?? []
      expect(balances.size).toBe(new Set(vaulted.map((r) => r.resource_address)).size)
      const first = vaulted[0]
      expect(first?.vaults?.items.map((v) => v.amount)).toEqual(["21000000"])
      expect(formatPlain(balances.get(first?.resource_address ?? "") ?? BigDecimal.fromBigInt(0n))).toBe("21000000")
    })
  )

  for (const bad of ["", "lots", "NaN", "1.2.3", "0x10", "１２", "1,5"]) {
    it.effect(`a vault amount that is not a decimal (${JSON.stringify(bad)}) is a typed error, never a zero`, () =>
      Effect.gen(function* () {
        const { body, account } = details(bad)
        const result = yield* withGateway(
          fakeHttp(() => Effect.succeed({ body })),
          (gateway) => Effect.either(accountBalances(gateway, account))
        )
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) {
          expect(result.left).toBeInstanceOf(VaultAmountInvalid)
          expect(result.left.message).toContain("which is not a decimal")
        }
      })
    )
  }
})
