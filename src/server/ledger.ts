/**
 * Ledger reads the server needs, over our Gateway client: the exchange account's fungible balances, a committed
 * transaction's deposit into the exchange account, the current epoch, and a transaction's commit status.
 */
import { Effect, Either, Option, Schema } from "effect"
import { type Decimal, addDecimal, compareDecimal, decimalToString, isNegative, isPositive, negateDecimal, parseLooseDecimal, ZERO } from "../exchange/decimal"
import type { CommittedTransactionInfo, GatewayService } from "../gateway/index"
import type { ServerConfigShape, TokenSpec } from "./config"

/** Sums the exchange account's fungible vaults by resource address. */
export const accountBalances = (gateway: GatewayService, account: string) =>
  Effect.gen(function* () {
    const [item] = yield* gateway.state.getEntityDetailsVaultAggregated([account], { nonFungibleIncludeNfids: false })
    const balances = new Map<string, Decimal>()
    for (const resource of item?.fungible_resources.items ?? []) {
      if (resource.aggregation_level !== "Vault" || !("vaults" in resource)) continue
      let sum = balances.get(resource.resource_address) ?? ZERO
      for (const vault of resource.vaults.items) {
        sum = addDecimal(sum, Option.getOrElse(parseLooseDecimal(vault.amount), () => ZERO))
      }
      balances.set(resource.resource_address, sum)
    }
    return balances as ReadonlyMap<string, Decimal>
  })

const PlaintextMessage = Schema.Struct({
  type: Schema.Literal("Plaintext"),
  content: Schema.Struct({ type: Schema.Literal("String"), value: Schema.String })
})

/** The plain-text message of a committed transaction, when it has one. */
export const plaintextMessage = (tx: CommittedTransactionInfo): string | undefined =>
  Option.getOrUndefined(Option.map(Schema.decodeUnknownOption(PlaintextMessage)(tx.message), (m) => m.content.value))

const ROUTE = /([A-Za-z][A-Za-z0-9]{0,15})\s*->\s*([A-Za-z][A-Za-z0-9]{0,15})\s*$/

/** The `FROM -> TO` route at the end of a swap message ('{site} | Radix | FROM -> TO'), as `[from, to]`. */
export const parseRoute = (message: string | undefined): readonly [string, string] | undefined => {
  const m = message === undefined ? null : ROUTE.exec(message.trim())
  return m === null || m[1] === undefined || m[2] === undefined ? undefined : [m[1], m[2]]
}

export interface Deposit {
  readonly txIn: string
  readonly sender: string
  readonly token: TokenSpec
  readonly amount: string
  /** "FROM -> TO" as the message names it. */
  readonly routeText: string
  readonly stateVersion: number
}

/**
 * Checks a committed transaction as a swap deposit, trusting only the ledger: it succeeded; the exchange account
 * received exactly one accepted from-token; exactly one account lost that token (the sender); the message names a
 * route `FROM -> TO`. The reason of a refusal is returned on the left.
 */
export const depositOf = (config: ServerConfigShape, tx: CommittedTransactionInfo): Either.Either<Deposit, string> => {
  const txIn = tx.intent_hash ?? ""
  if (tx.transaction_status !== "CommittedSuccess") return Either.left("The transaction did not succeed on the ledger")
  const changes = tx.balance_changes?.fungible_balance_changes ?? []
  const amountOf = (text: string) => Option.getOrElse(parseLooseDecimal(text), () => ZERO)
  const acceptedFrom = new Set(config.routes.map(([from]) => from))
  const incoming = changes.filter(
    (c) => c.entity_address === config.exchangeAccount && isPositive(amountOf(c.balance_change))
  )
  const accepted = incoming.flatMap((c) => {
    const token = config.tokens.find((t) => t.resourceAddress === c.resource_address)
    return token !== undefined && acceptedFrom.has(token.symbol) ? [{ token, amount: amountOf(c.balance_change) }] : []
  })
  const [deposit, ...others] = accepted
  if (deposit === undefined) return Either.left("The transaction deposited no accepted token into the exchange account")
  if (others.length > 0) return Either.left("The transaction deposited more than one token into the exchange account")
  const senders = changes.filter(
    (c) =>
      c.resource_address === deposit.token.resourceAddress &&
      c.entity_address !== config.exchangeAccount &&
      isNegative(amountOf(c.balance_change))
  )
  const [sender, ...moreSenders] = senders
  if (sender === undefined || moreSenders.length > 0 || !sender.entity_address.startsWith("account_")) {
    return Either.left("The deposit did not come from exactly one account")
  }
  // The sender lost at least what the exchange received (more when a gateway folds the XRD fee into the change).
  if (compareDecimal(negateDecimal(amountOf(sender.balance_change)), deposit.amount) < 0) {
    return Either.left("The sender's withdrawal does not cover the deposit")
  }
  const route = parseRoute(plaintextMessage(tx))
  if (route === undefined) return Either.left("The transaction message names no route (FROM -> TO)")
  return Either.right({
    txIn,
    sender: sender.entity_address,
    token: deposit.token,
    amount: decimalToString(deposit.amount),
    routeText: `${route[0]} -> ${route[1]}`,
    stateVersion: tx.state_version
  })
}
