import { Context, Either, Layer, ParseResult, Schema } from "effect"
import { DevnetAddresses } from "../../exchange/devnet-addresses"
import { MainnetResources } from "../../exchange/mainnet-addresses"
import { BrandDefaults, brandNameFrom } from "../brand"
import { isAddressOn, KnownNetworks } from "./networks"

export interface Brand {
  readonly name: string
  readonly website: string
  readonly microblogUrl: string
  readonly messagingBotUrl: string
  readonly messagePrefix: string
}

export interface AppConfigShape {
  readonly networkId: number
  readonly gatewayUrl: string
  readonly dashboardUrl: string
  /** `{api}`: the exchange API base; empty means the app's own origin. */
  readonly apiBase: string
  /** The Radix Connect relay's base URL, without `/api/v1`. */
  readonly relayUrl: string
  readonly dAppDefinitionAddress: string
  readonly exchangeAccount: string
  readonly fundAccount: string
  readonly gksResource: string
  readonly validatorAddress: string | undefined
  /** The trading partner's embeddable interface (aggregator iframe); undefined when none is configured. */
  readonly tradingUrl: string | undefined
  /** Resource address by token symbol (XRD, hUSDC, hETH, hBTC, …) on this network. */
  readonly tokenResources: Readonly<Record<string, string>>
  readonly brand: Brand
  /**
   * Where the 404 page goes after its 5 s countdown: VITE_NOT_FOUND_REDIRECT, else `/` on the devnet (which has no
   * internet) and the brand's website on any other network.
   */
  readonly notFoundRedirect: string
}

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  variable: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `Invalid configuration: ${this.variable} ${this.reason}`
  }
}

export class AppConfig extends Context.Tag("hswap/AppConfig")<AppConfig, AppConfigShape>() {
  static readonly layer = (config: AppConfigShape): Layer.Layer<AppConfig> => Layer.succeed(AppConfig, config)
}

export type Env = Readonly<Record<string, string | boolean | undefined>>

const NetworkId = Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 255))
const UrlOrPath = Schema.String.pipe(
  Schema.filter((s) => /^https?:\/\/[^\s/]+(\/\S*)?$/.test(s) || /^\/\S*$/.test(s) || s === "", {
    message: () => "must be an http(s) URL or a path starting with '/'"
  })
)
const HttpUrl = Schema.String.pipe(
  Schema.filter((s) => /^https?:\/\/[^\s/]+(\/\S*)?$/.test(s), { message: () => "must be an http(s) URL" })
)
const Text = Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }))

const read = (env: Env, variable: string): string | undefined => {
  const value = env[variable]
  if (typeof value !== "string") return undefined
  const trimmed = value.trim()
  return trimmed === "" ? undefined : trimmed
}

const decodeVar = <A>(schema: Schema.Schema<A, string>, env: Env, variable: string, fallback: string | undefined) => {
  const raw = read(env, variable) ?? fallback
  if (raw === undefined) return Either.left(new ConfigError({ variable, reason: "is required for this network" }))
  return Schema.decodeEither(schema)(raw).pipe(
    Either.mapLeft(
      (e) =>
        new ConfigError({
          variable,
          reason: `is invalid (${JSON.stringify(raw)}): ${ParseResult.ArrayFormatter.formatErrorSync(e)
            .map((i) => i.message)
            .join("; ")}`
        })
    )
  )
}

const addressVar = (env: Env, variable: string, entity: string, networkId: number, fallback: string | undefined) =>
  Either.flatMap(decodeVar(Text, env, variable, fallback), (address) =>
    isAddressOn(address, entity, networkId)
      ? Either.right(address)
      : Either.left(
          new ConfigError({
            variable,
            reason: `is not ${/^[aeiou]/.test(entity) ? "an" : "a"} ${entity} address on network ${networkId} (${JSON.stringify(address)})`
          })
        )
  )

/**
 * Decodes the app configuration from `VITE_*` variables. Everything defaults to the devnet (network 240, served on
 * the app's own origin); any other network must name its addresses, and a bad value fails naming the variable.
 */
