/**
 * Ledger reads the server needs, over our Gateway client: the exchange account's fungible balances, a committed
 * transaction's deposit into the exchange account, the current epoch, and a transaction's commit status.
 */
import { BigDecimal, Data, Effect, Either, Option, Schema } from "effect"
import { type CommittedTransactionInfo, exhaustPages, type GatewayService } from "../gateway/index"
import { parseSwapMessage } from "../exchange/swap"
import { formatPlain, parseLooseDecimal } from "../lib/decimalText"
import type { ServerConfigShape, TokenSpec } from "./config"
import { MAX_QUOTE_REF_LENGTH } from "./Quotes"

/**
 * The Gateway gave a vault an amount that is not a decimal. The balance cannot be known, so nothing is decided on it
 * (counted as zero it would understate the liquidity; a payout or the liquidity table waits for a readable answer).
 */
export class VaultAmountInvalid extends Data.TaggedError("VaultAmountInvalid")<{
  readonly resource: string
  readonly amount: string
}> {
  override get message(): string {
    return `the Gateway gave a vault of ${this.resource} the amount ${JSON.stringify(this.amount.slice(0, 80))}, which is not a decimal`
  }
}

/**
 * A committed transaction's balance change is not a decimal. What moved cannot be known, so the transaction is not
 * judged on it (counted as zero it could hide a deposit, or a sender's withdrawal); settlement asks again later.
 */
export class BalanceChangeInvalid extends Data.TaggedError("BalanceChangeInvalid")<{
  readonly txIn: string
  readonly entity: string
  readonly resource: string
  readonly change: string
}> {
  override get message(): string {
    return `the Gateway gave ${this.entity} a change of ${this.resource} of ${JSON.stringify(this.change.slice(0, 80))} in ${this.txIn}, which is not a decimal`
  }
}

const ZERO = BigDecimal.fromBigInt(0n)

/** The sum of one resource's vault amounts, or the first amount that is not a decimal. */
const sumVaults = (
  resource: string,
  vaults: ReadonlyArray<{ readonly amount: string }>
): Either.Either<BigDecimal.BigDecimal, VaultAmountInvalid> => {
  let sum = ZERO
  for (const vault of vaults) {
    const amount = parseLooseDecimal(vault.amount)
    if (Option.isNone(amount)) return Either.left(new VaultAmountInvalid({ resource, amount: vault.amount }))
    sum = BigDecimal.sum(sum, amount.value)
  }
  return Either.right(sum)
}

/**
 * What `account` holds of one `resource`: the sum of its vaults of it, undefined when it has none. Every page of that
 * resource's vaults (an account has one vault a resource), pinned to the first one's ledger state: a payout's
 * reservation reads this, not every balance of the account with its metadata.
 */
export const resourceBalance = (gateway: GatewayService, account: string, resource: string) =>
  Effect.gen(function* () {
    const { items } = yield* exhaustPages((cursor, atLedgerState) =>
      gateway.state.entityFungibleVaultsPage({
        address: account,
        resource_address: resource,
        ...(cursor === undefined ? {} : { cursor }),
        ...(atLedgerState === undefined ? {} : { at_ledger_state: atLedgerState })
      })
    )
    return items.length === 0 ? undefined : yield* sumVaults(resource, items)
  })

/** Sums the exchange account's fungible vaults by resource address. */
export const accountBalances = (gateway: GatewayService, account: string) =>
  Effect.gen(function* () {
    const [item] = yield* gateway.state.getEntityDetailsVaultAggregated([account], { nonFungibleIncludeNfids: false })
    const balances = new Map<string, BigDecimal.BigDecimal>()
    for (const resource of item?.fungible_resources.items ?? []) {
      if (resource.aggregation_level !== "Vault" || !("vaults" in resource)) continue
      const sum = yield* sumVaults(resource.resource_address, resource.vaults.items)
      balances.set(resource.resource_address, BigDecimal.sum(balances.get(resource.resource_address) ?? ZERO, sum))
    }
    return balances as ReadonlyMap<string, BigDecimal.BigDecimal>
  })

const PlaintextMessage = Schema.Struct({
  type: Schema.Literal("Plaintext"),
  content: Schema.Struct({ type: Schema.Literal("String"), value: Schema.String })
})

/** The plain-text message of a committed transaction, when it has one. */
export const plaintextMessage = (tx: CommittedTransactionInfo): string | undefined =>
  Option.getOrUndefined(Option.map(Schema.decodeUnknownOption(PlaintextMessage)(tx.message), (m) => m.content.value))

