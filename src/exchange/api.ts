import { Option, ParseResult, Schema } from "effect"
import { decimalFromNumber, formatPlain, parseLooseDecimal, parseSignedDecimal } from "../lib/decimalText"

/** A quote reference as it travels in the API and in a transaction message: short, URL- and message-safe. */
export const QUOTE_ID_PATTERN = /^q[A-Za-z0-9_-]{6,40}\.[A-Za-z0-9_-]{6,64}$/

/**
 * The exchange API's request and response shapes (spec app §3 and §7), shared by the app's client and the server.
 * Decoders accept absent and null for optional fields and ignore unknown keys.
 *
 * Token amounts and rates travel as decimal strings (exact); USD figures and percentages, which are only displayed,
 * travel as JSON numbers. Decoders accept either form for both.
 */

const OptionalNullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { nullable: true })

/** Numbers may come as JSON numbers or numeric strings. */
export const Numeric = Schema.Union(Schema.Number, Schema.NumberFromString)

/**
 * An exact decimal amount in plain notation ("0.0332666"). Decodes a decimal string as is, or a JSON number to the
 * plain notation of its shortest round-trip form; anything else is refused.
 */
export const DecimalString = Schema.Union(
  Schema.String.pipe(Schema.filter((s) => Option.isSome(parseSignedDecimal(s)), { message: () => "a decimal string" })),
  Schema.transformOrFail(Schema.Number, Schema.String, {
    strict: true,
    decode: (n, _, ast) =>
      Option.match(decimalFromNumber(n), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, n, "a finite number")),
        onSome: (d) => ParseResult.succeed(formatPlain(d))
      }),
    encode: (s, _, ast) =>
      Option.match(parseLooseDecimal(s), {
        onNone: () => ParseResult.fail(new ParseResult.Type(ast, s, "a decimal string")),
        onSome: () => ParseResult.succeed(Number(s))
      })
  })
)

export const BtcPriceResponse = Schema.Struct({
  price: Numeric,
  last_update: OptionalNullable(Schema.Union(Schema.Number, Schema.String)),
  expire: OptionalNullable(Schema.Union(Schema.Number, Schema.String)),
  symbol: OptionalNullable(Schema.String),
  source: OptionalNullable(Schema.String)
})
export type BtcPriceResponse = typeof BtcPriceResponse.Type

/** The failure body of the price call: `{ message }`. */
export const ApiMessage = Schema.Struct({ message: Schema.String })

/** Every 4xx/5xx body of the exchange server: `{ error, message }` (the same text twice, for either reader). */
export const ApiErrorBody = Schema.Struct({ error: Schema.String, message: OptionalNullable(Schema.String) })
export type ApiErrorBody = typeof ApiErrorBody.Type

export const StatsResponse = Schema.Struct({
  total_volume: Numeric,
  active_users: Numeric,
  tvl: Numeric,
  total_transactions: Numeric
})
export type StatsResponse = typeof StatsResponse.Type

/** One entry of `pairs_status`: the USD price of a symbol and whether it is fresh. */
export const PairStatus = Schema.Struct({
  price_available: Schema.Boolean,
  price_usd: OptionalNullable(Numeric),
  /** Epoch seconds. */
  last_update: OptionalNullable(Numeric),
  name: OptionalNullable(Schema.String),
  logo_url: OptionalNullable(Schema.String)
})
export type PairStatus = typeof PairStatus.Type

/** `GET /api/health`. */
export const HealthResponse = Schema.Struct({
  status: Schema.String,
  pairs_status: Schema.Record({ key: Schema.String, value: PairStatus })
})
export type HealthResponse = typeof HealthResponse.Type

/** The `error` texts of a live price for a pair outside the accepted routes (spec §8). */
export const ForbiddenRoute = "Forbidden route"
export const RouteNotAvailable = "Route not available"

/**
 * `GET /api/liveprice/{from}/{to}`. `effective_rate` is to-token units per from-token unit with the spread taken;
 * the limits are 1 USD and 200 USD in from-token units. A pair outside the accepted routes has only `error`.
 */
export const LivePriceResponse = Schema.Struct({
  in_symbol: OptionalNullable(Schema.String),
  out_symbol: OptionalNullable(Schema.String),
  effective_rate: OptionalNullable(DecimalString),
  min_amount_in: OptionalNullable(DecimalString),
  max_amount_in: OptionalNullable(DecimalString),
  error: OptionalNullable(Schema.String),
  /**
   * The binding quote (beyond the spec's fields): a server-signed reference to these terms (pair, rate, fee,
   * limits). A deposit whose message carries it and commits before `quote_expires_at` is paid exactly
   * `quotedOutput(amount, effective_rate, fee_out)`. Absent on a server without binding quotes.
   */
  quote_id: OptionalNullable(Schema.String.pipe(Schema.pattern(QUOTE_ID_PATTERN))),
  /** Epoch seconds (server clock) after which the quote is no longer binding. */
  quote_expires_at: OptionalNullable(Numeric),
  /** How long the quote is binding from the moment it was issued, in seconds (for a countdown free of clock skew). */
  quote_valid_seconds: OptionalNullable(Numeric),
  /** The flat fee (0.10 USD) in to-token units, fixed by the quote. */
  fee_out: OptionalNullable(DecimalString),
  /**
   * True when this server takes a pre-authorisation for the quote (`POST /api/atomic-swap`); absent or false: the
   * deposit flow only.
   */
  atomic: OptionalNullable(Schema.Boolean)
})
export type LivePriceResponse = typeof LivePriceResponse.Type

