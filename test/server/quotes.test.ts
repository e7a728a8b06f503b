/**
 * Binding quotes.
 *
 * - Unit, on TestClock: `GET /api/liveprice` issues and stores a quote on exactly the terms it returns; references
 *   are signed and verified; the secret is generated once per database; claims are a compare-and-set; unused quotes
 *   are pruned an hour after expiry.
 * - On the devnet ledger: deposits naming a quote are paid exactly the quote, or refunded in full, with exact balances.
 *   Prices are moved by hand (`PriceFeed.manual`); a quote "issued in the past" is issued by the server itself on a
 *   Clock set back, so expiry needs no sleep. Only the restart case waits for a real 2 s quote to expire.
 */
import { FetchHttpClient } from "@effect/platform"
import { it } from "@effect/vitest"
import { SqlError } from "@effect/sql"
import { BigDecimal, Clock, Duration, Effect, Layer, Logger, Option, Schema, TestClock } from "effect"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it as vit } from "vitest"
import { QUOTE_ID_PATTERN, TransactionRecord } from "../../src/exchange/api"
import { formatPlain, parseLooseDecimal } from "../../src/lib/decimalText"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { quotedOutput, swapMessage } from "../../src/exchange/swap"
import { Gateway } from "../../src/gateway/index"
import {
  Db,
  DbLive,
  type ExchangeServer,
  PriceFeed,
  QUOTE_REUSED,
  QUOTE_SECRET_KEY,
  QUOTE_TAMPERED,
  QUOTE_UNKNOWN,
  Quotes,
  ServerConfig,
  type ServerConfigShape,
  Signer,
  WATCHER_POSITION_KEY,
  exchangeServerLayer,
  handleApi,
  makeServerConfig,
  quoteExpiredBelowMinimum,
  quoteOtherPair,
  signQuoteRef,
  verifyQuoteRef
} from "../../src/server/index"
import { bindsAt, quotedTerms } from "../../src/server/Quotes"
import { type Devnet, balance, eventually, startLedger, startServer, tempDir, transfer } from "./harness"
import { receivedSwap } from "./stores"

const { hUSDC, hETH, hBTC } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount
const REFERENCE_PRICES = { XRD: "0.02", hUSDC: "1", hUSDT: "1", hETH: "3000", hBTC: "60000" } as const
const SECRET = "test-quote-secret-0123456789abcdef"

const dec = (s: string) => Option.getOrThrow(parseLooseDecimal(s))
const delta = (before: string, after: string) => formatPlain(BigDecimal.subtract(dec(after), dec(before)))
const plus = (a: string, b: string) => formatPlain(BigDecimal.sum(dec(a), dec(b)))

type Json = Record<string, unknown>

// ---------------------------------------------------------------------------------------------------------------
// Unit: handleApi and the Quotes service on TestClock, with an in-memory database and no ledger.

const gatewayDown = Gateway.layer({
  basePath: "http://gateway.test",
  applicationName: "hswap-test",
  retry: { retries: 0 }
}).pipe(
  Layer.provide(
    FetchHttpClient.layer.pipe(
      Layer.provide(Layer.succeed(FetchHttpClient.Fetch, () => Promise.resolve(new Response("{}", { status: 503 }))))
    )
  ),
  Layer.orDie
)

const unitConfig = (overrides: Partial<ServerConfigShape> = {}) =>
  makeServerConfig({ networkId: 240, exchangeAccount: exchange, rateLimitPerMinute: 0, ...overrides })

const unitServer = (
  overrides: Partial<ServerConfigShape> = {},
  feed = PriceFeed.manual(REFERENCE_PRICES),
  dbFile = ":memory:"
) =>
  exchangeServerLayer({
    config: unitConfig(overrides),
    gateway: gatewayDown,
    db: DbLive.sqlite(dbFile),
    signer: Signer.layer({
      networkId: 240,
      account: exchange,
      privateKeyHex: "00".repeat(32),
      feeLockXrd: "3",
      epochWindow: 10
    }),
    prices: feed.layer,
    watcher: false
  })

const quotesOnly = (overrides: Partial<ServerConfigShape>, dbFile: string) =>
  Quotes.Default.pipe(Layer.provideMerge(Layer.merge(ServerConfig.layer(unitConfig(overrides)), DbLive.sqlite(dbFile))))

