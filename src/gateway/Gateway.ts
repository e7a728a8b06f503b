/**
 * The Gateway client: every path's method built from the endpoint tables, and the helpers that page, chunk and pin
 * to one ledger state. The service's type is in `service.ts`.
 */
import { Effect } from "effect"
import { loadOnceEffect } from "../lib/loadOnceEffect"
import type { GatewayConfig, ResolvedGatewayConfig } from "./config"
import { resolveGatewayConfig } from "./config"
import type { OtherEndpoints } from "./endpointsOther"
import { StateEndpoints } from "./endpointsState"
import type { GatewayError, UnknownNetworkError } from "./errors"
import { clientNotLoaded, GatewayDecodeError, type GatewayTransportError } from "./errors"
import type { Built, Endpoint, GatewayCall, GatewayCallAll } from "./http"
import { built, makeGatewayCall } from "./http"
import { fetchTransport, type Transport } from "./transport"
import { chunk, chunkedAtOneLedgerState, exhaustPages, pinTo } from "./paging"
import type { EntityMetadataItem, LedgerStateSelector } from "./schemas/common"
import type * as State from "./schemas/state"
import type * as Tx from "./schemas/transaction"
import type {
  EntityDetailsVaultAggregatedOptions,
  FungibleResourcesVaultCollection,
  GatewayService,
  NonFungibleResourcesVaultCollection,
  RequestOf,
  StateEntityDetailsVaultResponseItem
} from "./service"

export type {
  EntityDetailsVaultAggregatedOptions,
  GatewayService,
  StateEntityDetailsVaultResponseItem
} from "./service"

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

type OtherEndpointsModule = typeof import("./endpointsOther")
const otherModule = loadOnceEffect(
  () => import("./endpointsOther").then((module) => module.OtherEndpoints),
  (cause) => cause
)

/**
 * The endpoints of every group but state (`endpointsOther.ts`), loaded by the first call of one of them: a client
 * that only reads state (the app's first screen) does not fetch their Schemas. Once loaded, they are at hand at once.
 * A failed load is not kept: the call fails with a `GatewayTransportError` naming its method, and the next call loads
 * again.
 */
export const otherEndpoints = (
  method: string
): Effect.Effect<OtherEndpointsModule["OtherEndpoints"], GatewayTransportError> =>
  Effect.mapError(otherModule, (cause) => clientNotLoaded(method, cause))

// --- the endpoint tables as methods ---------------------------------------------------------------------------------

/** Every group's endpoint table, by the service's name of the group. */
interface Tables {
  readonly status: (typeof OtherEndpoints)["status"]
  readonly transaction: (typeof OtherEndpoints)["transaction"]
  readonly stream: (typeof OtherEndpoints)["stream"]
  readonly state: typeof StateEndpoints
  readonly statistics: (typeof OtherEndpoints)["statistics"]
  readonly extensions: (typeof OtherEndpoints)["extensions"]
}
type Group = keyof Tables
type OtherGroup = Exclude<Group, "state">

/**
 * The paths of the groups loaded on first use, known before their table is: a method exists from the start and loads
 * its endpoint when called. Checked against the table, so a path added there and not here does not compile.
 */
const otherPaths = {
  status: { gatewayStatus: true, networkConfiguration: true },
  transaction: {
    construction: true,
    preview: true,
    previewV2: true,
    submit: true,
    status: true,
    subintentStatus: true,
    committedDetails: true,
    accountDepositPreValidation: true
  },
  stream: { transactions: true },
  statistics: { validatorsUptime: true },
  extensions: {
    resourceHoldersPage: true,
    entitiesByRoleRequirementPage: true,
    entitiesByRoleRequirementLookup: true,
    implicitRequirementsLookup: true
  }
} as const satisfies { readonly [G in OtherGroup]: { readonly [P in keyof Tables[G]]: true } }

