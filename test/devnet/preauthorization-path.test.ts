/**
 * The whole pre-authorisation path on `npm start`'s stack: `stackLayer` from `src/devnet/main.ts` (what `npm start`
 * launches) runs in this process on a free port, and everything below talks to it over HTTP.
 *
 * - The dApp side is our toolkit (`Toolkit.layerWith` → `WalletRequest.sendPreAuthorizationRequest`) on a phone: it
 *   opens the signed `radixwallet://connect` deep link and polls the stack's relay for the encrypted answer.
 * - Opening that link is the one thing the phone does for the toolkit: here it hands the link to the devnet's mobile
 *   wallet (`/devnet/mobile-wallet/deeplink`), which approves what nobody decides (its auto mode), signs the
 *   subintent and posts the answer to the relay.
 * - A second devnet account wraps the signed subintent in a TransactionV2 built with txv2: it pays the fee, takes the
 *   seller's hUSDC from the child's yield and yields hETH back. It is notarized and submitted through the gateway
 *   emulator's `/transaction/submit`; the legs are read back through the gateway emulator; the toolkit's own
 *   subintent poll sees the commit; the same signed subintent under a new parent is refused as previously committed.
 */
import { FetchHttpClient, KeyValueStore } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { BigDecimal, Context, Deferred, Duration, Effect, Either, Exit, Layer, Option, Queue } from "effect"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeGenesis } from "../../src/devnet/ledger/genesis.js"
import { stackLayer } from "../../src/devnet/main.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { formatPlain, parseUnsignedDecimal } from "../../src/lib/decimalText"
import {
  Environment,
  ExpiredSubintent,
  SubintentExpirationTooClose,
  SubintentRequestBuilder,
  Toolkit,
  WalletRequest,
  type WalletInteractionResponse
} from "../../src/toolkit/index.js"
import {
  buildNotarizedTransaction,
  compileManifest,
  decodeSignedPartialTransactionV2,
  fromHex,
  type SignedPartialTransactionV2,
  type SigningKey,
  subintentHash,
  subintentId,
  toHex,
  verifySignedPartialTransactionV2
} from "../../src/txv2/index.js"

const NETWORK = 240
const { XRD, hUSDC, hETH } = DevnetAddresses.resources
const genesis = makeGenesis()
const [sellerAccount, buyerAccount] = genesis.users
const seller = sellerAccount.address
const buyer = buyerAccount.address
const buyerKey: SigningKey = { curve: "Ed25519", secretKey: buyerAccount.key.privateKey }

type Json = Record<string, unknown>

const right = <A, E>(e: Either.Either<A, E>): A => {
  if (Either.isLeft(e)) throw new Error(`expected Right, got ${String(e.left)}`)
  return e.right
}

const decimal = (text: string) =>
  Option.getOrThrowWith(parseUnsignedDecimal(text), () => new Error(`not a decimal: ${JSON.stringify(text)}`))
const plus = (a: string, b: string) => formatPlain(BigDecimal.sum(decimal(a), decimal(b)))
const minus = (a: string, b: string) => formatPlain(BigDecimal.subtract(decimal(a), decimal(b)))

// ---------------------------------------------------------------------------------------------------------------
// npm start, in process
// ---------------------------------------------------------------------------------------------------------------

class NpmStart extends Context.Tag("test/NpmStart")<
  NpmStart,
  { readonly url: string; readonly printed: ReadonlyArray<string> }
>() {}

/**
 * `npm start`'s Layer with a fresh data directory, port 0 and no drain time. The app's build is not under test: a
 * one-line `index.html` stands in for `dist/`. The URL is read from what `npm start` prints.
 */
const npmStart = Layer.scoped(
  NpmStart,
  Effect.gen(function* () {
    const dir = yield* Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "hswap-preauth-path-"))),
      (d) => Effect.sync(() => rmSync(d, { recursive: true, force: true }))
    )
    const dist = join(dir, "dist")
    mkdirSync(dist)
    writeFileSync(
      join(dist, "index.html"),
      "<!doctype html><html><head><title>hSwap</title></head><body></body></html>"
    )
    const printed: Array<string> = []
    const console = yield* Effect.console
    yield* Layer.build(
      stackLayer({ port: 0, host: "127.0.0.1", dist, dataDir: join(dir, "data"), reset: true }, {}, Duration.zero)
    ).pipe(
      Effect.withConsole({
        ...console,
        log: (...args: ReadonlyArray<unknown>) => Effect.sync(() => void printed.push(args.map(String).join(" ")))
      })
    )
    const url = /hSwap devnet is up: (http:\/\/127\.0\.0\.1:\d+)/.exec(printed.join("\n"))?.[1]
    if (url === undefined) return yield* Effect.dieMessage(`npm start printed no URL: ${printed.join("\n")}`)
    return { url, printed }
  })
)

