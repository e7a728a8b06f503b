/**
 * The wallet emulator's brain, shared by the extension mode (the in-page panel asks over `/devnet/wallet/*`) and the
 * mobile mode (deep links): it reviews a wallet interaction for the user, and answers it as the Radix Wallet would,
 * with the genesis keys that never leave the server.
 *
 * - Accounts: the three genesis user accounts; persona: the genesis persona, with fixed devnet persona data.
 * - Proofs (login with challenge, accounts with challenge, proof of ownership) are ROLA signatures: ed25519 over
 *   blake2b-256('R' ‖ challenge(32 B) ‖ len(dAppDefinitionAddress) ‖ dAppDefinitionAddress ‖ origin).
 * - Transactions are built, signed, notarized and submitted to the ledger; the answer carries the intent hash.
 * - Pre-authorisations (subintents) are compiled with txv2, previewed, and signed into a signed partial
 *   transaction the answer carries (preauth.ts has the header rule); nothing is submitted.
 */
import { Effect, Either } from "effect"
import { concatBytes, fromHex, isHex, toHex, utf8 } from "../../toolkit/bytes"
import { primitives } from "../../toolkit/cryptoPrimitives"
import type {
  Account,
  AccountProof,
  AccountsRequestItem,
  AccountsRequestResponseItem,
  AuthRequestResponseItem,
  NumberOfValues,
  PersonaDataName,
  PersonaDataRequestItem,
  PersonaDataRequestResponseItem,
  Proof,
  ProofOfOwnershipResponseItem,
  WalletInteraction,
  WalletInteractionResponse,
  WalletInteractionResponseItems
} from "../../toolkit/schemas"
import { isAccountAddress } from "../ledger/address"
import type { DevnetKey } from "../ledger/genesis"
import { Ledger } from "../ledger/Ledger"
import type { AccountsAsk, Decision, Review, ReviewKind } from "./api"
import { preparePreAuthorization, signPreAuthorization } from "./preauth"
import { prepareTransaction, type SigningAccount, submitTransaction } from "./transaction"

export { WalletFailure } from "./transaction"

export const DEVNET_NETWORK_ID = 240

export interface WalletAccount extends SigningAccount {
  readonly appearanceId: number
}

export const PERSONA_LABEL = "Devnet Persona"
export const personaName: PersonaDataName = {
  variant: "western",
  familyName: "Devnet",
  nickname: "dev",
  givenNames: "Ada"
}
const emailAddresses = ["ada@devnet.local", "ada.second@devnet.local", "ada.third@devnet.local"]
const phoneNumbers = ["+1 555 0100", "+1 555 0101", "+1 555 0102"]

/** blake2b-256 of the ROLA message the Radix Wallet signs for a challenge. */
export const rolaMessageHash = (input: {
  readonly challenge: string
  readonly dAppDefinitionAddress: string
  readonly origin: string
}): Uint8Array =>
  primitives.blake2b256(
    concatBytes(
      utf8("R"),
      fromHex(input.challenge),
      new Uint8Array([input.dAppDefinitionAddress.length & 0xff]),
      utf8(input.dAppDefinitionAddress),
      utf8(input.origin)
    )
  )

const signChallenge = (key: DevnetKey, challenge: string, dAppDefinitionAddress: string, origin: string): Proof => ({
  publicKey: toHex(key.publicKey),
  signature: toHex(
    primitives.ed25519Sign(key.privateKey, rolaMessageHash({ challenge, dAppDefinitionAddress, origin }))
  ),
  curve: "curve25519"
})

const isChallenge = (challenge: string) => challenge.length === 64 && isHex(challenge)

const failure = (interactionId: string, error: string, message?: string): WalletInteractionResponse => ({
  discriminator: "failure",
  interactionId,
  error,
  ...(message === undefined ? {} : { message })
})

const describeNumber = (n: NumberOfValues) =>
  `${n.quantifier === "exactly" ? "exactly" : "at least"} ${n.quantity} account${n.quantity === 1 ? "" : "s"}`

