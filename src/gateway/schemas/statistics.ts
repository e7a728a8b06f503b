/** `/statistics/validators/uptime`. */
import { Schema } from "effect"
import { AtLedgerState, LedgerStateSelector, WithLedgerState, opt } from "./common"

export const ValidatorsUptimeRequest = Schema.Struct({
  ...AtLedgerState,
  from_ledger_state: opt(LedgerStateSelector),
  validator_addresses: opt(Schema.Array(Schema.String))
})
export type ValidatorsUptimeRequest = typeof ValidatorsUptimeRequest.Type

export const ValidatorUptimeCollectionItem = Schema.Struct({
  address: Schema.String,
  proposals_made: opt(Schema.Number),
  proposals_missed: opt(Schema.Number),
  epochs_active_in: Schema.Number
})
export type ValidatorUptimeCollectionItem = typeof ValidatorUptimeCollectionItem.Type

export const ValidatorsUptimeResponse = Schema.Struct({
  ...WithLedgerState,
  validators: Schema.Struct({ items: Schema.Array(ValidatorUptimeCollectionItem) })
})
export type ValidatorsUptimeResponse = typeof ValidatorsUptimeResponse.Type