export const decodeAppConfig = (env: Env): Either.Either<AppConfigShape, ConfigError> =>
  Either.gen(function* () {
    const networkId = yield* decodeVar(NetworkId, env, "VITE_NETWORK_ID", String(DevnetAddresses.networkId))
    const isDevnet = networkId === DevnetAddresses.networkId
    const known = KnownNetworks[networkId]
    const devnet = <A>(value: A): A | undefined => (isDevnet ? value : undefined)
    const gatewayUrl = yield* decodeVar(UrlOrPath, env, "VITE_GATEWAY_URL", known?.gatewayUrl)
    const dashboardUrl = yield* decodeVar(UrlOrPath, env, "VITE_DASHBOARD_URL", known?.dashboardUrl)
    const apiBase =
      read(env, "VITE_API_BASE") === undefined ? "" : yield* decodeVar(UrlOrPath, env, "VITE_API_BASE", "")
    const relayUrl = yield* decodeVar(
      UrlOrPath,
      env,
      "VITE_RELAY_URL",
      isDevnet ? "/relay" : "https://radix-connect-relay.radixdlt.com"
    )
    const account = (variable: string, fallback: string | undefined) =>
      addressVar(env, variable, "account", networkId, fallback)
    const dAppDefinitionAddress = yield* account("VITE_DAPP_DEFINITION_ADDRESS", devnet(DevnetAddresses.dAppDefinition))
    const exchangeAccount = yield* account("VITE_EXCHANGE_ACCOUNT", devnet(DevnetAddresses.exchangeAccount))
    const fundAccount = yield* account("VITE_FUND_ACCOUNT", devnet(DevnetAddresses.fundAccount))
    const gksResource = yield* addressVar(
      env,
      "VITE_GKS_RESOURCE",
      "resource",
      networkId,
      devnet(DevnetAddresses.resources.GKS)
    )
    const validatorAddress =
      read(env, "VITE_VALIDATOR_ADDRESS") === undefined
        ? undefined
        : yield* addressVar(env, "VITE_VALIDATOR_ADDRESS", "validator", networkId, undefined)
    const tradingUrl =
      read(env, "VITE_TRADING_URL") === undefined && !isDevnet
        ? undefined
        : yield* decodeVar(UrlOrPath, env, "VITE_TRADING_URL", "/devnet/trade")
    const tokenResources = yield* decodeTokenResources(env, networkId)
    const brand: Brand = {
      name: brandNameFrom(env),
      website: yield* decodeVar(HttpUrl, env, "VITE_BRAND_WEBSITE", BrandDefaults.website),
      microblogUrl: yield* decodeVar(HttpUrl, env, "VITE_BRAND_MICROBLOG_URL", BrandDefaults.microblogUrl),
      messagingBotUrl: yield* decodeVar(HttpUrl, env, "VITE_BRAND_MESSAGING_BOT_URL", BrandDefaults.messagingBotUrl),
      messagePrefix: yield* decodeVar(Text, env, "VITE_BRAND_MESSAGE_PREFIX", BrandDefaults.messagePrefix)
    }
    const notFoundRedirect = yield* decodeVar(
      UrlOrPath.pipe(Schema.minLength(1, { message: () => "must not be empty" })),
      env,
      "VITE_NOT_FOUND_REDIRECT",
      isDevnet ? "/" : brand.website
    )
    return {
      networkId,
      gatewayUrl: stripSlash(gatewayUrl),
      dashboardUrl: stripSlash(dashboardUrl),
      apiBase: stripSlash(apiBase),
      relayUrl: stripSlash(relayUrl),
      dAppDefinitionAddress,
      exchangeAccount,
      fundAccount,
      gksResource,
      validatorAddress,
      tradingUrl: tradingUrl === undefined ? undefined : stripSlash(tradingUrl),
      tokenResources,
      brand,
      notFoundRedirect
    }
  })

const stripSlash = (url: string) => url.replace(/\/+$/, "")

/** Known token resources per network; VITE_TOKEN_RESOURCES (a JSON object symbol -> address) adds or overrides. */
const DEFAULT_TOKEN_RESOURCES: Readonly<Record<number, Readonly<Record<string, string>>>> = {
  240: {
    XRD: DevnetAddresses.resources.XRD,
    hUSDC: DevnetAddresses.resources.hUSDC,
    hUSDT: DevnetAddresses.resources.hUSDT,
    hETH: DevnetAddresses.resources.hETH,
    hBTC: DevnetAddresses.resources.hBTC,
    hWBTC: DevnetAddresses.resources.hWBTC,
    xUSDC: DevnetAddresses.resources.xUSDC,
    xUSDT: DevnetAddresses.resources.xUSDT,
    xETH: DevnetAddresses.resources.xETH,
    xBTC: DevnetAddresses.resources.xBTC,
    LSULP: DevnetAddresses.resources.LSULP,
    GKS: DevnetAddresses.resources.GKS
  },
  // Mainnet: the Bitcoin hAsset is hWBTC, shown as hBTC.
  1: { ...MainnetResources, hBTC: MainnetResources.hWBTC }
}

const TokenResourcesJson = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))

const decodeTokenResources = (env: Env, networkId: number) =>
  Either.gen(function* () {
    const base = DEFAULT_TOKEN_RESOURCES[networkId] ?? {}
    if (read(env, "VITE_TOKEN_RESOURCES") === undefined) return base
    const extra = yield* decodeVar(TokenResourcesJson, env, "VITE_TOKEN_RESOURCES", undefined)
    for (const [symbol, address] of Object.entries(extra))
      if (!/^[A-Za-z0-9.]{1,16}$/.test(symbol) || !isAddressOn(address, "resource", networkId))
        return yield* Either.left(
          new ConfigError({
            variable: "VITE_TOKEN_RESOURCES",
            reason: `has an invalid entry ${JSON.stringify(symbol)}: ${JSON.stringify(address)} is not a resource address on network ${networkId}`
          })
        )
    return { ...base, ...extra }
  })

export const dashboardLink = (config: AppConfigShape, kind: "account" | "transaction" | "validator", id: string) =>
  `${config.dashboardUrl}/${kind}/${encodeURIComponent(id)}`
