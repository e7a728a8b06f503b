/**
 * The wallet emulator's transaction path: parse the dApp's manifest with the Radix Engine Toolkit, add a fee lock
 * when the dApp left it out (as the Radix Wallet does), work out which of the wallet's accounts must sign, preview
 * the withdrawals and deposits with a dry run of the ledger's own executor, then build, sign, notarize and submit.
 */
import type { Instruction } from "@radixdlt/radix-engine-toolkit"
import { BigDecimal, Effect, Either, Option, Schema } from "effect"
import { formatPlain } from "../../lib/decimalText"
import { isAccountAddress } from "../ledger/address"
import { parseLedgerDecimal, ZERO } from "../ledger/amount"
import { buildNotarizedTransaction } from "../ledger/build"
import { devnetFee, execute, type BalanceChange } from "../ledger/execute"
import type { DevnetKey } from "../ledger/genesis"
import type { Ledger } from "../ledger/Ledger"
import { loadRet } from "../ledger/transaction"
import type { Move, TransactionPreview } from "./api"

export interface SigningAccount {
  readonly address: string
  readonly label: string
  readonly key: DevnetKey
}

/** A wallet-side failure, answered to the dApp as `{discriminator: "failure", error, message}`. */
export class WalletFailure extends Schema.TaggedError<WalletFailure>()("WalletFailure", {
  error: Schema.String,
  message: Schema.String
}) {}

const NETWORK_ID = 240
const FEE_LOCK_METHODS = new Set([
  "lock_fee",
  "lock_contingent_fee",
  "lock_fee_and_withdraw",
  "lock_fee_and_withdraw_non_fungibles"
])
/** Deposits anyone may make: they need no signature from the account's owner. */
const OPEN_DEPOSIT_METHODS = new Set([
  "try_deposit_or_abort",
  "try_deposit_or_refund",
  "try_deposit_batch_or_abort",
  "try_deposit_batch_or_refund"
])
/** A balance no manifest can exhaust (10^22), for the dry run of what a manifest intends. */
const PLENTY = BigDecimal.make(1n, -22)

export interface TransactionItem {
  readonly transactionManifest: string
  readonly blobs?: ReadonlyArray<string> | undefined
  readonly message?: string | undefined
}

export interface PreparedTransaction {
  readonly manifest: string
  readonly blobs: ReadonlyArray<Uint8Array>
  readonly message: string | undefined
  readonly signers: ReadonlyArray<SigningAccount>
  readonly preview: TransactionPreview
}

const retError = (e: unknown): string => {
  const text = e instanceof Error ? e.message : String(e)
  const at = text.indexOf("response is ")
  return at < 0 ? text : text.slice(at + "response is ".length)
}

const callTargets = (instructions: ReadonlyArray<Instruction>) =>
  instructions.flatMap((i) =>
    i.kind === "CallMethod" && i.address.kind === "Static" && typeof i.address.value === "string"
      ? [{ address: i.address.value, method: i.methodName }]
      : []
  )

const parseManifest = (manifest: string) =>
  Effect.flatMap(loadRet, (ret) =>
    Effect.tryPromise({
      try: () => ret.RadixEngineToolkit.Instructions.convert({ kind: "String", value: manifest }, NETWORK_ID, "Parsed"),
      catch: (e) =>
        new WalletFailure({
          error: "failedToPrepareTransaction",
          message: `The manifest does not parse: ${retError(e)}`
        })
    })
  ).pipe(Effect.map((i) => (i.kind === "Parsed" ? i.value : [])))

const HEX = /^(?:[0-9a-fA-F]{2})*$/

/**
 * Everything the wallet shows and signs for a transaction request. `ours` are the wallet's accounts (the first is
 * the fallback fee payer); `label` names any other known account.
 */
