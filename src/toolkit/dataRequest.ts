/**
 * Data requests: the dApp-side description (built with `DataRequestBuilder`), its mapping to the wallet's v2 request
 * items, the cache rule, and the mapping of a wallet response to the stored wallet data and shared data.
 * Subintents (pre-authorisations) are built with `SubintentRequestBuilder`. Everything here is pure.
 */
import type {
  AccountsRequestItem,
  AuthRequestItem,
  Expiration,
  NumberOfValues,
  PersonaDataEntry,
  PersonaDataRequestItem,
  PersonaDataRequestResponseItem,
  ProofOfOwnershipRequestItem,
  RdtState,
  SharedData,
  SignedChallenge,
  SubintentHeader,
  SubintentRequestItem,
  WalletData,
  WalletInteraction,
  WalletRequestItems,
  WalletRequestResponseItems
} from "./schemas"

// ---------------------------------------------------------------------------------------------------------------
// The dApp-side request
// ---------------------------------------------------------------------------------------------------------------

export interface AccountsRequest {
  readonly numberOfAccounts: NumberOfValues
  readonly withProof?: boolean
  readonly reset?: boolean
}
export interface PersonaDataRequest {
  readonly fullName?: boolean
  readonly emailAddresses?: NumberOfValues
  readonly phoneNumbers?: NumberOfValues
  readonly reset?: boolean
}
export interface PersonaRequest {
  readonly withProof?: boolean
}
export interface ProofOfOwnershipRequest {
  readonly accountAddresses?: ReadonlyArray<string>
  readonly identityAddress?: string
}
export interface DataRequest {
  readonly accounts?: AccountsRequest
  readonly personaData?: PersonaDataRequest
  readonly persona?: PersonaRequest
  readonly proofOfOwnership?: ProofOfOwnershipRequest
  /** A one-time request: never resets, never persists. */
  readonly oneTime?: boolean
}

export interface DataRequestPart {
  readonly toObject: () => DataRequest
}

class AccountsBuilder implements DataRequestPart {
  constructor(readonly value: AccountsRequest) {}
  atLeast(quantity: number) {
    return new AccountsBuilder({ ...this.value, numberOfAccounts: { quantifier: "atLeast", quantity } })
  }
  exactly(quantity: number) {
    return new AccountsBuilder({ ...this.value, numberOfAccounts: { quantifier: "exactly", quantity } })
  }
  withProof(withProof = true) {
    return new AccountsBuilder({ ...this.value, withProof })
  }
  reset(reset = true) {
    return new AccountsBuilder({ ...this.value, reset })
  }
  toObject(): DataRequest {
    return { accounts: this.value }
  }
}

class PersonaDataBuilder implements DataRequestPart {
  constructor(readonly value: PersonaDataRequest) {}
  fullName(fullName = true) {
    return new PersonaDataBuilder({ ...this.value, fullName })
  }
  /** `true` asks for exactly 1, `false` for exactly 0, a quantifier for that. */
  emailAddresses(value: boolean | NumberOfValues = true) {
    return new PersonaDataBuilder({ ...this.value, emailAddresses: toQuantifier(value) })
  }
  phoneNumbers(value: boolean | NumberOfValues = true) {
    return new PersonaDataBuilder({ ...this.value, phoneNumbers: toQuantifier(value) })
  }
  reset(reset = true) {
    return new PersonaDataBuilder({ ...this.value, reset })
  }
  toObject(): DataRequest {
    return { personaData: this.value }
  }
}

const toQuantifier = (value: boolean | NumberOfValues): NumberOfValues =>
  typeof value === "boolean" ? { quantifier: "exactly", quantity: value ? 1 : 0 } : value

class PersonaBuilder implements DataRequestPart {
  constructor(readonly value: PersonaRequest) {}
  withProof(withProof = true) {
    return new PersonaBuilder({ ...this.value, withProof })
  }
  toObject(): DataRequest {
    return { persona: this.value }
  }
}

class ProofOfOwnershipBuilder implements DataRequestPart {
  constructor(readonly value: ProofOfOwnershipRequest) {}
  accounts(accountAddresses: ReadonlyArray<string>) {
    return new ProofOfOwnershipBuilder({ ...this.value, accountAddresses })
  }
  identity(identityAddress: string) {
    return new ProofOfOwnershipBuilder({ ...this.value, identityAddress })
  }
  toObject(): DataRequest {
    return { proofOfOwnership: this.value }
  }
}

const merge = (parts: ReadonlyArray<DataRequestPart>): DataRequest =>
  parts.reduce<DataRequest>((acc, part) => ({ ...acc, ...part.toObject() }), {})

