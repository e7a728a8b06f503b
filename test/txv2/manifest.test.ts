import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  compileManifest,
  decodeNotarizedTransactionV2,
  encodeSubintentV2,
  type IntentCoreV2,
  type ManifestCompileError,
  printManifest,
  toHex
} from "../../src/txv2"
import { right, scenarios } from "./support"

const SIM = 242

/** The intent's bytes with its instructions and children replaced, to compare compiled and decoded parts exactly. */
const withManifest = (
  core: IntentCoreV2,
  m: { instructions: IntentCoreV2["instructions"]; children: IntentCoreV2["children"] }
) => toHex(right(encodeSubintentV2({ intentCore: { ...core, instructions: m.instructions, children: m.children } })))

const intents = scenarios.flatMap((sc) => {
  const ti = right(decodeNotarizedTransactionV2(sc.payload)).signedTransactionIntent.transactionIntent
  return Object.entries(sc.manifests).map(([file, text]) => {
    const k = /^sub-(\d+)\.rtm$/.exec(file)
    const core = k === null ? ti.rootIntentCore : ti.nonRootSubintents[Number(k[1])]?.intentCore
    if (core === undefined) throw new Error(`${sc.name}/${file} has no intent`)
    return { name: `${sc.name}/${file}`, text, core }
  })
})

const compileError = (text: string): ManifestCompileError => {
  const r = compileManifest(text, SIM)
  if (Either.isRight(r)) throw new Error("expected a compile error")
  return r.left
}

describe("the manifest compiler on the scenario manifests", () => {
  it("covers every scenario manifest", () => {
    expect(intents.length).toBe(17)
  })

  it.each(intents)("$name compiles to the instructions and children in the payload", ({ text, core }) => {
    const compiled = right(compileManifest(text, SIM))
    expect(withManifest(core, compiled)).toBe(withManifest(core, core))
  })

  it.each(intents)("$name prints and compiles back to the same instructions", ({ core }) => {
    const text = right(printManifest(core, SIM))
    const compiled = right(compileManifest(text, SIM))
    expect(withManifest(core, compiled)).toBe(withManifest(core, core))
  })

  it("prints a readable preview", () => {
    const trading = intents.find((i) => i.name === "005--trading_with_subintent/sub-0.rtm")
    expect(trading).toBeDefined()
    const text = right(printManifest(trading?.core ?? { instructions: [], children: [] }, SIM))
    expect(text.split("\n").slice(0, 4)).toEqual([
      'CALL_METHOD Address("account_sim1c9dln9q5pr7f0kt6u7payyeka23jrstgcq6zk6fxsvh9r5zpdpa82s") "withdraw" Address("resource_sim1thqu8jcc3zh8ukuh0rwtllr84dgrd3z8j9zjdelkx3zf4kjasgvnm8") Decimal("10");',
      'TAKE_ALL_FROM_WORKTOP Address("resource_sim1thqu8jcc3zh8ukuh0rwtllr84dgrd3z8j9zjdelkx3zf4kjasgvnm8") Bucket("bucket1");',
      'ASSERT_NEXT_CALL_RETURNS_ONLY Map<Address, Enum>(Address("resource_sim1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxakj8n3") => Enum<2u8>(Decimal("23.32")));',
      'YIELD_TO_PARENT Bucket("bucket1");'
    ])
  })
})

