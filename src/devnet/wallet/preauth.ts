/**
 * The wallet emulator's pre-authorisation path (a subintent, TransactionV2): compile the dApp's subintent manifest
 * with our own txv2 library, show what leaves the wallet's accounts and what the subintent guarantees to get back,
 * build the subintent header from the request's expiration as the Radix Wallet does, and sign the subintent hash
 * into a SignedPartialTransactionV2. Nothing is submitted: the dApp (or its exchange) puts the signed partial
 * under a transaction of its own.
 *
 * The header rule, as the Radix Wallet (Sargon's `create_subintent`) builds it when the request carries no header:
 * - seconds left `s` = `unixTimestampSeconds − now` for `expireAtTime`, or `expireAfterSeconds` for
 *   `expireAfterDelay` (counted from the moment the user approves, so the preview shows it from "now");
 * - `s ≤ 0` is refused as `expiredSubintent`; an `expireAtTime` less than 30 s away as
 *   `subintentExpirationTooClose` (the iOS wallet refuses 15 s and accepts 60 s; we draw the line at 30 s);
 * - start epoch inclusive = the current epoch; end epoch exclusive = current + min(8640, 2 + ⌊s / 300⌋): one epoch
 *   because the end is exclusive, one more in case the current epoch is about to end, one per expected 5-minute
 *   epoch (the devnet ledger's epochs last 5 minutes too), capped at 30 days of epochs as the network's validation
 *   allows;
 * - min proposer timestamp: none; max proposer timestamp exclusive = now + s, which is also the answer's
 *   `expirationTimestamp`;
 * - a random 64-bit intent discriminator, network 240, and the request's message as a plaintext message.
 * When the request carries a header the wallet uses it as given (after checking it is well formed and on this
 * network), as the real wallet does; the expiration is still checked (past or too close is refused as above).
 *
 * Where we choose: the real wallet caps the epochs but not the delay itself; the emulator refuses (invalidRequest)
 * an expiration more than 30 days away, since the end epoch could not cover it and the timestamp bound would be
 * meaningless. A message over 2048 bytes (the network's plaintext message limit) is refused too.
 */
import { Clock, Effect, Either } from "effect"
import {
  buildSignedPartialTransaction,
  compileManifest,
  encodeAddress,
  fromHex,
  type InstructionV2,
  type IntentHeaderV2,
  type ManifestValue,
  plaintextMessage,
  printManifest,
  type ResourceConstraint,
  toHex
} from "../../txv2/index"
import { isAccountAddress } from "../ledger/address"
import type { Ledger } from "../ledger/Ledger"
import type { Guarantee, Move, PreAuthorizationPreview } from "./api"
import { type SigningAccount, WalletFailure } from "./transaction"

const NETWORK_ID = 240
/** The epoch length the real wallet expects (and the devnet ledger's default): 5 minutes. */
export const EXPECTED_EPOCH_SECONDS = 300
/** One epoch for the exclusive end, one in case the current epoch is nearly over. */
export const MIN_EPOCH_SPAN = 2
/** About a month of 5-minute epochs: the longest epoch window the network's validation accepts. */
export const MAX_EPOCH_SPAN = 12 * 24 * 30
/** The longest expiration the emulator signs: what the capped epoch window covers (30 days). */
export const MAX_EXPIRATION_SECONDS = MAX_EPOCH_SPAN * EXPECTED_EPOCH_SECONDS
/** An `expireAtTime` closer than this is refused as too close to be used. */
export const MIN_SECONDS_LEFT = 30
/** The network's limit on a plaintext message. */
export const MAX_MESSAGE_BYTES = 2048
const MAX_BLOBS = 64

/** Accounts' methods anyone may call: deposits need no signature from the account's owner. */
const OPEN_DEPOSIT_METHODS = new Set([
  "deposit",
  "deposit_batch",
  "try_deposit_or_abort",
  "try_deposit_or_refund",
  "try_deposit_batch_or_abort",
  "try_deposit_batch_or_refund"
])

export type SubintentExpiration =
  | { readonly discriminator: "expireAtTime"; readonly unixTimestampSeconds: number }
  | { readonly discriminator: "expireAfterDelay"; readonly expireAfterSeconds: number }

