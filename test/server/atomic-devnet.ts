/**
 * The atomic swap against the devnet: the devnet wallet signing pre-authorisations (or txv2 directly, as a wallet
 * that misbehaves), a gateway fetch that counts (and may refuse) what is submitted, quotes, and balances.
 */
import { HttpClient, HttpClientResponse } from "@effect/platform"
import { BigDecimal, Effect, Either } from "effect"
import { emulatorHttpClient } from "../../src/devnet/gateway/httpClient"
import { expect } from "vitest"
import type { DevnetKey } from "../../src/devnet/ledger/genesis"
import { makeWalletEmulator } from "../../src/devnet/wallet/index"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { formatPlain, parseLooseDecimal } from "../../src/lib/decimalText"
import { atomicSubintentManifest } from "../../src/exchange/atomicManifest"
import { devnetTokens } from "../../src/server/config"
import { quotedTerms } from "../../src/server/Quotes"
import type { WalletInteraction } from "../../src/toolkit/schemas"
import {
  buildSignedPartialTransaction,
  compileManifest,
  type IntentHeaderV2,
  type InstructionV2,
  type SigningKey,
  toHex
} from "../../src/txv2/index"
import { type Devnet, emulatorFetch } from "./harness"

export const { XRD, hUSDC, hETH, hBTC } = DevnetAddresses.resources
export const exchange = DevnetAddresses.exchangeAccount

/**
 * The gateway emulator, recording every `/transaction/submit` and refusing them (503) while `blocked`: as a `fetch`
 * run in the devnet's runtime (for a server on a TestClock) and as the in-process HttpClient `npm start` uses.
 */
export const countingGateway = (devnet: Devnet) => {
  const inner = emulatorFetch(devnet.gateway)
  const state = { submits: 0, blocked: false }
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input)
    if (new URL(url).pathname.endsWith("/transaction/submit")) {
      state.submits++
      if (state.blocked)
        return new Response(JSON.stringify({ message: "Service unavailable", code: 503, details: null }), {
          status: 503,
          headers: { "content-type": "application/json" }
        })
    }
    return inner(input, init)
  }
  const emulator = emulatorHttpClient(devnet.gateway.emulator)
  const client = HttpClient.make((request, url) => {
    if (!url.pathname.endsWith("/transaction/submit")) return emulator.execute(request)
    state.submits++
    if (!state.blocked) return emulator.execute(request)
    return Effect.succeed(
      HttpClientResponse.fromWeb(
        request,
        new Response(JSON.stringify({ message: "Service unavailable", code: 503, details: null }), {
          status: 503,
          headers: { "content-type": "application/json" }
        })
      )
    )
  })
  return { fetch, client, state }
}

export interface LiveQuote {
  readonly from: string
  readonly to: string
  readonly quote_id: string
  readonly quote_expires_at: number
  readonly effective_rate: string
  readonly fee_out: string
  readonly atomic?: boolean
}

const decimalsOf = (resource: string) => devnetTokens.find((t) => t.resourceAddress === resource)?.decimals ?? 18

/** What a quote pays for `amount` (the server's own rule: amount × rate − fee, rounded down). */
export const quotedFor = (q: LiveQuote, amount: string): string => {
  const terms = quotedTerms(amount, { rate: q.effective_rate, fee_out: q.fee_out }, decimalsOf(q.to))
  if (terms === undefined) throw new Error(`no quoted output for ${amount} at ${q.effective_rate}`)
  return terms.quoted
}

const dec = (s: string) => {
  const d = parseLooseDecimal(s)
  if (d._tag === "None") throw new Error(`not a decimal: ${s}`)
  return d.value
}
export const plus = (a: string, b: string) => formatPlain(BigDecimal.sum(dec(a), dec(b)))
export const minus = (a: string, b: string) => formatPlain(BigDecimal.subtract(dec(a), dec(b)))

/** Balances of `accounts` in `resources`, keyed "account resource". */
export const balances = async (
  devnet: Devnet,
  accounts: ReadonlyArray<string>,
  resources: ReadonlyArray<string> = [XRD, hUSDC, hETH]
): Promise<Record<string, string>> => {
  const out: Record<string, string> = {}
  for (const a of accounts) for (const r of resources) out[`${a} ${r}`] = await devnet.run(devnet.ledger.balance(a, r))
  return out
}