const post = (url: string, body: unknown) =>
  Effect.promise(async () => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: res.status, json: (await res.json()) as Json }
  })

const gateway = (path: string, body: unknown) =>
  Effect.flatMap(NpmStart, ({ url }) => post(`${url}/gateway${path}`, body))

// ---------------------------------------------------------------------------------------------------------------
// The toolkit on a phone
// ---------------------------------------------------------------------------------------------------------------

interface Phone {
  /** What the wallet answered for each deep link the toolkit opened, in order. */
  readonly answers: Queue.Queue<WalletInteractionResponse>
  /** Fails the test at once when the wallet refuses a link (the toolkit would wait for an answer forever). */
  readonly refused: Deferred.Deferred<never, string>
}

/**
 * A phone's environment: opening the `radixwallet://` deep link opens the wallet app, here the devnet's mobile
 * wallet, which answers through the relay. Like `location.href = link`, opening returns at once.
 */
const phone = (url: string, p: Phone): Layer.Layer<Environment> => {
  const open = (link: string) =>
    post(`${url}/devnet/mobile-wallet/deeplink`, { url: link }).pipe(
      Effect.flatMap(({ status, json }) =>
        status === 200
          ? Queue.offer(p.answers, json["response"] as WalletInteractionResponse)
          : Deferred.fail(p.refused, `the wallet refused the deep link (${status}): ${JSON.stringify(json)}`)
      ),
      Effect.forkDaemon,
      Effect.asVoid
    )
  return Layer.succeed(Environment, {
    events: new EventTarget(),
    isBrowser: true,
    isMobile: true,
    isTelegramMiniApp: () => false,
    origin: url,
    navigate: open,
    openWindow: open
  })
}

/** Our toolkit as a dApp on the devnet configures it: the stack's gateway and relay, fetch for HTTP. */
const toolkitOn = (url: string, p: Phone) =>
  Toolkit.layerWith(
    {
      networkId: NETWORK,
      dAppDefinitionAddress: DevnetAddresses.dAppDefinition,
      gatewayBaseUrl: `${url}/gateway`,
      relayUrl: `${url}/relay`,
      applicationName: "hSwap"
    },
    { environment: phone(url, p) }
  ).pipe(Layer.provideMerge(KeyValueStore.layerMemory), Layer.provide(FetchHttpClient.layer))

/** Runs `effect` with the toolkit on a new phone; a wallet refusing a link fails it at once. */
const withToolkit = <A, E, R>(effect: (p: Phone) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const { url } = yield* NpmStart
    const p: Phone = {
      answers: yield* Queue.unbounded<WalletInteractionResponse>(),
      refused: yield* Deferred.make<never, string>()
    }
    return yield* Effect.raceFirst(
      effect(p),
      Deferred.await(p.refused).pipe(Effect.catchAll((message) => Effect.dieMessage(message)))
    ).pipe(Effect.provide(toolkitOn(url, p)))
  })

// ---------------------------------------------------------------------------------------------------------------
// The two legs
// ---------------------------------------------------------------------------------------------------------------

const SELL = "100"
const AT_LEAST = "0.05"

/** The seller's subintent: 100 hUSDC to the parent, at least 0.05 hETH back, deposited. */
const sellerManifest = `
CALL_METHOD Address("${seller}") "withdraw" Address("${hUSDC}") Decimal("${SELL}");
TAKE_FROM_WORKTOP Address("${hUSDC}") Decimal("${SELL}") Bucket("sold");
ASSERT_NEXT_CALL_RETURNS_ONLY Map<Address, Enum>(Address("${hETH}") => Enum<ResourceConstraint::AtLeastAmount>(Decimal("${AT_LEAST}")));
YIELD_TO_PARENT Bucket("sold");
CALL_METHOD Address("${seller}") "deposit_batch" Expression("ENTIRE_WORKTOP");
YIELD_TO_PARENT;`

/** The buyer's parent: pays the fee, runs the child, takes its hUSDC, yields `give` hETH back to it. */
const buyerManifest = (child: string, give: string) => `
USE_CHILD NamedIntent("seller") Intent("${child}");
CALL_METHOD Address("${buyer}") "lock_fee" Decimal("10");
YIELD_TO_CHILD NamedIntent("seller");
CALL_METHOD Address("${buyer}") "withdraw" Address("${hETH}") Decimal("${give}");
TAKE_ALL_FROM_WORKTOP Address("${hETH}") Bucket("payment");
YIELD_TO_CHILD NamedIntent("seller") Bucket("payment");
CALL_METHOD Address("${buyer}") "deposit_batch" Expression("ENTIRE_WORKTOP");`

