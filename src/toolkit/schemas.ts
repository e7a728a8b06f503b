/**
 * Wallet-interaction Schemas, metadata version 2 (wallet-protocol.md §3), the Connector-extension messages and
 * lifecycle events (§1), and the shapes the toolkit stores (§4, §5).
 *
 * Decoders accept absent or `null` for optional fields and ignore unknown keys. Field order in every Struct is the
 * wire order the official toolkit emits, so an encoded value serialises byte for byte like the official one.
 */
import { Either, ParseResult, Schema, SchemaAST } from "effect"

/** An optional field: absent or null on the way in, absent on the way out. */
const opt = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true, nullable: true })

/** A number that is not NaN. */
export const Num = Schema.Number.pipe(
  Schema.filter((n) => !Number.isNaN(n), { message: () => "Invalid type: Expected number but received NaN" })
)

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------------------------

export const Account = Schema.Struct({ address: Schema.String, label: Schema.String, appearanceId: Num })
export type Account = typeof Account.Type

export const Curve = Schema.Literal("curve25519", "secp256k1")
export const Proof = Schema.Struct({ publicKey: Schema.String, signature: Schema.String, curve: Curve })
export type Proof = typeof Proof.Type

export const AccountProof = Schema.Struct({ accountAddress: Schema.String, proof: Proof })
export const PersonaProof = Schema.Struct({ identityAddress: Schema.String, proof: Proof })
export type AccountProof = typeof AccountProof.Type
export type PersonaProof = typeof PersonaProof.Type

export const Persona = Schema.Struct({ identityAddress: Schema.String, label: Schema.String })
export type Persona = typeof Persona.Type

export const PersonaDataName = Schema.Struct({
  variant: Schema.Literal("eastern", "western"),
  familyName: Schema.String,
  nickname: Schema.String,
  givenNames: Schema.String
})
export type PersonaDataName = typeof PersonaDataName.Type

export const Quantity = Num.pipe(Schema.filter((n) => n >= 0, { message: () => "The number must be at least 0." }))

export const NumberOfValues = Schema.Struct({
  quantifier: Schema.Literal("exactly", "atLeast"),
  quantity: Quantity
})
export type NumberOfValues = typeof NumberOfValues.Type

export const Metadata = Schema.Struct({
  version: Schema.Literal(2),
  dAppDefinitionAddress: Schema.String,
  networkId: Num,
  origin: Schema.String
})
export type Metadata = typeof Metadata.Type

// ---------------------------------------------------------------------------------------------------------------
// Request items
// ---------------------------------------------------------------------------------------------------------------

export const AccountsRequestItem = Schema.Struct({ challenge: opt(Schema.String), numberOfAccounts: NumberOfValues })
export type AccountsRequestItem = typeof AccountsRequestItem.Type

export const PersonaDataRequestItem = Schema.Struct({
  isRequestingName: opt(Schema.Boolean),
  numberOfRequestedPhoneNumbers: opt(NumberOfValues),
  numberOfRequestedEmailAddresses: opt(NumberOfValues)
})
export type PersonaDataRequestItem = typeof PersonaDataRequestItem.Type

export const ResetRequestItem = Schema.Struct({ accounts: Schema.Boolean, personaData: Schema.Boolean })
export type ResetRequestItem = typeof ResetRequestItem.Type

export const ProofOfOwnershipRequestItem = Schema.Struct({
  challenge: Schema.String,
  accountAddresses: opt(Schema.Array(Schema.String)),
  identityAddress: opt(Schema.String)
})
export type ProofOfOwnershipRequestItem = typeof ProofOfOwnershipRequestItem.Type

export const AuthUsePersonaRequestItem = Schema.Struct({
  discriminator: Schema.Literal("usePersona"),
  identityAddress: Schema.String
})
export const AuthLoginWithoutChallengeRequestItem = Schema.Struct({
  discriminator: Schema.Literal("loginWithoutChallenge")
})
export const AuthLoginWithChallengeRequestItem = Schema.Struct({
  discriminator: Schema.Literal("loginWithChallenge"),
  challenge: Schema.String
})
export const AuthRequestItem = Schema.Union(
  AuthUsePersonaRequestItem,
  AuthLoginWithoutChallengeRequestItem,
  AuthLoginWithChallengeRequestItem
)
export type AuthRequestItem = typeof AuthRequestItem.Type

