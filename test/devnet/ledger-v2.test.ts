/**
 * TransactionV2 on the devnet ledger, through the gateway emulator: the atomic swap (a user's signed subintent
 * under the exchange's notarized parent), replay protection, subintent status, committed details, and what bad
 * input gets (nothing committed, nothing moves).
 */
import { Either, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GatewayEmulator, makeGatewayEmulator } from "../../src/devnet/gateway/GatewayEmulator.js"
import { publicKeyHash } from "../../src/devnet/ledger/address.js"
import { ED25519_SIGNATURE_RESOURCE } from "../../src/devnet/ledger/executeV2.js"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { validateTransactionV2 } from "../../src/devnet/ledger/validateV2.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import {
  type BuiltSignedPartial,
  type InstructionV2,
  type IntentHeaderV2,
  type SigningKey,
  buildNotarizedTransaction,
  buildSignedPartialTransaction,
  compileManifest,
  encodeNotarizedTransactionV2,
  encodePartialTransactionV2,
  encodeSignedTransactionIntentV2,
  encodeSubintentV2,
  encodeTransactionIntentV2,
  subintentId,
  toHex
} from "../../src/txv2/index.js"
import { captureLogs, type LogLine } from "../support/logs.js"

const { XRD, hUSDC, hETH } = DevnetAddresses.resources
const [user1 = ""] = DevnetAddresses.users
const exchange = DevnetAddresses.exchangeAccount
const LOC = 240

type Json = Record<string, unknown>

// Rounds of an hour on the real clock keep the state version and the proposer timestamp still within a test.
const logs: Array<LogLine> = []
const runtime = ManagedRuntime.make(
  Layer.merge(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }), captureLogs(logs))
)
let emulator: GatewayEmulator
let ledger: Ledger

