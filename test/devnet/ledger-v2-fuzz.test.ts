/**
 * A seeded fuzz of 10,000 mutated V2 payloads through the ledger's submit path: every one answers (a typed
 * rejection or a submit result, never a defect), none hangs, and nothing is committed unless the mutation is itself
 * a valid transaction (then exactly that one commit).
 */
import { Cause, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ledger } from "../../src/devnet/ledger/Ledger.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import {
  type IntentHeaderV2,
  buildNotarizedTransaction,
  buildSignedPartialTransaction,
  compileManifest,
  subintentId,
  toHex
} from "../../src/txv2/index.js"
import { captureLogs, type LogLine } from "../support/logs.js"

const { hUSDC, hETH } = DevnetAddresses.resources
const [user1 = ""] = DevnetAddresses.users
const exchange = DevnetAddresses.exchangeAccount
const LOC = 240

const logs: Array<LogLine> = []
const runtime = ManagedRuntime.make(
  Layer.merge(Ledger.memory({ roundDurationMs: 3_600_000, epochDurationMs: 36_000_000 }), captureLogs(logs))
)
let ledger: Ledger
afterAll(() => runtime.dispose())
beforeAll(async () => {
  ledger = await runtime.runPromise(Ledger)
})

/** mulberry32: a small seeded generator, so a failure reproduces. */
const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const orThrow = <A>(e: { _tag: "Right"; right: A } | { _tag: "Left"; left: unknown }): A => {
  if (e._tag === "Left") throw new Error(String(e.left))
  return e.right
}

const swapPayload = (epoch: number): Uint8Array => {
  const header = (d: bigint): IntentHeaderV2 => ({
    networkId: LOC,
    startEpochInclusive: BigInt(epoch),
    endEpochExclusive: BigInt(epoch + 10),
    minProposerTimestampInclusive: null,
    maxProposerTimestampExclusive: BigInt(Math.floor(Date.now() / 1000) + 3600),
    intentDiscriminator: d
  })
  const child = orThrow(
    buildSignedPartialTransaction({
      header: header(11n),
      instructions: orThrow(
        compileManifest(
          `CALL_METHOD Address("${user1}") "withdraw" Address("${hUSDC}") Decimal("1");
           TAKE_FROM_WORKTOP Address("${hUSDC}") Decimal("1") Bucket("sold");
           ASSERT_NEXT_CALL_RETURNS_ONLY Map<Address, Enum>(Address("${hETH}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("0.001")));
           YIELD_TO_PARENT Bucket("sold");
           CALL_METHOD Address("${user1}") "deposit_batch" Expression("ENTIRE_WORKTOP");
           YIELD_TO_PARENT;`,
          LOC
        )
      ).instructions,
      signers: [{ curve: "Ed25519", secretKey: ledger.genesis.users[0].key.privateKey }]
    })
  )
  const parent = orThrow(
    compileManifest(
      `USE_CHILD NamedIntent("swap") Intent("${subintentId(child.subintentHash, LOC)}");
       CALL_METHOD Address("${exchange}") "lock_fee" Decimal("10");
       YIELD_TO_CHILD NamedIntent("swap");
       CALL_METHOD Address("${exchange}") "withdraw" Address("${hETH}") Decimal("0.001");
       TAKE_ALL_FROM_WORKTOP Address("${hETH}") Bucket("bought");
       YIELD_TO_CHILD NamedIntent("swap") Bucket("bought");
       CALL_METHOD Address("${exchange}") "deposit_batch" Expression("ENTIRE_WORKTOP");`,
      LOC
    )
  )
  return orThrow(
    buildNotarizedTransaction({
      header: header(12n),
      instructions: parent.instructions,
      children: [child.model],
      signers: [{ curve: "Ed25519", secretKey: ledger.genesis.exchange.key.privateKey }],
      notary: { curve: "Ed25519", secretKey: ledger.genesis.notary.privateKey }
    })
  ).payload
}

const mutate = (base: Uint8Array, next: () => number): Uint8Array => {
  const at = () => Math.floor(next() * base.length)
  const bytes = Array.from(base)
  const rounds = 1 + Math.floor(next() * 3)
  for (let r = 0; r < rounds; r++) {
    const kind = Math.floor(next() * 6)
    const i = at()
    if (kind === 0) bytes[i] = (bytes[i] ?? 0) ^ (1 << Math.floor(next() * 8))
    else if (kind === 1) bytes[i] = Math.floor(next() * 256)
    else if (kind === 2) bytes.length = Math.max(0, i)
    else if (kind === 3) bytes.splice(i, 0, Math.floor(next() * 256))
    else if (kind === 4) bytes.splice(i, 1 + Math.floor(next() * 8))
    else bytes.splice(i, 0, ...bytes.slice(i, i + 1 + Math.floor(next() * 16)))
  }
  return Uint8Array.from(bytes)
}

describe("fuzzing the ledger's V2 submit path", () => {
  it(
    "10,000 mutated swaps: no defect, no hang, nothing committed but a valid transaction",
    { timeout: 300_000 },
    async () => {
      const { epoch } = await runtime.runPromise(ledger.state)
      const base = swapPayload(epoch)
      const next = prng(0x5eed2)
      let rejected = 0
      let committed = 0
      for (let n = 0; n < 10_000; n++) {
        const hex = toHex(mutate(base, next))
        const before = await runtime.runPromise(ledger.currentStateVersion)
        const exit = await runtime.runPromiseExit(ledger.submit(hex).pipe(Effect.timeout("5 seconds")))
        const after = await runtime.runPromise(ledger.currentStateVersion)
        if (Exit.isFailure(exit)) {
          // A rejection is a typed failure; a defect, an interruption or a timeout is a bug.
          const failure = Cause.failureOption(exit.cause)
          expect(
            failure._tag === "Some" && failure.value._tag === "TransactionRejected",
            `mutation ${n}: ${Cause.pretty(exit.cause)}`
          ).toBe(true)
          expect(after, `mutation ${n} was rejected but committed`).toBe(before)
          rejected += 1
        } else {
          // Accepted: either it commits as itself (a mutation that is still a valid transaction), or the node
          // rejected it temporarily and nothing was committed.
          const tx = exit.value.transaction
          if (tx === undefined || exit.value.duplicate) expect(after).toBe(before)
          else {
            expect(tx.payloadHash).toBe(exit.value.payloadHash)
            expect(after).toBe(before + 1)
            committed += 1
          }
        }
      }
      // Every signature covers the whole payload: only a mutation that restored the original bytes can commit.
      expect(committed).toBeLessThanOrEqual(1)
      expect(rejected).toBeGreaterThan(9_000)
    }
  )
})
