/**
 * State group, account settings (babylon-gateway v1.10.1 `AccountStateQuerier`): the resource preferences and the
 * authorized depositors of an account. Devnet accounts keep their defaults (no preference, no depositor: the ledger
 * has no method that sets either), so each page is empty, as the Gateway answers for a pre-allocated account; a
 * non-account is a 400 `InvalidEntityError`, nothing at the address a 404 `EntityNotFoundError`.
 */
import { Effect, Schema } from "effect"
import type { EmulatorContext } from "../../context"
import type { RouteHandler } from "../../failure"
import { Address, Paging, decodeBody } from "../../request"

const AccountPageRequest = Schema.Struct({ ...Paging, account_address: Address })

export const accountHandlers = (ctx: EmulatorContext) => {
  const { atState, pageParams, paginate, requireAccount, validateAddress } = ctx

  const accountPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(AccountPageRequest, body)
      yield* validateAddress("account_address", request.account_address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireAccount(request.account_address, version)
      return { ledger_state: ledgerState, account_address: request.account_address, ...paginate([], offset, limit) }
    })

  return {
    resourcePreferencesPage: accountPage,
    authorizedDepositorsPage: accountPage
  } satisfies Record<string, RouteHandler>
}