const livePriceOf = (from: string, to: string) =>
  Effect.map(handleApi({ method: "GET", path: `/liveprice/${from}/${to}`, ip: "127.0.0.1", body: undefined }), (r) => ({
    status: r.status,
    json: r.json as Json
  }))

const TERMS = {
  symbolIn: "hUSDC",
  symbolOut: "hETH",
  rate: "0.000333",
  feeOut: "0.000033333333333334",
  minIn: "1",
  maxIn: "200",
  priceIn: "1",
  priceOut: "3000"
}

describe("issuing quotes (GET /api/liveprice)", () => {
  it.effect("returns the price as before plus a quote, and stores exactly the returned terms", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1_800_000_000_500)
      const live = yield* livePriceOf(hUSDC, hETH)
      expect(live.status).toBe(200)
      expect(live.json).toEqual({
        in_symbol: "hUSDC",
        out_symbol: "hETH",
        effective_rate: "0.000333",
        min_amount_in: "1",
        max_amount_in: "200",
        quote_id: expect.stringMatching(QUOTE_ID_PATTERN),
        // issued at …000.5 s, binding for 120 s: the expiry in whole seconds, never later than the stored one.
        quote_expires_at: 1_800_000_120,
        quote_valid_seconds: 120,
        fee_out: "0.000033333333333334",
        atomic: true
      })
      const stored = yield* Effect.flatMap(Db, (db) => db.getQuote(String(live.json["quote_id"])))
      expect(Option.getOrThrow(stored)).toEqual({
        id: live.json["quote_id"],
        symbol_in: "hUSDC",
        symbol_out: "hETH",
        rate: "0.000333",
        fee_out: "0.000033333333333334",
        min_in: "1",
        max_in: "200",
        price_in: "1",
        price_out: "3000",
        issued_ms: 1_800_000_000_500,
        expires_ms: 1_800_000_120_500,
        used_by: null
      })
      // hBTC has 8 decimals: 0.10 / 60000 = 0.0000016666… is rounded up.
      const btc = yield* livePriceOf(hUSDC, hBTC)
      expect(btc.json).toMatchObject({ effective_rate: "0.00001665", fee_out: "0.00000167" })
      const back = yield* livePriceOf(hETH, hUSDC)
      expect(back.json).toMatchObject({ effective_rate: "2997", fee_out: "0.1", min_amount_in: "0.000333333333333334" })
      expect(back.json["quote_id"]).not.toBe(live.json["quote_id"])
    }).pipe(Effect.provide(unitServer()))
  )

  it.effect("binds for the configured time", () =>
    Effect.gen(function* () {
      const live = yield* livePriceOf(hUSDC, hETH)
      expect(live.json).toMatchObject({ quote_valid_seconds: 30, quote_expires_at: 30 })
    }).pipe(Effect.provide(unitServer({ quoteTtl: Duration.seconds(30) })))
  )

  it.effect("issues no quote without a price, for a route outside the table, or for a bad address", () => {
    const feed = PriceFeed.manual(REFERENCE_PRICES)
    return Effect.gen(function* () {
      yield* feed.set({ hETH: null })
      const stale = yield* livePriceOf(hUSDC, hETH)
      expect([stale.status, stale.json]).toEqual([
        503,
        { error: "Price not available", message: "Price not available" }
      ])
      const forbidden = yield* livePriceOf(hETH, hBTC)
      expect(forbidden.json).toEqual({ in_symbol: "hETH", out_symbol: "hBTC", error: "Route not available" })
      expect((yield* livePriceOf("resource_loc1nope", hUSDC)).status).toBe(400)
      // None of those stored a quote: once the next one is over an hour past expiry, a prune finds exactly one.
      yield* feed.set({ hETH: "3000" })
      expect((yield* livePriceOf(hUSDC, hETH)).status).toBe(200)
      yield* TestClock.adjust(Duration.sum(Duration.seconds(120), Duration.hours(1)))
      expect(
        yield* Effect.flatMap(Quotes, (q) => Effect.flatMap(Clock.currentTimeMillis, (now) => q.prune(now + 1)))
      ).toBe(1)
    }).pipe(Effect.provide(unitServer({}, feed)))
  })

  it.effect("answers 503 and logs the cause when the quote cannot be stored (no unbound price is handed out)", () => {
    const logged: Array<string> = []
    const failingStore = Layer.effect(
      Db,
      Effect.map(Db, (db) =>
        Db.make({ ...db, insertQuote: () => Effect.fail(new SqlError.SqlError({ message: "disk I/O error" })) })
      )
    ).pipe(Layer.provide(DbLive.sqlite(":memory:")))
    const layer = exchangeServerLayer({
      config: unitConfig(),
      gateway: gatewayDown,
      db: failingStore,
      signer: Signer.layer({
        networkId: 240,
        account: exchange,
        privateKeyHex: "00".repeat(32),
        feeLockXrd: "3",
        epochWindow: 10
      }),
      prices: PriceFeed.manual(REFERENCE_PRICES).layer,
      watcher: false
    })
    const capture = Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ logLevel, message }) => logged.push(`${logLevel.label} ${String(message)}`))
    )
    return Effect.gen(function* () {
      const live = yield* livePriceOf(hUSDC, hETH)
      expect([live.status, live.json]).toEqual([503, { error: "Quote not available", message: "Quote not available" }])
      expect(
        logged.some((l) => l.startsWith("ERROR") && l.includes("hUSDC -> hETH: the quote could not be stored"))
      ).toBe(true)
    }).pipe(Effect.provide(layer), Effect.provide(capture))
  })
})