const randomBytes = (n: number) => crypto.getRandomValues(new Uint8Array(n))
const randomU64 = () => randomBytes(8).reduce((acc, b) => (acc << 8n) | BigInt(b), 0n)

/**
 * The buyer's notarized parent over the signed child, for the epoch the gateway emulator reports now: a new intent
 * discriminator and a new notary key each time, as a dApp's backend builds one per attempt.
 */
const parentTransaction = (child: SignedPartialTransactionV2, childId: string, give: string) =>
  Effect.gen(function* () {
    const construction = yield* gateway("/transaction/construction", {})
    const epoch = Number((construction.json["ledger_state"] as Json)["epoch"])
    const now = Math.floor(Date.now() / 1000)
    return right(
      buildNotarizedTransaction({
        header: {
          networkId: NETWORK,
          startEpochInclusive: BigInt(epoch),
          endEpochExclusive: BigInt(epoch + 10),
          minProposerTimestampInclusive: null,
          maxProposerTimestampExclusive: BigInt(now + 600),
          intentDiscriminator: randomU64()
        },
        instructions: right(compileManifest(buyerManifest(childId, give), NETWORK)).instructions,
        children: [child],
        signers: [buyerKey],
        notary: { curve: "Ed25519", secretKey: randomBytes(32) }
      })
    )
  })

/** XRD, hUSDC and hETH of both accounts, through the gateway emulator's `/state/entity/details`. */
const balances = Effect.gen(function* () {
  const { status, json } = yield* gateway("/state/entity/details", {
    addresses: [seller, buyer],
    aggregation_level: "Global"
  })
  expect(status).toBe(200)
  const items = json["items"] as ReadonlyArray<Json>
  const of = (account: string, resource: string) => {
    const entity = items.find((i) => i["address"] === account)
    const fungibles = (entity?.["fungible_resources"] as Json | undefined)?.["items"] as ReadonlyArray<Json> | undefined
    return String(fungibles?.find((f) => f["resource_address"] === resource)?.["amount"] ?? "0")
  }
  return {
    seller: { XRD: of(seller, XRD), hUSDC: of(seller, hUSDC), hETH: of(seller, hETH) },
    buyer: { XRD: of(buyer, XRD), hUSDC: of(buyer, hUSDC), hETH: of(buyer, hETH) }
  }
})

// ---------------------------------------------------------------------------------------------------------------

