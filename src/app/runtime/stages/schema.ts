// Stage 2 of the live half (see shell/islands.tsx): Schema.
import { Schema } from "effect"

export const stage = [Schema.Struct, Schema.TaggedError, Schema.decodeUnknownEither] as const