/** Immutable builders; each method returns a new builder. */
export const DataRequestBuilder = {
  /** Accounts, at least 1 unless told otherwise. */
  accounts: () => new AccountsBuilder({ numberOfAccounts: { quantifier: "atLeast", quantity: 1 } }),
  personaData: () => new PersonaDataBuilder({}),
  persona: () => new PersonaBuilder({ withProof: false }),
  proofOfOwnership: () => new ProofOfOwnershipBuilder({}),
  /** An ongoing request from parts. */
  request: (...parts: ReadonlyArray<DataRequestPart>): DataRequest => merge(parts),
  /** A one-time request from parts: never resets, never persists. */
  oneTime: (...parts: ReadonlyArray<DataRequestPart>): DataRequest => ({ ...merge(parts), oneTime: true })
} as const

// ---------------------------------------------------------------------------------------------------------------
// Mapping to the wallet's request items
// ---------------------------------------------------------------------------------------------------------------

export interface ToWalletRequestInput {
  readonly dataRequest: DataRequest
  readonly isConnect: boolean
  readonly oneTime: boolean
  readonly challenge: string | undefined
  readonly walletData: WalletData
}

/** Is a challenge needed? (accounts or persona with proof, or a proof of ownership) */
export const isChallengeNeeded = (request: DataRequest): boolean =>
  !!request.accounts?.withProof || !!request.persona?.withProof || request.proofOfOwnership !== undefined

export const CHALLENGE = /^[0-9a-f]{64}$/i

const accountsItem = (challenge: string | undefined, numberOfAccounts: NumberOfValues): AccountsRequestItem =>
  challenge !== undefined ? { challenge, numberOfAccounts } : { numberOfAccounts }

const personaDataItem = (p: PersonaDataRequest): PersonaDataRequestItem => ({
  ...(p.fullName !== undefined ? { isRequestingName: p.fullName } : {}),
  ...(p.phoneNumbers !== undefined ? { numberOfRequestedPhoneNumbers: p.phoneNumbers } : {}),
  ...(p.emailAddresses !== undefined ? { numberOfRequestedEmailAddresses: p.emailAddresses } : {})
})

/**
 * The official toolkit's mapping (wallet-protocol.md §4): authorized when there is a reset, an ongoing item, a
 * persona or a proof of ownership; `reset` always present on authorized requests; keys in its wire order.
 * One-time requests never reset; and unlike the official toolkit, a one-time persona-data request is never also sent
 * as ongoing.
 */
