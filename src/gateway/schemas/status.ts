/** `/status/*` responses (both requests have no body). */
import { Schema } from "effect"
import { WithLedgerState, opt } from "./common"

export const GatewayStatusResponse = Schema.Struct({
  ...WithLedgerState,
  release_info: Schema.Struct({
    release_version: Schema.String,
    open_api_schema_version: Schema.String,
    image_tag: Schema.String
  })
})
export type GatewayStatusResponse = typeof GatewayStatusResponse.Type

const requiredWellKnown = [
  "xrd",
  "secp256k1_signature_virtual_badge",
  "ed25519_signature_virtual_badge",
  "package_of_direct_caller_virtual_badge",
  "global_caller_virtual_badge",
  "system_transaction_badge",
  "package_owner_badge",
  "validator_owner_badge",
  "account_owner_badge",
  "identity_owner_badge",
  "package_package",
  "resource_package",
  "account_package",
  "identity_package",
  "consensus_manager_package",
  "access_controller_package",
  "transaction_processor_package",
  "metadata_module_package",
  "royalty_module_package",
  "access_rules_package",
  "role_assignment_module_package",
  "genesis_helper_package",
  "faucet_package",
  "consensus_manager",
  "genesis_helper",
  "faucet",
  "pool_package",
  "locker_package",
  "transaction_tracker"
] as const

export const NetworkConfigurationWellKnownAddresses = Schema.Struct({
  ...(Object.fromEntries(requiredWellKnown.map((k) => [k, Schema.String])) as {
    readonly [K in (typeof requiredWellKnown)[number]]: typeof Schema.String
  }),
  transaction_tracker_package: opt(Schema.String),
  test_utils_package: opt(Schema.String)
})
export type NetworkConfigurationWellKnownAddresses = typeof NetworkConfigurationWellKnownAddresses.Type

export const NetworkConfigurationResponse = Schema.Struct({
  network_id: Schema.Number,
  network_name: Schema.String,
  well_known_addresses: NetworkConfigurationWellKnownAddresses
})
export type NetworkConfigurationResponse = typeof NetworkConfigurationResponse.Type
