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
   * The account's transactions as the swap card's tracking last read them, when they already list this swap: the
   * page shows them instead of asking the exchange again.
   */
  readonly seen?: ReadonlyArray<TransactionRecord>
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