/** The methods that take something else than their path's request: what they send. */
type Adapters = {
  readonly [G in Group]?: {
    readonly [P in keyof Tables[G] & keyof GatewayService[G]]?: GatewayService[G][P] extends (
      ...args: infer Args
    ) => unknown
      ? (...args: Args) => RequestOf<Tables[G][P]>
      : never
  }
}
const adapters = {
  transaction: {
    submit: (notarizedTransactionHex) => ({ notarized_transaction_hex: notarizedTransactionHex }),
    status: (intentHash) => ({ intent_hash: intentHash }),
    subintentStatus: (subintentHash) => ({ subintent_hash: subintentHash }),
    committedDetails: (intentHash, optIns, atLedgerState) => ({
      intent_hash: intentHash,
      opt_ins: { ...defaultCommittedDetailsOptIns, ...optIns },
      ...(atLedgerState === undefined ? {} : { at_ledger_state: atLedgerState })
    })
  },
  state: {
    /** Non-fungible vaults list their ids unless the request says otherwise. */
    entityDetails: (request) =>
      request === null || request === undefined
        ? request
        : { ...request, opt_ins: { non_fungible_include_nfids: true, ...request.opt_ins } }
  }
} satisfies Adapters

/**
 * A group's per-path methods as the service has them: each path's request to its response (`PathMethods` in
 * service.ts), or the arguments its adapter takes.
 */
type GroupPaths<G extends Group> = Pick<GatewayService[G], keyof Tables[G] & keyof GatewayService[G]>