export const LiquidityAsset = Schema.Struct({
  symbol: Schema.String,
  resource_address: Schema.String,
  amount: DecimalString,
  amount_usd: Numeric,
  allocation_percentage: Numeric,
  decimals: Numeric
})
export type LiquidityAsset = typeof LiquidityAsset.Type

/** `GET /api/liquidity`: the exchange account's vaults, the native token first. */
export const LiquidityResponse = Schema.Struct({
  assets: Schema.Array(LiquidityAsset),
  total_usd_value: Numeric
})
export type LiquidityResponse = typeof LiquidityResponse.Type

/**
 * A swap's status as the app shows it: `pending` (received or paying), `completed`, `failed` (not paid, a refund
 * is under way) or `canceled` (refunded). Other strings may appear and are kept as they are.
 */
export const TransactionStatus = Schema.String
export type TransactionStatus = typeof TransactionStatus.Type

/** A swap record of `GET /api/transactions/...`. `asset_in`/`asset_out` are symbols. */
export const TransactionRecord = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  asset_in: Schema.String,
  asset_out: OptionalNullable(Schema.String),
  amount_in: DecimalString,
  amount_out: OptionalNullable(DecimalString),
  tx_in: Schema.String,
  tx_out: OptionalNullable(Schema.String),
  status: TransactionStatus,
  /** Epoch seconds, once the swap reached a final state. */
  timestamp_finalized: OptionalNullable(Numeric),
  message: OptionalNullable(Schema.String),
  resource_in: OptionalNullable(Schema.String),
  resource_out: OptionalNullable(Schema.String),
  /** The binding quote the deposit named, when it named one. */
  quote_id: OptionalNullable(Schema.String),
  /** What the quote promised for this deposit (quotedOutput at the quote's terms), in `asset_out` units. */
  quoted_amount_out: OptionalNullable(DecimalString),
  /** 99% of the quoted output: below it an expired quote is refunded instead of paid. */
  minimum_received: OptionalNullable(DecimalString),
  /** The refund transaction's intent hash once the deposit was refunded. */
  refund_tx: OptionalNullable(Schema.String),
  /** How the swap settled: `atomic` (one transaction, `tx_in` = `tx_out`) or `deposit` (absent: deposit). */
  flow: OptionalNullable(Schema.String)
})
export type TransactionRecord = typeof TransactionRecord.Type

/** `GET /api/transactions/{account}` and `GET /api/transactions/latest`, newest first. */
export const TransactionsResponse = Schema.Struct({ transactions: Schema.Array(TransactionRecord) })
export type TransactionsResponse = typeof TransactionsResponse.Type

/** The body of `POST /api/swap/{txHash}` (optional: the hash in the path is the one used). */
export const SwapRegistrationRequest = Schema.Struct({ tx_hash: OptionalNullable(Schema.String) })
export type SwapRegistrationRequest = typeof SwapRegistrationRequest.Type

/** The answer to a registration: the swap's record once known, or `pending` while settlement goes on. */
export const SwapRegistrationResponse = Schema.Struct({
  tx_hash: Schema.String,
  status: TransactionStatus,
  transaction: OptionalNullable(TransactionRecord),
  message: OptionalNullable(Schema.String)
})
export type SwapRegistrationResponse = typeof SwapRegistrationResponse.Type

/**
 * `POST /api/atomic-swap`: the wallet's signed pre-authorisation for a binding quote. `amount` is the quoted input
 * the user chose (FROM units); `signed_partial_transaction` is the wallet's `signedPartialTransaction` (hex).
 */
export const AtomicSwapRequest = Schema.Struct({
  quote_id: Schema.String,
  amount: Schema.String,
  signed_partial_transaction: Schema.String
})
export type AtomicSwapRequest = typeof AtomicSwapRequest.Type

/** An atomic swap's state: `submitting` (202), then `committed`, `lapsed` (nothing moved) or `refused` (200). */
export const AtomicSwapState = Schema.Literal("submitting", "committed", "lapsed", "refused")
export type AtomicSwapState = typeof AtomicSwapState.Type

/**
 * The answer of `POST /api/atomic-swap` and `GET /api/atomic-swap/{subintentId}`: the swap keyed by its subintent
 * (`subtxid_…`). Once `committed`, `tx_id` is the one transaction that moved both legs and `amount_out` equals
 * `quoted_out`.
 */
export const AtomicSwapResponse = Schema.Struct({
  subintent_id: Schema.String,
  state: AtomicSwapState,
  account: Schema.String,
  asset_in: Schema.String,
  amount_in: DecimalString,
  asset_out: Schema.String,
  quoted_out: DecimalString,
  amount_out: OptionalNullable(DecimalString),
  tx_id: OptionalNullable(Schema.String),
  /** Epoch ms: the pre-authorisation's last moment; past it, nothing can move. */
  window_end_ms: Numeric,
  message: OptionalNullable(Schema.String)
})
export type AtomicSwapResponse = typeof AtomicSwapResponse.Type