export const WalletUnauthorizedRequestItems = Schema.Struct({
  discriminator: Schema.Literal("unauthorizedRequest"),
  oneTimeAccounts: opt(AccountsRequestItem),
  oneTimePersonaData: opt(PersonaDataRequestItem)
})
export type WalletUnauthorizedRequestItems = typeof WalletUnauthorizedRequestItems.Type

export const WalletAuthorizedRequestItems = Schema.Struct({
  discriminator: Schema.Literal("authorizedRequest"),
  auth: AuthRequestItem,
  oneTimeAccounts: opt(AccountsRequestItem),
  ongoingAccounts: opt(AccountsRequestItem),
  oneTimePersonaData: opt(PersonaDataRequestItem),
  ongoingPersonaData: opt(PersonaDataRequestItem),
  reset: opt(ResetRequestItem),
  proofOfOwnership: opt(ProofOfOwnershipRequestItem)
})
export type WalletAuthorizedRequestItems = typeof WalletAuthorizedRequestItems.Type

export const WalletRequestItems = Schema.Union(WalletUnauthorizedRequestItems, WalletAuthorizedRequestItems)
export type WalletRequestItems = typeof WalletRequestItems.Type

/** Keys in the official toolkit's order: blobs, transactionManifest, message, version. */
export const SendTransactionItem = Schema.Struct({
  blobs: opt(Schema.Array(Schema.String)),
  transactionManifest: Schema.String,
  message: opt(Schema.String),
  version: Num
})
export type SendTransactionItem = typeof SendTransactionItem.Type

export const WalletTransactionItems = Schema.Struct({
  discriminator: Schema.Literal("transaction"),
  send: SendTransactionItem
})

export const CancelRequest = Schema.Struct({ discriminator: Schema.Literal("cancelRequest") })

export const ExpireAtTime = Schema.Struct({ discriminator: Schema.Literal("expireAtTime"), unixTimestampSeconds: Num })
export const ExpireAfterDelay = Schema.Struct({
  discriminator: Schema.Literal("expireAfterDelay"),
  expireAfterSeconds: Num
})
export const Expiration = Schema.Union(ExpireAtTime, ExpireAfterDelay)
export type Expiration = typeof Expiration.Type

/**
 * The optional subintent header of the official toolkit 2.3.0. On the wire its keys are in the caller's order, with
 * `networkId` set to the dApp's network id in place (appended when the caller left it out), as the official does;
 * this field order is what a decode produces: the README's order, `networkId` last.
 */
export const SubintentHeader = Schema.Struct({
  startEpochInclusive: Num,
  endEpochExclusive: Num,
  minProposerTimestampInclusive: opt(Num),
  maxProposerTimestampExclusive: opt(Num),
  intentDiscriminator: Num,
  networkId: opt(Num)
})
export type SubintentHeader = typeof SubintentHeader.Type

/**
 * On the wire the keys are in the order the builder's calls first set them (discriminator, version, manifestVersion,
 * subintentManifest, then `header()`, `setExpiration()`, `addBlobs()`, `message()` as called), as the official
 * builder's state; this field order is what a decode produces: the usual `manifest().header().setExpiration()` order.
 */
export const SubintentRequestItem = Schema.Struct({
  discriminator: Schema.Literal("subintent"),
  version: Num,
  manifestVersion: Num,
  subintentManifest: Schema.String,
  header: opt(SubintentHeader),
  expiration: Expiration,
  blobs: opt(Schema.Array(Schema.String)),
  message: opt(Schema.String)
})
export type SubintentRequestItem = typeof SubintentRequestItem.Type

export const WalletPreAuthorizationItems = Schema.Struct({
  discriminator: Schema.Literal("preAuthorizationRequest"),
  request: opt(SubintentRequestItem)
})

export const WalletInteractionItems = Schema.Union(
  WalletUnauthorizedRequestItems,
  WalletAuthorizedRequestItems,
  WalletTransactionItems,
  CancelRequest,
  WalletPreAuthorizationItems
)
export type WalletInteractionItems = typeof WalletInteractionItems.Type

/** Keys in the order items, interactionId, metadata, as the official toolkit serialises them. */
export const WalletInteraction = Schema.Struct({
  items: WalletInteractionItems,
  interactionId: Schema.String,
  metadata: Metadata
})
export type WalletInteraction = typeof WalletInteraction.Type

// ---------------------------------------------------------------------------------------------------------------
// Response items
// ---------------------------------------------------------------------------------------------------------------

