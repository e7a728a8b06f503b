/**
 * The devnet Gateway API emulator: a framework-light request handler over the devnet `Ledger` that answers the
 * Babylon Gateway API v1.10 paths the product uses, with the real JSON shapes, `ledger_state`, errors and limits
 * (20 addresses per request, pages of 100 with opaque cursors). Any other path answers the Gateway's
 * ErrorResponse shape saying it is not supported by the devnet.
 */
import { Cause, Data, Effect, Either, Option, ParseResult, Schema } from "effect"
import { decodeBech32m, encodeBech32m } from "../../exchange/bech32m.js"
import { TransactionDetailsOptIns } from "../../gateway/index.js"
import { addressKind, isAccountAddress, vaultAddress } from "../ledger/address.js"
import { type CommittedTransaction, Ledger, type LedgerState, type StreamQuery } from "../ledger/Ledger.js"
import { parseDecimal } from "../ledger/decimal.js"
import { loadRet, parseManifestText } from "../ledger/transaction.js"
import { type GatewayMetadataItem, metadataItem, virtualOwnerMetadata } from "./metadata.js"
import { statusResponse } from "./status.js"
import {
  PreviewRequest,
  costingParameters,
  emptyStateUpdates,
  feeDestination,
  feeSummary,
  previewMessageError,
  previewNodeError,
  previewReceipt,
  previewRequestErrors,
  previewResourceChanges,
  previewSignerAccounts,
  vaultReference
} from "./preview.js"

// ---------------------------------------------------------------------------------------------------------------
// Request / response envelope

export interface GatewayRequest {
  readonly method: string
  /** Path below the mount point, e.g. `/status/gateway-status`. */
  readonly path: string
  /** The parsed JSON body (undefined when there is none). */
  readonly body: unknown
}

export interface GatewayResponse {
  readonly status: number
  readonly json: unknown
}

export const MAX_ADDRESSES = 20
export const MAX_PAGE_SIZE = 100
export const MAX_STREAM_FILTERS = 10
export const MAX_EXPLICIT_METADATA = 20

/** A failure that answers with the Gateway's ErrorResponse body. */
class GatewayFailure extends Data.TaggedError("GatewayFailure")<{
  readonly status: number
  readonly message: string
  readonly details: Record<string, unknown> | null | undefined
}> {}

const gatewayFailure = (status: number, message: string, details: Record<string, unknown> | null | undefined) =>
  new GatewayFailure({ status, message, details })

const invalidRequest = (errors: ReadonlyArray<{ path: string; errors: ReadonlyArray<string> }>) =>
  gatewayFailure(400, "One or more validation errors occurred", {
    type: "InvalidRequestError",
    validation_errors: errors
  })

const invalidField = (path: string, error: string) => invalidRequest([{ path, errors: [error] }])

/** What the Gateway answers when the node refuses a request (`InvalidRequestException.FromOtherError`). */
const otherError = (error: string) =>
  gatewayFailure(400, "One or more errors occurred", {
    type: "InvalidRequestError",
    validation_errors: [{ path: "?", errors: [error] }]
  })

/** `EntityNotFoundException` (404, message "Entity not found"), babylon-gateway v1.10.1 `Exceptions/`. */
const entityNotFound = (address: string) =>
  gatewayFailure(404, "Entity not found", { type: "EntityNotFoundError", address })

/** `InvalidEntityException` (400, message "Invalid entity"): the address is of another kind of entity. */
const invalidEntity = (address: string) =>
  gatewayFailure(400, "Invalid entity", { type: "InvalidEntityError", address })

const notSupported = (path: string) =>
  gatewayFailure(
    404,
    `${path} is not supported by devnet: the hSwap devnet gateway emulator serves ${SUPPORTED_PATHS.join(", ")}`,
    undefined
  )

// ---------------------------------------------------------------------------------------------------------------
// Request schemas (absent and null both mean "not given"; unknown keys are ignored)

const opt = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { nullable: true })

const LedgerStateSelector = Schema.Struct({
  state_version: opt(Schema.Int),
  timestamp: opt(Schema.String),
  epoch: opt(Schema.Int),
  round: opt(Schema.Int)
})
type LedgerStateSelector = typeof LedgerStateSelector.Type

const Paging = {
  at_ledger_state: opt(LedgerStateSelector),
  cursor: opt(Schema.String),
  limit_per_page: opt(Schema.Int)
}

const Address = Schema.String
const AggregationLevel = Schema.Literal("Global", "Vault")

const EntityDetailsRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  addresses: Schema.Array(Address),
  aggregation_level: opt(AggregationLevel),
  opt_ins: opt(
    Schema.Struct({
      ancestor_identities: opt(Schema.Boolean),
      explicit_metadata: opt(Schema.Array(Schema.String)),
      native_resource_details: opt(Schema.Boolean),
      non_fungible_include_nfids: opt(Schema.Boolean),
      component_royalty_config: opt(Schema.Boolean),
      component_royalty_vault_balance: opt(Schema.Boolean),
      package_royalty_vault_balance: opt(Schema.Boolean),
      dapp_two_way_links: opt(Schema.Boolean)
    })
  )
})

const MetadataPageRequest = Schema.Struct({ ...Paging, address: Address })
const FungiblesPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  aggregation_level: opt(AggregationLevel),
  opt_ins: opt(Schema.Struct({ explicit_metadata: opt(Schema.Array(Schema.String)) }))
})
const FungibleVaultsPageRequest = Schema.Struct({ ...Paging, address: Address, resource_address: Address })
const NonFungiblesPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  aggregation_level: opt(AggregationLevel),
  opt_ins: opt(
    Schema.Struct({
      non_fungible_include_nfids: opt(Schema.Boolean),
      explicit_metadata: opt(Schema.Array(Schema.String))
    })
  )
})
const NonFungibleVaultsPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  resource_address: Address,
  opt_ins: opt(Schema.Struct({ non_fungible_include_nfids: opt(Schema.Boolean) }))
})
const NonFungibleVaultIdsPageRequest = Schema.Struct({
  ...Paging,
  address: Address,
  vault_address: Address,
  resource_address: Address
})
const NonFungibleIdsRequest = Schema.Struct({ ...Paging, resource_address: Address })
const NonFungibleIdListRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  resource_address: Address,
  non_fungible_ids: Schema.Array(Schema.String)
})
const KeyValueStoreKeysRequest = Schema.Struct({ ...Paging, key_value_store_address: Address })
const KeyValueStoreDataRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  key_value_store_address: Address,
  keys: Schema.Array(Schema.Struct({ key_hex: opt(Schema.String), key_json: opt(Schema.Unknown) }))
})


