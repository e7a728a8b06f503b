/**
 * The wallet emulator over HTTP, as `npm start` mounts it: the in-page script, the wallet API and its guards, and
 * the mobile mode end to end with the toolkit's own Relay (deep link, signature, relay, decryption).
 */
import { FetchHttpClient, KeyValueStore } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ed25519 } from "@noble/curves/ed25519.js"
import { Effect, Either, Layer } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { join } from "node:path"
import { startDevnetGateway, type DevnetGateway } from "../../src/devnet/gateway/node.js"
import { injectWalletScript, type DevnetWallet, startDevnetWallet } from "../../src/devnet/wallet/index.js"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses.js"
import { Crypto, Environment, SubintentRequestBuilder, Toolkit, WalletRequest } from "../../src/toolkit/index.js"
import { ToolkitGateway } from "../../src/toolkit/gateway.js"
import { Relay } from "../../src/toolkit/relay.js"
import { decodeSignedPartialTransactionV2, decodeTransactionId, fromHex, subintentHash } from "../../src/txv2/index.js"
import { virtualAccountAddress } from "../../src/devnet/ledger/address.js"
import { fakeExtension } from "../toolkit/fakes.js"
import type { WalletInteraction, WalletInteractionItems, WalletInteractionResponse } from "../../src/toolkit/schemas.js"
import { baseLayer } from "../toolkit/layers.js"

let gateway: DevnetGateway
let wallet: DevnetWallet
let server: Server
let url = ""

