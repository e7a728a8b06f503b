/**
 * Storage: the official toolkit's localStorage layout over `KeyValueStore`.
 *
 * Each partition lives at `rdt:{dAppDefinitionAddress}:{networkId}:{partition}` and holds the same JSON as the
 * official toolkit, so a session made with it keeps working. Anything unreadable (invalid JSON, a foreign shape) is
 * reported on `corruptions` and reset, never thrown into the UI; in keyed partitions only the bad entries are dropped.
 */
import { KeyValueStore } from "@effect/platform"
import { Effect, Either, Layer, Option, Schema, SubscriptionRef } from "effect"
import { defaultRdtState, storageKey, ToolkitConfig, type PartitionName } from "./config"
import { FailedToReadFromLocalStorage, FailedToWriteToLocalStorage, PatchingStateFailed } from "./errors"
import { ConnectorExtensionState, Identity, RdtState, RequestItem, Session, WalletInteractionResponse } from "./schemas"
import { decodeUntrusted } from "./untrusted"

// The key layout lives with the configuration (no Schema), so the lazy toolkit can look at storage without this module.
export { storageKey } from "./config"
export type { PartitionName } from "./config"

/**
 * The most recent corruption reports kept in memory: storage can be rewritten by any script of the origin, so the
 * list is bounded (and each report copies at most this many).
 */
export const MAX_CORRUPTIONS_KEPT = 100

export interface StorageCorruption {
  readonly key: string
  readonly entry?: string
  readonly reason: string
}

/** A partition holding one JSON object. */
export interface ObjectPartition<A> {
  readonly key: string
  readonly get: Effect.Effect<Option.Option<A>, FailedToReadFromLocalStorage>
  readonly set: (value: A) => Effect.Effect<void, FailedToWriteToLocalStorage>
  /** Read, transform and write atomically (within this tab). */
  readonly modify: <B>(
    f: (current: Option.Option<A>) => readonly [B, A]
  ) => Effect.Effect<B, FailedToReadFromLocalStorage | FailedToWriteToLocalStorage>
  readonly clear: Effect.Effect<void, FailedToWriteToLocalStorage>
}

/** A partition holding an object of entries keyed by id. */
export interface KeyedPartition<A> {
  readonly key: string
  readonly getAll: Effect.Effect<Readonly<Record<string, A>>, FailedToReadFromLocalStorage>
  readonly getById: (id: string) => Effect.Effect<Option.Option<A>, FailedToReadFromLocalStorage>
  /** Adds or replaces entries; with `keep`, only the `keep` newest entries stay (the oldest are dropped first). */
  readonly setItems: (
    items: Readonly<Record<string, A>>,
    keep?: number
  ) => Effect.Effect<void, FailedToReadFromLocalStorage | FailedToWriteToLocalStorage>
  /** Shallow-merges `patch` into an existing entry; `PatchingStateFailed` when there is none. */
  readonly patchItem: (
    id: string,
    patch: (current: A) => A
  ) => Effect.Effect<A, FailedToReadFromLocalStorage | FailedToWriteToLocalStorage | PatchingStateFailed>
  readonly removeItem: (id: string) => Effect.Effect<void, FailedToReadFromLocalStorage | FailedToWriteToLocalStorage>
  readonly clear: Effect.Effect<void, FailedToWriteToLocalStorage>
}

/** Stored JSON is untrusted too (another script may write it): decoded through the guarded entry, never throwing. */
const decodeStored = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = decodeUntrusted(schema)
  return (json: unknown): Option.Option<A> => Either.getRight(decode(json))
}

