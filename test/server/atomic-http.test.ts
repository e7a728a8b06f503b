/**
 * The atomic swap through the exchange server's HTTP endpoint, against the devnet ledger and its gateway emulator in
 * process, the devnet wallet signing the pre-authorisations (and txv2 directly where a wallet misbehaves):
 *
 * - hUSDC → hETH and hETH → hUSDC commit one transaction each, in which the user's account lost exactly X and gained
 *   exactly the quoted Y (and paid no fee); the GET, the history and the stats say so;
 * - every refusal of bad input is a 4xx naming its reason, with nothing submitted and nothing moved;
 * - the same pre-authorisation sent 20 times at once commits once (SQLite, one process);
 * - 10,000 mutated signed partials through the endpoint: no 5xx, no submission;
 * - bad bodies and ids, and a server with the feature off.
 */
import { Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  buildNotarizedTransaction,
  compileManifest,
  decodeAddress,
  fromHex,
  toHex,
  transactionIntentId
} from "../../src/txv2/index"
import { parentManifest } from "../../src/server/atomic/AtomicSwaps"
import {
  ATOMIC_COMMITTED_ELSEWHERE,
  type ExchangeServer,
  listenExchangeServer,
  startExchangeServer
} from "../../src/server/index"
import { devnetExchangeServerOptions } from "../../src/devnet/exchange"
import {
  balances,
  countingGateway,
  exchange,
  getJson,
  hBTC,
  hETH,
  hUSDC,
  keyOf,
  liveQuote,
  type LiveQuote,
  minus,
  plus,
  postAtomic,
  quotedFor,
  signedBy,
  swapManifest,
  transactionsOf,
  walletSigns,
  XRD
} from "./atomic-devnet"
import { type Devnet, startLedger, startServer } from "./harness"

let devnet: Devnet
let gateway: ReturnType<typeof countingGateway>
let server: ExchangeServer
let http: { readonly url: string; readonly close: () => Promise<void> }

beforeAll(async () => {
  devnet = await startLedger()
  gateway = countingGateway(devnet)
  // Quotes bind for 10 minutes here, so that the fuzz's payloads are judged against a live quote to the end.
  server = await startServer(devnet, undefined, { gatewayHttpClient: gateway.client, quoteTtlSeconds: 600 })
  http = await listenExchangeServer(server, 0, "127.0.0.1")
}, 120_000)

afterAll(async () => {
  await http?.close()
  await server?.close()
  await devnet?.dispose()
})

const users = () => devnet.ledger.genesis.users
const body = (q: LiveQuote, amount: string, hex: string) => ({
  quote_id: q.quote_id,
  amount,
  signed_partial_transaction: hex
})