beforeAll(async () => {
  gateway = await startDevnetGateway({ dataDir: undefined })
  wallet = await startDevnetWallet({ gateway })
  const mounts = [gateway.mount, ...wallet.mounts]
  server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    const mount = mounts.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`))
    if (mount === undefined) res.writeHead(404).end()
    else void mount.handle(req, res)
  })
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  const address = server.address()
  url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
})

afterAll(async () => {
  await new Promise<void>((ok) => {
    server.close(() => ok())
    server.closeAllConnections()
  })
  await wallet.close()
  await gateway.dispose()
})

const [user1 = ""] = DevnetAddresses.users
const dApp = DevnetAddresses.dAppDefinition
let counter = 0
const interactionOf = (items: WalletInteractionItems, origin = "http://localhost:5173"): WalletInteraction => ({
  items,
  interactionId: `11111111-2222-4333-8444-${String(++counter).padStart(12, "0")}`,
  metadata: { version: 2, dAppDefinitionAddress: dApp, networkId: 240, origin }
})

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })

describe("wallet emulator HTTP endpoints", () => {
  it("serves the in-page script that speaks the extension protocol", async () => {
    const res = await fetch(`${url}/devnet/wallet.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("text/javascript")
    const script = await res.text()
    expect(script).toContain("radix#chromeExtension#receive")
    expect(script).toContain("radix#chromeExtension#send")
    expect(script).toContain("Devnet Wallet")
  })

  it("injects the script tag once, deferred and first in <head> (so it runs before the app's module scripts)", () => {
    const html = `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="/assets/app.js"></script></head><body></body></html>`
    const injected = injectWalletScript(html)
    const tag = `<script defer src="/devnet/wallet.js"></script>`
    expect(injected).toBe(html.replace("<head>", `<head>\n    ${tag}`))
    expect(injected.split("/devnet/wallet.js")).toHaveLength(2)
    expect(injectWalletScript(injected)).toBe(injected)
    // No <head>: the tag goes first in the document.
    expect(injectWalletScript("<p>x</p>")).toBe(`${tag}\n<p>x</p>`)
  })

  it("serves the dashboard as frameable-by-us HTML with no scripts allowed, and 404 pages for unknowns", async () => {
    const page = await fetch(`${url}/devnet/dashboard/account/${user1}/tokens`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    const csp = page.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'self'")
    expect(await page.text()).toContain("hUSDC")
    expect((await fetch(`${url}/devnet/dashboard/transaction/txid_loc1nothing`)).status).toBe(404)
    expect((await postJson("/devnet/dashboard/account/x", {})).status).toBe(405)
  })

  it("the app's sources never import the devnet, so the production build cannot contain the wallet script", () => {
    const files = (dir: string): Array<string> =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [join(dir, e.name)] : []
      )
    const browserSources = ["src/app", "src/toolkit", "src/gateway", "src/exchange"].flatMap(files)
    expect(browserSources.length).toBeGreaterThan(20)
    const importsDevnet = /(from\s+|import\s*\(\s*)["'][^"']*\/devnet\//
    expect(browserSources.filter((f) => importsDevnet.test(readFileSync(f, "utf8")))).toEqual([])
    expect(readFileSync("index.html", "utf8")).not.toContain("/devnet/wallet.js")
  })

  it("describes the wallet's accounts and persona", async () => {
    const info = await (await fetch(`${url}/devnet/wallet`)).json()
    expect(info).toMatchObject({
      networkId: 240,
      persona: { identityAddress: DevnetAddresses.persona },
      dashboardUrl: "/devnet/dashboard"
    })
    expect((info as { accounts: Array<{ address: string }> }).accounts.map((a) => a.address)).toEqual(
      DevnetAddresses.users
    )
  })

  it("reviews and answers over HTTP; refuses other origins, non-JSON bodies and bad input", async () => {
    const interaction = interactionOf({
      discriminator: "transaction",
      send: {
        version: 1,
        transactionManifest: `CALL_METHOD Address("${user1}") "withdraw" Address("${DevnetAddresses.resources.XRD}") Decimal("3");
TAKE_ALL_FROM_WORKTOP Address("${DevnetAddresses.resources.XRD}") Bucket("b");
CALL_METHOD Address("${DevnetAddresses.exchangeAccount}") "try_deposit_or_abort" Bucket("b") Enum<0u8>();`
      }
    })
    const review = await postJson("/devnet/wallet/review", { interaction })
    expect(review.status).toBe(200)
    expect(await review.json()).toMatchObject({ kind: "transaction", transaction: { predicted: "CommittedSuccess" } })

    const crossSite = await postJson(
      "/devnet/wallet/respond",
      { interaction, decision: { approve: true } },
      { origin: "https://evil.example" }
    )
    expect(crossSite.status).toBe(403)
    const plain = await fetch(`${url}/devnet/wallet/respond`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ interaction, decision: { approve: true } })
    })
    expect(plain.status).toBe(415)
    const bad = await postJson("/devnet/wallet/respond", { interaction: { items: {} }, decision: { approve: true } })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toMatch(/^Invalid request/)
    expect((await postJson("/devnet/wallet/nothing", {})).status).toBe(404)
    expect((await fetch(`${url}/devnet/wallet/respond`)).status).toBe(405)

    const answered = await postJson(
      "/devnet/wallet/respond",
      { interaction, decision: { approve: true } },
      { origin: url }
    )
    expect(answered.status).toBe(200)
    const { response } = (await answered.json()) as { response: WalletInteractionResponse }
    if (response.discriminator !== "success" || response.items.discriminator !== "transaction")
      throw new Error("no hash")
    const status = await postJson("/gateway/transaction/status", {
      intent_hash: response.items.send.transactionIntentHash
    })
    expect(await status.json()).toMatchObject({ status: "CommittedSuccess" })
  })
})