const SubmitRequest = Schema.Struct({ notarized_transaction_hex: Schema.String })
const StatusRequest = Schema.Struct({ intent_hash: Schema.String })
const SubintentStatusRequest = Schema.Struct({ subintent_hash: Schema.String })
const CommittedDetailsRequest = Schema.Struct({
  at_ledger_state: opt(LedgerStateSelector),
  intent_hash: Schema.String,
  opt_ins: opt(TransactionDetailsOptIns)
})

const StreamRequest = Schema.Struct({
  ...Paging,
  from_ledger_state: opt(LedgerStateSelector),
  kind_filter: opt(Schema.Literal("User", "EpochChange", "All")),
  manifest_accounts_withdrawn_from_filter: opt(Schema.Array(Address)),
  manifest_accounts_deposited_into_filter: opt(Schema.Array(Address)),
  manifest_resources_filter: opt(Schema.Array(Address)),
  affected_global_entities_filter: opt(Schema.Array(Address)),
  balance_change_resources_filter: opt(Schema.Array(Address)),
  transaction_status_filter: opt(Schema.Literal("Success", "Failure", "All")),
  order: opt(Schema.Literal("Asc", "Desc")),
  opt_ins: opt(TransactionDetailsOptIns),
  // Filters the devnet cannot evaluate: accepted by the schema, refused with a clear message when non-empty.
  manifest_badges_presented_filter: opt(Schema.Array(Schema.Unknown)),
  events_filter: opt(Schema.Array(Schema.Unknown)),
  accounts_with_manifest_owner_method_calls: opt(Schema.Array(Schema.Unknown)),
  accounts_without_manifest_owner_method_calls: opt(Schema.Array(Schema.Unknown)),
  manifest_class_filter: opt(Schema.Unknown),
  event_global_emitters_filter: opt(Schema.Array(Schema.Unknown))
})

const decodeBody = <A, I>(schema: Schema.Schema<A, I>, body: unknown): Effect.Effect<A, GatewayFailure> =>
  Schema.decodeUnknown(schema, { errors: "all" })(body ?? {}).pipe(
    Effect.mapError((e) =>
      invalidRequest(
        ParseResult.ArrayFormatter.formatErrorSync(e).map((issue) => ({
          path: issue.path.length === 0 ? "$" : issue.path.map(String).join("."),
          errors: [issue.message]
        }))
      )
    )
  )

// ---------------------------------------------------------------------------------------------------------------
// Cursors: opaque base64 JSON, as the real Gateway's `{"o":100}`

const OffsetCursor = Schema.parseJson(Schema.Struct({ o: Schema.NonNegativeInt }))
const StreamCursor = Schema.parseJson(Schema.Struct({ v: Schema.NonNegativeInt }))

const encodeCursor = (value: object): string => Buffer.from(JSON.stringify(value), "utf8").toString("base64")

const decodeCursor = <A>(schema: Schema.Schema<A, string>, cursor: string): Effect.Effect<A, GatewayFailure> =>
  Schema.decodeUnknown(schema)(Buffer.from(cursor, "base64").toString("utf8")).pipe(
    Effect.mapError(() => invalidField("cursor", "Invalid cursor"))
  )

// ---------------------------------------------------------------------------------------------------------------

export const SUPPORTED_PATHS = [
  "/status/gateway-status",
  "/status/network-configuration",
  "/transaction/construction",
  "/transaction/preview",
  "/transaction/submit",
  "/transaction/status",
  "/transaction/committed-details",
  "/transaction/subintent-status",
  "/stream/transactions",
  "/state/entity/details",
  "/state/entity/page/metadata",
  "/state/entity/page/fungibles/",
  "/state/entity/page/fungible-vaults/",
  "/state/entity/page/non-fungibles/",
  "/state/entity/page/non-fungible-vaults/",
  "/state/entity/page/non-fungible-vault/ids",
  "/state/non-fungible/ids",
  "/state/non-fungible/data",
  "/state/non-fungible/location",
  "/state/key-value-store/keys",
  "/state/key-value-store/data"
] as const

/** Release info reported by `/status/gateway-status`. */
export const DEVNET_RELEASE_INFO = {
  release_version: "1.10.1",
  open_api_schema_version: "v1.10.1",
  image_tag: "hswap-devnet"
} as const

const relocate = (address: string): string => {
  const decoded = decodeBech32m(address)
  if (decoded === undefined) return address
  const prefix = decoded.hrp.replace(/_(sim|loc|rdx|test|tdx_[0-9a-f]{1,2}_)$/, "")
  return encodeBech32m(`${prefix}_loc`, decoded.bytes)
}

export interface GatewayEmulator {
  readonly handle: (request: GatewayRequest) => Effect.Effect<GatewayResponse>
}

