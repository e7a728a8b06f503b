import { createServer } from "node:http"
import { Duration } from "effect"
import { describe, expect, it } from "vitest"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { configFromOptions, startExchangeServer } from "../../src/server/index"
import { keepConnectionsFor, optionsFromEnv } from "../../src/server/main"

describe("npm run server: configuration from the environment", () => {
  it("defaults to the devnet genesis exchange on network 240", async () => {
    const o = await optionsFromEnv({})
    expect(o).toMatchObject({ host: "127.0.0.1", port: 8090 })
    expect(o.server).toMatchObject({
      networkId: 240,
      gatewayUrl: "http://127.0.0.1:8080/gateway",
      exchangeAccount: DevnetAddresses.exchangeAccount,
      databasePath: ".devnet/exchange-standalone.sqlite",
      maintenance: false,
      logLevel: "info"
    })
    expect(o.server.privateKeyHex).toMatch(/^[0-9a-f]{64}$/)
  })

  it("reads every variable", async () => {
    const o = await optionsFromEnv({
      HSWAP_NETWORK_ID: "1",
      HSWAP_EXCHANGE_ACCOUNT: "account_rdx12xsvygvltz4uhsht6tdrfxktzpmnl77r0d40j8agmujgdj022sudkk",
      HSWAP_EXCHANGE_PRIVATE_KEY: "00".repeat(31) + "01",
      HSWAP_DB_PATH: "/var/lib/hswap/x.sqlite",
      HSWAP_PORT: "9000",
      HSWAP_HOST: "0.0.0.0",
      HSWAP_MAINTENANCE: "true",
      HSWAP_RATE_LIMIT: "0",
      HSWAP_TRUSTED_PROXY_HOPS: "1",
      HSWAP_PRICE_SOURCE_URL: "https://prices.example/usd",
      HSWAP_WATCH_FROM_STATE_VERSION: "123",
      HSWAP_LOG_LEVEL: "warning",
      HSWAP_QUOTE_TTL_SECONDS: "45",
      HSWAP_QUOTE_SECRET: "s".repeat(32),
      HSWAP_TOKENS: JSON.stringify([
        { symbol: "hUSDC", resource_address: "resource_rdx1x", decimals: 6, reference_usd: "1" }
      ])
    })
    expect(o).toMatchObject({ host: "0.0.0.0", port: 9000 })
    expect(o.server).toMatchObject({
      networkId: 1,
      gatewayUrl: "https://mainnet.radixdlt.com",
      databasePath: "/var/lib/hswap/x.sqlite",
      maintenance: true,
      rateLimitPerMinute: 0,
      trustedProxyHops: 1,
      priceSourceUrl: "https://prices.example/usd",
      watchFromStateVersion: 123,
      logLevel: "warning",
      quoteTtlSeconds: 45,
      quoteSecret: "s".repeat(32),
      tokens: [
        {
          symbol: "hUSDC",
          name: "hUSDC",
          resourceAddress: "resource_rdx1x",
          decimals: 6,
          referenceUsd: "1",
          volatilityBp: 10,
          logoUrl: ""
        }
      ]
    })
  })

  it("names the variable at fault", async () => {
    await expect(optionsFromEnv({ HSWAP_NETWORK_ID: "1" })).rejects.toThrow("HSWAP_EXCHANGE_ACCOUNT is required")
    await expect(optionsFromEnv({ HSWAP_NETWORK_ID: "99" })).rejects.toThrow(
      "HSWAP_GATEWAY_URL is required for network 99"
    )
    await expect(optionsFromEnv({ HSWAP_EXCHANGE_PRIVATE_KEY: "abc" })).rejects.toThrow("HSWAP_EXCHANGE_PRIVATE_KEY")
    await expect(optionsFromEnv({ HSWAP_RATE_LIMIT: "-1" })).rejects.toThrow("HSWAP_RATE_LIMIT must be a whole number")
    await expect(optionsFromEnv({ HSWAP_TRUSTED_PROXY_HOPS: "many" })).rejects.toThrow("HSWAP_TRUSTED_PROXY_HOPS")
    await expect(optionsFromEnv({ HSWAP_TOKENS: "[{}]" })).rejects.toThrow("HSWAP_TOKENS is not a valid token table")
    await expect(optionsFromEnv({ HSWAP_LOG_LEVEL: "loud" })).rejects.toThrow("HSWAP_LOG_LEVEL")
    for (const ttl of ["0", "9", "3601", "2m", "12.5", "-30"]) {
      await expect(optionsFromEnv({ HSWAP_QUOTE_TTL_SECONDS: ttl })).rejects.toThrow(
        `HSWAP_QUOTE_TTL_SECONDS must be a whole number from 10 to 3600, got ${JSON.stringify(ttl)}`
      )
    }
    await expect(optionsFromEnv({ HSWAP_QUOTE_SECRET: "short" })).rejects.toThrow(
      "HSWAP_QUOTE_SECRET must be at least 32 characters (got 5)"
    )
  })

  it("says exactly what is wrong, never the secret itself, and reads the drain time", async () => {
    const key = "zz".repeat(32)
    const refused = await optionsFromEnv({ HSWAP_EXCHANGE_PRIVATE_KEY: key }).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(refused).toMatchObject({
      _tag: "ConfigError",
      message: "HSWAP_EXCHANGE_PRIVATE_KEY must be the exchange account's Ed25519 private key (64 hex characters)"
    })
    expect(String(refused)).not.toContain(key)
    await expect(optionsFromEnv({ HSWAP_DATABASE_URL: "mysql://x" })).rejects.toThrow(
      "HSWAP_DATABASE_URL must be a postgres:// (or postgresql://) URL"
    )
    await expect(optionsFromEnv({ HSWAP_CORS_ORIGINS: "https://a.example,app.example" })).rejects.toThrow(
      'HSWAP_CORS_ORIGINS lists "app.example", which is not an origin like https://app.example'
    )
    await expect(optionsFromEnv({ HSWAP_DRAIN_SECONDS: "soon" })).rejects.toThrow(
      'HSWAP_DRAIN_SECONDS must be a whole number from 0 to 3600, got "soon"'
    )
    expect((await optionsFromEnv({})).drainSeconds).toBe(10)
    expect((await optionsFromEnv({ HSWAP_DRAIN_SECONDS: "3" })).drainSeconds).toBe(3)
    expect((await optionsFromEnv({})).keepAliveSeconds).toBe(5)
    expect((await optionsFromEnv({ HSWAP_KEEP_ALIVE_SECONDS: "65" })).keepAliveSeconds).toBe(65)
    for (const bad of ["0", "3601", "1.5", "long"]) {
      await expect(optionsFromEnv({ HSWAP_KEEP_ALIVE_SECONDS: bad })).rejects.toThrow(
        `HSWAP_KEEP_ALIVE_SECONDS must be a whole number from 1 to 3600, got ${JSON.stringify(bad)}`
      )
    }
    expect((await optionsFromEnv({ PORT: "9001" })).port).toBe(9001)
    expect((await optionsFromEnv({ HSWAP_CORS_ORIGINS: " * " })).server.corsOrigins).toBe("*")
  })

  it("quotes: 120 s and a generated secret unless set; the bounds are accepted", async () => {
    const o = await optionsFromEnv({})
    expect(o.server.quoteTtlSeconds).toBeUndefined()
    expect(o.server.quoteSecret).toBeUndefined()
    expect(configFromOptions(o.server)).toMatchObject({ quoteTtl: Duration.seconds(120), quoteSecret: undefined })
    const set = await optionsFromEnv({ HSWAP_QUOTE_TTL_SECONDS: "10", HSWAP_QUOTE_SECRET: "" })
    expect(set.server).toMatchObject({ quoteTtlSeconds: 10 })
    expect(set.server.quoteSecret).toBeUndefined()
    expect(configFromOptions(set.server).quoteTtl).toEqual(Duration.seconds(10))
    expect((await optionsFromEnv({ HSWAP_QUOTE_TTL_SECONDS: "3600" })).server.quoteTtlSeconds).toBe(3600)
  })

  it("atomic swaps: on unless HSWAP_ATOMIC=off; any other value is refused by name", async () => {
    const o = await optionsFromEnv({})
    expect(o.server.atomic).toBeUndefined()
    expect(configFromOptions(o.server).atomic).toBe(true)
    expect((await optionsFromEnv({ HSWAP_ATOMIC: "off" })).server.atomic).toBe(false)
    expect(configFromOptions((await optionsFromEnv({ HSWAP_ATOMIC: "OFF" })).server).atomic).toBe(false)
    expect((await optionsFromEnv({ HSWAP_ATOMIC: "on" })).server.atomic).toBe(true)
    expect((await optionsFromEnv({ HSWAP_ATOMIC: "" })).server.atomic).toBeUndefined()
    await expect(optionsFromEnv({ HSWAP_ATOMIC: "0" })).rejects.toThrow('HSWAP_ATOMIC must be on or off, got "0"')
  })

  it("startExchangeServer refuses a quote TTL below a second and a short secret", async () => {
    const base = { ...(await optionsFromEnv({})).server, verifyKey: false, databasePath: ":memory:" }
    await expect(startExchangeServer({ ...base, quoteTtlSeconds: 0.5 })).rejects.toThrow(
      "quoteTtlSeconds must be a whole number of seconds, at least 1, got 0.5"
    )
    await expect(startExchangeServer({ ...base, quoteSecret: "x" })).rejects.toThrow(
      "quoteSecret must be at least 32 characters"
    )
  })

  it("keeps idle connections for the keep-alive time, with the headers timeout a second beyond it", () => {
    const listener = createServer()
    keepConnectionsFor(65)(listener)
    expect(listener.keepAliveTimeout).toBe(65_000)
    expect(listener.headersTimeout).toBe(66_000)
    // A short keep-alive leaves Node's own headers timeout (60 s) as it is.
    const short = createServer()
    keepConnectionsFor(5)(short)
    expect(short.keepAliveTimeout).toBe(5_000)
    expect(short.headersTimeout).toBe(60_000)
  })
})
