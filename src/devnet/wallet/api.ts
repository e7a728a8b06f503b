/**
 * The wallet emulator's HTTP API (`/devnet/wallet/*`, `/devnet/mobile-wallet/*`): request and answer Schemas shared
 * by the server and the in-page script. Browser-safe: imports nothing from Node.
 */
import { Schema } from "effect"
import { Account, NumberOfValues, Persona, WalletInteraction, WalletInteractionResponse } from "../../toolkit/schemas"

export const WALLET_API_PREFIX = "/devnet/wallet"
export const WALLET_SCRIPT_PATH = "/devnet/wallet.js"
export const MOBILE_DEEPLINK_PATH = "/devnet/mobile-wallet/deeplink"
export const DASHBOARD_PREFIX = "/devnet/dashboard"

/** localStorage key of the auto-approve switch ("1" on, anything else off). */
export const AUTO_APPROVE_STORAGE_KEY = "hswap:devnetWallet:autoApprove"
/** URL parameter that sets the switch: `?devnetWallet=auto` turns it on, `?devnetWallet=manual` off. */
export const AUTO_APPROVE_URL_PARAM = "devnetWallet"

const Address = Schema.String.pipe(Schema.maxLength(200))

/** What the user decided. `accounts` picks the accounts to share (default: the wallet's suggestion). */
export const Decision = Schema.Struct({
  approve: Schema.Boolean,
  accounts: Schema.optional(Schema.Array(Address).pipe(Schema.maxItems(20)))
})
export type Decision = typeof Decision.Type

export const ReviewBody = Schema.Struct({ interaction: WalletInteraction })
export const RespondBody = Schema.Struct({ interaction: WalletInteraction, decision: Decision })
export type RespondBody = typeof RespondBody.Type

export const MobileDeepLinkBody = Schema.Struct({
  url: Schema.String.pipe(Schema.maxLength(200_000)),
  decision: Schema.optional(Decision)
})

/** One resource movement of a transaction preview. */
export const Move = Schema.Struct({
  account: Schema.String,
  accountLabel: Schema.optional(Schema.String),
  resource: Schema.String,
  symbol: Schema.String,
  amount: Schema.String
})
export type Move = typeof Move.Type

export const PredictedOutcome = Schema.Literal("CommittedSuccess", "CommittedFailure", "Rejected")

export const TransactionPreview = Schema.Struct({
  /** The manifest as it will be signed (with the fee lock the wallet adds when the dApp's has none). */
  manifest: Schema.String,
  message: Schema.optional(Schema.String),
  blobCount: Schema.Number,
  addsFeeLock: Schema.Boolean,
  feePayer: Schema.optional(Schema.String),
  fee: Schema.String,
  signers: Schema.Array(Schema.String),
  withdrawals: Schema.Array(Move),
  deposits: Schema.Array(Move),
  predicted: PredictedOutcome,
  error: Schema.optional(Schema.String)
})
export type TransactionPreview = typeof TransactionPreview.Type

/** What a subintent's assertion guarantees: at least/exactly an amount of a resource, on the worktop, etc. */
export const Guarantee = Schema.Struct({
  resource: Schema.String,
  symbol: Schema.String,
  /** Readable: "at least 12.5", "exactly 3", "more than 0", "at least 2 given items". */
  amount: Schema.String,
  where: Schema.Literal("worktop", "nextCall", "bucket")
})
export type Guarantee = typeof Guarantee.Type

export const PreAuthorizationPreview = Schema.Struct({
  /** The compiled manifest printed back: what will be signed. */
  manifest: Schema.String,
  message: Schema.optional(Schema.String),
  blobCount: Schema.Number,
  signers: Schema.Array(Schema.String),
  /** What leaves the wallet's accounts. */
  withdrawals: Schema.Array(Move),
  /** What the subintent's assertions guarantee to come back. */
  guarantees: Schema.Array(Guarantee),
  expiration: Schema.Union(
    Schema.Struct({ discriminator: Schema.Literal("expireAtTime"), unixTimestampSeconds: Schema.Number }),
    Schema.Struct({ discriminator: Schema.Literal("expireAfterDelay"), expireAfterSeconds: Schema.Number })
  ),
  /** The header's window if the user approved now; `expiresAt` is unix seconds (the max proposer timestamp). */
  expiry: Schema.Struct({
    startEpochInclusive: Schema.Number,
    endEpochExclusive: Schema.Number,
    expiresAt: Schema.optional(Schema.Number),
    headerFromDapp: Schema.Boolean
  })
})
export type PreAuthorizationPreview = typeof PreAuthorizationPreview.Type

export const AccountsAsk = Schema.Struct({
  kind: Schema.Literal("ongoing", "oneTime"),
  numberOfAccounts: NumberOfValues,
  withProof: Schema.Boolean,
  suggested: Schema.Array(Schema.String)
})
export type AccountsAsk = typeof AccountsAsk.Type

export const ReviewKind = Schema.Literal(
  "login",
  "data",
  "proofOfOwnership",
  "transaction",
  "preAuthorization",
  "invalid"
)
export type ReviewKind = typeof ReviewKind.Type

/** A request as the wallet presents it before the user decides. */
export const Review = Schema.Struct({
  interactionId: Schema.String,
  kind: ReviewKind,
  title: Schema.String,
  origin: Schema.String,
  dAppDefinitionAddress: Schema.String,
  networkId: Schema.Number,
  lines: Schema.Array(Schema.String),
  accounts: Schema.Array(AccountsAsk),
  transaction: Schema.optional(TransactionPreview),
  preAuthorization: Schema.optional(PreAuthorizationPreview),
  /** Set when the wallet cannot approve: approving answers this failure. */
  problem: Schema.optional(Schema.Struct({ error: Schema.String, message: Schema.String }))
})
export type Review = typeof Review.Type

export const WalletInfo = Schema.Struct({
  networkId: Schema.Number,
  accounts: Schema.Array(Account),
  persona: Persona,
  dashboardUrl: Schema.String
})
export type WalletInfo = typeof WalletInfo.Type

export const RespondAnswer = Schema.Struct({ response: WalletInteractionResponse })

export const MobileAnswer = Schema.Struct({
  interactionId: Schema.String,
  sessionId: Schema.String,
  response: WalletInteractionResponse
})

export const ApiError = Schema.Struct({ error: Schema.String })