export const makeGatewayEmulator: Effect.Effect<GatewayEmulator, never, Ledger> = Effect.gen(function* () {
  const ledger = yield* Ledger
  let traceCounter = 0

  const networkConfiguration = Effect.gen(function* () {
    const { RadixEngineToolkit } = yield* loadRet
    const known = yield* Effect.promise(() => RadixEngineToolkit.Utils.knownAddresses(240))
    const r = known.resourceAddresses
    const p = known.packageAddresses
    const c = known.componentAddresses
    return {
      network_id: 240,
      network_name: "localnet",
      well_known_addresses: {
        xrd: r.xrd,
        secp256k1_signature_virtual_badge: r.secp256k1SignatureVirtualBadge,
        ed25519_signature_virtual_badge: r.ed25519SignatureVirtualBadge,
        package_of_direct_caller_virtual_badge: r.packageOfDirectCallerVirtualBadge,
        global_caller_virtual_badge: r.globalCallerVirtualBadge,
        system_transaction_badge: r.systemTransactionBadge,
        package_owner_badge: r.packageOwnerBadge,
        validator_owner_badge: r.validatorOwnerBadge,
        account_owner_badge: r.accountOwnerBadge,
        identity_owner_badge: r.identityOwnerBadge,
        package_package: p.packagePackage,
        resource_package: p.resourcePackage,
        account_package: p.accountPackage,
        identity_package: p.identityPackage,
        consensus_manager_package: p.consensusManagerPackage,
        access_controller_package: p.accessControllerPackage,
        transaction_processor_package: p.transactionProcessorPackage,
        metadata_module_package: p.metadataModulePackage,
        royalty_module_package: p.royaltyModulePackage,
        access_rules_package: p.roleAssignmentModulePackage,
        role_assignment_module_package: p.roleAssignmentModulePackage,
        genesis_helper_package: p.genesisHelperPackage,
        faucet_package: p.faucetPackage,
        consensus_manager: c.consensusManager,
        genesis_helper: c.genesisHelper,
        faucet: c.faucet,
        pool_package: p.poolPackage,
        locker_package: relocate("package_sim1pkgxxxxxxxxxlckerxxxxxxxxxx000208064247xxxxxxxxxpnfcn6"),
        transaction_tracker: relocate(
          "transactiontracker_tdx_2_1stxxxxxxxxxxtxtrakxxxxxxxxx006844685494xxxxxxxxxxzw7jp"
        ),
        transaction_tracker_package: relocate("package_rdx1pkgxxxxxxxxxtxtrakxxxxxxxxx000595975309xxxxxxxxxtxtrak")
      }
    }
  })
  const networkConfig = yield* networkConfiguration

  // --- ledger state selection ---

  /** Resolves `at_ledger_state` to a state version and the `ledger_state` to answer with. */
  const atState = (selector: LedgerStateSelector | undefined) =>
    Effect.gen(function* () {
      const current = yield* ledger.state
      if (selector === undefined) return { version: current.state_version, ledgerState: current }
      const given = [selector.state_version, selector.timestamp, selector.epoch].filter((x) => x !== undefined).length
      if (given !== 1) {
        return yield* invalidField(
          "at_ledger_state",
          "Exactly one of state_version, timestamp, epoch (optionally with round) must be provided"
        )
      }
      if (selector.round !== undefined && selector.epoch === undefined) {
        return yield* invalidField("at_ledger_state.round", "round requires epoch")
      }
      let version: number
      if (selector.state_version !== undefined) {
        if (selector.state_version <= 0)
          return yield* invalidField("at_ledger_state.state_version", "must be greater than 0")
        version = selector.state_version
      } else {
        if (selector.timestamp !== undefined) {
          if (Number.isNaN(Date.parse(selector.timestamp))) {
            return yield* invalidField("at_ledger_state.timestamp", "not a valid date-time")
          }
          if (Date.parse(selector.timestamp) > Date.parse(current.proposer_round_timestamp)) {
            return yield* invalidField("at_ledger_state.timestamp", "must not be in the future")
          }
        }
        const resolved = yield* ledger.stateVersionAt(selector)
        if (Option.isNone(resolved)) {
          return yield* gatewayFailure(400, "The requested ledger state is before the genesis of the devnet", {
            type: "InvalidRequestError",
            validation_errors: [{ path: "at_ledger_state", errors: ["No ledger state at or before the selector"] }]
          })
        }
        version = resolved.value
      }
      if (version > current.state_version) {
        return yield* gatewayFailure(
          400,
          `The requested state version ${version} is beyond the ledger tip ${current.state_version}`,
          {
            type: "InvalidRequestError",
            validation_errors: [{ path: "at_ledger_state.state_version", errors: ["State version not yet committed"] }]
          }
        )
      }
      if (version === current.state_version) return { version, ledgerState: current }
      const ledgerState = yield* ledger.ledgerStateAt(version)
      return { version, ledgerState: Option.getOrElse(ledgerState, () => current) }
    })

  const pageParams = (
    request: {
      readonly cursor?: string | undefined
      readonly limit_per_page?: number | undefined
      readonly at_ledger_state?: LedgerStateSelector | undefined
    },
    requiresStateVersionWithCursor: boolean
  ) =>
    Effect.gen(function* () {
      if (
        requiresStateVersionWithCursor &&
        request.cursor !== undefined &&
        request.at_ledger_state?.state_version === undefined
      ) {
        return yield* invalidField("at_ledger_state", "AtLedgerState.StateVersion is required if cursor is provided")
      }
      if (request.limit_per_page !== undefined && request.limit_per_page <= 0) {
        return yield* invalidField("limit_per_page", "must be greater than 0")
      }
      const limit = Math.min(request.limit_per_page ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE)
      const offset = request.cursor === undefined ? 0 : (yield* decodeCursor(OffsetCursor, request.cursor)).o
      return { limit, offset }
    })

  const paginate = <A>(all: ReadonlyArray<A>, offset: number, limit: number) => {
    const items = all.slice(offset, offset + limit)
    const next = offset + limit < all.length ? encodeCursor({ o: offset + limit }) : undefined
    return { total_count: all.length, ...(next === undefined ? {} : { next_cursor: next }), items }
  }

  const validateAddress = (path: string, address: string) =>
    addressKind(address) === undefined
      ? Effect.fail(invalidField(path, `Invalid address ${address} for network localnet (240)`))
      : Effect.void

  // --- metadata ---

  const metadataItems = (address: string, version: number) =>
    Effect.gen(function* () {
      const stored = yield* ledger.metadata(address, version)
      const items: Array<GatewayMetadataItem> = [...stored.map(metadataItem), ...virtualOwnerMetadata(address, 1)]
      return items.sort((a, b) => a.key.localeCompare(b.key))
    })

  const explicitMetadata = (address: string, version: number, keys: ReadonlyArray<string>) =>
    Effect.map(metadataItems(address, version), (items) => {
      const chosen = items.filter((i) => keys.includes(i.key))
      return { total_count: chosen.length, items: chosen }
    })

  const validateExplicit = (keys: ReadonlyArray<string> | undefined) =>
    keys !== undefined && keys.length > MAX_EXPLICIT_METADATA
      ? Effect.fail(invalidField("opt_ins.explicit_metadata", `At most ${MAX_EXPLICIT_METADATA} keys are allowed`))
      : keys?.some((k) => k.length > 100)
        ? Effect.fail(invalidField("opt_ins.explicit_metadata", "Keys are at most 100 characters long"))
        : Effect.void

  // --- fungible collections ---

  const fungibleItems = (
    account: string,
    version: number,
    aggregation: "Global" | "Vault",
    explicitKeys: ReadonlyArray<string> | undefined
  ) =>
    Effect.gen(function* () {
      const vaults = yield* ledger.accountVaults(account, version)
      return yield* Effect.forEach(vaults, (v) =>
        Effect.gen(function* () {
          const explicit =
            explicitKeys === undefined || explicitKeys.length === 0
              ? {}
              : { explicit_metadata: yield* explicitMetadata(v.resource, version, explicitKeys) }
          return aggregation === "Global"
            ? {
                aggregation_level: "Global" as const,
                resource_address: v.resource,
                ...explicit,
                amount: v.amount,
                last_updated_at_state_version: v.lastUpdatedAtStateVersion
              }
            : {
                aggregation_level: "Vault" as const,
                resource_address: v.resource,
                ...explicit,
                vaults: {
                  total_count: 1,
                  items: [
                    {
                      vault_address: v.vaultAddress,
                      amount: v.amount,
                      last_updated_at_state_version: v.lastUpdatedAtStateVersion
                    }
                  ]
                }
              }
        })
      )
    })

  const accountRoleAssignments = (address: string) => {
    const decoded = decodeBech32m(address)
    const localIdHex = decoded === undefined ? "" : Buffer.from(decoded.bytes).toString("hex")
    return {
      owner: {
        rule: {
          type: "Protected",
          access_rule: {
            type: "ProofRule",
            proof_rule: {
              type: "Require",
              requirement: {
                type: "NonFungible",
                non_fungible: {
                  local_id: { id_type: "Bytes", sbor_hex: `5cc0021e${localIdHex}`, simple_rep: `[${localIdHex}]` },
                  resource_address: networkConfig.well_known_addresses.ed25519_signature_virtual_badge
                }
              }
            }
          }
        },
        updater: "Object"
      },
      entries: []
    }
  }

  // --- entities ---

  const wk = networkConfig.well_known_addresses
  /**
   * The well-known non-fungible badges every network has from genesis, with their id types; none is ever minted
   * on the devnet (signatures and callers are virtual badges; no account or package is securified).
   */
  const NON_FUNGIBLE_BADGES = new Map<string, "Bytes" | "Integer">([
    [wk.secp256k1_signature_virtual_badge, "Bytes"],
    [wk.ed25519_signature_virtual_badge, "Bytes"],
    [wk.package_of_direct_caller_virtual_badge, "Bytes"],
    [wk.global_caller_virtual_badge, "Bytes"],
    [wk.system_transaction_badge, "Integer"],
    [wk.package_owner_badge, "Bytes"],
    [wk.validator_owner_badge, "Bytes"],
    [wk.account_owner_badge, "Bytes"],
    [wk.identity_owner_badge, "Bytes"]
  ])
  const nonFungibleBadge = (address: string) => NON_FUNGIBLE_BADGES.get(address)

  type EntityKind = "Component" | "FungibleResource" | "NonFungibleResource" | "Vault"
  /** What the ledger has at `address` at a state version (accounts and identities are pre-allocated). */
  const entityKindOf = (address: string, version: number) =>
    Effect.gen(function* () {
      const kind = addressKind(address)
      if (isAccountAddress(address) || kind === "GlobalVirtualEd25519Identity" || kind === "GlobalIdentity") {
        return "Component" as EntityKind
      }
      if (nonFungibleBadge(address) !== undefined) return "NonFungibleResource" as EntityKind
      if (kind === "GlobalFungibleResourceManager") {
        const resource = yield* ledger.resource(address)
        return Option.isSome(resource) && resource.value.createdAtStateVersion <= version
          ? ("FungibleResource" as EntityKind)
          : undefined
      }
      if (kind === "InternalFungibleVault") {
        return Option.isSome(yield* ledger.vaultOwner(address)) ? ("Vault" as EntityKind) : undefined
      }
      return undefined
    })

  /**
   * `EntityQuerier.GetEntity<T>`: 404 `EntityNotFoundError` when nothing is at the address (pre-allocated accounts
   * and identities always exist), 400 `InvalidEntityError` when it is another kind of entity.
   */
  const requireEntity = (address: string, version: number, expected: EntityKind) =>
    Effect.gen(function* () {
      const kind = yield* entityKindOf(address, version)
      if (kind === undefined) return yield* entityNotFound(address)
      if (kind !== expected) return yield* invalidEntity(address)
    })

  // --- handlers ---

  const entityDetails = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(EntityDetailsRequest, body)
      if (request.addresses.length === 0) return yield* invalidField("addresses", "At least 1 address is required")
      if (request.addresses.length > MAX_ADDRESSES) {
        return yield* invalidField("addresses", `The number of addresses must be at most ${MAX_ADDRESSES}`)
      }
      for (const [i, a] of request.addresses.entries()) yield* validateAddress(`addresses[${i}]`, a)
      const optIns = request.opt_ins
      yield* validateExplicit(optIns?.explicit_metadata)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      const aggregation = request.aggregation_level ?? "Global"
      const explicitKeys = optIns?.explicit_metadata
      const items = yield* Effect.forEach([...new Set(request.addresses)], (address) =>
        Effect.gen(function* () {
          const kind = addressKind(address)
          const metadataAll = yield* metadataItems(address, version)
          const metadata = paginate(metadataAll, 0, MAX_PAGE_SIZE)
          const explicit =
            explicitKeys === undefined || explicitKeys.length === 0
              ? {}
              : { explicit_metadata: yield* explicitMetadata(address, version, explicitKeys) }
          const emptyNonFungibles = { total_count: 0, items: [] }
          if (isAccountAddress(address) || kind === "GlobalVirtualEd25519Identity" || kind === "GlobalIdentity") {
            const isAccount = isAccountAddress(address)
            const fungibles = isAccount
              ? paginate(yield* fungibleItems(address, version, aggregation, explicitKeys), 0, MAX_PAGE_SIZE)
              : { total_count: 0, items: [] }
            return {
              address,
              fungible_resources: fungibles,
              non_fungible_resources: emptyNonFungibles,
              metadata,
              ...explicit,
              details: {
                type: "Component",
                package_address: isAccount
                  ? networkConfig.well_known_addresses.account_package
                  : networkConfig.well_known_addresses.identity_package,
                blueprint_name: isAccount ? "Account" : "Identity",
                blueprint_version: "1.0.0",
                ...(isAccount ? { state: { default_deposit_rule: "Accept" } } : {}),
                role_assignments: accountRoleAssignments(address)
              }
            }
          }
          if (kind === "GlobalFungibleResourceManager") {
            const resource = yield* ledger.resource(address)
            if (Option.isNone(resource) || resource.value.createdAtStateVersion > version) return undefined
            const r = resource.value
            return {
              address,
              fungible_resources: { total_count: 0, items: [] },
              non_fungible_resources: emptyNonFungibles,
              metadata,
              ...explicit,
              details: {
                type: "FungibleResource",
                role_assignments: { owner: { rule: { type: "DenyAll" }, updater: "None" }, entries: [] },
                divisibility: r.divisibility,
                total_supply: r.totalSupply,
                total_minted: r.totalSupply,
                total_burned: "0",
                ...(optIns?.native_resource_details === true && address === ledger.xrd
                  ? { native_resource_details: { kind: "Xrd" } }
                  : {})
              }
            }
          }
          if (kind === "InternalFungibleVault") {
            const owner = yield* ledger.vaultOwner(address)
            if (Option.isNone(owner)) return undefined
            const vaults = yield* ledger.accountVaults(owner.value.account, version)
            const vault = vaults.find((v) => v.resource === owner.value.resource)
            if (vault === undefined) return undefined
            return {
              address,
              metadata,
              ...explicit,
              ...(optIns?.ancestor_identities === true
                ? {
                    ancestor_identities: {
                      parent_address: vault.account,
                      owner_address: vault.account,
                      global_address: vault.account
                    }
                  }
                : {}),
              details: {
                type: "FungibleVault",
                resource_address: vault.resource,
                balance: {
                  vault_address: vault.vaultAddress,
                  amount: vault.amount,
                  last_updated_at_state_version: vault.lastUpdatedAtStateVersion
                }
              }
            }
          }
          const badge = nonFungibleBadge(address)
          if (badge !== undefined) {
            return {
              address,
              fungible_resources: { total_count: 0, items: [] },
              non_fungible_resources: emptyNonFungibles,
              metadata,
              ...explicit,
              details: {
                type: "NonFungibleResource",
                role_assignments: { owner: { rule: { type: "DenyAll" }, updater: "None" }, entries: [] },
                non_fungible_id_type: badge,
                total_supply: "0",
                total_minted: "0",
                total_burned: "0",
                non_fungible_data_mutable_fields: []
              }
            }
          }
          // Not on the ledger: omitted, as `EntityQuerier.GetEntities` leaves out what it cannot find.
          return undefined
        })
      )
      return { ledger_state: ledgerState, items: items.filter((item) => item !== undefined) }
    })

  const metadataPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(MetadataPageRequest, body)
      yield* validateAddress("address", request.address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      if ((yield* entityKindOf(request.address, version)) === undefined) return yield* entityNotFound(request.address)
      const all = yield* metadataItems(request.address, version)
      return { ledger_state: ledgerState, ...paginate(all, offset, limit), address: request.address }
    })

  const fungiblesPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(FungiblesPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateExplicit(request.opt_ins?.explicit_metadata)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      const all = isAccountAddress(request.address)
        ? yield* fungibleItems(
            request.address,
            version,
            request.aggregation_level ?? "Global",
            request.opt_ins?.explicit_metadata
          )
        : []
      return { ledger_state: ledgerState, ...paginate(all, offset, limit), address: request.address }
    })

  const fungibleVaultsPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(FungibleVaultsPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateAddress("resource_address", request.resource_address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      yield* requireEntity(request.resource_address, version, "FungibleResource")
      const vaults = isAccountAddress(request.address) ? yield* ledger.accountVaults(request.address, version) : []
      const all = vaults
        .filter((v) => v.resource === request.resource_address)
        .map((v) => ({
          vault_address: v.vaultAddress,
          amount: v.amount,
          last_updated_at_state_version: v.lastUpdatedAtStateVersion
        }))
      return {
        ledger_state: ledgerState,
        ...paginate(all, offset, limit),
        address: request.address,
        resource_address: request.resource_address
      }
    })

  // --- non-fungibles and key-value stores (babylon-gateway v1.10.1 `EntityStateQuerier`, `NonFungibleQuerier`,
  // `KeyValueStoreQuerier`): the devnet holds no non-fungible vault and no key-value store, so every collection is
  // empty, and the errors are the Gateway's for an unknown or mistyped entity. ---

  /** `EntityNonFungibleResourcesPage`: a component's non-fungible resources (none on the devnet). */
  const nonFungiblesPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungiblesPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateExplicit(request.opt_ins?.explicit_metadata)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      return { ledger_state: ledgerState, ...paginate([], offset, limit), address: request.address }
    })

  /** `EntityNonFungibleResourceVaults`: the component must be one, the resource a non-fungible resource. */
  const nonFungibleVaultsPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleVaultsPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateAddress("resource_address", request.resource_address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      return {
        ledger_state: ledgerState,
        ...paginate([], offset, limit),
        address: request.address,
        resource_address: request.resource_address
      }
    })

  /** `EntityNonFungibleIds`: component, non-fungible resource, then the vault, each looked up in that order. */
  const nonFungibleVaultIdsPage = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleVaultIdsPageRequest, body)
      yield* validateAddress("address", request.address)
      yield* validateAddress("resource_address", request.resource_address)
      yield* validateAddress("vault_address", request.vault_address)
      yield* pageParams(request, true)
      const { version } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.address, version, "Component")
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      // No non-fungible vault exists on the devnet, so a vault address is never one.
      return yield* requireEntity(request.vault_address, version, "Vault").pipe(
        Effect.zipRight(entityNotFound(request.vault_address))
      )
    })

  const nonFungibleIds = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleIdsRequest, body)
      yield* validateAddress("resource_address", request.resource_address)
      const { limit, offset } = yield* pageParams(request, true)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      return {
        ledger_state: ledgerState,
        resource_address: request.resource_address,
        non_fungible_ids: paginate([], offset, limit)
      }
    })

  /** `StateNonFungibleDataRequestValidator` / `...LocationRequestValidator`: 1 to 100 ids, none empty. */
  const nonFungibleIdList = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(NonFungibleIdListRequest, body)
      yield* validateAddress("resource_address", request.resource_address)
      if (request.non_fungible_ids.length === 0) {
        return yield* invalidField("non_fungible_ids", "'Non Fungible Ids' must not be empty.")
      }
      if (request.non_fungible_ids.length > MAX_PAGE_SIZE) {
        return yield* invalidField(
          "non_fungible_ids.Count",
          `'Count' must be less than or equal to '${MAX_PAGE_SIZE}'. You entered ${request.non_fungible_ids.length}.`
        )
      }
      const empty = request.non_fungible_ids.findIndex((id) => id.length === 0)
      if (empty >= 0) {
        return yield* invalidField(`non_fungible_ids[${empty}]`, "'Non Fungible Ids' must not be empty.")
      }
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      yield* requireEntity(request.resource_address, version, "NonFungibleResource")
      return { request, ledgerState }
    })

  /** Ids that were never minted are left out (`NonFungibleResourceQueries.NonFungibleIdData` selects minted ids). */
  const nonFungibleData = (body: unknown) =>
    Effect.map(nonFungibleIdList(body), ({ ledgerState, request }) => ({
      ledger_state: ledgerState,
      resource_address: request.resource_address,
      non_fungible_id_type: nonFungibleBadge(request.resource_address) ?? "Bytes",
      non_fungible_ids: []
    }))

  const nonFungibleLocation = (body: unknown) =>
    Effect.map(nonFungibleIdList(body), ({ ledgerState, request }) => ({
      ledger_state: ledgerState,
      resource_address: request.resource_address,
      non_fungible_ids: []
    }))

  /**
   * `GetNonPreAllocatedEntity<InternalKeyValueStoreEntity>`: a virtual account or identity that was never written is
   * not found; an entity of another kind is invalid; no key-value store exists on the devnet.
   */
  const requireKeyValueStore = (address: string, version: number) =>
    Effect.gen(function* () {
      const kind = yield* entityKindOf(address, version)
      const persisted =
        kind === "Component" ? isAccountAddress(address) && (yield* ledger.accountVaults(address, version)).length > 0 : true
      if (kind === undefined || !persisted) return yield* entityNotFound(address)
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

  const feeAtto = (tx: CommittedTransaction): bigint => {
    const fee = parseDecimal(tx.feePaid)
    if (fee === undefined) throw new Error(`The ledger recorded an unreadable fee ${tx.feePaid} at ${tx.stateVersion}`)
    return fee
  }

  /**
   * `CommittedTransactionInfo` by babylon-gateway v1.10.1 `TransactionQuerier.MapSingleTransaction`: the receipt
   * carries `status` and `error_message` always, `next_epoch` when the transaction ended an epoch, `output` unless
   * `receipt_output: false` (it defaults to true), and `fee_summary`, `fee_source`, `fee_destination`,
   * `costing_parameters`, `state_updates`, `events`, `detailed_events` only when opted in; `affected_global_entities`,
   * `raw_hex`, `manifest_instructions` and `balance_changes` are opt-ins too; `payload_hash`, `intent_hash`,
   * `message` and `manifest_classes` belong to user transactions only.
   *
   * The devnet keeps no substates or SBOR events: `state_updates` has empty lists and `events`/`detailed_events`
   * are empty lists. A user transaction's `output` has one entry per instruction (unit, or the bucket it returned).
   */
  const transactionInfo = (tx: CommittedTransaction, optIns: TransactionDetailsOptIns | undefined) => {
    const fee = feeAtto(tx)
    const receipt = {
      status: tx.status,
      ...(optIns?.receipt_output !== false && tx.kind === "User"
        ? { output: tx.outputs.map((hex) => ({ hex, programmatic_json: null })) }
        : {}),
      ...(optIns?.receipt_fee_summary === true ? { fee_summary: feeSummary(fee) } : {}),
      ...(optIns?.receipt_fee_source === true
        ? {
            fee_source: {
              from_vaults: tx.feeBalanceChanges.map((c) => ({
                vault_entity: vaultReference(c.entity, c.resource),
                xrd_amount: c.change.startsWith("-") ? c.change.slice(1) : c.change
              }))
            }
          }
        : {}),
      ...(optIns?.receipt_fee_destination === true ? { fee_destination: feeDestination(fee) } : {}),
      ...(optIns?.receipt_costing_parameters === true ? { costing_parameters: costingParameters(0) } : {}),
      ...(tx.nextEpoch === undefined
        ? {}
        : { next_epoch: { epoch: tx.nextEpoch, validators: [], significant_protocol_update_readiness: [] } }),
      ...(optIns?.receipt_state_changes === true ? { state_updates: emptyStateUpdates } : {}),
      ...(optIns?.receipt_events === true ? { events: [] } : {}),
      ...(optIns?.detailed_events === true ? { detailed_events: [] } : {}),
      ...(tx.errorMessage === undefined ? {} : { error_message: tx.errorMessage })
    }
    return {
      state_version: tx.stateVersion,
      epoch: tx.epoch,
      round: tx.round,
      round_timestamp: tx.roundTimestamp,
      transaction_status: tx.status,
      ...(tx.payloadHash === undefined ? {} : { payload_hash: tx.payloadHash }),
      ...(tx.intentHash === undefined ? {} : { intent_hash: tx.intentHash }),
      fee_paid: tx.feePaid,
      ...(optIns?.affected_global_entities === true ? { affected_global_entities: tx.affectedGlobalEntities } : {}),
      confirmed_at: tx.roundTimestamp,
      ...(tx.errorMessage === undefined ? {} : { error_message: tx.errorMessage }),
      ...(optIns?.raw_hex === true && tx.rawHex !== undefined ? { raw_hex: tx.rawHex } : {}),
      receipt,
      ...(optIns?.manifest_instructions === true && tx.manifest !== undefined
        ? { manifest_instructions: tx.manifest }
        : {}),
      ...(tx.kind === "User" ? { manifest_classes: tx.manifestClasses } : {}),
      ...(tx.message !== undefined ? { message: tx.message } : {}),
      ...(optIns?.balance_changes === true
        ? {
            balance_changes: {
              fungible_fee_balance_changes: tx.feeBalanceChanges.map((c) => ({
                type: "FeePayment",
                entity_address: c.entity,
                resource_address: c.resource,
                balance_change: c.change
              })),
              fungible_balance_changes: tx.balanceChanges.map((c) => ({
                entity_address: c.entity,
                resource_address: c.resource,
                balance_change: c.change
              })),
              non_fungible_balance_changes: []
            }
          }
        : {})
    }
  }

  /**
   * `/transaction/status`: babylon-gateway v1.10.1 `PendingTransactionResponseAggregator` over what the ledger knows
   * of the intent (its commit, and every payload of it submitted through this Gateway). A payload refused at submit
   * (bad hex, static validation, the epoch check) was never tracked, so its intent reads `Unknown`.
   */
  const transactionStatus = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(StatusRequest, body)
      const info = yield* ledger.intentStatus(request.intent_hash)
      const ledgerState = yield* ledger.state
      return statusResponse(ledgerState, info)
    })

  const committedDetails = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(CommittedDetailsRequest, body)
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      const tx = yield* ledger.committedTransaction(request.intent_hash)
      if (Option.isNone(tx) || tx.value.stateVersion > version) {
        // `TransactionNotFoundException`: message "Transaction not found", details carry the intent hash.
        return yield* gatewayFailure(404, "Transaction not found", {
          type: "TransactionNotFoundError",
          intent_hash: request.intent_hash
        })
      }
      return { ledger_state: ledgerState, transaction: transactionInfo(tx.value, request.opt_ins) }
    })

  /**
   * `/transaction/submit` (babylon-gateway v1.10.1 `TransactionSubmitRequestValidator`, `SubmissionService`):
   * - `notarized_transaction_hex` must be non-empty hex (`NotEmpty().Hex()`), else 400 `InvalidRequestError` with
   *   `validation_errors`;
   * - a payload that does not decode, is statically invalid or whose epoch window the Gateway refuses answers 400
   *   `InvalidTransactionError` and is not tracked;
   * - duplicates are keyed on the payload hash (`SubmissionTrackingService.TrackSubmission`);
   * - a node rejection that is temporary (fee lock above the balance, a fee lock without the owner's signature, a
   *   start epoch one ahead) answers 200 `duplicate: false`: only a payload whose `PayloadLedgerStatus` is
   *   `PermanentlyRejected` throws `InvalidTransactionException.FromPermanentlyRejectedTransactionError` (400).
   */
  const submit = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(SubmitRequest, body)
      const hex = request.notarized_transaction_hex
      if (hex.length === 0) {
        return yield* invalidField("notarized_transaction_hex", "'Notarized Transaction Hex' must not be empty.")
      }
      if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2 === 1) {
        return yield* invalidField("notarized_transaction_hex", "'Notarized Transaction Hex' must be HEX-encoded value.")
      }
      const result = yield* Effect.either(ledger.submit(hex))
      if (Either.isRight(result)) return { duplicate: result.right.duplicate }
      const rejected = result.left
      if (rejected.permanence === "Temporary") return { duplicate: false }
      return yield* gatewayFailure(400, rejected.reason, { type: "InvalidTransactionError" })
    })

  /**
   * `/transaction/preview`: validated as the real Gateway does (see `preview.ts`), then the manifest runs as a dry
   * run on the current ledger state (`Ledger.preview`): nothing is committed, no state version, balance or
   * rejection is recorded.
   *
   * The devnet fee model: the ledger charges 0.1 XRD + 0.02 XRD per manifest instruction, and a wallet adds a
   * `lock_fee` to a manifest that has none. With `use_free_credit` the free credit stands in for that `lock_fee`:
   * a manifest without a fee lock is charged as if it had one more instruction, so the 3-instruction swap deposit
   * previews at 0.18 XRD, exactly what the wallet's 4-instruction transaction will cost. Without free credit the
   * manifest runs as it is (no fee lock means a Rejected receipt, as on the network). The devnet charges no tip and
   * nothing for a message, so neither changes the fee. The whole fee is execution cost (see `feeSummary`).
   *
   * The devnet has no engine to SBOR-encode a receipt: the deprecated `encoded_receipt` is empty and
   * `radix_engine_toolkit_receipt` is never included, even when opted in. `logs` is always empty.
   */
  const transactionPreview = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(PreviewRequest, body)
      const errors = previewRequestErrors(request)
      if (errors.length > 0) return yield* invalidRequest(errors)
      const messageError = previewMessageError(request)
      if (messageError !== undefined) return yield* otherError(messageError)
      const instructions = yield* parseManifestText(request.manifest).pipe(
        Effect.mapError((invalid) => otherError(invalid.message))
      )
      const nodeError = previewNodeError(request)
      if (nodeError !== undefined) return yield* otherError(nodeError)
      const flags = request.flags ?? {}
      const { outcome } = yield* ledger.preview({
        instructions,
        signerAccounts: previewSignerAccounts(request),
        assumeAllSignatureProofs: flags.assume_all_signature_proofs === true || flags.disable_auth_checks === true,
        useFreeCredit: flags.use_free_credit === true,
        epochWindow:
          flags.skip_epoch_check === true
            ? undefined
            : {
                startEpochInclusive: request.start_epoch_inclusive ?? 0,
                endEpochExclusive: request.end_epoch_exclusive ?? 0
              }
      })
      return {
        encoded_receipt: "",
        receipt: previewReceipt(outcome, ledger.xrd, request.tip_percentage ?? 0),
        resource_changes: previewResourceChanges(outcome),
        logs: []
      }
    })

  const subintentStatus = (body: unknown) =>
    Effect.gen(function* () {
      yield* decodeBody(SubintentStatusRequest, body)
      return {
        ledger_state: yield* ledger.state,
        subintent_status: "Unknown",
        subintent_status_description:
          "The subintent is not known to have been committed (the devnet ledger runs V1 transactions only)."
      }
    })

  const streamTransactions = (body: unknown) =>
    Effect.gen(function* () {
      const request = yield* decodeBody(StreamRequest, body)
      const unsupported = (
        [
          ["manifest_badges_presented_filter", request.manifest_badges_presented_filter],
          ["events_filter", request.events_filter],
          ["accounts_with_manifest_owner_method_calls", request.accounts_with_manifest_owner_method_calls],
          ["accounts_without_manifest_owner_method_calls", request.accounts_without_manifest_owner_method_calls],
          ["event_global_emitters_filter", request.event_global_emitters_filter]
        ] as const
      ).filter(([, v]) => v !== undefined && v.length > 0)
      if (unsupported.length > 0 || request.manifest_class_filter !== undefined) {
        const names = [
          ...unsupported.map(([n]) => n),
          ...(request.manifest_class_filter === undefined ? [] : ["manifest_class_filter"])
        ]
        return yield* invalidField(names[0] ?? "$", `${names.join(", ")} is not supported by devnet`)
      }
      const withdrawn = request.manifest_accounts_withdrawn_from_filter ?? []
      const deposited = request.manifest_accounts_deposited_into_filter ?? []
      const affected = request.affected_global_entities_filter ?? []
      const resources = [
        ...(request.manifest_resources_filter ?? []),
        ...(request.balance_change_resources_filter ?? [])
      ]
      const filterCount = withdrawn.length + deposited.length + affected.length + resources.length
      if (filterCount > MAX_STREAM_FILTERS) {
        return yield* invalidField("$", `The total number of filter items must be at most ${MAX_STREAM_FILTERS}`)
      }
      if (request.limit_per_page !== undefined && request.limit_per_page <= 0) {
        return yield* invalidField("limit_per_page", "must be greater than 0")
      }
      const { version, ledgerState } = yield* atState(request.at_ledger_state)
      let fromStateVersion: number | undefined
      if (request.from_ledger_state !== undefined) {
        const from = yield* atState(request.from_ledger_state)
        fromStateVersion = from.version
      }
      const after = request.cursor === undefined ? undefined : (yield* decodeCursor(StreamCursor, request.cursor)).v
      const query: StreamQuery = {
        atStateVersion: version,
        ...(fromStateVersion === undefined ? {} : { fromStateVersion }),
        ...(after === undefined ? {} : { after }),
        order: request.order ?? "Desc",
        kind: request.kind_filter ?? "User",
        status: request.transaction_status_filter ?? "All",
        withdrawnFrom: withdrawn,
        depositedInto: deposited,
        affected,
        resources,
        limit: Math.min(request.limit_per_page ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE)
      }
      const page = yield* ledger.transactions(query)
      return {
        ledger_state: ledgerState,
        ...(page.next === undefined ? {} : { next_cursor: encodeCursor({ v: page.next }) }),
        items: page.items.map((tx) => transactionInfo(tx, request.opt_ins))
      }
    })

  const routes: Record<(typeof SUPPORTED_PATHS)[number], (body: unknown) => Effect.Effect<unknown, GatewayFailure>> = {
    "/status/gateway-status": () =>
      Effect.map(ledger.state, (ledger_state: LedgerState) => ({ ledger_state, release_info: DEVNET_RELEASE_INFO })),
    "/status/network-configuration": () => Effect.succeed(networkConfig),
    "/transaction/construction": () => Effect.map(ledger.state, (ledger_state) => ({ ledger_state })),
    "/transaction/preview": transactionPreview,
    "/transaction/submit": submit,
    "/transaction/status": transactionStatus,
    "/transaction/committed-details": committedDetails,
    "/transaction/subintent-status": subintentStatus,
    "/stream/transactions": streamTransactions,
    "/state/entity/details": entityDetails,
    "/state/entity/page/metadata": metadataPage,
    "/state/entity/page/fungibles/": fungiblesPage,
    "/state/entity/page/fungible-vaults/": fungibleVaultsPage,
    "/state/entity/page/non-fungibles/": nonFungiblesPage,
    "/state/entity/page/non-fungible-vaults/": nonFungibleVaultsPage,
    "/state/entity/page/non-fungible-vault/ids": nonFungibleVaultIdsPage,
    "/state/non-fungible/ids": nonFungibleIds,
    "/state/non-fungible/data": nonFungibleData,
    "/state/non-fungible/location": nonFungibleLocation,
    "/state/key-value-store/keys": keyValueStoreKeys,
    "/state/key-value-store/data": keyValueStoreData
  }

  const findRoute = (path: string) => {
    const normalized = path.endsWith("/") ? path.slice(0, -1) : path
    const key = SUPPORTED_PATHS.find((p) => p === path || p.replace(/\/$/, "") === normalized)
    return key === undefined ? undefined : routes[key]
  }

  const errorResponse = (failure: GatewayFailure): GatewayResponse => ({
    status: failure.status,
    json: {
      message: failure.message,
      code: failure.status,
      ...(failure.details === undefined ? {} : { details: failure.details }),
      trace_id: `00-devnet${(++traceCounter).toString(16).padStart(23, "0")}-0000000000000000-00`
    }
  })

  const handle = (request: GatewayRequest): Effect.Effect<GatewayResponse> => {
    const route = findRoute(request.path)
    if (route === undefined) return Effect.succeed(errorResponse(notSupported(request.path)))
    if (request.method.toUpperCase() !== "POST") {
      return Effect.succeed(
        errorResponse(gatewayFailure(405, `Method ${request.method} not allowed: use POST`, undefined))
      )
    }
    return route(request.body).pipe(
      Effect.map((json): GatewayResponse => ({ status: 200, json })),
      Effect.catchAll((failure) => Effect.succeed(errorResponse(failure))),
      // A bug in the emulator answers as the Gateway's unexpected-exception 500, and is logged, not lost.
      Effect.catchAllDefect((defect) =>
        Effect.logError(`Gateway emulator: ${request.path} failed`, Cause.die(defect)).pipe(
          Effect.as(
            errorResponse(
              gatewayFailure(500, "An unexpected error occurred handling the request.", {
                type: "InternalServerError",
                exception: "UnknownException",
                cause: "N/A"
              })
            )
          )
        )
      ),
      Effect.withSpan("GatewayEmulator.handle", { attributes: { path: request.path } })
    )
  }

  return { handle } satisfies GatewayEmulator
})

/** Addresses of vaults are derived, so callers can compute them for assertions. */
export { vaultAddress }
