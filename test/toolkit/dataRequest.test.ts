import { describe, expect, it } from "@effect/vitest"
import {
  canBeAnsweredFromState,
  DataRequestBuilder,
  sharedDataToDataRequest,
  SubintentRequestBuilder,
  toSharedData,
  toWalletData,
  toWalletRequest
} from "../../src/toolkit/dataRequest.js"
import { defaultRdtState, emptyWalletData } from "../../src/toolkit/config.js"
import type { RdtState, WalletData } from "../../src/toolkit/schemas.js"

const challenge = "7807c2904fd1867738639c8e402fe55320da2c6275189ef0513de36dda20f7ee"
const loggedIn: WalletData = { ...emptyWalletData, persona: { identityAddress: "identity_x", label: "P" } }
const connectRequest = DataRequestBuilder.request(DataRequestBuilder.accounts())

describe("toWalletRequest", () => {
  it("connect: the observed login request, byte for byte", () => {
    const items = toWalletRequest({
      dataRequest: connectRequest,
      isConnect: true,
      oneTime: false,
      challenge: undefined,
      walletData: emptyWalletData
    })
    expect(JSON.stringify(items)).toBe(
      '{"discriminator":"authorizedRequest","auth":{"discriminator":"loginWithoutChallenge"},"ongoingAccounts":{"numberOfAccounts":{"quantifier":"atLeast","quantity":1}},"reset":{"accounts":false,"personaData":false}}'
    )
  })

  it("logged in: usePersona", () => {
    const items = toWalletRequest({
      dataRequest: connectRequest,
      isConnect: false,
      oneTime: false,
      challenge: undefined,
      walletData: loggedIn
    })
    expect(items).toMatchObject({ auth: { discriminator: "usePersona", identityAddress: "identity_x" } })
  })

  it("with proofs: loginWithChallenge and the accounts challenge", () => {
    const dataRequest = DataRequestBuilder.request(
      DataRequestBuilder.accounts().withProof(),
      DataRequestBuilder.persona().withProof()
    )
    const items = toWalletRequest({ dataRequest, isConnect: false, oneTime: false, challenge, walletData: loggedIn })
    expect(JSON.stringify(items)).toBe(
      `{"discriminator":"authorizedRequest","auth":{"discriminator":"loginWithChallenge","challenge":"${challenge}"},"ongoingAccounts":{"challenge":"${challenge}","numberOfAccounts":{"quantifier":"atLeast","quantity":1}},"reset":{"accounts":false,"personaData":false}}`
    )
  })

  it("one-time: the observed unauthorized request; never resets", () => {
    const dataRequest = DataRequestBuilder.oneTime(
      DataRequestBuilder.accounts().exactly(1).reset(),
      DataRequestBuilder.personaData().fullName()
    )
    const items = toWalletRequest({
      dataRequest,
      isConnect: false,
      oneTime: true,
      challenge: undefined,
      walletData: loggedIn
    })
    expect(JSON.stringify(items)).toBe(
      '{"discriminator":"unauthorizedRequest","oneTimeAccounts":{"numberOfAccounts":{"quantifier":"exactly","quantity":1}},"oneTimePersonaData":{"isRequestingName":true}}'
    )
  })

  it("reset and persona data: authorized with reset true; emailAddresses() is exactly 1", () => {
    const dataRequest = DataRequestBuilder.request(
      DataRequestBuilder.accounts().atLeast(2).reset(),
      DataRequestBuilder.personaData().fullName().emailAddresses().phoneNumbers(false)
    )
    const items = toWalletRequest({
      dataRequest,
      isConnect: false,
      oneTime: false,
      challenge: undefined,
      walletData: loggedIn
    })
    expect(items).toEqual({
      discriminator: "authorizedRequest",
      auth: { discriminator: "usePersona", identityAddress: "identity_x" },
      ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 2 } },
      ongoingPersonaData: {
        isRequestingName: true,
        numberOfRequestedPhoneNumbers: { quantifier: "exactly", quantity: 0 },
        numberOfRequestedEmailAddresses: { quantifier: "exactly", quantity: 1 }
      },
      reset: { accounts: true, personaData: false }
    })
  })

  it("proof of ownership: authorized, with the challenge and addresses", () => {
    const dataRequest = DataRequestBuilder.oneTime(
      DataRequestBuilder.proofOfOwnership().accounts(["account_a"]).identity("identity_x")
    )
    const items = toWalletRequest({ dataRequest, isConnect: false, oneTime: true, challenge, walletData: loggedIn })
    expect(items).toMatchObject({
      discriminator: "authorizedRequest",
      proofOfOwnership: { challenge, accountAddresses: ["account_a"], identityAddress: "identity_x" },
      reset: { accounts: false, personaData: false }
    })
  })
})

