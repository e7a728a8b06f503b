/**
 * State group, key-value stores (babylon-gateway v1.10.1 `KeyValueStoreQuerier`): the devnet's components are
 * accounts and identities, none of which owns a key-value store the Gateway lets one read, so a store address is
 * never found (404 `EntityNotFoundError`) and any other entity is the wrong kind (400 `InvalidEntityError`), after
 * the request is validated as the Gateway validates it.
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

const KeyValueStoreKeysRequest = Schema.Struct({ ...Paging, key_value_store_address: Address })
const KeyValueStoreDataRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  key_value_store_address: Address,
  keys: Schema.Array(Schema.Struct({ key_hex: opt(Schema.String), key_json: opt(Schema.Unknown) }))
})

export const keyValueStoreHandlers = (ctx: EmulatorContext) => {
  const { atState, pageParams, storedEntityKind, validateAddress } = ctx

  /**
   * `GetNonPreAllocatedEntity<InternalKeyValueStoreEntity>`: a virtual account or identity that was never written is
   * not found; an entity of another kind is invalid; no key-value store exists on the devnet.
   */
  const requireKeyValueStore = (address: string, version: number) =>
    Effect.gen(function* () {
      if ((yield* storedEntityKind(address, version)) === undefined) return yield* entityNotFound(address)
      return yield* invalidEntity(address)
    })

  const keyValueStoreKeys = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(KeyValueStoreKeysRequest, body)
      yield* validateAddress("key_value_store_address", request.key_value_store_address)
      yield* pageParams(request, true)
      const { version } = yield* atState(request.at_ledger_state)
      return yield* requireKeyValueStore(request.key_value_store_address, version)
    })

  /** `StateKeyValueStoreDataRequestValidator` and `...KeyItemValidator`: 1 to 100 keys, each `key_hex` or `key_json`. */
  const keyValueStoreData = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(KeyValueStoreDataRequest, body)
      yield* validateAddress("key_value_store_address", request.key_value_store_address)
      if (request.keys.length === 0) return yield* invalidField("keys", "'Keys' must not be empty.")
      if (request.keys.length > MAX_PAGE_SIZE) {
        return yield* invalidField(
          "keys.Count",
          `'Count' must be less than or equal to '${MAX_PAGE_SIZE}'. You entered ${request.keys.length}.`
        )
      }
      const errors: Array<{ path: string; errors: ReadonlyArray<string> }> = []
      request.keys.forEach((key, i) => {
        if (key.key_hex !== undefined && (!/^[0-9a-fA-F]*$/.test(key.key_hex) || key.key_hex.length % 2 === 1)) {
          errors.push({ path: `keys[${i}].key_hex`, errors: ["'Key Hex' must be HEX-encoded value."] })
        }
        if (key.key_hex === undefined && key.key_json === undefined) {
          errors.push({ path: `keys[${i}]`, errors: ["Either key_hex or key_json must be not empty."] })
        }
      })
      if (errors.length > 0) return yield* invalidRequest(errors)
      const { version } = yield* atState(request.at_ledger_state)
      return yield* requireKeyValueStore(request.key_value_store_address, version)
    })

  return { keyValueStoreKeys, keyValueStoreData } satisfies Record<string, RouteHandler>
}
