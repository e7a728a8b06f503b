import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import {
  IncomingExtensionMessage,
  Metadata,
  NumberOfValues,
  RequestItem,
  WalletInteraction,
  WalletInteractionResponse,
  validate
} from "../../src/toolkit/schemas.js"

const issuesOf = <A, I>(schema: Schema.Schema<A, I>, input: unknown) => {
  const result = validate(schema)(input)
  return Either.isLeft(result) ? result.left.map((i) => i.message) : []
}

const loginResponse = {
  discriminator: "success",
  interactionId: "b25c8587-d08a-48bf-beb6-a80ae98c5106",
  items: {
    discriminator: "authorizedRequest",
    auth: { discriminator: "loginWithoutChallenge", persona: { identityAddress: "identity_x", label: "P" } },
    ongoingAccounts: { accounts: [{ address: "account_x", label: "A", appearanceId: 0 }] }
  }
}

describe("validation messages", () => {
  it("version must be 2: 'Invalid type: Expected 2 but received 1'", () => {
    expect(issuesOf(Metadata, { version: 1, dAppDefinitionAddress: "a", networkId: 2, origin: "o" })).toEqual([
      "Invalid type: Expected 2 but received 1"
    ])
  })

  it("a quantity below 0: 'The number must be at least 0.'", () => {
    expect(issuesOf(NumberOfValues, { quantifier: "atLeast", quantity: -1 })).toEqual([
      "The number must be at least 0."
    ])
    expect(issuesOf(NumberOfValues, { quantifier: "atLeast", quantity: 0 })).toEqual([])
  })

  it("NaN is not a number", () => {
    expect(issuesOf(NumberOfValues, { quantifier: "atLeast", quantity: Number.NaN })).toEqual([
      "Invalid type: Expected number but received NaN"
    ])
  })

  it("wrong and missing types", () => {
    expect(issuesOf(NumberOfValues, { quantifier: "exactly", quantity: "1" })).toEqual([
      'Invalid type: Expected number but received "1"'
    ])
    expect(issuesOf(NumberOfValues, { quantifier: "exactly" })).toEqual([
      "Invalid type: Expected number but received undefined"
    ])
    expect(issuesOf(NumberOfValues, { quantifier: "some", quantity: 1 })).toEqual([
      'Invalid type: Expected "exactly" | "atLeast" but received "some"'
    ])
    expect(issuesOf(NumberOfValues, null)).toEqual(["Invalid type: Expected Object but received null"])
  })

  it("accounts with a challenge but no proofs: 'missing challenge or proof'", () => {
    const bad = {
      ...loginResponse,
      items: { ...loginResponse.items, ongoingAccounts: { accounts: [], challenge: "ab".repeat(32) } }
    }
    expect(issuesOf(WalletInteractionResponse, bad)).toContain("missing challenge or proof")
    const emptyProofs = {
      ...bad,
      items: { ...bad.items, ongoingAccounts: { accounts: [], challenge: "ab", proofs: [] } }
    }
    expect(issuesOf(WalletInteractionResponse, emptyProofs)).toContain("missing challenge or proof")
  })
})

describe("decoding", () => {
  it("accepts null for optional fields and ignores unknown keys", () => {
    const decoded = Schema.decodeUnknownSync(WalletInteractionResponse)({
      ...loginResponse,
      extra: 1,
      items: { ...loginResponse.items, oneTimeAccounts: null, proofOfOwnership: null }
    })
    expect(decoded).toEqual(loginResponse)
    expect("extra" in decoded).toBe(false)
  })

  it("a failure response keeps its error and message", () => {
    const r = Schema.decodeUnknownSync(WalletInteractionResponse)({
      discriminator: "failure",
      interactionId: "x",
      error: "rejectedByUser",
      message: null
    })
    expect(r).toEqual({ discriminator: "failure", interactionId: "x", error: "rejectedByUser" })
  })

  it("metadata encodes in the order version, dAppDefinitionAddress, networkId, origin", () => {
    const m = Schema.encodeSync(Metadata)({ origin: "o", networkId: 2, dAppDefinitionAddress: "a", version: 2 })
    expect(Object.keys(m)).toEqual(["version", "dAppDefinitionAddress", "networkId", "origin"])
  })

  it("a wallet interaction serialises as items, interactionId, metadata", () => {
    const wi = Schema.decodeUnknownSync(WalletInteraction)({
      metadata: { origin: "o", networkId: 2, dAppDefinitionAddress: "a", version: 2 },
      interactionId: "i",
      items: { discriminator: "transaction", send: { version: 1, transactionManifest: "M" } }
    })
    expect(JSON.stringify(wi)).toBe(
      '{"items":{"discriminator":"transaction","send":{"transactionManifest":"M","version":1}},"interactionId":"i","metadata":{"version":2,"dAppDefinitionAddress":"a","networkId":2,"origin":"o"}}'
    )
  })

  it("incoming extension messages: status without interactionId, lifecycle events, responses", () => {
    const decode = Schema.decodeUnknownSync(IncomingExtensionMessage)
    expect(
      decode({
        eventType: "extensionStatus",
        isExtensionAvailable: true,
        isWalletLinked: false,
        canHandleSessions: true
      })
    ).toMatchObject({ eventType: "extensionStatus" })
    expect(decode({ eventType: "receivedByWallet", interactionId: "i" })).toMatchObject({
      eventType: "receivedByWallet"
    })
    expect(decode(loginResponse)).toMatchObject({ discriminator: "success" })
    expect(() => decode({ eventType: "nope", interactionId: "i" })).toThrow()
  })

  it("a stored request item round-trips as JSON", () => {
    const item = {
      type: "sendTransaction",
      status: "pending",
      interactionId: "i",
      createdAt: 1,
      showCancel: true,
      isOneTimeRequest: false,
      metadata: { transactionStatus: "Pending" }
    } as const
    const json = JSON.stringify(Schema.encodeSync(RequestItem)(item))
    expect(Schema.decodeUnknownSync(RequestItem)(JSON.parse(json))).toEqual(item)
  })
})
