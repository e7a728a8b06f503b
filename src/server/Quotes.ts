/**
 * `Quotes`: binding fixed-rate quotes.
 *
 * `GET /api/liveprice` issues one per successful price: the pair, `effective_rate` (the very string returned), the
 * 0.10 USD fee in to-token units, the amount limits, the prices used, and when it was issued and expires
 * (`quoteTtl`, 120 s). The terms are stored in the `quotes` table; the reference handed out is
 * `q{base64url(12 random bytes)}.{base64url(HMAC-SHA256(secret, "q…")[0..16])}`, so a forged or altered reference is
 * told apart from an unknown one without a lookup.
 *
 * The secret is `quoteSecret` when configured; otherwise 32 random bytes generated once and kept in the database
 * (`kv` key `quote_secret`, insert-if-absent then read back, so every process on one database signs alike).
 *
 * A quote binds one deposit: settlement claims it with a compare-and-set (`used_by`), idempotent for the same
 * deposit. Quotes never claimed are pruned an hour after they expired (on the watcher's pass, once it has caught up
 * with the ledger, so a deposit committed in time is always seen before its quote could go).
 *
 * The pure rules (what a quote promises for an amount, whether it still binds at a commit time, the refund texts)
 * are exported beside the service.
 */
import { Clock, Duration, Effect, Option } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { minimumReceived } from "../exchange/amount"
import { QUOTE_ID_PATTERN } from "../exchange/api"
import { quotedOutput } from "../exchange/swap"
import { ServerConfig } from "./config"
import { Db, type QuoteRow } from "./Db"

/** The `kv` key of the generated quote secret (hex). */
export const QUOTE_SECRET_KEY = "quote_secret"

/** Unclaimed quotes are deleted this long after they expired. */
export const QUOTE_PRUNE_AFTER = Duration.hours(1)

/** At most this many quotes go in one prune (the next pass takes the rest). */
export const QUOTE_PRUNE_BATCH = 10_000

/** A quote reference longer than this is cut when the deposit is stored (it then fails verification). */
export const MAX_QUOTE_REF_LENGTH = 128

const RANDOM_BYTES = 12
const MAC_BYTES = 16
const SECRET_BYTES = 32

// --- refund texts --------------------------------------------------------------------------------------------------

export const QUOTE_TAMPERED =
  "The quote reference in the transaction message is not valid: it was altered or not issued by this exchange."
export const QUOTE_UNKNOWN = "The quote reference in the transaction message is not known to this exchange."
export const QUOTE_REUSED = "The quote was already used by another deposit; a quote binds one deposit only."
export const QUOTE_UNREADABLE = "The quote's terms could not be read."
export const quoteOtherPair = (quotePair: string, depositPair: string) =>
  `The quote is for ${quotePair}, but the deposit is for ${depositPair}.`
export const quoteExpiredBelowMinimum = (minimum: string, current: string, symbol: string) =>
  `The quote expired before the deposit committed and the rate moved below the minimum received (${minimum} ${symbol}): it now gives ${current} ${symbol}.`

// --- references ----------------------------------------------------------------------------------------------------

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

const macOf = (secret: Uint8Array, body: string) =>
  base64url(createHmac("sha256", secret).update(body, "utf8").digest().subarray(0, MAC_BYTES))

/** `body.mac` for a reference body ("q…"). */
export const signQuoteRef = (secret: Uint8Array, body: string) => `${body}.${macOf(secret, body)}`

/** The reference has the API's shape and its MAC is ours (compared in constant time). */
export const verifyQuoteRef = (secret: Uint8Array, ref: string): boolean => {
  if (!QUOTE_ID_PATTERN.test(ref)) return false
  const dot = ref.lastIndexOf(".")
  const expected = Buffer.from(macOf(secret, ref.slice(0, dot)), "utf8")
  const given = Buffer.from(ref.slice(dot + 1), "utf8")
  return given.length === expected.length && timingSafeEqual(given, expected)
}

// --- rules ---------------------------------------------------------------------------------------------------------

/**
 * What quote `quote` promises for `amountIn` (from-token units), and the least it may pay once expired: the one
 * formula the card shows (`quotedOutput`), and 99% of it. Undefined when the stored terms do not parse.
 */
export const quotedTerms = (
  amountIn: string,
  quote: Pick<QuoteRow, "rate" | "fee_out">,
  decimalsOut: number
): { readonly quoted: string; readonly minimum: string } | undefined => {
  const quoted = quotedOutput(amountIn, quote.rate, quote.fee_out, decimalsOut)
  return quoted === undefined ? undefined : { quoted, minimum: minimumReceived(quoted, decimalsOut) }
}

