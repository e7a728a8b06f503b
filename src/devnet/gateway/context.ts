/**
 * What every API group of the gateway emulator shares: the ledger, the network configuration, ledger-state
 * selection (`at_ledger_state`), paging, address checks, metadata, and the Gateway's entity lookup rules
 * (`EntityQuerier.GetEntity<T>`: 404 `EntityNotFoundError`, 400 `InvalidEntityError`).
 */
import { Effect, Option } from "effect"
import { decodeBech32m, encodeBech32m } from "../../exchange/bech32m"
import { addressKind, isAccountAddress } from "../ledger/address"
import { Ledger } from "../ledger/Ledger"
import { loadRet } from "../ledger/transaction"
import {
  MAX_EXPLICIT_METADATA,
  MAX_PAGE_SIZE,
  entityNotFound,
  gatewayFailure,
  invalidEntity,
  invalidField
} from "./failure"
import { type GatewayMetadataItem, metadataItem, virtualOwnerMetadata } from "./metadata"
import { type LedgerStateSelector, OffsetCursor, decodeCursor, encodeCursor } from "./request"

const relocate = (address: string): string => {
  const decoded = decodeBech32m(address)
  if (decoded === undefined) return address
  const prefix = decoded.hrp.replace(/_(sim|loc|rdx|test|tdx_[0-9a-f]{1,2}_)$/, "")
  return encodeBech32m(`${prefix}_loc`, decoded.bytes)
}

/** `/status/network-configuration` for network 240, from the Radix Engine Toolkit's well-known addresses. */
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
      transaction_tracker: relocate("transactiontracker_tdx_2_1stxxxxxxxxxxtxtrakxxxxxxxxx006844685494xxxxxxxxxxzw7jp"),
      transaction_tracker_package: relocate("package_rdx1pkgxxxxxxxxxtxtrakxxxxxxxxx000595975309xxxxxxxxxtxtrak")
    }
  }
})

export type EntityKind = "Component" | "FungibleResource" | "NonFungibleResource" | "Vault"

export const makeEmulatorContext = Effect.gen(function* () {
  const ledger = yield* Ledger
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

  /** What the ledger has at `address` at a state version (accounts and identities are pre-allocated). */
  const entityKindOf = (address: string, version: number) =>
    Effect.gen(function* () {
      const kind = addressKind(address)
      // An account or identity allocated by a transaction (0xc1, 0xc2), not derived from a key, is there only once
      // created; the devnet creates none but what holds a vault, so any other such address is not found.
      if (kind === "GlobalAccount")
        return (yield* ledger.accountVaults(address, version)).length > 0 ? ("Component" as EntityKind) : undefined
      if (kind === "GlobalIdentity") return undefined
      if (isAccountAddress(address) || kind === "GlobalVirtualEd25519Identity") return "Component" as EntityKind
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

  /**
   * What the Gateway's entity table holds at `address` (`GetNonPreAllocatedEntity`, or a direct lookup): a
   * pre-allocated account or identity is there only once something was written to it, on the devnet an account once
   * it holds a vault.
   */
  const storedEntityKind = (address: string, version: number) =>
    Effect.gen(function* () {
      const kind = yield* entityKindOf(address, version)
      if (kind !== "Component") return kind
      const written = isAccountAddress(address) && (yield* ledger.accountVaults(address, version)).length > 0
      return written ? kind : undefined
    })

  /** `GetEntity<GlobalAccountEntity>`: an account, pre-allocated or not; 404 when nothing is there, else 400. */
  const requireAccount = (address: string, version: number) =>
    Effect.gen(function* () {
      yield* requireEntity(address, version, "Component")
      if (!isAccountAddress(address)) return yield* invalidEntity(address)
    })

  return {
    ledger,
    networkConfig,
    atState,
    pageParams,
    paginate,
    validateAddress,
    metadataItems,
    explicitMetadata,
    validateExplicit,
    nonFungibleBadge,
    entityKindOf,
    storedEntityKind,
    requireEntity,
    requireAccount
  } as const
})

export type EmulatorContext = Effect.Effect.Success<typeof makeEmulatorContext>
