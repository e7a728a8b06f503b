import { describe, expect, it } from "@effect/vitest"
import { BigDecimal, Effect, Either } from "effect"
import { formatPlain } from "../../src/lib/decimalText"
import { accountBalances, resourceBalance, VaultAmountInvalid } from "../../src/server/ledger"
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

  describe("one resource's balance (what a payout's reservation reads)", () => {
    const account = "account_loc1298a6crhd9ulfl2tm0r5akxfazrys57d056ps0apv20588zv845uye"
    const resource = "resource_loc1t4n9k9x2dh9nvm4gz63k8rnd4u6nxfmzu9hgy6ufnmvjp5kgwlglvn"
    const ledgerState = {
      network: "localnet",
      state_version: 41,
      proposer_round_timestamp: "2026-12-02T10:00:00.000Z",
      epoch: 3,
      round: 9
    }
    const page = (amounts: ReadonlyArray<string>, nextCursor?: string) => ({
      ledger_state: ledgerState,
      total_count: amounts.length,
      ...(nextCursor === undefined ? {} : { next_cursor: nextCursor }),
      items: amounts.map((amount, i) => ({
        vault_address: `internal_vault_loc1${i}`,
        amount,
        last_updated_at_state_version: 7
      })),
      address: account,
      resource_address: resource
    })

    it.effect("sums every page of that resource's vaults, the next pages pinned to the first one's ledger state", () =>
      Effect.gen(function* () {
        const asked: Array<unknown> = []
        const balance = yield* withGateway(
          fakeHttp((request) =>
            Effect.sync(() => {
              const body = request.body as { cursor?: string }
              asked.push({ path: request.path, ...body })
              return {
                body:
                  body.cursor === undefined
                    ? page(["10.5", "0.25"], "page-2")
                    : page(["1000000000000.000000000000000001"])
              }
            })
          ),
          (gateway) => resourceBalance(gateway, account, resource)
        )
        expect(balance === undefined ? undefined : formatPlain(balance)).toBe("1000000000010.750000000000000001")
        expect(asked).toEqual([
          { path: "/state/entity/page/fungible-vaults/", address: account, resource_address: resource },
          {
            path: "/state/entity/page/fungible-vaults/",
            address: account,
            resource_address: resource,
            cursor: "page-2",
            at_ledger_state: { state_version: 41 }
          }
        ])
      })
    )

    it.effect("no vault of the resource: the account holds none (undefined, not an error)", () =>
      Effect.gen(function* () {
        const balance = yield* withGateway(
          fakeHttp(() => Effect.succeed({ body: page([]) })),
          (gateway) => resourceBalance(gateway, account, resource)
        )
        expect(balance).toBeUndefined()
      })
    )

    it.effect("a vault amount that is not a decimal is a typed error naming the resource, never a zero", () =>
      Effect.gen(function* () {
        const result = yield* withGateway(
          fakeHttp(() => Effect.succeed({ body: page(["5", "lots"]) })),
          (gateway) => Effect.either(resourceBalance(gateway, account, resource))
        )
        expect(Either.isLeft(result) && result.left instanceof VaultAmountInvalid && result.left.resource).toBe(
          resource
        )
      })
    )
  })
})
