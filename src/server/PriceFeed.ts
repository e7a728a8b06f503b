/**
 * `PriceFeed`: USD prices of the quoted tokens. The default source is a simulated feed, a seeded random walk around
 * each token's reference price, stepped every `priceUpdateInterval` (15 s) on the Clock, so the devnet is lively and
 * reproducible. With `priceSourceUrl` set, prices are fetched from that URL on the same cadence instead. A price
 * older than `priceStaleAfter` (60 s) is not fresh and makes its pairs unavailable.
 */
import { HttpClient } from "@effect/platform"
import { BigDecimal, Clock, Context, Duration, Effect, Layer, Option, Ref, Schema } from "effect"
import { decimalFromNumber, divideDown, parseLooseDecimal } from "../lib/decimalText"
import { ServerConfig, type TokenSpec } from "./config"
import { dec } from "./pricing"

export interface PriceQuote {
  readonly symbol: string
  readonly usd: BigDecimal.BigDecimal
  /** When this price was set, in epoch milliseconds on the Clock. */
  readonly updatedAtMs: number
}

export interface PriceFeedShape {
  /** Every symbol's latest price, fresh or not. */
  readonly snapshot: Effect.Effect<ReadonlyMap<string, PriceQuote>>
  /** The price of `symbol` if it is known and fresh. */
  readonly fresh: (symbol: string) => Effect.Effect<Option.Option<PriceQuote>>
  /** Whether a quote is fresh now. */
  readonly isFresh: (quote: PriceQuote) => Effect.Effect<boolean>
}

export class PriceFeed extends Context.Tag("hswap/server/PriceFeed")<PriceFeed, PriceFeedShape>() {
  /** The configured feed (simulated, or HTTP when `priceSourceUrl` is set), updating itself in the layer's scope. */
  static readonly layer: Layer.Layer<PriceFeed, never, ServerConfig | HttpClient.HttpClient> = Layer.scoped(
    PriceFeed,
    Effect.suspend(() => makePriceFeed)
  )

  /** Fixed prices that never go stale (tests of other parts). */
  static readonly fixed = (prices: Readonly<Record<string, string>>): Layer.Layer<PriceFeed> =>
    Layer.succeed(PriceFeed, {
      snapshot: Effect.succeed(
        new Map(Object.entries(prices).map(([symbol, usd]) => [symbol, { symbol, usd: dec(usd), updatedAtMs: 0 }]))
      ),
      fresh: (symbol) =>
        Effect.succeed(
          Option.map(Option.fromNullable(prices[symbol]), (usd) => ({ symbol, usd: dec(usd), updatedAtMs: 0 }))
        ),
      isFresh: () => Effect.succeed(true)
    })

  /**
   * Prices a test moves by hand: `set({ hETH: "3100" })` changes them (for the server at once), `null` makes a
   * symbol's price unavailable (as a stale one). Prices that are set never go stale.
   */
  static readonly manual = (initial: Readonly<Record<string, string>>): ManualPriceFeed => {
    const prices = Ref.unsafeMake<ReadonlyMap<string, PriceQuote>>(
      new Map(Object.entries(initial).map(([symbol, usd]) => [symbol, { symbol, usd: dec(usd), updatedAtMs: 0 }]))
    )
    return {
      layer: Layer.succeed(PriceFeed, {
        snapshot: Ref.get(prices),
        fresh: (symbol) => Effect.map(Ref.get(prices), (all) => Option.fromNullable(all.get(symbol))),
        isFresh: () => Effect.succeed(true)
      }),
      set: (changes) =>
        Ref.update(prices, (old) => {
          const next = new Map(old)
          for (const [symbol, usd] of Object.entries(changes)) {
            if (usd === null) next.delete(symbol)
            else next.set(symbol, { symbol, usd: dec(usd), updatedAtMs: 0 })
          }
          return next
        })
    }
  }
}

/** A price feed moved by hand (tests): see `PriceFeed.manual`. */
export interface ManualPriceFeed {
  readonly layer: Layer.Layer<PriceFeed>
  readonly set: (changes: Readonly<Record<string, string | null>>) => Effect.Effect<void>
}

// ---------------------------------------------------------------------------------------------------------------
// A small seeded PRNG (32-bit multiply-xorshift over an FNV-1a hash of the seed); reproducible, not cryptographic.

const fnv1a = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

