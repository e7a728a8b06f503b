import { KeyValueStore } from "@effect/platform"
import { Context, Effect, Either, Layer, Option, Schema } from "effect"

/** A stored flag's text: JSON `true` or `false` (what `"true"` and `"false"` are). */
const Flag = Schema.parseJson(Schema.Boolean)
const decodeFlag = Schema.decodeUnknownEither(Flag)

/**
 * Reads a stored flag: true only when the store holds `true`. Nothing stored is false; a value that is not a flag
 * (edited by hand, written by another version) is false too, logged and removed, so it is reported once; a store that
 * cannot be read (storage blocked) is false, logged. Never fails.
 */
export const readFlag = (kv: KeyValueStore.KeyValueStore, key: string): Effect.Effect<boolean> =>
  kv.get(key).pipe(
    Effect.flatMap((stored) => {
      if (Option.isNone(stored)) return Effect.succeed(false)
      const decoded = decodeFlag(stored.value)
      if (Either.isRight(decoded)) return Effect.succeed(decoded.right)
      return Effect.logWarning(`the stored '${key}' is not a flag; it is ignored and removed`, stored.value).pipe(
        Effect.zipRight(kv.remove(key)),
        Effect.as(false)
      )
    }),
    Effect.catchAll((e) => Effect.logWarning(`could not read '${key}'`, e).pipe(Effect.as(false)))
  )

/** Stores a flag as `true`; a store that cannot be written is logged. Never fails. */
export const setFlag = (kv: KeyValueStore.KeyValueStore, key: string): Effect.Effect<void> =>
  kv.set(key, "true").pipe(Effect.catchAll((e) => Effect.logWarning(`could not store '${key}'`, e)))

/**
 * The browser's sessionStorage, as a KeyValueStore of its own: what holds for one visit (the tab's session), where the
 * app's `KeyValueStore` (localStorage) holds across visits.
 */
export class VisitStore extends Context.Tag("hswap/VisitStore")<VisitStore, KeyValueStore.KeyValueStore>() {
  /** In memory (tests, and a platform without sessionStorage). */
  static readonly memory: Layer.Layer<VisitStore> = Layer.effect(VisitStore, KeyValueStore.KeyValueStore).pipe(
    Layer.provide(KeyValueStore.layerMemory)
  )
}
