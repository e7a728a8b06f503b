/**
 * The atomic swap's pre-authorisation check: pure, total (never throws), and strict. Given the wallet's signed
 * partial transaction (hex), the quote's terms, the exchange's network and `now`, it answers either what the user
 * bound themselves to (`AtomicAccepted`) or a tagged refusal with a machine `reason` and a sentence for the user.
 *
 * The one shape accepted (what `atomicSubintentManifest` writes, and what the app asks the wallet to sign):
 *
 *   0  CALL_METHOD Address(account) "withdraw" Address(FROM) Decimal(amount)
 *   1  TAKE_FROM_WORKTOP Address(FROM) Decimal(amount) Bucket(b)      — or TAKE_ALL_FROM_WORKTOP Address(FROM) Bucket(b)
 *   2  YIELD_TO_PARENT Bucket(b)
 *   3  ASSERT_WORKTOP_RESOURCES_ONLY Map(TO => AtLeastAmount(y))      — or …_RESOURCES_INCLUDE with the same single
 *                                                                      entry, or ASSERT_WORKTOP_CONTAINS Address(TO) Decimal(y)
 *   4  CALL_METHOD Address(account) "deposit_batch" Expression("ENTIRE_WORKTOP")
 *                                                                    — or "try_deposit_batch_or_abort" with `None` after it
 *   5  YIELD_TO_PARENT
 *
 * with `amount` exactly the quoted input, `y` at least the quoted output, the same account in 0 and 4, and nothing
 * else: no blobs, no child subintents, exactly one signature. The payload must be the codec's own (canonical)
 * encoding of what it decodes to, and a subintent with no assertion at all is refused as such. The last YIELD_TO_PARENT is the subintent's end (the
 * engine requires a subintent to finish by yielding to its parent); the parent's YIELD_TO_CHILD with the TO bucket
 * resumes the child after instruction 2, so the assertion runs on exactly what the exchange paid.
 *
 * Who pays: the account must be a virtual account (Ed25519 or Secp256k1) whose address is derived from the one
 * signer's public key: its owner rule, as the ledger judges a virtual account it has never seen changed. An allocated
 * account (whose owner rule lives only in ledger state) is refused rather than guessed at; an owner rule changed on
 * ledger is the ledger's to enforce at commit (the withdrawal then fails and nothing moves).
 *
 * The window: the subintent's header must end (max proposer timestamp, exclusive) no later than the quote expires and
 * at least `MIN_TIME_TO_SUBMIT` after `now`; it must not start later than `now`; and its epoch range must hold the
 * current epoch.
 */
import { blake2b } from "@noble/hashes/blake2.js"
import { Either } from "effect"
import {
  bytesEqual,
  DECIMAL,
  decodeAddress,
  decodeSignedPartialTransactionV2,
  encodeAddress,
  encodeSignedPartialTransactionV2,
  fromHex,
  type InstructionV2,
  type IntentHeaderV2,
  type ManifestValue,
  MAX_PAYLOAD_BYTES,
  parseFixed,
  type SignedPartialTransactionV2,
  subintentHash,
  subintentId,
  toHex,
  verifySignedPartialTransactionV2
} from "../../txv2/index"
import { nodeEd25519Verifies } from "../ed25519"

/** The least time left, after the check, for the exchange to build, submit and commit the swap. */
export const MIN_TIME_TO_SUBMIT_MS = 10_000

/** The hex text of a signed partial transaction is at most this long (twice the network's payload bound). */
export const MAX_PARTIAL_HEX_LENGTH = 2 * MAX_PAYLOAD_BYTES

/** The terms the pre-authorisation must match (addresses as bech32m on our network, amounts as decimal text). */
export interface AtomicTerms {
  readonly fromResource: string
  readonly toResource: string
  /** The quoted input: withdrawn exactly. */
  readonly amountIn: string
  /** The quoted output (`quotedOutput` rounded down to the TO divisibility): the assertion must ask at least this. */
  readonly quotedOut: string
  /** When the quote stops binding (epoch ms). */
  readonly expiresMs: number
}

export interface CheckInput {
  readonly signedPartialHex: string
  readonly networkId: number
  readonly terms: AtomicTerms
  /** The exchange's account: the user's account may not be it. */
  readonly exchangeAccount: string
  readonly nowMs: number
  readonly currentEpoch: bigint
}

