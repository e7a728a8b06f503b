/**
 * The V2 executor: a validated V2 transaction (`validateV2.ts`) run on the current state. Each intent has its own
 * worktop, buckets and signers; YIELD_TO_CHILD passes the buckets of its arguments to the child's worktop and runs
 * the child until it yields back, whose arguments land on the parent's worktop. A failure anywhere reverts every
 * intent: the transaction commits as a failure that charges the fee to the root's fee locks (or, when they do not
 * cover it yet, is rejected, as V1 is), and finalizes no subintent.
 *
 * Supported: account `lock_fee` (root only, as on the network), `withdraw`, `deposit`, `deposit_batch`,
 * `try_deposit_(batch_)or_abort`, `try_deposit_(batch_)or_refund`; TAKE_FROM_WORKTOP, TAKE_ALL_FROM_WORKTOP,
 * RETURN_TO_WORKTOP, YIELD_TO_PARENT, YIELD_TO_CHILD, VERIFY_PARENT (allow/deny all and signature requirements),
 * ASSERT_WORKTOP_CONTAINS(_ANY), ASSERT_WORKTOP_RESOURCES_ONLY/INCLUDE, ASSERT_NEXT_CALL_RETURNS_ONLY/INCLUDE,
 * ASSERT_BUCKET_CONTENTS, Expression("ENTIRE_WORKTOP"). Anything else fails naming the instruction.
 */
import { BigDecimal, Either, Option } from "effect"
import { formatPlain } from "../../lib/decimalText"
import {
  type InstructionV2,
  INSTRUCTIONS,
  type ManifestAddress,
  type ManifestValue,
  type MessageV2,
  type ResourceConstraint,
  type ResourceConstraints,
  encodeAddress,
  printManifest,
  subintentId,
  toHex
} from "../../txv2/index"
import {
  DEVNET_NETWORK_ID,
  blake2b256,
  isAccountAddress,
  publicKeyHash,
  virtualAccountAddress,
  wellKnownOnDevnet
} from "./address"
import { debugDecimal, fitsDivisibility, parseLedgerDecimal, ZERO } from "./amount"
import { type BalanceChange, DEPOSIT_METHODS, devnetFee } from "./execute"
import type { LedgerView, PayloadExecution, SubintentRecord } from "./payload"
import type { GatewayMessage } from "./transaction"
import type { IntentV2, ValidatedTransactionV2 } from "./typesV2"

/** The virtual signature badge resources (radix-engine well-known `ED25519_SIGNATURE_RESOURCE`, `SECP256K1_…`). */
export const ED25519_SIGNATURE_RESOURCE = wellKnownOnDevnet(
  "resource_rdx1nfxxxxxxxxxxed25sgxxxxxxxxx002236757237xxxxxxxxxed25sg"
)
export const SECP256K1_SIGNATURE_RESOURCE = wellKnownOnDevnet(
  "resource_rdx1nfxxxxxxxxxxsecpsgxxxxxxxxx004638826440xxxxxxxxxsecpsg"
)

class Failure {
  constructor(readonly message: string) {}
}
const fail = (message: string): never => {
  throw new Failure(message)
}
const runtime = (inner: string): string => `RuntimeError(${inner})`

type Resources = Map<string, BigDecimal.BigDecimal>

interface IntentState {
  readonly intent: IntentV2
  readonly index: number
  pc: number
  readonly worktop: Resources
  readonly buckets: Map<number, { resource: string; amount: BigDecimal.BigDecimal }>
  nextBucket: number
  readonly signerAccounts: ReadonlySet<string>
  /** An ASSERT_NEXT_CALL_RETURNS_* waiting for the next invocation's returns. */
  pendingAssertion: { readonly only: boolean; readonly constraints: ResourceConstraints } | undefined
}

const addressOf = (nodeId: Uint8Array): string => {
  const encoded = encodeAddress(nodeId, DEVNET_NETWORK_ID)
  return Either.isRight(encoded)
    ? encoded.right
    : fail(runtime(`KernelError(InvalidReference(NodeId("${toHex(nodeId)}")))`))
}

const staticAddress = (a: ManifestAddress): string =>
  a.type === "Static"
    ? addressOf(a.nodeId)
    : fail(runtime("DevnetUnsupported(named addresses (address reservations) are not supported by the devnet ledger)"))