const challengeAndProofTogether = <T extends { readonly challenge?: string; readonly proofs?: ReadonlyArray<unknown> }>(
  data: T
) =>
  data.challenge !== undefined || data.proofs !== undefined ? !!data.challenge && (data.proofs?.length ?? 0) > 0 : true

export const AccountsRequestResponseItem = Schema.Struct({
  accounts: Schema.Array(Account),
  challenge: opt(Schema.String),
  proofs: opt(Schema.Array(AccountProof))
}).pipe(Schema.filter(challengeAndProofTogether, { message: () => "missing challenge or proof" }))
export type AccountsRequestResponseItem = typeof AccountsRequestResponseItem.Type

export const PersonaDataRequestResponseItem = Schema.Struct({
  name: opt(PersonaDataName),
  emailAddresses: opt(Schema.Array(Schema.String)),
  phoneNumbers: opt(Schema.Array(Schema.String))
})
export type PersonaDataRequestResponseItem = typeof PersonaDataRequestResponseItem.Type

/** A persona with an optional proof: challenge and proof come together or not at all. */
export const LoginRequestResponseItem = Schema.Struct({
  persona: Persona,
  challenge: opt(Schema.String),
  proof: opt(Proof)
}).pipe(
  Schema.filter((d) => (d.challenge !== undefined || d.proof !== undefined ? !!d.challenge && !!d.proof : true), {
    message: () => "missing challenge or proof"
  })
)

export const ProofOfOwnershipResponseItem = Schema.Struct({
  challenge: Schema.String,
  proofs: Schema.Array(Schema.Union(AccountProof, PersonaProof))
})
export type ProofOfOwnershipResponseItem = typeof ProofOfOwnershipResponseItem.Type

export const AuthUsePersonaRequestResponseItem = Schema.Struct({
  discriminator: Schema.Literal("usePersona"),
  persona: Persona
})
export const AuthLoginWithoutChallengeRequestResponseItem = Schema.Struct({
  discriminator: Schema.Literal("loginWithoutChallenge"),
  persona: Persona
})
export const AuthLoginWithChallengeRequestResponseItem = Schema.Struct({
  discriminator: Schema.Literal("loginWithChallenge"),
  persona: Persona,
  challenge: Schema.String,
  proof: Proof
})
export const AuthRequestResponseItem = Schema.Union(
  AuthUsePersonaRequestResponseItem,
  AuthLoginWithoutChallengeRequestResponseItem,
  AuthLoginWithChallengeRequestResponseItem
)
export type AuthRequestResponseItem = typeof AuthRequestResponseItem.Type

export const WalletUnauthorizedRequestResponseItems = Schema.Struct({
  discriminator: Schema.Literal("unauthorizedRequest"),
  oneTimeAccounts: opt(AccountsRequestResponseItem),
  oneTimePersonaData: opt(PersonaDataRequestResponseItem)
})

export const WalletAuthorizedRequestResponseItems = Schema.Struct({
  discriminator: Schema.Literal("authorizedRequest"),
  auth: AuthRequestResponseItem,
  proofOfOwnership: opt(ProofOfOwnershipResponseItem),
  oneTimeAccounts: opt(AccountsRequestResponseItem),
  ongoingAccounts: opt(AccountsRequestResponseItem),
  oneTimePersonaData: opt(PersonaDataRequestResponseItem),
  ongoingPersonaData: opt(PersonaDataRequestResponseItem)
})

export const WalletRequestResponseItems = Schema.Union(
  WalletUnauthorizedRequestResponseItems,
  WalletAuthorizedRequestResponseItems
)
export type WalletRequestResponseItems = typeof WalletRequestResponseItems.Type

export const WalletTransactionResponseItems = Schema.Struct({
  discriminator: Schema.Literal("transaction"),
  send: Schema.Struct({ transactionIntentHash: Schema.String })
})

export const SubintentResponseItem = Schema.Struct({
  expirationTimestamp: Num,
  subintentHash: Schema.String,
  signedPartialTransaction: Schema.String
})
export type SubintentResponseItem = typeof SubintentResponseItem.Type

export const WalletPreAuthorizationResponseItems = Schema.Struct({
  discriminator: Schema.Literal("preAuthorizationResponse"),
  response: opt(SubintentResponseItem)
})