describe("quote references", () => {
  const secret = Buffer.from(SECRET, "utf8")

  vit("are q{random}.{MAC}: the MAC verifies, any change to either part does not", () => {
    const ref = signQuoteRef(secret, "qAbCdEfGhIjKlMnOp")
    expect(ref).toMatch(QUOTE_ID_PATTERN)
    expect(verifyQuoteRef(secret, ref)).toBe(true)
    const [body = "", mac = ""] = ref.split(".")
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1)
    expect(verifyQuoteRef(secret, `${flip(body, 3)}.${mac}`)).toBe(false)
    expect(verifyQuoteRef(secret, `${body}.${flip(mac, 5)}`)).toBe(false)
    expect(verifyQuoteRef(secret, `${body}.${mac.slice(0, -1)}`)).toBe(false)
    expect(verifyQuoteRef(Buffer.from("another secret, also long enough!!", "utf8"), ref)).toBe(false)
    expect(verifyQuoteRef(secret, "hello")).toBe(false)
    expect(verifyQuoteRef(secret, `${ref} `)).toBe(false)
  })

  it.effect("lookup: ours and stored is Found; ours but never stored is Unknown; anything else is Tampered", () =>
    Effect.gen(function* () {
      const quotes = yield* Quotes
      const issued = yield* quotes.issue(TERMS)
      expect(yield* quotes.lookup(issued.id)).toMatchObject({
        _tag: "Found",
        quote: { id: issued.id, rate: "0.000333" }
      })
      expect(yield* quotes.lookup(signQuoteRef(secret, "qNeverIssued00000"))).toEqual({ _tag: "Unknown" })
      expect(yield* quotes.lookup(`${issued.id.slice(0, -2)}xx`)).toEqual({ _tag: "Tampered" })
      expect(yield* quotes.lookup("<script>alert(1)</script>")).toEqual({ _tag: "Tampered" })
    }).pipe(Effect.provide(quotesOnly({ quoteSecret: SECRET }, ":memory:")))
  )

  it.effect("without a configured secret, one is generated once per database and every process uses it", () => {
    const tmp = tempDir()
    const file = join(tmp.dir, "exchange.sqlite")
    return Effect.gen(function* () {
      const a = yield* Effect.provide(
        Effect.flatMap(Quotes, (q) => q.issue(TERMS)),
        quotesOnly({}, file)
      )
      const [b, stored] = yield* Effect.provide(
        Effect.all([
          Effect.flatMap(Quotes, (q) => q.lookup(a.id)),
          Effect.flatMap(Db, (db) => db.getKv(QUOTE_SECRET_KEY))
        ]),
        quotesOnly({}, file)
      )
      expect(b._tag).toBe("Found")
      expect(Option.getOrThrow(stored)).toMatch(/^[0-9a-f]{64}$/)
      expect(verifyQuoteRef(Buffer.from(Option.getOrThrow(stored), "hex"), a.id)).toBe(true)
      // A configured secret replaces it: the stored quote no longer verifies.
      const c = yield* Effect.provide(
        Effect.flatMap(Quotes, (q) => q.lookup(a.id)),
        quotesOnly({ quoteSecret: SECRET }, file)
      )
      expect(c).toEqual({ _tag: "Tampered" })
    }).pipe(Effect.ensuring(Effect.sync(tmp.remove)))
  })
})

