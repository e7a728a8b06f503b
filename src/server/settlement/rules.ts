/**
 * The decision rules of settlement, pure: what a swap deposit is paid, or why it is refunded, given what the shell
 * read (maintenance, the quote its message names, prices). No effect, no clock, no database: each stage takes the
 * facts and answers a `Decision`; `Settlement` reads the next fact only when a stage asks for it, in this order:
 *
 * 1. `screenDeposit`: maintenance, then a token the exchange lists;
 * 2. `routeOf`: the quote reference (as looked up), its pair, the deposit's route, the accepted routes;
 * 3. unquoted: `decideUnquoted` at the prices read now (limits, fee);
 *    quoted: the quote is claimed for the deposit (`QUOTE_REUSED` when another holds it), then `decideAtQuote`
 *    (its limits; what it promised when the ledger committed the deposit in time), and for an expired quote
 *    `decideExpiredQuote` at today's prices (paid when that still reaches the minimum received).
 */
import { BigDecimal, Option } from "effect"
import { formatPlain, parseLooseDecimal } from "../../lib/decimalText"
import type { QuoteRow, SwapChanges, SwapRow } from "../Db"
import type { ServerConfigShape, TokenSpec } from "../config"
import { amountLimits, dec, effectiveRate, payoutAmount, positive, usdValue, withinLimits } from "../pricing"
import {
  QUOTE_REUSED,
  QUOTE_TAMPERED,
  QUOTE_UNKNOWN,
  QUOTE_UNREADABLE,
  type QuoteLookup,
  bindsAt,
  quoteExpiredBelowMinimum,
  quoteOtherPair,
  quotedTerms
} from "../Quotes"
import { IN_MAINTENANCE, unsupportedToken } from "./errors"

/** What the rules read from the configuration. */
export interface SettlementRules {
  readonly tokens: ReadonlyArray<TokenSpec>
  readonly routes: ServerConfigShape["routes"]
  readonly spread: BigDecimal.BigDecimal
  readonly feeUsd: BigDecimal.BigDecimal
  readonly minUsd: BigDecimal.BigDecimal
  readonly maxUsd: BigDecimal.BigDecimal
}

export const settlementRules = (config: ServerConfigShape): SettlementRules => ({
  tokens: config.tokens,
  routes: config.routes,
  spread: dec(config.spread),
  feeUsd: dec(config.feeUsd),
  minUsd: dec(config.minUsd),
  maxUsd: dec(config.maxUsd)
})

/** A line for the operator's log that goes with a decision. */
export interface DecisionLog {
  readonly level: "Warning" | "Error"
  readonly message: string
  readonly detail?: unknown
}

/** Refund the deposit: `message` is the reason the user reads; `changes` are recorded with it. */
export interface Refund {
  readonly _tag: "Refund"
  readonly message: string
  readonly changes: SwapChanges
  readonly log?: DecisionLog
}

/** Pay the deposit: the payout's terms, recorded as the swap moves to `paying`. */
export interface Pay {
  readonly _tag: "Pay"
  readonly changes: SwapChanges & {
    readonly resource_out: string
    readonly symbol_out: string
    readonly amount_out: string
    readonly rate: string
    readonly usd_in: string
  }
}

/** Decide later: a fact is missing now (a fresh price). */
export interface Wait {
  readonly _tag: "Wait"
  readonly log: DecisionLog
}

export type Decision = Refund | Pay | Wait

const refund = (message: string, changes: SwapChanges = {}, log?: DecisionLog): Refund =>
  log === undefined ? { _tag: "Refund", message, changes } : { _tag: "Refund", message, changes, log }

const warning = (message: string): DecisionLog => ({ level: "Warning", message })

export const limitsMessage = (amount: string, symbol: string, min: string, max: string) =>
  `The amount ${amount} ${symbol} is outside the limits (${min} to ${max} ${symbol})`

export const FEE_NOT_COVERED = "The amount does not cover the fee"

/** Stage 1: nothing is swapped in maintenance, nor a token the exchange does not list. Undefined: go on. */
export const screenDeposit = (rules: SettlementRules, row: SwapRow, inMaintenance: boolean): Refund | undefined => {
  if (inMaintenance) return refund(IN_MAINTENANCE)
  const listed = rules.tokens.find((t) => t.resourceAddress === row.resource_in)
  if (listed === undefined || listed.symbol !== row.symbol_in) return refund(unsupportedToken(row.resource_in))
  return undefined
}

/** The route a deposit is swapped along, with the quote it names (if any). */
export interface Route {
  readonly _tag: "Route"
  readonly from: string
  readonly to: string
  readonly tokenIn: TokenSpec
  readonly tokenOut: TokenSpec
  readonly quote: QuoteRow | undefined
}

