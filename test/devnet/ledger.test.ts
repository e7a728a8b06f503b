import { describe, expect, it } from "@effect/vitest"
import { ManifestBuilder, address, bucket, decimal, enumeration, expression } from "@radixdlt/radix-engine-toolkit"
import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { BigDecimal, Cause, Effect, Either, Exit, Option, TestClock } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build.js"
import { devnetFee } from "../../src/devnet/ledger/execute.js"
import { parseLedgerDecimal } from "../../src/devnet/ledger/amount.js"
import { formatPlain } from "../../src/lib/decimalText.js"
import { type CommittedTransaction, Ledger, type SubmitResult } from "../../src/devnet/ledger/Ledger.js"
import type { DevnetKey } from "../../src/devnet/ledger/genesis.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"

const { XRD, hUSDC, hETH } = DevnetAddresses.resources
const [user1 = "", user2 = ""] = DevnetAddresses.users
const exchange = DevnetAddresses.exchangeAccount

const amount = (text: string): BigDecimal.BigDecimal =>
  Option.getOrThrowWith(parseLedgerDecimal(text), () => new Error(`bad decimal ${text}`))

/** Submits a manifest signed by `signers`, notarized by the genesis notary, valid from the current epoch. */
const submitManifest = (
  manifest: Parameters<typeof buildNotarizedTransaction>[0]["manifest"],
  signers: ReadonlyArray<DevnetKey>,
  extra: { message?: string | { mimeType: string; text: string }; endEpochExclusive?: number } = {}
) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const { epoch } = yield* ledger.state
    const built = yield* buildNotarizedTransaction({
      manifest,
      signers,
      notary: ledger.genesis.notary,
      startEpochInclusive: epoch,
      ...(extra.endEpochExclusive === undefined ? {} : { endEpochExclusive: extra.endEpochExclusive }),
      ...(extra.message === undefined ? {} : { message: extra.message })
    })
    const result = yield* Effect.either(ledger.submit(built.notarizedTransactionHex))
    return { built, result }
  })

/** The commit a submission made; fails the test when there is none. */
const committedOf = (submitted: SubmitResult): CommittedTransaction => {
  if (submitted.transaction === undefined) throw new Error(`${submitted.intentHash} did not commit`)
  return submitted.transaction
}

const balancesOf = (accounts: ReadonlyArray<string>, resources: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const out: Record<string, string> = {}
    for (const a of accounts) for (const r of resources) out[`${a}|${r}`] = yield* ledger.balance(a, r)
    return out
  })

const transferManifest = (from: string, to: string, resource: string, amount: string) =>
  new ManifestBuilder()
    .callMethod(from, "lock_fee", [decimal(5)])
    .callMethod(from, "withdraw", [address(resource), decimal(amount)])
    .takeAllFromWorktop(resource, (b, id) => b.callMethod(to, "try_deposit_or_abort", [bucket(id), enumeration(0)]))
    .build()

/** Runs a failing manifest and checks: CommittedFailure with `errorPart`, only the fee moved. */
const expectCommittedFailure = (
  manifest: Parameters<typeof buildNotarizedTransaction>[0]["manifest"],
  signers: (l: Ledger) => ReadonlyArray<DevnetKey>,
  errorPart: string,
  instructionCount: number
) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const watched = [user1, user2, exchange]
    const before = yield* balancesOf(watched, [XRD, hUSDC, hETH])
    const { result } = yield* submitManifest(manifest, signers(ledger))
    const submitted = Either.getOrThrow(result)
    expect(submitted.duplicate).toBe(false)
    const tx = committedOf(submitted)
    expect(tx.status).toBe("CommittedFailure")
    expect(tx.errorMessage).toContain(errorPart)
    const fee = devnetFee(instructionCount)
    expect(formatPlain(tx.feePaid)).toBe(formatPlain(fee))
    expect(tx.balanceChanges).toEqual([])
    const after = yield* balancesOf(watched, [XRD, hUSDC, hETH])
    const expected = {
      ...before,
      [`${user1}|${XRD}`]: formatPlain(BigDecimal.subtract(amount(before[`${user1}|${XRD}`] ?? "0"), fee))
    }
    expect(after).toEqual(expected)
    const status = yield* ledger.transactionStatus(submitted.intentHash)
    expect(status._tag).toBe("Committed")
  })