/** The quote binds a deposit the ledger committed at `committedMs` (at or before its expiry; unknown: it does not). */
export const bindsAt = (quote: Pick<QuoteRow, "expires_ms">, committedMs: number | null): boolean =>
  committedMs !== null && committedMs <= quote.expires_ms

// --- the service ---------------------------------------------------------------------------------------------------

/** The terms of a quote about to be issued (decimal strings). */
export interface QuoteTerms {
  readonly symbolIn: string
  readonly symbolOut: string
  readonly rate: string
  readonly feeOut: string
  readonly minIn: string
  readonly maxIn: string
  readonly priceIn: string
  readonly priceOut: string
}

export interface IssuedQuote {
  readonly id: string
  readonly issuedMs: number
  readonly expiresMs: number
}

/** What a deposit's quote reference turned out to be. */
export type QuoteLookup =
  { readonly _tag: "Tampered" } | { readonly _tag: "Unknown" } | { readonly _tag: "Found"; readonly quote: QuoteRow }

const HEX_SECRET = /^[0-9a-f]{64}$/

export class Quotes extends Effect.Service<Quotes>()("hswap/server/Quotes", {
  effect: Effect.gen(function* () {
    const config = yield* ServerConfig
    const db = yield* Db
    const ttlMs = Duration.toMillis(config.quoteTtl)

    let secret: Uint8Array
    if (config.quoteSecret !== undefined) {
      secret = Buffer.from(config.quoteSecret, "utf8")
    } else {
      const generated = Buffer.from(randomBytes(SECRET_BYTES)).toString("hex")
      const stored = yield* db.initKv(QUOTE_SECRET_KEY, generated)
      if (!HEX_SECRET.test(stored)) {
        return yield* Effect.dieMessage(
          `The quote secret stored in the database (kv '${QUOTE_SECRET_KEY}') is not 64 hex characters; delete it to generate a new one, or set HSWAP_QUOTE_SECRET`
        )
      }
      secret = Buffer.from(stored, "hex")
    }

    /** Issues and stores a quote on `terms`, binding from now for `quoteTtl`. */
    const issue = Effect.fn("Quotes.issue")(function* (terms: QuoteTerms) {
      const issuedMs = yield* Clock.currentTimeMillis
      const id = signQuoteRef(secret, `q${base64url(randomBytes(RANDOM_BYTES))}`)
      const expiresMs = issuedMs + ttlMs
      yield* db.insertQuote({
        id,
        symbol_in: terms.symbolIn,
        symbol_out: terms.symbolOut,
        rate: terms.rate,
        fee_out: terms.feeOut,
        min_in: terms.minIn,
        max_in: terms.maxIn,
        price_in: terms.priceIn,
        price_out: terms.priceOut,
        issued_ms: issuedMs,
        expires_ms: expiresMs
      })
      return { id, issuedMs, expiresMs } satisfies IssuedQuote
    })

    /** Verifies a reference as written in a deposit's message, then finds its terms. */
    const lookup = Effect.fn("Quotes.lookup")(function* (ref: string) {
      if (!verifyQuoteRef(secret, ref)) return { _tag: "Tampered" } as QuoteLookup
      const found = yield* db.getQuote(ref)
      return Option.match(found, {
        onNone: (): QuoteLookup => ({ _tag: "Unknown" }),
        onSome: (quote): QuoteLookup => ({ _tag: "Found", quote })
      })
    })

    /** Claims the quote for the deposit `txIn` (idempotent for the same deposit); false when another holds it. */
    const claim = (id: string, txIn: string) => db.claimQuote(id, txIn)

    /**
     * Deletes unclaimed quotes that expired more than an hour before `asOfMs` (epoch ms; the watcher passes the
     * earlier of now and the ledger tip's time). Returns how many went.
     */
    const prune = Effect.fn("Quotes.prune")(function* (asOfMs: number) {
      const removed = yield* db.pruneQuotes(asOfMs - Duration.toMillis(QUOTE_PRUNE_AFTER), QUOTE_PRUNE_BATCH)
      if (removed > 0) yield* Effect.logDebug(`quotes: pruned ${removed} unused quotes that expired over an hour ago`)
      return removed
    })

    return { issue, lookup, claim, prune, validSeconds: Math.floor(ttlMs / 1000) } as const
  })
}) {}