/**
 * Stage 2: the route of the deposit's message, checked against the quote it names (`lookup`, when it names one),
 * the token deposited and the accepted routes.
 */
export const routeOf = (rules: SettlementRules, row: SwapRow, lookup: QuoteLookup | undefined): Refund | Route => {
  const [from = "", to = ""] = (row.route_text ?? "").split(" -> ")
  let quote: QuoteRow | undefined
  if (lookup !== undefined) {
    if (lookup._tag !== "Found") {
      return refund(
        lookup._tag === "Tampered" ? QUOTE_TAMPERED : QUOTE_UNKNOWN,
        {},
        warning(`swap ${row.tx_in}: quote reference ${JSON.stringify(row.quote_id)} is ${lookup._tag.toLowerCase()}`)
      )
    }
    quote = lookup.quote
    if (quote.symbol_in !== row.symbol_in || quote.symbol_in !== from || quote.symbol_out !== to) {
      const deposited =
        from === row.symbol_in ? `${from} -> ${to}` : `${row.symbol_in} (its message names ${from} -> ${to})`
      return refund(quoteOtherPair(`${quote.symbol_in} -> ${quote.symbol_out}`, deposited))
    }
  }
  if (from !== row.symbol_in) {
    return refund(`The route ${row.route_text ?? ""} does not match the deposited ${row.symbol_in}`)
  }
  if (!rules.routes.some(([f, t]) => f === from && t === to)) {
    return refund(`Route not available: ${row.route_text ?? ""}`)
  }
  const tokenIn = rules.tokens.find((t) => t.symbol === from)
  const tokenOut = rules.tokens.find((t) => t.symbol === to)
  if (tokenIn === undefined || tokenOut === undefined) return refund(`Route not available: ${row.route_text ?? ""}`)
  return { _tag: "Route", from, to, tokenIn, tokenOut, quote }
}

/** Stage 3, unquoted: paid at the USD prices of both tokens read now (undefined: no fresh price). */
export const decideUnquoted = (
  rules: SettlementRules,
  row: SwapRow,
  route: Route,
  priceIn: BigDecimal.BigDecimal | undefined,
  priceOut: BigDecimal.BigDecimal | undefined
): Decision => {
  if (priceIn === undefined || priceOut === undefined) {
    return {
      _tag: "Wait",
      log: warning(`swap ${row.tx_in}: no fresh price for ${row.route_text ?? ""}; left for later`)
    }
  }
  // Recorded from the ledger's own figure (`depositOf`): one that does not parse is a corrupt row.
  const amountIn = Option.getOrThrowWith(
    parseLooseDecimal(row.amount_in),
    () => new Error(`swap ${row.tx_in}: the stored amount ${JSON.stringify(row.amount_in)} is not a decimal`)
  )
  const limits = amountLimits(priceIn, route.tokenIn.decimals, rules.minUsd, rules.maxUsd)
  if (!withinLimits(amountIn, limits)) {
    return refund(limitsMessage(row.amount_in, route.from, formatPlain(limits.min), formatPlain(limits.max)))
  }
  const out = payoutAmount(amountIn, priceIn, priceOut, rules.spread, rules.feeUsd, route.tokenOut.decimals)
  if (!positive(out)) return refund(FEE_NOT_COVERED)
  return {
    _tag: "Pay",
    changes: {
      resource_out: route.tokenOut.resourceAddress,
      symbol_out: route.tokenOut.symbol,
      amount_out: formatPlain(out),
      rate: formatPlain(effectiveRate(priceIn, priceOut, rules.spread)),
      usd_in: formatPlain(usdValue(amountIn, priceIn))
    }
  }
}

/** Stage 3, quoted: the quote is claimed by another deposit. */
export const quoteReused = (row: SwapRow, quote: QuoteRow): Refund =>
  refund(QUOTE_REUSED, {}, warning(`swap ${row.tx_in}: quote ${quote.id} is already claimed by another deposit`))

/** The quote expired before the deposit committed: settle at today's prices (`decideExpiredQuote`). */
export interface AtCurrentPrices {
  readonly _tag: "AtCurrentPrices"
  /** Said when the deposit's commit time is unknown (the quote is then treated as expired). */
  readonly log?: DecisionLog
}

interface QuotedFacts {
  readonly amountIn: BigDecimal.BigDecimal
  readonly priceIn: BigDecimal.BigDecimal
  /** What the quote promised for the deposit, and 99% of it. */
  readonly quoted: BigDecimal.BigDecimal
  readonly minimum: BigDecimal.BigDecimal
  readonly promised: { readonly quoted_out: string; readonly min_received: string }
}

