/** A stage of the live chunk (see runtime/inStages.ts): Schema and its AST and parser. */
import { Schema } from "effect"

export const stage = [Schema.String, Schema.decodeUnknownEither] as const
