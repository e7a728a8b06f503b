/**
 * State group, account lockers (babylon-gateway v1.10.1 `AccountLockerQuerier`): the devnet's components are accounts
 * and identities and no transaction can instantiate a locker, so no locker exists. After the request is validated as
 * the Gateway validates it, a locker address with nothing behind it is a 404 `EntityNotFoundError` and any other
 * entity the wrong kind (400 `InvalidEntityError`); `touched-at` answers the pairs it finds, none, once every address
 * in it is an entity.
 */
import { Effect, Schema } from "effect"
import type { EmulatorContext } from "../../context"
import {
  MAX_PAGE_SIZE,
  type RouteHandler,
  entityNotFound,
  invalidEntity,
  invalidField,
  invalidRequest
} from "../../failure"
import { Address, LedgerStateSelector, Paging, decodeBody, opt } from "../../request"
import { addressKind } from "../../../ledger/address"

const VaultsPageRequest = Schema.Struct({ ...Paging, locker_address: Address, account_address: Address })
const TouchedAtRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  account_lockers: Schema.Array(Schema.Struct({ locker_address: Address, account_address: Address }))
})

export const accountLockerHandlers = (ctx: EmulatorContext) => {
  const { atState, entityKindOf, pageParams } = ctx

  /** `RadixAddressValidator` on every field at once, as FluentValidation reports them. */
  const validateAddresses = (fields: ReadonlyArray<readonly [path: string, address: string]>) => {
    const errors = fields
      .filter(([, a]) => addressKind(a) === undefined)
      .map(([path, a]) => ({ path, errors: [`Invalid address ${a} for network localnet (240)`] }))
    return errors.length === 0 ? Effect.void : Effect.fail(invalidRequest(errors))
  }

  /** `GetEntity<GlobalAccountLockerEntity>`: nothing there is 404; anything there is not a locker, so 400. */
  const requireLocker = (address: string, version: number) =>
    Effect.gen(function* () {
      if ((yield* entityKindOf(address, version)) === undefined) return yield* entityNotFound(address)
      return yield* invalidEntity(address)
    })

  const accountLockerVaultsPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(VaultsPageRequest, body)
      yield* validateAddresses([
        ["locker_address", request.locker_address],
        ["account_address", request.account_address]
      ])
      yield* pageParams(request, true)
      const { version } = yield* atState(request.at_ledger_state)
      return yield* requireLocker(request.locker_address, version)
    })

  /** `StateAccountLockersTouchedAtRequestValidator`: 1 to 100 pairs of valid addresses. */
  const accountLockersTouchedAt = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(TouchedAtRequest, body)
      if (request.account_lockers.length === 0) {
        return yield* invalidField("account_lockers", "'Account Lockers' must not be empty.")
      }
      if (request.account_lockers.length > MAX_PAGE_SIZE) {
        return yield* invalidField(
          "account_lockers.Count",
          `'Count' must be less than or equal to '${MAX_PAGE_SIZE}'. You entered ${request.account_lockers.length}.`
        )
      }
      yield* validateAddresses(
        request.account_lockers.flatMap((pair, i) => [
          [`account_lockers[${i}].locker_address`, pair.locker_address] as const,
          [`account_lockers[${i}].account_address`, pair.account_address] as const
        ])
      )
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      // `GetEntities` then an address that is not there: 404. Pre-allocated accounts are always there.
      for (const pair of request.account_lockers) {
        for (const address of [pair.locker_address, pair.account_address]) {
          if ((yield* entityKindOf(address, version)) === undefined) return yield* entityNotFound(address)
        }
      }
      return { ledger_state: ledgerState, items: [] }
    })

  return { accountLockerVaultsPage, accountLockersTouchedAt } satisfies Record<string, RouteHandler>
}
