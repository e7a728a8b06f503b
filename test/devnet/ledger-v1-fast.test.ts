/**
 * The devnet's native decoding of V1 submissions (txv2) against the Radix Engine Toolkit's: for transactions of the
 * plain shape it decodes itself, everything it answers (hashes, epochs, parsed instructions, the manifest text as
 * the toolkit decompiles it, the message, the signer accounts) equals the toolkit path's; any other shape, and any
 * payload a check refuses, is left to the toolkit.
 */
import * as RET from "@radixdlt/radix-engine-toolkit"
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { decodeFastV1 } from "../../src/devnet/ledger/decodeV1"
import { decodeNotarizedTransactionWith } from "../../src/devnet/ledger/transaction"
import { makeSigner } from "../../src/server/Signer"

const NETWORK = 240
const { exchangeAccount, resources } = DevnetAddresses
const seedHex = (n: number) => n.toString(16).padStart(64, "0")

const build = async (options: {
  readonly manifest: string
  readonly message?: string
  readonly signers?: ReadonlyArray<number>
  readonly notary?: number
  readonly notaryIsSignatory?: boolean
  readonly blobs?: ReadonlyArray<Uint8Array>
}) => {
  const notary = new RET.PrivateKey.Ed25519(seedHex(options.notary ?? 7))
  const header = await RET.TransactionBuilder.new().then((b) =>
    b.header({
      networkId: NETWORK,
      startEpochInclusive: 10,
      endEpochExclusive: 20,
      nonce: 99,
      notaryPublicKey: notary.publicKey(),
      notaryIsSignatory: options.notaryIsSignatory ?? true,
      tipPercentage: 0
    })
  )
  const withManifest = (options.message === undefined ? header : header.plainTextMessage(options.message)).manifest({
    instructions: { kind: "String", value: options.manifest },
    blobs: [...(options.blobs ?? [])]
  })
  const signed = (options.signers ?? []).reduce((b, s) => b.sign(new RET.PrivateKey.Ed25519(seedHex(s))), withManifest)
  const tx = await signed.notarize(notary)
  return Buffer.from(await RET.RadixEngineToolkit.NotarizedTransaction.compile(tx)).toString("hex")
}

const ret = await import("@radixdlt/radix-engine-toolkit")
const fastOf = (hex: string) => decodeFastV1(ret, Uint8Array.from(Buffer.from(hex, "hex")), hex)
const decoded = (hex: string, fast: boolean) =>
  Effect.runPromise(Effect.either(decodeNotarizedTransactionWith(hex, fast)))
