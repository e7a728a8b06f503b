/** What settlement answers when it cannot settle a transaction, and the refund texts it writes. */
import { Schema } from "effect"
import type { GatewayError } from "../../gateway/index"

/** The transaction is not (or not yet) on the ledger. */
export class SwapNotFound extends Schema.TaggedError<SwapNotFound>()("SwapNotFound", { txHash: Schema.String }) {
  override get message(): string {
    return `Transaction ${this.txHash} is not committed on the ledger`
  }
}

/** The transaction is not a swap deposit the server accepts (failed, wrong account, no route…). Nothing is paid. */
export class SwapRefused extends Schema.TaggedError<SwapRefused>()("SwapRefused", {
  txHash: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

/** The ledger could not be read or written just now; the swap stays where it is and is resumed later. */
export class SettlementUnavailable extends Schema.TaggedError<SettlementUnavailable>()("SettlementUnavailable", {
  reason: Schema.String
}) {
  override get message(): string {
    return this.reason
  }
}

export type SettlementError = SwapNotFound | SwapRefused | SettlementUnavailable

/** `SettlementUnavailable` for a ledger call `what` that failed. */
export const unavailable =
  (what: string) =>
  (e: GatewayError | { readonly message: string }): SettlementUnavailable =>
    new SettlementUnavailable({ reason: `${what}: ${e.message}` })

/** Why a deposit decided while the exchange is in maintenance is refunded. */
export const IN_MAINTENANCE = "The exchange is in maintenance: the deposit is refunded."

/** Why a deposit of a token the exchange does not list is refunded. */
export const unsupportedToken = (resource: string): string =>
  `The token ${resource} is not one the exchange swaps: the deposit is refunded.`

/** The spec's words for a swap refused for liquidity (§8). */
export const LOW_LIQUIDITY = "Swap unavailable due to low liquidity. Please wait for rebalancing."
