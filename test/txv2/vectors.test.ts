import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  buildNotarizedTransaction,
  buildSignedPartialTransaction,
  decodeNotarizedTransactionV2,
  decodeSubintentV2,
  decodeTransactionId,
  encodeNotarizedTransactionV2,
  encodeSubintentV2,
  type IntentHeaderV2,
  notarizedTransactionHashes,
  notarizedTransactionId,
  plaintextMessage,
  signedTransactionIntentId,
  subintentHash,
  subintentId,
  toHex,
  transactionIntentId,
  verifyNotarizedTransactionV2
} from "../../src/txv2"
import { hexBytes, keyFromU64, right, scenarios, unitVectors } from "./support"

const [notarizedVector, subintentVector] = unitVectors
const expected = notarizedVector.expected as Record<string, { bech32m: string; hex: string }> & {
  non_root_subintent_hashes: ReadonlyArray<{ bech32m: string; hex: string }>
}

describe("the canonical V2 unit vector (any_transaction.rs v2_notarized_transaction_structure)", () => {
  const header: IntentHeaderV2 = {
    networkId: 242,
    startEpochInclusive: 1n,
    endEpochExclusive: 10n,
    minProposerTimestampInclusive: null,
    maxProposerTimestampExclusive: 0n,
    intentDiscriminator: 0n
  }
  const common = { header, blobs: [hexBytes("00010203"), hexBytes("0506")], message: plaintextMessage("Hello world!") }
  const built = () => {
    const child = right(
      buildSignedPartialTransaction({
        ...common,
        instructions: [{ kind: "YieldToParent", args: { kind: "Tuple", fields: [] } }],
        signers: [{ curve: "Ed25519", secretKey: keyFromU64(42) }]
      })
    )
    return right(
      buildNotarizedTransaction({
        ...common,
        instructions: [{ kind: "YieldToChild", childIndex: 0, args: { kind: "Tuple", fields: [] } }],
        children: [child.model],
        signers: [{ curve: "Ed25519", secretKey: keyFromU64(2313) }],
        notary: { curve: "Ed25519", secretKey: keyFromU64(1337) }
      })
    )
  }

  it("is reproduced byte for byte from its inputs, with its four ids", () => {
    const tx = built()
    expect(toHex(tx.payload)).toBe(notarizedVector.payload_hex)
    expect(tx.payload.length).toBe(600)
    expect(tx.ids.transactionIntent).toBe(expected["transaction_intent_hash"]?.bech32m)
    expect(tx.ids.signedTransactionIntent).toBe(expected["signed_transaction_intent_hash"]?.bech32m)
    expect(tx.ids.notarizedTransaction).toBe(expected["notarized_transaction_hash"]?.bech32m)
    expect(tx.ids.nonRootSubintents).toEqual(expected.non_root_subintent_hashes.map((h) => h.bech32m))
    expect(toHex(tx.hashes.transactionIntentHash)).toBe(expected["transaction_intent_hash"]?.hex)
  })

  it("decodes, re-encodes to the same bytes, and recomputes every id; its signatures verify", () => {
    const bytes = hexBytes(notarizedVector.payload_hex)
    const tx = right(decodeNotarizedTransactionV2(bytes))
    expect(toHex(right(encodeNotarizedTransactionV2(tx)))).toBe(notarizedVector.payload_hex)
    const h = right(notarizedTransactionHashes(tx))
    expect(transactionIntentId(h.transactionIntentHash, 242)).toBe(expected["transaction_intent_hash"]?.bech32m)
    expect(signedTransactionIntentId(h.signedTransactionIntentHash, 242)).toBe(
      expected["signed_transaction_intent_hash"]?.bech32m
    )
    expect(notarizedTransactionId(h.notarizedTransactionHash, 242)).toBe(
      expected["notarized_transaction_hash"]?.bech32m
    )
    expect(h.nonRootSubintentHashes.map((x) => subintentId(x, 242))).toEqual(
      expected.non_root_subintent_hashes.map((x) => x.bech32m)
    )
    const signers = right(verifyNotarizedTransactionV2(tx))
    expect(signers.transactionIntentSigners).toHaveLength(1)
    expect(signers.nonRootSigners.map((b) => b.length)).toEqual([1])
  })

  it("a flipped signature byte fails verification with a typed error naming the signature", () => {
    const bytes = hexBytes(notarizedVector.payload_hex)
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] ?? 0) ^ 1
    const tx = right(decodeNotarizedTransactionV2(bytes))
    const v = verifyNotarizedTransactionV2(tx)
    expect(Either.isLeft(v) && v.left._tag === "TxV2SignatureError" && v.left.which).toBe("notary")
  })

  it("decodes ids back to their hashes", () => {
    for (const [kind, key] of [
      ["transactionIntent", "transaction_intent_hash"],
      ["signedTransactionIntent", "signed_transaction_intent_hash"],
      ["notarizedTransaction", "notarized_transaction_hash"]
    ] as const) {
      const id = right(decodeTransactionId(expected[key]?.bech32m ?? ""))
      expect(id.kind).toBe(kind)
      expect(id.networkId).toBe(242)
      expect(toHex(id.hash)).toBe(expected[key]?.hex)
    }
  })

  it("the derived standalone SubintentV2 payload decodes, re-encodes and hashes to the stated subtxid", () => {
    const s = right(decodeSubintentV2(hexBytes(subintentVector.payload_hex)))
    expect(toHex(right(encodeSubintentV2(s)))).toBe(subintentVector.payload_hex)
    expect(subintentId(right(subintentHash(s)), 242)).toBe(expected.non_root_subintent_hashes[0]?.bech32m)
  })
})