/** A decoded transaction as plain JSON (the toolkit's decimals print as their text). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

const account = exchangeAccount
const { hUSDC, hETH } = resources
const PLAIN_MANIFESTS = [
  // A payout as the exchange builds it, and a deposit as the app does.
  `CALL_METHOD Address("${account}") "lock_fee" Decimal("5");
CALL_METHOD Address("${account}") "withdraw" Address("${hETH}") Decimal("0.000000000000000001");
TAKE_ALL_FROM_WORKTOP Address("${hETH}") Bucket("payout");
CALL_METHOD Address("${account}") "try_deposit_or_abort" Bucket("payout") Enum<0u8>();`,
  `CALL_METHOD Address("${account}") "lock_fee" Decimal("1.500");
CALL_METHOD Address("${account}") "withdraw" Address("${hUSDC}") Decimal("123456789.123456");
TAKE_FROM_WORKTOP Address("${hUSDC}") Decimal("100") Bucket("a");
RETURN_TO_WORKTOP Bucket("a");
ASSERT_WORKTOP_CONTAINS Address("${hUSDC}") Decimal("123456789");
ASSERT_WORKTOP_CONTAINS_ANY Address("${hUSDC}");
CALL_METHOD Address("${account}") "deposit_batch" Expression("ENTIRE_WORKTOP");`,
  `CALL_METHOD Address("${account}") "withdraw" Address("${hUSDC}") Decimal("7");
TAKE_FROM_WORKTOP Address("${hUSDC}") Decimal("3") Bucket("x");
TAKE_ALL_FROM_WORKTOP Address("${hUSDC}") Bucket("y");
CALL_METHOD Address("${account}") "try_deposit_or_refund" Bucket("y") Enum<1u8>();
CALL_METHOD Address("${account}") "deposit" Bucket("x");`
]

describe("V1 submissions decoded natively equal the toolkit's decoding", () => {
  it("for plain transfers with and without messages, signers and notary-as-signatory", async () => {
    let n = 0
    for (const manifest of PLAIN_MANIFESTS) {
      for (const message of [undefined, "hswap.app | Radix | hUSDC -> hETH", "ünïcödé ✓"]) {
        for (const [signers, notaryIsSignatory] of [
          [[], true],
          [[11], false],
          [[11, 12], true]
        ] as const) {
          const hex = await build({
            manifest,
            ...(message === undefined ? {} : { message }),
            signers,
            notaryIsSignatory
          })
          expect(fastOf(hex), `case ${n}`).toBeDefined()
          const ours = await decoded(hex, true)
          const theirs = await decoded(hex, false)
          expect(plain(ours), `case ${n}`).toEqual(plain(theirs))
          expect(Either.isRight(ours)).toBe(true)
          n++
        }
      }
    }
  }, 120_000)

  it("for the exchange's own payouts", async () => {
    const signer = makeSigner({
      networkId: NETWORK,
      account,
      privateKeyHex: seedHex(3),
      feeLockXrd: "5",
      epochWindow: 10
    })
    for (const amount of ["1", "0.1", "98765.4321", "0.000001"]) {
      const t = await Effect.runPromise(
        signer.transfer({ resource: hETH, amount, to: account, message: `hSwap payout for ${amount}`, epoch: 5 })
      )
      expect(fastOf(t.notarizedTransactionHex)).toBeDefined()
      const ours = await decoded(t.notarizedTransactionHex, true)
      expect(plain(ours)).toEqual(plain(await decoded(t.notarizedTransactionHex, false)))
      expect(Either.isRight(ours) && ours.right.intentHash).toBe(t.intentHash)
    }
  })

  it("leaves other shapes and refused payloads to the toolkit", async () => {
    const others = [
      // An array of buckets, a string argument, a bucket never used.
      `CALL_METHOD Address("${account}") "withdraw" Address("${hUSDC}") Decimal("1");
TAKE_ALL_FROM_WORKTOP Address("${hUSDC}") Bucket("b");
CALL_METHOD Address("${account}") "deposit_batch" Array<Bucket>(Bucket("b"));`,
      `CALL_METHOD Address("${account}") "set_name" "hello";`,
      `CALL_METHOD Address("${account}") "withdraw" Address("${hUSDC}") Decimal("1");
TAKE_ALL_FROM_WORKTOP Address("${hUSDC}") Bucket("b");`
    ]
    for (const manifest of others) {
      const hex = await build({ manifest })
      expect(fastOf(hex)).toBeUndefined()
      expect(plain(await decoded(hex, true))).toEqual(plain(await decoded(hex, false)))
    }
    // A notary signature altered: the toolkit rejects it, in its words.
    const good = await build({ manifest: PLAIN_MANIFESTS[0] ?? "" })
    const last = Number.parseInt(good.slice(-2), 16)
    const bad = good.slice(0, -2) + (last ^ 1).toString(16).padStart(2, "0")
    expect(fastOf(bad)).toBeUndefined()
    const refused = await decoded(bad, true)
    expect(Either.isLeft(refused) && refused.left.reason).toMatch(/^Invalid transaction: /)
    expect(plain(refused)).toEqual(plain(await decoded(bad, false)))
    // The same signer twice (as notary-as-signatory and as an intent signer).
    const twice = await build({ manifest: PLAIN_MANIFESTS[0] ?? "", signers: [7], notary: 7, notaryIsSignatory: true })
    expect(fastOf(twice)).toBeUndefined()
  }, 60_000)
})