export const seededRandom = (seed: string): (() => number) => {
  let state = fnv1a(seed) || 1
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const BP = BigDecimal.fromBigInt(10_000n)

/**
 * One step of the walk: a uniform move of at most `volatilityBp` basis points, pulled back towards the reference by
 * a fiftieth of the current deviation. Exact; kept to 12 decimals and never below a millionth of the reference.
 */
export const walkStep = (
  price: BigDecimal.BigDecimal,
  token: TokenSpec,
  random: () => number
): BigDecimal.BigDecimal => {
  const reference = dec(token.referenceUsd)
  const deviation = BigDecimal.multiply(BigDecimal.subtract(price, reference), BP)
  const deviationBp = BigDecimal.scale(
    Option.getOrThrowWith(
      divideDown(deviation, reference, 0),
      () => new Error(`the reference price of ${token.symbol} is 0`)
    ),
    0
  ).value
  const span = BigInt(Math.max(0, Math.trunc(token.volatilityBp)))
  const move = span === 0n ? 0n : BigInt(Math.floor(random() * Number(2n * span + 1n))) - span
  const stepBp = move - deviationBp / 50n
  const next = BigDecimal.truncate(BigDecimal.multiply(price, BigDecimal.make(10_000n + stepBp, 4)), 12)
  const floor = BigDecimal.truncate(BigDecimal.multiply(reference, BigDecimal.make(1n, 6)), 12)
  return BigDecimal.max(next, floor)
}

const HttpPrices = Schema.Record({ key: Schema.String, value: Schema.Union(Schema.Number, Schema.String) })

const makePriceFeed = Effect.gen(function* () {
  const config = yield* ServerConfig
  const http = yield* HttpClient.HttpClient
  const prices = yield* Ref.make<ReadonlyMap<string, PriceQuote>>(new Map())
  const staleMs = Duration.toMillis(config.priceStaleAfter)

  const setAll = (entries: ReadonlyArray<readonly [string, BigDecimal.BigDecimal]>) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Ref.update(prices, (old) => {
        const next = new Map(old)
        for (const [symbol, usd] of entries) next.set(symbol, { symbol, usd, updatedAtMs: now })
        return next
      })
    )

  let step: Effect.Effect<void>
  const sourceUrl = config.priceSourceUrl
  if (sourceUrl === undefined) {
    const randoms = new Map(config.tokens.map((t) => [t.symbol, seededRandom(`${config.priceSeed}/${t.symbol}`)]))
    yield* setAll(config.tokens.map((t) => [t.symbol, dec(t.referenceUsd)] as const))
    step = Effect.flatMap(Ref.get(prices), (current) =>
      setAll(
        config.tokens.map((t) => {
          const price = current.get(t.symbol)?.usd ?? dec(t.referenceUsd)
          const random = randoms.get(t.symbol) ?? Math.random
          return [t.symbol, walkStep(price, t, random)] as const
        })
      )
    )
  } else {
    const known = new Set(config.tokens.map((t) => t.symbol))
    step = http.get(sourceUrl, { acceptJson: true }).pipe(
      Effect.flatMap((res) => (res.status === 200 ? res.json : Effect.fail(new Error(`HTTP ${res.status}`)))),
      Effect.flatMap(Schema.decodeUnknown(HttpPrices)),
      Effect.flatMap((body) => {
        const listed = Object.entries(body).filter(([symbol]) => known.has(symbol))
        const read = listed.map(([symbol, value]) => {
          const usd = Option.filter(
            typeof value === "number" ? decimalFromNumber(value) : parseLooseDecimal(value),
            BigDecimal.isPositive
          )
          return { symbol, value, usd }
        })
        // A price that is not a positive number is not taken (the old one goes stale), and the operator is told.
        const unreadable = read.filter((r) => Option.isNone(r.usd))
        return Effect.zipRight(
          unreadable.length === 0
            ? Effect.void
            : Effect.logWarning(
                `price source ${sourceUrl}: not a positive price, ignored: ${unreadable
                  .map((r) => `${r.symbol}=${JSON.stringify(r.value)}`)
                  .join(", ")}`
              ),
          setAll(read.flatMap((r) => (Option.isSome(r.usd) ? [[r.symbol, r.usd.value] as const] : [])))
        )
      }),
      Effect.scoped,
      Effect.catchAll((e) => Effect.logWarning(`price source ${sourceUrl} failed: ${String(e)}`))
    )
    yield* step
  }
  yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(config.priceUpdateInterval), step)))

  const isFresh = (quote: PriceQuote) =>
    Effect.map(Clock.currentTimeMillis, (now) => now - quote.updatedAtMs <= staleMs)
  return {
    snapshot: Ref.get(prices),
    isFresh,
    fresh: (symbol: string) =>
      Effect.gen(function* () {
        const quote = (yield* Ref.get(prices)).get(symbol)
        if (quote === undefined) return Option.none<PriceQuote>()
        return (yield* isFresh(quote)) ? Option.some(quote) : Option.none<PriceQuote>()
      })
  } satisfies PriceFeedShape
})