/** What the user signed, checked. */
export interface AtomicAccepted {
  readonly _tag: "AtomicAccepted"
  readonly partial: SignedPartialTransactionV2
  readonly subintentHash: string
  readonly subintentId: string
  readonly account: string
  readonly amountIn: string
  /** The least amount of TO the subintent accepts back (at least the quoted output). */
  readonly assertedOut: string
  /** The subintent's last moment (epoch ms, exclusive). */
  readonly windowEndMs: number
  readonly endEpochExclusive: bigint
}

export type RefusalReason =
  | "payload_malformed"
  | "wrong_network"
  | "signature_invalid"
  | "signer_not_account"
  | "unsupported_account"
  | "exchange_account"
  | "has_children"
  | "has_blobs"
  | "wrong_shape"
  | "wrong_withdrawal"
  | "wrong_assertion"
  | "wrong_deposit"
  | "window_start"
  | "window_unbounded"
  | "window_after_quote"
  | "window_too_short"
  | "epoch_window"
  | "bad_terms"
  | "quote_unknown"
  | "quote_used"
  | "quote_amount"
  | "subintent_used"
  | "low_liquidity"

/** A pre-authorisation the exchange will not submit; nothing was submitted and nothing moved. */
export interface AtomicRefusal {
  readonly _tag: "AtomicRefusal"
  readonly reason: RefusalReason
  readonly message: string
}

const refuse = (reason: RefusalReason, message: string): Either.Either<never, AtomicRefusal> =>
  Either.left({ _tag: "AtomicRefusal", reason, message })

const PREFIX = "The pre-authorisation was refused: "

// --- value helpers -------------------------------------------------------------------------------------------------

const staticNode = (v: ManifestValue | undefined): Uint8Array | undefined =>
  v?.kind === "Address" && v.value.type === "Static" ? v.value.nodeId : undefined

const decimalOf = (v: ManifestValue | undefined): bigint | undefined => {
  if (v?.kind !== "Decimal") return undefined
  const n = parseFixed(v.value, DECIMAL)
  return typeof n === "bigint" ? n : undefined
}

const tupleFields = (v: ManifestValue): ReadonlyArray<ManifestValue> | undefined =>
  v.kind === "Tuple" ? v.fields : undefined

const isEntireWorktop = (v: ManifestValue | undefined) => v?.kind === "Expression" && v.value === "EntireWorktop"

const isNone = (v: ManifestValue | undefined) => v?.kind === "Enum" && v.discriminator === 0 && v.fields.length === 0

const show = (n: bigint) => {
  const unit = 10n ** 18n
  const frac = (n % unit).toString().padStart(18, "0").replace(/0+$/, "")
  return `${n / unit}${frac === "" ? "" : `.${frac}`}`
}

/** The address (bech32m) of a node id, or its hex when it names no known entity. */
const addressText = (node: Uint8Array, networkId: number): string => {
  const e = encodeAddress(node, networkId)
  return Either.isRight(e) ? e.right : `0x${toHex(node)}`
}

// --- who signed ----------------------------------------------------------------------------------------------------

const VIRTUAL_ED25519_ACCOUNT = 0x51
const VIRTUAL_SECP256K1_ACCOUNT = 0xd1

/** The virtual account node id of a public key: entity byte, then the last 29 bytes of blake2b-256(key). */
export const virtualAccountNodeId = (key: { readonly type: "Ed25519" | "Secp256k1"; readonly bytes: Uint8Array }) => {
  const h = blake2b(key.bytes, { dkLen: 32 })
  const out = new Uint8Array(30)
  out[0] = key.type === "Ed25519" ? VIRTUAL_ED25519_ACCOUNT : VIRTUAL_SECP256K1_ACCOUNT
  out.set(h.subarray(3), 1)
  return out
}

// --- the check -----------------------------------------------------------------------------------------------------

interface Shape {
  readonly account: Uint8Array
  readonly assertedOut: bigint
}