describe("an atomic swap through POST /api/atomic-swap on the devnet", () => {
  it("hUSDC → hETH and hETH → hUSDC: one transaction each, the account lost exactly X and gained exactly the quoted Y", async () => {
    const user = users()[0]
    const before = (await getJson(`${http.url}/api/stats`)).json
    for (const [from, to, amount] of [
      [hUSDC, hETH, "25"],
      [hETH, hUSDC, "0.01"]
    ] as const) {
      const q = await liveQuote(http.url, from, to)
      expect(q.atomic).toBe(true)
      const quoted = quotedFor(q, amount)
      const mine = await balances(devnet, [user.address, exchange])
      const txsBefore = (await transactionsOf(devnet, user.address)).length
      const submitsBefore = gateway.state.submits

      // The wallet signs "send exactly X, receive at least Y", expiring with the quote.
      const signed = await walletSigns(devnet, swapManifest(q, user.address, amount), q.quote_expires_at)
      const answer = await postAtomic(http.url, body(q, amount, signed.hex))
      expect(answer.status).toBe(200)
      expect(answer.json).toMatchObject({
        subintent_id: signed.subintentId,
        state: "committed",
        account: user.address,
        amount_in: amount,
        quoted_out: quoted,
        amount_out: quoted,
        message: null
      })
      const txId = String(answer.json["tx_id"])
      expect(txId).toMatch(/^txid_loc1/)
      expect(gateway.state.submits - submitsBefore).toBe(1)

      // One new transaction touched the account: it is that one, and it moved exactly X out and Y in.
      const txs = await transactionsOf(devnet, user.address)
      expect(txs.length).toBe(txsBefore + 1)
      const tx = txs[txs.length - 1]
      expect(tx?.intentHash).toBe(txId)
      expect(tx?.status).toBe("CommittedSuccess")
      const changes = (tx?.balanceChanges ?? [])
        .filter((c) => c.entity === user.address)
        .map((c) => [c.resource, c.change])
        .sort()
      expect(changes).toEqual(
        [
          [from, `-${amount}`],
          [to, quoted]
        ].sort()
      )
      expect(tx?.childSubintentHashes).toEqual([signed.subintentId])
      const after = await balances(devnet, [user.address, exchange])
      expect(after[`${user.address} ${from}`]).toBe(minus(mine[`${user.address} ${from}`] ?? "", amount))
      expect(after[`${user.address} ${to}`]).toBe(plus(mine[`${user.address} ${to}`] ?? "", quoted))
      // The exchange paid the fee; the user's XRD did not move.
      expect(after[`${user.address} ${XRD}`]).toBe(mine[`${user.address} ${XRD}`])
      expect(after[`${exchange} ${from}`]).toBe(plus(mine[`${exchange} ${from}`] ?? "", amount))
      expect(after[`${exchange} ${to}`]).toBe(minus(mine[`${exchange} ${to}`] ?? "", quoted))

      // The GET answers the same; the history shows one transaction, flow atomic.
      const got = await getJson(`${http.url}/api/atomic-swap/${signed.subintentId}`)
      expect(got.status).toBe(200)
      expect(got.json).toEqual(answer.json)
      const record = {
        from: user.address,
        to: exchange,
        amount_in: amount,
        amount_out: quoted,
        quoted_amount_out: quoted,
        tx_in: txId,
        tx_out: txId,
        status: "completed",
        flow: "atomic",
        quote_id: q.quote_id,
        resource_in: from,
        resource_out: to
      }
      const history = (await getJson(`${http.url}/api/transactions/${user.address}`)).json["transactions"] as Array<
        Record<string, unknown>
      >
      expect(history[0]).toMatchObject(record)
      const latest = (await getJson(`${http.url}/api/transactions/latest`)).json["transactions"] as Array<
        Record<string, unknown>
      >
      expect(latest[0]).toMatchObject(record)
    }
    const stats = (await getJson(`${http.url}/api/stats`)).json
    expect(Number(stats["total_transactions"])).toBe(Number(before["total_transactions"]) + 2)
    expect(Number(stats["active_users"])).toBe(Number(before["active_users"]) + 1)
    // 25 hUSDC at 1 USD and 0.01 hETH at 3000 USD.
    expect(Number(stats["total_volume"])).toBeCloseTo(Number(before["total_volume"]) + 55, 6)
    // The watcher saw the transactions deposit into the exchange account and left them alone: no payout, no refund.
    await new Promise((ok) => setTimeout(ok, 600))
    const deposits = (
      (await getJson(`${http.url}/api/transactions/latest`)).json["transactions"] as Array<Record<string, unknown>>
    ).filter((t) => t["flow"] !== "atomic")
    expect(deposits).toEqual([])
  }, 120_000)

  it("every bad input gets a 4xx naming the reason; nothing is submitted and nothing moves", async () => {
    const [user, other] = users()
    const q = await liveQuote(http.url, hUSDC, hETH)
    const amount = "10"
    const quoted = quotedFor(q, amount)
    const userKey = keyOf(user.key)
    const now = () => Math.floor(Date.now() / 1000)
    const sign = (o: Partial<Parameters<typeof signedBy>[1]> = {}) =>
      signedBy(devnet, {
        manifest: swapManifest(q, user.address, amount),
        signers: [userKey],
        expiresAt: q.quote_expires_at,
        ...o
      })
    const flip = (hex: string, at: number) => {
      const bytes = fromHex(hex) ?? new Uint8Array()
      bytes[at] = (bytes[at] ?? 0) ^ 0x10
      return toHex(bytes)
    }
    const indexOf = (hex: string, part: Uint8Array) => Buffer.from(fromHex(hex) ?? []).indexOf(Buffer.from(part))
    const withLine = (index: number, line: string | undefined) => {
      const lines = swapManifest(q, user.address, amount).split("\n")
      if (line === undefined) lines.splice(index, 1)
      else lines.splice(index, 1, line)
      return lines.join("\n")
    }
    const userNode = Either.getOrThrow(decodeAddress(user.address, 240)).nodeId

    const cases: ReadonlyArray<{
      readonly name: string
      readonly reason: string
      readonly body: () => Promise<{ readonly body: unknown; readonly subintentId?: string }>
    }> = [
      {
        name: "a bit flipped in the signature",
        reason: "signature_invalid",
        body: async () => {
          const s = await sign()
          const signature = s.model.rootSubintentSignatures[0]
          const at = indexOf(s.hex, signature?.type === "Ed25519" ? signature.signature : new Uint8Array(64))
          expect(at).toBeGreaterThan(0)
          return { body: body(q, amount, flip(s.hex, at + 10)), subintentId: s.subintentId }
        }
      },
      {
        name: "a bit flipped in the subintent (the account)",
        reason: "signature_invalid",
        body: async () => {
          const s = await sign()
          const at = indexOf(s.hex, userNode)
          expect(at).toBeGreaterThan(0)
          return { body: body(q, amount, flip(s.hex, at + 15)) }
        }
      },
      {
        name: "a truncated payload",
        reason: "payload_malformed",
        body: async () => ({ body: body(q, amount, (await sign()).hex.slice(0, -20)) })
      },
      {
        name: "half a payload",
        reason: "payload_malformed",
        body: async () => {
          const hex = (await sign()).hex
          return { body: body(q, amount, hex.slice(0, hex.length / 2)) }
        }
      },
      {
        name: "text that is not hex",
        reason: "payload_malformed",
        body: async () => ({ body: body(q, amount, "4d22zz") })
      },
      {
        name: "a signature by another key",
        reason: "signer_not_account",
        body: async () => {
          const s = await sign({ signers: [keyOf(other.key)] })
          return { body: body(q, amount, s.hex), subintentId: s.subintentId }
        }
      },
      {
        name: "the signatures of two keys",
        reason: "signature_invalid",
        body: async () => ({ body: body(q, amount, (await sign({ signers: [userKey, keyOf(other.key)] })).hex) })
      },
      {
        name: "another account's withdrawal, deposited into this one",
        reason: "wrong_deposit",
        body: async () => {
          const text = swapManifest(q, other.address, amount).replace(
            `CALL_METHOD Address("${other.address}") "deposit_batch"`,
            `CALL_METHOD Address("${user.address}") "deposit_batch"`
          )
          return { body: body(q, amount, (await sign({ manifest: text, signers: [keyOf(other.key)] })).hex) }
        }
      },
      {
        name: "the exchange's own account",
        reason: "exchange_account",
        body: async () => ({
          body: body(
            q,
            amount,
            (
              await sign({
                manifest: swapManifest(q, exchange, amount),
                signers: [keyOf(devnet.ledger.genesis.exchange.key)]
              })
            ).hex
          )
        })
      },
      {
        name: "another network",
        reason: "wrong_network",
        body: async () => ({ body: body(q, amount, (await sign({ header: { networkId: 1 } })).hex) })
      },
      {
        name: "a withdrawal of more than quoted",
        reason: "wrong_withdrawal",
        body: async () => ({
          body: body(q, amount, (await sign({ manifest: swapManifest(q, user.address, "10.000001", quoted) })).hex)
        })
      },
      {
        name: "a withdrawal of less than quoted",
        reason: "wrong_withdrawal",
        body: async () => ({
          body: body(q, amount, (await sign({ manifest: swapManifest(q, user.address, "9.999999", quoted) })).hex)
        })
      },
      {
        name: "an assertion of less than the quoted output",
        reason: "wrong_assertion",
        body: async () => ({
          body: body(
            q,
            amount,
            (await sign({ manifest: swapManifest(q, user.address, amount, minus(quoted, "0.000000000000000001")) })).hex
          )
        })
      },
      {
        name: "an assertion of anything more than zero",
        reason: "wrong_assertion",
        body: async () => ({
          body: body(
            q,
            amount,
            (
              await sign({
                manifest: withLine(
                  3,
                  `ASSERT_WORKTOP_RESOURCES_ONLY Map<Address, Enum>(Address("${hETH}") => Enum<ResourceConstraint::NonZeroAmount>());`
                )
              })
            ).hex
          )
        })
      },
      {
        name: "no assertion at all",
        reason: "wrong_assertion",
        body: async () => ({ body: body(q, amount, (await sign({ manifest: withLine(3, undefined) })).hex) })
      },
      {
        name: "an extra instruction",
        reason: "wrong_shape",
        body: async () => {
          const lines = swapManifest(q, user.address, amount).split("\n")
          lines.splice(5, 0, `CALL_METHOD Address("${user.address}") "withdraw" Address("${XRD}") Decimal("1");`)
          return { body: body(q, amount, (await sign({ manifest: lines.join("\n") })).hex) }
        }
      },
      {
        name: "an expired window",
        reason: "window_too_short",
        body: async () => ({ body: body(q, amount, (await sign({ expiresAt: now() - 5 })).hex) })
      },
      {
        name: "a window too short to submit in",
        reason: "window_too_short",
        body: async () => ({ body: body(q, amount, (await sign({ expiresAt: now() + 4 })).hex) })
      },
      {
        name: "a window past the quote's expiry",
        reason: "window_after_quote",
        body: async () => ({ body: body(q, amount, (await sign({ expiresAt: q.quote_expires_at + 60 })).hex) })
      },
      {
        name: "a quote for another pair (the pre-authorisation asks hBTC back)",
        reason: "wrong_assertion",
        body: async () => {
          const btc = await liveQuote(http.url, hUSDC, hBTC)
          return {
            body: body(
              q,
              amount,
              (await sign({ manifest: swapManifest(btc, user.address, amount, quotedFor(btc, amount)) })).hex
            )
          }
        }
      },
      {
        name: "a quote for another pair (the pre-authorisation sells hETH)",
        reason: "wrong_withdrawal",
        body: async () => {
          const back = await liveQuote(http.url, hETH, hUSDC)
          return { body: { ...body(back, "0.01", (await sign()).hex) } }
        }
      },
      {
        name: "an altered quote reference",
        reason: "quote_unknown",
        body: async () => ({
          body: { ...body(q, amount, (await sign()).hex), quote_id: `${q.quote_id.slice(0, -3)}abc` }
        })
      },
      {
        name: "an amount outside the quote's limits",
        reason: "quote_amount",
        body: async () => ({
          body: body(q, "500", (await sign({ manifest: swapManifest(q, user.address, "500") })).hex)
        })
      }
    ]

    const everyone = [user.address, other.address, exchange]
    const tokens = [XRD, hUSDC, hETH, hBTC]
    for (const c of cases) {
      const { body: sent, subintentId } = await c.body()
      const before = await balances(devnet, everyone, tokens)
      const submits = gateway.state.submits
      const answer = await postAtomic(http.url, sent)
      expect([c.name, answer.status, answer.json["reason"]]).toEqual([c.name, 422, c.reason])
      expect(typeof answer.json["message"]).toBe("string")
      expect(answer.json["error"]).toBe(answer.json["message"])
      expect(gateway.state.submits, c.name).toBe(submits)
      expect(await balances(devnet, everyone, tokens), c.name).toEqual(before)
      if (subintentId !== undefined)
        expect((await getJson(`${http.url}/api/atomic-swap/${subintentId}`)).status, c.name).toBe(404)
    }

    // A pre-authorisation that committed, sent again: refused as used; its quote, named by another one: refused.
    const fresh = await liveQuote(http.url, hUSDC, hETH)
    const done = await walletSigns(devnet, swapManifest(fresh, user.address, amount), fresh.quote_expires_at)
    const first = await postAtomic(http.url, body(fresh, amount, done.hex))
    expect(first.json["state"]).toBe("committed")
    const second = await signedBy(devnet, {
      manifest: swapManifest(fresh, user.address, amount),
      signers: [userKey],
      expiresAt: fresh.quote_expires_at
    })
    const submits = gateway.state.submits
    const before = await balances(devnet, everyone, tokens)
    // The same submission again (its answer lost on the way): the committed record as it stands, not a refusal.
    const replay = await postAtomic(http.url, body(fresh, amount, done.hex))
    expect([replay.status, replay.json]).toEqual([200, first.json])
    const reused = await postAtomic(http.url, body(fresh, amount, second.hex))
    expect([reused.status, reused.json["reason"]]).toEqual([422, "quote_used"])
    expect(gateway.state.submits).toBe(submits)
    expect(await balances(devnet, everyone, tokens)).toEqual(before)

    // A pre-authorisation the ledger already committed in another transaction (not this exchange's): refused.
    const elsewhere = await liveQuote(http.url, hUSDC, hETH)
    const theirs = await signedBy(devnet, {
      manifest: swapManifest(elsewhere, user.address, amount),
      signers: [userKey],
      expiresAt: elsewhere.quote_expires_at
    })
    const { epoch } = await devnet.run(devnet.ledger.state)
    const parent = Either.getOrThrow(
      buildNotarizedTransaction({
        header: {
          networkId: 240,
          startEpochInclusive: BigInt(epoch),
          endEpochExclusive: BigInt(epoch + 10),
          minProposerTimestampInclusive: null,
          maxProposerTimestampExclusive: null,
          intentDiscriminator: 7n
        },
        instructions: Either.getOrThrow(
          compileManifest(
            parentManifest({
              exchangeAccount: exchange,
              subintentId: theirs.subintentId,
              feeLockXrd: "3",
              resourceOut: hETH,
              amountOut: quotedFor(elsewhere, amount)
            }),
            240
          )
        ).instructions,
        children: [theirs.model],
        notary: keyOf(devnet.ledger.genesis.exchange.key),
        notaryIsSignatory: true,
        signers: []
      })
    )
    await devnet.run(devnet.ledger.submit(toHex(parent.payload)))
    expect((await transactionsOf(devnet, user.address)).map((t) => t.intentHash)).toContain(
      parent.ids.transactionIntent
    )
    const moved = await balances(devnet, everyone, tokens)
    const late = await postAtomic(http.url, body(elsewhere, amount, theirs.hex))
    expect([late.status, late.json["reason"], late.json["message"]]).toEqual([
      422,
      "subintent_used",
      ATOMIC_COMMITTED_ELSEWHERE
    ])
    expect(gateway.state.submits).toBe(submits)
    expect(await balances(devnet, everyone, tokens)).toEqual(moved)
    expect((await getJson(`${http.url}/api/atomic-swap/${theirs.subintentId}`)).status).toBe(404)
  }, 180_000)

  it("the same pre-authorisation sent 20 times at once commits once", async () => {
    const user = users()[2]
    const q = await liveQuote(http.url, hUSDC, hETH)
    const amount = "12.5"
    const quoted = quotedFor(q, amount)
    const before = await balances(devnet, [user.address])
    const txsBefore = (await transactionsOf(devnet, user.address)).length
    const submits = gateway.state.submits
    const signed = await walletSigns(devnet, swapManifest(q, user.address, amount), q.quote_expires_at)
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postAtomic(http.url, body(q, amount, signed.hex)))
    )
    // Each answers the one record (under way, or over by then), none a refusal.
    for (const a of answers) {
      expect([200, 202]).toContain(a.status)
      expect(a.json["subintent_id"]).toBe(signed.subintentId)
    }
    expect(answers.some((a) => a.status === 200 && a.json["state"] === "committed")).toBe(true)
    expect(gateway.state.submits - submits).toBe(1)
    expect((await transactionsOf(devnet, user.address)).length).toBe(txsBefore + 1)
    const after = await balances(devnet, [user.address])
    expect(after[`${user.address} ${hUSDC}`]).toBe(minus(before[`${user.address} ${hUSDC}`] ?? "", amount))
    expect(after[`${user.address} ${hETH}`]).toBe(plus(before[`${user.address} ${hETH}`] ?? "", quoted))
  }, 60_000)

  it("10,000 mutated signed partials through the endpoint: no 5xx, nothing submitted, nothing moved", async () => {
    const user = users()[1]
    const q = await liveQuote(http.url, hUSDC, hETH)
    const amount = "42"
    const original = await walletSigns(devnet, swapManifest(q, user.address, amount), q.quote_expires_at)
    const bytes = fromHex(original.hex) ?? new Uint8Array()
    const before = await balances(devnet, [user.address, exchange])
    const submits = gateway.state.submits
    let state = 0x2545f491
    const rand = (n: number) => {
      state ^= state << 13
      state ^= state >>> 17
      state ^= state << 5
      return (state >>> 0) % n
    }
    const mutate = (): string => {
      const op = rand(8)
      if (op === 0) {
        const m = Uint8Array.from(bytes)
        const at = rand(m.length)
        m[at] = (m[at] ?? 0) ^ (1 << rand(8))
        return toHex(m)
      }
      if (op === 1) {
        const m = Uint8Array.from(bytes)
        for (let k = 0; k < 1 + rand(4); k++) m[rand(m.length)] = rand(256)
        return toHex(m)
      }
      if (op === 2) return toHex(bytes.subarray(0, rand(bytes.length)))
      if (op === 3) {
        const at = rand(bytes.length)
        return toHex(Uint8Array.from([...bytes.subarray(0, at), rand(256), ...bytes.subarray(at)]))
      }
      if (op === 4) {
        const at = rand(bytes.length)
        return toHex(Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1 + rand(3))]))
      }
      if (op === 5) {
        // A stretch of the payload repeated.
        const at = rand(bytes.length)
        const len = 1 + rand(32)
        return toHex(Uint8Array.from([...bytes.subarray(0, at + len), ...bytes.subarray(at)]))
      }
      if (op === 6) {
        // The hex text itself damaged: an odd length, a character outside hex.
        const hex = original.hex
        const at = rand(hex.length)
        return rand(2) === 0 ? hex.slice(0, at) + hex.slice(at + 1) : `${hex.slice(0, at)}g${hex.slice(at + 1)}`
      }
      // Two mutations at once.
      const m = fromHex(mutateBytes()) ?? new Uint8Array()
      const at = rand(Math.max(1, m.length))
      m[at] = (m[at] ?? 0) ^ (1 << rand(8))
      return toHex(m)
    }
    const mutateBytes = (): string => {
      const m = Uint8Array.from(bytes)
      const at = rand(m.length)
      m[at] = (m[at] ?? 0) ^ (1 << rand(8))
      return toHex(m)
    }
    const statuses = new Map<number, number>()
    const reasons = new Map<string, number>()
    let sent = 0
    while (sent < 10_000) {
      const hex = mutate()
      // A mutation that changed nothing is the pre-authorisation itself, not a mutated one.
      if (hex === original.hex) continue
      sent++
      // In process, a request may finish without leaving the microtask queue: the worker answers its runner meanwhile.
      if (sent % 100 === 0) await new Promise<void>((resolve) => setImmediate(resolve))
      const r = await server.request({
        method: "POST",
        path: "/atomic-swap",
        ip: "127.0.0.1",
        body: JSON.stringify(body(q, amount, hex))
      })
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
      const json = r.json as Record<string, unknown>
      if (r.status >= 500 || r.status < 400) throw new Error(`status ${r.status} for ${hex}: ${JSON.stringify(json)}`)
      reasons.set(String(json["reason"]), (reasons.get(String(json["reason"])) ?? 0) + 1)
    }
    console.info(
      `atomic fuzz: ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}; reasons ${[...reasons]
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ")}`
    )
    expect([...statuses.keys()]).toEqual([422])
    expect(reasons.get("payload_malformed") ?? 0).toBeGreaterThan(1000)
    expect(reasons.get("signature_invalid") ?? 0).toBeGreaterThan(1000)
    expect(gateway.state.submits).toBe(submits)
    expect(await balances(devnet, [user.address, exchange])).toEqual(before)
    expect((await getJson(`${http.url}/api/atomic-swap/${original.subintentId}`)).status).toBe(404)
  }, 600_000)

  it("bad bodies and ids: 400 with what is wrong, 413, 415, 404", async () => {
    const q = await liveQuote(http.url, hUSDC, hETH)
    const submits = gateway.state.submits
    const shape = "The body must be JSON { quote_id, amount, signed_partial_transaction }, each a string"
    for (const bad of [
      "{not json",
      "[]",
      JSON.stringify({ quote_id: q.quote_id, amount: "10" }),
      JSON.stringify({ quote_id: q.quote_id, amount: 10, signed_partial_transaction: "4d" }),
      JSON.stringify({ quote_id: null, amount: "10", signed_partial_transaction: "4d" })
    ]) {
      const r = await postAtomic(http.url, bad)
      expect([bad, r.status, r.json["message"]]).toEqual([bad, 400, shape])
    }
    const big = await postAtomic(http.url, {
      quote_id: q.quote_id,
      amount: "10",
      signed_partial_transaction: "ab".repeat(9000)
    })
    expect([big.status, big.json["message"]]).toEqual([413, "Request body too large"])
    const text = await postAtomic(http.url, JSON.stringify({}), "text/plain")
    expect(text.status).toBe(415)
    expect(gateway.state.submits).toBe(submits)

    const id = await getJson(`${http.url}/api/atomic-swap/not-an-id`)
    expect(id.status).toBe(400)
    expect(String(id.json["message"])).toMatch(/^Invalid subintent id \(subtxid_…\): /)
    const txid = await getJson(`${http.url}/api/atomic-swap/${transactionIntentId(new Uint8Array(32).fill(3), 240)}`)
    expect(txid.status).toBe(400)
    const unknownId = (
      await signedBy(devnet, {
        manifest: swapManifest(q, users()[0].address, "10"),
        signers: [keyOf(users()[0].key)],
        expiresAt: q.quote_expires_at
      })
    ).subintentId
    const unknown = await getJson(`${http.url}/api/atomic-swap/${unknownId}`)
    expect([unknown.status, unknown.json["message"]]).toEqual([404, `No atomic swap for ${unknownId}`])
  }, 60_000)
})

