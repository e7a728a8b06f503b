/**
 * The atomic swap's words: what the card says the user signs, and each way it can end without moving anything, in
 * the user's terms. Pure, so the card, the machine and the tests share them.
 */
import { formatTokenAmount } from "../../../../exchange/format"

/** What the pre-authorisation binds, as the card says it before Execute (X and Y as the card formats them). */
export const atomicTermsText = (sent: string, received: string) =>
  `You send exactly ${sent}. You receive at least ${received}, or nothing moves.`

/** `amount` of a token, formatted with its display rule, and its symbol. */
export const tokenText = (amount: string, token: { readonly symbol: string; readonly decimals: number }) =>
  `${formatTokenAmount(amount, token.decimals)} ${token.symbol}`

/** The network fee line of an atomic quote: the exchange's transaction pays it, the user's account pays nothing. */
export const ATOMIC_FEE_TEXT = "None for you: the exchange pays it"

export const ATOMIC_LAPSED_TITLE = "Nothing moved"
export const ATOMIC_LAPSED_TEXT =
  "The pre-authorisation's time ran out before the swap could be made. Nothing moved: your balances are as they were. Prepare a new quote to try again."
export const ATOMIC_TOO_CLOSE_TEXT =
  "The quote was about to expire, so your wallet would not sign it. Nothing moved. Prepare a new quote to try again."
export const ATOMIC_REFUSED_TITLE = "Swap not made"
export const ATOMIC_UNKNOWN_TEXT =
  "The exchange has not said how the swap ended. Check Your Transactions before trying again."

/**
 * The exchange's refusal codes (src/server/atomic/check.ts) in the user's words. Each one ends the same way for the
 * user: nothing was submitted and nothing moved.
 */
const REFUSALS: Readonly<Record<string, string>> = {
  payload_malformed: "Your wallet's signature could not be read by the exchange.",
  wrong_network: "Your wallet signed for another network than this exchange's.",
  signature_invalid: "The signature on the pre-authorisation did not check out.",
  signer_not_account: "The pre-authorisation was not signed by the account that pays.",
  unsupported_account: "This kind of account cannot be used for an atomic swap.",
  exchange_account: "The exchange's own account cannot swap with itself.",
  has_children: "The pre-authorisation carried more than the swap.",
  has_blobs: "The pre-authorisation carried more than the swap.",
  wrong_shape: "The pre-authorisation your wallet signed is not the swap that was quoted.",
  wrong_withdrawal: "Your wallet signed a different amount or token than the quote.",
  wrong_assertion: "Your wallet signed a weaker guarantee than the quoted amount to receive.",
  wrong_deposit: "Your wallet signed a deposit to another place than your account.",
  window_start: "The pre-authorisation's time window does not start now.",
  window_unbounded: "The pre-authorisation had no end time.",
  window_after_quote: "The pre-authorisation would outlive the quote.",
  window_too_short: "Too little time was left on the quote to make the swap.",
  epoch_window: "The pre-authorisation's time window does not match the ledger's.",
  bad_terms: "The exchange no longer offers this swap at these terms.",
  quote_unknown: "The exchange does not know this quote any more.",
  quote_used: "This quote was already used for another swap.",
  quote_amount: "The amount differs from the quoted amount.",
  subintent_used: "This pre-authorisation was already used.",
  low_liquidity: "The exchange does not have enough liquidity for this swap right now."
}

/** The sentence for a refusal: the code's words, or the server's own sentence for a code this app does not know. */
export const refusalText = (reason: string, serverMessage: string): string =>
  `${REFUSALS[reason] ?? serverMessage} Nothing moved. Prepare a new quote to try again.`
