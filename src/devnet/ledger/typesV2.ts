/** What the V2 validator hands the V2 executor: apart from both, so that neither imports the other for it. */
import type { IntentCoreV2, PublicKey } from "../../txv2/index"

/** One intent of a validated V2 transaction: the root is index 0, the subintents follow in payload order. */
export interface IntentV2 {
  /** `txid_…` for the root, `subtxid_…` for a subintent. */
  readonly id: string
  readonly core: IntentCoreV2
  readonly isRoot: boolean
  /** Indices (into the intents) of this intent's children, in `NamedIntent` order. */
  readonly children: ReadonlyArray<number>
  readonly parent: number | undefined
  /** The public keys whose signatures over this intent's hash verified (and the notary's, for a signatory root). */
  readonly signers: ReadonlyArray<PublicKey>
}

export interface ValidatedTransactionV2 {
  readonly intentHash: string
  readonly payloadHash: string
  readonly intents: ReadonlyArray<IntentV2>
  readonly startEpochInclusive: number
  readonly endEpochExclusive: number
  /** Seconds since the Unix epoch; undefined for no bound. */
  readonly minTimestampInclusive: number | undefined
  readonly maxTimestampExclusive: number | undefined
  readonly rawHex: string
}
