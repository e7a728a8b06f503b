/** The first stage of the live chunk (see runtime/inStages.ts): Effect's data types, under everything else. */
// Each module by its own path, so that the build's stage files (build/liveStageChunks.ts) see which it needs.
import * as Arr from "effect/Array"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"

export const stage = [
  Arr.empty,
  Chunk.empty,
  Duration.zero,
  Either.right,
  HashMap.empty,
  HashSet.empty,
  Option.none
] as const
