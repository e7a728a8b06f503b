/** A stage of the live chunk (see runtime/inStages.ts): Effect's core, the runtime and layers. */
import { Effect, Layer, ManagedRuntime } from "effect"

export const stage = [Effect.void, Layer.empty, ManagedRuntime.make] as const