export interface RequestedHeader {
  readonly startEpochInclusive: number
  readonly endEpochExclusive: number
  readonly minProposerTimestampInclusive?: number | undefined
  readonly maxProposerTimestampExclusive?: number | undefined
  readonly intentDiscriminator: number
  readonly networkId?: number | undefined
}

export interface SubintentItem {
  readonly subintentManifest: string
  readonly expiration: SubintentExpiration
  readonly header?: RequestedHeader | undefined
  readonly blobs?: ReadonlyArray<string> | undefined
  readonly message?: string | undefined
  readonly version: number
  readonly manifestVersion: number
}

const invalid = (message: string) => new WalletFailure({ error: "invalidRequest", message })

/**
 * The seconds an expiration leaves at `nowSeconds`, or the wallet's refusal: `expiredSubintent` for a time already
 * past (or a delay of 0 s), `subintentExpirationTooClose` for a time less than 30 s away. The real wallet checks
 * this on every request, whether or not the dApp gives the header.
 */
export const secondsLeftOf = (
  expiration: SubintentExpiration,
  nowSeconds: number
): Either.Either<number, WalletFailure> => {
  if (expiration.discriminator === "expireAtTime") {
    const at = expiration.unixTimestampSeconds
    if (!Number.isSafeInteger(at))
      return Either.left(invalid(`The expiration time ${String(at)} is not a whole number of unix seconds`))
    const secondsLeft = at - nowSeconds
    if (secondsLeft <= 0)
      return Either.left(
        new WalletFailure({
          error: "expiredSubintent",
          message: `The pre-authorization expired at ${new Date(at * 1000).toISOString()}, before it was signed`
        })
      )
    if (secondsLeft < MIN_SECONDS_LEFT)
      return Either.left(
        new WalletFailure({
          error: "subintentExpirationTooClose",
          message: `The pre-authorization would expire in ${secondsLeft} s; the wallet needs at least ${MIN_SECONDS_LEFT} s`
        })
      )
    return Either.right(secondsLeft)
  }
  const secondsLeft = expiration.expireAfterSeconds
  if (!Number.isSafeInteger(secondsLeft) || secondsLeft < 0)
    return Either.left(invalid(`The expiration delay ${String(secondsLeft)} is not a whole number of seconds ≥ 0`))
  if (secondsLeft === 0)
    return Either.left(new WalletFailure({ error: "expiredSubintent", message: "The expiration delay is 0 s" }))
  return Either.right(secondsLeft)
}

/** The header times for an expiration at `nowSeconds` in `currentEpoch` (the rule in the module comment). */
export const headerTimes = (
  expiration: SubintentExpiration,
  nowSeconds: number,
  currentEpoch: number
): Either.Either<
  { readonly startEpochInclusive: number; readonly endEpochExclusive: number; readonly expiresAt: number },
  WalletFailure
> => {
  const left = secondsLeftOf(expiration, nowSeconds)
  if (Either.isLeft(left)) return Either.left(left.left)
  const secondsLeft = left.right
  if (secondsLeft > MAX_EXPIRATION_SECONDS)
    return Either.left(
      invalid(
        `The pre-authorization would expire in ${secondsLeft} s; the devnet wallet signs for at most ${MAX_EXPIRATION_SECONDS} s (30 days)`
      )
    )
  const span = Math.min(MAX_EPOCH_SPAN, MIN_EPOCH_SPAN + Math.floor(secondsLeft / EXPECTED_EPOCH_SECONDS))
  return Either.right({
    startEpochInclusive: currentEpoch,
    endEpochExclusive: currentEpoch + span,
    expiresAt: nowSeconds + secondsLeft
  })
}

const isU64 = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n >= 0)

/** A dApp-given header, checked before the wallet signs it as given. */
const givenHeader = (h: RequestedHeader): Either.Either<RequestedHeader, WalletFailure> => {
  if (h.networkId !== undefined && h.networkId !== NETWORK_ID)
    return Either.left(
      new WalletFailure({
        error: "wrongNetwork",
        message: `The subintent header is for network ${h.networkId}; the devnet wallet is on ${NETWORK_ID}`
      })
    )
  const fields = [
    h.startEpochInclusive,
    h.endEpochExclusive,
    h.minProposerTimestampInclusive,
    h.maxProposerTimestampExclusive,
    h.intentDiscriminator
  ]
  if (!fields.every(isU64))
    return Either.left(invalid("The subintent header holds a value that is not a whole number ≥ 0"))
  if (h.endEpochExclusive <= h.startEpochInclusive)
    return Either.left(invalid("The subintent header's end epoch is not after its start epoch"))
  return Either.right(h)
}