describe("mobile mode through the relay emulator, with the toolkit's Relay", () => {
  const relayLayer = () =>
    Relay.Default.pipe(
      Layer.provideMerge(
        baseLayer({
          isMobile: true,
          seed: `wallet-http-${++counter}`,
          options: { networkId: 240, dAppDefinitionAddress: dApp, relayUrl: `${url}/relay` }
        })
      ),
      Layer.provide(FetchHttpClient.layer)
    )

  const answerLink = (link: string, decision?: { approve: boolean }) =>
    Effect.promise(async () => {
      const res = await postJson(
        "/devnet/mobile-wallet/deeplink",
        decision === undefined ? { url: link } : { url: link, decision }
      )
      return {
        status: res.status,
        json: (await res.json()) as { response?: WalletInteractionResponse; error?: string; sessionId?: string }
      }
    })

  it.live("a connect, then a transaction: each deep link is answered, relayed, decrypted and delivered once", () =>
    Effect.gen(function* () {
      const relay = yield* Relay
      const session = yield* relay.getSession
      const connect = interactionOf({
        discriminator: "authorizedRequest",
        auth: { discriminator: "loginWithoutChallenge" },
        reset: { accounts: false, personaData: false },
        ongoingAccounts: { numberOfAccounts: { quantifier: "atLeast", quantity: 1 } }
      })
      const link = yield* relay.deepLink(connect)
      expect(link.startsWith("radixwallet://connect?sessionId=")).toBe(true)
      const answered = yield* answerLink(link)
      expect(answered.status).toBe(200)
      expect(answered.json.sessionId).toBe(session.sessionId)
      expect(answered.json.response).toMatchObject({
        discriminator: "success",
        interactionId: connect.interactionId,
        items: {
          auth: { persona: { identityAddress: DevnetAddresses.persona } },
          ongoingAccounts: { accounts: [{ address: user1 }] }
        }
      })
      const delivered = yield* relay.getResponses(session.sessionId)
      expect(delivered).toEqual([{ _tag: "Response", response: answered.json.response }])
      expect(yield* relay.getResponses(session.sessionId)).toEqual([])

      const send = interactionOf({
        discriminator: "transaction",
        send: {
          version: 1,
          message: "mobile swap",
          transactionManifest: `CALL_METHOD Address("${user1}") "withdraw" Address("${DevnetAddresses.resources.hETH}") Decimal("0.25");
TAKE_ALL_FROM_WORKTOP Address("${DevnetAddresses.resources.hETH}") Bucket("b");
CALL_METHOD Address("${DevnetAddresses.exchangeAccount}") "try_deposit_or_abort" Bucket("b") Enum<0u8>();`
        }
      })
      yield* answerLink(yield* relay.deepLink(send))
      const [txDelivery] = yield* relay.getResponses(session.sessionId)
      if (txDelivery?._tag !== "Response") throw new Error(`no response: ${JSON.stringify(txDelivery)}`)
      const response = txDelivery.response
      if (response.discriminator !== "success" || response.items.discriminator !== "transaction")
        throw new Error("no hash")
      const committed = yield* Effect.promise(async () =>
        (
          await postJson("/gateway/transaction/committed-details", {
            intent_hash:
              response.items.discriminator === "transaction" ? response.items.send.transactionIntentHash : "",
            opt_ins: { balance_changes: true, message: true }
          })
        ).json()
      )
      expect(committed).toMatchObject({
        transaction: {
          transaction_status: "CommittedSuccess",
          message: { type: "Plaintext", content: { type: "String", value: "mobile swap" } }
        }
      })
    }).pipe(Effect.provide(relayLayer()))
  )

  it.live("a rejection is relayed as a failure; a tampered or malformed link is refused with 400", () =>
    Effect.gen(function* () {
      const relay = yield* Relay
      const session = yield* relay.getSession
      const request = interactionOf({
        discriminator: "unauthorizedRequest",
        oneTimeAccounts: { numberOfAccounts: { quantifier: "exactly", quantity: 1 } }
      })
      const link = yield* relay.deepLink(request)
      const rejected = yield* answerLink(link, { approve: false })
      expect(rejected.json.response).toEqual({
        discriminator: "failure",
        interactionId: request.interactionId,
        error: "rejectedByUser"
      })
      expect(yield* relay.getResponses(session.sessionId)).toEqual([
        { _tag: "Response", response: rejected.json.response }
      ])

      const tampered = link.replace(/signature=([0-9a-f])/, (_, c: string) => `signature=${c === "0" ? "1" : "0"}`)
      const refused = yield* answerLink(tampered)
      expect(refused.status).toBe(400)
      expect(refused.json.error).toContain("signature")
      const malformed = yield* answerLink("https://example.com/?sessionId=x")
      expect(malformed.status).toBe(400)
      const otherScheme = yield* answerLink(link.replace("radixwallet://", "otherwallet://"))
      expect(otherScheme.status).toBe(400)
      expect(yield* relay.getResponses(session.sessionId)).toEqual([])
    }).pipe(Effect.provide(relayLayer()))
  )
})

