/** A stage of the live chunk (see runtime/inStages.ts): Effect's core, the runtime and layers. */
// By path, as in data.ts.
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"

export const stage = [Effect.void, Layer.empty, ManagedRuntime.make] as const
