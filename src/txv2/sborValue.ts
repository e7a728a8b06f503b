/** A generic Manifest SBOR value payload (prefix 0x4d, then one value), for arguments and tests. */
import type { Either } from "effect"
import type { TxV2DecodeError, TxV2EncodeError } from "./errors"
import { runReader, runWriter } from "./models"
import { MANIFEST_SBOR_PREFIX, type ManifestValue, readValue, writeValue } from "./sbor"

/** Decodes `0x4d` + one Manifest SBOR value, bounded like every payload (size, depth 24, counts). */
export const decodeManifestValue = (bytes: Uint8Array): Either.Either<ManifestValue, TxV2DecodeError> =>
  runReader(bytes, (r) => {
    const at = r.pos
    const prefix = r.byte()
    if (prefix !== MANIFEST_SBOR_PREFIX)
      r.fail(`payload prefix 0x${prefix.toString(16)} is not 0x4d (Manifest SBOR)`, at)
    const v = readValue(r, "value")
    return v
  })

export const encodeManifestValue = (value: ManifestValue): Either.Either<Uint8Array, TxV2EncodeError> =>
  runWriter((w) => {
    w.byte(MANIFEST_SBOR_PREFIX)
    writeValue(w, value)
  })