/** Any row of a table, as `call` takes it: the types of its schemas are the table's, carried by `GroupPaths`. */
type AnyEndpoint = Endpoint<unknown, unknown, unknown, unknown>
type Method = (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown, GatewayError>
type Adapter = (...args: ReadonlyArray<unknown>) => unknown

/** The row `path` of `table`. */
const rowOf = (table: object, path: string): AnyEndpoint => (table as Record<string, AnyEndpoint>)[path] as AnyEndpoint

/**
 * The methods of one group, one per path: `row` gives the path's endpoint (the table's, or the table loaded with the
 * call), and the method sends its request, or what its adapter builds from its arguments, through `call`.
 */
const pathMethods = <G extends Group>(
  call: GatewayCall,
  group: G,
  paths: ReadonlyArray<string>,
  row: (path: string) => Effect.Effect<AnyEndpoint, GatewayTransportError>
): GroupPaths<G> => {
  const methods: Record<string, Method> = {}
  for (const path of paths) {
    const adapt = (adapters as Partial<Record<Group, Record<string, Adapter>>>)[group]?.[path]
    methods[path] = Effect.fn(`Gateway.${group}.${path}`)(function* (...args: ReadonlyArray<unknown>) {
      const endpoint = yield* row(path)
      return yield* call(endpoint, adapt === undefined ? args[0] : adapt(...args))
    })
  }
  return methods as unknown as GroupPaths<G>
}

/** The state group: its table is at hand. */
const stateMethods = (call: GatewayCall): GroupPaths<"state"> => {
  const rows = new Map(Object.keys(StateEndpoints).map((path) => [path, Effect.succeed(rowOf(StateEndpoints, path))]))
  return pathMethods(call, "state", [...rows.keys()], (path) => rows.get(path) as Effect.Effect<AnyEndpoint>)
}

/** A group loaded on first use: each call takes its endpoint from the loaded table (see {@link otherEndpoints}). */
const otherMethods = <G extends OtherGroup>(call: GatewayCall, group: G): GroupPaths<G> =>
  pathMethods(call, group, Object.keys(otherPaths[group]), (path) =>
    Effect.map(otherEndpoints(`${group}.${path}`), (tables) => rowOf(tables[group], path))
  )

const makeService = (
  config: ResolvedGatewayConfig,
  call: GatewayCall,
  callBuilt: GatewayCall,
  callAll: GatewayCallAll,
  /** What each paging helper's whole run goes through (the transport's; see `Transport.around`). */
  around: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
): GatewayService => {
  const S = StateEndpoints
  // How much work the helpers keep pending at once; the client's adaptive limiter decides what is in flight.
  const concurrency = config.maxConcurrency

  const statePaths = stateMethods(call)
  const streamPaths = otherMethods(call, "stream")
  const statisticsPaths = otherMethods(call, "statistics")

  // --- helpers ----------------------------------------------------------------------------------------------------

  const at = (selector: LedgerStateSelector | undefined) =>
    selector === undefined ? {} : { at_ledger_state: selector }
  const from = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor })

  /** We asked for `aggregation_level: "Vault"`; a server answering otherwise broke the contract. */
  const notVault = (
    address: string,
    collection: "fungible_resources" | "non_fungible_resources",
    items: ReadonlyArray<{ readonly aggregation_level: string }>,
    offset: number
  ): GatewayDecodeError | undefined => {
    const bad = items.findIndex((item) => item.aggregation_level !== "Vault")
    return bad < 0
      ? undefined
      : new GatewayDecodeError({
          path: S.entityDetails.path,
          issues: [
            {
              path: `${address}.${collection}.items.${offset + bad}.aggregation_level`,
              message: `expected "Vault", got ${JSON.stringify(items[bad]?.aggregation_level)}`
            }
          ]
        })
  }

  const hasCursor = (cursor: string | undefined): cursor is string => cursor !== undefined && cursor !== ""

  /** Appends `items` to `into` (a loop: a spread of a long page could overflow the stack). */
  const append = <A>(into: Array<A>, items: ReadonlyArray<A>) => {
    for (const item of items) into.push(item)
  }

  /**
   * A follow-up page still to read while expanding entities, and what to do with it: `read` files its items where they
   * belong and returns the pages it leads to (the collection's next page, the vault or id pages of the resources or
   * vaults it listed), or the error when the page breaks the vault-aggregation contract.
   */
  interface FollowUp {
    readonly request: Built<unknown>
    readonly read: (page: unknown) => GatewayDecodeError | ReadonlyArray<FollowUp>
  }
  const followUp = <Res>(
    request: Built<Res>,
    read: (page: Res) => GatewayDecodeError | ReadonlyArray<FollowUp>
  ): FollowUp => ({ request, read: read as (page: unknown) => GatewayDecodeError | ReadonlyArray<FollowUp> })

  /**
   * Reads `pages` and every page they lead to, a round at a time: each round is one batch (`callAll`: one
   * `Effect.async` for all of its requests, no fiber per entity or per page; the limiter decides what is in flight).
   */
  const readRounds = (pages: ReadonlyArray<FollowUp>): Effect.Effect<void, GatewayError> =>
    pages.length === 0
      ? Effect.void
      : Effect.flatMap(callAll(pages.map((p) => p.request)), (answers) => {
          const next: Array<FollowUp> = []
          for (let i = 0; i < pages.length; i++) {
            const more = (pages[i] as FollowUp).read(answers[i])
            if (more instanceof GatewayDecodeError) return Effect.fail(more)
            append(next, more)
          }
          return readRounds(next)
        })

  /** A page of a collection: its items and the cursor of the next page. */
  interface Page<Item> {
    readonly items: ReadonlyArray<Item>
    readonly next_cursor?: string | undefined
  }

  /**
   * The pages of a collection from `cursor` on (`request` builds the request for a cursor), each filed by `file`,
   * which returns what the page asks for (vault or id pages; the collection's next page is added to it), or the error
   * that fails the read.
   */
  const laterPages = <Item>(
    cursor: string | undefined,
    request: (cursor: string) => Built<Page<Item>>,
    file: (items: ReadonlyArray<Item>) => GatewayDecodeError | Array<FollowUp>
  ): ReadonlyArray<FollowUp> =>
    hasCursor(cursor)
      ? [
          followUp(request(cursor), (page) => {
            const more = file(page.items)
            if (more instanceof GatewayDecodeError) return more
            append(more, laterPages(page.next_cursor, request, file))
            return more
          })
        ]
      : []

  /** The pages after the first of a simple collection, appended to `into`. */
  const pagesInto = <Item>(
    cursor: string | undefined,
    into: Array<Item>,
    request: (cursor: string) => Built<Page<Item>>
  ): ReadonlyArray<FollowUp> =>
    laterPages(cursor, request, (items) => {
      append(into, items)
      return []
    })

  /**
   * Files the first page of an entity's resource collection with `file` and queues the collection's later pages,
   * each filed the same way, with what filing asks for. A decode error of the first page is returned; one of a later
   * page fails the read.
   */
  const walkResources = <Item>(
    first: Page<Item>,
    request: (cursor: string) => Built<Page<Item>>,
    file: (items: ReadonlyArray<Item>) => GatewayDecodeError | Array<FollowUp>,
    pages: Array<FollowUp>
  ): GatewayDecodeError | undefined => {
    const filed = file(first.items)
    if (filed instanceof GatewayDecodeError) return filed
    append(pages, filed)
    append(pages, laterPages(first.next_cursor, request, file))
    return undefined
  }

  /**
   * One entity of a vault-aggregated read, while its follow-up pages are read: what its first answer listed, what the
   * pages add (filed by `pages`), and `done` to build the complete item once every page is in.
   */
  interface Expanding {
    readonly pages: ReadonlyArray<FollowUp>
    readonly done: () => StateEntityDetailsVaultResponseItem
  }

  const totalCount = (collection: { readonly total_count?: number | undefined }) =>
    collection.total_count === undefined ? {} : { total_count: collection.total_count }

  const expandFungibles = (
    address: string,
    first: State.FungibleResourcesCollection | undefined,
    pin: LedgerStateSelector,
    explicitMetadata: ReadonlyArray<string>,
    pages: Array<FollowUp>
  ): GatewayDecodeError | (() => FungibleResourcesVaultCollection) => {
    if (first === undefined) return () => ({ total_count: 0, items: [] })
    const resources: Array<State.FungibleResourcesCollectionItemVaultAggregated> = []
    /** The vaults of the resources whose vaults page, by the resource's index. */
    const vaultsOf = new Map<number, Array<State.FungibleResourcesCollectionItemVaultAggregatedVaultItem>>()
    const file = (
      items: ReadonlyArray<State.FungibleResourcesCollectionItem>
    ): GatewayDecodeError | Array<FollowUp> => {
      const bad = notVault(address, "fungible_resources", items, resources.length)
      if (bad !== undefined) return bad
      const more: Array<FollowUp> = []
      for (const resource of items as ReadonlyArray<State.FungibleResourcesCollectionItemVaultAggregated>) {
        const vaults = resource.vaults
        if (vaults.next_cursor !== undefined) {
          const into = [...vaults.items]
          vaultsOf.set(resources.length, into)
          append(
            more,
            pagesInto(vaults.next_cursor, into, (cursor) =>
              built(S.entityFungibleVaultsPage, {
                address,
                resource_address: resource.resource_address,
                cursor,
                at_ledger_state: pin
              })
            )
          )
        }
        resources.push(resource)
      }
      return more
    }
    const bad = walkResources(
      first,
      (cursor) =>
        built(S.entityFungiblesPage, {
          address,
          cursor,
          aggregation_level: "Vault",
          at_ledger_state: pin,
          opt_ins: { explicit_metadata: explicitMetadata }
        }),
      file,
      pages
    )
    if (bad !== undefined) return bad
    return () => ({
      ...totalCount(first),
      items:
        vaultsOf.size === 0
          ? resources
          : resources.map((resource, i) => {
              const vaults = vaultsOf.get(i)
              return vaults === undefined
                ? resource
                : { ...resource, vaults: { ...totalCount(resource.vaults), items: vaults } }
            })
    })
  }

  const expandNonFungibles = (
    address: string,
    first: State.NonFungibleResourcesCollection | undefined,
    pin: LedgerStateSelector,
    explicitMetadata: ReadonlyArray<string>,
    includeNfids: boolean,
    pages: Array<FollowUp>
  ): GatewayDecodeError | (() => NonFungibleResourcesVaultCollection) => {
    if (first === undefined) return () => ({ total_count: 0, items: [] })
    type Vault = State.NonFungibleResourcesCollectionItemVaultAggregatedVaultItem
    const idsToRead = (vault: Vault) => vault.next_cursor !== undefined && vault.items !== undefined
    const resources: Array<State.NonFungibleResourcesCollectionItemVaultAggregated> = []
    /** The vaults of the resources whose vaults page or whose vaults' ids page, by the resource's index. */
    const vaultsOf = new Map<number, { readonly vaults: Array<Vault>; readonly ids: Map<number, Array<string>> }>()
    const fileVaults = (
      resourceAddress: string,
      into: { readonly vaults: Array<Vault>; readonly ids: Map<number, Array<string>> },
      vaults: ReadonlyArray<Vault>,
      more: Array<FollowUp>
    ) => {
      for (const vault of vaults) {
        if (idsToRead(vault)) {
          const ids = [...(vault.items ?? [])]
          into.ids.set(into.vaults.length, ids)
          append(
            more,
            pagesInto(vault.next_cursor, ids, (cursor) =>
              built(S.entityNonFungibleVaultIdsPage, {
                address,
                vault_address: vault.vault_address,
                resource_address: resourceAddress,
                cursor,
                at_ledger_state: pin
              })
            )
          )
        }
        into.vaults.push(vault)
      }
    }
    const vaultPages = (
      resourceAddress: string,
      into: { readonly vaults: Array<Vault>; readonly ids: Map<number, Array<string>> },
      cursor: string | undefined
    ): ReadonlyArray<FollowUp> =>
      laterPages(
        cursor,
        (cursor) =>
          built(S.entityNonFungibleVaultsPage, {
            address,
            resource_address: resourceAddress,
            cursor,
            at_ledger_state: pin,
            opt_ins: { non_fungible_include_nfids: includeNfids }
          }),
        (items) => {
          const more: Array<FollowUp> = []
          fileVaults(resourceAddress, into, items, more)
          return more
        }
      )
    const file = (
      items: ReadonlyArray<State.NonFungibleResourcesCollectionItem>
    ): GatewayDecodeError | Array<FollowUp> => {
      const bad = notVault(address, "non_fungible_resources", items, resources.length)
      if (bad !== undefined) return bad
      const more: Array<FollowUp> = []
      for (const resource of items as ReadonlyArray<State.NonFungibleResourcesCollectionItemVaultAggregated>) {
        const vaults = resource.vaults
        if (vaults.next_cursor !== undefined || vaults.items.some(idsToRead)) {
          const into = { vaults: [] as Array<Vault>, ids: new Map<number, Array<string>>() }
          vaultsOf.set(resources.length, into)
          fileVaults(resource.resource_address, into, vaults.items, more)
          append(more, vaultPages(resource.resource_address, into, vaults.next_cursor))
        }
        resources.push(resource)
      }
      return more
    }
    const bad = walkResources(
      first,
      (cursor) =>
        built(S.entityNonFungiblesPage, {
          address,
          cursor,
          aggregation_level: "Vault",
          at_ledger_state: pin,
          opt_ins: { explicit_metadata: explicitMetadata, non_fungible_include_nfids: includeNfids }
        }),
      file,
      pages
    )
    if (bad !== undefined) return bad
    const withIds = (vault: Vault, ids: ReadonlyArray<string> | undefined): Vault => {
      if (ids === undefined) return vault
      const { next_cursor: _read, ...rest } = vault
      return { ...rest, items: ids }
    }
    return () => ({
      ...totalCount(first),
      items:
        vaultsOf.size === 0
          ? resources
          : resources.map((resource, i) => {
              const read = vaultsOf.get(i)
              return read === undefined
                ? resource
                : {
                    ...resource,
                    vaults: {
                      ...totalCount(resource.vaults),
                      items: read.vaults.map((vault, k) => withIds(vault, read.ids.get(k)))
                    }
                  }
            })
    })
  }

  /** Files an entity's first answer and lists the follow-up pages it needs (see {@link Expanding}). */
  const expandEntity = (
    item: State.StateEntityDetailsResponseItem,
    pin: LedgerStateSelector,
    explicitMetadata: ReadonlyArray<string>,
    includeNfids: boolean
  ): GatewayDecodeError | Expanding => {
    const address = item.address
    const pages: Array<FollowUp> = []
    const metadata = [...item.metadata.items]
    append(
      pages,
      pagesInto(item.metadata.next_cursor, metadata, (cursor) =>
        built(S.entityMetadataPage, { address, cursor, at_ledger_state: pin })
      )
    )
    const fungibles = expandFungibles(address, item.fungible_resources, pin, explicitMetadata, pages)
    if (fungibles instanceof GatewayDecodeError) return fungibles
    const nonFungibles = expandNonFungibles(
      address,
      item.non_fungible_resources,
      pin,
      explicitMetadata,
      includeNfids,
      pages
    )
    if (nonFungibles instanceof GatewayDecodeError) return nonFungibles
    return {
      pages,
      done: () => ({
        ...item,
        metadata: { ...totalCount(item.metadata), items: metadata },
        fungible_resources: fungibles(),
        non_fungible_resources: nonFungibles()
      })
    }
  }

  /** Every follow-up page of a chunk's entities, read round by round in one batch each (no fiber per entity). */
  const expandAll = (
    items: ReadonlyArray<State.StateEntityDetailsResponseItem>,
    pin: LedgerStateSelector,
    explicitMetadata: ReadonlyArray<string>,
    includeNfids: boolean
  ): Effect.Effect<ReadonlyArray<StateEntityDetailsVaultResponseItem>, GatewayError> =>
    Effect.suspend(() => {
      const entities: Array<Expanding> = []
      const pages: Array<FollowUp> = []
      for (const item of items) {
        const entity = expandEntity(item, pin, explicitMetadata, includeNfids)
        if (entity instanceof GatewayDecodeError) return Effect.fail(entity)
        entities.push(entity)
        append(pages, entity.pages)
      }
      return Effect.map(readRounds(pages), () => entities.map((entity) => entity.done()))
    })

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
      callBuilt(S.entityDetails, {
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
    // A chunk's entities read their follow-up pages together, a round (one batch of requests) at a time.
    const expandChunk = (items: ReadonlyArray<State.StateEntityDetailsResponseItem>) =>
      expandAll(items, pin, explicitMetadata, includeNfids)
    // Expanding the first chunk and fetching the others overlap; the client's semaphore bounds what is in flight.
    const results = yield* Effect.forEach(
      [Effect.succeed(first.items), ...tail.map((c) => Effect.map(fetchChunk(c, ledgerState ?? pin), (r) => r.items))],
      (items) => Effect.flatMap(items, expandChunk),
      { concurrency }
    )
    return results.flat()
  }, around)

  /** Every metadata item of an entity, all pages pinned to the first page's ledger state. */
  const getAllEntityMetadata = Effect.fn("Gateway.state.getAllEntityMetadata")(function* (
    address: string,
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* exhaustPages<EntityMetadataItem, GatewayError, never>(
      (cursor, atLedgerState) => callBuilt(S.entityMetadataPage, { address, ...from(cursor), ...at(atLedgerState) }),
      { cursor: startCursor, atLedgerState: ledgerState }
    )
    return items
  }, around)

  /** Every validator (the server pages by 1000), all pages pinned to the first page's ledger state. */
  const getAllValidators = Effect.fn("Gateway.state.getAllValidators")(function* (
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* exhaustPages(
      (cursor, atLedgerState) =>
        Effect.map(callBuilt(S.validatorsList, { ...from(cursor), ...at(atLedgerState) }), (r) => ({
          ledger_state: r.ledger_state,
          items: r.validators.items,
          ...(r.validators.next_cursor === undefined ? {} : { next_cursor: r.validators.next_cursor })
        })),
      { cursor: startCursor, atLedgerState: ledgerState }
    )
    return items
  }, around)

  /** Every non-fungible id of a resource, all pages pinned to the first page's ledger state. */
  const getAllNonFungibleIds = Effect.fn("Gateway.state.getAllNonFungibleIds")(function* (
    resourceAddress: string,
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) {
    const { items } = yield* exhaustPages(
      (cursor, atLedgerState) =>
        Effect.map(
          callBuilt(S.nonFungibleIds, {
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
  }, around)

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
          callBuilt(S.nonFungibleData, {
            resource_address: resourceAddress,
            non_fungible_ids: c,
            ...at(atLedgerState)
          }),
          (r) => ({ ledger_state: r.ledger_state, items: r.non_fungible_ids })
        )
    )
    return items
  }, around)

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
          callBuilt(S.nonFungibleLocation, {
            resource_address: resourceAddress,
            non_fungible_ids: c,
            ...at(atLedgerState)
          }),
          (r) => ({ ledger_state: r.ledger_state, items: r.non_fungible_ids })
        )
    )
    return items
  }, around)

  /** The dApp's `name` metadata (a String value), or 'Unnamed dApp'. Reads metadata pages until it finds `name`. */
  const dAppName = Effect.fn("Gateway.dAppName")(function* (dAppDefinitionAddress: string) {
    const first = yield* statePaths.entityMetadataPage({ address: dAppDefinitionAddress })
    const pin = pinTo(first.ledger_state)
    let page: { readonly items: ReadonlyArray<EntityMetadataItem>; readonly next_cursor?: string | undefined } = first
    for (;;) {
      const item = page.items.find((i) => i.key === "name")
      if (item !== undefined) {
        const typed = item.value.typed
        return typed.type === "String" && typed.value !== "" ? typed.value : UnnamedDapp
      }
      if (page.next_cursor === undefined || page.next_cursor === "") return UnnamedDapp
      page = yield* statePaths.entityMetadataPage({
        address: dAppDefinitionAddress,
        cursor: page.next_cursor,
        at_ledger_state: pin
      })
    }
  })

  return {
    config,
    status: otherMethods(call, "status"),
    transaction: otherMethods(call, "transaction"),
    stream: {
      ...streamPaths,
      getTransactionsList: Effect.fn("Gateway.stream.getTransactionsList")(function* (
        affectedEntities?: ReadonlyArray<string>,
        cursor?: string
      ) {
        return yield* streamPaths.transactions({
          ...(cursor === undefined ? {} : { cursor }),
          ...(affectedEntities === undefined ? {} : { affected_global_entities_filter: affectedEntities })
        })
      })
    },
    state: {
      ...statePaths,
      getEntityDetailsVaultAggregated,
      getAllEntityMetadata,
      getAllValidators,
      getNonFungibleData,
      getNonFungibleLocation,
      getAllNonFungibleIds
    },
    statistics: {
      ...statisticsPaths,
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
              statisticsPaths.validatorsUptime({
                validator_addresses: c,
                ...(fromSelector === undefined ? {} : { from_ledger_state: fromSelector }),
                ...at(atLedgerState)
              }),
              (r) => ({ ledger_state: r.ledger_state, items: r.validators.items })
            )
        )
        return items
      })
    },
    extensions: otherMethods(call, "extensions"),
    dAppName
  }
}

