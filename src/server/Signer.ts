/**
 * `Signer`: builds, signs and notarizes the operator's transfers (payouts and refunds) with txv2 (our own V1 and V2
 * codecs), the operator key held as a Node Ed25519 key object: no Radix Engine Toolkit on the server.
 *
 * A transfer is one V1 transaction: lock the fee on the exchange account, withdraw the amount, take it from the
 * worktop and `try_deposit_or_abort` it into the recipient. The operator key signs as notary (notary is signatory).
 */
import { createPrivateKey, createPublicKey, type KeyObject, randomInt, sign } from "node:crypto"
import { Context, Effect, Either, Layer, Schema } from "effect"
import {
  hash as blake2b256Hash,
  buildNotarizedTransaction,
  buildNotarizedTransactionV1,
  type BuiltTransaction,
  compileManifest,
  encodeAddress,
  EntityType,
  type IntentInput,
  type NotarySigner,
  toHex
} from "../txv2/index"

export class SignerError extends Schema.TaggedError<SignerError>()("SignerError", { reason: Schema.String }) {
  override get message(): string {
    return this.reason
  }
}

export interface TransferInput {
  readonly resource: string
  /** Plain decimal, within the resource's divisibility. */
  readonly amount: string
  readonly to: string
  readonly message: string
  /** The current epoch; the transaction is valid from it for `epochWindow` epochs. */
  readonly epoch: number
}

export interface SignedTransaction {
  /** `txid_…` */
  readonly intentHash: string
  readonly notarizedTransactionHex: string
}

export interface SignerShape {
  readonly account: string
  readonly transfer: (input: TransferInput) => Effect.Effect<SignedTransaction, SignerError>
  /** The account address the key controls (a virtual Ed25519 account on the network). */
  readonly derivedAccount: Effect.Effect<string, SignerError>
  /**
   * Notarizes a V2 transaction (an atomic swap's parent intent, over the user's signed subintent) with the operator
   * key, as notary and signatory, with txv2 (no toolkit). Absent on signers that only transfer.
   */
  readonly notarizeV2?: (input: IntentInput) => Effect.Effect<BuiltTransaction, SignerError>
}

export interface SignerOptions {
  readonly networkId: number
  readonly account: string
  /** 32-byte Ed25519 private key, hex. */
  readonly privateKeyHex: string
  readonly feeLockXrd: string
  readonly epochWindow: number
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/

/** A manifest string literal: the only characters that need escaping are the quote and the backslash. */
const quoted = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

export const transferManifest = (account: string, input: TransferInput, feeLockXrd: string): string =>
  [
    `CALL_METHOD Address(${quoted(account)}) "lock_fee" Decimal(${quoted(feeLockXrd)});`,
    `CALL_METHOD Address(${quoted(account)}) "withdraw" Address(${quoted(input.resource)}) Decimal(${quoted(input.amount)});`,
    `TAKE_ALL_FROM_WORKTOP Address(${quoted(input.resource)}) Bucket("payout");`,
    `CALL_METHOD Address(${quoted(input.to)}) "try_deposit_or_abort" Bucket("payout") Enum<0u8>();`
  ].join("\n")

/** PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")

/** The operator key as Node key objects and its raw public key, or why it is not a key. */
const operatorKey = (
  privateKeyHex: string
): Either.Either<{ readonly key: KeyObject; readonly publicKey: Uint8Array }, SignerError> => {
  if (!HEX_KEY.test(privateKeyHex))
    return Either.left(
      new SignerError({ reason: "the operator key must be 64 hex characters (an Ed25519 private key)" })
    )
  const key = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(privateKeyHex, "hex")]),
    format: "der",
    type: "pkcs8"
  })
  // The SPKI DER of an Ed25519 key ends with its 32 raw bytes.
  const spki = createPublicKey(key).export({ format: "der", type: "spki" })
  return Either.right({ key, publicKey: new Uint8Array(spki.subarray(spki.length - 32)) })
}

/** The nonce that tells apart two transfers of the same intent otherwise (a random u32). */
const randomNonce = () => randomInt(0, 2 ** 32)

export const makeSigner = (options: SignerOptions): SignerShape => {
  // The key is parsed once (the first use reports a bad one); signing is then Node's own Ed25519.
  let parsed: Either.Either<NotarySigner, SignerError> | undefined
  const notary = Effect.suspend(() => {
    parsed ??= Either.map(operatorKey(options.privateKeyHex), ({ key, publicKey }) => ({
      publicKey: { type: "Ed25519", bytes: publicKey },
      sign: (hash: Uint8Array) => ({ type: "Ed25519", bytes: new Uint8Array(sign(null, hash, key)) })
    }))
    return parsed
  })

  const transfer = Effect.fn("Signer.transfer")(function* (input: TransferInput) {
    const signer = yield* notary
    const fail = (what: string) => (e: { readonly message: string }) =>
      new SignerError({ reason: `cannot build the transfer: ${what}: ${e.message}` })
    const compiled = yield* Either.mapLeft(
      compileManifest(transferManifest(options.account, input, options.feeLockXrd), options.networkId),
      fail("manifest")
    )
    const built = yield* Either.mapLeft(
      buildNotarizedTransactionV1({
        networkId: options.networkId,
        startEpochInclusive: input.epoch,
        endEpochExclusive: input.epoch + options.epochWindow,
        nonce: randomNonce(),
        tipPercentage: 0,
        instructions: compiled.instructions,
        message: { type: "Plaintext", mimeType: "text/plain", message: { type: "String", value: input.message } },
        signers: [],
        notary: signer,
        notaryIsSignatory: true
      }),
      fail("encoding")
    )
    return { intentHash: built.intentId, notarizedTransactionHex: toHex(built.payload) }
  })

  /** A virtual (preallocated) Ed25519 account: its entity byte, then the last 29 bytes of the key's Blake2b-256. */
  const derivedAccount = Effect.flatMap(notary, (signer) =>
    Either.mapLeft(
      encodeAddress(
        Uint8Array.of(
          EntityType.GlobalPreallocatedEd25519Account,
          ...blake2b256Hash(signer.publicKey.bytes).subarray(3)
        ),
        options.networkId
      ),
      (e) => new SignerError({ reason: `cannot derive the account: ${e.message}` })
    )
  )

  const notarizeV2 = (input: IntentInput) =>
    Effect.flatMap(notary, (signer) =>
      Either.mapLeft(
        buildNotarizedTransaction({ ...input, notary: signer, notaryIsSignatory: true, signers: [] }),
        (e) => new SignerError({ reason: `cannot build the V2 transaction: ${e.message}` })
      )
    )

  return { account: options.account, transfer, derivedAccount, notarizeV2 }
}

export class Signer extends Context.Tag("hswap/server/Signer")<Signer, SignerShape>() {
  static readonly layer = (options: SignerOptions): Layer.Layer<Signer> => Layer.sync(Signer, () => makeSigner(options))
}
