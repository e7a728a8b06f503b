/**
 * The fast path of V1 submissions: a notarized V1 transaction of the plain shape transfers have (account calls with
 * decimals, addresses, buckets, field-less enums and the whole worktop; takes, returns and worktop assertions; no
 * blobs; a plaintext message or none; Ed25519 signers) is decoded, hashed, validated and verified with txv2, without
 * the Radix Engine Toolkit. Every check here is at least as strict as the toolkit's static validation for that shape;
 * anything outside it, and anything these checks refuse, returns undefined, and the toolkit then decides (so every
 * rejection keeps the toolkit's own words). What it returns is what the toolkit path returns: the same hashes, the
 * instructions in the toolkit's parsed form, and the manifest text as the toolkit decompiles it.
 */
import type { Instruction, Value } from "@radixdlt/radix-engine-toolkit"
import { Either } from "effect"
import {
  decodeNotarizedTransactionV1,
  encodeAddress,
  type InstructionV2,
  type ManifestAddress,
  type ManifestValue,
  notarizedTransactionHashesV1,
  notarizedTransactionId,
  toHex,
  transactionIntentId
} from "../../txv2/index"
import { nodeEd25519Verifies as ed25519Verifies } from "../../server/ed25519"
import { DEVNET_NETWORK_ID, virtualAccountAddress } from "./address"

type Ret = typeof import("@radixdlt/radix-engine-toolkit")

/** The toolkit's default V1 validation limits (`defaultValidationConfig`). */
const MAX_EPOCH_RANGE = 8640n
const MAX_PLAINTEXT_MESSAGE_BYTES = 2048
const MAX_MIME_TYPE_BYTES = 128
const MAX_INTENT_SIGNATURES = 16

const METHOD_NAME = /^[a-z_][a-z0-9_]*$/

/** Thrown inside the fast path for anything it leaves to the toolkit. */
class NotFast {}
const notFast = (): never => {
  throw new NotFast()
}

const utf8Length = (text: string) => Buffer.byteLength(text, "utf8")

const address = (nodeId: Uint8Array): string => {
  const encoded = encodeAddress(nodeId, DEVNET_NETWORK_ID)
  return Either.isRight(encoded) ? encoded.right : notFast()
}

const staticAddress = (a: ManifestAddress): string => (a.type === "Static" ? address(a.nodeId) : notFast())

/** The manifest text of one argument, as the toolkit's decompiler writes it. */
interface Arg {
  readonly value: Value
  readonly text: string
}

const bucketName = (id: number) => `Bucket("bucket${id + 1}")`

const argument = (ret: Ret, v: ManifestValue, buckets: Set<number>): Arg => {
  switch (v.kind) {
    case "Decimal":
      return { value: ret.decimal(v.value), text: `Decimal("${v.value}")` }
    case "Address": {
      const a = staticAddress(v.value)
      return { value: ret.address(a), text: `Address("${a}")` }
    }
    case "Bucket":
      // A bucket passed on is consumed: it must exist and not have been passed on before.
      if (!buckets.delete(v.id)) return notFast()
      return { value: ret.bucket(v.id), text: bucketName(v.id) }
    case "Enum":
      if (v.fields.length > 0 || v.discriminator > 255) return notFast()
      return { value: ret.enumeration(v.discriminator), text: `Enum<${v.discriminator}u8>()` }
    case "Expression":
      if (v.value !== "EntireWorktop") return notFast()
      return { value: ret.expression("EntireWorktop"), text: `Expression("ENTIRE_WORKTOP")` }
    default:
      return notFast()
  }
}

/** The toolkit's own Decimal for an amount (its instructions carry decimal.js values). */
const decimalOf = (ret: Ret, text: string) => {
  const value = ret.decimal(text)
  return value.kind === "Decimal" ? value.value : notFast()
}

const line = (name: string, args: ReadonlyArray<string>) => `${name}\n${args.map((a) => `    ${a}\n`).join("")};\n`

