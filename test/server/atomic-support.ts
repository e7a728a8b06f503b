/** Keys, addresses and signed pre-authorisations for the atomic swap tests (localnet, network 240). */
import { Either } from "effect"
import {
  buildSignedPartialTransaction,
  compileManifest,
  ed25519PublicKey,
  encodeAddress,
  type InstructionV2,
  type IntentHeaderV2,
  type SigningKey,
  type SignedPartialTransactionV2,
  toHex
} from "../../src/txv2"
import { virtualAccountNodeId } from "../../src/server/atomic/check"
import { atomicSubintentManifest, type AtomicManifestQuote } from "../../src/exchange/atomicManifest"

export const LOC = 240

export const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${JSON.stringify(e.left)}`)
  return e.right
}

export const keyFromU64 = (n: number): Uint8Array => {
  const seed = new Uint8Array(32)
  new DataView(seed.buffer).setBigUint64(24, BigInt(n))
  return seed
}

export const edKey = (n: number): SigningKey => ({ curve: "Ed25519", secretKey: keyFromU64(n) })

/** The virtual Ed25519 account of a key. */
export const accountOf = (key: SigningKey, networkId = LOC): string =>
  right(encodeAddress(virtualAccountNodeId({ type: "Ed25519", bytes: ed25519PublicKey(key.secretKey) }), networkId))

const nodeId = (entity: number, fill: number) => Uint8Array.from([entity, ...new Array<number>(29).fill(fill)])
export const resource = (fill: number, networkId = LOC) => right(encodeAddress(nodeId(0x5d, fill), networkId))
export const allocatedAccount = right(encodeAddress(nodeId(0xc1, 9), LOC))

export const user = edKey(7)
export const stranger = edKey(11)
export const operator = edKey(8)
export const userAccount = accountOf(user)
export const exchangeAccount = accountOf(operator)
export const HUSDC = resource(4)
export const HETH = resource(5)

/** A fixed now (2026-12-01T12:00:00Z); the quote expires 120 s later. */
export const NOW_MS = 1_796_126_400_000
export const EXPIRES_MS = NOW_MS + 120_000
export const EPOCH = 100n

export const quote: AtomicManifestQuote = {
  fromResource: HUSDC,
  toResource: HETH,
  amountIn: "100",
  quotedOut: "0.0331"
}

export const header = (over: Partial<IntentHeaderV2> = {}): IntentHeaderV2 => ({
  networkId: LOC,
  startEpochInclusive: EPOCH,
  endEpochExclusive: EPOCH + 10n,
  minProposerTimestampInclusive: null,
  maxProposerTimestampExclusive: BigInt(EXPIRES_MS / 1000),
  intentDiscriminator: 42n,
  ...over
})

export const compile = (text: string, networkId = LOC): ReadonlyArray<InstructionV2> =>
  right(compileManifest(text, networkId)).instructions

export interface SignOptions {
  readonly manifest?: string
  readonly instructions?: ReadonlyArray<InstructionV2>
  readonly header?: Partial<IntentHeaderV2>
  readonly signers?: ReadonlyArray<SigningKey>
  readonly children?: ReadonlyArray<SignedPartialTransactionV2>
  readonly blobs?: ReadonlyArray<Uint8Array>
}

/** A signed partial transaction (hex) over the canonical manifest unless told otherwise. */
export const signed = (o: SignOptions = {}) => {
  const h = header(o.header)
  const instructions = o.instructions ?? compile(o.manifest ?? atomicSubintentManifest(quote, userAccount), h.networkId)
  const built = right(
    buildSignedPartialTransaction({
      header: h,
      instructions,
      signers: o.signers ?? [user],
      ...(o.children === undefined ? {} : { children: o.children }),
      ...(o.blobs === undefined ? {} : { blobs: o.blobs })
    })
  )
  return { ...built, hex: toHex(built.payload) }
}