const utf8Length = (text: string) => new TextEncoder().encode(text).length
const HEX = /^(?:[0-9a-fA-F]{2})*$/

const addressOf = (nodeId: Uint8Array): string =>
  Either.getOrElse(encodeAddress(nodeId, NETWORK_ID), () => toHex(nodeId))

const fieldsOf = (args: ManifestValue): ReadonlyArray<ManifestValue> => (args.kind === "Tuple" ? args.fields : [])

const staticAddress = (v: ManifestValue | undefined): string | undefined =>
  v?.kind === "Address" && v.value.type === "Static" ? addressOf(v.value.nodeId) : undefined

export interface PreparedPreAuthorization {
  readonly instructions: ReadonlyArray<InstructionV2>
  readonly children: ReadonlyArray<Uint8Array>
  readonly blobs: ReadonlyArray<Uint8Array>
  readonly message: string | undefined
  readonly signers: ReadonlyArray<SigningAccount>
  readonly preview: PreAuthorizationPreview
}

/**
 * Everything the wallet shows for a pre-authorisation request, at `now` (the header times as they would be if the
 * user approved now). Fails with the wallet's error for a manifest outside the subset, a foreign account, or a bad
 * expiration, header, message or blob.
 */
export const preparePreAuthorization = Effect.fn("WalletEmulator.preparePreAuthorization")(function* (
  ledger: Ledger,
  ours: ReadonlyArray<SigningAccount>,
  label: (address: string) => string | undefined,
  item: SubintentItem
) {
  if (item.version !== 1 || item.manifestVersion !== 2)
    return yield* invalid(
      `The devnet wallet signs subintent requests of version 1 with manifest version 2, not ${item.version}/${item.manifestVersion}`
    )
  if (item.message !== undefined && utf8Length(item.message) > MAX_MESSAGE_BYTES)
    return yield* invalid(`The message is longer than ${MAX_MESSAGE_BYTES} bytes`)
  const blobs: Array<Uint8Array> = []
  if ((item.blobs?.length ?? 0) > MAX_BLOBS) return yield* invalid(`More than ${MAX_BLOBS} blobs`)
  for (const blob of item.blobs ?? []) {
    const bytes = HEX.test(blob) ? fromHex(blob) : undefined
    if (bytes === undefined) return yield* invalid("A blob is not hex")
    blobs.push(bytes)
  }
  const compiled = compileManifest(item.subintentManifest, NETWORK_ID)
  if (Either.isLeft(compiled))
    return yield* new WalletFailure({
      error: "failedToPrepareTransaction",
      message: `The subintent manifest does not compile: ${compiled.left.message}`
    })
  const { instructions, children } = compiled.right
  if (children.length > 0)
    return yield* new WalletFailure({
      error: "failedToPrepareTransaction",
      message: "The subintent names child subintents (USE_CHILD); the devnet wallet has no signed children to attach"
    })
  const printed = printManifest({ instructions, children }, NETWORK_ID)
  if (Either.isLeft(printed))
    return yield* new WalletFailure({
      error: "failedToPrepareTransaction",
      message: `The subintent manifest names an unknown entity: ${printed.left.message}`
    })

  const resources = yield* ledger.resources
  const symbol = (resource: string) => resources.find((r) => r.address === resource)?.symbol ?? "?"
  const mine = (address: string) => ours.find((a) => a.address === address)
  const nameOf = (address: string) => mine(address)?.label ?? label(address)
  const move = (account: string, resource: string, amount: string): Move => {
    const accountLabel = nameOf(account)
    return {
      account,
      ...(accountLabel === undefined ? {} : { accountLabel }),
      resource,
      symbol: symbol(resource),
      amount
    }
  }

  // Who must sign: every account the manifest calls a method on other than an open deposit.
  const signerAddresses: Array<string> = []
  const withdrawals: Array<Move> = []
  const guarantees: Array<Guarantee> = []
  const bucketResource = new Map<number, string>()
  let buckets = 0
  const guarantee = (resource: string, constraint: ResourceConstraint, where: Guarantee["where"]) => {
    const amount = (() => {
      switch (constraint.type) {
        case "NonZeroAmount":
          return "more than 0"
        case "ExactAmount":
          return `exactly ${constraint.amount}`
        case "AtLeastAmount":
          return `at least ${constraint.amount}`
        case "ExactNonFungibles":
          return `exactly ${constraint.ids.length} given item${constraint.ids.length === 1 ? "" : "s"}`
        case "AtLeastNonFungibles":
          return `at least ${constraint.ids.length} given item${constraint.ids.length === 1 ? "" : "s"}`
        case "General": {
          const low =
            constraint.lowerBound.type === "NonZero" ? "more than 0" : `at least ${constraint.lowerBound.amount}`
          const high = constraint.upperBound.type === "Unbounded" ? "" : `, at most ${constraint.upperBound.amount}`
          return `${low}${high}`
        }
      }
    })()
    guarantees.push({ resource, symbol: symbol(resource), amount, where })
  }
  for (const ins of instructions) {
    switch (ins.kind) {
      case "CallMethod": {
        const target = staticAddress({ kind: "Address", value: ins.address })
        if (target === undefined || !isAccountAddress(target)) break
        if (!OPEN_DEPOSIT_METHODS.has(ins.methodName) && !signerAddresses.includes(target)) signerAddresses.push(target)
        const args = fieldsOf(ins.args)
        if (ins.methodName === "withdraw" || ins.methodName === "lock_fee_and_withdraw") {
          const [resourceArg, amountArg] = ins.methodName === "withdraw" ? args : args.slice(1)
          const resource = staticAddress(resourceArg)
          if (resource !== undefined && amountArg?.kind === "Decimal")
            withdrawals.push(move(target, resource, amountArg.value))
        } else if (
          ins.methodName === "withdraw_non_fungibles" ||
          ins.methodName === "lock_fee_and_withdraw_non_fungibles"
        ) {
          const [resourceArg, idsArg] = ins.methodName === "withdraw_non_fungibles" ? args : args.slice(1)
          const resource = staticAddress(resourceArg)
          const count = idsArg?.kind === "Array" ? idsArg.elements.length : 0
          if (resource !== undefined) withdrawals.push(move(target, resource, `${count} item${count === 1 ? "" : "s"}`))
        }
        break
      }
      case "TakeFromWorktop":
      case "TakeAllFromWorktop":
      case "TakeNonFungiblesFromWorktop":
        bucketResource.set(buckets++, addressOf(ins.resourceAddress))
        break
      case "AssertWorktopContains":
        guarantee(addressOf(ins.resourceAddress), { type: "AtLeastAmount", amount: ins.amount }, "worktop")
        break
      case "AssertWorktopContainsAny":
        guarantee(addressOf(ins.resourceAddress), { type: "NonZeroAmount" }, "worktop")
        break
      case "AssertWorktopContainsNonFungibles":
        guarantee(addressOf(ins.resourceAddress), { type: "AtLeastNonFungibles", ids: ins.ids }, "worktop")
        break
      case "AssertWorktopResourcesOnly":
      case "AssertWorktopResourcesInclude":
      case "AssertNextCallReturnsOnly":
      case "AssertNextCallReturnsInclude": {
        const where = ins.kind.startsWith("AssertWorktop") ? "worktop" : "nextCall"
        for (const c of ins.constraints) guarantee(addressOf(c.resourceAddress), c.constraint, where)
        break
      }
      case "AssertBucketContents": {
        const resource = bucketResource.get(ins.bucket)
        if (resource !== undefined) guarantee(resource, ins.constraint, "bucket")
        break
      }
      default:
        break
    }
  }
  const foreign = signerAddresses.find((a) => mine(a) === undefined)
  if (foreign !== undefined)
    return yield* new WalletFailure({
      error: "failedToSignTransaction",
      message: `The subintent needs the signature of ${foreign}, which is not an account of the devnet wallet`
    })
  const signers = signerAddresses.flatMap((a) => {
    const account = mine(a)
    return account === undefined ? [] : [account]
  })

  const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
  let expiry: PreAuthorizationPreview["expiry"]
  if (item.header !== undefined) {
    const h = yield* givenHeader(item.header)
    yield* secondsLeftOf(item.expiration, nowSeconds)
    expiry = {
      startEpochInclusive: h.startEpochInclusive,
      endEpochExclusive: h.endEpochExclusive,
      ...(h.maxProposerTimestampExclusive === undefined ? {} : { expiresAt: h.maxProposerTimestampExclusive }),
      headerFromDapp: true
    }
  } else {
    const { epoch } = yield* ledger.state
    const times = yield* headerTimes(item.expiration, nowSeconds, epoch)
    expiry = { ...times, headerFromDapp: false }
  }
  const preview: PreAuthorizationPreview = {
    manifest: printed.right,
    ...(item.message === undefined ? {} : { message: item.message }),
    blobCount: blobs.length,
    signers: signers.map((s) => s.address),
    withdrawals,
    guarantees,
    expiration: item.expiration,
    expiry
  }
  return { instructions, children, blobs, message: item.message, signers, preview } satisfies PreparedPreAuthorization
})

