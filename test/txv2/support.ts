import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Either } from "effect"
import { fromHex } from "../../src/txv2"

export const fixturesDir = fileURLToPath(new URL("../../../shared/fixtures/radix-v2", import.meta.url))

export const hexBytes = (hex: string): Uint8Array => {
  const b = fromHex(hex.trim())
  if (b === undefined) throw new Error(`not hex: ${hex.slice(0, 20)}`)
  return b
}

export const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${String(e.left)}`)
  return e.right
}

interface IdHex {
  readonly bech32m: string
  readonly hex: string
}
interface Header {
  readonly network_id: number
  readonly start_epoch_inclusive: string
  readonly end_epoch_exclusive: string
  readonly min_proposer_timestamp_inclusive: string | null
  readonly max_proposer_timestamp_exclusive: string | null
  readonly intent_discriminator: string
}
export interface ScenarioMeta {
  readonly stated_upstream: {
    readonly transaction_tracker_intent_hashes: ReadonlyArray<{ readonly hex: string; readonly status: string }>
    readonly subintent_ids_named_in_manifests: Readonly<Record<string, ReadonlyArray<string>>>
  }
  readonly derived_here: {
    readonly transaction_intent_hash: IdHex
    readonly signed_transaction_intent_hash: IdHex
    readonly notarized_transaction_hash: IdHex
    readonly root_intent_header: Header
    readonly signature_counts: {
      readonly transaction_intent_signatures: number
      readonly non_root_subintent_signature_batches: ReadonlyArray<number>
    }
    readonly non_root_subintents: ReadonlyArray<{
      readonly index_in_non_root_subintents: number
      readonly manifest_file: string
      readonly subintent_hash: IdHex
      readonly intent_header: Header
      readonly children: ReadonlyArray<string>
      readonly standalone_subintent_payload_hex: string
    }>
  }
}

export interface Scenario {
  readonly name: string
  readonly dir: string
  readonly payload: Uint8Array
  readonly meta: ScenarioMeta
  readonly manifests: Readonly<Record<string, string>>
}

export const scenarios: ReadonlyArray<Scenario> = readdirSync(`${fixturesDir}/scenarios`)
  .filter((d) => /^\d{3}--/.test(d))
  .sort()
  .map((name) => {
    const dir = `${fixturesDir}/scenarios/${name}`
    const manifests: Record<string, string> = {}
    for (const f of readdirSync(dir)) if (f.endsWith(".rtm")) manifests[f] = readFileSync(`${dir}/${f}`, "utf8")
    return {
      name,
      dir,
      payload: hexBytes(readFileSync(`${dir}/payload.hex`, "utf8")),
      meta: JSON.parse(readFileSync(`${dir}/meta.json`, "utf8")) as ScenarioMeta,
      manifests
    }
  })

interface UnitVector {
  readonly payload_hex: string
  readonly expected: Readonly<Record<string, IdHex | ReadonlyArray<IdHex>>>
}
export const unitVectors = JSON.parse(
  readFileSync(`${fixturesDir}/unit-vectors/transaction_v2_vectors.json`, "utf8")
) as readonly [UnitVector, UnitVector]

/** `Ed25519PrivateKey::from_u64(n)`: a 32-byte seed of zeros with `n` big-endian in its last 8 bytes. */
export const keyFromU64 = (n: number): Uint8Array => {
  const seed = new Uint8Array(32)
  new DataView(seed.buffer).setBigUint64(24, BigInt(n))
  return seed
}
