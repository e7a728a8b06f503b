/**
 * The devnet ledger service, composed: storage (`store.ts`), the transaction formats' validators and executors
 * (`formats.ts`, `payload.ts`), the Gateway's payload tracking (`submission.ts`), and the rounds that follow the
 * Clock. One permit serialises everything that reads the tip or writes: a commit, a preview, a status read.
 */
import { BigDecimal, Effect, Option } from "effect"
import { formatPlain } from "../../lib/decimalText"
import {
  CONSENSUS_MANAGER,
  addressKind,
  derivedResourceAddress,
  isAccountAddress,
  isFungibleResourceAddress
} from "./address"
import { parseLedgerDecimal, ZERO } from "./amount"
import { type ExecutionOutcome, execute } from "./execute"
import { executionEnv } from "./executeV1"
import { validatePayload } from "./formats"
import { epochRejection } from "./payload"
import { makeLedgerStore } from "./store"
import { makeSubmission } from "./submission"
import {
  type IntentStatusInfo,
  LedgerError,
  type LedgerService,
  type LedgerState,
  type NewFungibleResource,
  type PreviewRequest,
  type PreviewResult,
  type TransactionStatusInfo
} from "./types"

export const makeLedger = Effect.gen(function* () {
  const store = yield* makeLedgerStore
  const submission = makeSubmission(store)
  const semaphore = yield* Effect.makeSemaphore(1)
  const view = { xrd: store.xrd, balance: store.balanceOf, divisibility: store.divisibility }

  /**
   * Brings the ledger to the Clock's round: when the Clock's epoch or round differs from the tip's, one round update
   * is committed (caller holds the permit). On the real ledger each round change is a committed `RoundUpdateV1`
   * transaction (babylon-gateway v1.10.1 `LedgerTransactionType.RoundUpdate`; `/stream/transactions` with
   * `kind_filter: "EpochChange"` lists the ones that end an epoch, `TransactionQuerier.cs`).
   */
  const catchUpRounds = Effect.gen(function* () {
    const clock = yield* store.clockState
    const tip = store.tip()
    if (clock.epoch === tip.epoch && clock.round === tip.round) return
    const epochChange = clock.epoch !== tip.epoch
    yield* store
      .commit({
        kind: "RoundUpdate",
        success: true,
        intentHash: undefined,
        payloadHash: undefined,
        fee: ZERO,
        errorMessage: undefined,
        manifest: undefined,
        message: undefined,
        rawHex: undefined,
        feeChanges: [],
        changes: [],
        withdrawnFrom: [],
        depositedInto: [],
        resources: [],
        classes: [],
        at: clock,
        affected: [CONSENSUS_MANAGER],
        ...(epochChange ? { nextEpoch: clock.epoch } : {})
      })
      .pipe(Effect.orDie)
  })

  /** Rounds, then due resubmissions (caller holds the permit). */
  const tick = Effect.zipRight(catchUpRounds, submission.resubmitDue)

  const state: Effect.Effect<LedgerState> = semaphore.withPermits(1)(Effect.zipRight(tick, Effect.sync(store.tipState)))

  /** `/transaction/submit`: validated by its format, then tracked and given to the node (`submission.ts`). */
  const submit = Effect.fn("Ledger.submit")(function* (notarizedTransactionHex: string) {
    const payload = yield* validatePayload(notarizedTransactionHex)
    return yield* semaphore.withPermits(1)(Effect.zipRight(tick, submission.submit(payload)))
  })

  /**
   * Runs a manifest on the current state without committing anything: no state version, balance, transaction or
   * rejection is recorded. It holds the submission permit while it runs, so it sees the state between two commits.
   */
  const preview = Effect.fn("Ledger.preview")(function* (request: PreviewRequest) {
    return yield* semaphore.withPermits(1)(
      Effect.gen(function* () {
        yield* tick
        const ledgerState = store.tipState()
        const window = request.epochWindow
        const outOfWindow =
          window === undefined
            ? undefined
            : epochRejection(ledgerState.epoch, window.startEpochInclusive, window.endEpochExclusive)
        const outcome: ExecutionOutcome =
          outOfWindow !== undefined
            ? { _tag: "Rejected", reason: outOfWindow.reason }
            : execute(request.instructions, {
                ...executionEnv(view, request.signerAccounts),
                assumeAllSignatureProofs: request.assumeAllSignatureProofs,
                freeCredit: request.useFreeCredit
              })
        return { ledgerState, outcome } satisfies PreviewResult
      })
    )
  })

  /** The commit and the tracked payloads of an intent, after bringing rounds and resubmissions up to date. */
  const intentStatus = Effect.fn("Ledger.intentStatus")(function* (intentHash: string) {
    return yield* semaphore.withPermits(1)(
      Effect.zipRight(tick, submission.intentStatus(intentHash))
    ) satisfies Effect.Effect<IntentStatusInfo>
  })

  /**
   * A short form for the devnet dashboard and tests: committed, rejected (the latest rejection of any tracked
   * payload, temporary or permanent), or unknown.
   */
  const transactionStatus = Effect.fn("Ledger.transactionStatus")(function* (intentHash: string) {
    const info = yield* intentStatus(intentHash)
    if (info.committed !== undefined)
      return { _tag: "Committed", transaction: info.committed } satisfies TransactionStatusInfo
    const rejected = info.payloads.filter((p) => p.latestRejectionReason !== undefined)
    const last = rejected[rejected.length - 1]
    if (last !== undefined) {
      return {
        _tag: "Rejected",
        reason: last.latestRejectionReason ?? "",
        payloadHash: last.payloadHash,
        permanentlyRejectsAtEpoch: last.endEpochExclusive
      } satisfies TransactionStatusInfo
    }
    return { _tag: "Unknown" } satisfies TransactionStatusInfo
  })

  /** Devnet administration: creates a fungible resource and mints its initial supply into an account. */
  const createFungibleResource = Effect.fn("Ledger.createFungibleResource")(function* (spec: NewFungibleResource) {
    const parsed = parseLedgerDecimal(spec.initialSupply)
    if (Option.isNone(parsed) || BigDecimal.isNegative(parsed.value))
      return yield* new LedgerError({ message: `Invalid initial supply ${spec.initialSupply}` })
    const supply = parsed.value
    if (!isAccountAddress(spec.to)) return yield* new LedgerError({ message: `Not an account address: ${spec.to}` })
    if (!Number.isInteger(spec.divisibility) || spec.divisibility < 0 || spec.divisibility > 18) {
      return yield* new LedgerError({ message: `Invalid divisibility ${spec.divisibility}` })
    }
    return yield* semaphore.withPermits(1)(
      Effect.gen(function* () {
        const address = derivedResourceAddress(store.options.seed, `${spec.symbol}#${store.stateVersion() + 1}`)
        const info = {
          address,
          symbol: spec.symbol,
          name: spec.name,
          description: spec.description ?? `${spec.name} on the hSwap devnet`,
          iconUrl: spec.iconUrl ?? "",
          divisibility: spec.divisibility,
          totalSupply: formatPlain(supply)
        }
        yield* store
          .commit({
            kind: "System",
            success: true,
            intentHash: undefined,
            payloadHash: undefined,
            fee: ZERO,
            errorMessage: undefined,
            manifest: undefined,
            message: undefined,
            rawHex: undefined,
            feeChanges: [],
            changes: BigDecimal.isPositive(supply) ? [{ entity: spec.to, resource: address, change: supply }] : [],
            withdrawnFrom: [],
            depositedInto: [spec.to],
            resources: [address],
            classes: ["General"],
            newResources: [info],
            metadata: store.metadataFor(info).filter((m) => m.key !== "icon_url" || m.value !== "")
          })
          .pipe(Effect.orDie)
        return address
      })
    )
  })

  return {
    genesis: store.genesis,
    xrd: store.xrd,
    state,
    submit,
    preview,
    transactionStatus,
    intentStatus,
    committedTransaction: store.transactionByIntent,
    subintentStatus: (subintentHash: string) =>
      semaphore.withPermits(1)(Effect.zipRight(tick, store.subintentStatus(subintentHash))),
    transactions: store.transactions,
    accountVaults: store.accountVaults,
    balance: store.balance,
    vaultOwner: store.vaultOwner,
    resource: store.resource,
    resources: store.resources,
    metadata: store.metadata,
    resourceHolders: store.resourceHolders,
    ledgerStateAt: store.ledgerStateAt,
    stateVersionAt: store.stateVersionAt,
    currentStateVersion: Effect.sync(store.stateVersion),
    createFungibleResource,
    entityKind: (address: string) => addressKind(address),
    isFungibleResource: isFungibleResourceAddress
  } satisfies LedgerService
})
