/** The Gateway service: every path, grouped like the API, plus the high-level helpers. */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Effect, Option } from "effect"
import type { GatewayConfig, ResolvedGatewayConfig } from "./config.js"
import { resolveGatewayConfig } from "./config.js"
import { Endpoints } from "./endpoints.js"
import type { GatewayError, UnknownNetworkError } from "./errors.js"
import { GatewayDecodeError } from "./errors.js"
import type { GatewayCall } from "./http.js"
import { makeGatewayCall, withoutHttpSpans } from "./http.js"
import { fetchTransport, httpClientTransport } from "./transport.js"
import { chunk, chunkedAtOneLedgerState, exhaustPages, pinTo, remainingPages, updateWhere } from "./paging.js"
import type { EntityMetadataItem, LedgerStateSelector } from "./schemas/common.js"
import type * as State from "./schemas/state.js"
import type * as Statistics from "./schemas/statistics.js"
import type * as Stream from "./schemas/stream.js"
import type * as Tx from "./schemas/transaction.js"
import type * as Ext from "./schemas/extensions.js"

/** Options of {@link GatewayService.state.getEntityDetailsVaultAggregated} (the SDK's `StateEntityDetailsOptions`). */
export interface EntityDetailsVaultAggregatedOptions {
  readonly explicitMetadata?: ReadonlyArray<string>
  readonly ancestorIdentities?: boolean
  /** Default true: non-fungible vaults list their ids (and every id page is read). */
  readonly nonFungibleIncludeNfids?: boolean
  readonly packageRoyaltyVaultBalance?: boolean
  readonly componentRoyaltyVaultBalance?: boolean
  readonly dappTwoWayLinks?: boolean
  readonly nativeResourceDetails?: boolean
}

/** A fungible resource collection of vault-aggregated items, every page read. */
export interface FungibleResourcesVaultCollection {
  readonly total_count?: number | undefined
  readonly items: ReadonlyArray<State.FungibleResourcesCollectionItemVaultAggregated>
}
/** A non-fungible resource collection of vault-aggregated items, every page read. */
export interface NonFungibleResourcesVaultCollection {
  readonly total_count?: number | undefined
  readonly items: ReadonlyArray<State.NonFungibleResourcesCollectionItemVaultAggregated>
}

/**
 * An entity with every resource, vault, id and metadata page read. Absent resource collections (internal entities)
 * become empty ones; items are vault-aggregated (anything else from the server is a {@link GatewayDecodeError}).
 */
export type StateEntityDetailsVaultResponseItem = Omit<
  State.StateEntityDetailsResponseItem,
  "fungible_resources" | "non_fungible_resources"
> & {
  readonly fungible_resources: FungibleResourcesVaultCollection
  readonly non_fungible_resources: NonFungibleResourcesVaultCollection
}

/** Committed-details opt-ins sent unless overridden: all of them on, except `detailed_events`. */
export const defaultCommittedDetailsOptIns = {
  raw_hex: true,
  receipt_events: true,
  receipt_fee_source: true,
  receipt_fee_destination: true,
  receipt_costing_parameters: true,
  receipt_fee_summary: true,
  receipt_state_changes: true,
  affected_global_entities: true,
  balance_changes: true,
  receipt_output: true,
  manifest_instructions: true
} as const satisfies Tx.TransactionDetailsOptIns

/** The fallback of {@link GatewayService.dAppName}. */
export const UnnamedDapp = "Unnamed dApp"

const selector = (at: Date | number | undefined): LedgerStateSelector | undefined =>
  at === undefined ? undefined : at instanceof Date ? { timestamp: at.toISOString() } : { state_version: at }