/**
 * Builds a Gateway client over `transport`. This module imports nothing of `@effect/platform`: the client over an
 * `HttpClient` and the one that honours `FetchHttpClient`'s tags are in `platform.ts`.
 */
export const makeGatewayOver = (
  config: GatewayConfig,
  transport: (resolved: ResolvedGatewayConfig) => Transport
): Effect.Effect<GatewayService, UnknownNetworkError> =>
  Effect.gen(function* () {
    const resolved = yield* resolveGatewayConfig(config)
    const { call, callBuilt, callAll, around } = yield* makeGatewayCall(resolved, transport(resolved))
    return makeService(resolved, call, callBuilt, callAll, around)
  })

/**
 * A Gateway client that sends with `fetch` itself, with no fiber per request and nothing of `@effect/platform` (the
 * app's; `platform.ts` makeGatewayFetch gives it `FetchHttpClient`'s tags). Without a `fetch`, `globalThis.fetch`,
 * looked up per request, not bound at load: a test or a polyfill may replace it later.
 */
export const makeGatewayWithFetch = (
  config: GatewayConfig,
  options: { readonly fetch?: typeof globalThis.fetch | undefined; readonly init?: RequestInit | undefined } = {}
): Effect.Effect<GatewayService, UnknownNetworkError> =>
  makeGatewayOver(config, (resolved) =>
    fetchTransport({
      basePath: resolved.basePath,
      headers: resolved.headers,
      fetch: options.fetch ?? ((input: RequestInfo | URL, request?: RequestInit) => globalThis.fetch(input, request)),
      init: options.init ?? {}
    })
  )