export const makeWalletEmulator = Effect.gen(function* () {
  const ledger = yield* Ledger
  const genesis = ledger.genesis
  const accounts: ReadonlyArray<WalletAccount> = genesis.users.map((u, i) => ({
    address: u.address,
    label: `Devnet Account ${i + 1}`,
    appearanceId: i,
    key: u.key
  }))
  const persona = { identityAddress: genesis.persona.address, label: PERSONA_LABEL }
  const known = new Map<string, string>([
    [genesis.exchange.address, "hSwap exchange"],
    [genesis.fund.address, "hSwap fund"],
    [genesis.dAppDefinition.address, "hSwap dApp definition"]
  ])
  const labelOf = (address: string) => accounts.find((a) => a.address === address)?.label ?? known.get(address)
  const shared = (a: WalletAccount): Account => ({ address: a.address, label: a.label, appearanceId: a.appearanceId })

  /** The wallet's default pick for a number of accounts; Left when it cannot satisfy it. */
  const suggest = (n: NumberOfValues): Either.Either<ReadonlyArray<WalletAccount>, string> => {
    const count = n.quantifier === "exactly" ? n.quantity : Math.max(n.quantity, 1)
    if (count > accounts.length)
      return Either.left(`The devnet wallet has ${accounts.length} accounts; ${describeNumber(n)} were requested`)
    return Either.right(accounts.slice(0, count))
  }

  /** The user's pick, checked against the request. */
  const pick = (
    n: NumberOfValues,
    chosen: ReadonlyArray<string> | undefined
  ): Either.Either<ReadonlyArray<WalletAccount>, string> => {
    if (chosen === undefined) return suggest(n)
    const picked: Array<WalletAccount> = []
    for (const address of chosen) {
      const account = accounts.find((a) => a.address === address)
      if (account === undefined) return Either.left(`${address} is not an account of the devnet wallet`)
      if (!picked.includes(account)) picked.push(account)
    }
    const ok = n.quantifier === "exactly" ? picked.length === n.quantity : picked.length >= n.quantity
    return ok ? Either.right(picked) : Either.left(`Choose ${describeNumber(n)}`)
  }

  /** Network, dApp definition and origin checks, as the wallet makes them before showing anything. */
  const metadataProblem = (interaction: WalletInteraction) => {
    const { networkId, dAppDefinitionAddress, origin } = interaction.metadata
    if (networkId !== DEVNET_NETWORK_ID)
      return {
        error: "wrongNetwork",
        message: `The devnet wallet is on network ${DEVNET_NETWORK_ID} (localnet); the request is for network ${networkId}`
      }
    if (!isAccountAddress(dAppDefinitionAddress))
      return {
        error: "unknownDappDefinitionAddress",
        message: `${dAppDefinitionAddress} is not a localnet account address`
      }
    try {
      new URL(origin)
    } catch {
      return { error: "invalidOriginURL", message: `The origin ${JSON.stringify(origin)} is not a URL` }
    }
    return undefined
  }

  const personaDataLines = (p: PersonaDataRequestItem | undefined, oneTime: boolean): Array<string> => {
    if (p === undefined) return []
    const parts = [
      ...(p.isRequestingName === true ? ["name"] : []),
      ...(p.numberOfRequestedEmailAddresses
        ? [`${describeNumber(p.numberOfRequestedEmailAddresses).replace("account", "email address")}`]
        : []),
      ...(p.numberOfRequestedPhoneNumbers
        ? [`${describeNumber(p.numberOfRequestedPhoneNumbers).replace("account", "phone number")}`]
        : [])
    ]
    return [`Share persona data${oneTime ? " once" : ""}: ${parts.join(", ") || "nothing"}`]
  }

  /** What the panel shows for a request. */
  const review = Effect.fn("WalletEmulator.review")(function* (interaction: WalletInteraction) {
    const { items, interactionId, metadata } = interaction
    const base = {
      interactionId,
      origin: metadata.origin,
      dAppDefinitionAddress: metadata.dAppDefinitionAddress,
      networkId: metadata.networkId
    }
    const problem = metadataProblem(interaction)
    const lines: Array<string> = []
    const asks: Array<AccountsAsk> = []
    const askFor = (kind: AccountsAsk["kind"], item: AccountsRequestItem | undefined) => {
      if (item === undefined) return
      const suggested = suggest(item.numberOfAccounts)
      asks.push({
        kind,
        numberOfAccounts: item.numberOfAccounts,
        withProof: item.challenge !== undefined,
        suggested: Either.getOrElse(suggested, () => []).map((a) => a.address)
      })
      lines.push(
        `Share ${describeNumber(item.numberOfAccounts)}${kind === "oneTime" ? " once" : ""}${item.challenge !== undefined ? ", with proof of ownership" : ""}`
      )
    }
    const done = (
      kind: ReviewKind,
      title: string,
      extra: Partial<Pick<Review, "transaction" | "preAuthorization">> = {},
      more?: { error: string; message: string }
    ) => {
      const p = problem ?? more
      return {
        ...base,
        kind,
        title,
        lines,
        accounts: asks,
        ...extra,
        ...(p === undefined ? {} : { problem: p })
      } satisfies Review
    }
    switch (items.discriminator) {
      case "unauthorizedRequest":
        askFor("oneTime", items.oneTimeAccounts)
        lines.push(...personaDataLines(items.oneTimePersonaData, true))
        return done("data", "One-time data request")
      case "authorizedRequest": {
        const auth = items.auth
        let kind: ReviewKind = "login"
        let title = "Login request"
        let authProblem: { error: string; message: string } | undefined
        if (auth.discriminator === "usePersona") {
          kind = items.proofOfOwnership !== undefined ? "proofOfOwnership" : "data"
          title = items.proofOfOwnership !== undefined ? "Proof of ownership request" : "Data request"
          lines.push(`Use persona ${persona.label}`)
          if (auth.identityAddress !== persona.identityAddress)
            authProblem = {
              error: "invalidPersona",
              message: `${auth.identityAddress} is not a persona of the devnet wallet`
            }
        } else {
          lines.push(
            `Log in with persona ${persona.label}${auth.discriminator === "loginWithChallenge" ? ", signing the challenge" : ""}`
          )
          if (auth.discriminator === "loginWithChallenge" && !isChallenge(auth.challenge))
            authProblem = { error: "invalidRequest", message: "The login challenge is not 32 bytes of hex" }
        }
        askFor("ongoing", items.ongoingAccounts)
        askFor("oneTime", items.oneTimeAccounts)
        lines.push(
          ...personaDataLines(items.ongoingPersonaData, false),
          ...personaDataLines(items.oneTimePersonaData, true)
        )
        const proof = items.proofOfOwnership
        if (proof !== undefined) {
          const what = [
            ...(proof.identityAddress !== undefined ? ["the persona"] : []),
            ...(proof.accountAddresses ?? []).map((a) => labelOf(a) ?? a)
          ]
          lines.push(`Prove ownership of ${what.join(", ") || "nothing"}`)
          if (proof.identityAddress !== undefined && proof.identityAddress !== persona.identityAddress)
            authProblem ??= {
              error: "invalidPersona",
              message: `${proof.identityAddress} is not a persona of the devnet wallet`
            }
          const foreign = (proof.accountAddresses ?? []).find((a) => !accounts.some((o) => o.address === a))
          if (foreign !== undefined)
            authProblem ??= { error: "invalidRequest", message: `${foreign} is not an account of the devnet wallet` }
          if (!isChallenge(proof.challenge))
            authProblem ??= {
              error: "invalidRequest",
              message: "The proof-of-ownership challenge is not 32 bytes of hex"
            }
        }
        for (const item of [items.ongoingAccounts, items.oneTimeAccounts]) {
          if (item?.challenge !== undefined && !isChallenge(item.challenge))
            authProblem ??= { error: "invalidRequest", message: "The accounts challenge is not 32 bytes of hex" }
          const suggested = item === undefined ? undefined : suggest(item.numberOfAccounts)
          if (suggested !== undefined && Either.isLeft(suggested))
            authProblem ??= { error: "rejectedByUser", message: suggested.left }
        }
        return done(kind, title, {}, authProblem)
      }
      case "transaction": {
        if (problem !== undefined) return done("transaction", "Transaction request")
        const prepared = yield* Effect.either(prepareTransaction(ledger, accounts, labelOf, items.send))
        if (Either.isLeft(prepared)) {
          return done(
            "transaction",
            "Transaction request",
            {},
            { error: prepared.left.error, message: prepared.left.message }
          )
        }
        const t = prepared.right.preview
        lines.push(
          `Sign with ${t.signers.map((s) => labelOf(s) ?? s).join(", ") || "no account of this wallet"}`,
          `Network fee ${t.fee} XRD${t.feePayer !== undefined ? ` from ${labelOf(t.feePayer) ?? t.feePayer}` : ""}`
        )
        return done("transaction", "Transaction request", { transaction: t })
      }
      case "preAuthorizationRequest": {
        const title = "Pre-authorization request"
        if (problem !== undefined) return done("preAuthorization", title)
        if (items.request === undefined)
          return done(
            "preAuthorization",
            title,
            {},
            { error: "invalidRequest", message: "The request carries no subintent" }
          )
        const prepared = yield* Effect.either(preparePreAuthorization(ledger, accounts, labelOf, items.request))
        if (Either.isLeft(prepared))
          return done("preAuthorization", title, {}, { error: prepared.left.error, message: prepared.left.message })
        const p = prepared.right.preview
        lines.push(
          `Sign with ${p.signers.map((s) => labelOf(s) ?? s).join(", ") || "no account (nothing needs this wallet's signature)"}`,
          p.expiry.expiresAt === undefined
            ? `Valid in epochs ${p.expiry.startEpochInclusive} to ${p.expiry.endEpochExclusive - 1}`
            : `Expires at ${new Date(p.expiry.expiresAt * 1000).toISOString()} (epochs ${p.expiry.startEpochInclusive} to ${p.expiry.endEpochExclusive - 1})`
        )
        return done("preAuthorization", title, { preAuthorization: p })
      }
      case "cancelRequest":
        return done("invalid", "Cancel", {}, { error: "invalidRequest", message: "A cancel is not a request" })
    }
  })

  const accountsResponse = (
    item: AccountsRequestItem,
    chosen: ReadonlyArray<string> | undefined,
    interaction: WalletInteraction
  ): Either.Either<AccountsRequestResponseItem, string> =>
    Either.map(pick(item.numberOfAccounts, chosen), (picked) => {
      const { dAppDefinitionAddress, origin } = interaction.metadata
      const challenge = item.challenge
      if (challenge === undefined || picked.length === 0) return { accounts: picked.map(shared) }
      const proofs: Array<AccountProof> = picked.map((a) => ({
        accountAddress: a.address,
        proof: signChallenge(a.key, challenge, dAppDefinitionAddress, origin)
      }))
      return { accounts: picked.map(shared), challenge, proofs }
    })

  const personaDataResponse = (p: PersonaDataRequestItem): PersonaDataRequestResponseItem => {
    const count = (n: NumberOfValues | undefined) =>
      n === undefined ? 0 : n.quantifier === "exactly" ? n.quantity : Math.max(n.quantity, 1)
    return {
      ...(p.isRequestingName === true ? { name: personaName } : {}),
      ...(p.numberOfRequestedEmailAddresses
        ? { emailAddresses: emailAddresses.slice(0, count(p.numberOfRequestedEmailAddresses)) }
        : {}),
      ...(p.numberOfRequestedPhoneNumbers
        ? { phoneNumbers: phoneNumbers.slice(0, count(p.numberOfRequestedPhoneNumbers)) }
        : {})
    }
  }

  /** The wallet's answer to a request, given the user's decision. Never fails: problems are failure responses. */
  const answer = Effect.fn("WalletEmulator.answer")(function* (interaction: WalletInteraction, decision: Decision) {
    const { interactionId, items, metadata } = interaction
    if (!decision.approve) return failure(interactionId, "rejectedByUser")
    const { dAppDefinitionAddress, origin } = metadata
    if (items.discriminator === "transaction") {
      const problem = metadataProblem(interaction)
      if (problem !== undefined) return failure(interactionId, problem.error, problem.message)
      const hash = yield* Effect.either(
        prepareTransaction(ledger, accounts, labelOf, items.send).pipe(
          Effect.flatMap((p) => submitTransaction(ledger, p))
        )
      )
      if (Either.isLeft(hash)) return failure(interactionId, hash.left.error, hash.left.message)
      return {
        discriminator: "success",
        interactionId,
        items: { discriminator: "transaction", send: { transactionIntentHash: hash.right } }
      } satisfies WalletInteractionResponse
    }
    if (items.discriminator === "preAuthorizationRequest") {
      const problem = metadataProblem(interaction)
      if (problem !== undefined) return failure(interactionId, problem.error, problem.message)
      const item = items.request
      if (item === undefined) return failure(interactionId, "invalidRequest", "The request carries no subintent")
      // Prepared again at approval: the header's times count from the moment the user approves.
      const signed = yield* Effect.either(
        preparePreAuthorization(ledger, accounts, labelOf, item).pipe(
          Effect.flatMap((p) => signPreAuthorization(p, item))
        )
      )
      if (Either.isLeft(signed)) return failure(interactionId, signed.left.error, signed.left.message)
      return {
        discriminator: "success",
        interactionId,
        items: { discriminator: "preAuthorizationResponse", response: signed.right }
      } satisfies WalletInteractionResponse
    }
    const reviewed = yield* review(interaction)
    if (reviewed.problem !== undefined) return failure(interactionId, reviewed.problem.error, reviewed.problem.message)
    const chosen = decision.accounts
    const accountsOf = (item: AccountsRequestItem | undefined) =>
      item === undefined ? Either.right(undefined) : accountsResponse(item, chosen, interaction)
    let responseItems: WalletInteractionResponseItems
    if (items.discriminator === "unauthorizedRequest") {
      const oneTime = accountsOf(items.oneTimeAccounts)
      if (Either.isLeft(oneTime)) return failure(interactionId, "rejectedByUser", oneTime.left)
      responseItems = {
        discriminator: "unauthorizedRequest",
        ...(oneTime.right === undefined ? {} : { oneTimeAccounts: oneTime.right }),
        ...(items.oneTimePersonaData === undefined
          ? {}
          : { oneTimePersonaData: personaDataResponse(items.oneTimePersonaData) })
      }
    } else if (items.discriminator === "authorizedRequest") {
      const auth: AuthRequestResponseItem =
        items.auth.discriminator === "loginWithChallenge"
          ? {
              discriminator: "loginWithChallenge",
              persona,
              challenge: items.auth.challenge,
              proof: signChallenge(genesis.persona.key, items.auth.challenge, dAppDefinitionAddress, origin)
            }
          : { discriminator: items.auth.discriminator, persona }
      const ongoing = accountsOf(items.ongoingAccounts)
      if (Either.isLeft(ongoing)) return failure(interactionId, "rejectedByUser", ongoing.left)
      const oneTime = accountsOf(items.oneTimeAccounts)
      if (Either.isLeft(oneTime)) return failure(interactionId, "rejectedByUser", oneTime.left)
      const ownership = items.proofOfOwnership
      let proofOfOwnership: ProofOfOwnershipResponseItem | undefined
      if (ownership !== undefined) {
        const sign = (key: DevnetKey) => signChallenge(key, ownership.challenge, dAppDefinitionAddress, origin)
        proofOfOwnership = {
          challenge: ownership.challenge,
          proofs: [
            ...(ownership.identityAddress !== undefined
              ? [{ identityAddress: persona.identityAddress, proof: sign(genesis.persona.key) }]
              : []),
            ...(ownership.accountAddresses ?? []).flatMap((address) => {
              const account = accounts.find((a) => a.address === address)
              return account === undefined ? [] : [{ accountAddress: address, proof: sign(account.key) }]
            })
          ]
        }
      }
      responseItems = {
        discriminator: "authorizedRequest",
        auth,
        ...(proofOfOwnership === undefined ? {} : { proofOfOwnership }),
        ...(oneTime.right === undefined ? {} : { oneTimeAccounts: oneTime.right }),
        ...(ongoing.right === undefined ? {} : { ongoingAccounts: ongoing.right }),
        ...(items.oneTimePersonaData === undefined
          ? {}
          : { oneTimePersonaData: personaDataResponse(items.oneTimePersonaData) }),
        ...(items.ongoingPersonaData === undefined
          ? {}
          : { ongoingPersonaData: personaDataResponse(items.ongoingPersonaData) })
      }
    } else {
      return failure(interactionId, "invalidRequest", "The devnet wallet cannot answer this request")
    }
    return { discriminator: "success", interactionId, items: responseItems } satisfies WalletInteractionResponse
  })

  return {
    accounts,
    persona,
    info: { networkId: DEVNET_NETWORK_ID, accounts: accounts.map(shared), persona },
    labelOf,
    review,
    answer
  } as const
})

export type WalletEmulatorApi = Effect.Effect.Success<typeof makeWalletEmulator>
