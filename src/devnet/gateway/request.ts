/**
 * Request decoding shared by the API groups: the Gateway's mixins (`at_ledger_state`, cursor paging), the body
 * decoder that answers `InvalidRequestError` with one validation error per issue, and the opaque cursors.
 */
import { Effect, ParseResult, Schema } from "effect"
import { type GatewayFailure, invalidField, invalidRequest } from "./failure"

export const opt = <A, I, R>(schema: Schema.Schema<A, I, R>) => Schema.optionalWith(schema, { nullable: true })

export const LedgerStateSelector = Schema.Struct({
  state_version: opt(Schema.Int),
  timestamp: opt(Schema.String),
  epoch: opt(Schema.Int),
  round: opt(Schema.Int)
})
export type LedgerStateSelector = typeof LedgerStateSelector.Type

export const Paging = {
  at_ledger_state: opt(LedgerStateSelector),
  cursor: opt(Schema.String),
  limit_per_page: opt(Schema.Int)
}

export const Address = Schema.String
export const AggregationLevel = Schema.Literal("Global", "Vault")

export const decodeBody = <A, I>(schema: Schema.Schema<A, I>, body: unknown): Effect.Effect<A, GatewayFailure> =>
  Schema.decodeUnknown(schema, { errors: "all" })(body ?? {}).pipe(
    Effect.mapError((e) =>
      invalidRequest(
        ParseResult.ArrayFormatter.formatErrorSync(e).map((issue) => ({
          path: issue.path.length === 0 ? "$" : issue.path.map(String).join("."),
          errors: [issue.message]
        }))
      )
    )
  )

// ---------------------------------------------------------------------------------------------------------------
// Cursors: opaque base64 JSON, as the real Gateway's `{"o":100}`

export const OffsetCursor = Schema.parseJson(Schema.Struct({ o: Schema.NonNegativeInt }))
export const StreamCursor = Schema.parseJson(Schema.Struct({ v: Schema.NonNegativeInt }))

export const encodeCursor = (value: object): string => Buffer.from(JSON.stringify(value), "utf8").toString("base64")

export const decodeCursor = <A>(schema: Schema.Schema<A, string>, cursor: string): Effect.Effect<A, GatewayFailure> =>
  Schema.decodeUnknown(schema)(Buffer.from(cursor, "base64").toString("utf8")).pipe(
    Effect.mapError(() => invalidField("cursor", "Invalid cursor"))
  )