describe("a server with atomic swaps off", () => {
  it("answers 404 'not offered' on both paths, and its quotes carry no atomic flag", async () => {
    const off = await startExchangeServer({
      ...devnetExchangeServerOptions(undefined, devnet.gateway),
      atomic: false,
      rateLimitPerMinute: 0,
      logLevel: "none"
    })
    const offHttp = await listenExchangeServer(off, 0, "127.0.0.1")
    try {
      const q = await liveQuote(offHttp.url, hUSDC, hETH)
      expect(q.quote_id).toMatch(/^q/)
      expect("atomic" in q).toBe(false)
      const user = users()[0]
      const signed = await walletSigns(devnet, swapManifest(q, user.address, "10"), q.quote_expires_at)
      const before = await balances(devnet, [user.address])
      const post = await postAtomic(offHttp.url, body(q, "10", signed.hex))
      expect([post.status, post.json["message"]]).toEqual([404, "Atomic swaps are not offered by this exchange."])
      const get = await getJson(`${offHttp.url}/api/atomic-swap/${signed.subintentId}`)
      expect([get.status, get.json["message"]]).toEqual([404, "Atomic swaps are not offered by this exchange."])
      expect(await balances(devnet, [user.address])).toEqual(before)
    } finally {
      await offHttp.close()
      await off.close()
    }
  }, 60_000)
})
