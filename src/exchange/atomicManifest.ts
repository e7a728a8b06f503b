/**
 * The manifest text of an atomic swap's pre-authorisation: what the app sends the wallet to sign (the wallet adds
 * the header, whose expiry is the quote's remaining validity) and the one shape `checkPreAuthorization` accepts.
 * Pure and browser-safe: it lives with the exchange API so that the app builds it and the server checks against it.
 */

/** What the user pre-authorises: their account pays exactly `amountIn` of FROM and must get at least `quotedOut` of TO. */
export interface AtomicManifestQuote {
  readonly fromResource: string
  readonly toResource: string
  readonly amountIn: string
  readonly quotedOut: string
}

/** A manifest string literal: only the quote and the backslash need escaping. */
const literal = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

/**
 * The subintent manifest: withdraw exactly the quoted amount, hand that bucket to the exchange's transaction, then
 * (when it resumes the subintent with the TO bucket) require at least the quoted output of TO on the worktop and
 * nothing else, and deposit everything back into the same account.
 */
export const atomicSubintentManifest = (quote: AtomicManifestQuote, account: string): string =>
  [
    `CALL_METHOD Address(${literal(account)}) "withdraw" Address(${literal(quote.fromResource)}) Decimal(${literal(quote.amountIn)});`,
    `TAKE_FROM_WORKTOP Address(${literal(quote.fromResource)}) Decimal(${literal(quote.amountIn)}) Bucket("sold");`,
    `YIELD_TO_PARENT Bucket("sold");`,
    `ASSERT_WORKTOP_RESOURCES_ONLY Map<Address, Enum>(Address(${literal(quote.toResource)}) => Enum<ResourceConstraint::AtLeastAmount>(Decimal(${literal(quote.quotedOut)})));`,
    `CALL_METHOD Address(${literal(account)}) "deposit_batch" Expression("ENTIRE_WORKTOP");`,
    `YIELD_TO_PARENT;`
  ].join("\n")