describe("the cache rule", () => {
  const shared: RdtState = {
    ...defaultRdtState,
    walletData: loggedIn,
    sharedData: {
      persona: { proof: false },
      ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 }, proof: false }
    }
  }
  const request = (dataRequest = connectRequest, c?: string) =>
    toWalletRequest({ dataRequest, isConnect: false, oneTime: false, challenge: c, walletData: loggedIn })

  it("answers an ongoing-accounts request with the same quantity from state", () => {
    expect(canBeAnsweredFromState(request(), shared)).toBe(true)
  })
  it("not when the quantity differs, on reset, one-time, or with a challenge", () => {
    expect(
      canBeAnsweredFromState(request(DataRequestBuilder.request(DataRequestBuilder.accounts().atLeast(2))), shared)
    ).toBe(false)
    expect(
      canBeAnsweredFromState(request(DataRequestBuilder.request(DataRequestBuilder.accounts().reset())), shared)
    ).toBe(false)
    expect(
      canBeAnsweredFromState(
        toWalletRequest({
          dataRequest: DataRequestBuilder.oneTime(DataRequestBuilder.accounts()),
          isConnect: false,
          oneTime: true,
          challenge: undefined,
          walletData: loggedIn
        }),
        shared
      )
    ).toBe(false)
    expect(
      canBeAnsweredFromState(
        request(DataRequestBuilder.request(DataRequestBuilder.accounts().withProof()), challenge),
        shared
      )
    ).toBe(false)
    expect(canBeAnsweredFromState(request(), defaultRdtState)).toBe(false)
  })
  it("persona data must equal what was shared", () => {
    const withName = DataRequestBuilder.request(
      DataRequestBuilder.accounts(),
      DataRequestBuilder.personaData().fullName()
    )
    expect(canBeAnsweredFromState(request(withName), shared)).toBe(false)
    const sharedName: RdtState = {
      ...shared,
      sharedData: { ...shared.sharedData, ongoingPersonaData: { isRequestingName: true } }
    }
    expect(canBeAnsweredFromState(request(withName), sharedName)).toBe(true)
  })
})

describe("response mapping", () => {
  it("wallet data from an authorized response with proofs and persona data", () => {
    const proof = { publicKey: "pk", signature: "sig", curve: "curve25519" as const }
    const data = toWalletData({
      discriminator: "authorizedRequest",
      auth: {
        discriminator: "loginWithChallenge",
        persona: { identityAddress: "identity_x", label: "P" },
        challenge,
        proof
      },
      ongoingAccounts: {
        accounts: [{ address: "account_a", label: "A", appearanceId: 0 }],
        challenge,
        proofs: [{ accountAddress: "account_a", proof }]
      },
      ongoingPersonaData: {
        name: { variant: "western", familyName: "F", givenNames: "G", nickname: "" },
        emailAddresses: ["a@b.c"]
      }
    })
    expect(data.accounts.map((a) => a.address)).toEqual(["account_a"])
    expect(data.persona?.label).toBe("P")
    expect(data.personaData.map((e) => e.entry)).toEqual(["fullName", "emailAddresses"])
    expect(data.proofs.map((p) => [p.type, p.address])).toEqual([
      ["persona", "identity_x"],
      ["account", "account_a"]
    ])
  })

  it("shared data round-trips into the updateSharedAccounts request (accounts reset)", () => {
    const interaction = {
      interactionId: "i",
      metadata: { version: 2 as const, dAppDefinitionAddress: "a", networkId: 2, origin: "o" },
      items: toWalletRequest({
        dataRequest: connectRequest,
        isConnect: true,
        oneTime: false,
        challenge: undefined,
        walletData: emptyWalletData
      })
    }
    const shared = toSharedData(interaction, {})
    expect(shared).toEqual({
      persona: { proof: false },
      ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 }, proof: false }
    })
    expect(sharedDataToDataRequest(shared)).toEqual({
      accounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 }, withProof: false, reset: true },
      persona: { withProof: false }
    })
  })
})

describe("SubintentRequestBuilder", () => {
  it("builds a subintent with expiration, header, message and blobs", () => {
    const header = { startEpochInclusive: 1, endEpochExclusive: 10, intentDiscriminator: 7 }
    const request = SubintentRequestBuilder.manifest("M")
      .header(header)
      .message("hi")
      .addBlobs("ab")
      .setExpiration("afterDelay", 3600)
      .build()
    expect(request.item).toEqual({
      discriminator: "subintent",
      version: 1,
      manifestVersion: 2,
      subintentManifest: "M",
      blobs: ["ab"],
      message: "hi",
      expiration: { discriminator: "expireAfterDelay", expireAfterSeconds: 3600 },
      header
    })
    expect(() => SubintentRequestBuilder.manifest("M").build()).toThrow()
  })
})