export class Storage extends Effect.Service<Storage>()("hswap/toolkit/Storage", {
  effect: Effect.gen(function* () {
    const kv = yield* KeyValueStore.KeyValueStore
    const config = yield* ToolkitConfig
    const corruptions = yield* SubscriptionRef.make<ReadonlyArray<StorageCorruption>>([])
    const lock = yield* Effect.makeSemaphore(1)

    const keyOf = (partition: PartitionName) => storageKey(config.dAppDefinitionAddress, config.networkId, partition)

    const report = (c: StorageCorruption) =>
      SubscriptionRef.update(corruptions, (all) => [...all.slice(1 - MAX_CORRUPTIONS_KEPT), c]).pipe(
        Effect.zipRight(Effect.logWarning("toolkit storage: unreadable data was reset", c))
      )

    const readRaw = (key: string) =>
      kv.get(key).pipe(Effect.mapError((cause) => new FailedToReadFromLocalStorage({ key, cause })))

    const writeRaw = (key: string, value: unknown) =>
      Effect.try({
        try: () => JSON.stringify(value),
        catch: (cause) => new FailedToWriteToLocalStorage({ key, cause })
      }).pipe(
        Effect.flatMap((json) => kv.set(key, json)),
        Effect.mapError((cause) =>
          cause instanceof FailedToWriteToLocalStorage ? cause : new FailedToWriteToLocalStorage({ key, cause })
        )
      )

    const removeRaw = (key: string) =>
      kv.remove(key).pipe(Effect.mapError((cause) => new FailedToWriteToLocalStorage({ key, cause })))

    /** Parses JSON; on failure reports, removes the key and yields None. */
    const readJson = (key: string) =>
      Effect.flatMap(readRaw(key), (raw) => {
        if (Option.isNone(raw)) return Effect.succeed(Option.none<unknown>())
        try {
          return Effect.succeed(Option.some<unknown>(JSON.parse(raw.value)))
        } catch {
          return report({ key, reason: "invalid JSON" }).pipe(
            Effect.zipRight(removeRaw(key).pipe(Effect.ignore)),
            Effect.as(Option.none<unknown>())
          )
        }
      })

    const objectPartition = <A, I>(partition: PartitionName, schema: Schema.Schema<A, I>): ObjectPartition<A> => {
      const key = keyOf(partition)
      const decode = decodeStored(schema)
      const encode = Schema.encode(schema)
      const get = Effect.flatMap(readJson(key), (json) => {
        if (Option.isNone(json)) return Effect.succeed(Option.none<A>())
        const decoded = decode(json.value)
        if (Option.isSome(decoded)) return Effect.succeed(decoded)
        return report({ key, reason: "unexpected shape" }).pipe(
          Effect.zipRight(removeRaw(key).pipe(Effect.ignore)),
          Effect.as(Option.none<A>())
        )
      })
      const set = (value: A) =>
        encode(value).pipe(
          Effect.mapError((cause) => new FailedToWriteToLocalStorage({ key, cause })),
          Effect.flatMap((encoded) => writeRaw(key, encoded))
        )
      return {
        key,
        get,
        set,
        modify: (f) =>
          lock.withPermits(1)(
            Effect.flatMap(get, (current) => {
              const [b, next] = f(current)
              return Effect.as(set(next), b)
            })
          ),
        clear: removeRaw(key)
      }
    }

    /**
     * `idOf`: where an entry names its own key (a request, a response: its interactionId), an entry stored under
     * another key is unreadable data, reported and left out (it would answer the request it names).
     */
    const keyedPartition = <A, I>(
      partition: PartitionName,
      schema: Schema.Schema<A, I>,
      idOf?: (entry: A) => string
    ): KeyedPartition<A> => {
      const key = keyOf(partition)
      const decodeEntry = decodeStored(schema)
      const encodeEntry = Schema.encode(schema)
      const getAll: Effect.Effect<Readonly<Record<string, A>>, FailedToReadFromLocalStorage> = Effect.gen(function* () {
        const json = yield* readJson(key)
        if (Option.isNone(json)) return {}
        const value = json.value
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          yield* report({ key, reason: "unexpected shape" })
          yield* removeRaw(key).pipe(Effect.ignore)
          return {}
        }
        // No prototype: a stored "__proto__" or "constructor" is an entry like any other, never a built-in.
        const out: Record<string, A> = Object.create(null) as Record<string, A>
        for (const [id, entry] of Object.entries(value)) {
          const decoded = decodeEntry(entry)
          if (Option.isNone(decoded)) yield* report({ key, entry: id, reason: "unexpected shape" })
          else if (idOf !== undefined && idOf(decoded.value) !== id)
            yield* report({ key, entry: id, reason: "stored under another key than its own id" })
          else out[id] = decoded.value
        }
        return out
      })
      const writeAll = (items: Readonly<Record<string, A>>) =>
        Effect.forEach(Object.entries(items), ([id, item]) =>
          Effect.map(encodeEntry(item), (e) => [id, e] as const)
        ).pipe(
          Effect.mapError((cause) => new FailedToWriteToLocalStorage({ key, cause })),
          Effect.flatMap((entries) => writeRaw(key, Object.fromEntries(entries)))
        )
      return {
        key,
        getAll,
        getById: (id) =>
          Effect.map(getAll, (all) => (Object.hasOwn(all, id) ? Option.fromNullable(all[id]) : Option.none())),
        setItems: (items, keep) =>
          lock.withPermits(1)(
            Effect.flatMap(getAll, (all) => {
              // Newest last: an entry written again moves to the end.
              const rest = Object.entries(all).filter(([id]) => !Object.hasOwn(items, id))
              const merged = [...rest, ...Object.entries(items)]
              return writeAll(Object.fromEntries(keep === undefined ? merged : merged.slice(-Math.max(0, keep))))
            })
          ),
        patchItem: (id, patch) =>
          lock.withPermits(1)(
            Effect.gen(function* () {
              const all = yield* getAll
              const current = Object.hasOwn(all, id) ? all[id] : undefined
              if (current === undefined) {
                return yield* new PatchingStateFailed({ key, message: `no entry ${id} to patch` })
              }
              const next = patch(current)
              yield* writeAll({ ...all, [id]: next })
              return next
            })
          ),
        removeItem: (id) =>
          lock.withPermits(1)(
            Effect.flatMap(getAll, (all) => writeAll(Object.fromEntries(Object.entries(all).filter(([k]) => k !== id))))
          ),
        clear: removeRaw(key)
      }
    }

    const state = objectPartition("state", RdtState)

    return {
      /** Every report of unreadable data that was reset, oldest first. */
      corruptions: corruptions.changes,
      getCorruptions: SubscriptionRef.get(corruptions),
      state,
      /** The state, or the default state when there is none. */
      getState: Effect.map(
        state.get,
        Option.getOrElse(() => defaultRdtState)
      ),
      /** Merges into the stored state; `PatchingStateFailed` when there is no state yet (as the official toolkit). */
      patchState: (patch: Partial<RdtState>) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            const current = yield* state.get
            if (Option.isNone(current)) return yield* new PatchingStateFailed({ key: state.key })
            const next = { ...current.value, ...patch }
            yield* state.set(next)
            return next
          })
        ),
      requests: keyedPartition("requests", RequestItem, (item) => item.interactionId),
      walletResponses: keyedPartition("walletResponses", WalletInteractionResponse, (r) => r.interactionId),
      sessions: keyedPartition("sessions", Session),
      identities: keyedPartition("identities", Identity),
      connectorExtension: objectPartition("connectorExtension", ConnectorExtensionState)
    } as const
  })
}) {
  /** Over an in-memory KeyValueStore; needs `ToolkitConfig`. */
  static readonly Test: Layer.Layer<Storage, never, ToolkitConfig> = Storage.Default.pipe(
    Layer.provide(KeyValueStore.layerMemory)
  )
}
