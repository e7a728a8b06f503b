import { Schema } from "effect"

/**
 * The exchange API's response shapes (spec app §3 and §7), shared by the app's client and the server. Decoders accept
 * absent and null for optional fields and ignore unknown keys.
 */

const OptionalNullable = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { nullable: true })

/** Numbers may come as JSON numbers or numeric strings. */
export const Numeric = Schema.Union(Schema.Number, Schema.NumberFromString)

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

export const StatsResponse = Schema.Struct({
  total_volume: Numeric,
  active_users: Numeric,
  tvl: Numeric,
  total_transactions: Numeric
})
export type StatsResponse = typeof StatsResponse.Type