/** Checks the instructions against the one accepted shape (see the header). */
const checkShape = (
  ins: ReadonlyArray<InstructionV2>,
  from: Uint8Array,
  to: Uint8Array,
  amountIn: bigint,
  quotedOut: bigint,
  networkId: number
): Either.Either<Shape, AtomicRefusal> => {
  const shape = () =>
    refuse(
      "wrong_shape",
      `${PREFIX}it must withdraw the quoted amount, hand it to the exchange, assert what comes back and deposit it, and do nothing else.`
    )
  // Without any assertion the user could get nothing back: that, before the shape, is what is wrong with it.
  if (!ins.some((i) => i.kind.startsWith("Assert")))
    return refuse("wrong_assertion", `${PREFIX}it does not assert what it receives back, so it could receive nothing.`)
  if (ins.length !== 6) return shape()
  const [withdraw, take, give, assert, deposit, end] = ins as unknown as [
    InstructionV2,
    InstructionV2,
    InstructionV2,
    InstructionV2,
    InstructionV2,
    InstructionV2
  ]

  // 0: the withdrawal
  if (withdraw.kind !== "CallMethod" || withdraw.methodName !== "withdraw" || withdraw.address.type !== "Static")
    return shape()
  const account = withdraw.address.nodeId
  const wArgs = tupleFields(withdraw.args)
  if (wArgs?.length !== 2) return shape()
  const wResource = staticNode(wArgs[0])
  const wAmount = decimalOf(wArgs[1])
  if (wResource === undefined || wAmount === undefined) return shape()
  if (!bytesEqual(wResource, from))
    return refuse(
      "wrong_withdrawal",
      `${PREFIX}it withdraws ${addressText(wResource, networkId)}, not the quoted token.`
    )
  if (wAmount !== amountIn)
    return refuse(
      "wrong_withdrawal",
      `${PREFIX}it withdraws ${show(wAmount)}, but the quote is for exactly ${show(amountIn)}.`
    )

  // 1: the bucket of it
  if (take.kind === "TakeFromWorktop") {
    if (!bytesEqual(take.resourceAddress, from) || decimalOf({ kind: "Decimal", value: take.amount }) !== amountIn)
      return refuse("wrong_withdrawal", `${PREFIX}the bucket it hands over is not exactly the quoted amount.`)
  } else if (take.kind === "TakeAllFromWorktop") {
    if (!bytesEqual(take.resourceAddress, from))
      return refuse("wrong_withdrawal", `${PREFIX}the bucket it hands over is not of the quoted token.`)
  } else return shape()
  // Buckets are numbered from 0 in the order they are created; this is the subintent's first.
  const bucket = 0

  // 2: handed to the exchange
  if (give.kind !== "YieldToParent") return shape()
  const gArgs = tupleFields(give.args)
  if (gArgs?.length !== 1) return shape()
  const given = gArgs[0]
  if (given?.kind !== "Bucket" || given.id !== bucket) return shape()

  // 3: the assertion on what came back
  let asserted: bigint | undefined
  let assertedResource: Uint8Array | undefined
  if (assert.kind === "AssertWorktopResourcesOnly" || assert.kind === "AssertWorktopResourcesInclude") {
    if (assert.constraints.length !== 1)
      return refuse("wrong_assertion", `${PREFIX}its assertion must name exactly the token you receive.`)
    const entry = assert.constraints[0]
    if (entry === undefined) return shape()
    assertedResource = entry.resourceAddress
    if (entry.constraint.type !== "AtLeastAmount")
      return refuse(
        "wrong_assertion",
        `${PREFIX}its assertion must require at least the quoted amount back (it has ${entry.constraint.type}).`
      )
    asserted = decimalOf({ kind: "Decimal", value: entry.constraint.amount })
  } else if (assert.kind === "AssertWorktopContains") {
    assertedResource = assert.resourceAddress
    asserted = decimalOf({ kind: "Decimal", value: assert.amount })
  } else {
    return refuse("wrong_assertion", `${PREFIX}it does not assert what it receives back, so it could receive nothing.`)
  }
  if (!bytesEqual(assertedResource, to))
    return refuse(
      "wrong_assertion",
      `${PREFIX}its assertion is on ${addressText(assertedResource, networkId)}, not on the token you receive.`
    )
  if (asserted === undefined || asserted < quotedOut)
    return refuse(
      "wrong_assertion",
      `${PREFIX}it accepts ${asserted === undefined ? "an unreadable amount" : show(asserted)} back, less than the quoted ${show(quotedOut)}.`
    )

  // 4: everything back into the same account
  if (deposit.kind !== "CallMethod" || deposit.address.type !== "Static") return shape()
  if (!bytesEqual(deposit.address.nodeId, account))
    return refuse("wrong_deposit", `${PREFIX}it deposits into another account than the one it withdraws from.`)
  const dArgs = tupleFields(deposit.args)
  const depositOk =
    (deposit.methodName === "deposit_batch" && dArgs?.length === 1 && isEntireWorktop(dArgs[0])) ||
    (deposit.methodName === "try_deposit_batch_or_abort" &&
      dArgs?.length === 2 &&
      isEntireWorktop(dArgs[0]) &&
      isNone(dArgs[1]))
  if (!depositOk)
    return refuse("wrong_deposit", `${PREFIX}it must deposit everything it receives back into the same account.`)

  // 5: the end
  if (end.kind !== "YieldToParent" || tupleFields(end.args)?.length !== 0) return shape()
  return Either.right({ account, assertedOut: asserted })
}

