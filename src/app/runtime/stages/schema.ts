/** A stage of the live chunk (see runtime/inStages.ts): Schema and its AST and parser. */
// By path, as in data.ts.
import * as Schema from "effect/Schema"

export const stage = [Schema.String, Schema.decodeUnknownEither] as const