layer(npmStart, { timeout: Duration.seconds(90), excludeTestServices: true })(
  "the pre-authorisation path on npm start",
  (it) => {
    it.effect(
      "serves npm start's composition: the app with the wallet script, the gateway, the relay, the wallet",
      () =>
        Effect.gen(function* () {
          const { url, printed } = yield* NpmStart
          expect(printed.join("\n")).toContain(`relay       ${url}/relay/api/v1`)
          const page = yield* Effect.promise(async () => (await fetch(`${url}/`)).text())
          expect(page).toContain(`<script defer src="/devnet/wallet.js"></script>`)
          // The genesis the stack runs is the one whose keys this test signs with.
          expect(genesis.users.map((u) => u.address)).toEqual(DevnetAddresses.users)
        })
    )

    it.effect(
      "the toolkit's request is signed by the devnet wallet, wrapped in another account's V2 parent, committed once",
      () =>
        withToolkit((p) =>
          Effect.gen(function* () {
            const wr = yield* WalletRequest
            const before = yield* balances

            // 1. The toolkit asks; the wallet signs; the toolkit reads the answer from the relay.
            const committed = yield* Deferred.make<string>()
            const signed = yield* wr.sendPreAuthorizationRequest(
              SubintentRequestBuilder.manifest(sellerManifest)
                .setExpiration("afterDelay", 600)
                .message("100 hUSDC for at least 0.05 hETH")
                .onSubmittedSuccess((hash) => Deferred.unsafeDone(committed, Exit.succeed(hash)))
                .build()
            )
            expect(yield* Queue.take(p.answers)).toMatchObject({
              discriminator: "success",
              items: { discriminator: "preAuthorizationResponse", response: signed }
            })
            const [pending] = yield* wr.getRequestItems
            expect(pending).toMatchObject({
              type: "preAuthorizationRequest",
              status: "pendingCommit",
              transactionIntentHash: signed.subintentHash
            })

            // 2. What the toolkit got decodes with txv2: the seller's signature over the subintent it names.
            const child = right(
              decodeSignedPartialTransactionV2(fromHex(signed.signedPartialTransaction) ?? new Uint8Array())
            )
            right(verifySignedPartialTransactionV2(child))
            const childId = subintentId(right(subintentHash(child.partialTransaction.rootSubintent)), NETWORK)
            expect(childId).toBe(signed.subintentHash)
            const core = child.partialTransaction.rootSubintent.intentCore
            expect(core.instructions).toEqual(right(compileManifest(sellerManifest, NETWORK)).instructions)
            expect(core.message).toMatchObject({
              type: "Plaintext",
              message: { value: "100 hUSDC for at least 0.05 hETH" }
            })
            expect(child.partialTransaction.rootSubintent.intentCore.header.maxProposerTimestampExclusive).toBe(
              BigInt(signed.expirationTimestamp)
            )
            const unknown = yield* gateway("/transaction/subintent-status", { subintent_hash: childId })
            expect(unknown.json).toMatchObject({ subintent_status: "Unknown" })

            // 3. The buyer's parent, built with txv2, through the gateway emulator's HTTP submit.
            const parent = yield* parentTransaction(child, childId, AT_LEAST)
            const submitted = yield* gateway("/transaction/submit", {
              notarized_transaction_hex: toHex(parent.payload)
            })
            expect(submitted).toEqual({ status: 200, json: { duplicate: false } })
            const txid = parent.ids.transactionIntent
            const status = yield* gateway("/transaction/status", { intent_hash: txid })
            expect(status.json).toMatchObject({ status: "CommittedSuccess", intent_status: "CommittedSuccess" })

            // 4. Both legs on the ledger, through /state/entity/details; the fee is the buyer's alone.
            const details = yield* gateway("/transaction/committed-details", {
              intent_hash: txid,
              opt_ins: { balance_changes: true }
            })
            const info = details.json["transaction"] as Json
            const fee = String(info["fee_paid"])
            expect(BigDecimal.isPositive(decimal(fee))).toBe(true)
            const after = yield* balances
            expect(after).toEqual({
              seller: {
                XRD: before.seller.XRD,
                hUSDC: minus(before.seller.hUSDC, SELL),
                hETH: plus(before.seller.hETH, AT_LEAST)
              },
              buyer: {
                XRD: minus(before.buyer.XRD, fee),
                hUSDC: plus(before.buyer.hUSDC, SELL),
                hETH: minus(before.buyer.hETH, AT_LEAST)
              }
            })

            // 5. ... and through the committed details and the stream: one transaction, both intents.
            expect(info).toMatchObject({
              transaction_status: "CommittedSuccess",
              intent_hash: txid,
              child_subintent_hashes: [childId]
            })
            expect((info["subintent_details"] as ReadonlyArray<Json>).map((d) => d["subintent_hash"])).toEqual([
              childId
            ])
            const legs = (changes: Json) =>
              (changes["fungible_balance_changes"] as ReadonlyArray<Json>)
                .filter((c) => c["resource_address"] !== XRD)
                .map((c) => [c["entity_address"], c["resource_address"], c["balance_change"]])
                .sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`))
            const expectedLegs = [
              [seller, hUSDC, `-${SELL}`],
              [seller, hETH, AT_LEAST],
              [buyer, hUSDC, SELL],
              [buyer, hETH, `-${AT_LEAST}`]
            ].sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`))
            expect(legs(info["balance_changes"] as Json)).toEqual(expectedLegs)
            const stream = yield* gateway("/stream/transactions", {
              manifest_accounts_withdrawn_from_filter: [seller],
              opt_ins: { balance_changes: true },
              limit_per_page: 1
            })
            const [latest] = stream.json["items"] as ReadonlyArray<Json>
            expect(latest).toMatchObject({
              intent_hash: txid,
              transaction_status: "CommittedSuccess",
              subintent_details: [{ subintent_hash: childId }]
            })
            expect(legs(latest?.["balance_changes"] as Json)).toEqual(expectedLegs)

            // 6. subintent-status names the parent; the toolkit's own poll reads it and settles the request.
            const finalized = yield* gateway("/transaction/subintent-status", { subintent_hash: childId })
            expect(finalized.json).toMatchObject({
              subintent_status: "CommittedSuccess",
              finalized_at_state_version: status.json["committed_state_version"],
              finalized_at_transaction_intent_hash: txid
            })
            expect(yield* Deferred.await(committed)).toBe(txid)
            const [done] = yield* wr.getRequestItems
            expect(done).toMatchObject({
              status: "success",
              metadata: { parentTransactionIntentHash: txid, subintentHash: childId }
            })

            // 7. The same signed subintent under a new parent: refused for good, nothing committed, nothing moves.
            const replay = yield* parentTransaction(child, childId, AT_LEAST)
            expect(replay.ids.transactionIntent).not.toBe(txid)
            const refused = yield* gateway("/transaction/submit", { notarized_transaction_hex: toHex(replay.payload) })
            expect(refused.status).toBe(400)
            const reason = `IntentHashPreviouslyCommitted(Subintent(${childId}))`
            expect(refused.json["message"]).toBe(reason)
            expect(yield* balances).toEqual(after)
            const replayStatus = yield* gateway("/transaction/status", { intent_hash: replay.ids.transactionIntent })
            expect(replayStatus.json).toMatchObject({
              status: "Rejected",
              intent_status: "PermanentlyRejected",
              error_message: reason
            })
            const notCommitted = yield* gateway("/transaction/committed-details", {
              intent_hash: replay.ids.transactionIntent
            })
            expect(notCommitted.status).toBe(404)
            // The ledger's own round updates go on; no user transaction has been committed since the parent.
            const users = yield* gateway("/stream/transactions", { kind_filter: "User", limit_per_page: 1 })
            expect((users.json["items"] as ReadonlyArray<Json>)[0]?.["intent_hash"]).toBe(txid)
          })
        )
    )

    it.effect(
      "an expiration already past or too close: the wallet refuses, the toolkit fails with its catalogue error",
      () =>
        withToolkit((p) =>
          Effect.gen(function* () {
            const wr = yield* WalletRequest
            const now = Math.floor(Date.now() / 1000)
            const ask = (at: number) =>
              Effect.flip(
                wr.sendPreAuthorizationRequest(
                  SubintentRequestBuilder.manifest(sellerManifest).setExpiration("atTime", at).build()
                )
              )
            const expired = yield* ask(now - 60)
            expect(expired).toBeInstanceOf(ExpiredSubintent)
            expect(expired.message).toMatch(/^The pre-authorization expired at .+, before it was signed$/)
            const tooClose = yield* ask(now + 10)
            expect(tooClose).toBeInstanceOf(SubintentExpirationTooClose)
            expect(tooClose.message).toMatch(/the wallet needs at least 30 s$/)
            const answers = [yield* Queue.take(p.answers), yield* Queue.take(p.answers)]
            expect(answers.map((a) => (a.discriminator === "failure" ? a.error : a.discriminator))).toEqual([
              "expiredSubintent",
              "subintentExpirationTooClose"
            ])
            expect((yield* wr.getRequestItems).map((i) => [i.status, i.error])).toEqual([
              ["fail", "expiredSubintent"],
              ["fail", "subintentExpirationTooClose"]
            ])
          })
        )
    )

    it.effect("what Node refuses before any handler (a malformed request line, oversized headers) is a JSON 4xx", () =>
      Effect.gen(function* () {
        const { url } = yield* NpmStart
        const rawRequest = (text: string) =>
          Effect.promise(
            () =>
              new Promise<{ readonly head: string; readonly json: unknown }>((ok, fail) => {
                const socket = connect(Number(new URL(url).port), "127.0.0.1", () => socket.end(text))
                let answer = ""
                socket.on("data", (b: Buffer) => (answer += b.toString()))
                socket.on("close", () => {
                  const at = answer.indexOf("\r\n\r\n")
                  const body = answer.slice(at + 4)
                  let json: unknown
                  try {
                    json = JSON.parse(body)
                  } catch {
                    json = `not JSON: ${JSON.stringify(body)}`
                  }
                  ok({ head: answer.slice(0, at), json })
                })
                socket.on("error", fail)
              })
          )
        const malformed = yield* rawRequest("GARBAGE / HTTP/9.9\r\n\r\n")
        expect(malformed.head).toMatch(/^HTTP\/1\.1 400 /)
        expect(malformed.json).toEqual({ error: "Bad request", message: "Bad request" })
        const huge = yield* rawRequest(`GET /api/health HTTP/1.1\r\nhost: x\r\nx-junk: ${"a".repeat(40_000)}\r\n\r\n`)
        expect(huge.head).toMatch(/^HTTP\/1\.1 431 /)
        expect(huge.head).toMatch(/content-type: application\/json/)
        expect(huge.json).toEqual({ error: "Request headers too large", message: "Request headers too large" })
        // The server goes on answering.
        const health = yield* Effect.promise(() => fetch(`${url}/api/health`))
        expect(health.status).toBe(200)
      })
    )
  }
)