describe("claims and pruning", () => {
  it.effect("a quote is claimed by one deposit; the same deposit may claim it again", () =>
    Effect.gen(function* () {
      const quotes = yield* Quotes
      const { id } = yield* quotes.issue(TERMS)
      expect(yield* quotes.claim(id, "txid_a")).toBe(true)
      expect(yield* quotes.claim(id, "txid_a")).toBe(true)
      expect(yield* quotes.claim(id, "txid_b")).toBe(false)
      expect(yield* quotes.claim("qNoSuchQuote0000.xxxxxxxxxxxx", "txid_a")).toBe(false)
      const stored = yield* Effect.flatMap(Db, (db) => db.getQuote(id))
      expect(Option.getOrThrow(stored).used_by).toBe("txid_a")
    }).pipe(Effect.provide(quotesOnly({}, ":memory:")))
  )

  it.effect("unclaimed quotes go an hour after they expired; claimed ones and ones a swap names stay", () =>
    Effect.gen(function* () {
      const quotes = yield* Quotes
      const db = yield* Db
      const unused = yield* quotes.issue(TERMS)
      const claimed = yield* quotes.issue(TERMS)
      const named = yield* quotes.issue(TERMS)
      yield* quotes.claim(claimed.id, "txid_claimed")
      yield* db.insertReceived(receivedSwap("txid_named", named.id))
      yield* TestClock.adjust("60 seconds")
      const later = yield* quotes.issue(TERMS)
      const prune = Effect.flatMap(Clock.currentTimeMillis, (now) => quotes.prune(now))
      // 120 s of validity and an hour after: not yet.
      yield* TestClock.adjust(Duration.sum(Duration.seconds(60), Duration.hours(1)))
      expect(yield* prune).toBe(0)
      yield* TestClock.adjust("1 millis")
      expect(yield* prune).toBe(1)
      const present = (id: string) => Effect.map(db.getQuote(id), Option.isSome)
      expect(yield* present(unused.id)).toBe(false)
      expect(yield* present(claimed.id)).toBe(true)
      expect(yield* present(named.id)).toBe(true)
      expect(yield* present(later.id)).toBe(true)
      yield* TestClock.adjust("60 seconds")
      expect(yield* prune).toBe(1)
      expect(yield* present(later.id)).toBe(false)
    }).pipe(Effect.provide(quotesOnly({}, ":memory:")))
  )
})

