/**
 * Spec §7: "Once at startup the same call is made for the fund account and only logged": the Gateway's
 * `/state/entity/details` with vault-aggregated fungible resources, the call the balance badge makes.
 *
 * The balance badge reads through the Gateway client (`gateway/`), which decodes the whole documented answer and
 * reads every follow-up page. This read is logged and nothing else, and it is made by every first visit, so it sends
 * the same request (path, body and the client's RDX headers) with `fetch` itself (`ApiHttp`, with cookies only to the
 * same origin, as the client sends) and decodes only what it logs: the fungible resources of the first page and their
 * vault amounts. The client, its Schemas and its decoder (about 12 kB gzip, and long tasks of up to 250 ms at 4× CPU
 * slowdown in the first seconds) then load only when something needs them: a connected wallet's balances, the
 * toolkit, a page that reads the ledger.
 * Pages after the first are not read; the log says when there are more.
 *
 * Failures are the Gateway client's errors, so the log reads as the client's would. A non-2xx answer's
 * `GatewayResponseError` (`gateway/errors.ts`, with the Schemas of every Gateway error's details) loads with the first
 * such answer; the rest (`gateway/clientErrors.ts`) are light.
 */
import { BigDecimal, Duration, Effect, Either, Option, ParseResult, Schema } from "effect"
import { ApiHttp } from "../../exchange/http"
import {
  clientNotLoaded,
  GatewayDecodeError,
  GatewayTimeoutError,
  GatewayTransportError,
  type UnknownNetworkError
} from "../../gateway/clientErrors"
import { resolveGatewayConfig } from "../../gateway/config"
import type { GatewayError } from "../../gateway/errors"
import { formatPlain, parseLooseDecimal } from "../../lib/decimalText"
import type { AppConfigShape } from "../config/AppConfig"
import { gatewayConfigOf } from "../config/gateway"

const PATH = "/state/entity/details"

/** Optional, and `null` read as absent (as the client's `opt`). */
const opt = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { nullable: true })

/** A vault amount: a decimal (read as `sumVaults` reads it), else the answer does not decode. */
const VaultAmount = Schema.String.pipe(
  Schema.filter((s) => Option.isSome(parseLooseDecimal(s)), { message: () => "Expected a decimal" })
)

/** What the read uses of an entity-details answer; any other field is ignored. */
const FungibleVaults = Schema.Struct({
  resource_address: Schema.String,
  vaults: Schema.Struct({ items: Schema.Array(Schema.Struct({ amount: VaultAmount })) })
})
const FundAccountDetails = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      address: Schema.String,
      fungible_resources: opt(
        Schema.Struct({
          total_count: opt(Schema.Number),
          next_cursor: opt(Schema.String),
          items: Schema.Array(FungibleVaults)
        })
      )
    })
  )
})
const decodeDetails = Schema.decodeUnknownEither(FundAccountDetails)

/**
 * Sums the vault amounts of each fungible resource, exactly. An amount that is not a decimal makes the answer a
 * `GatewayDecodeError` (the balance cannot be known; counted as zero it would show a wrong one).
 */
export const sumVaults = (
  items: ReadonlyArray<{
    readonly resource_address: string
    readonly vaults: { readonly items: ReadonlyArray<{ readonly amount: string }> }
  }>
): Either.Either<Record<string, string>, GatewayDecodeError> => {
  const out: Record<string, string> = {}
  for (const [i, item] of items.entries()) {
    let total = BigDecimal.fromBigInt(0n)
    for (const [j, vault] of item.vaults.items.entries()) {
      const amount = parseLooseDecimal(vault.amount)
      if (Option.isNone(amount))
        return Either.left(
          new GatewayDecodeError({
            path: PATH,
            issues: [
              {
                path: `fungible_resources.items.${i}.vaults.items.${j}.amount`,
                message: `Expected a decimal, got ${JSON.stringify(vault.amount.slice(0, 80))}`
              }
            ]
          })
        )
      total = BigDecimal.sum(total, amount.value)
    }
    out[item.resource_address] = formatPlain(total)
  }
  return Either.right(out)
}

/** The fund account's balances as logged: one amount per fungible resource, and whether more pages were left. */
export interface FundAccountBalances {
  readonly amounts: Readonly<Record<string, string>>
  /** The resources the account holds in all, when the Gateway said so. */
  readonly totalCount: number | undefined
  /** True when the Gateway had more pages of resources, which this read does not fetch. */
  readonly firstPageOnly: boolean
}

const parse = (text: string): Option.Option<unknown> => {
  try {
    return Option.some(JSON.parse(text) as unknown)
  } catch {
    return Option.none()
  }
}

/**
 * One `/state/entity/details` request for `address` with the body the Gateway client sends for vault-aggregated
 * details (no ledger-state pin, the client's default opt-ins), with the client's headers and per-request timeout.
 */
export const readFundAccountBalances = (
  config: AppConfigShape,
  address: string
): Effect.Effect<FundAccountBalances, GatewayError | UnknownNetworkError, ApiHttp> =>
  Effect.gen(function* () {
    const gateway = yield* resolveGatewayConfig(gatewayConfigOf(config))
    const http = yield* ApiHttp
    const body = JSON.stringify({
      addresses: [address],
      aggregation_level: "Vault",
      opt_ins: {
        ancestor_identities: false,
        component_royalty_vault_balance: false,
        package_royalty_vault_balance: false,
        non_fungible_include_nfids: true,
        explicit_metadata: [],
        dapp_two_way_links: false,
        native_resource_details: false
      }
    })
    const answer = yield* http
      .send({
        method: "POST",
        url: gateway.basePath + PATH,
        body,
        headers: gateway.headers,
        credentials: "same-origin"
      })
      .pipe(
        Effect.mapError((e) => new GatewayTransportError({ path: PATH, reason: e.reason, cause: e })),
        Effect.timeoutFail({
          duration: gateway.timeout,
          onTimeout: () => new GatewayTimeoutError({ path: PATH, timeoutMillis: Duration.toMillis(gateway.timeout) })
        })
      )
    const json = parse(answer.text)
    if (answer.status < 200 || answer.status > 299) {
      const { ErrorResponse, GatewayResponseError } = yield* Effect.tryPromise({
        try: () => import("../../gateway/errors"),
        catch: (cause) => clientNotLoaded(PATH, cause)
      })
      const errorResponse = Option.flatMap(json, Schema.decodeUnknownOption(ErrorResponse))
      return yield* new GatewayResponseError({
        path: PATH,
        status: answer.status,
        body: answer.text,
        ...(Option.isSome(errorResponse) ? { errorResponse: errorResponse.value } : {})
      })
    }
    if (Option.isNone(json))
      return yield* new GatewayDecodeError({
        path: PATH,
        issues: [{ path: "", message: `body is not valid JSON (${answer.text.length} bytes)` }]
      })
    const decoded = decodeDetails(json.value)
    if (decoded._tag === "Left")
      return yield* new GatewayDecodeError({
        path: PATH,
        issues: ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((issue) => ({
          path: issue.path.map(String).join("."),
          message: issue.message
        }))
      })
    const entity = decoded.right.items.find((item) => item.address === address)
    const fungibles = entity?.fungible_resources
    return {
      amounts: yield* sumVaults(fungibles?.items ?? []),
      totalCount: fungibles?.total_count,
      firstPageOnly: fungibles?.next_cursor !== undefined
    }
  })