/** A Decimal of the manifest, read with the engine's rules. */
const amountOf = (text: string): BigDecimal.BigDecimal =>
  Option.getOrThrowWith(
    parseLedgerDecimal(text),
    () => new Failure(runtime(`ApplicationError(InputDecodeError("invalid Decimal ${text}"))`))
  )

const toGatewayMessage = (m: MessageV2): GatewayMessage | undefined =>
  m.type === "None"
    ? undefined
    : m.type === "Plaintext"
      ? m.message.type === "String"
        ? { type: "Plaintext", mime_type: m.mimeType, content: { type: "String", value: m.message.value } }
        : { type: "Plaintext", mime_type: m.mimeType, content: { type: "Binary", value_hex: toHex(m.message.value) } }
      : { type: "Encrypted", encrypted_hex: toHex(m.encrypted) }

const manifestText = (intent: IntentV2): string => {
  const printed = printManifest(
    { instructions: intent.core.instructions, children: intent.core.children },
    DEVNET_NETWORK_ID
  )
  return Either.isRight(printed) ? printed.right : ""
}

/** Accounts whose owner key is among the signers (virtual Ed25519 accounts, as the devnet's). */
const accountsOf = (intent: IntentV2): Set<string> =>
  new Set(intent.signers.filter((k) => k.type === "Ed25519").map((k) => virtualAccountAddress(k.bytes)))

/** The signature badges a set of signers presents: (badge resource, hex of the public key hash). */
const badgesOf = (intent: IntentV2): Set<string> =>
  new Set(
    intent.signers.map(
      (k) =>
        `${k.type === "Ed25519" ? ED25519_SIGNATURE_RESOURCE : SECP256K1_SIGNATURE_RESOURCE} ${toHex(publicKeyHash(k.bytes))}`
    )
  )

/** Evaluates an AccessRule value (the manifest compiler's shapes) against the parent's signature badges. */
const ruleSatisfied = (rule: ManifestValue, badges: ReadonlySet<string>): boolean => {
  const unsupported = (): never =>
    fail(runtime("DevnetUnsupported(VERIFY_PARENT with an access rule the devnet cannot evaluate)"))
  const resourceOrNonFungible = (v: ManifestValue): boolean => {
    if (v.kind !== "Enum") return unsupported()
    const [inner] = v.fields
    if (v.discriminator === 1) {
      // A whole resource: the parent presents a signature badge of that resource.
      if (inner?.kind !== "Address") return unsupported()
      const resource = staticAddress(inner.value)
      return [...badges].some((b) => b.startsWith(`${resource} `))
    }
    if (v.discriminator !== 0 || inner?.kind !== "Tuple") return unsupported()
    const [address, id] = inner.fields
    if (address?.kind !== "Address" || id?.kind !== "NonFungibleLocalId") return unsupported()
    const local = id.value.type === "Bytes" ? toHex(id.value.value) : undefined
    return local !== undefined && badges.has(`${staticAddress(address.value)} ${local}`)
  }
  const list = (v: ManifestValue | undefined): ReadonlyArray<ManifestValue> =>
    v?.kind === "Array" ? v.elements : unsupported()
  const basic = (v: ManifestValue): boolean => {
    if (v.kind !== "Enum") return unsupported()
    const [a, b] = v.fields
    switch (v.discriminator) {
      case 0:
        return a === undefined ? unsupported() : resourceOrNonFungible(a)
      case 1: {
        // AmountOf(amount, resource): signature badges are non-fungibles of amount 1 each.
        if (a?.kind !== "Decimal" || b?.kind !== "Address") return unsupported()
        const resource = staticAddress(b.value)
        const held = [...badges].filter((x) => x.startsWith(`${resource} `)).length
        return BigDecimal.greaterThanOrEqualTo(BigDecimal.fromBigInt(BigInt(held)), amountOf(a.value))
      }
      case 2: {
        if (a === undefined || (a.kind !== "U8" && a.kind !== "U32")) return unsupported()
        return list(b).filter(resourceOrNonFungible).length >= a.value
      }
      case 3:
        return list(a).every(resourceOrNonFungible)
      case 4:
        return list(a).some(resourceOrNonFungible)
      default:
        return unsupported()
    }
  }
  const composite = (v: ManifestValue): boolean => {
    if (v.kind !== "Enum") return unsupported()
    const [a] = v.fields
    switch (v.discriminator) {
      case 0:
        return a === undefined ? unsupported() : basic(a)
      case 1:
        return list(a).some(composite)
      case 2:
        return list(a).every(composite)
      default:
        return unsupported()
    }
  }
  if (rule.kind !== "Enum") return unsupported()
  if (rule.discriminator === 0) return true
  if (rule.discriminator === 1) return false
  const [node] = rule.fields
  return rule.discriminator === 2 && node !== undefined ? composite(node) : unsupported()
}