const resourceNode = (address: string, networkId: number): Uint8Array | undefined => {
  const d = decodeAddress(address, networkId)
  return Either.isRight(d) ? d.right.nodeId : undefined
}

const checkWindow = (
  header: IntentHeaderV2,
  input: CheckInput
): Either.Either<{ readonly endMs: number }, AtomicRefusal> => {
  const { nowMs, terms } = input
  if (header.maxProposerTimestampExclusive === null)
    return refuse("window_unbounded", `${PREFIX}it has no expiry; it must expire when the quote does.`)
  const endMs = Number(header.maxProposerTimestampExclusive) * 1000
  if (header.minProposerTimestampInclusive !== null && Number(header.minProposerTimestampInclusive) * 1000 > nowMs)
    return refuse("window_start", `${PREFIX}it only becomes valid later; it must be valid now.`)
  if (endMs > terms.expiresMs)
    return refuse(
      "window_after_quote",
      `${PREFIX}it stays valid after the quote expires; sign it again with a fresh quote.`
    )
  if (endMs <= nowMs)
    return refuse("window_too_short", `${PREFIX}it has already expired; get a fresh quote and sign again.`)
  if (endMs - nowMs < MIN_TIME_TO_SUBMIT_MS)
    return refuse(
      "window_too_short",
      `${PREFIX}it expires in less than ${MIN_TIME_TO_SUBMIT_MS / 1000} seconds, too soon to submit it; get a fresh quote and sign again.`
    )
  if (header.startEpochInclusive > input.currentEpoch || header.endEpochExclusive <= input.currentEpoch)
    return refuse("epoch_window", `${PREFIX}its epoch range does not include the ledger's current epoch.`)
  return Either.right({ endMs })
}

/**
 * The subintent hash (hex) of a signed partial transaction given as hex, and the payload's bytes as lower-case hex,
 * when it decodes; nothing is checked beyond that (for finding the record of a payload already submitted).
 */
export const payloadSubintent = (
  signedPartialHex: unknown
): { readonly subintentHash: string; readonly payloadHex: string } | undefined => {
  if (typeof signedPartialHex !== "string" || signedPartialHex.length > MAX_PARTIAL_HEX_LENGTH) return undefined
  const bytes = fromHex(signedPartialHex.startsWith("0x") ? signedPartialHex.slice(2) : signedPartialHex)
  if (bytes === undefined) return undefined
  const decoded = decodeSignedPartialTransactionV2(bytes)
  if (Either.isLeft(decoded)) return undefined
  const hash = subintentHash(decoded.right.partialTransaction.rootSubintent)
  return Either.isLeft(hash) ? undefined : { subintentHash: toHex(hash.right), payloadHex: toHex(bytes) }
}

