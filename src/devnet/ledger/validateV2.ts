/**
 * The V2 validator: a notarized V2 transaction (SBOR prefix `4d220c`, `TransactionDiscriminator::V2Notarized`)
 * decoded with txv2 and statically validated as the network does (radix-transactions `TransactionValidator` for
 * V2): every intent on this network; the intent tree (each subintent used exactly once as a child, reachable from
 * the root, within the depth limit, yields to each child matching that child's yields to its parent); the manifest
 * rules (YIELD_TO_PARENT and VERIFY_PARENT only in subintents, every subintent ending with YIELD_TO_PARENT, child
 * indices in range); signatures (one batch per subintent over its hash, root signatures over the intent hash, the
 * notary over the signed intent hash); and a non-empty intersection of every intent's epoch and timestamp windows.
 * What fails here is a `Static` rejection, never tracked. The rejection texts are the engine's Debug forms.
 */
import { Effect, Either } from "effect"
import {
  type InstructionV2,
  type IntentCoreV2,
  type NotarizedTransactionV2,
  type PublicKey,
  decodeNotarizedTransactionV2,
  notarizedTransactionHashes,
  notarizedTransactionId,
  subintentId,
  toHex,
  transactionIntentId,
  verifyNotarizedTransactionV2
} from "../../txv2/index"
import { DEVNET_NETWORK_ID } from "./address"
import { executeV2 } from "./executeV2"
import type { TransactionFormat } from "./payload"
import type { IntentV2, ValidatedTransactionV2 } from "./typesV2"
import { TransactionRejected } from "./transaction"
import { nodeEd25519Verifies } from "../../server/ed25519"

export const NOTARIZED_V2_PREFIX = "4d220c"

/** The network's limit on how deep a subintent sits under the root (`max_subintent_depth`, cuttlefish). */
export const MAX_SUBINTENT_DEPTH = 3
/** The network's limit on subintents in one transaction (`max_subintents_per_transaction`). */
export const MAX_SUBINTENTS = 32

export type { IntentV2, ValidatedTransactionV2 } from "./typesV2"

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/

/** The location part of an engine validation error, as its Debug form prints it. */
const location = (intents: ReadonlyArray<{ id: string; isRoot: boolean }>, index: number): string => {
  const intent = intents[index]
  if (intent === undefined) return "Unlocatable"
  return intent.isRoot
    ? `RootTransactionIntent(${intent.id})`
    : `NonRootSubintent(SubintentIndex(${index - 1}), ${intent.id})`
}

const rejected = (reason: string, hashes?: { intentHash: string; payloadHash: string }) =>
  new TransactionRejected({ reason: `Invalid transaction: ${reason}`, ...(hashes ?? {}) })

const yieldsToChild = (instructions: ReadonlyArray<InstructionV2>, child: number): number =>
  instructions.filter((i) => i.kind === "YieldToChild" && i.childIndex === child).length