/** Why `amount` of a fungible resource breaks a constraint, if it does (the engine's ResourceConstraintError). */
const constraintError = (c: ResourceConstraint, amount: BigDecimal.BigDecimal): string | undefined => {
  switch (c.type) {
    case "NonZeroAmount":
      return BigDecimal.isPositive(amount) ? undefined : "ExpectedNonZeroAmount"
    case "ExactAmount": {
      const expected = amountOf(c.amount)
      return BigDecimal.equals(amount, expected)
        ? undefined
        : `ExpectedExactAmount { expected_amount: ${debugDecimal(expected)}, actual_amount: ${debugDecimal(amount)} }`
    }
    case "AtLeastAmount": {
      const expected = amountOf(c.amount)
      return BigDecimal.greaterThanOrEqualTo(amount, expected)
        ? undefined
        : `ExpectedAtLeastAmount { expected_at_least_amount: ${debugDecimal(expected)}, actual_amount: ${debugDecimal(amount)} }`
    }
    case "ExactNonFungibles":
    case "AtLeastNonFungibles":
      return "NonFungibleRequirementsOnFungibleResource"
    case "General": {
      if (c.requiredIds.length > 0 || c.allowedIds.type === "Allowlist")
        return "NonFungibleRequirementsOnFungibleResource"
      if (
        c.lowerBound.type === "NonZero"
          ? !BigDecimal.isPositive(amount)
          : BigDecimal.lessThan(amount, amountOf(c.lowerBound.amount))
      )
        return `AmountBelowLowerBound { actual_amount: ${debugDecimal(amount)} }`
      if (c.upperBound.type === "Inclusive" && BigDecimal.greaterThan(amount, amountOf(c.upperBound.amount)))
        return `AmountAboveUpperBound { actual_amount: ${debugDecimal(amount)} }`
      return undefined
    }
  }
}

/** Why resources break a constraints map, if they do (`only`: nothing else may be present). */
const constraintsError = (constraints: ResourceConstraints, have: Resources, only: boolean): string | undefined => {
  const named = new Set<string>()
  for (const { resourceAddress, constraint } of constraints) {
    const resource = addressOf(resourceAddress)
    named.add(resource)
    const error = constraintError(constraint, have.get(resource) ?? ZERO)
    if (error !== undefined)
      return `ResourceConstraintFailed { resource_address: ResourceAddress("${resource}"), error: ${error} }`
  }
  if (only) {
    for (const [resource, amount] of have) {
      if (BigDecimal.isPositive(amount) && !named.has(resource))
        return `UnexpectedNonZeroBalanceOfUnspecifiedResource { resource_address: ResourceAddress("${resource}") }`
    }
  }
  return undefined
}

const add = (into: Resources, resource: string, amount: BigDecimal.BigDecimal) => {
  if (BigDecimal.isZero(amount)) return
  into.set(resource, BigDecimal.sum(into.get(resource) ?? ZERO, amount))
}