export const WalletInteractionResponseItems = Schema.Union(
  WalletUnauthorizedRequestResponseItems,
  WalletAuthorizedRequestResponseItems,
  WalletTransactionResponseItems,
  WalletPreAuthorizationResponseItems
)
export type WalletInteractionResponseItems = typeof WalletInteractionResponseItems.Type

export const WalletInteractionSuccessResponse = Schema.Struct({
  discriminator: Schema.Literal("success"),
  interactionId: Schema.String,
  items: WalletInteractionResponseItems
})
export type WalletInteractionSuccessResponse = typeof WalletInteractionSuccessResponse.Type

export const WalletInteractionFailureResponse = Schema.Struct({
  discriminator: Schema.Literal("failure"),
  interactionId: Schema.String,
  error: Schema.String,
  message: opt(Schema.String)
})
export type WalletInteractionFailureResponse = typeof WalletInteractionFailureResponse.Type

export const WalletInteractionResponse = Schema.Union(
  WalletInteractionSuccessResponse,
  WalletInteractionFailureResponse
)
export type WalletInteractionResponse = typeof WalletInteractionResponse.Type

// ---------------------------------------------------------------------------------------------------------------
// Connector extension: page → extension, and extension → page
// ---------------------------------------------------------------------------------------------------------------

export const eventType = {
  outgoingMessage: "radix#chromeExtension#send",
  incomingMessage: "radix#chromeExtension#receive"
} as const

export const StatusExtensionInteraction = Schema.Struct({
  interactionId: Schema.String,
  discriminator: Schema.Literal("extensionStatus")
})
/** The extension adds the interactionId itself; the page sends none. */
export const OpenPopupExtensionInteraction = Schema.Struct({
  interactionId: opt(Schema.String),
  discriminator: Schema.Literal("openPopup")
})
export const WalletInteractionExtensionInteraction = Schema.Struct({
  interactionId: Schema.String,
  interaction: WalletInteraction,
  sessionId: opt(Schema.String),
  discriminator: Schema.Literal("walletInteraction")
})
export type WalletInteractionExtensionInteraction = typeof WalletInteractionExtensionInteraction.Type
export const CancelWalletInteractionExtensionInteraction = Schema.Struct({
  interactionId: Schema.String,
  metadata: Metadata,
  discriminator: Schema.Literal("cancelWalletInteraction")
})
/** The legacy cancel, sent when the extension cannot handle sessions. */
export const LegacyCancelRequest = Schema.Struct({
  interactionId: Schema.String,
  metadata: Metadata,
  items: CancelRequest
})
export const ExtensionInteraction = Schema.Union(
  StatusExtensionInteraction,
  OpenPopupExtensionInteraction,
  WalletInteractionExtensionInteraction,
  CancelWalletInteractionExtensionInteraction
)
export type ExtensionInteraction = typeof ExtensionInteraction.Type

/** Everything the page may dispatch on `radix#chromeExtension#send`. */
export const OutgoingExtensionMessage = Schema.Union(ExtensionInteraction, WalletInteraction, LegacyCancelRequest)
export type OutgoingExtensionMessage = typeof OutgoingExtensionMessage.Type

export const MessageLifeCycleEventType = Schema.Literal(
  "extensionStatus",
  "receivedByExtension",
  "receivedByWallet",
  "requestCancelSuccess",
  "requestCancelFail"
)
export type MessageLifeCycleEventType = typeof MessageLifeCycleEventType.Type

/** The real extension sends its status with no interactionId, so it is optional here. */
export const MessageLifeCycleExtensionStatusEvent = Schema.Struct({
  eventType: Schema.Literal("extensionStatus"),
  interactionId: opt(Schema.String),
  isWalletLinked: Schema.Boolean,
  isExtensionAvailable: Schema.Boolean,
  canHandleSessions: opt(Schema.Boolean)
})
export type MessageLifeCycleExtensionStatusEvent = typeof MessageLifeCycleExtensionStatusEvent.Type

export const MessageLifeCycleEvent = Schema.Struct({
  eventType: Schema.Literal("receivedByExtension", "receivedByWallet", "requestCancelSuccess", "requestCancelFail"),
  interactionId: Schema.String
})
export type MessageLifeCycleEvent = typeof MessageLifeCycleEvent.Type

/** Everything the extension may dispatch on `radix#chromeExtension#receive`. */
export const IncomingExtensionMessage = Schema.Union(
  MessageLifeCycleExtensionStatusEvent,
  MessageLifeCycleEvent,
  WalletInteractionResponse
)
export type IncomingExtensionMessage = typeof IncomingExtensionMessage.Type