describe("the quote's rules", () => {
  vit("promises quotedOutput at the quote's rate and fee, and 99% of it as the minimum", () => {
    const quote = { rate: "0.000333", fee_out: "0.000033333333333334" }
    expect(quotedTerms("100", quote, 18)).toEqual({ quoted: "0.033266666666666666", minimum: "0.032933999999999999" })
    expect(quotedTerms("0.001", { rate: "2997", fee_out: "0.1" }, 6)).toEqual({ quoted: "2.897", minimum: "2.86803" })
    expect(quotedTerms("0.00001", { rate: "2997", fee_out: "0.1" }, 6)).toEqual({ quoted: "0", minimum: "0" })
    expect(quotedTerms("100", { rate: "nonsense", fee_out: "0.1" }, 6)).toBeUndefined()
  })

  vit("binds a deposit committed at or before the expiry, not after, and not one of unknown time", () => {
    expect(bindsAt({ expires_ms: 1000 }, 999)).toBe(true)
    expect(bindsAt({ expires_ms: 1000 }, 1000)).toBe(true)
    expect(bindsAt({ expires_ms: 1000 }, 1001)).toBe(false)
    expect(bindsAt({ expires_ms: 1000 }, null)).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// On the devnet ledger: real deposits naming quotes, settled and paid (or refunded) on the same ledger.

const SITE = "hswap.app"

const post = async (server: ExchangeServer, txHash: string) => {
  const r = await server.request({ method: "POST", path: `/swap/${txHash}`, ip: "127.0.0.1", body: undefined })
  return { status: r.status, json: r.json as Json }
}

const decodeRecord = Schema.decodeUnknownSync(TransactionRecord)

/** The server's live price, on its own clock or on one set `offsetMs` away (a quote issued in the past). */
const livePrice = async (server: ExchangeServer, from: string, to: string, offsetMs = 0) => {
  const base = Clock.make()
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => base.unsafeCurrentTimeMillis() + offsetMs,
    currentTimeMillis: Effect.sync(() => base.unsafeCurrentTimeMillis() + offsetMs),
    unsafeCurrentTimeNanos: () => base.unsafeCurrentTimeNanos() + BigInt(offsetMs) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => base.unsafeCurrentTimeNanos() + BigInt(offsetMs) * 1_000_000n),
    sleep: (d) => base.sleep(d)
  }
  const r = await server.runtime.runPromise(
    handleApi({ method: "GET", path: `/liveprice/${from}/${to}`, ip: "127.0.0.1", body: undefined }).pipe(
      Effect.withClock(clock)
    )
  )
  expect(r.status).toBe(200)
  return r.json as {
    readonly quote_id: string
    readonly quote_expires_at: number
    readonly effective_rate: string
    readonly fee_out: string
  }
}

const storedQuote = (server: ExchangeServer, id: string) =>
  server.runtime.runPromise(Effect.flatMap(Db, (db) => db.getQuote(id))).then(Option.getOrThrow)

describe("settling at the quote on the devnet", () => {
  let devnet: Devnet
  let server: ExchangeServer
  const feed = PriceFeed.manual(REFERENCE_PRICES)
  const setPrices = (changes: Readonly<Record<string, string | null>>) => Effect.runPromise(feed.set(changes))

  beforeAll(async () => {
    devnet = await startLedger()
    server = await startServer(devnet, undefined, { prices: feed.layer, quoteSecret: SECRET })
  })
  afterAll(async () => {
    await server.close()
    await devnet.dispose()
  })

  /** Deposits `amount` of `from` (hUSDC by default) with a message naming `route` and the quote; registers it. */
  const swapAtQuote = async (
    userIndex: number,
    quoteRef: string | undefined,
    { amount = "100", resource = hUSDC, route = ["hUSDC", "hETH"] as const as readonly [string, string] } = {}
  ) => {
    const user = devnet.ledger.genesis.users[userIndex] ?? devnet.ledger.genesis.users[0]
    const tx = await transfer(devnet, {
      from: user,
      to: exchange,
      resource,
      amount,
      message: swapMessage(SITE, route[0], route[1], quoteRef)
    })
    const answer = await post(server, tx)
    expect(answer.status).toBe(200)
    return { tx, user, record: decodeRecord(answer.json["transaction"]) }
  }

  const balancesOf = async (account: string) => ({
    usdc: await balance(devnet, account, hUSDC),
    eth: await balance(devnet, account, hETH)
  })

  /** The quote promised 0.033266666666666666 hETH for 100 hUSDC at 3000 USD/hETH (0.0333 − 0.000033333333333334). */
  const QUOTED_100 = "0.033266666666666666"
  const MINIMUM_100 = "0.032933999999999999"

  it.each([
    ["up", "3300"],
    ["down", "2700"]
  ])("pays exactly the quote when the price moved %s after it was issued", async (_, moved) => {
    await setPrices(REFERENCE_PRICES)
    const quote = await livePrice(server, hUSDC, hETH)
    expect(quotedOutput("100", quote.effective_rate, quote.fee_out, 18)).toBe(QUOTED_100)
    await setPrices({ hETH: moved })
    const user = devnet.ledger.genesis.users[0]
    const before = await balancesOf(user.address)
    const exBefore = await balancesOf(exchange)
    const { tx, record } = await swapAtQuote(0, quote.quote_id)
    expect(record).toMatchObject({
      status: "completed",
      amount_in: "100",
      amount_out: QUOTED_100,
      quote_id: quote.quote_id,
      quoted_amount_out: QUOTED_100,
      minimum_received: MINIMUM_100
    })
    expect(record.refund_tx).toBeUndefined()
    const after = await balancesOf(user.address)
    expect(delta(before.eth, after.eth)).toBe(QUOTED_100)
    expect(delta(before.usdc, after.usdc)).toBe("-100")
    const exAfter = await balancesOf(exchange)
    expect(delta(exBefore.eth, exAfter.eth)).toBe(`-${QUOTED_100}`)
    expect(delta(exBefore.usdc, exAfter.usdc)).toBe("100")
    expect((await storedQuote(server, quote.quote_id)).used_by).toBe(tx)
  })

  it("pays the quote with no fresh price at all (the feed went stale after it was issued)", async () => {
    await setPrices(REFERENCE_PRICES)
    const quote = await livePrice(server, hUSDC, hETH)
    await setPrices({ hETH: null, hUSDC: null })
    const user = devnet.ledger.genesis.users[1]
    const before = await balance(devnet, user.address, hETH)
    const { record } = await swapAtQuote(1, quote.quote_id)
    expect(record).toMatchObject({ status: "completed", amount_out: QUOTED_100 })
    expect(delta(before, await balance(devnet, user.address, hETH))).toBe(QUOTED_100)
    await setPrices(REFERENCE_PRICES)
  })

  it("after expiry, pays today's payout when it still reaches the minimum received", async () => {
    await setPrices(REFERENCE_PRICES)
    // Issued ten minutes ago: expired long before the deposit commits.
    const quote = await livePrice(server, hUSDC, hETH, -10 * 60_000)
    expect(quote.quote_expires_at * 1000).toBeLessThan(Date.now())
    await setPrices({ hETH: "3010" })
    const user = devnet.ledger.genesis.users[2]
    const before = await balancesOf(user.address)
    const { record } = await swapAtQuote(2, quote.quote_id)
    // (100 × 0.999 − 0.10) / 3010, truncated: below the quote's 0.0332666…, above its minimum 0.032933999….
    const today = "0.033156146179401993"
    expect(record).toMatchObject({
      status: "completed",
      amount_out: today,
      quoted_amount_out: QUOTED_100,
      minimum_received: MINIMUM_100
    })
    const after = await balancesOf(user.address)
    expect(delta(before.eth, after.eth)).toBe(today)
    expect(delta(before.usdc, after.usdc)).toBe("-100")
  })

  it("after expiry, refunds in full when today's payout is below the minimum received", async () => {
    await setPrices(REFERENCE_PRICES)
    const quote = await livePrice(server, hUSDC, hETH, -10 * 60_000)
    await setPrices({ hETH: "3100" })
    const user = devnet.ledger.genesis.users[0]
    const before = await balancesOf(user.address)
    const exBefore = await balancesOf(exchange)
    const { record } = await swapAtQuote(0, quote.quote_id)
    expect(record).toMatchObject({
      status: "canceled",
      amount_out: "100",
      asset_out: "hUSDC",
      quoted_amount_out: QUOTED_100,
      minimum_received: MINIMUM_100,
      message: `${quoteExpiredBelowMinimum(MINIMUM_100, "0.032193548387096774", "hETH")} Refunded 100 hUSDC.`
    })
    expect(record.message).toBe(
      "The quote expired before the deposit committed and the rate moved below the minimum received (0.032933999999999999 hETH): it now gives 0.032193548387096774 hETH. Refunded 100 hUSDC."
    )
    expect(record.refund_tx).toMatch(/^txid_loc1/)
    expect(record.refund_tx).toBe(record.tx_out)
    expect(await balancesOf(user.address)).toEqual(before)
    expect(await balancesOf(exchange)).toEqual(exBefore)
    await setPrices(REFERENCE_PRICES)
  })

  const refundedWith = async (
    userIndex: number,
    quoteRef: string,
    message: string,
    options?: Parameters<typeof swapAtQuote>[2]
  ) => {
    const user = devnet.ledger.genesis.users[userIndex] ?? devnet.ledger.genesis.users[0]
    const before = await balancesOf(user.address)
    const exBefore = await balancesOf(exchange)
    const { record } = await swapAtQuote(userIndex, quoteRef, options)
    expect(record).toMatchObject({ status: "canceled", message, quote_id: quoteRef })
    expect(record.refund_tx).toMatch(/^txid_loc1/)
    expect(await balancesOf(user.address)).toEqual(before)
    expect(await balancesOf(exchange)).toEqual(exBefore)
    return record
  }

  it("refunds a deposit whose quote reference was altered", async () => {
    const quote = await livePrice(server, hUSDC, hETH)
    const altered = `${quote.quote_id.slice(0, -1)}${quote.quote_id.endsWith("A") ? "B" : "A"}`
    await refundedWith(1, altered, `${QUOTE_TAMPERED} Refunded 100 hUSDC.`)
    // A reference that is not even shaped like one is refused the same way.
    await refundedWith(1, "<b>free-money</b>", `${QUOTE_TAMPERED} Refunded 100 hUSDC.`)
    // The genuine quote was not touched by either.
    expect((await storedQuote(server, quote.quote_id)).used_by).toBeNull()
  })

  it("refunds a deposit naming a well-signed quote this exchange never issued", async () => {
    const forged = signQuoteRef(Buffer.from(SECRET, "utf8"), "qNeverIssuedHere0")
    const record = await refundedWith(2, forged, `${QUOTE_UNKNOWN} Refunded 100 hUSDC.`)
    expect(record.quoted_amount_out).toBeUndefined()
  })

  it("refunds a deposit whose quote is for another pair, naming both", async () => {
    const quote = await livePrice(server, hUSDC, hBTC)
    await refundedWith(0, quote.quote_id, `${quoteOtherPair("hUSDC -> hBTC", "hUSDC -> hETH")} Refunded 100 hUSDC.`)
    expect((await storedQuote(server, quote.quote_id)).used_by).toBeNull()
    // A quote for the message's pair, with another token deposited.
    const ethQuote = await livePrice(server, hETH, hUSDC)
    const user = devnet.ledger.genesis.users[0]
    const before = await balancesOf(user.address)
    const { record } = await swapAtQuote(0, ethQuote.quote_id, { route: ["hETH", "hUSDC"] })
    expect(record.message).toBe(
      `${quoteOtherPair("hETH -> hUSDC", "hUSDC (its message names hETH -> hUSDC)")} Refunded 100 hUSDC.`
    )
    expect(await balancesOf(user.address)).toEqual(before)
  })

  it("pays one of two deposits naming the same quote and refunds the other", async () => {
    await setPrices(REFERENCE_PRICES)
    const quote = await livePrice(server, hUSDC, hETH)
    const [a, b] = devnet.ledger.genesis.users
    const before = [await balancesOf(a.address), await balancesOf(b.address)]
    const exBefore = await balancesOf(exchange)
    const message = swapMessage(SITE, "hUSDC", "hETH", quote.quote_id)
    const txA = await transfer(devnet, { from: a, to: exchange, resource: hUSDC, amount: "100", message })
    const txB = await transfer(devnet, { from: b, to: exchange, resource: hUSDC, amount: "100", message })
    const answers = await Promise.all([post(server, txA), post(server, txB)])
    const records = answers.map((r) => decodeRecord(r.json["transaction"]))
    expect(records.map((r) => r.status).sort()).toEqual(["canceled", "completed"])
    const paid = records.findIndex((r) => r.status === "completed")
    const refunded = 1 - paid
    expect(records[paid]).toMatchObject({ amount_out: QUOTED_100, quote_id: quote.quote_id })
    expect(records[refunded]).toMatchObject({ message: `${QUOTE_REUSED} Refunded 100 hUSDC.`, amount_out: "100" })
    expect((await storedQuote(server, quote.quote_id)).used_by).toBe([txA, txB][paid])
    const after = [await balancesOf(a.address), await balancesOf(b.address)]
    expect(delta(before[paid]?.eth ?? "", after[paid]?.eth ?? "")).toBe(QUOTED_100)
    expect(delta(before[paid]?.usdc ?? "", after[paid]?.usdc ?? "")).toBe("-100")
    expect(after[refunded]).toEqual(before[refunded])
    const exAfter = await balancesOf(exchange)
    expect(delta(exBefore.eth, exAfter.eth)).toBe(`-${QUOTED_100}`)
    expect(delta(exBefore.usdc, exAfter.usdc)).toBe("100")
    // Registering the paid one again changes nothing: its claim holds, nothing more is paid.
    const again = await post(server, [txA, txB][paid] ?? "")
    expect(decodeRecord(again.json["transaction"]).status).toBe("completed")
    expect(await balancesOf(exchange)).toEqual(exAfter)
  })

  it("refunds an amount outside the quote's limits", async () => {
    const quote = await livePrice(server, hUSDC, hETH)
    await refundedWith(
      2,
      quote.quote_id,
      "The amount 250 hUSDC is outside the limits (1 to 200 hUSDC) Refunded 250 hUSDC.",
      { amount: "250" }
    )
  })

  it("settles a deposit without a quote exactly as before", async () => {
    await setPrices({ hETH: "3300" })
    const user = devnet.ledger.genesis.users[1]
    const before = await balance(devnet, user.address, hETH)
    const { record } = await swapAtQuote(1, undefined)
    // (100 × 0.999 − 0.10) / 3300 at today's price.
    expect(record).toMatchObject({ status: "completed", amount_out: "0.030242424242424242" })
    expect(record.quote_id).toBeUndefined()
    expect(record.quoted_amount_out).toBeUndefined()
    expect(delta(before, await balance(devnet, user.address, hETH))).toBe("0.030242424242424242")
    await setPrices(REFERENCE_PRICES)
  })

  it("the watcher prunes an unused quote that expired over an hour ago, and keeps a fresh one", async () => {
    const old = await livePrice(server, hUSDC, hETH, -2 * 3_600_000)
    const fresh = await livePrice(server, hUSDC, hETH)
    await eventually(async () =>
      Option.isNone(await server.runtime.runPromise(Effect.flatMap(Db, (db) => db.getQuote(old.quote_id))))
        ? true
        : undefined
    )
    expect((await storedQuote(server, fresh.quote_id)).used_by).toBeNull()
  })
})

describe("a restart between the deposit and the payout", () => {
  vit(
    "honours the quote by the deposit's commit time, after the quote expired and the price fell",
    async () => {
      const devnet = await startLedger()
      const tmp = tempDir()
      try {
        const first = await startServer(devnet, tmp.dir, {
          prices: PriceFeed.manual(REFERENCE_PRICES).layer,
          quoteTtlSeconds: 2,
          // One pass at start (it records the ledger tip), then none for the rest of the test.
          watcherPollMs: 3_600_000
        })
        await eventually(async () =>
          Option.getOrUndefined(
            await first.runtime.runPromise(Effect.flatMap(Db, (db) => db.getKv(WATCHER_POSITION_KEY)))
          )
        )
        const quote = await livePrice(first, hUSDC, hETH)
        const user = devnet.ledger.genesis.users[0]
        const before = await balancesOfLedger(devnet, user.address)
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: hUSDC,
          amount: "100",
          message: swapMessage(SITE, "hUSDC", "hETH", quote.quote_id)
        })
        // The server goes down before it saw the deposit.
        await first.close()
        const committed = await devnet.run(devnet.ledger.committedTransaction(tx))
        const committedMs = committed._tag === "Some" ? Date.parse(committed.value.roundTimestamp) : Number.NaN
        expect(committedMs).toBeLessThanOrEqual(quote.quote_expires_at * 1000)
        // It comes back after the quote expired, with hETH up 10%: today's payout (0.0302424…) is below the minimum.
        await new Promise((resolve) =>
          setTimeout(resolve, Math.max(0, quote.quote_expires_at * 1000 + 1_200 - Date.now()))
        )
        const second = await startServer(devnet, tmp.dir, {
          prices: PriceFeed.manual({ ...REFERENCE_PRICES, hETH: "3300" }).layer,
          quoteTtlSeconds: 2
        })
        try {
          const record = await eventually(async () => {
            const r = await second.request({
              method: "GET",
              path: `/transactions/${user.address}`,
              ip: "127.0.0.1",
              body: undefined
            })
            const found = (r.json as { transactions: ReadonlyArray<Json> }).transactions.find((t) => t["tx_in"] === tx)
            return found !== undefined && found["status"] !== "pending" ? decodeRecord(found) : undefined
          })
          expect(Date.now()).toBeGreaterThan(quote.quote_expires_at * 1000)
          expect(record).toMatchObject({
            status: "completed",
            amount_out: QUOTED_100_AT_3000,
            quoted_amount_out: QUOTED_100_AT_3000
          })
          const after = await balancesOfLedger(devnet, user.address)
          expect(delta(before.eth, after.eth)).toBe(QUOTED_100_AT_3000)
          expect(delta(before.usdc, after.usdc)).toBe("-100")
          expect(plus(before.eth, QUOTED_100_AT_3000)).toBe(after.eth)
        } finally {
          await second.close()
        }
      } finally {
        await devnet.dispose()
        tmp.remove()
      }
    },
    20_000
  )
})

const QUOTED_100_AT_3000 = "0.033266666666666666"

const balancesOfLedger = async (devnet: Devnet, account: string) => ({
  usdc: await balance(devnet, account, hUSDC),
  eth: await balance(devnet, account, hETH)
})