export const validateTransactionV2 = (hex: string): Either.Either<ValidatedTransactionV2, TransactionRejected> =>
  Either.gen(function* () {
    if (hex.length === 0 || !HEX_RE.test(hex)) {
      return yield* Either.left(
        new TransactionRejected({ reason: "Invalid transaction: the payload is not a non-empty hex string" })
      )
    }
    const bytes = Uint8Array.from(Buffer.from(hex, "hex"))
    const decoded = decodeNotarizedTransactionV2(bytes)
    if (Either.isLeft(decoded)) {
      // The Gateway answers an undecodable payload as it does for V1 ("Expected notarized transaction" is V1's);
      // the decoder's own reason says where the bytes went wrong.
      return yield* Either.left(
        rejected(`PrepareError(DecodeError(${decoded.left.reason} at byte ${decoded.left.offset}))`)
      )
    }
    const tx: NotarizedTransactionV2 = decoded.right
    const hashes = yield* Either.mapLeft(notarizedTransactionHashes(tx), (e) => rejected(`EncodeError(${e.reason})`))
    const txIntent = tx.signedTransactionIntent.transactionIntent
    const intentHash = transactionIntentId(hashes.transactionIntentHash, DEVNET_NETWORK_ID)
    const payloadHash = notarizedTransactionId(hashes.notarizedTransactionHash, DEVNET_NETWORK_ID)
    const ids = { intentHash, payloadHash }
    const subIds = hashes.nonRootSubintentHashes.map((h) => subintentId(h, DEVNET_NETWORK_ID))
    const cores: Array<IntentCoreV2> = [txIntent.rootIntentCore, ...txIntent.nonRootSubintents.map((s) => s.intentCore)]
    const named = [{ id: intentHash, isRoot: true }, ...subIds.map((id) => ({ id, isRoot: false }))]

    // Headers: every intent on this network, each window well-formed.
    for (const [i, core] of cores.entries()) {
      const h = core.header
      const where = location(named, i)
      if (h.networkId !== DEVNET_NETWORK_ID)
        return yield* Either.left(
          rejected(`IntentValidationError(${where}, HeaderValidationError(InvalidNetwork))`, ids)
        )
      if (h.endEpochExclusive <= h.startEpochInclusive || h.endEpochExclusive - h.startEpochInclusive > 8640n)
        return yield* Either.left(
          rejected(`IntentValidationError(${where}, HeaderValidationError(InvalidEpochRange))`, ids)
        )
      if (
        h.minProposerTimestampInclusive !== null &&
        h.maxProposerTimestampExclusive !== null &&
        h.maxProposerTimestampExclusive <= h.minProposerTimestampInclusive
      )
        return yield* Either.left(
          rejected(`IntentValidationError(${where}, HeaderValidationError(InvalidTimestampRange))`, ids)
        )
    }
    if (txIntent.transactionHeader.tipBasisPoints > 1_000_000)
      return yield* Either.left(
        rejected(`IntentValidationError(${location(named, 0)}, HeaderValidationError(InvalidTip))`, ids)
      )

    // The intent tree.
    if (subIds.length > MAX_SUBINTENTS)
      return yield* Either.left(rejected("SubintentStructureError(Unlocatable, TooManySubintents)", ids))
    const indexOf = new Map<string, number>()
    for (const [i, id] of subIds.entries()) {
      if (indexOf.has(id))
        return yield* Either.left(
          rejected(`SubintentStructureError(${location(named, i + 1)}, DuplicateSubintent)`, ids)
        )
      indexOf.set(id, i + 1)
    }
    const parents = new Map<number, number>()
    const children: Array<Array<number>> = cores.map(() => [])
    for (const [i, core] of cores.entries()) {
      for (const child of core.children) {
        const childId = subintentId(child, DEVNET_NETWORK_ID)
        const at = indexOf.get(childId)
        if (at === undefined)
          return yield* Either.left(
            rejected(
              `SubintentStructureError(${location(named, i)}, ChildSubintentNotIncludedInTransaction(${childId}))`,
              ids
            )
          )
        if (parents.has(at))
          return yield* Either.left(
            rejected(`SubintentStructureError(${location(named, at)}, SubintentHasMultipleParents)`, ids)
          )
        parents.set(at, i)
        children[i]?.push(at)
      }
    }
    for (let i = 1; i < cores.length; i++) {
      // Parents were assigned once each, so following them from a reachable subintent ends at the root.
      let depth = 0
      let at: number | undefined = i
      const seen = new Set<number>()
      while (at !== undefined && at !== 0) {
        if (seen.has(at)) break
        seen.add(at)
        at = parents.get(at)
        depth += 1
      }
      if (at !== 0)
        return yield* Either.left(
          rejected(
            `SubintentStructureError(${location(named, i)}, SubintentIsNotReachableFromTheTransactionIntent)`,
            ids
          )
        )
      if (depth > MAX_SUBINTENT_DEPTH)
        return yield* Either.left(
          rejected(`SubintentStructureError(${location(named, i)}, SubintentExceedsMaxDepth)`, ids)
        )
    }

    // Manifest rules.
    for (const [i, core] of cores.entries()) {
      const where = location(named, i)
      const manifestError = (inner: string) =>
        Either.left(rejected(`IntentValidationError(${where}, ManifestValidationError(${inner}))`, ids))
      for (const ins of core.instructions) {
        if (i === 0 && (ins.kind === "YieldToParent" || ins.kind === "VerifyParent"))
          return yield* manifestError("InstructionNotSupportedInTransactionIntent")
        if (ins.kind === "YieldToChild" && ins.childIndex >= core.children.length)
          return yield* manifestError(`ChildIntentNotRegistered(NamedIntent(${ins.childIndex}))`)
      }
      if (i > 0 && core.instructions[core.instructions.length - 1]?.kind !== "YieldToParent")
        return yield* manifestError("SubintentDoesNotEndWithYieldToParent")
    }
    for (const [i, core] of cores.entries()) {
      for (const [n, child] of (children[i] ?? []).entries()) {
        const childCore = cores[child]
        const toParent = childCore?.instructions.filter((x) => x.kind === "YieldToParent").length ?? 0
        if (yieldsToChild(core.instructions, n) !== toParent)
          return yield* Either.left(
            rejected(
              `SubintentStructureError(${location(named, child)}, MismatchingYieldChildAndYieldParentCountsForSubintent)`,
              ids
            )
          )
      }
    }

    // Signatures.
    const batches = tx.signedTransactionIntent.nonRootSubintentSignatures
    if (batches.length !== subIds.length)
      return yield* Either.left(
        rejected("SignatureValidationError(AcrossTransaction, IncorrectNumberOfSubintentSignatureBatches)", ids)
      )
    const verified = verifyNotarizedTransactionV2(tx, nodeEd25519Verifies)
    if (Either.isLeft(verified)) {
      const which = verified.left._tag === "TxV2SignatureError" ? verified.left.which : ""
      const batch = /^nonRootSubintentSignatures\[(\d+)\]/.exec(which)
      const reason =
        which === "notary"
          ? `SignatureValidationError(${location(named, 0)}, InvalidNotarySignature)`
          : batch !== null
            ? `SignatureValidationError(${location(named, Number(batch[1]) + 1)}, InvalidIntentSignature)`
            : `SignatureValidationError(${location(named, 0)}, InvalidIntentSignature)`
      return yield* Either.left(rejected(reason, ids))
    }
    const header = txIntent.transactionHeader
    const rootSigners: Array<PublicKey> = [...verified.right.transactionIntentSigners]
    if (header.notaryIsSignatory) {
      const notaryKey = toHex(header.notaryPublicKey.bytes)
      if (rootSigners.some((s) => toHex(s.bytes) === notaryKey))
        return yield* Either.left(
          rejected(`SignatureValidationError(${location(named, 0)}, NotaryIsSignatorySoShouldNotAlsoBeASigner)`, ids)
        )
      rootSigners.push(header.notaryPublicKey)
    }
    const signerSets: Array<ReadonlyArray<PublicKey>> = [rootSigners, ...verified.right.nonRootSigners]
    for (const [i, signers] of signerSets.entries()) {
      const keys = signers.map((s) => toHex(s.bytes))
      if (new Set(keys).size !== keys.length)
        return yield* Either.left(rejected(`SignatureValidationError(${location(named, i)}, DuplicateSigner)`, ids))
    }

    // The windows' intersection.
    let start = 0n
    let end = BigInt(Number.MAX_SAFE_INTEGER)
    let minTs: bigint | undefined
    let maxTs: bigint | undefined
    for (const core of cores) {
      const h = core.header
      if (h.startEpochInclusive > start) start = h.startEpochInclusive
      if (h.endEpochExclusive < end) end = h.endEpochExclusive
      const lo = h.minProposerTimestampInclusive
      const hi = h.maxProposerTimestampExclusive
      if (lo !== null && (minTs === undefined || lo > minTs)) minTs = lo
      if (hi !== null && (maxTs === undefined || hi < maxTs)) maxTs = hi
    }
    if (end <= start)
      return yield* Either.left(
        rejected(
          "IntentValidationError(AcrossTransaction, HeaderValidationError(NoValidEpochRangeAcrossAllIntents))",
          ids
        )
      )
    if (minTs !== undefined && maxTs !== undefined && maxTs <= minTs)
      return yield* Either.left(
        rejected(
          "IntentValidationError(AcrossTransaction, HeaderValidationError(NoValidTimestampRangeAcrossAllIntents))",
          ids
        )
      )

    const intents: Array<IntentV2> = cores.map((core, i) => ({
      id: named[i]?.id ?? "",
      core,
      isRoot: i === 0,
      children: children[i] ?? [],
      parent: parents.get(i),
      signers: signerSets[i] ?? []
    }))
    return {
      intentHash,
      payloadHash,
      intents,
      startEpochInclusive: Number(start),
      endEpochExclusive: Number(end),
      minTimestampInclusive: minTs === undefined ? undefined : Number(minTs),
      maxTimestampExclusive: maxTs === undefined ? undefined : Number(maxTs),
      rawHex: hex.toLowerCase()
    } satisfies ValidatedTransactionV2
  })

export const transactionV2: TransactionFormat = {
  format: "V2",
  accepts: (hex) => hex.toLowerCase().startsWith(NOTARIZED_V2_PREFIX),
  validate: (hex) =>
    Effect.suspend(() => validateTransactionV2(hex)).pipe(
      Effect.mapError(
        (e) =>
          new TransactionRejected({
            reason: e.reason,
            ...(e.intentHash === undefined ? {} : { intentHash: e.intentHash }),
            ...(e.payloadHash === undefined ? {} : { payloadHash: e.payloadHash }),
            permanence: "Static"
          })
      ),
      Effect.map((tx) => ({
        format: "V2",
        intentHash: tx.intentHash,
        payloadHash: tx.payloadHash,
        startEpochInclusive: tx.startEpochInclusive,
        endEpochExclusive: tx.endEpochExclusive,
        execute: (view) => executeV2(tx, view)
      }))
    )
}