const makeService = (config: ResolvedGatewayConfig, call: GatewayCall, callBuilt: GatewayCall) => {
  const E = Endpoints
  // How much work the helpers keep pending at once; the client's adaptive limiter decides what is in flight.
  const concurrency = config.maxConcurrency

  // --- per-path methods -------------------------------------------------------------------------------------------

  const status = {
    gatewayStatus: Effect.fn("Gateway.status.gatewayStatus")(function* () {
      return yield* call(E.status.gatewayStatus, undefined)
    }),
    networkConfiguration: Effect.fn("Gateway.status.networkConfiguration")(function* () {
      return yield* call(E.status.networkConfiguration, undefined)
    })
  }

  const transaction = {
    construction: Effect.fn("Gateway.transaction.construction")(function* () {
      return yield* call(E.transaction.construction, undefined)
    }),
    preview: Effect.fn("Gateway.transaction.preview")(function* (request: Tx.TransactionPreviewRequest) {
      return yield* call(E.transaction.preview, request)
    }),
    previewV2: Effect.fn("Gateway.transaction.previewV2")(function* (request: Tx.TransactionPreviewV2Request) {
      return yield* call(E.transaction.previewV2, request)
    }),
    /** Never retried: resubmitting the same payload later is safe and answers `duplicate: true`. */
    submit: Effect.fn("Gateway.transaction.submit")(function* (notarizedTransactionHex: string) {
      return yield* call(E.transaction.submit, { notarized_transaction_hex: notarizedTransactionHex })
    }),
    status: Effect.fn("Gateway.transaction.status")(function* (intentHash: string) {
      return yield* call(E.transaction.status, { intent_hash: intentHash })
    }),
    subintentStatus: Effect.fn("Gateway.transaction.subintentStatus")(function* (subintentHash: string) {
      return yield* call(E.transaction.subintentStatus, { subintent_hash: subintentHash })
    }),
    /** Opt-ins default to {@link defaultCommittedDetailsOptIns}; pass `{ raw_hex: false }` etc. to turn one off. */
    committedDetails: Effect.fn("Gateway.transaction.committedDetails")(function* (
      intentHash: string,
      optIns?: Tx.TransactionDetailsOptIns,
      atLedgerState?: LedgerStateSelector
    ) {
      return yield* call(E.transaction.committedDetails, {
        intent_hash: intentHash,
        opt_ins: { ...defaultCommittedDetailsOptIns, ...optIns },
        ...(atLedgerState === undefined ? {} : { at_ledger_state: atLedgerState })
      })
    }),
    accountDepositPreValidation: Effect.fn("Gateway.transaction.accountDepositPreValidation")(function* (
      request: Tx.TransactionAccountDepositPreValidationRequest
    ) {
      return yield* call(E.transaction.accountDepositPreValidation, request)
    })
  }

  const streamTransactions = Effect.fn("Gateway.stream.transactions")(function* (
    request: Stream.StreamTransactionsRequest
  ) {
    return yield* call(E.stream.transactions, request)
  })

  const stream = {
    transactions: streamTransactions,
    /** One page of committed transactions, optionally filtered to those affecting `affectedEntities`. */
    getTransactionsList: Effect.fn("Gateway.stream.getTransactionsList")(function* (
      affectedEntities?: ReadonlyArray<string>,
      cursor?: string
    ) {
      return yield* streamTransactions({
        ...(cursor === undefined ? {} : { cursor }),
        ...(affectedEntities === undefined ? {} : { affected_global_entities_filter: affectedEntities })
      })
    })
  }

  const entityDetails = Effect.fn("Gateway.state.entityDetails")(function* (request: State.StateEntityDetailsRequest) {
    const withDefaults =
      request === null || request === undefined
        ? request
        : { ...request, opt_ins: { non_fungible_include_nfids: true, ...request.opt_ins } }
    return yield* call(E.state.entityDetails, withDefaults)
  })
  const entityMetadataPage = Effect.fn("Gateway.state.entityMetadataPage")(function* (
    request: State.StateEntityMetadataPageRequest
  ) {
    return yield* call(E.state.entityMetadataPage, request)
  })
  const entityFungiblesPage = Effect.fn("Gateway.state.entityFungiblesPage")(function* (
    request: State.StateEntityFungiblesPageRequest
  ) {
    return yield* call(E.state.entityFungiblesPage, request)
  })
  const entityFungibleVaultsPage = Effect.fn("Gateway.state.entityFungibleVaultsPage")(function* (
    request: State.StateEntityFungibleResourceVaultsPageRequest
  ) {
    return yield* call(E.state.entityFungibleVaultsPage, request)
  })
  const entityNonFungiblesPage = Effect.fn("Gateway.state.entityNonFungiblesPage")(function* (
    request: State.StateEntityNonFungiblesPageRequest
  ) {
    return yield* call(E.state.entityNonFungiblesPage, request)
  })
  const entityNonFungibleVaultsPage = Effect.fn("Gateway.state.entityNonFungibleVaultsPage")(function* (
    request: State.StateEntityNonFungibleResourceVaultsPageRequest
  ) {
    return yield* call(E.state.entityNonFungibleVaultsPage, request)
  })
  const entityNonFungibleVaultIdsPage = Effect.fn("Gateway.state.entityNonFungibleVaultIdsPage")(function* (
    request: State.StateEntityNonFungibleIdsPageRequest
  ) {
    return yield* call(E.state.entityNonFungibleVaultIdsPage, request)
  })
  const nonFungibleIds = Effect.fn("Gateway.state.nonFungibleIds")(function* (
    request: State.StateNonFungibleIdsRequest
  ) {
    return yield* call(E.state.nonFungibleIds, request)
  })
  const nonFungibleData = Effect.fn("Gateway.state.nonFungibleData")(function* (
    request: State.StateNonFungibleDataRequest
  ) {
    return yield* call(E.state.nonFungibleData, request)
  })
  const nonFungibleLocation = Effect.fn("Gateway.state.nonFungibleLocation")(function* (
    request: State.StateNonFungibleLocationRequest
  ) {
    return yield* call(E.state.nonFungibleLocation, request)
  })
  const validatorsList = Effect.fn("Gateway.state.validatorsList")(function* (
    request: State.StateValidatorsListRequest
  ) {
    return yield* call(E.state.validatorsList, request)
  })

  // --- helpers ----------------------------------------------------------------------------------------------------

  const at = (selector: LedgerStateSelector | undefined) =>
    selector === undefined ? {} : { at_ledger_state: selector }
  const from = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor })

  /** We asked for `aggregation_level: "Vault"`; a server answering otherwise broke the contract. */
  const requireVault = <Item extends { readonly aggregation_level: string }, V extends Item>(
    address: string,
    collection: "fungible_resources" | "non_fungible_resources",
    items: ReadonlyArray<Item>,
    isVault: (item: Item) => item is V
  ): Effect.Effect<ReadonlyArray<V>, GatewayDecodeError> => {
    const bad = items.findIndex((item) => !isVault(item))
    return bad < 0
      ? Effect.succeed(items as ReadonlyArray<V>)
      : Effect.fail(
          new GatewayDecodeError({
            path: E.state.entityDetails.path,
            issues: [
              {
                path: `${address}.${collection}.items.${bad}.aggregation_level`,
                message: `expected "Vault", got ${JSON.stringify(items[bad]?.aggregation_level)}`
              }
            ]
          })
        )
  }

  const allMetadata = (
    address: string,
    first: State.StateEntityDetailsResponseItem["metadata"],
    pin: LedgerStateSelector
  ) =>
    Effect.map(
      remainingPages(first.next_cursor, (cursor) =>
        callBuilt(E.state.entityMetadataPage, { address, cursor, at_ledger_state: pin })
      ),
      (rest) => ({
        ...(first.total_count === undefined ? {} : { total_count: first.total_count }),
        items: [...first.items, ...rest]
      })
    )

  const allFungibles = (
    address: string,
    first: State.FungibleResourcesCollection | undefined,
    pin: LedgerStateSelector,
    explicitMetadata: ReadonlyArray<string>
  ): Effect.Effect<FungibleResourcesVaultCollection, GatewayError> =>
    Effect.gen(function* () {
      if (first === undefined) return { total_count: 0, items: [] }
      const rest = yield* remainingPages(first.next_cursor, (cursor) =>
        callBuilt(E.state.entityFungiblesPage, {
          address,
          cursor,
          aggregation_level: "Vault",
          at_ledger_state: pin,
          opt_ins: { explicit_metadata: explicitMetadata }
        })
      )
      const resources = yield* requireVault(
        address,
        "fungible_resources",
        [...first.items, ...rest],
        (r): r is State.FungibleResourcesCollectionItemVaultAggregated => r.aggregation_level === "Vault"
      )
      const items = yield* updateWhere(
        resources,
        (resource) => resource.vaults.next_cursor !== undefined,
        (resource) =>
          Effect.map(
            remainingPages(resource.vaults.next_cursor, (cursor) =>
              callBuilt(E.state.entityFungibleVaultsPage, {
                address,
                resource_address: resource.resource_address,
                cursor,
                at_ledger_state: pin
              })
            ),
            (vaults) => ({
              ...resource,
              vaults: {
                ...(resource.vaults.total_count === undefined ? {} : { total_count: resource.vaults.total_count }),
                items: [...resource.vaults.items, ...vaults]
              }
            })
          ),
        concurrency
      )
      return { ...(first.total_count === undefined ? {} : { total_count: first.total_count }), items }
    })

  const allNonFungibleVaultIds = (
    address: string,
    resourceAddress: string,
    vault: State.NonFungibleResourcesCollectionItemVaultAggregatedVaultItem,
    pin: LedgerStateSelector
  ) => {
    const { next_cursor, ...rest } = vault
    if (next_cursor === undefined || vault.items === undefined) return Effect.succeed(vault)
    return Effect.map(
      remainingPages(next_cursor, (cursor) =>
        callBuilt(E.state.entityNonFungibleVaultIdsPage, {
          address,
          vault_address: vault.vault_address,
          resource_address: resourceAddress,
          cursor,
          at_ledger_state: pin
        })
      ),
      (ids) => ({ ...rest, items: [...(vault.items ?? []), ...ids] })
    )
  }

  const allNonFungibles = (
    address: string,
    first: State.NonFungibleResourcesCollection | undefined,
    pin: LedgerStateSelector,
    explicitMetadata: ReadonlyArray<string>,
    includeNfids: boolean
  ): Effect.Effect<NonFungibleResourcesVaultCollection, GatewayError> =>
    Effect.gen(function* () {
      if (first === undefined) return { total_count: 0, items: [] }
      const rest = yield* remainingPages(first.next_cursor, (cursor) =>
        callBuilt(E.state.entityNonFungiblesPage, {
          address,
          cursor,
          aggregation_level: "Vault",
          at_ledger_state: pin,
          opt_ins: { explicit_metadata: explicitMetadata, non_fungible_include_nfids: includeNfids }
        })
      )
      const resources = yield* requireVault(
        address,
        "non_fungible_resources",
        [...first.items, ...rest],
        (r): r is State.NonFungibleResourcesCollectionItemVaultAggregated => r.aggregation_level === "Vault"
      )
      const idsToRead = (vault: State.NonFungibleResourcesCollectionItemVaultAggregatedVaultItem) =>
        vault.next_cursor !== undefined && vault.items !== undefined
      const items = yield* updateWhere(
        resources,
        (resource) => resource.vaults.next_cursor !== undefined || resource.vaults.items.some(idsToRead),
        (resource) =>
          Effect.gen(function* () {
            const more = yield* remainingPages(resource.vaults.next_cursor, (cursor) =>
              callBuilt(E.state.entityNonFungibleVaultsPage, {
                address,
                resource_address: resource.resource_address,
                cursor,
                at_ledger_state: pin,
                opt_ins: { non_fungible_include_nfids: includeNfids }
              })
            )
            const vaults = yield* updateWhere(
              [...resource.vaults.items, ...more],
              idsToRead,
              (vault) => allNonFungibleVaultIds(address, resource.resource_address, vault, pin),
              concurrency
            )
            return {
              ...resource,
              vaults: {
                ...(resource.vaults.total_count === undefined ? {} : { total_count: resource.vaults.total_count }),
                items: vaults
              }
            }
          }),
        concurrency
      )
      return { ...(first.total_count === undefined ? {} : { total_count: first.total_count }), items }
    })

  const hasCursor = (cursor: string | undefined) => cursor !== undefined && cursor !== ""
  /** Whether reading the rest of an entity's fungibles will send a request (more resource or vault pages). */
  const fungiblesPage = (first: State.FungibleResourcesCollection | undefined) =>
    first !== undefined &&
    (hasCursor(first.next_cursor) ||
      first.items.some((r) => r.aggregation_level === "Vault" && r.vaults.next_cursor !== undefined))
  /** Whether reading the rest of an entity's non-fungibles will send a request (resource, vault or id pages). */
  const nonFungiblesPage = (first: State.NonFungibleResourcesCollection | undefined) =>
    first !== undefined &&
    (hasCursor(first.next_cursor) ||
      first.items.some(
        (r) =>
          r.aggregation_level === "Vault" &&
          (r.vaults.next_cursor !== undefined ||
            r.vaults.items.some((v) => v.next_cursor !== undefined && v.items !== undefined))
      ))

  /**
   * Runs three independent reads and returns their results in order. When two or more of them send requests they run
   * concurrently; otherwise a fiber each would buy nothing, so they run in this fiber, the ones that send no request
   * first (a failure among them wins, as it would when racing the one that waits on the network).
   */
  const allThree = <A, B, C, E>(
    a: Effect.Effect<A, E>,
    b: Effect.Effect<B, E>,
    c: Effect.Effect<C, E>,
    sends: readonly [boolean, boolean, boolean]
  ): Effect.Effect<readonly [A, B, C], E> => {
    const [sa, sb, sc] = sends
    if (Number(sa) + Number(sb) + Number(sc) > 1) return Effect.all([a, b, c], { concurrency: "unbounded" })
    if (sa) return Effect.map(Effect.all([b, c, a]), ([rb, rc, ra]) => [ra, rb, rc] as const)
    if (sb) return Effect.map(Effect.all([a, c, b]), ([ra, rc, rb]) => [ra, rb, rc] as const)
    return Effect.all([a, b, c])
  }

  const expandEntity = (
    item: State.StateEntityDetailsResponseItem,
    pin: LedgerStateSelector,
    explicitMetadata: ReadonlyArray<string>,
    includeNfids: boolean
  ) =>
    Effect.map(
      allThree(
        allMetadata(item.address, item.metadata, pin),
        allFungibles(item.address, item.fungible_resources, pin, explicitMetadata),
        allNonFungibles(item.address, item.non_fungible_resources, pin, explicitMetadata, includeNfids),
        [
          hasCursor(item.metadata.next_cursor),
          fungiblesPage(item.fungible_resources),
          nonFungiblesPage(item.non_fungible_resources)
        ]
      ),
      ([metadata, fungible_resources, non_fungible_resources]): StateEntityDetailsVaultResponseItem => ({
        ...item,
        metadata,
        fungible_resources,
        non_fungible_resources
      })
    )

  /**
   * Details of many entities with `aggregation_level: "Vault"`: the addresses are split into chunks of
   * `maxAddressesCount` (fetched with bounded concurrency, merged in input order), and every resource, vault, id and
   * metadata page is read. All requests after the first are pinned to one ledger state.
   */
  const getEntityDetailsVaultAggregated = Effect.fn("Gateway.state.getEntityDetailsVaultAggregated")(function* (
    addresses: ReadonlyArray<string>,
    options?: EntityDetailsVaultAggregatedOptions,
    ledgerState?: LedgerStateSelector
  ) {
    const explicitMetadata = options?.explicitMetadata ?? []
    const includeNfids = options?.nonFungibleIncludeNfids ?? true
    const fetchChunk = (chunkAddresses: ReadonlyArray<string>, atLedgerState: LedgerStateSelector | undefined) =>
      callBuilt(E.state.entityDetails, {
        addresses: chunkAddresses,
        aggregation_level: "Vault",
        opt_ins: {
          ancestor_identities: options?.ancestorIdentities ?? false,
          component_royalty_vault_balance: options?.componentRoyaltyVaultBalance ?? false,
          package_royalty_vault_balance: options?.packageRoyaltyVaultBalance ?? false,
          non_fungible_include_nfids: includeNfids,
          explicit_metadata: explicitMetadata,
          dapp_two_way_links: options?.dappTwoWayLinks ?? false,
          native_resource_details: options?.nativeResourceDetails ?? false
        },
        ...at(atLedgerState)
      })
    const [head, ...tail] = chunk(addresses, config.maxAddressesCount)
    if (head === undefined) return []
    const first = yield* fetchChunk(head, ledgerState)
    const pin = pinTo(first.ledger_state)
    // A chunk holds at most `maxAddressesCount` entities, and the limiter bounds what they send: a fiber each at once
    // is cheaper than a bounded worker pool (bench:gateway: about a tenth of the client's CPU).
    const expandAll = (items: ReadonlyArray<State.StateEntityDetailsResponseItem>) =>
      Effect.forEach(items, (item) => expandEntity(item, pin, explicitMetadata, includeNfids), {
        concurrency: "unbounded"
      })
    // Expanding the first chunk and fetching the others overlap; the client's semaphore bounds what is in flight.
    const results = yield* Effect.forEach(
      [Effect.succeed(first.items), ...tail.map((c) => Effect.map(fetchChunk(c, ledgerState ?? pin), (r) => r.items))],
      (items) => Effect.flatMap(items, expandAll),
      { concurrency }
    )
    return results.flat()
  }, withoutHttpSpans)

  /** Every metadata item of an entity, all pages pinned to the first page's ledger state. */
  const getAllEntityMetadata = Effect.fn("Gateway.state.getAllEntityMetadata")(function* (
    address: string,
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* exhaustPages<EntityMetadataItem, GatewayError, never>(
      (cursor, atLedgerState) =>
        callBuilt(E.state.entityMetadataPage, { address, ...from(cursor), ...at(atLedgerState) }),
      { cursor: startCursor, atLedgerState: ledgerState }
    )
    return items
  }, withoutHttpSpans)

  /** Every validator (the server pages by 1000), all pages pinned to the first page's ledger state. */
  const getAllValidators = Effect.fn("Gateway.state.getAllValidators")(function* (
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* exhaustPages(
      (cursor, atLedgerState) =>
        Effect.map(callBuilt(E.state.validatorsList, { ...from(cursor), ...at(atLedgerState) }), (r) => ({
          ledger_state: r.ledger_state,
          items: r.validators.items,
          ...(r.validators.next_cursor === undefined ? {} : { next_cursor: r.validators.next_cursor })
        })),
      { cursor: startCursor, atLedgerState: ledgerState }
    )
    return items
  }, withoutHttpSpans)

  /** Every non-fungible id of a resource, all pages pinned to the first page's ledger state. */
  const getAllNonFungibleIds = Effect.fn("Gateway.state.getAllNonFungibleIds")(function* (
    resourceAddress: string,
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* exhaustPages(
      (cursor, atLedgerState) =>
        Effect.map(
          callBuilt(E.state.nonFungibleIds, {
            resource_address: resourceAddress,
            ...from(cursor),
            ...at(atLedgerState)
          }),
          (r) => ({
            ledger_state: r.ledger_state,
            items: r.non_fungible_ids.items,
            ...(r.non_fungible_ids.next_cursor === undefined ? {} : { next_cursor: r.non_fungible_ids.next_cursor })
          })
        ),
      { cursor: startCursor, atLedgerState: ledgerState }
    )
    return items
  }, withoutHttpSpans)

  /** Data of many non-fungibles: chunks of `maxNftIdsCount`, merged in order, at one ledger state. */
  const getNonFungibleData = Effect.fn("Gateway.state.getNonFungibleData")(function* (
    resourceAddress: string,
    ids: ReadonlyArray<string>,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* chunkedAtOneLedgerState(
      chunk(ids, config.maxNftIdsCount),
      ledgerState,
      concurrency,
      (c, atLedgerState) =>
        Effect.map(
          callBuilt(E.state.nonFungibleData, {
            resource_address: resourceAddress,
            non_fungible_ids: c,
            ...at(atLedgerState)
          }),
          (r) => ({ ledger_state: r.ledger_state, items: r.non_fungible_ids })
        )
    )
    return items
  }, withoutHttpSpans)

  /** Locations of many non-fungibles: chunks of `maxNftIdsCount`, merged in order, at one ledger state. */
  const getNonFungibleLocation = Effect.fn("Gateway.state.getNonFungibleLocation")(function* (
    resourceAddress: string,
    ids: ReadonlyArray<string>,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* chunkedAtOneLedgerState(
      chunk(ids, config.maxNftIdsCount),
      ledgerState,
      concurrency,
      (c, atLedgerState) =>
        Effect.map(
          callBuilt(E.state.nonFungibleLocation, {
            resource_address: resourceAddress,
            non_fungible_ids: c,
            ...at(atLedgerState)
          }),
          (r) => ({ ledger_state: r.ledger_state, items: r.non_fungible_ids })
        )
    )
    return items
  }, withoutHttpSpans)

  const state = {
    entityDetails,
    entityMetadataPage,
    entitySchemaPage: Effect.fn("Gateway.state.entitySchemaPage")(function* (
      request: State.StateEntitySchemaPageRequest
    ) {
      return yield* call(E.state.entitySchemaPage, request)
    }),
    entityFungiblesPage,
    entityFungibleVaultsPage,
    entityNonFungiblesPage,
    entityNonFungibleVaultsPage,
    entityNonFungibleVaultIdsPage,
    keyValueStoreKeys: Effect.fn("Gateway.state.keyValueStoreKeys")(function* (
      request: State.StateKeyValueStoreKeysRequest
    ) {
      return yield* call(E.state.keyValueStoreKeys, request)
    }),
    keyValueStoreData: Effect.fn("Gateway.state.keyValueStoreData")(function* (
      request: State.StateKeyValueStoreDataRequest
    ) {
      return yield* call(E.state.keyValueStoreData, request)
    }),
    nonFungibleIds,
    nonFungibleData,
    nonFungibleLocation,
    packageBlueprintsPage: Effect.fn("Gateway.state.packageBlueprintsPage")(function* (
      request: State.StatePackageBlueprintPageRequest
    ) {
      return yield* call(E.state.packageBlueprintsPage, request)
    }),
    packageCodesPage: Effect.fn("Gateway.state.packageCodesPage")(function* (
      request: State.StatePackageCodePageRequest
    ) {
      return yield* call(E.state.packageCodesPage, request)
    }),
    validatorsList,
    accountResourcePreferencesPage: Effect.fn("Gateway.state.accountResourcePreferencesPage")(function* (
      request: State.StateAccountResourcePreferencesPageRequest
    ) {
      return yield* call(E.state.accountResourcePreferencesPage, request)
    }),
    accountAuthorizedDepositorsPage: Effect.fn("Gateway.state.accountAuthorizedDepositorsPage")(function* (
      request: State.StateAccountAuthorizedDepositorsPageRequest
    ) {
      return yield* call(E.state.accountAuthorizedDepositorsPage, request)
    }),
    accountLockerVaultsPage: Effect.fn("Gateway.state.accountLockerVaultsPage")(function* (
      request: State.StateAccountLockerPageVaultsRequest
    ) {
      return yield* call(E.state.accountLockerVaultsPage, request)
    }),
    accountLockersTouchedAt: Effect.fn("Gateway.state.accountLockersTouchedAt")(function* (
      request: State.StateAccountLockersTouchedAtRequest
    ) {
      return yield* call(E.state.accountLockersTouchedAt, request)
    }),
    getEntityDetailsVaultAggregated,
    getAllEntityMetadata,
    getAllValidators,
    getNonFungibleData,
    getNonFungibleLocation,
    getAllNonFungibleIds
  }

  const validatorsUptime = Effect.fn("Gateway.statistics.validatorsUptime")(function* (
    request: Statistics.ValidatorsUptimeRequest
  ) {
    return yield* call(E.statistics.validatorsUptime, request)
  })

  const statistics = {
    validatorsUptime,
    /**
     * Uptime of many validators between `from` and `to` (a Date is a timestamp, a number a state version): chunks
     * of `maxValidatorsUptimeCount`, merged in order, at one ledger state.
     */
    getValidatorsUptimeFromTo: Effect.fn("Gateway.statistics.getValidatorsUptimeFromTo")(function* (
      addresses: ReadonlyArray<string>,
      fromLedgerState?: Date | number,
      toLedgerState?: Date | number
    ) {
      const fromSelector = selector(fromLedgerState)
      const { items } = yield* chunkedAtOneLedgerState(
        chunk(addresses, config.maxValidatorsUptimeCount),
        selector(toLedgerState),
        concurrency,
        (c, atLedgerState) =>
          Effect.map(
            validatorsUptime({
              validator_addresses: c,
              ...(fromSelector === undefined ? {} : { from_ledger_state: fromSelector }),
              ...at(atLedgerState)
            }),
            (r) => ({ ledger_state: r.ledger_state, items: r.validators.items })
          )
      )
      return items
    })
  }

  const extensions = {
    resourceHoldersPage: Effect.fn("Gateway.extensions.resourceHoldersPage")(function* (
      request: Ext.ResourceHoldersRequest
    ) {
      return yield* call(E.extensions.resourceHoldersPage, request)
    }),
    entitiesByRoleRequirementPage: Effect.fn("Gateway.extensions.entitiesByRoleRequirementPage")(function* (
      request: Ext.EntitiesByRoleRequirementPageRequest
    ) {
      return yield* call(E.extensions.entitiesByRoleRequirementPage, request)
    }),
    entitiesByRoleRequirementLookup: Effect.fn("Gateway.extensions.entitiesByRoleRequirementLookup")(function* (
      request: Ext.EntitiesByRoleRequirementLookupRequest
    ) {
      return yield* call(E.extensions.entitiesByRoleRequirementLookup, request)
    }),
    implicitRequirementsLookup: Effect.fn("Gateway.extensions.implicitRequirementsLookup")(function* (
      request: Ext.ImplicitRequirementsLookupRequest
    ) {
      return yield* call(E.extensions.implicitRequirementsLookup, request)
    })
  }

  /** The dApp's `name` metadata (a String value), or 'Unnamed dApp'. Reads metadata pages until it finds `name`. */
  const dAppName = Effect.fn("Gateway.dAppName")(function* (dAppDefinitionAddress: string) {
    const first = yield* entityMetadataPage({ address: dAppDefinitionAddress })
    const pin = pinTo(first.ledger_state)
    let page: { readonly items: ReadonlyArray<EntityMetadataItem>; readonly next_cursor?: string | undefined } = first
    for (;;) {
      const item = page.items.find((i) => i.key === "name")
      if (item !== undefined) {
        const typed = item.value.typed
        return typed.type === "String" && typed.value !== "" ? typed.value : UnnamedDapp
      }
      if (page.next_cursor === undefined || page.next_cursor === "") return UnnamedDapp
      page = yield* entityMetadataPage({
        address: dAppDefinitionAddress,
        cursor: page.next_cursor,
        at_ledger_state: pin
      })
    }
  })

  return { config, status, transaction, stream, state, statistics, extensions, dAppName }
}