const preAuthManifest = `
CALL_METHOD Address("${user1}") "withdraw" Address("${DevnetAddresses.resources.XRD}") Decimal("10");
TAKE_FROM_WORKTOP Address("${DevnetAddresses.resources.XRD}") Decimal("10") Bucket("sold");
YIELD_TO_PARENT Bucket("sold");
ASSERT_WORKTOP_CONTAINS Address("${DevnetAddresses.resources.hUSDC}") Decimal("2");
CALL_METHOD Address("${user1}") "deposit_batch" Expression("ENTIRE_WORKTOP");
YIELD_TO_PARENT;`

/** Decodes a signed partial with txv2 and checks user1's signature over the id's subintent hash. */
const verifySignedPartial = (signed: { signedPartialTransaction: string; subintentHash: string }) => {
  const bytes = fromHex(signed.signedPartialTransaction)
  if (bytes === undefined) throw new Error("not hex")
  const partial = decodeSignedPartialTransactionV2(bytes)
  if (Either.isLeft(partial)) throw new Error(partial.left.message)
  const hash = subintentHash(partial.right.partialTransaction.rootSubintent)
  const id = decodeTransactionId(signed.subintentHash, { kind: "subintent", networkId: 240 })
  if (Either.isLeft(hash) || Either.isLeft(id)) throw new Error("no hash")
  expect(Buffer.from(id.right.hash).equals(Buffer.from(hash.right))).toBe(true)
  const [sig] = partial.right.rootSubintentSignatures
  if (sig?.type !== "Ed25519") throw new Error("expected an Ed25519 signature")
  expect(virtualAccountAddress(sig.publicKey)).toBe(user1)
  expect(ed25519.verify(sig.signature, hash.right, sig.publicKey)).toBe(true)
  return partial.right.partialTransaction.rootSubintent
}