describe("the pre-authorisation the atomic swap sends", () => {
  const account = "account_sim1c9dln9q5pr7f0kt6u7payyeka23jrstgcq6zk6fxsvh9r5zpdpa82s"
  const from = "resource_sim1thqu8jcc3zh8ukuh0rwtllr84dgrd3z8j9zjdelkx3zf4kjasgvnm8"
  const to = "resource_sim1tknxxxxxxxxxradxrdxxxxxxxxx009923554798xxxxxxxxxakj8n3"
  const manifest = `
    # withdraw exactly X, hand it to the parent, insist on at least Y back, deposit it
    CALL_METHOD Address("${account}") "withdraw" Address("${from}") Decimal("100.5");
    TAKE_FROM_WORKTOP Address("${from}") Decimal("100.5") Bucket("sold");
    ASSERT_NEXT_CALL_RETURNS_ONLY Map<Address, Enum>(Address("${to}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("42.000000000000000001")));
    YIELD_TO_PARENT Bucket("sold");
    ASSERT_WORKTOP_CONTAINS Address("${to}") Decimal("42");
    CALL_METHOD Address("${account}") "try_deposit_batch_or_abort" Expression("ENTIRE_WORKTOP") None;
    YIELD_TO_PARENT;
  `

  it("compiles to typed instructions", () => {
    const { instructions, children } = right(compileManifest(manifest, SIM))
    expect(children).toEqual([])
    expect(instructions.map((i) => i.kind)).toEqual([
      "CallMethod",
      "TakeFromWorktop",
      "AssertNextCallReturnsOnly",
      "YieldToParent",
      "AssertWorktopContains",
      "CallMethod",
      "YieldToParent"
    ])
    const assert = instructions[2]
    expect(assert?.kind === "AssertNextCallReturnsOnly" && assert.constraints[0]?.constraint).toEqual({
      type: "AtLeastAmount",
      amount: "42.000000000000000001"
    })
    const deposit = instructions[5]
    expect(deposit?.kind === "CallMethod" && deposit.args).toEqual({
      kind: "Tuple",
      fields: [
        { kind: "Expression", value: "EntireWorktop" },
        { kind: "Enum", discriminator: 0, fields: [] }
      ]
    })
  })

  it("rejects what is outside the subset or malformed, naming the line and column", () => {
    expect(
      compileError(
        `CALL_METHOD Address("${account}") "lock_fee" Decimal("5");\nMINT_FUNGIBLE Address("${from}") Decimal("1");`
      )
    ).toMatchObject({
      line: 2,
      column: 1,
      reason: "instruction MINT_FUNGIBLE is outside the supported subset"
    })
    expect(compileError(`YIELD_TO_PARENT Bucket("nope");`)).toMatchObject({
      line: 1,
      column: 24,
      reason: 'bucket "nope" is not defined'
    })
    expect(
      compileError(
        `TAKE_ALL_FROM_WORKTOP Address("${from}") Bucket("b");\nYIELD_TO_PARENT Bucket("b");\nYIELD_TO_PARENT Bucket("b");`
      )
    ).toMatchObject({ line: 3, reason: 'bucket "b" was already used' })
    expect(compileError(`ASSERT_WORKTOP_CONTAINS Address("${from}") Decimal("1.1234567890123456789");`).reason).toMatch(
      /more than 18 decimal places/
    )
    expect(
      compileError(`ASSERT_WORKTOP_CONTAINS Address("${from.replace("sim", "rdx")}") Decimal("1");`).reason
    ).toMatch(/invalid address/)
    expect(compileError(`ASSERT_WORKTOP_CONTAINS Address("${account}") Decimal("1");`).reason).toBe(
      "expected a resource address"
    )
    expect(compileError(`YIELD_TO_PARENT`)).toMatchObject({
      line: 1,
      column: 16,
      reason: 'unexpected end of the manifest, expected ";"'
    })
    expect(compileError(`YIELD_TO_PARENT Proof("p");`).reason).toMatch(/not a value this compiler supports/)
    expect(compileError(`YIELD_TO_CHILD NamedIntent("x");`).reason).toBe(
      'named intent "x" is not defined by a USE_CHILD'
    )
    expect(compileError(`YIELD_TO_PARENT 300u8;`).reason).toBe("300 is out of range for u8")
    expect(compileError(`YIELD_TO_PARENT ${"Tuple(".repeat(30)}${")".repeat(30)};`).reason).toBe(
      "values nested deeper than 24 levels"
    )
    expect(
      compileError(`ASSERT_WORKTOP_RESOURCES_ONLY Map<Address, Enum>(Address("${to}") => Enum<9u8>());`).reason
    ).toMatch(/unknown enum variant 9/)
    expect(compileError(`YIELD_TO_PARENT @;`)).toMatchObject({
      line: 1,
      column: 17,
      reason: 'unexpected character "@"'
    })
  })
})