/** The shape of the Gateway service. */
export type GatewayService = ReturnType<typeof makeService>

/** Builds a Gateway client over whatever `HttpClient` is provided (middleware, a test double). */
export const makeGateway = (
  config: GatewayConfig
): Effect.Effect<GatewayService, UnknownNetworkError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const resolved = yield* resolveGatewayConfig(config)
    const client = yield* HttpClient.HttpClient
    const transport = httpClientTransport({ client, basePath: resolved.basePath, headers: resolved.headers })
    const { call, callBuilt } = yield* makeGatewayCall(resolved, transport)
    return makeService(resolved, call, callBuilt)
  })

/**
 * Builds a Gateway client that sends with `fetch` itself, with no fiber per request: the cheapest per request
 * (bench:gateway). It uses the `fetch` and `RequestInit` of `FetchHttpClient.Fetch` / `FetchHttpClient.RequestInit`
 * when the context it is built in has them, else `globalThis.fetch`.
 */
export const makeGatewayFetch = (config: GatewayConfig): Effect.Effect<GatewayService, UnknownNetworkError> =>
  Effect.gen(function* () {
    const resolved = yield* resolveGatewayConfig(config)
    const fetch = yield* Effect.serviceOption(FetchHttpClient.Fetch)
    const init = yield* Effect.serviceOption(FetchHttpClient.RequestInit)
    const transport = fetchTransport({
      basePath: resolved.basePath,
      headers: resolved.headers,
      // Looked up per client, not bound at load: a test or a polyfill may replace globalThis.fetch later.
      fetch: Option.getOrElse(fetch, () => (input: RequestInfo | URL, request?: RequestInit) =>
        globalThis.fetch(input, request)
      ),
      init: Option.getOrElse(init, () => ({}))
    })
    const { call, callBuilt } = yield* makeGatewayCall(resolved, transport)
    return makeService(resolved, call, callBuilt)
  })

/** The tag, in a module of its own so that code needing only the tag does not load this implementation. */
export { Gateway } from "./tag.js"
