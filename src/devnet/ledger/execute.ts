/**
 * Devnet transaction execution: walks RET-parsed V1 instructions over the account vaults and returns the
 * outcome. Pure and synchronous; the Ledger applies a committed outcome atomically.
 *
 * Supported: account `lock_fee`, `withdraw`, `deposit`, `deposit_batch`, `try_deposit_(batch_)or_abort`,
 * `try_deposit_(batch_)or_refund`; `TAKE_ALL_FROM_WORKTOP`, `TAKE_FROM_WORKTOP`, `RETURN_TO_WORKTOP`,
 * `ASSERT_WORKTOP_CONTAINS`, `ASSERT_WORKTOP_CONTAINS_ANY`. Anything else fails with a message naming it.
 */
import type { Instruction, ManifestAddress, Value } from "@radixdlt/radix-engine-toolkit"
import { BigDecimal, Option } from "effect"
import { formatPlain } from "../../lib/decimalText"
import { isAccountAddress } from "./address"
import { debugDecimal, fitsDivisibility, parseLedgerDecimal, ZERO } from "./amount"

export interface ExecutionEnv {
  readonly xrd: string
  /** Accounts whose owner key signed the intent (or is the notary-as-signatory). */
  readonly signerAccounts: ReadonlySet<string>
  readonly divisibility: (resource: string) => number | undefined
  readonly balance: (account: string, resource: string) => BigDecimal.BigDecimal
  /**
   * Preview only (`assume_all_signature_proofs` / `disable_auth_checks`): every account's owner role is satisfied,
   * as if the owner of every account had signed.
   */
  readonly assumeAllSignatureProofs?: boolean
  /**
   * Preview only (`use_free_credit`): a simulated, unlimited XRD fee lock that pays the fee before any vault does,
   * so the fee loan is always repaid and a manifest with no fee lock still executes. It stands in for the fee lock
   * the wallet adds: a manifest that has no fee-lock call is charged as if that one instruction were there
   * ({@link chargedInstructionCount}), so a preview costs exactly what the wallet's transaction will.
   */
  readonly freeCredit?: boolean
}

export interface BalanceChange {
  readonly entity: string
  readonly resource: string
  readonly change: BigDecimal.BigDecimal
}

/** A vault balance change made by one manifest instruction (its 0-based index), as a preview reports it. */
export interface InstructionBalanceChange extends BalanceChange {
  readonly index: number
}

export type ExecutionOutcome =
  | { readonly _tag: "Rejected"; readonly reason: string }
  | {
      readonly _tag: "Committed"
      readonly success: boolean
      readonly errorMessage: string | undefined
      readonly fee: BigDecimal.BigDecimal
      /** Fee payments by account (XRD). */
      readonly feePayments: ReadonlyArray<BalanceChange>
      /** Non-fee balance changes; empty for a failure. */
      readonly changes: ReadonlyArray<BalanceChange>
      /** The same changes instruction by instruction, in execution order; empty for a failure. */
      readonly instructionChanges: ReadonlyArray<InstructionBalanceChange>
      readonly withdrawnFrom: ReadonlyArray<string>
      readonly depositedInto: ReadonlyArray<string>
      readonly resources: ReadonlyArray<string>
      readonly isTransfer: boolean
    }

const FEE_BASE = BigDecimal.make(1n, 1) // 0.1 XRD
const FEE_PER_INSTRUCTION = BigDecimal.make(2n, 2) // 0.02 XRD

/** The deterministic devnet fee for a manifest of `instructionCount` instructions. */
export const devnetFee = (instructionCount: number): BigDecimal.BigDecimal =>
  BigDecimal.sum(FEE_BASE, BigDecimal.multiply(FEE_PER_INSTRUCTION, BigDecimal.fromBigInt(BigInt(instructionCount))))

/** Account methods that lock a fee; a wallet adds a `lock_fee` to a manifest that calls none of them. */
export const FEE_LOCK_METHODS: ReadonlySet<string> = new Set([
  "lock_fee",
  "lock_contingent_fee",
  "lock_fee_and_withdraw",
  "lock_fee_and_withdraw_non_fungibles"
])

/** True when the manifest calls a fee-lock method (on any address). */
export const hasFeeLock = (instructions: ReadonlyArray<Instruction>): boolean =>
  instructions.some((i) => i.kind === "CallMethod" && FEE_LOCK_METHODS.has(i.methodName))

/**
 * The number of instructions the devnet fee is charged for: the manifest's own, plus the wallet's `lock_fee` when
 * the free credit of a preview stands in for it (see {@link ExecutionEnv.freeCredit}).
 */
