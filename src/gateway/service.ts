/**
 * The Gateway service's type, and nothing else: the tag (`tag.ts`), the client (`Gateway.ts`), the lazy client and
 * code that only asks for the service import it without loading an implementation. Every path's method is derived
 * from the endpoint tables (`endpointsState.ts`, `endpointsOther.ts`): one method per path, taking the path's request
 * (nothing for a path without a body) and answering its response. The few methods that take other arguments, and the
 * helpers that page, chunk and pin to one ledger state, are written out below.
 */
import type { Effect } from "effect"
import type { ResolvedGatewayConfig } from "./config"
import type { OtherEndpoints } from "./endpointsOther"
import type { StateEndpoints } from "./endpointsState"
import type { GatewayError } from "./errors"
import type { Endpoint } from "./http"
import type { EntityMetadataItem, LedgerStateSelector } from "./schemas/common"
import type * as State from "./schemas/state"
import type * as Tx from "./schemas/transaction"

/** The request an endpoint takes (`void` for a path without a body). */
export type RequestOf<E> = E extends Endpoint<infer Req, infer _ReqI, infer _Res, infer _ResI> ? Req : never
/** The response an endpoint answers. */
export type ResponseOf<E> = E extends Endpoint<infer _Req, infer _ReqI, infer Res, infer _ResI> ? Res : never

/** A path's method: its request (none for a path without a body) to its decoded response. */
export type PathMethod<E> = [RequestOf<E>] extends [void]
  ? () => Effect.Effect<ResponseOf<E>, GatewayError>
  : (request: RequestOf<E>) => Effect.Effect<ResponseOf<E>, GatewayError>

/** A group of the API as methods, one per path of its endpoint table. */
export type PathMethods<Group> = { readonly [K in keyof Group]: PathMethod<Group[K]> }

type Other = typeof OtherEndpoints

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
 * become empty ones; items are vault-aggregated (anything else from the server is a `GatewayDecodeError`).
 */
export type StateEntityDetailsVaultResponseItem = Omit<
  State.StateEntityDetailsResponseItem,
  "fungible_resources" | "non_fungible_resources"
> & {
  readonly fungible_resources: FungibleResourcesVaultCollection
  readonly non_fungible_resources: NonFungibleResourcesVaultCollection
}

/** The transaction paths; those keyed by a hash take it alone. */
export interface TransactionMethods extends Omit<
  PathMethods<Other["transaction"]>,
  "submit" | "status" | "subintentStatus" | "committedDetails"
> {
  /** Never retried: resubmitting the same payload later is safe and answers `duplicate: true`. */
  readonly submit: (
    notarizedTransactionHex: string
  ) => Effect.Effect<ResponseOf<Other["transaction"]["submit"]>, GatewayError>
  readonly status: (intentHash: string) => Effect.Effect<ResponseOf<Other["transaction"]["status"]>, GatewayError>
  readonly subintentStatus: (
    subintentHash: string
  ) => Effect.Effect<ResponseOf<Other["transaction"]["subintentStatus"]>, GatewayError>
  /** Opt-ins default to `defaultCommittedDetailsOptIns`; pass `{ raw_hex: false }` etc. to turn one off. */
  readonly committedDetails: (
    intentHash: string,
    optIns?: Tx.TransactionDetailsOptIns,
    atLedgerState?: LedgerStateSelector
  ) => Effect.Effect<ResponseOf<Other["transaction"]["committedDetails"]>, GatewayError>
}

export interface StreamMethods extends PathMethods<Other["stream"]> {
  /** One page of committed transactions, optionally filtered to those affecting `affectedEntities`. */
  readonly getTransactionsList: (
    affectedEntities?: ReadonlyArray<string>,
    cursor?: string
  ) => Effect.Effect<ResponseOf<Other["stream"]["transactions"]>, GatewayError>
}

/** The state paths (`entityDetails` asks for non-fungible ids unless told otherwise) and the helpers over them. */
export interface StateMethods extends PathMethods<typeof StateEndpoints> {
  /**
   * Details of many entities with `aggregation_level: "Vault"`: the addresses are split into chunks of
   * `maxAddressesCount` (fetched with bounded concurrency, merged in input order), and every resource, vault, id and
   * metadata page is read. All requests after the first are pinned to one ledger state.
   */
  readonly getEntityDetailsVaultAggregated: (
    addresses: ReadonlyArray<string>,
    options?: EntityDetailsVaultAggregatedOptions,
    ledgerState?: LedgerStateSelector
  ) => Effect.Effect<Array<StateEntityDetailsVaultResponseItem>, GatewayError>
  /** Every metadata item of an entity, all pages pinned to the first page's ledger state. */
  readonly getAllEntityMetadata: (
    address: string,
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) => Effect.Effect<ReadonlyArray<EntityMetadataItem>, GatewayError>
  /** Every validator (the server pages by 1000), all pages pinned to the first page's ledger state. */
  readonly getAllValidators: (
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) => Effect.Effect<ReadonlyArray<State.ValidatorCollectionItem>, GatewayError>
  /** Data of many non-fungibles: chunks of `maxNftIdsCount`, merged in order, at one ledger state. */
  readonly getNonFungibleData: (
    resourceAddress: string,
    ids: ReadonlyArray<string>,
    ledgerState?: LedgerStateSelector
  ) => Effect.Effect<ReadonlyArray<State.StateNonFungibleDetailsResponseItem>, GatewayError>
  /** Locations of many non-fungibles: chunks of `maxNftIdsCount`, merged in order, at one ledger state. */
  readonly getNonFungibleLocation: (
    resourceAddress: string,
    ids: ReadonlyArray<string>,
    ledgerState?: LedgerStateSelector
  ) => Effect.Effect<ReadonlyArray<State.StateNonFungibleLocationResponseItem>, GatewayError>
  /** Every non-fungible id of a resource, all pages pinned to the first page's ledger state. */
  readonly getAllNonFungibleIds: (
    resourceAddress: string,
    startCursor?: string,
    ledgerState?: LedgerStateSelector
  ) => Effect.Effect<ReadonlyArray<string>, GatewayError>
}

export interface StatisticsMethods extends PathMethods<Other["statistics"]> {
  /**
   * Uptime of many validators between `from` and `to` (a Date is a timestamp, a number a state version): chunks
   * of `maxValidatorsUptimeCount`, merged in order, at one ledger state.
   */
  readonly getValidatorsUptimeFromTo: (
    addresses: ReadonlyArray<string>,
    fromLedgerState?: Date | number,
    toLedgerState?: Date | number
  ) => Effect.Effect<
    ReadonlyArray<ResponseOf<Other["statistics"]["validatorsUptime"]>["validators"]["items"][number]>,
    GatewayError
  >
}

/** The Gateway service: every path, grouped like the API, plus the high-level helpers. */
export interface GatewayService {
  readonly config: ResolvedGatewayConfig
  readonly status: PathMethods<Other["status"]>
  readonly transaction: TransactionMethods
  readonly stream: StreamMethods
  readonly state: StateMethods
  readonly statistics: StatisticsMethods
  readonly extensions: PathMethods<Other["extensions"]>
  /** The dApp's `name` metadata (a String value), or 'Unnamed dApp'. Reads metadata pages until it finds `name`. */
  readonly dAppName: (dAppDefinitionAddress: string) => Effect.Effect<string, GatewayError>
}