export const executeV2 = (tx: ValidatedTransactionV2, view: LedgerView): PayloadExecution => {
  // The engine's rejections before execution: the timestamp window, then subintents finalized before.
  const nowSeconds = Math.floor(view.proposerTimestampMs / 1000)
  const instant = (s: number) => `Instant { seconds_since_unix_epoch: ${s} }`
  if (tx.minTimestampInclusive !== undefined && nowSeconds < tx.minTimestampInclusive) {
    return {
      _tag: "Rejected",
      reason: `TransactionProposerTimestampNotYetValid { valid_from_inclusive: ${instant(tx.minTimestampInclusive)}, current_time: ${instant(nowSeconds)} }`
    }
  }
  if (tx.maxTimestampExclusive !== undefined && nowSeconds >= tx.maxTimestampExclusive) {
    return {
      _tag: "Rejected",
      reason: `TransactionProposerTimestampNoLongerValid { valid_to_exclusive: ${instant(tx.maxTimestampExclusive)}, current_time: ${instant(nowSeconds)} }`,
      permanent: true
    }
  }
  for (const intent of tx.intents) {
    if (!intent.isRoot && view.subintentFinalized(intent.id)) {
      return { _tag: "Rejected", reason: `IntentHashPreviouslyCommitted(Subintent(${intent.id}))`, permanent: true }
    }
  }

  const instructionCount = tx.intents.reduce((n, i) => n + i.core.instructions.length, 0)
  const fee = devnetFee(instructionCount)
  const deltas = new Map<string, Map<string, BigDecimal.BigDecimal>>()
  const feeLocks: Array<{ account: string; amount: BigDecimal.BigDecimal }> = []
  const withdrawnFrom = new Set<string>()
  const depositedInto = new Set<string>()
  const touched = new Set<string>()

  const delta = (account: string, resource: string) => deltas.get(account)?.get(resource) ?? ZERO
  const addDelta = (account: string, resource: string, amount: BigDecimal.BigDecimal) => {
    const m = deltas.get(account) ?? new Map<string, BigDecimal.BigDecimal>()
    m.set(resource, BigDecimal.sum(m.get(resource) ?? ZERO, amount))
    deltas.set(account, m)
  }
  const locked = (account: string) =>
    feeLocks.reduce((sum, l) => (l.account === account ? BigDecimal.sum(sum, l.amount) : sum), ZERO)
  const available = (account: string, resource: string) => {
    const held = BigDecimal.sum(view.balance(account, resource), delta(account, resource))
    return resource === view.xrd ? BigDecimal.subtract(held, locked(account)) : held
  }

  const states: Array<IntentState> = tx.intents.map((intent, index) => ({
    intent,
    index,
    pc: 0,
    worktop: new Map(),
    buckets: new Map(),
    nextBucket: 0,
    signerAccounts: accountsOf(intent),
    pendingAssertion: undefined
  }))

  const requireValidAmount = (where: string, resource: string, amount: BigDecimal.BigDecimal) => {
    const divisibility = view.divisibility(resource) ?? 18
    if (BigDecimal.isNegative(amount) || !fitsDivisibility(amount, divisibility))
      fail(
        runtime(`ApplicationError(${where}(ResourceError(InvalidAmount(${debugDecimal(amount)}, ${divisibility}))))`)
      )
  }
  const requireOwner = (s: IntentState, account: string, method: string) => {
    if (!s.signerAccounts.has(account))
      fail(
        runtime(
          `SystemModuleError(AuthError(Unauthorized(Unauthorized { failed_access_rules: RoleList([RoleKey { key: "_owner_" }]), ` +
            `fn_identifier: "Account::${method}", address: "${account}" })))`
        )
      )
  }
  const takeBucket = (s: IntentState, id: number) => {
    const b = s.buckets.get(id) ?? fail(runtime(`KernelError(InvalidReference(Bucket(${id})))`))
    s.buckets.delete(id)
    return b
  }
  /** Moves every bucket (and the whole worktop, for ENTIRE_WORKTOP) an argument value names out of the intent. */
  const collect = (s: IntentState, v: ManifestValue, into: Resources, depth = 0): void => {
    if (depth > 32) fail(runtime("DevnetUnsupported(arguments nested too deeply)"))
    switch (v.kind) {
      case "Bucket": {
        const b = takeBucket(s, v.id)
        add(into, b.resource, b.amount)
        return
      }
      case "Expression":
        if (v.value === "EntireWorktop") {
          for (const [r, a] of s.worktop) add(into, r, a)
          s.worktop.clear()
          return
        }
        return fail(runtime("DevnetUnsupported(Expression(ENTIRE_AUTH_ZONE) is not supported by the devnet ledger)"))
      case "Proof":
        return fail(runtime("SystemError(IntentError(CannotYieldProof))"))
      case "Tuple":
      case "Enum":
        for (const f of v.fields) collect(s, f, into, depth + 1)
        return
      case "Array":
        for (const e of v.elements) collect(s, e, into, depth + 1)
        return
      case "Map":
        for (const [k, x] of v.entries) {
          collect(s, k, into, depth + 1)
          collect(s, x, into, depth + 1)
        }
        return
      default:
        return
    }
  }
  const checkNextCall = (s: IntentState, returned: Resources) => {
    const pending = s.pendingAssertion
    if (pending === undefined) return
    s.pendingAssertion = undefined
    const error = constraintsError(pending.constraints, returned, pending.only)
    if (error !== undefined) fail(runtime(`SystemError(IntentError(AssertNextCallReturnsFailed(${error})))`))
  }
  const toWorktop = (s: IntentState, resources: Resources) => {
    for (const [r, a] of resources) add(s.worktop, r, a)
  }

  const callAccount = (s: IntentState, account: string, method: string, args: ManifestValue): Resources => {
    const fields = args.kind === "Tuple" ? args.fields : []
    const returned: Resources = new Map()
    touched.add(account)
    if (method === "lock_fee") {
      if (!s.intent.isRoot) fail(runtime(`SystemError(CannotLockFeeInChildSubintent(${s.index}))`))
      requireOwner(s, account, method)
      const [amountValue] = fields
      if (amountValue?.kind !== "Decimal")
        return fail(runtime(`ApplicationError(InputDecodeError("Account::lock_fee"))`))
      const amount = amountOf(amountValue.value)
      requireValidAmount("VaultError", view.xrd, amount)
      const have = available(account, view.xrd)
      if (BigDecimal.lessThan(have, amount))
        fail(
          runtime(
            `ApplicationError(VaultError(ResourceError(InsufficientBalance { requested: ${debugDecimal(amount)}, actual: ${debugDecimal(have)} })))`
          )
        )
      feeLocks.push({ account, amount })
      return returned
    }
    if (method === "withdraw") {
      requireOwner(s, account, method)
      const [resourceValue, amountValue] = fields
      if (resourceValue?.kind !== "Address" || amountValue?.kind !== "Decimal")
        return fail(runtime(`ApplicationError(InputDecodeError("Account::withdraw"))`))
      const resource = staticAddress(resourceValue.value)
      const amount = amountOf(amountValue.value)
      requireValidAmount("VaultError", resource, amount)
      const have = available(account, resource)
      if (BigDecimal.lessThan(have, amount))
        fail(
          runtime(
            `ApplicationError(VaultError(ResourceError(InsufficientBalance { requested: ${debugDecimal(amount)}, actual: ${debugDecimal(have)} })))`
          )
        )
      addDelta(account, resource, BigDecimal.negate(amount))
      withdrawnFrom.add(account)
      touched.add(resource)
      add(returned, resource, amount)
      return returned
    }
    if (DEPOSIT_METHODS.has(method)) {
      if (method === "deposit" || method === "deposit_batch") requireOwner(s, account, method)
      const [first] = fields
      if (first === undefined) return fail(runtime(`ApplicationError(InputDecodeError("Account::${method}"))`))
      const incoming: Resources = new Map()
      collect(s, first, incoming)
      for (const [resource, amount] of incoming) {
        addDelta(account, resource, amount)
        depositedInto.add(account)
        touched.add(resource)
      }
      return returned
    }
    return fail(
      runtime(`DevnetUnsupported(CALL_METHOD "${method}" on an account is not supported by the devnet ledger)`)
    )
  }

  /** Runs intent `index` from where it stopped with `incoming` on its worktop, until it yields to its parent or ends. */
  const run = (index: number, incoming: Resources): Resources => {
    const s = states[index] ?? fail(runtime(`SystemError(IntentError(InvalidIntentIndex(${index})))`))
    checkNextCall(s, incoming)
    toWorktop(s, incoming)
    const instructions = s.intent.core.instructions
    while (s.pc < instructions.length) {
      const ins: InstructionV2 | undefined = instructions[s.pc]
      s.pc += 1
      if (ins === undefined) break
      const isInvocation = ins.kind === "CallMethod" || ins.kind === "YieldToChild" || ins.kind === "YieldToParent"
      if (s.pendingAssertion !== undefined && !isInvocation)
        fail(runtime("ManifestValidationError(InstructionFollowingNextCallAssertionWasNotInvocation)"))
      switch (ins.kind) {
        case "CallMethod": {
          const target = staticAddress(ins.address)
          if (!isAccountAddress(target))
            fail(
              runtime(
                `DevnetUnsupported(CALL_METHOD "${ins.methodName}" on ${target}: the devnet ledger only runs account methods)`
              )
            )
          const returned = callAccount(s, target, ins.methodName, ins.args)
          checkNextCall(s, returned)
          toWorktop(s, returned)
          break
        }
        case "TakeFromWorktop": {
          const resource = addressOf(ins.resourceAddress)
          const amount = amountOf(ins.amount)
          requireValidAmount("WorktopError", resource, amount)
          const have = s.worktop.get(resource) ?? ZERO
          if (BigDecimal.lessThan(have, amount))
            fail(
              runtime(
                `ApplicationError(WorktopError(ResourceError(InsufficientBalance { requested: ${debugDecimal(amount)}, actual: ${debugDecimal(have)} })))`
              )
            )
          if (BigDecimal.equals(have, amount)) s.worktop.delete(resource)
          else s.worktop.set(resource, BigDecimal.subtract(have, amount))
          s.buckets.set(s.nextBucket++, { resource, amount })
          break
        }
        case "TakeAllFromWorktop": {
          const resource = addressOf(ins.resourceAddress)
          const amount = s.worktop.get(resource) ?? ZERO
          s.worktop.delete(resource)
          s.buckets.set(s.nextBucket++, { resource, amount })
          break
        }
        case "ReturnToWorktop": {
          const b = takeBucket(s, ins.bucket)
          add(s.worktop, b.resource, b.amount)
          break
        }
        case "AssertWorktopContains": {
          const resource = addressOf(ins.resourceAddress)
          const amount = amountOf(ins.amount)
          const have = s.worktop.get(resource) ?? ZERO
          if (BigDecimal.lessThan(have, amount))
            fail(
              runtime(
                `ApplicationError(WorktopError(AssertionFailed(ResourceConstraint { resource: "${resource}", ` +
                  `required_amount: ${debugDecimal(amount)}, actual_amount: ${debugDecimal(have)} })))`
              )
            )
          break
        }
        case "AssertWorktopContainsAny": {
          const resource = addressOf(ins.resourceAddress)
          if (!BigDecimal.isPositive(s.worktop.get(resource) ?? ZERO))
            fail(runtime(`ApplicationError(WorktopError(AssertionFailed(NonZeroAmount("${resource}"))))`))
          break
        }
        case "AssertWorktopResourcesOnly":
        case "AssertWorktopResourcesInclude": {
          const error = constraintsError(ins.constraints, s.worktop, ins.kind === "AssertWorktopResourcesOnly")
          if (error !== undefined) fail(runtime(`ApplicationError(WorktopError(AssertionFailed(${error})))`))
          break
        }
        case "AssertNextCallReturnsOnly":
        case "AssertNextCallReturnsInclude":
          s.pendingAssertion = { only: ins.kind === "AssertNextCallReturnsOnly", constraints: ins.constraints }
          break
        case "AssertBucketContents": {
          const b = s.buckets.get(ins.bucket) ?? fail(runtime(`KernelError(InvalidReference(Bucket(${ins.bucket})))`))
          const error = constraintError(ins.constraint, b.amount)
          if (error !== undefined) fail(runtime(`SystemError(IntentError(AssertBucketContentsFailed(${error})))`))
          break
        }
        case "YieldToChild": {
          const child = s.intent.children[ins.childIndex]
          if (child === undefined)
            return fail(runtime(`SystemError(IntentError(InvalidIntentIndex(${ins.childIndex})))`))
          const passed: Resources = new Map()
          collect(s, ins.args, passed)
          const returned = run(child, passed)
          checkNextCall(s, returned)
          toWorktop(s, returned)
          break
        }
        case "YieldToParent": {
          if (s.intent.parent === undefined) return fail(runtime("SystemError(IntentError(NoParentToYieldTo))"))
          const passed: Resources = new Map()
          collect(s, ins.args, passed)
          if (s.pc >= instructions.length) requireEmpty(s)
          return passed
        }
        case "VerifyParent": {
          const parent = s.intent.parent === undefined ? undefined : states[s.intent.parent]
          if (parent === undefined) return fail(runtime("SystemError(IntentError(CannotVerifyParentOnRoot))"))
          if (!ruleSatisfied(ins.accessRule, badgesOf(parent.intent)))
            fail(runtime("SystemError(IntentError(VerifyParentFailed))"))
          break
        }
        default:
          fail(
            runtime(
              `DevnetUnsupported(instruction ${INSTRUCTIONS[ins.kind].name} is not supported by the devnet ledger)`
            )
          )
      }
    }
    if (s.pendingAssertion !== undefined)
      fail(runtime("ManifestValidationError(ManifestEndedWhilstExpectingNextCallAssertion)"))
    requireEmpty(s)
    return new Map()
  }
  /** An intent ends with nothing on its worktop and no bucket holding anything, as the engine requires. */
  const requireEmpty = (s: IntentState) => {
    const left = [...s.worktop.entries()].filter(([, a]) => !BigDecimal.isZero(a))
    if (left.length > 0)
      fail(
        runtime(
          `ApplicationError(WorktopError(NonEmptyWorktop { resources: [${left
            .map(([r, a]) => `("${r}", ${debugDecimal(a)})`)
            .join(", ")}] }))`
        )
      )
    if ([...s.buckets.values()].some((b) => !BigDecimal.isZero(b.amount)))
      fail(runtime("ApplicationError(BucketError(NotEmpty))"))
  }

  let errorMessage: string | undefined
  try {
    run(0, new Map())
  } catch (e) {
    if (!(e instanceof Failure)) throw e
    errorMessage = e.message
  }

  const totalLocked = BigDecimal.sumAll(feeLocks.map((l) => l.amount))
  if (BigDecimal.lessThan(totalLocked, fee)) {
    return {
      _tag: "Rejected",
      reason:
        errorMessage === undefined
          ? `SuccessButFeeLoanNotRepaid: the manifest locked ${formatPlain(totalLocked)} XRD but the transaction costs ${formatPlain(fee)} XRD`
          : `ErrorBeforeLoanAndDeferredCostsRepaid(${errorMessage})`
    }
  }
  const feeChanges: Array<BalanceChange> = []
  let remaining = fee
  for (const lock of feeLocks) {
    if (BigDecimal.isZero(remaining)) break
    const pay = BigDecimal.min(lock.amount, remaining)
    remaining = BigDecimal.subtract(remaining, pay)
    const at = feeChanges.findIndex((p) => p.entity === lock.account)
    const previous = feeChanges[at]
    if (previous !== undefined) feeChanges[at] = { ...previous, change: BigDecimal.subtract(previous.change, pay) }
    else feeChanges.push({ entity: lock.account, resource: view.xrd, change: BigDecimal.negate(pay) })
  }
  const success = errorMessage === undefined
  const changes: Array<BalanceChange> = []
  if (success) {
    for (const [entity, byResource] of deltas)
      for (const [resource, change] of byResource)
        if (!BigDecimal.isZero(change)) changes.push({ entity, resource, change })
  }
  const root = tx.intents[0]
  const idOf = (i: number) => tx.intents[i]?.id ?? ""
  const subintents: Array<SubintentRecord> = tx.intents
    .filter((i) => !i.isRoot)
    .map((i) => ({
      subintentHash: i.id,
      manifest: manifestText(i),
      message: toGatewayMessage(i.core.message),
      childSubintentHashes: i.children.map(idOf)
    }))
  const outputs = (root?.core.instructions ?? []).map((ins, index) => {
    const yieldsBucket =
      (ins.kind === "CallMethod" && ins.methodName === "withdraw") ||
      ins.kind === "TakeFromWorktop" ||
      ins.kind === "TakeAllFromWorktop"
    if (!yieldsBucket) return "5c2100"
    const id = blake2b256(new TextEncoder().encode(`${tx.payloadHash}/bucket/${index}`)).slice(0, 29)
    return `5c90f8${toHex(id)}`
  })
  return {
    _tag: "Commit",
    commit: {
      success,
      intentHash: tx.intentHash,
      payloadHash: tx.payloadHash,
      fee,
      errorMessage,
      manifest: root === undefined ? undefined : manifestText(root),
      message: root === undefined ? undefined : toGatewayMessage(root.core.message),
      rawHex: tx.rawHex,
      feeChanges,
      changes,
      withdrawnFrom: [...withdrawnFrom],
      depositedInto: [...depositedInto],
      resources: [...touched].filter((a) => a.startsWith("resource_")),
      classes: ["General"],
      outputs,
      subintents,
      childSubintentHashes: root === undefined ? [] : root.children.map(idOf)
    }
  }
}

/** The `subtxid_…` of a subintent hash on the devnet (for callers holding raw hashes). */
export const devnetSubintentId = (hash: Uint8Array): string => subintentId(hash, DEVNET_NETWORK_ID)