export const chargedInstructionCount = (
  instructions: ReadonlyArray<Instruction>,
  env: Pick<ExecutionEnv, "freeCredit">
): number => instructions.length + (env.freeCredit === true && !hasFeeLock(instructions) ? 1 : 0)

class ExecutionFailure {
  constructor(readonly message: string) {}
}

const fail = (message: string): never => {
  throw new ExecutionFailure(message)
}

const runtime = (inner: string): string => `RuntimeError(${inner})`

export const DEPOSIT_METHODS: ReadonlySet<string> = new Set([
  "deposit",
  "deposit_batch",
  "try_deposit_or_abort",
  "try_deposit_or_refund",
  "try_deposit_batch_or_abort",
  "try_deposit_batch_or_refund"
])

/** A Decimal argument of the toolkit's parsed manifest, read with the engine's rules. */
const decimalOf = (value: { toFixed: () => string }): BigDecimal.BigDecimal => {
  const text = value.toFixed()
  return Option.getOrThrowWith(
    parseLedgerDecimal(text),
    () => new ExecutionFailure(runtime(`ApplicationError(InputDecodeError("invalid Decimal ${text}"))`))
  )
}

export const execute = (instructions: ReadonlyArray<Instruction>, env: ExecutionEnv): ExecutionOutcome => {
  const fee = devnetFee(chargedInstructionCount(instructions, env))
  const freeCredit = env.freeCredit === true
  const instructionChanges: Array<InstructionBalanceChange> = []
  let index = 0
  const deltas = new Map<string, Map<string, BigDecimal.BigDecimal>>()
  const feeLocks: Array<{ account: string; amount: BigDecimal.BigDecimal }> = []
  const worktop = new Map<string, BigDecimal.BigDecimal>()
  const buckets = new Map<number, { resource: string; amount: BigDecimal.BigDecimal }>()
  let nextBucket = 0
  const withdrawnFrom = new Set<string>()
  const depositedInto = new Set<string>()
  const resources = new Set<string>()
  let onlyTransferShaped = true

  const delta = (account: string, resource: string): BigDecimal.BigDecimal => deltas.get(account)?.get(resource) ?? ZERO
  const addDelta = (account: string, resource: string, amount: BigDecimal.BigDecimal): void => {
    const byResource = deltas.get(account) ?? new Map<string, BigDecimal.BigDecimal>()
    byResource.set(resource, BigDecimal.sum(byResource.get(resource) ?? ZERO, amount))
    deltas.set(account, byResource)
  }
  const locked = (account: string): BigDecimal.BigDecimal =>
    feeLocks.reduce((sum, l) => (l.account === account ? BigDecimal.sum(sum, l.amount) : sum), ZERO)
  const available = (account: string, resource: string): BigDecimal.BigDecimal => {
    const held = BigDecimal.sum(env.balance(account, resource), delta(account, resource))
    return resource === env.xrd ? BigDecimal.subtract(held, locked(account)) : held
  }
  const totalLocked = (): BigDecimal.BigDecimal => BigDecimal.sumAll(feeLocks.map((l) => l.amount))

  const requireValidAmount = (where: string, resource: string, amount: BigDecimal.BigDecimal): void => {
    const divisibility = env.divisibility(resource) ?? 18
    if (BigDecimal.isNegative(amount) || !fitsDivisibility(amount, divisibility)) {
      fail(
        runtime(`ApplicationError(${where}(ResourceError(InvalidAmount(${debugDecimal(amount)}, ${divisibility}))))`)
      )
    }
  }
  const requireOwner = (account: string, method: string): void => {
    if (env.assumeAllSignatureProofs !== true && !env.signerAccounts.has(account)) {
      fail(
        runtime(
          `SystemModuleError(AuthError(Unauthorized(Unauthorized { failed_access_rules: RoleList([RoleKey { key: "_owner_" }]), ` +
            `fn_identifier: "Account::${method}", address: "${account}" })))`
        )
      )
    }
  }
  const putOnWorktop = (resource: string, amount: BigDecimal.BigDecimal): void => {
    worktop.set(resource, BigDecimal.sum(worktop.get(resource) ?? ZERO, amount))
  }
  const takeBucket = (id: number): { resource: string; amount: BigDecimal.BigDecimal } => {
    const b = buckets.get(id)
    if (b === undefined) return fail(runtime(`KernelError(InvalidReference(Bucket(${id})))`))
    buckets.delete(id)
    return b
  }
  const staticAddress = (value: ManifestAddress): string =>
    value.kind === "Static" && typeof value.value === "string"
      ? value.value
      : fail(
          runtime("DevnetUnsupported(named addresses (address reservations) are not supported by the devnet ledger)")
        )

  const argFields = (args: Value): ReadonlyArray<Value> => (args.kind === "Tuple" ? args.fields : [])

  const depositInto = (account: string, method: string, args: Value): void => {
    if (method === "deposit" || method === "deposit_batch") requireOwner(account, method)
    const [first] = argFields(args)
    const incoming: Array<{ resource: string; amount: BigDecimal.BigDecimal }> = []
    if (first?.kind === "Bucket") {
      incoming.push(takeBucket(first.value))
    } else if (first?.kind === "Expression" && first.value === "EntireWorktop") {
      for (const [resource, amount] of worktop) incoming.push({ resource, amount })
      worktop.clear()
    } else if (first?.kind === "Array") {
      for (const element of first.elements) {
        if (element.kind !== "Bucket") fail(runtime(`ApplicationError(InputDecodeError("Account::${method}"))`))
        else incoming.push(takeBucket(element.value))
      }
    } else {
      fail(runtime(`ApplicationError(InputDecodeError("Account::${method}"))`))
    }
    for (const { resource, amount } of incoming) {
      if (BigDecimal.isZero(amount)) continue
      addDelta(account, resource, amount)
      instructionChanges.push({ index, entity: account, resource, change: amount })
      depositedInto.add(account)
      resources.add(resource)
    }
  }

  const step = (instruction: Instruction): void => {
    switch (instruction.kind) {
      case "CallMethod": {
        const target = staticAddress(instruction.address)
        const method = instruction.methodName
        if (!isAccountAddress(target)) {
          onlyTransferShaped = false
          return fail(
            runtime(
              `DevnetUnsupported(CALL_METHOD "${method}" on ${target}: the devnet ledger only runs account methods)`
            )
          )
        }
        const fields = argFields(instruction.args)
        if (method === "lock_fee") {
          requireOwner(target, method)
          const [amountValue] = fields
          if (amountValue?.kind !== "Decimal")
            return fail(runtime(`ApplicationError(InputDecodeError("Account::lock_fee"))`))
          const amount = decimalOf(amountValue.value)
          requireValidAmount("VaultError", env.xrd, amount)
          const have = available(target, env.xrd)
          if (BigDecimal.lessThan(have, amount)) {
            fail(
              runtime(
                `ApplicationError(VaultError(ResourceError(InsufficientBalance { requested: ${debugDecimal(amount)}, actual: ${debugDecimal(have)} })))`
              )
            )
          }
          feeLocks.push({ account: target, amount })
          return
        }
        if (method === "withdraw") {
          requireOwner(target, method)
          const [resourceValue, amountValue] = fields
          if (resourceValue?.kind !== "Address" || amountValue?.kind !== "Decimal") {
            return fail(runtime(`ApplicationError(InputDecodeError("Account::withdraw"))`))
          }
          const resource = staticAddress(resourceValue.value)
          const amount = decimalOf(amountValue.value)
          requireValidAmount("VaultError", resource, amount)
          const have = available(target, resource)
          if (BigDecimal.lessThan(have, amount)) {
            fail(
              runtime(
                `ApplicationError(VaultError(ResourceError(InsufficientBalance { requested: ${debugDecimal(amount)}, actual: ${debugDecimal(have)} })))`
              )
            )
          }
          addDelta(target, resource, BigDecimal.negate(amount))
          if (!BigDecimal.isZero(amount))
            instructionChanges.push({ index, entity: target, resource, change: BigDecimal.negate(amount) })
          putOnWorktop(resource, amount)
          withdrawnFrom.add(target)
          resources.add(resource)
          return
        }
        if (DEPOSIT_METHODS.has(method)) return depositInto(target, method, instruction.args)
        onlyTransferShaped = false
        return fail(
          runtime(`DevnetUnsupported(CALL_METHOD "${method}" on an account is not supported by the devnet ledger)`)
        )
      }
      case "TakeAllFromWorktop": {
        const amount = worktop.get(instruction.resourceAddress) ?? ZERO
        worktop.delete(instruction.resourceAddress)
        buckets.set(nextBucket++, { resource: instruction.resourceAddress, amount })
        return
      }
      case "TakeFromWorktop": {
        const amount = decimalOf(instruction.amount)
        requireValidAmount("WorktopError", instruction.resourceAddress, amount)
        const have = worktop.get(instruction.resourceAddress) ?? ZERO
        if (BigDecimal.lessThan(have, amount)) {
          fail(
            runtime(
              `ApplicationError(WorktopError(ResourceError(InsufficientBalance { requested: ${debugDecimal(amount)}, actual: ${debugDecimal(have)} })))`
            )
          )
        }
        if (BigDecimal.equals(have, amount)) worktop.delete(instruction.resourceAddress)
        else worktop.set(instruction.resourceAddress, BigDecimal.subtract(have, amount))
        buckets.set(nextBucket++, { resource: instruction.resourceAddress, amount })
        return
      }
      case "ReturnToWorktop": {
        const b = takeBucket(instruction.bucketId)
        if (BigDecimal.isPositive(b.amount)) putOnWorktop(b.resource, b.amount)
        return
      }
      case "AssertWorktopContains": {
        const amount = decimalOf(instruction.amount)
        requireValidAmount("WorktopError", instruction.resourceAddress, amount)
        const have = worktop.get(instruction.resourceAddress) ?? ZERO
        if (BigDecimal.lessThan(have, amount)) {
          fail(
            runtime(
              `ApplicationError(WorktopError(AssertionFailed(ResourceConstraint { resource: "${instruction.resourceAddress}", ` +
                `required_amount: ${debugDecimal(amount)}, actual_amount: ${debugDecimal(have)} })))`
            )
          )
        }
        return
      }
      case "AssertWorktopContainsAny": {
        if (!BigDecimal.isPositive(worktop.get(instruction.resourceAddress) ?? ZERO)) {
          fail(
            runtime(`ApplicationError(WorktopError(AssertionFailed(NonZeroAmount("${instruction.resourceAddress}"))))`)
          )
        }
        return
      }
      default:
        onlyTransferShaped = false
        return fail(runtime(`DevnetUnsupported(instruction ${instruction.kind} is not supported by the devnet ledger)`))
    }
  }

  let errorMessage: string | undefined
  try {
    for (const instruction of instructions) {
      step(instruction)
      index += 1
    }
    const left = [...worktop.entries()].filter(([, amount]) => !BigDecimal.isZero(amount))
    const dangling = [...buckets.values()].filter((b) => !BigDecimal.isZero(b.amount))
    if (left.length > 0) {
      fail(
        runtime(
          `ApplicationError(WorktopError(NonEmptyWorktop { resources: [${left
            .map(([r, a]) => `("${r}", ${debugDecimal(a)})`)
            .join(", ")}] }))`
        )
      )
    }
    if (dangling.length > 0) fail(runtime("ApplicationError(BucketError(NotEmpty))"))
  } catch (e) {
    if (!(e instanceof ExecutionFailure)) throw e
    errorMessage = e.message
  }

  if (!freeCredit && BigDecimal.lessThan(totalLocked(), fee)) {
    return {
      _tag: "Rejected",
      reason:
        errorMessage === undefined
          ? `SuccessButFeeLoanNotRepaid: the manifest locked ${formatPlain(totalLocked())} XRD but the transaction costs ${formatPlain(fee)} XRD`
          : `ErrorBeforeLoanAndDeferredCostsRepaid(${errorMessage})`
    }
  }
  // Fees drain the locks in order; a preview's free credit pays first (and, being unlimited, pays it all).
  const feePayments: Array<BalanceChange> = []
  let remaining = freeCredit ? ZERO : fee
  for (const lock of feeLocks) {
    if (BigDecimal.isZero(remaining)) break
    const pay = BigDecimal.min(lock.amount, remaining)
    remaining = BigDecimal.subtract(remaining, pay)
    const existing = feePayments.findIndex((p) => p.entity === lock.account)
    const previous = feePayments[existing]
    if (previous !== undefined)
      feePayments[existing] = { ...previous, change: BigDecimal.subtract(previous.change, pay) }
    else feePayments.push({ entity: lock.account, resource: env.xrd, change: BigDecimal.negate(pay) })
  }
  const success = errorMessage === undefined
  const changes: Array<BalanceChange> = []
  if (success) {
    for (const [entity, byResource] of deltas) {
      for (const [resource, change] of byResource)
        if (!BigDecimal.isZero(change)) changes.push({ entity, resource, change })
    }
  }
  return {
    _tag: "Committed",
    success,
    errorMessage,
    fee,
    feePayments,
    changes,
    instructionChanges: success ? instructionChanges : [],
    withdrawnFrom: [...withdrawnFrom],
    depositedInto: [...depositedInto],
    resources: [...resources],
    isTransfer: onlyTransferShaped && success
  }
}
