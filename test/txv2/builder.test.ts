import { Either } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import {
  buildNotarizedTransaction,
  buildSignedPartialTransaction,
  buildSubintent,
  compileManifest,
  decodeAddress,
  decodeNotarizedTransactionV2,
  decodeSignedPartialTransactionV2,
  decodeTransactionId,
  encodeAddress,
  encodeTransactionId,
  fixedToString,
  hash,
  DECIMAL,
  ed25519PublicKey,
  type IntentHeaderV2,
  normalizeDecimal,
  parseFixed,
  recoverSecp256k1,
  signSecp256k1,
  subintentId,
  toHex,
  TransactionIdKind,
  type TransactionIdKindName,
  transactionIntentId,
  verifyNotarizedTransactionV2,
  verifySignatureWithPublicKey,
  verifySignedPartialTransactionV2
} from "../../src/txv2"
import { RadixNetworks } from "../../src/toolkit/config"
import { keyFromU64, right } from "./support"

const LOC = 240
const header = (discriminator: bigint): IntentHeaderV2 => ({
  networkId: LOC,
  startEpochInclusive: 10n,
  endEpochExclusive: 20n,
  minProposerTimestampInclusive: null,
  maxProposerTimestampExclusive: 1_900_000_000n,
  intentDiscriminator: discriminator
})

// Addresses on localnet built from node ids (a preallocated Ed25519 account and two fungible resources).
const nodeId = (entity: number, fill: number) => Uint8Array.from([entity, ...new Array<number>(29).fill(fill)])
const account = right(encodeAddress(nodeId(0x51, 1), LOC))
const exchange = right(encodeAddress(nodeId(0x51, 2), LOC))
const xrd = right(encodeAddress(nodeId(0x5d, 3), LOC))
const husdc = right(encodeAddress(nodeId(0x5d, 4), LOC))

describe("the atomic swap with the builder", () => {
  const user = { curve: "Ed25519", secretKey: keyFromU64(7) } as const
  const operator = { curve: "Ed25519", secretKey: keyFromU64(8) } as const

  const subintentManifest = `
    CALL_METHOD Address("${account}") "withdraw" Address("${xrd}") Decimal("100");
    TAKE_FROM_WORKTOP Address("${xrd}") Decimal("100") Bucket("sold");
    ASSERT_NEXT_CALL_RETURNS_ONLY Map<Address, Enum>(Address("${husdc}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("1.5")));
    YIELD_TO_PARENT Bucket("sold");
    CALL_METHOD Address("${account}") "deposit_batch" Expression("ENTIRE_WORKTOP");
    YIELD_TO_PARENT;`

  it("a wallet signs the subintent; the server decodes, verifies and wraps it; one transaction carries both", () => {
    const compiled = right(compileManifest(subintentManifest, LOC))
    const unsigned = right(buildSubintent({ header: header(1n), instructions: compiled.instructions }))
    const partial = right(
      buildSignedPartialTransaction({ header: header(1n), instructions: compiled.instructions, signers: [user] })
    )
    expect(partial.subintentId).toBe(unsigned.subintentId)
    expect(partial.subintentId.startsWith("subtxid_loc1")).toBe(true)
    expect(toHex(partial.payload.subarray(0, 4))).toBe("4d220e03")

    // The server side: decode the wallet's payload, check its signature and who signed.
    const received = right(decodeSignedPartialTransactionV2(partial.payload))
    const signers = right(verifySignedPartialTransactionV2(received))
    expect(signers.rootSigners.map((s) => toHex(s.bytes))).toEqual([toHex(ed25519PublicKey(user.secretKey))])

    const parent = right(
      compileManifest(
        `USE_CHILD NamedIntent("swap") Intent("${partial.subintentId}");
         CALL_METHOD Address("${exchange}") "lock_fee" Decimal("1");
         YIELD_TO_CHILD NamedIntent("swap");
         CALL_METHOD Address("${exchange}") "withdraw" Address("${husdc}") Decimal("1.5");
         TAKE_ALL_FROM_WORKTOP Address("${husdc}") Bucket("bought");
         YIELD_TO_CHILD NamedIntent("swap") Bucket("bought");
         CALL_METHOD Address("${exchange}") "deposit_batch" Expression("ENTIRE_WORKTOP");`,
        LOC
      )
    )
    const tx = right(
      buildNotarizedTransaction({
        header: header(2n),
        instructions: parent.instructions,
        children: [received],
        signers: [],
        notary: operator,
        notaryIsSignatory: true
      })
    )
    expect(tx.model.signedTransactionIntent.transactionIntent.rootIntentCore.children.map((c) => toHex(c))).toEqual(
      parent.children.map((c) => toHex(c))
    )
    expect(tx.ids.nonRootSubintents).toEqual([partial.subintentId])
    expect(tx.ids.transactionIntent.startsWith("txid_loc1")).toBe(true)

    const decoded = right(decodeNotarizedTransactionV2(tx.payload))
    const verified = right(verifyNotarizedTransactionV2(decoded))
    expect(verified.nonRootSigners.map((b) => b.length)).toEqual([1])
    expect(
      right(decodeTransactionId(tx.ids.transactionIntent, { kind: "transactionIntent", networkId: LOC })).hash
    ).toEqual(tx.hashes.transactionIntentHash)
  })

  it("a signature over another subintent does not verify", () => {
    const a = right(buildSignedPartialTransaction({ header: header(1n), instructions: [], signers: [user] }))
    const b = right(buildSignedPartialTransaction({ header: header(3n), instructions: [], signers: [user] }))
    const forged = { ...a.model, rootSubintentSignatures: b.model.rootSubintentSignatures }
    const v = verifySignedPartialTransactionV2(forged)
    expect(Either.isLeft(v) && v.left._tag === "TxV2SignatureError" && v.left.which).toBe("rootSubintentSignatures[0]")
  })
})

