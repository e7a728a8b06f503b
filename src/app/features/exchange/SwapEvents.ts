import { Effect, PubSub, Stream } from "effect"
import type { TransactionRecord } from "../../../exchange/api"

/** A swap the user signed; tracking may still be going on. */
export interface SwapSubmitted {
  readonly txHash: string
  readonly account: string
  readonly from: string
  readonly to: string
  readonly amountIn: string
  /**
   * The account's transactions as the swap card's tracking last read them (spec §7: up to 3 reads, until the swap is
   * listed), with or without this swap; absent when no read succeeded. The page shows them instead of reading again.
   */
  readonly seen?: ReadonlyArray<TransactionRecord>
  /** An atomic swap: committed in the one transaction `txHash`, which paid `amountOut` (the quoted output). */
  readonly atomic?: { readonly amountOut: string }
}

/**
 * What happened in the swap card, for the rest of the page: 'Your Transactions' reloads after a swap, and the
 * 'Latest Transaction' dialog opens with it.
 */
export class SwapEvents extends Effect.Service<SwapEvents>()("hswap/SwapEvents", {
  accessors: true,
  scoped: Effect.gen(function* () {
    const hub = yield* PubSub.unbounded<SwapSubmitted>()
    return {
      publish: (event: SwapSubmitted) => PubSub.publish(hub, event),
      submitted: Stream.fromPubSub(hub) as Stream.Stream<SwapSubmitted>
    } as const
  })
}) {}
