/**
 * `Signer`: builds, signs and notarizes the operator's transfers (payouts and refunds) with the Radix Engine
 * Toolkit. RET (an ~8 MB module with inline wasm) is loaded lazily on first use, on Node only: the server and the
 * devnet are the only parts that import it.
 *
 * A transfer is one V1 transaction: lock the fee on the exchange account, withdraw the amount, take it from the
 * worktop and `try_deposit_or_abort` it into the recipient. The operator key signs as notary (notary is signatory).
 */
import { Context, Effect, Either, Layer, Schema } from "effect"
import { buildNotarizedTransaction, type BuiltTransaction, fromHex, type IntentInput } from "../txv2/index"

type Ret = typeof import("@radixdlt/radix-engine-toolkit")

let retModule: Promise<Ret> | undefined

/** The Radix Engine Toolkit, imported on first use. */
export const loadRet: Effect.Effect<Ret, SignerError> = Effect.tryPromise({
  try: () => (retModule ??= import("@radixdlt/radix-engine-toolkit")),
  catch: (e) => new SignerError({ reason: `cannot load the Radix Engine Toolkit: ${String(e)}` })
})

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

export const makeSigner = (options: SignerOptions): SignerShape => {
  const withKey = <A>(f: (ret: Ret, key: InstanceType<Ret["PrivateKey"]["Ed25519"]>) => Promise<A>, what: string) =>
    Effect.gen(function* () {
      if (!HEX_KEY.test(options.privateKeyHex)) {
        return yield* new SignerError({ reason: "the operator key must be 64 hex characters (an Ed25519 private key)" })
      }
      const ret = yield* loadRet
      return yield* Effect.tryPromise({
        try: () => f(ret, new ret.PrivateKey.Ed25519(options.privateKeyHex)),
        catch: (e) => new SignerError({ reason: `${what}: ${e instanceof Error ? e.message : String(e)}` })
      })
    })

  const transfer = Effect.fn("Signer.transfer")(function* (input: TransferInput) {
    return yield* withKey(async (ret, key) => {
      const builder = await ret.TransactionBuilder.new()
      const notarized = await builder
        .header({
          networkId: options.networkId,
          startEpochInclusive: input.epoch,
          endEpochExclusive: input.epoch + options.epochWindow,
          nonce: ret.generateRandomNonce(),
          notaryPublicKey: key.publicKey(),
          notaryIsSignatory: true,
          tipPercentage: 0
        })
        .plainTextMessage(input.message)
        .manifest({
          instructions: { kind: "String", value: transferManifest(options.account, input, options.feeLockXrd) },
          blobs: []
        })
        .notarize(key)
      const intent = await ret.RadixEngineToolkit.NotarizedTransaction.intentHash(notarized)
      const compiled = await ret.RadixEngineToolkit.NotarizedTransaction.compile(notarized)
      return { intentHash: intent.id, notarizedTransactionHex: Buffer.from(compiled).toString("hex") }
    }, "cannot build the transfer")
  })

  const derivedAccount = withKey(
    (ret, key) => ret.RadixEngineToolkit.Derive.virtualAccountAddressFromPublicKey(key.publicKey(), options.networkId),
    "cannot derive the account"
  )

  const notarizeV2 = (input: IntentInput) =>
    Effect.suspend(() => {
      const secretKey = HEX_KEY.test(options.privateKeyHex) ? fromHex(options.privateKeyHex) : undefined
      if (secretKey === undefined)
        return Effect.fail(
          new SignerError({ reason: "the operator key must be 64 hex characters (an Ed25519 private key)" })
        )
      const key = { curve: "Ed25519", secretKey } as const
      return Either.match(buildNotarizedTransaction({ ...input, notary: key, notaryIsSignatory: true, signers: [] }), {
        onLeft: (e) => Effect.fail(new SignerError({ reason: `cannot build the V2 transaction: ${e.message}` })),
        onRight: (built) => Effect.succeed(built)
      })
    })

  return { account: options.account, transfer, derivedAccount, notarizeV2 }
}

export class Signer extends Context.Tag("hswap/server/Signer")<Signer, SignerShape>() {
  static readonly layer = (options: SignerOptions): Layer.Layer<Signer> => Layer.sync(Signer, () => makeSigner(options))
}