/** A random 64-bit intent discriminator, as the wallet picks one per subintent. */
const randomDiscriminator = (): bigint => {
  const bytes = crypto.getRandomValues(new Uint8Array(8))
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n)
}

export interface SignedPreAuthorization {
  readonly signedPartialTransaction: string
  readonly subintentHash: string
  readonly expirationTimestamp: number
}

/**
 * Builds the header (at the time of approval) and signs the subintent with every signer's key; answers what the
 * `preAuthorizationResponse` carries.
 */
export const signPreAuthorization = Effect.fn("WalletEmulator.signPreAuthorization")(function* (
  prepared: PreparedPreAuthorization,
  item: SubintentItem
) {
  const expiry = prepared.preview.expiry
  let header: IntentHeaderV2
  let expirationTimestamp: number
  if (item.header !== undefined) {
    const h = item.header
    header = {
      networkId: NETWORK_ID,
      startEpochInclusive: BigInt(h.startEpochInclusive),
      endEpochExclusive: BigInt(h.endEpochExclusive),
      minProposerTimestampInclusive:
        h.minProposerTimestampInclusive === undefined ? null : BigInt(h.minProposerTimestampInclusive),
      maxProposerTimestampExclusive:
        h.maxProposerTimestampExclusive === undefined ? null : BigInt(h.maxProposerTimestampExclusive),
      intentDiscriminator: BigInt(h.intentDiscriminator)
    }
    // With no timestamp bound the subintent lives until its end epoch: answer that epoch's expected end.
    const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    expirationTimestamp =
      h.maxProposerTimestampExclusive ??
      nowSeconds + Math.max(0, h.endEpochExclusive - expiry.startEpochInclusive) * EXPECTED_EPOCH_SECONDS
  } else {
    header = {
      networkId: NETWORK_ID,
      startEpochInclusive: BigInt(expiry.startEpochInclusive),
      endEpochExclusive: BigInt(expiry.endEpochExclusive),
      minProposerTimestampInclusive: null,
      maxProposerTimestampExclusive: BigInt(expiry.expiresAt ?? 0),
      intentDiscriminator: randomDiscriminator()
    }
    expirationTimestamp = expiry.expiresAt ?? 0
  }
  const built = buildSignedPartialTransaction({
    header,
    instructions: prepared.instructions,
    blobs: prepared.blobs,
    ...(prepared.message === undefined ? {} : { message: plaintextMessage(prepared.message) }),
    signers: prepared.signers.map((s) => ({ curve: "Ed25519" as const, secretKey: s.key.privateKey }))
  })
  if (Either.isLeft(built))
    return yield* new WalletFailure({
      error: "failedToCompileTransaction",
      message: `Could not encode the subintent: ${built.left.message}`
    })
  return {
    signedPartialTransaction: toHex(built.right.payload),
    subintentHash: built.right.subintentId,
    expirationTimestamp
  } satisfies SignedPreAuthorization
})
