/**
 * Building, signing and notarizing devnet transactions with the Radix Engine Toolkit (loaded lazily). Used by
 * the devnet's own tools (wallet emulator, benchmark, tests); keys are the genesis `DevnetKey`s.
 */
import type { TransactionManifest } from "@radixdlt/radix-engine-toolkit"
import { Effect } from "effect"
import { DEVNET_NETWORK_ID } from "./address"
import type { DevnetKey } from "./genesis"
import { loadRet } from "./transaction"

export interface BuildTransactionInput {
  /** Manifest text (V1 syntax) or a manifest from RET's `ManifestBuilder`. */
  readonly manifest: string | TransactionManifest
  /** Keys that sign the intent (the owners of the accounts withdrawn from / locking fees). */
  readonly signers: ReadonlyArray<DevnetKey>
  readonly notary: DevnetKey
  readonly notaryIsSignatory?: boolean
  readonly startEpochInclusive: number
  /** Default: start + 10 epochs. */
  readonly endEpochExclusive?: number
  /** A plain-text message: text (mime type text/plain) or an explicit mime type. */
  readonly message?: string | { readonly mimeType: string; readonly text: string }
  readonly nonce?: number
}

export interface BuiltTransaction {
  readonly intentHash: string
  readonly notarizedTransactionHex: string
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

export const buildNotarizedTransaction = Effect.fn("Devnet.buildNotarizedTransaction")(function* (
  input: BuildTransactionInput
) {
  const { RadixEngineToolkit, TransactionBuilder, PrivateKey, generateRandomNonce } = yield* loadRet
  return yield* Effect.promise(async (): Promise<BuiltTransaction> => {
    const notary = new PrivateKey.Ed25519(hex(input.notary.privateKey))
    const manifest: TransactionManifest =
      typeof input.manifest === "string"
        ? { instructions: { kind: "String", value: input.manifest }, blobs: [] }
        : input.manifest
    const builder = await TransactionBuilder.new()
    const withHeader = builder.header({
      networkId: DEVNET_NETWORK_ID,
      startEpochInclusive: input.startEpochInclusive,
      endEpochExclusive: input.endEpochExclusive ?? input.startEpochInclusive + 10,
      nonce: input.nonce ?? generateRandomNonce(),
      notaryPublicKey: notary.publicKey(),
      notaryIsSignatory: input.notaryIsSignatory ?? false,
      tipPercentage: 0
    })
    const message = input.message
    const withMessage =
      message === undefined
        ? withHeader
        : typeof message === "string"
          ? withHeader.plainTextMessage(message)
          : withHeader.message({
              kind: "PlainText",
              value: { mimeType: message.mimeType, message: { kind: "String", value: message.text } }
            })
    let signing = withMessage.manifest(manifest)
    for (const signer of input.signers) signing = signing.sign(new PrivateKey.Ed25519(hex(signer.privateKey)))
    const notarized = await signing.notarize(notary)
    const intentHash = await RadixEngineToolkit.NotarizedTransaction.intentHash(notarized)
    const compiled = await RadixEngineToolkit.NotarizedTransaction.compile(notarized)
    return { intentHash: intentHash.id, notarizedTransactionHex: hex(compiled) }
  })
})