export const toWalletRequest = (input: ToWalletRequestInput): WalletRequestItems => {
  const { dataRequest, challenge } = input
  const oneTime = input.oneTime && !input.isConnect
  const accounts = dataRequest.accounts
    ? {
        numberOfAccounts: dataRequest.accounts.numberOfAccounts,
        reset: !oneTime && !input.isConnect && !!dataRequest.accounts.reset,
        challenge: dataRequest.accounts.withProof ? challenge : undefined
      }
    : undefined
  const personaData = dataRequest.personaData
    ? { ...dataRequest.personaData, reset: !oneTime && !input.isConnect && !!dataRequest.personaData.reset }
    : undefined

  let persona: { identityAddress?: string; challenge?: string } | undefined
  if (!oneTime || dataRequest.proofOfOwnership) {
    if (input.walletData.persona) persona = { identityAddress: input.walletData.persona.identityAddress }
    if (dataRequest.persona?.withProof) persona = { ...persona, ...(challenge !== undefined ? { challenge } : {}) }
    if (Object.keys(dataRequest).filter((k) => k !== "oneTime").length === 0) persona = {}
  }
  const proofOfOwnership: ProofOfOwnershipRequestItem | undefined =
    dataRequest.proofOfOwnership && challenge
      ? {
          challenge,
          ...(dataRequest.proofOfOwnership.accountAddresses
            ? { accountAddresses: dataRequest.proofOfOwnership.accountAddresses }
            : {}),
          ...(dataRequest.proofOfOwnership.identityAddress
            ? { identityAddress: dataRequest.proofOfOwnership.identityAddress }
            : {})
        }
      : undefined

  const authorized =
    !!accounts?.reset ||
    !!personaData?.reset ||
    (accounts !== undefined && !oneTime) ||
    (personaData !== undefined && !oneTime) ||
    persona !== undefined ||
    dataRequest.proofOfOwnership !== undefined

  if (!authorized) {
    return {
      discriminator: "unauthorizedRequest",
      ...(accounts ? { oneTimeAccounts: accountsItem(accounts.challenge, accounts.numberOfAccounts) } : {}),
      ...(personaData ? { oneTimePersonaData: personaDataItem(personaData) } : {})
    }
  }

  const auth: AuthRequestItem = persona?.challenge
    ? { discriminator: "loginWithChallenge", challenge: persona.challenge }
    : persona?.identityAddress
      ? { discriminator: "usePersona", identityAddress: persona.identityAddress }
      : { discriminator: "loginWithoutChallenge" }

  return {
    discriminator: "authorizedRequest",
    auth,
    ...(accounts
      ? oneTime
        ? { oneTimeAccounts: accountsItem(accounts.challenge, accounts.numberOfAccounts) }
        : { ongoingAccounts: accountsItem(accounts.challenge, accounts.numberOfAccounts) }
      : {}),
    ...(personaData
      ? oneTime
        ? { oneTimePersonaData: personaDataItem(personaData) }
        : { ongoingPersonaData: personaDataItem(personaData) }
      : {}),
    reset: { accounts: !!accounts?.reset, personaData: !!personaData?.reset },
    ...(proofOfOwnership ? { proofOfOwnership } : {})
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The cache rule
// ---------------------------------------------------------------------------------------------------------------

export const isDeepEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return Object.is(a, b)
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
  if (ka.length !== kb.length) return false
  return ka.every((k) => isDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/**
 * Stored wallet data answers the request without asking the wallet only for an authorized ongoing-accounts and/or
 * persona-data request with no reset, no one-time items and no challenge, when what it asks for is exactly what was
 * shared (accounts quantifier and quantity; persona data fields).
 */
export const canBeAnsweredFromState = (request: WalletRequestItems, state: RdtState): boolean => {
  if (request.discriminator !== "authorizedRequest") return false
  if (request.reset?.accounts || request.reset?.personaData) return false
  if (request.oneTimeAccounts || request.oneTimePersonaData) return false
  if (
    request.auth.discriminator === "loginWithChallenge" ||
    request.ongoingAccounts?.challenge !== undefined ||
    request.proofOfOwnership !== undefined
  )
    return false
  if (!request.ongoingAccounts && !request.ongoingPersonaData) return false
  const shared = state.sharedData
  const accountsOk =
    !request.ongoingAccounts ||
    (shared.ongoingAccounts?.numberOfAccounts?.quantifier === request.ongoingAccounts.numberOfAccounts.quantifier &&
      shared.ongoingAccounts?.numberOfAccounts?.quantity === request.ongoingAccounts.numberOfAccounts.quantity)
  const personaDataOk =
    !request.ongoingPersonaData ||
    (shared.ongoingPersonaData !== undefined && isDeepEqual(request.ongoingPersonaData, shared.ongoingPersonaData))
  return accountsOk && personaDataOk
}

// ---------------------------------------------------------------------------------------------------------------
// Wallet response → wallet data / shared data
// ---------------------------------------------------------------------------------------------------------------

const personaDataEntries = (p: PersonaDataRequestResponseItem): Array<PersonaDataEntry> => [
  ...(p.name ? [{ entry: "fullName" as const, fields: p.name }] : []),
  ...(p.emailAddresses ? [{ entry: "emailAddresses" as const, fields: p.emailAddresses }] : []),
  ...(p.phoneNumbers ? [{ entry: "phoneNumbers" as const, fields: p.phoneNumbers }] : [])
]

export const toWalletData = (response: WalletRequestResponseItems): WalletData => {
  const proofs: Array<SignedChallenge> = []
  const accountProofs = (
    item:
      | {
          readonly challenge?: string
          readonly proofs?: ReadonlyArray<{ readonly accountAddress: string; readonly proof: SignedChallenge["proof"] }>
        }
      | undefined
  ) => {
    if (item?.challenge && item.proofs?.length) {
      for (const p of item.proofs)
        proofs.push({ type: "account", challenge: item.challenge, proof: p.proof, address: p.accountAddress })
    }
  }
  if (response.discriminator === "unauthorizedRequest") {
    accountProofs(response.oneTimeAccounts)
    return {
      accounts: response.oneTimeAccounts?.accounts ?? [],
      personaData: response.oneTimePersonaData ? personaDataEntries(response.oneTimePersonaData) : [],
      proofs
    }
  }
  const auth = response.auth
  if (auth.discriminator === "loginWithChallenge") {
    proofs.push({
      type: "persona",
      challenge: auth.challenge,
      proof: auth.proof,
      address: auth.persona.identityAddress
    })
  }
  accountProofs(response.ongoingAccounts)
  accountProofs(response.oneTimeAccounts)
  if (response.proofOfOwnership) {
    for (const p of response.proofOfOwnership.proofs) {
      proofs.push(
        "identityAddress" in p
          ? {
              type: "persona",
              challenge: response.proofOfOwnership.challenge,
              proof: p.proof,
              address: p.identityAddress
            }
          : {
              type: "account",
              challenge: response.proofOfOwnership.challenge,
              proof: p.proof,
              address: p.accountAddress
            }
      )
    }
  }
  const personaData = response.ongoingPersonaData ?? response.oneTimePersonaData
  return {
    accounts: [...(response.oneTimeAccounts?.accounts ?? []), ...(response.ongoingAccounts?.accounts ?? [])],
    personaData: personaData ? personaDataEntries(personaData) : [],
    persona: auth.persona,
    proofs
  }
}

/** What an authorized request shared, for the cache rule and `updateSharedAccounts`. */
export const toSharedData = (interaction: WalletInteraction, previous: SharedData): SharedData => {
  const items = interaction.items
  if (items.discriminator !== "authorizedRequest") return previous
  return {
    persona: { proof: items.auth.discriminator === "loginWithChallenge" && !!items.auth.challenge },
    ...(items.ongoingAccounts
      ? {
          ongoingAccounts: {
            numberOfAccounts: items.ongoingAccounts.numberOfAccounts,
            proof: !!items.ongoingAccounts.challenge
          }
        }
      : {}),
    ...(items.ongoingPersonaData ? { ongoingPersonaData: items.ongoingPersonaData } : {})
  }
}

/** The request `updateSharedAccounts` sends: what was shared, with accounts reset. */
export const sharedDataToDataRequest = (shared: SharedData): DataRequest => ({
  ...(shared.ongoingAccounts?.numberOfAccounts
    ? {
        accounts: {
          numberOfAccounts: shared.ongoingAccounts.numberOfAccounts,
          withProof: shared.ongoingAccounts.proof,
          reset: true
        }
      }
    : {}),
  ...(shared.ongoingPersonaData
    ? {
        personaData: {
          ...(shared.ongoingPersonaData.isRequestingName !== undefined
            ? { fullName: shared.ongoingPersonaData.isRequestingName }
            : {}),
          ...(shared.ongoingPersonaData.numberOfRequestedPhoneNumbers
            ? { phoneNumbers: shared.ongoingPersonaData.numberOfRequestedPhoneNumbers }
            : {}),
          ...(shared.ongoingPersonaData.numberOfRequestedEmailAddresses
            ? { emailAddresses: shared.ongoingPersonaData.numberOfRequestedEmailAddresses }
            : {}),
          reset: false
        }
      }
    : {}),
  ...(shared.persona ? { persona: { withProof: false } } : {})
})

// ---------------------------------------------------------------------------------------------------------------
// Subintents
// ---------------------------------------------------------------------------------------------------------------

export interface SubintentRequest {
  readonly item: SubintentRequestItem
  /** Called with the parent transaction intent hash once the subintent is committed. */
  readonly onSubmittedSuccess?: (transactionIntentHash: string) => void
}

class SubintentBuilder {
  constructor(
    readonly state: Omit<SubintentRequestItem, "expiration"> & { readonly expiration?: Expiration },
    readonly callback?: (transactionIntentHash: string) => void
  ) {}
  private with(patch: Partial<SubintentRequestItem>) {
    return new SubintentBuilder({ ...this.state, ...patch }, this.callback)
  }
  header(header: SubintentHeader) {
    return this.with({ header })
  }
  message(message: string) {
    return this.with({ message })
  }
  addBlobs(...blobs: ReadonlyArray<string>) {
    return this.with({ blobs })
  }
  /** "atTime": a Unix timestamp in seconds; "afterDelay": seconds after the wallet signs. */
  setExpiration(kind: "atTime" | "afterDelay", value: number) {
    return this.with({
      expiration:
        kind === "atTime"
          ? { discriminator: "expireAtTime", unixTimestampSeconds: value }
          : { discriminator: "expireAfterDelay", expireAfterSeconds: value }
    })
  }
  onSubmittedSuccess(callback: (transactionIntentHash: string) => void) {
    return new SubintentBuilder(this.state, callback)
  }
  /**
   * The request; fails (throws) if no expiration was set. Its keys are in the order they were first set, as in the
   * official builder's state (so `.setExpiration(…).header(…)` puts the header after the expiration, as theirs does).
   */
  build(): SubintentRequest {
    const { expiration } = this.state
    if (!expiration) throw new Error("a subintent needs an expiration")
    const item: SubintentRequestItem = { ...this.state, expiration }
    return this.callback ? { item, onSubmittedSuccess: this.callback } : { item }
  }
}

export const SubintentRequestBuilder = {
  manifest: (subintentManifest: string) =>
    new SubintentBuilder({ discriminator: "subintent", version: 1, manifestVersion: 2, subintentManifest })
} as const