export const prepareTransaction = Effect.fn("WalletEmulator.prepareTransaction")(function* (
  ledger: Ledger,
  ours: ReadonlyArray<SigningAccount>,
  label: (address: string) => string | undefined,
  item: TransactionItem
) {
  const blobs: Array<Uint8Array> = []
  for (const blob of item.blobs ?? []) {
    if (!HEX.test(blob))
      return yield* new WalletFailure({ error: "failedToPrepareTransaction", message: "A blob is not hex" })
    blobs.push(Uint8Array.from(Buffer.from(blob, "hex")))
  }
  const original = yield* parseManifest(item.transactionManifest)
  const targets = callTargets(original)
  const mine = (address: string) => ours.find((a) => a.address === address)
  const needSignature = new Set(targets.filter((t) => !OPEN_DEPOSIT_METHODS.has(t.method)).map((t) => t.address))
  const signers = ours.filter((a) => needSignature.has(a.address))
  const hasFeeLock = targets.some((t) => FEE_LOCK_METHODS.has(t.method))
  const firstOwn = signers[0] ?? ours[0]
  const feePayer = hasFeeLock ? targets.find((t) => FEE_LOCK_METHODS.has(t.method))?.address : firstOwn?.address
  let manifest = item.transactionManifest
  let instructions = original
  const fee = devnetFee(original.length + (hasFeeLock ? 0 : 1))
  if (!hasFeeLock && firstOwn !== undefined) {
    manifest = `CALL_METHOD\n    Address("${firstOwn.address}")\n    "lock_fee"\n    Decimal("${formatPlain(fee)}")\n;\n${item.transactionManifest}`
    instructions = yield* parseManifest(manifest)
    if (!signers.includes(firstOwn)) signers.unshift(firstOwn)
  }

  // Balances for a dry run: every account the manifest calls, in every resource the ledger knows.
  const resources = yield* ledger.resources
  const accounts = [...new Set(callTargets(instructions).map((t) => t.address))].filter(isAccountAddress)
  const balances = new Map<string, BigDecimal.BigDecimal>()
  for (const account of accounts) {
    for (const r of resources) {
      const text = yield* ledger.balance(account, r.address)
      const amount = parseLedgerDecimal(text)
      if (Option.isNone(amount)) {
        return yield* new WalletFailure({
          error: "failedToPrepareTransaction",
          message: `The ledger answered a balance that is not a decimal: ${JSON.stringify(text)}`
        })
      }
      balances.set(`${account} ${r.address}`, amount.value)
    }
  }
  const divisibility = (resource: string) => resources.find((r) => r.address === resource)?.divisibility
  // What the manifest intends (with every account able to pay), and what the ledger would do now.
  const intended = execute(instructions, {
    xrd: ledger.xrd,
    signerAccounts: new Set(accounts),
    divisibility,
    balance: () => PLENTY
  })
  const predicted = execute(instructions, {
    xrd: ledger.xrd,
    signerAccounts: new Set(signers.map((s) => s.address)),
    divisibility,
    balance: (account, resource) => balances.get(`${account} ${resource}`) ?? ZERO
  })
  const symbol = (resource: string) => resources.find((r) => r.address === resource)?.symbol ?? "?"
  const move = (c: BalanceChange): Move => {
    const accountLabel = mine(c.entity)?.label ?? label(c.entity)
    const amount = formatPlain(BigDecimal.abs(c.change))
    return {
      account: c.entity,
      ...(accountLabel === undefined ? {} : { accountLabel }),
      resource: c.resource,
      symbol: symbol(c.resource),
      amount
    }
  }
  const changes = intended._tag === "Committed" && intended.success ? intended.changes : []
  const outcome: Pick<TransactionPreview, "predicted" | "error"> =
    predicted._tag === "Rejected"
      ? { predicted: "Rejected", error: predicted.reason }
      : predicted.success
        ? { predicted: "CommittedSuccess" }
        : { predicted: "CommittedFailure", error: predicted.errorMessage ?? "failure" }
  const preview: TransactionPreview = {
    manifest,
    ...(item.message === undefined ? {} : { message: item.message }),
    blobCount: blobs.length,
    addsFeeLock: !hasFeeLock && firstOwn !== undefined,
    ...(feePayer === undefined ? {} : { feePayer }),
    fee: formatPlain(fee),
    signers: signers.map((s) => s.address),
    withdrawals: changes.filter((c) => BigDecimal.isNegative(c.change)).map(move),
    deposits: changes.filter((c) => BigDecimal.isPositive(c.change)).map(move),
    ...outcome
  }
  return { manifest, blobs, message: item.message, signers, preview } satisfies PreparedTransaction
})

/** Builds, signs (every signer), notarizes (the genesis notary) and submits; answers the intent hash. */
export const submitTransaction = Effect.fn("WalletEmulator.submitTransaction")(function* (
  ledger: Ledger,
  prepared: PreparedTransaction
) {
  const { epoch } = yield* ledger.state
  const built = yield* buildNotarizedTransaction({
    manifest: { instructions: { kind: "String", value: prepared.manifest }, blobs: [...prepared.blobs] },
    signers: prepared.signers.map((s) => s.key),
    notary: ledger.genesis.notary,
    startEpochInclusive: epoch,
    ...(prepared.message === undefined ? {} : { message: prepared.message })
  }).pipe(
    Effect.catchAllDefect(
      (defect) =>
        new WalletFailure({
          error: "failedToCompileTransaction",
          message: `Could not build the transaction: ${retError(defect)}`
        })
    )
  )
  const submitted = yield* Effect.either(ledger.submit(built.notarizedTransactionHex))
  if (Either.isLeft(submitted)) {
    return yield* new WalletFailure({
      error: "submittedTransactionHasRejectedTransactionStatus",
      message: `The network rejected the transaction: ${submitted.left.reason}`
    })
  }
  return built.intentHash
})