const quotedFacts = (row: SwapRow, quote: QuoteRow, tokenOut: TokenSpec): QuotedFacts | Refund => {
  const amountIn = parseLooseDecimal(row.amount_in)
  const min = parseLooseDecimal(quote.min_in)
  const max = parseLooseDecimal(quote.max_in)
  const priceIn = parseLooseDecimal(quote.price_in)
  const terms = quotedTerms(row.amount_in, quote, tokenOut.decimals)
  const quoted = parseLooseDecimal(terms?.quoted ?? "")
  const minimum = parseLooseDecimal(terms?.minimum ?? "")
  if (
    Option.isNone(amountIn) ||
    Option.isNone(min) ||
    Option.isNone(max) ||
    Option.isNone(priceIn) ||
    terms === undefined ||
    Option.isNone(quoted) ||
    Option.isNone(minimum)
  ) {
    return refund(
      QUOTE_UNREADABLE,
      {},
      {
        level: "Error",
        message: `swap ${row.tx_in}: the terms of quote ${quote.id} do not parse`,
        detail: quote
      }
    )
  }
  if (!withinLimits(amountIn.value, { min: min.value, max: max.value })) {
    return refund(limitsMessage(row.amount_in, quote.symbol_in, quote.min_in, quote.max_in))
  }
  return {
    amountIn: amountIn.value,
    priceIn: priceIn.value,
    quoted: quoted.value,
    minimum: minimum.value,
    promised: { quoted_out: terms.quoted, min_received: terms.minimum }
  }
}

const paying = (
  tokenOut: TokenSpec,
  promised: QuotedFacts["promised"],
  amountOut: BigDecimal.BigDecimal,
  rate: string,
  usdIn: BigDecimal.BigDecimal
): Pay => ({
  _tag: "Pay",
  changes: {
    ...promised,
    resource_out: tokenOut.resourceAddress,
    symbol_out: tokenOut.symbol,
    amount_out: formatPlain(amountOut),
    rate,
    usd_in: formatPlain(usdIn)
  }
})

/**
 * Stage 3, quoted (the quote claimed for this deposit): its limits, then exactly what it promised when the ledger
 * committed the deposit at or before its expiry. What was promised is recorded either way.
 */
export const decideAtQuote = (row: SwapRow, quote: QuoteRow, tokenOut: TokenSpec): Refund | Pay | AtCurrentPrices => {
  const facts = quotedFacts(row, quote, tokenOut)
  if ("_tag" in facts) return facts
  if (bindsAt(quote, row.committed_ms)) {
    if (!positive(facts.quoted)) return refund(FEE_NOT_COVERED, facts.promised)
    return paying(tokenOut, facts.promised, facts.quoted, quote.rate, usdValue(facts.amountIn, facts.priceIn))
  }
  return row.committed_ms === null
    ? {
        _tag: "AtCurrentPrices",
        log: warning(`swap ${row.tx_in}: the deposit's commit time is unknown; quote ${quote.id} is treated as expired`)
      }
    : { _tag: "AtCurrentPrices" }
}

/**
 * Stage 4, an expired quote (after `decideAtQuote` answered `AtCurrentPrices`): today's payout at the prices read
 * now, when it is at least the quote's minimum received; else refunded.
 */
export const decideExpiredQuote = (
  rules: SettlementRules,
  row: SwapRow,
  quote: QuoteRow,
  tokenOut: TokenSpec,
  priceIn: BigDecimal.BigDecimal | undefined,
  priceOut: BigDecimal.BigDecimal | undefined
): Decision => {
  const facts = quotedFacts(row, quote, tokenOut)
  if ("_tag" in facts) return facts
  if (priceIn === undefined || priceOut === undefined) {
    return {
      _tag: "Wait",
      log: warning(
        `swap ${row.tx_in}: quote ${quote.id} expired and no fresh price for ${row.route_text ?? ""}; left for later`
      )
    }
  }
  const out = payoutAmount(facts.amountIn, priceIn, priceOut, rules.spread, rules.feeUsd, tokenOut.decimals)
  if (BigDecimal.lessThan(out, facts.minimum)) {
    const current = formatPlain(positive(out) ? out : BigDecimal.fromBigInt(0n))
    return refund(quoteExpiredBelowMinimum(facts.promised.min_received, current, tokenOut.symbol), facts.promised)
  }
  if (!positive(out)) return refund(FEE_NOT_COVERED, facts.promised)
  return paying(
    tokenOut,
    facts.promised,
    out,
    formatPlain(effectiveRate(priceIn, priceOut, rules.spread)),
    usdValue(facts.amountIn, priceIn)
  )
}