export interface Deposit {
  readonly txIn: string
  readonly sender: string
  /** The resource deposited into the exchange account. */
  readonly resource: string
  /**
   * Its entry in the token table; undefined for a token the exchange does not list, which is recorded all the same
   * (under its address as symbol) so that settlement refunds it.
   */
  readonly token: TokenSpec | undefined
  /** The table symbol, or the resource address of an unlisted token (never the token's own, untrusted, metadata). */
  readonly symbol: string
  readonly amount: string
  /** "FROM -> TO" as the message names it. */
  readonly routeText: string
  readonly stateVersion: number
  /** The quote reference the message names (' | quote {ref}'), as written, cut to `MAX_QUOTE_REF_LENGTH`. */
  readonly quoteId: string | undefined
  /** When the ledger committed the transaction (epoch ms): `confirmed_at`, else `round_timestamp`; undefined if neither parses. */
  readonly committedMs: number | undefined
}

/** The commit time of a committed transaction in epoch ms, from `confirmed_at` or else `round_timestamp`. */
export const commitTimeOf = (
  tx: Pick<CommittedTransactionInfo, "confirmed_at" | "round_timestamp">
): number | undefined => {
  for (const text of [tx.confirmed_at, tx.round_timestamp]) {
    const ms = text === undefined ? Number.NaN : Date.parse(text)
    if (Number.isFinite(ms)) return ms
  }
  return undefined
}

/**
 * Checks a committed transaction as a swap deposit, trusting only the ledger: it succeeded; the exchange account
 * received exactly one token of the table, or else exactly one other token (a deposit settlement refunds, like one
 * of a table token no route starts from); exactly one account lost that token (the sender); the message names a route
 * `FROM -> TO` (and maybe a quote, `parseSwapMessage`). A transaction whose message names no route is no swap (the
 * operator adding liquidity, say) and is left alone, and so is one in which the exchange account also paid a token
 * out: that is the exchange's own transaction (an atomic swap, settled in it). The reason of a refusal is returned on
 * the left; a balance change that is not a decimal is a `BalanceChangeInvalid` there instead (nothing is decided).
 */
export const depositOf = (
  config: ServerConfigShape,
  tx: CommittedTransactionInfo
): Either.Either<Deposit, string | BalanceChangeInvalid> => {
  const txIn = tx.intent_hash ?? ""
  if (tx.transaction_status !== "CommittedSuccess") return Either.left("The transaction did not succeed on the ledger")
  const changes: Array<{ entity_address: string; resource_address: string; change: BigDecimal.BigDecimal }> = []
  for (const c of tx.balance_changes?.fungible_balance_changes ?? []) {
    const change = parseLooseDecimal(c.balance_change)
    if (Option.isNone(change))
      return Either.left(
        new BalanceChangeInvalid({
          txIn,
          entity: c.entity_address,
          resource: c.resource_address,
          change: c.balance_change
        })
      )
    changes.push({ entity_address: c.entity_address, resource_address: c.resource_address, change: change.value })
  }
  const incoming = changes
    .filter((c) => c.entity_address === config.exchangeAccount && BigDecimal.isPositive(c.change))
    .map((c) => ({
      resource: c.resource_address,
      token: config.tokens.find((t) => t.resourceAddress === c.resource_address),
      amount: c.change
    }))
  // A token of the table is the deposit (other tokens beside it are not); without one, a single unlisted token is.
  const listed = incoming.filter((c) => c.token !== undefined)
  const candidates = listed.length > 0 ? listed : incoming
  const [deposit, ...others] = candidates
  if (deposit === undefined) return Either.left("The transaction deposited no token into the exchange account")
  if (
    changes.some(
      (c) =>
        c.entity_address === config.exchangeAccount &&
        c.resource_address !== deposit.resource &&
        BigDecimal.isNegative(c.change)
    )
  )
    return Either.left(
      "The exchange account also paid out in this transaction: it is the exchange's own (an atomic swap)"
    )
  if (others.length > 0) return Either.left("The transaction deposited more than one token into the exchange account")
  const senders = changes.filter(
    (c) =>
      c.resource_address === deposit.resource &&
      c.entity_address !== config.exchangeAccount &&
      BigDecimal.isNegative(c.change)
  )
  const [sender, ...moreSenders] = senders
  if (sender === undefined || moreSenders.length > 0 || !sender.entity_address.startsWith("account_")) {
    return Either.left("The deposit did not come from exactly one account")
  }
  // The sender lost at least what the exchange received (more when a gateway folds the XRD fee into the change).
  if (BigDecimal.lessThan(BigDecimal.negate(sender.change), deposit.amount)) {
    return Either.left("The sender's withdrawal does not cover the deposit")
  }
  const message = parseSwapMessage(plaintextMessage(tx))
  if (message === undefined) return Either.left("The transaction message names no route (FROM -> TO)")
  return Either.right({
    txIn,
    sender: sender.entity_address,
    resource: deposit.resource,
    token: deposit.token,
    symbol: deposit.token?.symbol ?? deposit.resource,
    amount: formatPlain(deposit.amount),
    routeText: `${message.from} -> ${message.to}`,
    stateVersion: tx.state_version,
    quoteId: message.quoteId?.slice(0, MAX_QUOTE_REF_LENGTH),
    committedMs: commitTimeOf(tx)
  })
}