describe("Secp256k1", () => {
  // radix-common secp256k1/private_key.rs test `sign_and_verify`: key 1, the Blake2b-256 hash of "Test".
  const secretKey = keyFromU64(1)
  const message = hash(new TextEncoder().encode("Test"))
  const expected =
    "00eb8dcd5bb841430dd0a6f45565a1b8bdb4a204eb868832cd006f963a89a662813ab844a542fcdbfda4086a83fbbde516214113051b9c8e42a206c98d564d7122"

  it("signs like the engine (recovery id first) and recovers the signer's key", () => {
    expect(toHex(signSecp256k1(message, secretKey))).toBe(expected)
    const key = recoverSecp256k1(message, signSecp256k1(message, secretKey))
    expect(key === undefined ? "" : toHex(key)).toBe(
      "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"
    )
    const v = verifySignatureWithPublicKey(
      message,
      { type: "Secp256k1", signature: signSecp256k1(message, secretKey) },
      "s"
    )
    expect(Either.isRight(v) && v.right.type).toBe("Secp256k1")
    expect(recoverSecp256k1(message, Uint8Array.from([4, ...new Array<number>(64).fill(1)]))).toBeUndefined()
  })
})

describe("decimals, ids and addresses", () => {
  it("Decimal text and i192 agree exactly at the limits", () => {
    const max = "3138550867693340381917894711603833208051.177722232017256447"
    const min = "-3138550867693340381917894711603833208051.177722232017256448"
    expect(fixedToString(parseFixed(max, DECIMAL) as bigint, DECIMAL)).toBe(max)
    expect(fixedToString(parseFixed(min, DECIMAL) as bigint, DECIMAL)).toBe(min)
    expect(parseFixed("3138550867693340381917894711603833208051.177722232017256448", DECIMAL)).toBe("out of range")
    expect(normalizeDecimal("00012.50")).toBe("12.5")
    expect(normalizeDecimal("0.000000000000000001")).toBe("0.000000000000000001")
    expect(normalizeDecimal("1e5")).toEqual({ error: 'not a decimal number: "1e5"' })
    expect(normalizeDecimal(".5")).toEqual({ error: 'not a decimal number: ".5"' })
  })

  it("ids carry the network suffix and decode back; a wrong kind or network is a typed error", () => {
    const h = hash(Uint8Array.of(1, 2, 3))
    for (const [net, prefix] of [
      [1, "txid_rdx1"],
      [2, "txid_tdx_2_1"],
      [240, "txid_loc1"],
      [242, "txid_sim1"]
    ] as const) {
      const id = transactionIntentId(h, net)
      expect(id.startsWith(prefix)).toBe(true)
      const back = right(decodeTransactionId(id))
      expect([back.kind, back.networkId, toHex(back.hash)]).toEqual(["transactionIntent", net, toHex(h)])
    }
    const sub = subintentId(h, 1)
    const wrongKind = decodeTransactionId(sub, { kind: "transactionIntent" })
    expect(Either.isLeft(wrongKind) && wrongKind.left.reason).toBe("is a subintent id, expected a transactionIntent id")
    const wrongNet = decodeTransactionId(sub, { networkId: 2 })
    expect(Either.isLeft(wrongNet) && wrongNet.left.reason).toBe("is for network 1, expected network 2")
    expect(Either.isLeft(decodeTransactionId(sub.toUpperCase()))).toBe(true)
  })

  it("every network the toolkit and the devnet support: the four ids carry its suffix and decode back", () => {
    // The HRP suffixes of radix-common's network definitions.
    const suffixes: Readonly<Record<number, string>> = {
      1: "rdx",
      2: "tdx_2_",
      0x20: "tdx_20_",
      0x21: "tdx_21_",
      0x22: "tdx_22_",
      0x24: "tdx_24_",
      0x25: "tdx_25_",
      240: "loc"
    }
    const networks = [...Object.keys(RadixNetworks).map(Number), 240]
    expect(networks.sort((a, b) => a - b)).toEqual(Object.keys(suffixes).map(Number))
    const h = hash(Uint8Array.of(9, 8, 7))
    for (const net of networks) {
      for (const [kind, prefix] of Object.entries(TransactionIdKind) as ReadonlyArray<
        [TransactionIdKindName, string]
      >) {
        const id = encodeTransactionId(kind, h, net)
        expect(id.startsWith(`${prefix}_${suffixes[net]}1`)).toBe(true)
        const back = right(decodeTransactionId(id, { kind, networkId: net }))
        expect(toHex(back.hash)).toBe(toHex(h))
      }
    }
  })

  it("addresses decode to node ids whose entity type matches the HRP", () => {
    const mainnetXrd = "resource_rdx1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxradxrd"
    const d = right(decodeAddress(mainnetXrd, 1))
    expect(d.entityType).toBe(0x5d)
    expect(right(encodeAddress(d.nodeId, 1))).toBe(mainnetXrd)
    const stokenet = right(encodeAddress(d.nodeId, 2))
    expect(stokenet).toBe("resource_tdx_2_1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxtfd2jc")
    const wrong = decodeAddress(mainnetXrd, 2)
    expect(Either.isLeft(wrong) && wrong.left.reason).toBe("is for network 1, expected network 2")
  })
})

describe("txv2 stays pure and browser-safe", () => {
  it("imports only effect, @noble/curves, @noble/hashes, its own files and the dependency-free bech32m codec", () => {
    const root = fileURLToPath(new URL("../../src/txv2", import.meta.url))
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))
    expect(files.length).toBeGreaterThan(10)
    for (const f of files) {
      const text = readFileSync(`${root}/${f}`, "utf8")
      for (const m of text.matchAll(/from "([^"]+)"/g)) {
        const spec = m[1] ?? ""
        const allowed =
          spec === "effect" ||
          spec.startsWith("@noble/curves/") ||
          spec.startsWith("@noble/hashes/") ||
          spec.startsWith("./") ||
          spec === "../bytes" ||
          /^\.\.\/(decimal|errors|ids|instructions|sbor)$/.test(spec) ||
          spec === "../exchange/bech32m"
        expect(allowed, `${f} imports ${spec}`).toBe(true)
      }
    }
    const bech32m = readFileSync(fileURLToPath(new URL("../../src/exchange/bech32m.ts", import.meta.url)), "utf8")
    expect(bech32m).not.toMatch(/\bimport\b/)
  })
})