// ---------------------------------------------------------------------------------------------------------------
// Stored shapes (RDT-compatible JSON)
// ---------------------------------------------------------------------------------------------------------------

export const PersonaDataEntry = Schema.Union(
  Schema.Struct({ entry: Schema.Literal("fullName"), fields: PersonaDataName }),
  Schema.Struct({ entry: Schema.Literal("emailAddresses"), fields: Schema.Array(Schema.String) }),
  Schema.Struct({ entry: Schema.Literal("phoneNumbers"), fields: Schema.Array(Schema.String) })
)
export type PersonaDataEntry = typeof PersonaDataEntry.Type

export const SignedChallenge = Schema.Struct({
  type: Schema.Literal("persona", "account"),
  challenge: Schema.String,
  proof: Proof,
  address: Schema.String
})
export type SignedChallenge = typeof SignedChallenge.Type

export const WalletData = Schema.Struct({
  accounts: Schema.Array(Account),
  personaData: Schema.Array(PersonaDataEntry),
  persona: opt(Persona),
  proofs: Schema.Array(SignedChallenge)
})
export type WalletData = typeof WalletData.Type

export const SharedData = Schema.Struct({
  persona: opt(Schema.Struct({ proof: Schema.Boolean })),
  ongoingAccounts: opt(Schema.Struct({ numberOfAccounts: opt(NumberOfValues), proof: Schema.Boolean })),
  ongoingPersonaData: opt(PersonaDataRequestItem)
})
export type SharedData = typeof SharedData.Type

export const RdtState = Schema.Struct({
  loggedInTimestamp: Schema.String,
  walletData: WalletData,
  sharedData: SharedData
})
export type RdtState = typeof RdtState.Type

export const RequestStatus = Schema.Literal(
  "pending",
  "pendingCommit",
  "success",
  "fail",
  "ignored",
  "timedOut",
  "cancelled"
)
export type RequestStatus = typeof RequestStatus.Type

export const RequestItemType = Schema.Literal(
  "loginRequest",
  "proofRequest",
  "dataRequest",
  "sendTransaction",
  "preAuthorizationRequest"
)
export type RequestItemType = typeof RequestItemType.Type

export const RequestItemMetadata = Schema.Struct({
  transactionStatus: opt(Schema.String),
  signedPartialTransaction: opt(Schema.String),
  expirationTimestamp: opt(Num),
  subintentHash: opt(Schema.String),
  parentTransactionIntentHash: opt(Schema.String)
})
export type RequestItemMetadata = typeof RequestItemMetadata.Type

export const RequestItem = Schema.Struct({
  type: RequestItemType,
  status: RequestStatus,
  interactionId: Schema.String,
  createdAt: Num,
  showCancel: Schema.Boolean,
  walletInteraction: opt(WalletInteraction),
  isOneTimeRequest: Schema.Boolean,
  sentToWallet: opt(Schema.Boolean),
  transactionIntentHash: opt(Schema.String),
  error: opt(Schema.String),
  walletResponse: opt(WalletInteractionResponse),
  walletData: opt(WalletData),
  metadata: opt(RequestItemMetadata)
})
export type RequestItem = typeof RequestItem.Type

export const Session = Schema.Struct({ sessionId: Schema.String, createdAt: Num })
export type Session = typeof Session.Type

export const Identity = Schema.Struct({ secret: Schema.String, createdAt: Num })
export type Identity = typeof Identity.Type

export const ConnectorExtensionState = Schema.Struct({ sessionId: opt(Schema.String) })
export type ConnectorExtensionState = typeof ConnectorExtensionState.Type

// ---------------------------------------------------------------------------------------------------------------
// Relay
// ---------------------------------------------------------------------------------------------------------------

export const RelayResponseEntry = Schema.Union(
  Schema.Struct({ sessionId: opt(Schema.String), publicKey: Schema.String, data: Schema.String }),
  Schema.Struct({ sessionId: opt(Schema.String), error: Schema.String })
)
export type RelayResponseEntry = typeof RelayResponseEntry.Type

// ---------------------------------------------------------------------------------------------------------------
// Validation messages (the official toolkit's valibot wording)
// ---------------------------------------------------------------------------------------------------------------

export interface ValidationIssue {
  readonly path: string
  readonly message: string
}

