/**
 * txv2: hSwap's own library for Radix TransactionV2 payloads (subintents / pre-authorisations), written from the
 * published format. Pure and browser-safe: it imports only `effect`, `@noble/curves`, `@noble/hashes` and the app's
 * own dependency-free bech32m codec; no Radix Engine Toolkit, no Node modules.
 *
 * What it covers:
 * - Manifest SBOR (prefix 0x4d): every value kind including the manifest custom kinds 0x80–0x88, with decoding that is
 *   bounded like the network's (1 MiB payload, depth 24, counts checked against the bytes left, canonical sizes,
 *   the network's limits of 64 blobs, 32 children per intent and 32 subintents per transaction) and never throws:
 *   every decoder returns `Either<Model, TxV2DecodeError>` with the byte offset, the model path and the reason;
 * - the V2 models and payloads, byte-exact both ways: SubintentV2 (11), TransactionIntentV2 (9),
 *   SignedTransactionIntentV2 (10), NotarizedTransactionV2 (12), PartialTransactionV2 (13),
 *   SignedPartialTransactionV2 (14), with headers, blobs, plaintext and encrypted messages, child subintent hashes,
 *   intent signatures, signature batches and the notary signature;
 * - every V2 manifest instruction (V1's plus YIELD_TO_PARENT, YIELD_TO_CHILD, VERIFY_PARENT and the V2 assertions
 *   with their resource constraints), Decimal and PreciseDecimal as exact decimal strings;
 * - the hash tree (subintent, transaction intent, signed intent and notarized transaction hashes) and their bech32m
 *   ids (`subtxid_`, `txid_`, `signedintent_`, `notarizedtransaction_` + network suffix) both ways; addresses to and
 *   from 30-byte node ids;
 * - Ed25519 signing and strict verification, Secp256k1 signing and verification by public-key recovery, and
 *   whole-payload signature checks;
 * - a builder for subintents, signed partial transactions and notarized transactions that yield to them;
 * - V1 notarized transactions (`v1.ts`): IntentV1, SignedIntentV1 and NotarizedTransactionV1, byte-exact both ways,
 *   their hashes and ids, and a builder whose notary may sign by itself (a platform key);
 * - a compiler for the manifest text a pre-authorisation uses (see manifest/compiler.ts for the subset) and a
 *   printer from instructions back to manifest text.
 *
 * What it does not do: run or statically validate a manifest against the engine's rules beyond its own encoding
 * (epoch windows, message length limits, intent-tree structure, bucket lifetimes across instructions, fees), V1
 * system transactions, preview transactions (15), encrypting or decrypting messages, or compiling manifest text outside the
 * subset (it fails with a typed error naming the line and column instead).
 */
export * from "./errors"
export * from "./bytes"
export { fixedToString, normalizeDecimal, parseFixed, DECIMAL, PRECISE_DECIMAL } from "./decimal"
export {
  EntityType,
  Kind,
  MAX_DEPTH,
  MAX_PAYLOAD_BYTES,
  type ManifestAddress,
  type ManifestValue,
  type NonFungibleLocalId,
  type ValueKindName
} from "./sbor"
export * from "./sborValue"
export * from "./instructions"
export * from "./models"
export * from "./hash"
export * from "./ids"
export * from "./network"
export * from "./signing"
export * from "./verify"
export * from "./builder"
export * from "./manifest/compiler"
export * from "./manifest/printer"
export * from "./v1"