/** Checks a signed pre-authorisation against a quote's terms (see the header). Never throws. */
export const checkPreAuthorization = (input: CheckInput): Either.Either<AtomicAccepted, AtomicRefusal> => {
  const { networkId, terms } = input
  const hex = input.signedPartialHex
  if (typeof hex !== "string" || hex.length > MAX_PARTIAL_HEX_LENGTH)
    return refuse(
      "payload_malformed",
      `${PREFIX}the signed payload is not text of at most ${MAX_PARTIAL_HEX_LENGTH} characters.`
    )
  const bytes = fromHex(hex.startsWith("0x") ? hex.slice(2) : hex)
  if (bytes === undefined) return refuse("payload_malformed", `${PREFIX}the signed payload is not hexadecimal.`)
  const decoded = decodeSignedPartialTransactionV2(bytes)
  if (Either.isLeft(decoded))
    return refuse(
      "payload_malformed",
      `${PREFIX}the signed payload does not decode (at byte ${decoded.left.offset}, ${decoded.left.path}: ${decoded.left.reason}).`
    )
  const partial = decoded.right
  // One pre-authorisation, one byte string: an encoding the codec would not write (the same subintent spelled
  // another way) is refused, so what is stored and submitted is exactly what the wallet signed and sent.
  const canonical = encodeSignedPartialTransactionV2(partial)
  if (Either.isLeft(canonical) || !bytesEqual(canonical.right, bytes))
    return refuse("payload_malformed", `${PREFIX}the signed payload is not in its canonical encoding.`)
  const core = partial.partialTransaction.rootSubintent.intentCore
  if (core.header.networkId !== networkId)
    return refuse(
      "wrong_network",
      `${PREFIX}it is for network ${core.header.networkId}, not this exchange's network ${networkId}.`
    )

  const verified = verifySignedPartialTransactionV2(partial, nodeEd25519Verifies)
  if (Either.isLeft(verified))
    return refuse("signature_invalid", `${PREFIX}its signature does not verify over the subintent.`)
  if (partial.partialTransaction.nonRootSubintents.length > 0 || core.children.length > 0)
    return refuse("has_children", `${PREFIX}it carries child subintents; a swap has none.`)
  if (core.blobs.length > 0) return refuse("has_blobs", `${PREFIX}it carries blobs; a swap has none.`)
  const signers = verified.right.rootSigners
  if (signers.length !== 1)
    return refuse("signature_invalid", `${PREFIX}it must carry exactly one signature, the account's.`)

  const from = resourceNode(terms.fromResource, networkId)
  const to = resourceNode(terms.toResource, networkId)
  const exchange = resourceNode(input.exchangeAccount, networkId)
  const amountIn = parseFixed(terms.amountIn, DECIMAL)
  const quotedOut = parseFixed(terms.quotedOut, DECIMAL)
  if (
    from === undefined ||
    to === undefined ||
    exchange === undefined ||
    typeof amountIn !== "bigint" ||
    typeof quotedOut !== "bigint"
  )
    return refuse("bad_terms", `${PREFIX}the quote's terms could not be read.`)

  return Either.gen(function* () {
    const shape = yield* checkShape(core.instructions, from, to, amountIn, quotedOut, networkId)
    const kind = shape.account[0]
    if (kind !== VIRTUAL_ED25519_ACCOUNT && kind !== VIRTUAL_SECP256K1_ACCOUNT) {
      return yield* refuse(
        "unsupported_account",
        `${PREFIX}the account ${addressText(shape.account, networkId)} is not a key-derived account; only those can pre-authorise a swap here.`
      )
    }
    if (bytesEqual(shape.account, exchange))
      return yield* refuse("exchange_account", `${PREFIX}the exchange's own account cannot swap with itself.`)
    const signer = signers[0]
    if (signer === undefined || !bytesEqual(virtualAccountNodeId(signer), shape.account))
      return yield* refuse("signer_not_account", `${PREFIX}it is signed by another key than the account's that pays.`)
    const window = yield* checkWindow(core.header, input)
    const hash = subintentHash(partial.partialTransaction.rootSubintent)
    if (Either.isLeft(hash)) return yield* refuse("payload_malformed", `${PREFIX}the subintent cannot be hashed.`)
    return {
      _tag: "AtomicAccepted",
      partial,
      subintentHash: toHex(hash.right),
      subintentId: subintentId(hash.right, networkId),
      account: addressText(shape.account, networkId),
      amountIn: show(amountIn),
      assertedOut: show(shape.assertedOut),
      windowEndMs: window.endMs,
      endEpochExclusive: core.header.endEpochExclusive
    } satisfies AtomicAccepted
  })
}
