/**
 * `Faults`: named points of a payout where a test may stop a replica (the multi-replica tests kill it there). A
 * `Context.Reference`: production provides nothing and gets the no-op default; only tests provide an implementation
 * (`test/server/faults.ts`).
 */
import { Context, Effect } from "effect"

export const FAULT_POINTS = ["claimed", "stored", "submitted"] as const
/** After the claim; after the payout's intent is stored; after the payout is submitted. */
export type FaultPoint = (typeof FAULT_POINTS)[number]

export interface FaultsShape {
  /** Settlement of the swap `key` reached `point`. */
  readonly reach: (point: FaultPoint, key: string) => Effect.Effect<void>
}

export class Faults extends Context.Reference<Faults>()("hswap/server/Faults", {
  defaultValue: (): FaultsShape => ({ reach: () => Effect.void })
}) {}
