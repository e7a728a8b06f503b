/** The first stage of the live chunk (see runtime/inStages.ts): Effect's data types, under everything else. */
import { Array as Arr, Chunk, Duration, Either, HashMap, HashSet, Option } from "effect"

export const stage = [
  Arr.empty,
  Chunk.empty,
  Duration.zero,
  Either.right,
  HashMap.empty,
  HashSet.empty,
  Option.none
] as const
