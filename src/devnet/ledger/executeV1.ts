/**
 * The V1 executor: a decoded V1 notarized transaction run by `execute` (one worktop, the account methods the devnet
 * models) on the current state, turned into what the ledger commits.
 */
import { blake2b256 } from "./address"
import { type ExecutionOutcome, execute } from "./execute"
import type { LedgerView, PayloadExecution } from "./payload"
import type { DecodedTransaction } from "./transaction"

/** The execution environment of a transaction signed by `signerAccounts` on the state `view` shows. */
export const executionEnv = (
  view: Pick<LedgerView, "xrd" | "balance" | "divisibility">,
  signerAccounts: ReadonlyArray<string>
) => ({
  xrd: view.xrd,
  signerAccounts: new Set(signerAccounts),
  divisibility: view.divisibility,
  balance: view.balance
})

/**
 * The SBOR hex of each instruction's output, as a Core API receipt's `output[].hex`: a method or take that yields
 * a bucket returns it (`Own`, a transient node id), everything else returns unit (`5c2100`, as in the v1.10.1
 * spec's committed-details example).
 */
const instructionOutputs = (tx: DecodedTransaction): ReadonlyArray<string> =>
  tx.instructions.map((instruction, index) => {
    const yieldsBucket =
      (instruction.kind === "CallMethod" && instruction.methodName === "withdraw") ||
      instruction.kind === "TakeFromWorktop" ||
      instruction.kind === "TakeAllFromWorktop"
    if (!yieldsBucket) return "5c2100"
    const id = blake2b256(new TextEncoder().encode(`${tx.payloadHash}/bucket/${index}`)).slice(0, 29)
    return `5c90f8${Buffer.from(id).toString("hex")}`
  })

export const executeV1 = (tx: DecodedTransaction, view: LedgerView): PayloadExecution => {
  const outcome: ExecutionOutcome = execute(tx.instructions, executionEnv(view, tx.signerAccounts))
  if (outcome._tag === "Rejected") return { _tag: "Rejected", reason: outcome.reason }
  return {
    _tag: "Commit",
    commit: {
      success: outcome.success,
      intentHash: tx.intentHash,
      payloadHash: tx.payloadHash,
      fee: outcome.fee,
      errorMessage: outcome.errorMessage,
      manifest: tx.manifest,
      message: tx.message,
      rawHex: tx.rawHex,
      feeChanges: outcome.feePayments,
      changes: outcome.changes,
      withdrawnFrom: outcome.withdrawnFrom,
      depositedInto: outcome.depositedInto,
      resources: outcome.resources,
      classes: outcome.isTransfer ? ["Transfer", "General"] : ["General"],
      outputs: instructionOutputs(tx)
    }
  }
}