/** The user transactions of the ledger that touched `account`, oldest first. */
export const transactionsOf = (devnet: Devnet, account: string) =>
  devnet
    .run(
      devnet.ledger.transactions({
        order: "Asc",
        kind: "User",
        status: "All",
        withdrawnFrom: [],
        depositedInto: [],
        affected: [account],
        resources: [],
        limit: 5000
      })
    )
    .then((page) => page.items)

/** The pre-authorisation manifest the app asks the wallet to sign for `amount` at quote `q`. */
export const swapManifest = (q: LiveQuote, account: string, amount: string, quotedOut = quotedFor(q, amount)) =>
  atomicSubintentManifest({ fromResource: q.from, toResource: q.to, amountIn: amount, quotedOut }, account)

let interactions = 0

/**
 * The devnet wallet's answer to a pre-authorisation request for `manifest`, expiring when the quote does, approved:
 * the signed partial transaction (hex) and the subintent id.
 */
export const walletSigns = async (devnet: Devnet, manifest: string, expiresAt: number) => {
  const interaction: WalletInteraction = {
    items: {
      discriminator: "preAuthorizationRequest",
      request: {
        discriminator: "subintent",
        version: 1,
        manifestVersion: 2,
        subintentManifest: manifest,
        expiration: { discriminator: "expireAtTime", unixTimestampSeconds: expiresAt }
      }
    },
    interactionId: `00000000-0000-4000-9000-${String(++interactions).padStart(12, "0")}`,
    metadata: {
      version: 2,
      dAppDefinitionAddress: DevnetAddresses.dAppDefinition,
      networkId: 240,
      origin: "http://127.0.0.1:8080"
    }
  }
  const answer = await devnet.run(Effect.flatMap(makeWalletEmulator, (w) => w.answer(interaction, { approve: true })))
  if (
    answer.discriminator !== "success" ||
    answer.items.discriminator !== "preAuthorizationResponse" ||
    answer.items.response === undefined
  )
    throw new Error(`the wallet did not sign: ${JSON.stringify(answer)}`)
  return { hex: answer.items.response.signedPartialTransaction, subintentId: answer.items.response.subintentHash }
}

export const keyOf = (k: DevnetKey): SigningKey => ({ curve: "Ed25519", secretKey: k.privateKey })

/** A wallet that signs whatever it is given, with whatever header and key (txv2 directly). */
export const signedBy = async (
  devnet: Devnet,
  o: {
    readonly manifest?: string
    readonly instructions?: ReadonlyArray<InstructionV2>
    readonly signers: ReadonlyArray<SigningKey>
    readonly expiresAt: number
    readonly header?: Partial<IntentHeaderV2>
  }
) => {
  const { epoch } = await devnet.run(devnet.ledger.state)
  const compiled = o.instructions ?? Either.getOrThrow(compileManifest(o.manifest ?? "", 240)).instructions
  const built = buildSignedPartialTransaction({
    header: {
      networkId: 240,
      startEpochInclusive: BigInt(epoch),
      endEpochExclusive: BigInt(epoch + 10),
      minProposerTimestampInclusive: null,
      maxProposerTimestampExclusive: BigInt(o.expiresAt),
      intentDiscriminator: BigInt(Math.floor(Math.random() * 2 ** 48)),
      ...o.header
    },
    instructions: compiled,
    signers: o.signers
  })
  if (Either.isLeft(built)) throw new Error(built.left.message)
  return { hex: toHex(built.right.payload), subintentId: built.right.subintentId, model: built.right.model }
}

export interface HttpAnswer {
  readonly status: number
  readonly json: Record<string, unknown>
}

export const getJson = async (url: string): Promise<HttpAnswer> => {
  const r = await fetch(url)
  return { status: r.status, json: (await r.json()) as Record<string, unknown> }
}

export const postAtomic = async (
  base: string,
  body: unknown,
  contentType = "application/json"
): Promise<HttpAnswer> => {
  const r = await fetch(`${base}/api/atomic-swap`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body)
  })
  return { status: r.status, json: (await r.json()) as Record<string, unknown> }
}

export const liveQuote = async (base: string, from: string, to: string): Promise<LiveQuote> => {
  const r = await getJson(`${base}/api/liveprice/${from}/${to}`)
  expect(r.status).toBe(200)
  return { ...(r.json as unknown as LiveQuote), from, to }
}