describe("devnet Ledger", () => {
  it.effect("genesis: funded users, exchange liquidity, resource supply and metadata", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      expect(yield* ledger.balance(user1, XRD)).toBe("10000")
      expect(yield* ledger.balance(user1, hUSDC)).toBe("5000")
      expect(yield* ledger.balance(exchange, hUSDC)).toBe("1000000")
      const husdc = Option.getOrThrow(yield* ledger.resource(hUSDC))
      expect(husdc.divisibility).toBe(6)
      expect(husdc.totalSupply).toBe("1015000")
      const md = yield* ledger.metadata(hUSDC)
      expect(md.map((m) => m.key)).toEqual(["description", "divisibility", "icon_url", "name", "symbol"])
      const dapp = yield* ledger.metadata(DevnetAddresses.dAppDefinition)
      expect(dapp.find((m) => m.key === "name")?.value).toBe("hSwap")
      const state = yield* ledger.state
      expect(state).toMatchObject({ network: "localnet", state_version: 1, epoch: 1 })
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a swap-shaped manifest built with ManifestBuilder commits and moves exactly the right balances", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const user = ledger.genesis.users[0]
      const manifest = new ManifestBuilder()
        .callMethod(user1, "lock_fee", [decimal(5)])
        .callMethod(user1, "withdraw", [address(XRD), decimal("100.123456789012345678")])
        .takeAllFromWorktop(XRD, (b, id) =>
          b.callMethod(exchange, "try_deposit_or_abort", [bucket(id), enumeration(0)])
        )
        .callMethod(exchange, "withdraw", [address(hUSDC), decimal("4.25")])
        .assertWorktopContains(hUSDC, decimal("4.25").value)
        .callMethod(user1, "try_deposit_batch_or_abort", [expression("EntireWorktop"), enumeration(0)])
        .build()
      const before = yield* balancesOf([user1, exchange], [XRD, hUSDC])
      const { built, result } = yield* submitManifest(manifest, [user.key, ledger.genesis.exchange.key], {
        message: "swap 100 XRD"
      })
      const submitted = Either.getOrThrow(result)
      expect(submitted.intentHash).toBe(built.intentHash)
      expect(submitted.intentHash).toMatch(/^txid_loc1/)
      expect(submitted.duplicate).toBe(false)
      const tx = committedOf(submitted)
      expect(tx.status).toBe("CommittedSuccess")
      expect(tx.stateVersion).toBe(2)
      const fee = devnetFee(7)
      expect(formatPlain(tx.feePaid)).toBe(formatPlain(fee))
      const after = yield* balancesOf([user1, exchange], [XRD, hUSDC])
      const moved = amount("100.123456789012345678")
      const b = (k: string) => amount(before[k] ?? "0")
      expect(after).toEqual({
        [`${user1}|${XRD}`]: formatPlain(BigDecimal.subtract(BigDecimal.subtract(b(`${user1}|${XRD}`), moved), fee)),
        [`${user1}|${hUSDC}`]: formatPlain(BigDecimal.sum(b(`${user1}|${hUSDC}`), amount("4.25"))),
        [`${exchange}|${XRD}`]: formatPlain(BigDecimal.sum(b(`${exchange}|${XRD}`), moved)),
        [`${exchange}|${hUSDC}`]: formatPlain(BigDecimal.subtract(b(`${exchange}|${hUSDC}`), amount("4.25")))
      })
      expect(tx.feeBalanceChanges).toEqual([
        { entity: user1, resource: XRD, change: formatPlain(BigDecimal.negate(fee)) }
      ])
      expect(
        [...tx.balanceChanges].sort((x, y) => (x.entity + x.resource).localeCompare(y.entity + y.resource))
      ).toEqual(
        [
          { entity: user1, resource: XRD, change: "-100.123456789012345678" },
          { entity: user1, resource: hUSDC, change: "4.25" },
          { entity: exchange, resource: XRD, change: "100.123456789012345678" },
          { entity: exchange, resource: hUSDC, change: "-4.25" }
        ].sort((x, y) => (x.entity + x.resource).localeCompare(y.entity + y.resource))
      )
      expect(tx.message).toEqual({
        type: "Plaintext",
        mime_type: "text/plain",
        content: { type: "String", value: "swap 100 XRD" }
      })
      expect(tx.manifest).toContain('"try_deposit_or_abort"')
      expect(tx.affectedGlobalEntities).toEqual(expect.arrayContaining([user1, exchange, XRD, hUSDC]))
      const stream = yield* ledger.transactions({
        order: "Desc",
        kind: "User",
        status: "All",
        withdrawnFrom: [user1],
        depositedInto: [exchange],
        affected: [],
        resources: [],
        limit: 10
      })
      expect(stream.items.map((t) => t.intentHash)).toEqual([submitted.intentHash])
      expect(Option.getOrThrow(yield* ledger.committedTransaction(submitted.intentHash)).stateVersion).toBe(2)
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("insufficient balance fails as CommittedFailure; only the fee is charged", () =>
    expectCommittedFailure(
      transferManifest(user1, user2, hETH, "2.5"),
      (l) => [l.genesis.users[0].key],
      "InsufficientBalance",
      4
    ).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a withdrawal from an account whose key did not sign fails with an auth error", () =>
    expectCommittedFailure(
      new ManifestBuilder()
        .callMethod(user1, "lock_fee", [decimal(5)])
        .callMethod(exchange, "withdraw", [address(hUSDC), decimal("10")])
        .takeAllFromWorktop(hUSDC, (b, id) => b.callMethod(user1, "try_deposit_or_abort", [bucket(id), enumeration(0)]))
        .build(),
      (l) => [l.genesis.users[0].key],
      "AuthError(Unauthorized",
      4
    ).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a negative amount fails with InvalidAmount", () =>
    expectCommittedFailure(
      transferManifest(user1, user2, hUSDC, "-1"),
      (l) => [l.genesis.users[0].key],
      'InvalidAmount(Decimal("-1"), 6)',
      4
    ).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("an amount with more decimals than the resource's divisibility fails", () =>
    expectCommittedFailure(
      transferManifest(user1, user2, hUSDC, "1.0000001"),
      (l) => [l.genesis.users[0].key],
      'InvalidAmount(Decimal("1.0000001"), 6)',
      4
    ).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a non-empty worktop at the end fails", () =>
    expectCommittedFailure(
      new ManifestBuilder()
        .callMethod(user1, "lock_fee", [decimal(5)])
        .callMethod(user1, "withdraw", [address(hUSDC), decimal("10")])
        .build(),
      (l) => [l.genesis.users[0].key],
      "NonEmptyWorktop",
      2
    ).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("an unsupported instruction fails with a message naming it", () =>
    expectCommittedFailure(
      new ManifestBuilder()
        .callMethod(user1, "lock_fee", [decimal(5)])
        .callMethod(user1, "withdraw", [address(hUSDC), decimal("10")])
        .takeAllFromWorktop(hUSDC, (b, id) => b.burnResource(id))
        .build(),
      (l) => [l.genesis.users[0].key],
      "BurnResource",
      4
    ).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a duplicate submit answers duplicate: true and applies once", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const { built, result } = yield* submitManifest(transferManifest(user1, user2, hUSDC, "7"), [
        ledger.genesis.users[0].key
      ])
      expect(Either.getOrThrow(result).duplicate).toBe(false)
      const again = yield* ledger.submit(built.notarizedTransactionHex)
      expect(again.duplicate).toBe(true)
      expect(again.intentHash).toBe(built.intentHash)
      expect(yield* ledger.balance(user2, hUSDC)).toBe("5007")
      expect((yield* ledger.state).state_version).toBe(2)
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a tampered signature is Rejected and nothing is committed", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const { epoch } = yield* ledger.state
      const built = yield* buildNotarizedTransaction({
        manifest: transferManifest(user1, user2, hUSDC, "7"),
        signers: [ledger.genesis.users[0].key],
        notary: ledger.genesis.notary,
        startEpochInclusive: epoch
      })
      const hex = built.notarizedTransactionHex
      // Flip a bit inside the notary signature (the last 64 bytes).
      const at = hex.length - 20
      const flipped = (parseInt(hex.slice(at, at + 2), 16) ^ 0x01).toString(16).padStart(2, "0")
      const tampered = hex.slice(0, at) + flipped + hex.slice(at + 2)
      const result = yield* Effect.either(ledger.submit(tampered))
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(result.left.reason).toContain("Signature")
      expect((yield* ledger.state).state_version).toBe(1)
      expect(yield* ledger.balance(user1, hUSDC)).toBe("5000")
      expect(yield* ledger.balance(user1, XRD)).toBe("10000")
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("an unparseable payload is Rejected", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      for (const payload of ["deadbeef", "not hex", ""]) {
        const result = yield* Effect.either(ledger.submit(payload))
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) expect(result.left._tag).toBe("TransactionRejected")
      }
      expect((yield* ledger.state).state_version).toBe(1)
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("an expired epoch window is refused before the node (Gateway's own check): untracked, status Unknown", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const built = yield* buildNotarizedTransaction({
        manifest: transferManifest(user1, user2, hUSDC, "7"),
        signers: [ledger.genesis.users[0].key],
        notary: ledger.genesis.notary,
        startEpochInclusive: 1,
        endEpochExclusive: 3
      })
      yield* TestClock.adjust("10 minutes") // epoch 1 -> 3
      expect((yield* ledger.state).epoch).toBe(3)
      const result = yield* Effect.either(ledger.submit(built.notarizedTransactionHex))
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        expect(result.left.reason).toBe("Transaction is no longer valid from epoch 3 but it is now epoch 3")
        expect(result.left.permanence).toBe("Static")
      }
      expect((yield* ledger.transactionStatus(built.intentHash))._tag).toBe("Unknown")
      expect((yield* ledger.intentStatus(built.intentHash)).payloads).toEqual([])
      expect(yield* ledger.balance(user1, hUSDC)).toBe("5000")
      expect(yield* ledger.balance(user1, XRD)).toBe("10000")
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect(
    "a fee lock above the balance is a temporary rejection; the Gateway's resubmission commits it once funded",
    () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const poor = ledger.genesis.users[2]
        // user3 sends away all but 1 XRD, then locks 5 XRD: ErrorBeforeLoanAndDeferredCostsRepaid (temporary).
        const drain = yield* submitManifest(transferManifest(poor.address, user1, XRD, "9994.9"), [poor.key])
        expect(committedOf(Either.getOrThrow(drain.result)).status).toBe("CommittedSuccess")
        const remaining = yield* ledger.balance(poor.address, XRD)
        expect(BigDecimal.lessThan(amount(remaining), amount("5"))).toBe(true)
        const { built, result } = yield* submitManifest(transferManifest(poor.address, user1, hUSDC, "1"), [poor.key])
        expect(Either.isLeft(result) && result.left.permanence).toBe("Temporary")
        const pending = yield* ledger.intentStatus(built.intentHash)
        expect(pending.committed).toBeUndefined()
        expect(pending.payloads).toMatchObject([
          { payloadStatus: "TransientlyRejected", intentStatus: "LikelyButNotCertainRejection", submissionCount: 1 }
        ])
        expect(pending.payloads[0]?.latestRejectionReason).toContain("ErrorBeforeLoanAndDeferredCostsRepaid")
        // The same payload again: a duplicate, not re-executed.
        const again = yield* ledger.submit(built.notarizedTransactionHex)
        expect(again).toMatchObject({ duplicate: true, transaction: undefined })
        // Fund the account; resubmissions at +10 s, +30 s, +70 s meet the node's cached rejection (2 minutes),
        // the one at +150 s is executed afresh and commits.
        const fund = yield* submitManifest(transferManifest(user1, poor.address, XRD, "100"), [
          ledger.genesis.users[0].key
        ])
        expect(Either.isRight(fund.result)).toBe(true)
        yield* TestClock.adjust("100 seconds")
        yield* ledger.state
        expect((yield* ledger.intentStatus(built.intentHash)).committed).toBeUndefined()
        yield* TestClock.adjust("51 seconds")
        const done = yield* ledger.intentStatus(built.intentHash)
        expect(done.committed?.status).toBe("CommittedSuccess")
        expect(done.payloads[0]).toMatchObject({ payloadStatus: "Committed", resubmitFromMs: undefined })
      }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a temporary rejection that never clears: 5 submissions, then the Gateway concludes", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      // Signed by user2, but user1's account locks the fee: the owner's proof is missing (temporary).
      const { built, result } = yield* submitManifest(transferManifest(user1, user2, hUSDC, "1"), [
        ledger.genesis.users[1].key
      ])
      expect(Either.isLeft(result) && result.left.permanence).toBe("Temporary")
      for (let i = 0; i < 40; i++) {
        yield* TestClock.adjust("10 seconds")
        yield* ledger.state
      }
      const info = yield* ledger.intentStatus(built.intentHash)
      expect(info.payloads).toMatchObject([
        {
          payloadStatus: "TransientlyRejected",
          submissionCount: 5,
          resubmitFromMs: undefined,
          handlingStatusReason: "Concluded due to exceeding max submission to node count"
        }
      ])
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("duplicates are keyed on the payload hash: the same intent in another payload is not a duplicate", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const { epoch } = yield* ledger.state
      const intent = {
        manifest: transferManifest(user1, user2, hUSDC, "2"),
        signers: [ledger.genesis.users[0].key],
        startEpochInclusive: epoch,
        nonce: 77
      }
      const first = yield* buildNotarizedTransaction({ ...intent, notary: ledger.genesis.notary })
      const committed = yield* ledger.submit(first.notarizedTransactionHex)
      expect(committed.duplicate).toBe(false)
      // Same intent, notarized again by the same notary: the payload differs only when the signature does, so we
      // re-sign with an extra signature to get a second payload of the same intent.
      const second = yield* buildNotarizedTransaction({
        ...intent,
        signers: [ledger.genesis.users[0].key, ledger.genesis.users[1].key],
        notary: ledger.genesis.notary
      })
      expect(second.intentHash).toBe(first.intentHash)
      expect(second.notarizedTransactionHex).not.toBe(first.notarizedTransactionHex)
      const clash = yield* ledger.submit(second.notarizedTransactionHex)
      expect(clash).toMatchObject({ duplicate: false, transaction: undefined })
      const info = yield* ledger.intentStatus(first.intentHash)
      expect(info.committed?.payloadHash).toBe(committed.payloadHash)
      expect(info.payloads.map((p) => p.payloadStatus)).toEqual(["Committed", "ClashingCommit"])
      expect((yield* ledger.submit(first.notarizedTransactionHex)).duplicate).toBe(true)
      expect(yield* ledger.balance(user2, hUSDC)).toBe("5002")
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("each round change is a committed round-update transaction with its own state version", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const start = yield* ledger.state
      expect(start).toMatchObject({ state_version: 1, epoch: 1, round: 1 })
      yield* TestClock.adjust("1 second")
      const next = yield* ledger.state
      expect(next).toMatchObject({ state_version: 2, epoch: 1, round: 2 })
      expect(yield* ledger.state).toEqual(next) // the same round: nothing new
      yield* TestClock.adjust("5 minutes")
      const epoch2 = yield* ledger.state
      expect(epoch2).toMatchObject({ state_version: 3, epoch: 2, round: 2 })
      const all = yield* ledger.transactions({
        order: "Asc",
        kind: "All",
        status: "All",
        withdrawnFrom: [],
        depositedInto: [],
        affected: [],
        resources: [],
        limit: 10
      })
      expect(all.items.map((t) => [t.kind, t.epoch, t.round, t.nextEpoch])).toEqual([
        ["Genesis", 1, 1, undefined],
        ["RoundUpdate", 1, 2, undefined],
        ["RoundUpdate", 2, 2, 2]
      ])
      const stamp = yield* ledger.ledgerStateAt(2)
      expect(Option.getOrThrow(stamp)).toEqual(next)
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("message limits: 2048 bytes of plaintext, a mime type of at most 128 characters", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const user = [ledger.genesis.users[0].key]
      const ok = yield* submitManifest(transferManifest(user1, user2, hUSDC, "1"), user, { message: "x".repeat(2048) })
      expect(Either.isRight(ok.result)).toBe(true)
      const long = yield* submitManifest(transferManifest(user1, user2, hUSDC, "1"), user, {
        message: "x".repeat(2049)
      })
      expect(Either.isLeft(long.result) && long.result.left.reason).toContain("PlaintextMessageTooLong")
      const mime = yield* submitManifest(transferManifest(user1, user2, hUSDC, "1"), user, {
        message: { mimeType: "a".repeat(129), text: "hi" }
      })
      expect(Either.isLeft(mime.result) && mime.result.left.reason).toContain("MimeType")
      expect(yield* ledger.balance(user2, hUSDC)).toBe("5001")
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("a manifest without a fee lock is Rejected", () =>
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const manifest = new ManifestBuilder()
        .callMethod(user1, "withdraw", [address(hUSDC), decimal("1")])
        .takeAllFromWorktop(hUSDC, (b, id) => b.callMethod(user2, "try_deposit_or_abort", [bucket(id), enumeration(0)]))
        .build()
      const { result } = yield* submitManifest(manifest, [ledger.genesis.users[0].key])
      expect(Either.isLeft(result) && result.left.reason).toContain("FeeLoanNotRepaid")
      expect((yield* ledger.state).state_version).toBe(1)
    }).pipe(Effect.provide(Ledger.memory()))
  )

  it.effect("state persists in SQLite under the data directory, and reset starts afresh", () =>
    Effect.gen(function* () {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hswap-ledger-"))
      const first = yield* Effect.gen(function* () {
        const ledger = yield* Ledger
        const { result } = yield* submitManifest(transferManifest(user1, user2, hUSDC, "12.5"), [
          ledger.genesis.users[0].key
        ])
        return Either.getOrThrow(result).intentHash
      }).pipe(Effect.provide(Ledger.layer({ dataDir })))
      expect(fs.existsSync(path.join(dataDir, "ledger.sqlite"))).toBe(true)
      yield* Effect.gen(function* () {
        const ledger = yield* Ledger
        expect(yield* ledger.balance(user2, hUSDC)).toBe("5012.5")
        expect((yield* ledger.state).state_version).toBe(2)
        expect((yield* ledger.transactionStatus(first))._tag).toBe("Committed")
      }).pipe(Effect.provide(Ledger.layer({ dataDir })))
      yield* Effect.gen(function* () {
        const ledger = yield* Ledger
        expect(yield* ledger.balance(user2, hUSDC)).toBe("5000")
        expect((yield* ledger.state).state_version).toBe(1)
      }).pipe(Effect.provide(Ledger.layer({ dataDir, reset: true })))
      fs.rmSync(dataDir, { recursive: true, force: true })
    })
  )

  it.effect("a stored vault amount that is not a Decimal stops the ledger from loading, never reads as zero", () =>
    Effect.gen(function* () {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hswap-ledger-"))
      yield* Effect.provide(Ledger, Ledger.layer({ dataDir }))
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE vault_history SET amount = 'ten' WHERE account = ${user1} AND resource = ${hUSDC}`
      }).pipe(Effect.provide(SqliteClient.layer({ filename: path.join(dataDir, "ledger.sqlite") })), Effect.orDie)
      const exit = yield* Effect.exit(Effect.provide(Ledger, Ledger.layer({ dataDir })))
      expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain('"ten"')
      fs.rmSync(dataDir, { recursive: true, force: true })
    })
  )
})