describe.each(scenarios)("scenario $name", (sc) => {
  const tx = right(decodeNotarizedTransactionV2(sc.payload))
  const ti = tx.signedTransactionIntent.transactionIntent
  const meta = sc.meta.derived_here

  it("re-encodes to the same bytes", () => {
    expect(toHex(right(encodeNotarizedTransactionV2(tx)))).toBe(toHex(sc.payload))
  })

  it("has the ids stated upstream and derived in meta.json", () => {
    const h = right(notarizedTransactionHashes(tx))
    expect(transactionIntentId(h.transactionIntentHash, 242)).toBe(meta.transaction_intent_hash.bech32m)
    expect(signedTransactionIntentId(h.signedTransactionIntentHash, 242)).toBe(
      meta.signed_transaction_intent_hash.bech32m
    )
    expect(notarizedTransactionId(h.notarizedTransactionHash, 242)).toBe(meta.notarized_transaction_hash.bech32m)
    expect(h.nonRootSubintentHashes.map(toHex)).toEqual(meta.non_root_subintents.map((s) => s.subintent_hash.hex))
    // The engine's transaction tracker recorded the txid and every committed subintent hash.
    const tracked = sc.meta.stated_upstream.transaction_tracker_intent_hashes.map((t) => t.hex).sort()
    const committed = sc.name.startsWith("007")
      ? [toHex(h.transactionIntentHash)]
      : [toHex(h.transactionIntentHash), ...h.nonRootSubintentHashes.map(toHex)]
    expect(committed.sort()).toEqual(tracked)
    // The subtxids named in the manifests (Intent("subtxid_…")) are among the hashes.
    const named = Object.values(sc.meta.stated_upstream.subintent_ids_named_in_manifests).flat()
    const ids = h.nonRootSubintentHashes.map((x) => subintentId(x, 242))
    for (const id of named) expect(ids).toContain(id)
  })

  it("has the headers, children and signature counts of meta.json", () => {
    const asMeta = (hd: IntentHeaderV2) => ({
      network_id: hd.networkId,
      start_epoch_inclusive: hd.startEpochInclusive.toString(),
      end_epoch_exclusive: hd.endEpochExclusive.toString(),
      min_proposer_timestamp_inclusive: hd.minProposerTimestampInclusive?.toString() ?? null,
      max_proposer_timestamp_exclusive: hd.maxProposerTimestampExclusive?.toString() ?? null,
      intent_discriminator: hd.intentDiscriminator.toString()
    })
    expect(asMeta(ti.rootIntentCore.header)).toEqual(meta.root_intent_header)
    expect(tx.signedTransactionIntent.transactionIntentSignatures).toHaveLength(
      meta.signature_counts.transaction_intent_signatures
    )
    expect(tx.signedTransactionIntent.nonRootSubintentSignatures.map((b) => b.length)).toEqual(
      meta.signature_counts.non_root_subintent_signature_batches
    )
    meta.non_root_subintents.forEach((m, i) => {
      const s = ti.nonRootSubintents[i]
      expect(s).toBeDefined()
      if (s === undefined) return
      expect(asMeta(s.intentCore.header)).toEqual(m.intent_header)
      expect(s.intentCore.children.map((c) => subintentId(c, 242))).toEqual(m.children)
      expect(toHex(right(encodeSubintentV2(s)))).toBe(m.standalone_subintent_payload_hex)
      const standalone = right(decodeSubintentV2(hexBytes(m.standalone_subintent_payload_hex)))
      expect(toHex(right(subintentHash(standalone)))).toBe(m.subintent_hash.hex)
    })
  })

  it("its signatures verify", () => {
    expect(Either.isRight(verifyNotarizedTransactionV2(tx))).toBe(true)
  })
})