const post = async (path: string, body?: unknown): Promise<{ status: number; json: Json }> => {
  const response = await runtime.runPromise(emulator.handle({ method: "POST", path, body }))
  return { status: response.status, json: JSON.parse(JSON.stringify(response.json)) as Json }
}

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${String(e.left)}`)
  return e.right
}

const ed = (privateKey: Uint8Array): SigningKey => ({ curve: "Ed25519", secretKey: privateKey })
let userKey: SigningKey
let user2Key: SigningKey
let exchangeKey: SigningKey
let notaryKey: SigningKey
let epoch = 1
let discriminator = 1n

const header = (overrides: Partial<IntentHeaderV2> = {}): IntentHeaderV2 => ({
  networkId: LOC,
  startEpochInclusive: BigInt(epoch),
  endEpochExclusive: BigInt(epoch + 10),
  minProposerTimestampInclusive: null,
  maxProposerTimestampExclusive: BigInt(Math.floor(Date.now() / 1000) + 3600),
  intentDiscriminator: discriminator++,
  ...overrides
})

const compile = (text: string) => right(compileManifest(text, LOC))

/** The user's side of the swap: give `sell` hUSDC, take at least `atLeast` hETH back. */
const userSubintentText = (account: string, sell: string, atLeast: string) => `
  CALL_METHOD Address("${account}") "withdraw" Address("${hUSDC}") Decimal("${sell}");
  TAKE_FROM_WORKTOP Address("${hUSDC}") Decimal("${sell}") Bucket("sold");
  ASSERT_NEXT_CALL_RETURNS_ONLY Map<Address, Enum>(Address("${hETH}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("${atLeast}")));
  YIELD_TO_PARENT Bucket("sold");
  CALL_METHOD Address("${account}") "deposit_batch" Expression("ENTIRE_WORKTOP");
  YIELD_TO_PARENT;`

const signedSubintent = (
  text: string,
  signers: ReadonlyArray<SigningKey>,
  headerOverrides: Partial<IntentHeaderV2> = {}
): BuiltSignedPartial =>
  right(
    buildSignedPartialTransaction({
      header: header(headerOverrides),
      instructions: compile(text).instructions,
      signers
    })
  )

/** The exchange's side: lock the fee, take the user's hUSDC, give `give` hETH, keep the hUSDC. */
const parentText = (child: BuiltSignedPartial, give: string) => `
  USE_CHILD NamedIntent("swap") Intent("${subintentId(child.subintentHash, LOC)}");
  CALL_METHOD Address("${exchange}") "lock_fee" Decimal("10");
  YIELD_TO_CHILD NamedIntent("swap");
  CALL_METHOD Address("${exchange}") "withdraw" Address("${hETH}") Decimal("${give}");
  TAKE_ALL_FROM_WORKTOP Address("${hETH}") Bucket("bought");
  YIELD_TO_CHILD NamedIntent("swap") Bucket("bought");
  CALL_METHOD Address("${exchange}") "deposit_batch" Expression("ENTIRE_WORKTOP");`

const notarized = (
  instructions: ReadonlyArray<InstructionV2>,
  children: ReadonlyArray<BuiltSignedPartial>,
  options: { signers?: ReadonlyArray<SigningKey>; header?: Partial<IntentHeaderV2> } = {}
) =>
  right(
    buildNotarizedTransaction({
      header: header(options.header),
      instructions,
      children: children.map((c) => c.model),
      signers: options.signers ?? [exchangeKey],
      notary: notaryKey
    })
  )

const swap = (child: BuiltSignedPartial, give: string, options: Parameters<typeof notarized>[2] = {}) =>
  notarized(compile(parentText(child, give)).instructions, [child], options)

const submit = (payload: Uint8Array | string) =>
  post("/transaction/submit", { notarized_transaction_hex: typeof payload === "string" ? payload : toHex(payload) })

const balances = async () => {
  const read = (a: string, r: string) => runtime.runPromise(ledger.balance(a, r))
  return {
    userUsdc: await read(user1, hUSDC),
    userEth: await read(user1, hETH),
    exchangeUsdc: await read(exchange, hUSDC),
    exchangeEth: await read(exchange, hETH),
    exchangeXrd: await read(exchange, XRD),
    userXrd: await read(user1, XRD)
  }
}
const stateVersion = () => runtime.runPromise(ledger.currentStateVersion)

/** Submits and expects a 400 with nothing committed and no balance moved; returns the Gateway's message. */
const refused = async (payload: Uint8Array | string): Promise<string> => {
  const before = await balances()
  const version = await stateVersion()
  const res = await submit(payload)
  expect(res.status).toBe(400)
  expect(await stateVersion()).toBe(version)
  expect(await balances()).toEqual(before)
  return String(res.json["message"])
}

beforeAll(async () => {
  ledger = await runtime.runPromise(Ledger)
  emulator = await runtime.runPromise(makeGatewayEmulator)
  userKey = ed(ledger.genesis.users[0].key.privateKey)
  user2Key = ed(ledger.genesis.users[1].key.privateKey)
  exchangeKey = ed(ledger.genesis.exchange.key.privateKey)
  notaryKey = ed(ledger.genesis.notary.privateKey)
  epoch = (await runtime.runPromise(ledger.state)).epoch
})
afterAll(() => runtime.dispose())

describe("the atomic swap as a V2 transaction", () => {
  it("commits both legs; subintent-status, committed details and the stream show it; the subintent never runs again", async () => {
    const before = await balances()
    const child = signedSubintent(userSubintentText(user1, "100", "0.05"), [userKey])
    const tx = swap(child, "0.05")
    const res = await submit(tx.payload)
    expect(res).toEqual({ status: 200, json: { duplicate: false } })

    const after = await balances()
    expect(Number(after.userUsdc)).toBe(Number(before.userUsdc) - 100)
    expect(Number(after.userEth)).toBeCloseTo(Number(before.userEth) + 0.05, 12)
    expect(Number(after.exchangeUsdc)).toBe(Number(before.exchangeUsdc) + 100)
    expect(Number(after.exchangeEth)).toBeCloseTo(Number(before.exchangeEth) - 0.05, 12)
    // The fee is the root's: 0.1 + 0.02 × (6 + 6 instructions) XRD from the exchange, nothing from the user.
    expect(Number(after.exchangeXrd)).toBeCloseTo(Number(before.exchangeXrd) - 0.34, 12)
    expect(after.userXrd).toBe(before.userXrd)

    const status = await post("/transaction/status", { intent_hash: tx.ids.transactionIntent })
    expect(status.json).toMatchObject({ status: "CommittedSuccess", intent_status: "CommittedSuccess" })

    const sub = await post("/transaction/subintent-status", { subintent_hash: child.subintentId })
    expect(sub.json).toMatchObject({
      subintent_status: "CommittedSuccess",
      finalized_at_state_version: status.json["committed_state_version"],
      finalized_at_transaction_intent_hash: tx.ids.transactionIntent
    })

    const details = await post("/transaction/committed-details", {
      intent_hash: tx.ids.transactionIntent,
      opt_ins: { balance_changes: true, manifest_instructions: true }
    })
    const info = details.json["transaction"] as Json
    expect(info["payload_hash"]).toBe(tx.ids.notarizedTransaction)
    expect(info["child_subintent_hashes"]).toEqual([child.subintentId])
    const subDetails = info["subintent_details"] as ReadonlyArray<Json>
    expect(subDetails.map((d) => d["subintent_hash"])).toEqual([child.subintentId])
    expect(String(subDetails[0]?.["manifest_instructions"])).toContain("YIELD_TO_PARENT")
    const changes = (info["balance_changes"] as Json)["fungible_balance_changes"] as ReadonlyArray<Json>
    const change = (entity: string, resource: string) =>
      changes.find((c) => c["entity_address"] === entity && c["resource_address"] === resource)?.["balance_change"]
    expect(change(user1, hUSDC)).toBe("-100")
    expect(change(user1, hETH)).toBe("0.05")
    expect(change(exchange, hUSDC)).toBe("100")
    expect(change(exchange, hETH)).toBe("-0.05")

    const stream = await post("/stream/transactions", {
      manifest_accounts_withdrawn_from_filter: [user1],
      opt_ins: { balance_changes: true },
      limit_per_page: 1
    })
    const first = (stream.json["items"] as ReadonlyArray<Json>)[0]
    expect(first?.["intent_hash"]).toBe(tx.ids.transactionIntent)
    expect(first?.["subintent_details"]).toEqual([{ subintent_hash: child.subintentId, child_subintent_hashes: [] }])

    // The same signed subintent under a new parent: rejected for good, nothing moves.
    const replay = swap(child, "0.05")
    expect(await refused(replay.payload)).toBe(`IntentHashPreviouslyCommitted(Subintent(${child.subintentId}))`)
  })

  it("a failed attempt finalizes nothing: the same signed subintent commits in a later transaction", async () => {
    const child = signedSubintent(userSubintentText(user1, "10", "1"), [userKey])
    const before = await balances()
    // The exchange gives less hETH than the user asked for: the user's assertion fails and every intent reverts.
    const short = swap(child, "0.5")
    expect((await submit(short.payload)).status).toBe(200)
    const failed = await post("/transaction/status", { intent_hash: short.ids.transactionIntent })
    expect(failed.json).toMatchObject({ status: "CommittedFailure" })
    expect(String(failed.json["error_message"])).toContain("AssertNextCallReturnsFailed")
    const after = await balances()
    expect(after.userUsdc).toBe(before.userUsdc)
    expect(after.userEth).toBe(before.userEth)
    expect(after.exchangeEth).toBe(before.exchangeEth)
    expect(Number(after.exchangeXrd)).toBeLessThan(Number(before.exchangeXrd))
    const unknown = await post("/transaction/subintent-status", { subintent_hash: child.subintentId })
    expect(unknown.json).toMatchObject({ subintent_status: "Unknown" })
    expect(unknown.json).not.toHaveProperty("finalized_at_state_version")

    const retry = swap(child, "1")
    expect((await submit(retry.payload)).status).toBe(200)
    const ok = await post("/transaction/status", { intent_hash: retry.ids.transactionIntent })
    expect(ok.json).toMatchObject({ status: "CommittedSuccess" })
    expect(Number((await balances()).userEth)).toBeCloseTo(Number(after.userEth) + 1, 12)
  })
})

describe("VERIFY_PARENT", () => {
  const verifying = (publicKey: Uint8Array) =>
    signedSubintent(
      `VERIFY_PARENT Enum<AccessRule::Protected>(Enum<AccessRuleNode::ProofRule>(Enum<ProofRule::Require>(
         Enum<ResourceOrNonFungible::NonFungible>(NonFungibleGlobalId("${ED25519_SIGNATURE_RESOURCE}:[${toHex(publicKeyHash(publicKey))}]")))));
       ${userSubintentText(user1, "1", "0.001")}`,
      [userKey]
    )

  it("passes when the parent is signed by the required key, and fails (reverting every intent) otherwise", async () => {
    const good = swap(verifying(ledger.genesis.exchange.key.publicKey), "0.001")
    expect((await submit(good.payload)).status).toBe(200)
    const ok = await post("/transaction/status", { intent_hash: good.ids.transactionIntent })
    expect(ok.json).toMatchObject({ status: "CommittedSuccess" })

    const before = await balances()
    const bad = swap(verifying(ledger.genesis.users[1].key.publicKey), "0.001")
    expect((await submit(bad.payload)).status).toBe(200)
    const failed = await post("/transaction/status", { intent_hash: bad.ids.transactionIntent })
    expect(failed.json).toMatchObject({ status: "CommittedFailure" })
    expect(String(failed.json["error_message"])).toBe("RuntimeError(SystemError(IntentError(VerifyParentFailed)))")
    const after = await balances()
    expect([after.userUsdc, after.userEth, after.exchangeEth]).toEqual([
      before.userUsdc,
      before.userEth,
      before.exchangeEth
    ])
  })
})

describe("what bad V2 input gets", () => {
  const goodSwap = () => swap(signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey]), "0.001")

  it("truncated, bit-flipped, oversized and deeply nested payloads", async () => {
    const payload = goodSwap().payload
    expect(await refused(payload.subarray(0, payload.length - 1))).toMatch(/^Invalid transaction: PrepareError/)
    const flipped = Uint8Array.from(payload)
    flipped[40] = (flipped[40] ?? 0) ^ 0x01
    expect(await refused(flipped)).toMatch(/^Invalid transaction: /)
    const oversized = new Uint8Array(1024 * 1024 + 1)
    oversized.set(payload.subarray(0, 3))
    expect(await refused(oversized)).toMatch(/^Invalid transaction: PrepareError/)
    // 0x4d 0x22 0x0c then tuples nested past the depth limit of 24.
    const nested = Uint8Array.from([
      0x4d,
      0x22,
      0x0c,
      0x02,
      ...new Array<number>(30).fill(0).flatMap(() => [0x21, 0x01])
    ])
    expect(await refused(nested)).toMatch(/^Invalid transaction: PrepareError/)
  })

  it("a SignedPartialTransactionV2 submitted as a transaction is not a notarized transaction", async () => {
    const partial = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey])
    expect(await refused(partial.payload)).toBe("Expected notarized transaction")
  })

  it("every other V2 payload type, and a payload type that does not exist, is not a notarized transaction", async () => {
    const child = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey])
    const tx = swap(child, "0.001")
    const signedIntent = tx.model.signedTransactionIntent
    const others: ReadonlyArray<readonly [string, Uint8Array]> = [
      ["SubintentV2", right(encodeSubintentV2(child.model.partialTransaction.rootSubintent))],
      ["TransactionIntentV2", right(encodeTransactionIntentV2(signedIntent.transactionIntent))],
      ["SignedTransactionIntentV2", right(encodeSignedTransactionIntentV2(signedIntent))],
      ["PartialTransactionV2", right(encodePartialTransactionV2(child.model.partialTransaction))]
    ]
    for (const [name, payload] of others) {
      expect(payload[2], name).not.toBe(tx.payload[2])
      expect(await refused(payload), name).toBe("Expected notarized transaction")
    }
    // The notarized transaction's bytes under the discriminator of no payload type (0x63).
    const unknownType = Uint8Array.from(tx.payload)
    unknownType[2] = 0x63
    expect(await refused(unknownType)).toBe("Expected notarized transaction")
  })

  it("a notary or root signature by another key is refused; a fee payer that did not sign moves nothing", async () => {
    const child = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey])
    // The header names the notary's key, but another key signed the signed intent hash.
    const good = swap(child, "0.001")
    const other = swap(child, "0.001", { signers: [exchangeKey] })
    const forgedNotary = right(
      encodeNotarizedTransactionV2({ ...good.model, notarySignature: other.model.notarySignature })
    )
    expect(await refused(forgedNotary)).toBe(
      `Invalid transaction: SignatureValidationError(RootTransactionIntent(${good.ids.transactionIntent}), InvalidNotarySignature)`
    )
    // A root signature that does not verify over this transaction intent hash.
    const forgedRoot = right(
      encodeNotarizedTransactionV2({
        ...good.model,
        signedTransactionIntent: {
          ...good.model.signedTransactionIntent,
          transactionIntentSignatures: other.model.signedTransactionIntent.transactionIntentSignatures
        }
      })
    )
    expect(await refused(forgedRoot)).toMatch(
      /^Invalid transaction: SignatureValidationError\(RootTransactionIntent\(txid_loc1\w+\), InvalidIntentSignature\)$/
    )
    // Valid signatures, by user 2 instead of the exchange whose account locks the fee: the fee lock fails before
    // the fee loan is repaid, a rejection the node holds as temporary (as the real one does); nothing is committed.
    const before = await balances()
    const version = await stateVersion()
    const wrongSigner = swap(child, "0.001", { signers: [user2Key] })
    expect((await submit(wrongSigner.payload)).status).toBe(200)
    const status = await post("/transaction/status", { intent_hash: wrongSigner.ids.transactionIntent })
    expect(status.json).toMatchObject({ status: "Pending", intent_status: "LikelyButNotCertainRejection" })
    expect(String(status.json["error_message"])).toMatch(
      new RegExp(
        `^ErrorBeforeLoanAndDeferredCostsRepaid\\(.*fn_identifier: "Account::lock_fee", address: "${exchange}"`
      )
    )
    expect(await stateVersion()).toBe(version)
    expect(await balances()).toEqual(before)
  })

  it("a subintent signed by another key is refused; its withdraw would need the owner's signature", async () => {
    const child = signedSubintent(userSubintentText(user1, "1", "0.001"), [user2Key])
    // Valid signatures by the wrong key pass validation; the withdraw fails auth, and with the root's fee
    // locked first the transaction commits as a failure that moves only the fee.
    const before = await balances()
    const tx = swap(child, "0.001")
    expect((await submit(tx.payload)).status).toBe(200)
    const status = await post("/transaction/status", { intent_hash: tx.ids.transactionIntent })
    expect(status.json).toMatchObject({ status: "CommittedFailure" })
    expect(String(status.json["error_message"])).toContain(`fn_identifier: "Account::withdraw", address: "${user1}"`)
    expect((await balances()).userUsdc).toBe(before.userUsdc)
    // A signature that does not verify over the subintent hash is refused outright.
    const other = signedSubintent(userSubintentText(user1, "2", "0.001"), [userKey])
    const forged = {
      ...child,
      model: { ...child.model, rootSubintentSignatures: other.model.rootSubintentSignatures }
    }
    const message = await refused(swap(forged, "0.001").payload)
    expect(message).toMatch(
      /^Invalid transaction: SignatureValidationError\(NonRootSubintent\(SubintentIndex\(0\), subtxid_loc1\w+\), InvalidIntentSignature\)$/
    )
  })

  it("a subintent used twice in one transaction", async () => {
    const child = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey])
    const tx = swap(child, "0.001")
    // The same subintent twice in the transaction's list (a child listed twice does not even decode).
    const sti = tx.model.signedTransactionIntent
    const doubled = right(
      encodeNotarizedTransactionV2({
        ...tx.model,
        signedTransactionIntent: {
          ...sti,
          transactionIntent: {
            ...sti.transactionIntent,
            nonRootSubintents: [...sti.transactionIntent.nonRootSubintents, ...sti.transactionIntent.nonRootSubintents]
          },
          nonRootSubintentSignatures: [...sti.nonRootSubintentSignatures, ...sti.nonRootSubintentSignatures]
        }
      })
    )
    const message = await refused(doubled)
    expect(message).toMatch(
      /SubintentStructureError\(NonRootSubintent\(SubintentIndex\(1\), subtxid_loc1\w+\), DuplicateSubintent\)$/
    )
  })

  it("yields that do not match, YIELD_TO_PARENT in the root, a subintent that does not end by yielding", async () => {
    const child = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey])
    const once = compile(`
      USE_CHILD NamedIntent("swap") Intent("${child.subintentId}");
      CALL_METHOD Address("${exchange}") "lock_fee" Decimal("10");
      YIELD_TO_CHILD NamedIntent("swap");
      CALL_METHOD Address("${exchange}") "deposit_batch" Expression("ENTIRE_WORKTOP");`)
    expect(await refused(notarized(once.instructions, [child]).payload)).toMatch(
      /MismatchingYieldChildAndYieldParentCountsForSubintent\)$/
    )
    const rootYield: ReadonlyArray<InstructionV2> = [{ kind: "YieldToParent", args: { kind: "Tuple", fields: [] } }]
    expect(await refused(notarized(rootYield, []).payload)).toMatch(
      /^Invalid transaction: IntentValidationError\(RootTransactionIntent\(txid_loc1\w+\), ManifestValidationError\(InstructionNotSupportedInTransactionIntent\)\)$/
    )
    const noYield = right(
      buildSignedPartialTransaction({
        header: header(),
        instructions: compile(`CALL_METHOD Address("${user1}") "deposit_batch" Expression("ENTIRE_WORKTOP");`)
          .instructions,
        signers: [userKey]
      })
    )
    const parent = compile(`
      USE_CHILD NamedIntent("c") Intent("${noYield.subintentId}");
      CALL_METHOD Address("${exchange}") "lock_fee" Decimal("10");`)
    expect(await refused(notarized(parent.instructions, [noYield]).payload)).toMatch(
      /ManifestValidationError\(SubintentDoesNotEndWithYieldToParent\)\)$/
    )
  })

  it("a subintent that locks a fee", async () => {
    const child = signedSubintent(
      `CALL_METHOD Address("${user1}") "lock_fee" Decimal("10");
       YIELD_TO_PARENT;`,
      [userKey]
    )
    // The child runs before the root locks its fee: the engine's error comes before the fee loan is repaid.
    const parent = compile(`
      USE_CHILD NamedIntent("c") Intent("${child.subintentId}");
      YIELD_TO_CHILD NamedIntent("c");
      CALL_METHOD Address("${exchange}") "lock_fee" Decimal("10");`)
    const tx = notarized(parent.instructions, [child])
    const before = await balances()
    const version = await stateVersion()
    const res = await submit(tx.payload)
    // A rejection before the fee loan is repaid is temporary at the node: the Gateway answers 200 and tracks it.
    expect(res.status).toBe(200)
    expect(await stateVersion()).toBe(version)
    expect(await balances()).toEqual(before)
    const status = await post("/transaction/status", { intent_hash: tx.ids.transactionIntent })
    expect(String(status.json["error_message"])).toBe(
      "ErrorBeforeLoanAndDeferredCostsRepaid(RuntimeError(SystemError(CannotLockFeeInChildSubintent(1))))"
    )
  })

  it("an expired or not-yet-valid window, and a window the intents do not share", async () => {
    const now = Math.floor(Date.now() / 1000)
    const expired = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey], {
      maxProposerTimestampExclusive: BigInt(now - 7200)
    })
    const before = await balances()
    const version = await stateVersion()
    const late = swap(expired, "0.001")
    const res = await submit(late.payload)
    expect(res.status).toBe(400)
    expect(String(res.json["message"])).toMatch(
      /^TransactionProposerTimestampNoLongerValid \{ valid_to_exclusive: Instant \{ seconds_since_unix_epoch: \d+ \}, current_time: Instant \{ seconds_since_unix_epoch: \d+ \} \}$/
    )
    const early = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey], {
      minProposerTimestampInclusive: BigInt(now + 7200),
      maxProposerTimestampExclusive: BigInt(now + 9000)
    })
    // Under a root valid only up to an hour from now, the windows have nothing in common.
    expect(await refused(swap(early, "0.001").payload)).toBe(
      "Invalid transaction: IntentValidationError(AcrossTransaction, HeaderValidationError(NoValidTimestampRangeAcrossAllIntents))"
    )
    const soon = swap(early, "0.001", { header: { maxProposerTimestampExclusive: BigInt(now + 9000) } })
    const soonRes = await submit(soon.payload)
    expect(soonRes.json).toEqual({ duplicate: false })
    const status = await post("/transaction/status", { intent_hash: soon.ids.transactionIntent })
    expect(String(status.json["error_message"])).toMatch(/^TransactionProposerTimestampNotYetValid/)
    expect(await stateVersion()).toBe(version)
    expect(await balances()).toEqual(before)

    const disjoint = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey], {
      startEpochInclusive: BigInt(epoch + 20),
      endEpochExclusive: BigInt(epoch + 30)
    })
    expect(await refused(swap(disjoint, "0.001").payload)).toBe(
      "Invalid transaction: IntentValidationError(AcrossTransaction, HeaderValidationError(NoValidEpochRangeAcrossAllIntents))"
    )
    const future = swap(signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey]), "0.001", {
      header: { startEpochInclusive: BigInt(epoch + 5), endEpochExclusive: BigInt(epoch + 8) }
    })
    expect(await refused(future.payload)).toMatch(/^Transaction start epoch \d+ is not yet close enough/)
  })

  it("the wrong network", async () => {
    const child = signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey], { networkId: 2 })
    expect(await refused(swap(child, "0.001").payload)).toMatch(
      /^Invalid transaction: IntentValidationError\(NonRootSubintent\(SubintentIndex\(0\), subtxid_loc1\w+\), HeaderValidationError\(InvalidNetwork\)\)$/
    )
    // The whole transaction built for stokenet: the root's header is checked first.
    const stokenet = swap(signedSubintent(userSubintentText(user1, "1", "0.001"), [userKey]), "0.001", {
      header: { networkId: 2 }
    })
    expect(await refused(stokenet.payload)).toMatch(
      /^Invalid transaction: IntentValidationError\(RootTransactionIntent\(txid_loc1\w+\), HeaderValidationError\(InvalidNetwork\)\)$/
    )
  })

  it("the validator never throws on its own output either", () => {
    const ok = validateTransactionV2(toHex(goodSwap().payload))
    expect(Either.isRight(ok)).toBe(true)
  })
})