describe("pre-authorisations through the toolkit", () => {
  /** The toolkit over an extension that hands each interaction to the emulator's API, approving or rejecting. */
  const toolkitLayer = (approve: boolean) => {
    const fake = fakeExtension({
      onInteraction: (m, f) => {
        const interaction = (m["discriminator"] === "walletInteraction" ? m["interaction"] : m) as WalletInteraction
        void postJson("/devnet/wallet/respond", { interaction, decision: { approve } }, { origin: url })
          .then((res) => res.json() as Promise<{ response: WalletInteractionResponse }>)
          .then(({ response }) => f.reply(response))
      }
    })
    return Toolkit.layerWith(
      { networkId: 240, dAppDefinitionAddress: dApp },
      {
        environment: Environment.Test({ events: fake.target, origin: "http://localhost:5173" }),
        crypto: Crypto.Test("wallet-http-preauth"),
        gateway: ToolkitGateway.make({
          transactionStatus: () => Effect.succeed("Pending"),
          subintentStatus: () => Effect.succeed({ subintentStatus: "Unknown", transactionIntentHash: undefined }),
          dAppName: () => Effect.succeed("hSwap")
        })
      }
    ).pipe(Layer.provideMerge(KeyValueStore.layerMemory), Layer.provide(FetchHttpClient.layer))
  }

  it.live("WalletRequest.sendPreAuthorizationRequest decodes the emulator's signed subintent", () =>
    Effect.gen(function* () {
      const wr = yield* WalletRequest
      const before = Math.floor(Date.now() / 1000)
      const result = yield* wr.sendPreAuthorizationRequest(
        SubintentRequestBuilder.manifest(preAuthManifest)
          .setExpiration("afterDelay", 600)
          .message("hSwap order")
          .build()
      )
      const after = Math.floor(Date.now() / 1000)
      expect(result.expirationTimestamp).toBeGreaterThanOrEqual(before + 600)
      expect(result.expirationTimestamp).toBeLessThanOrEqual(after + 600)
      const root = verifySignedPartial(result)
      expect(root.intentCore.header.maxProposerTimestampExclusive).toBe(BigInt(result.expirationTimestamp))
      expect(root.intentCore.message).toMatchObject({ type: "Plaintext", message: { value: "hSwap order" } })
      const [item] = yield* wr.getRequestItems
      expect(item).toMatchObject({
        type: "preAuthorizationRequest",
        status: "pendingCommit",
        transactionIntentHash: result.subintentHash
      })
    }).pipe(Effect.provide(toolkitLayer(true)))
  )

  it.live("a rejection reaches the toolkit as rejectedByUser", () =>
    Effect.gen(function* () {
      const wr = yield* WalletRequest
      const result = yield* Effect.either(
        wr.sendPreAuthorizationRequest(
          SubintentRequestBuilder.manifest(preAuthManifest).setExpiration("afterDelay", 600).build()
        )
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("rejectedByUser")
    }).pipe(Effect.provide(toolkitLayer(false)))
  )

  it.live("the deep link + relay path answers a pre-authorisation; a foreign account is refused", () =>
    Effect.gen(function* () {
      const relay = yield* Relay
      const session = yield* relay.getSession
      const request = interactionOf({
        discriminator: "preAuthorizationRequest",
        request: {
          discriminator: "subintent",
          version: 1,
          manifestVersion: 2,
          subintentManifest: preAuthManifest,
          expiration: { discriminator: "expireAtTime", unixTimestampSeconds: Math.floor(Date.now() / 1000) + 3600 }
        }
      })
      const res = yield* Effect.promise(async () => {
        const r = await postJson("/devnet/mobile-wallet/deeplink", {
          url: await Effect.runPromise(relay.deepLink(request))
        })
        return { status: r.status, json: (await r.json()) as { response?: WalletInteractionResponse } }
      })
      expect(res.status).toBe(200)
      const [delivered] = yield* relay.getResponses(session.sessionId)
      if (delivered?._tag !== "Response") throw new Error(`no response: ${JSON.stringify(delivered)}`)
      expect(delivered.response).toEqual(res.json.response)
      const response = delivered.response
      if (
        response.discriminator !== "success" ||
        response.items.discriminator !== "preAuthorizationResponse" ||
        !response.items.response
      )
        throw new Error(`expected a signed subintent: ${JSON.stringify(response)}`)
      verifySignedPartial(response.items.response)

      const foreign = interactionOf({
        discriminator: "preAuthorizationRequest",
        request: {
          discriminator: "subintent",
          version: 1,
          manifestVersion: 2,
          subintentManifest: preAuthManifest.replaceAll(user1, DevnetAddresses.exchangeAccount),
          expiration: { discriminator: "expireAfterDelay", expireAfterSeconds: 600 }
        }
      })
      const refused = yield* Effect.promise(async () => {
        const r = await postJson("/devnet/mobile-wallet/deeplink", {
          url: await Effect.runPromise(relay.deepLink(foreign))
        })
        return (await r.json()) as { response?: WalletInteractionResponse }
      })
      expect(refused.response).toMatchObject({ discriminator: "failure", error: "failedToSignTransaction" })
    }).pipe(
      Effect.provide(
        Relay.Default.pipe(
          Layer.provideMerge(
            baseLayer({
              isMobile: true,
              seed: `wallet-http-preauth-${++counter}`,
              options: { networkId: 240, dAppDefinitionAddress: dApp, relayUrl: `${url}/relay` }
            })
          ),
          Layer.provide(FetchHttpClient.layer)
        )
      )
    )
  )
})
