// Stage 1 of the live half (see shell/islands.tsx): Effect's core, evaluated in a task of its own. A few members are
// named rather than the namespaces re-exported, so the bundle keeps tree-shaking them.
import { Effect, Layer, ManagedRuntime } from "effect"

export const stage = [Effect.void, Layer.empty, ManagedRuntime.make] as const
