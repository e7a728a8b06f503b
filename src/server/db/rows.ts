/**
 * The rows of the exchange server's tables as the repositories read and write them (`Schema` for decoding), and the
 * swap states.
 */
import { Schema } from "effect"

/** received → paying → completed | failed → refunding → refunded. */
export const SwapState = Schema.Literal("received", "paying", "completed", "failed", "refunding", "refunded")
export type SwapState = typeof SwapState.Type

export const TERMINAL_STATES: ReadonlySet<SwapState> = new Set(["completed", "refunded"])

export const SwapRow = Schema.Struct({
  tx_in: Schema.String,
  sender: Schema.String,
  resource_in: Schema.String,
  symbol_in: Schema.String,
  amount_in: Schema.String,
  resource_out: Schema.NullOr(Schema.String),
  symbol_out: Schema.NullOr(Schema.String),
  amount_out: Schema.NullOr(Schema.String),
  rate: Schema.NullOr(Schema.String),
  usd_in: Schema.NullOr(Schema.String),
  state: SwapState,
  payout_intent: Schema.NullOr(Schema.String),
  payout_hex: Schema.NullOr(Schema.String),
  refund_intent: Schema.NullOr(Schema.String),
  refund_hex: Schema.NullOr(Schema.String),
  refund_attempts: Schema.Number,
  message: Schema.NullOr(Schema.String),
  route_text: Schema.NullOr(Schema.String),
  state_version_in: Schema.NullOr(Schema.Number),
  created_ms: Schema.Number,
  updated_ms: Schema.Number,
  finalized_ms: Schema.NullOr(Schema.Number),
  /** The quote reference the deposit's message named, as written (length capped), or null. */
  quote_id: Schema.NullOr(Schema.String),
  /** What the quote promised for this deposit, in to-token units, once settlement read the quote. */
  quoted_out: Schema.NullOr(Schema.String),
  /** 99% of `quoted_out`: the least an expired quote may pay. */
  min_received: Schema.NullOr(Schema.String),
  /** When the ledger committed the deposit (epoch ms), which decides whether the quote was still binding. */
  committed_ms: Schema.NullOr(Schema.Number)
})
export type SwapRow = typeof SwapRow.Type

/** A binding quote as stored: the terms `GET /api/liveprice` returned, and the deposit that claimed it. */
export const QuoteRow = Schema.Struct({
  id: Schema.String,
  symbol_in: Schema.String,
  symbol_out: Schema.String,
  /** `effective_rate`, exactly the string returned. */
  rate: Schema.String,
  /** The 0.10 USD fee in to-token units, rounded up to the to-token's decimals. */
  fee_out: Schema.String,
  min_in: Schema.String,
  max_in: Schema.String,
  price_in: Schema.String,
  price_out: Schema.String,
  issued_ms: Schema.Number,
  expires_ms: Schema.Number,
  used_by: Schema.NullOr(Schema.String)
})
export type QuoteRow = typeof QuoteRow.Type

export interface NewSwap {
  readonly tx_in: string
  readonly sender: string
  readonly resource_in: string
  readonly symbol_in: string
  readonly amount_in: string
  readonly route_text: string | null
  readonly state_version_in: number
  readonly quote_id: string | null
  readonly committed_ms: number | null
}

/** Fields a transition may set alongside the new state. */
export interface SwapChanges {
  readonly resource_out?: string
  readonly symbol_out?: string
  readonly amount_out?: string
  readonly rate?: string
  readonly usd_in?: string
  readonly payout_intent?: string | null
  readonly payout_hex?: string | null
  readonly refund_intent?: string | null
  readonly refund_hex?: string | null
  readonly refund_attempts?: number
  readonly message?: string | null
  readonly finalized_ms?: number
  readonly quoted_out?: string
  readonly min_received?: string
}