const expectedOf = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "Literal":
      return typeof ast.literal === "string" ? JSON.stringify(ast.literal) : String(ast.literal)
    case "StringKeyword":
      return "string"
    case "NumberKeyword":
      return "number"
    case "BooleanKeyword":
      return "boolean"
    case "TypeLiteral":
      return "Object"
    case "TupleType":
      return "Array"
    case "Union":
      return ast.types.map(expectedOf).join(" | ")
    case "Refinement":
      return expectedOf(ast.from)
    case "Transformation":
      return expectedOf(ast.from)
    case "Suspend":
      return expectedOf(ast.f())
    default:
      return "unknown"
  }
}

const receivedOf = (input: unknown): string => {
  if (typeof input === "string") return JSON.stringify(input.length > 64 ? `${input.slice(0, 64)}…` : input)
  if (typeof input === "number" || typeof input === "bigint" || typeof input === "boolean") return String(input)
  if (input === null) return "null"
  if (input === undefined) return "undefined"
  if (Array.isArray(input)) return "Array"
  // Only the name of a constructor of our own realm's prototypes: the value itself is never converted.
  if (typeof input === "object") return Object.getPrototypeOf(input) === Object.prototype ? "Object" : "object"
  return typeof input
}

const invalidType = (ast: SchemaAST.AST, actual: unknown) =>
  `Invalid type: Expected ${expectedOf(ast)} but received ${receivedOf(actual)}`

/** The declared type of a property of a struct AST (seen through refinements), for 'Missing' issues. */
const propertyType = (parent: SchemaAST.AST | undefined, key: PropertyKey | undefined): SchemaAST.AST | undefined => {
  if (parent === undefined || key === undefined) return undefined
  if (parent._tag === "Refinement" || parent._tag === "Transformation") return propertyType(parent.from, key)
  if (parent._tag !== "TypeLiteral") return undefined
  return parent.propertySignatures.find((ps) => ps.name === key)?.type
}

const collect = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
  out: Array<ValidationIssue>,
  parent?: SchemaAST.AST
): void => {
  const at = path.map(String).join(".")
  switch (issue._tag) {
    case "Type":
      out.push({ path: at, message: issue.message ?? invalidType(issue.ast, issue.actual) })
      return
    case "Missing": {
      const declared = propertyType(parent, path[path.length - 1])
      const expected = declared ? expectedOf(declared) : "unknown"
      out.push({ path: at, message: issue.message ?? `Invalid type: Expected ${expected} but received undefined` })
      return
    }
    case "Unexpected":
    case "Forbidden":
      out.push({ path: at, message: issue.message ?? "Invalid input" })
      return
    case "Pointer":
      collect(issue.issue, [...path, ...(Array.isArray(issue.path) ? issue.path : [issue.path])], out, parent)
      return
    case "Refinement": {
      if (issue.kind === "From") return collect(issue.issue, path, out)
      const annotated = SchemaAST.getMessageAnnotation(issue.ast)
      if (annotated._tag === "Some") {
        const m = annotated.value(issue)
        const text =
          typeof m === "string"
            ? m
            : typeof m === "object" && m !== null && "override" in m && typeof m.message === "string"
              ? m.message
              : undefined
        if (text !== undefined) {
          out.push({ path: at, message: text })
          return
        }
      }
      return collect(issue.issue, path, out)
    }
    case "Transformation":
      return collect(issue.issue, path, out)
    case "Composite": {
      const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues]
      // A union whose discriminator matched no member reports one Type issue per member; say it once.
      if (issue.ast._tag === "Union" && issues.every((i: ParseResult.ParseIssue) => i._tag === "Type")) {
        out.push({ path: at, message: invalidType(issue.ast, issue.actual) })
        return
      }
      for (const i of issues) collect(i, path, out, issue.ast)
      return
    }
  }
}

/** The issues of a parse error, each with its path and the official toolkit's message wording. */
export const validationIssues = (error: ParseResult.ParseError): ReadonlyArray<ValidationIssue> => {
  const out: Array<ValidationIssue> = []
  collect(error.issue, [], out)
  return out
}

/** Decodes an unknown value; on failure returns the issues (with every error, not just the first). */
export const validate = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all" })
  return (input: unknown): Either.Either<A, ReadonlyArray<ValidationIssue>> =>
    Either.mapLeft(decode(input), validationIssues)
}