/** The instructions in the toolkit's parsed form and the manifest text, or NotFast. */
const convert = (ret: Ret, instructions: ReadonlyArray<InstructionV2>) => {
  const parsed: Array<Instruction> = []
  let text = ""
  const buckets = new Set<number>()
  let nextBucket = 0
  for (const ins of instructions) {
    switch (ins.kind) {
      case "CallMethod": {
        if (!METHOD_NAME.test(ins.methodName) || ins.args.kind !== "Tuple") return notFast()
        const target = staticAddress(ins.address)
        const args = ins.args.fields.map((f) => argument(ret, f, buckets))
        parsed.push({
          kind: "CallMethod",
          address: { kind: "Static", value: target },
          methodName: ins.methodName,
          args: ret.tuple(...args.map((a) => a.value))
        })
        text += line("CALL_METHOD", [`Address("${target}")`, `"${ins.methodName}"`, ...args.map((a) => a.text)])
        break
      }
      case "TakeAllFromWorktop": {
        const resource = address(ins.resourceAddress)
        const id = nextBucket++
        buckets.add(id)
        parsed.push({ kind: "TakeAllFromWorktop", resourceAddress: resource })
        text += line("TAKE_ALL_FROM_WORKTOP", [`Address("${resource}")`, bucketName(id)])
        break
      }
      case "TakeFromWorktop": {
        const resource = address(ins.resourceAddress)
        const id = nextBucket++
        buckets.add(id)
        parsed.push({ kind: "TakeFromWorktop", resourceAddress: resource, amount: decimalOf(ret, ins.amount) })
        text += line("TAKE_FROM_WORKTOP", [`Address("${resource}")`, `Decimal("${ins.amount}")`, bucketName(id)])
        break
      }
      case "ReturnToWorktop": {
        if (!buckets.delete(ins.bucket)) return notFast()
        parsed.push({ kind: "ReturnToWorktop", bucketId: ins.bucket })
        text += line("RETURN_TO_WORKTOP", [bucketName(ins.bucket)])
        break
      }
      case "AssertWorktopContains": {
        const resource = address(ins.resourceAddress)
        parsed.push({ kind: "AssertWorktopContains", resourceAddress: resource, amount: decimalOf(ret, ins.amount) })
        text += line("ASSERT_WORKTOP_CONTAINS", [`Address("${resource}")`, `Decimal("${ins.amount}")`])
        break
      }
      case "AssertWorktopContainsAny": {
        const resource = address(ins.resourceAddress)
        parsed.push({ kind: "AssertWorktopContainsAny", resourceAddress: resource })
        text += line("ASSERT_WORKTOP_CONTAINS_ANY", [`Address("${resource}")`])
        break
      }
      default:
        return notFast()
    }
  }
  // A bucket left unused is for the toolkit to judge.
  if (buckets.size > 0) return notFast()
  return { parsed, text }
}

/**
 * A V1 notarized transaction of the plain shape, decoded and statically valid, or undefined when it is of another
 * shape or any check fails (the toolkit then decides, with its own error).
 */
export const decodeFastV1 = (ret: Ret, bytes: Uint8Array, rawHex: string) => {
  const decoded = decodeNotarizedTransactionV1(bytes)
  if (Either.isLeft(decoded)) return undefined
  const { signedIntent, notarySignature } = decoded.right
  const { header, instructions, blobs, message } = signedIntent.intent
  if (header.networkId !== DEVNET_NETWORK_ID || blobs.length > 0) return undefined
  if (header.endEpochExclusive <= header.startEpochInclusive) return undefined
  if (header.endEpochExclusive - header.startEpochInclusive > MAX_EPOCH_RANGE) return undefined
  if (header.notaryPublicKey.type !== "Ed25519") return undefined
  let gatewayMessage:
    | {
        readonly type: "Plaintext"
        readonly mime_type: string
        readonly content: { readonly type: "String"; readonly value: string }
      }
    | undefined
  if (message.type === "Plaintext") {
    if (message.message.type !== "String") return undefined
    if (utf8Length(message.mimeType) > MAX_MIME_TYPE_BYTES) return undefined
    if (utf8Length(message.message.value) > MAX_PLAINTEXT_MESSAGE_BYTES) return undefined
    gatewayMessage = {
      type: "Plaintext",
      mime_type: message.mimeType,
      content: { type: "String", value: message.message.value }
    }
  } else if (message.type !== "None") return undefined
  const signatures = signedIntent.intentSignatures
  if (signatures.length > MAX_INTENT_SIGNATURES) return undefined
  const hashes = notarizedTransactionHashesV1(decoded.right)
  if (Either.isLeft(hashes)) return undefined
  // Every signer distinct (the notary too, when it signs as signatory), every signature valid.
  const keys = new Set<string>()
  if (header.notaryIsSignatory) keys.add(toHex(header.notaryPublicKey.bytes))
  const signerKeys: Array<Uint8Array> = []
  for (const signature of signatures) {
    if (signature.type !== "Ed25519") return undefined
    const key = toHex(signature.publicKey)
    if (keys.has(key)) return undefined
    keys.add(key)
    if (!ed25519Verifies(hashes.right.intentHash, signature.publicKey, signature.signature)) return undefined
    signerKeys.push(signature.publicKey)
  }
  if (
    notarySignature.type !== "Ed25519" ||
    !ed25519Verifies(hashes.right.signedIntentHash, header.notaryPublicKey.bytes, notarySignature.bytes)
  )
    return undefined
  if (header.notaryIsSignatory) signerKeys.push(header.notaryPublicKey.bytes)
  let manifest: { readonly parsed: Array<Instruction>; readonly text: string }
  try {
    manifest = convert(ret, instructions)
  } catch (e) {
    if (e instanceof NotFast) return undefined
    throw e
  }
  return {
    intentHash: transactionIntentId(hashes.right.intentHash, DEVNET_NETWORK_ID),
    payloadHash: notarizedTransactionId(hashes.right.notarizedTransactionHash, DEVNET_NETWORK_ID),
    startEpochInclusive: Number(header.startEpochInclusive),
    endEpochExclusive: Number(header.endEpochExclusive),
    instructions: manifest.parsed,
    manifest: manifest.text,
    message: gatewayMessage,
    signerAccounts: [...new Set(signerKeys.map(virtualAccountAddress))],
    rawHex
  }
}
