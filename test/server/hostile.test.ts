/**
 * The exchange server as an attacker tries it, on each store, over real HTTP:
 *
 * - every `/api` route with malformed JSON, wrong types, 1 MB+ bodies, absurd amounts, malformed addresses and
 *   hashes, wrong methods and content types: a 4xx with a JSON error, never a 5xx, and the server keeps answering;
 * - someone registers another user's deposit, replays it, or registers a deposit whose fee payer is not the account
 *   the tokens left: only the depositor is paid, once;
 * - `X-Forwarded-For` does not evade the rate limit unless proxy hops are trusted; admin answers on loopback only, by
 *   peer address, and to no web page (no CORS header, JSON bodies only: 415 otherwise); CORS allows exactly the
 *   configured origins; what Node itself refuses is a JSON 4xx too;
 * - refused deposits (route not offered, a token the exchange does not list, below the minimum, above the maximum, in
 *   maintenance), registered many times or found by the watcher, are refunded once, and the refund shows in the
 *   transaction list;
 * - the static server reads nothing outside its root, however the path is encoded, and sends its security headers
 *   on every response.
 */
import { ManifestBuilder, address, bucket, decimal, enumeration } from "@radixdlt/radix-engine-toolkit"
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { type Server, createServer, request } from "node:http"
import { connect } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contentSecurityPolicy, serveStatic, withInlineScripts } from "../../src/devnet/static"
import { firstPaintScript } from "../../src/app/shell/firstPaint"
import { buildNotarizedTransaction } from "../../src/devnet/ledger/build"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"
import { clientErrorsAsJson, type ExchangeServer, IN_MAINTENANCE, listenExchangeServer } from "../../src/server/index"
import {
  type Devnet,
  balance,
  eventually,
  messageOf,
  operatorTransactions,
  startLedger,
  startServer,
  swapMessage,
  tempDir,
  transfer
} from "./harness"
import { type FreshStore, STORES } from "./stores"

const { hUSDC, hUSDT, hETH, GKS, hWBTC } = DevnetAddresses.resources
const exchange = DevnetAddresses.exchangeAccount
type Json = Record<string, unknown>
const JSON_TYPE = { "content-type": "application/json" }

/** Every transaction that withdrew from the exchange account, with its message. */
const operatorMessages = async (devnet: Devnet) => (await operatorTransactions(devnet)).items.map(messageOf)

for (const kind of STORES) {
  describe.skipIf(kind.skipped !== undefined)(`hostile clients on ${kind.name}`, () => {
    let devnet: Devnet
    let store: FreshStore
    let server: ExchangeServer
    let http: { readonly url: string; readonly close: () => Promise<void> }

    beforeAll(async () => {
      devnet = await startLedger()
      store = await kind.fresh()
      server = await startServer(devnet, undefined, { ...store.options, corsOrigins: ["https://app.example"] })
      http = await listenExchangeServer(server, 0, "127.0.0.1")
    }, 60_000)
    afterAll(async () => {
      try {
        await http.close()
        await server.close()
        await devnet.dispose()
      } finally {
        await store.remove()
      }
    })

    const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
      const init: RequestInit = { method, headers }
      if (body !== undefined) init.body = body
      const r = await fetch(`${http.url}/api${path}`, init)
      const text = await r.text()
      let json: unknown = undefined
      try {
        json = text === "" ? null : JSON.parse(text)
      } catch {
        json = `not JSON: ${text.slice(0, 80)}`
      }
      return { status: r.status, json, headers: r.headers }
    }

    it("every route, every kind of junk: a 4xx JSON error, never a 5xx; the server keeps answering", async () => {
      const absurd = [
        "-1",
        "1e400",
        `0.${"0".repeat(39)}1`,
        "NaN",
        "Infinity",
        "0x10",
        "1".repeat(400),
        "%00",
        "..%2F..%2Fetc%2Fpasswd",
        "🙂",
        "%E0%A4%A"
      ]
      const paths = [
        "/health",
        "/liquidity",
        "/stats",
        "/btcbridge/price",
        "/transactions/latest",
        ...absurd.flatMap((a) => [
          `/liveprice/${a}/${hETH}`,
          `/liveprice/${hUSDC}/${a}`,
          `/swap/${a}`,
          `/transactions/${a}`,
          `/${a}`
        ]),
        `/swap/txid_loc1${"q".repeat(58)}`,
        `/transactions/${exchange.slice(0, -1)}x`,
        "/admin/maintenance"
      ]
      const bodies: ReadonlyArray<string | undefined> = [
        undefined,
        "{",
        "[]",
        "null",
        '{"tx_hash": 5}',
        '{"tx_hash": {"$ne": null}}',
        '{"tx_hash": "x", "tx_hash": "y"}',
        '{"enabled": "yes"}',
        '{"amount": 1e400, "decimals": -1}',
        "\u0000\u0001",
        "x".repeat(5000)
      ]
      const methods = ["GET", "POST", "PUT", "DELETE", "PATCH"]
      const contentTypes = [
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x"
      ]
      let n = 0
      for (const path of paths) {
        for (const method of methods) {
          const body = method === "GET" || method === "DELETE" ? undefined : bodies[n % bodies.length]
          const type = contentTypes[n % contentTypes.length] ?? "application/json"
          n++
          const r = await call(method, path, body, { "content-type": type })
          expect([method, path, r.status < 500]).toEqual([method, path, true])
          if (r.status >= 400)
            expect([method, path, r.json]).toEqual([
              method,
              path,
              expect.objectContaining({ error: expect.any(String) })
            ])
        }
      }
      // 1 MB and more, declared or streamed without a length: 413 JSON, and the server is still there.
      for (const path of ["/swap/x", `/swap/txid_loc1${"q".repeat(58)}`, "/admin/maintenance", "/health"]) {
        const big = await call("POST", path, "{".repeat(1_100_000), {
          "content-type": "application/json"
        }).catch((e: unknown) => ({ status: 0, json: String(e), headers: new Headers() }))
        expect([path, big.status]).toEqual([path, path === "/health" ? 405 : 413])
      }
      const health = await call("GET", "/health")
      expect(health.status).toBe(200)
    }, 120_000)

    it("registering another user's deposit, or replaying it, pays only the depositor, once", async () => {
      const [victim, attacker] = devnet.ledger.genesis.users
      const before = {
        victim: await balance(devnet, victim.address, hETH),
        attacker: await balance(devnet, attacker.address, hETH)
      }
      const tx = await transfer(devnet, {
        from: victim,
        to: exchange,
        resource: hUSDC,
        amount: "30",
        message: swapMessage("hUSDC", "hETH")
      })
      const first = await call("POST", `/swap/${tx}`, JSON.stringify({ tx_hash: tx }), {
        ...JSON_TYPE,
        "x-forwarded-for": attacker.address
      })
      expect(first.status).toBe(200)
      expect((first.json as Json)["status"]).toBe("completed")
      const replays = await Promise.all(Array.from({ length: 5 }, () => call("POST", `/swap/${tx}`)))
      expect(new Set(replays.map((r) => ((r.json as Json)["transaction"] as Json)["tx_out"])).size).toBe(1)
      expect(await balance(devnet, attacker.address, hETH)).toBe(before.attacker)
      expect(await balance(devnet, victim.address, hETH)).not.toBe(before.victim)
      expect((await operatorMessages(devnet)).filter((m) => m === `hSwap payout for ${tx}`)).toHaveLength(1)
    })

    it("a deposit whose fee payer is not the account the tokens left pays the account the tokens left", async () => {
      const [, payer, owner] = devnet.ledger.genesis.users
      const before = {
        payer: await balance(devnet, payer.address, hETH),
        owner: await balance(devnet, owner.address, hETH)
      }
      const { epoch } = await devnet.run(devnet.ledger.state)
      const built = await devnet.run(
        buildNotarizedTransaction({
          manifest: new ManifestBuilder()
            .callMethod(payer.address, "lock_fee", [decimal(5)])
            .callMethod(owner.address, "withdraw", [address(hUSDC), decimal("15")])
            .takeAllFromWorktop(hUSDC, (b, id) =>
              b.callMethod(exchange, "try_deposit_or_abort", [bucket(id), enumeration(0)])
            )
            .build(),
          signers: [payer.key, owner.key],
          notary: devnet.ledger.genesis.notary,
          startEpochInclusive: epoch,
          message: swapMessage("hUSDC", "hETH")
        })
      )
      await devnet.run(devnet.ledger.submit(built.notarizedTransactionHex))
      const r = await call("POST", `/swap/${built.intentHash}`)
      expect(((r.json as Json)["transaction"] as Json)["from"]).toBe(owner.address)
      expect(await balance(devnet, payer.address, hETH)).toBe(before.payer)
      expect(await balance(devnet, owner.address, hETH)).not.toBe(before.owner)
    })

    it("refused deposits are refunded exactly once, and the refund shows in the transaction list", async () => {
      const user = devnet.ledger.genesis.users[2]
      // GKS is a devnet token the exchange does not list; only the exchange holds it at genesis.
      await transfer(devnet, { from: devnet.ledger.genesis.exchange, to: user.address, resource: GKS, amount: "100" })
      const unsupported = "is not one the exchange swaps"
      const cases = [
        { resource: hUSDT, amount: "7", message: swapMessage("hUSDT", "hETH"), reason: "Route not available" },
        { resource: hUSDC, amount: "0.5", message: swapMessage("hUSDC", "hETH"), reason: "outside the limits" },
        { resource: hUSDC, amount: "250", message: swapMessage("hUSDC", "hETH"), reason: "outside the limits" },
        { resource: GKS, amount: "7", message: swapMessage("hUSDC", "hETH"), reason: unsupported },
        { resource: hWBTC, amount: "0.01", message: swapMessage("hWBTC", "hUSDC"), reason: unsupported }
      ]
      const txs: Array<{ tx: string; reason: string; resource: string }> = []
      for (const c of cases) {
        const before = await balance(devnet, user.address, c.resource)
        const tx = await transfer(devnet, {
          from: user,
          to: exchange,
          resource: c.resource,
          amount: c.amount,
          message: c.message
        })
        // Registered many times at once: one refund, and every answer tells the same story.
        const answers = await Promise.all(Array.from({ length: 8 }, () => call("POST", `/swap/${tx}`)))
        for (const r of answers)
          expect([c.reason, r.json]).toMatchObject([c.reason, { transaction: { status: "canceled" } }])
        expect(new Set(answers.map((r) => ((r.json as Json)["transaction"] as Json)["refund_tx"])).size).toBe(1)
        expect(await balance(devnet, user.address, c.resource)).toBe(before)
        txs.push({ tx, reason: c.reason, resource: c.resource })
      }
      // Nobody registers it: the watcher finds the deposit of an unlisted token and refunds it.
      const gksBefore = await balance(devnet, user.address, GKS)
      const unregistered = await transfer(devnet, {
        from: user,
        to: exchange,
        resource: GKS,
        amount: "3",
        message: swapMessage("GKS", "hUSDC")
      })
      expect(await balance(devnet, user.address, GKS)).not.toBe(gksBefore)
      await eventually(
        async () => ((await balance(devnet, user.address, GKS)) === gksBefore ? true : undefined),
        15_000
      )
      txs.push({ tx: unregistered, reason: unsupported, resource: GKS })
      // In maintenance the API answers 409, and the watcher refunds the deposit it finds.
      expect((await call("POST", "/admin/maintenance", JSON.stringify({ enabled: true }), JSON_TYPE)).status).toBe(200)
      const before = await balance(devnet, user.address, hUSDC)
      const tx = await transfer(devnet, {
        from: user,
        to: exchange,
        resource: hUSDC,
        amount: "9",
        message: swapMessage("hUSDC", "hETH")
      })
      expect((await call("POST", `/swap/${tx}`)).status).toBe(409)
      await eventually(async () => ((await balance(devnet, user.address, hUSDC)) === before ? true : undefined), 15_000)
      expect((await call("POST", "/admin/maintenance", JSON.stringify({ enabled: false }), JSON_TYPE)).status).toBe(200)
      txs.push({ tx, reason: IN_MAINTENANCE, resource: hUSDC })
      // Once more through the API and the watcher: nothing moves twice.
      for (const t of txs) await call("POST", `/swap/${t.tx}`)
      await new Promise((ok) => setTimeout(ok, 600))
      const messages = await operatorMessages(devnet)
      const list = ((await call("GET", `/transactions/${user.address}`)).json as { transactions: ReadonlyArray<Json> })
        .transactions
      for (const t of txs) {
        expect(
          messages.filter((m) => m === `hSwap refund for ${t.tx}`),
          t.tx
        ).toHaveLength(1)
        expect(
          messages.filter((m) => m === `hSwap payout for ${t.tx}`),
          t.tx
        ).toHaveLength(0)
        const record = list.find((r) => r["tx_in"] === t.tx)
        expect(record).toMatchObject({ status: "canceled", resource_in: t.resource, resource_out: t.resource })
        expect(record?.["refund_tx"]).toMatch(/^txid_loc1/)
        expect(record?.["tx_out"]).toBe(record?.["refund_tx"])
        expect(String(record?.["message"])).toContain(t.reason)
      }
      // An unlisted token is listed under its address, never under a symbol its (anyone's) metadata claims.
      expect(list.find((r) => r["tx_in"] === unregistered)).toMatchObject({ asset_in: GKS, asset_out: GKS })
    }, 90_000)

    it("X-Forwarded-For does not evade the rate limit unless proxy hops are trusted; admin is loopback by peer", async () => {
      const limited = await startServer(devnet, undefined, { ...store.options, rateLimitPerMinute: 5 })
      const trusting = await startServer(devnet, undefined, {
        ...store.options,
        rateLimitPerMinute: 5,
        trustedProxyHops: 1
      })
      try {
        const spoofed = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            limited.request({
              method: "GET",
              path: "/health",
              ip: "198.51.100.7",
              forwardedFor: `10.0.0.${i}`,
              body: undefined
            })
          )
        )
        expect(spoofed.filter((r) => r.status === 429).length).toBe(7)
        const viaProxy = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            trusting.request({
              method: "GET",
              path: "/health",
              ip: "127.0.0.1",
              forwardedFor: `203.0.113.${i}`,
              body: undefined
            })
          )
        )
        expect(viaProxy.every((r) => r.status === 200)).toBe(true)
        for (const s of [limited, trusting]) {
          const admin = await s.request({
            method: "GET",
            path: "/admin/maintenance",
            ip: "203.0.113.9",
            forwardedFor: "127.0.0.1",
            body: undefined
          })
          expect(admin.status).toBe(403)
          const forged = await s.request({
            method: "POST",
            path: "/admin/maintenance",
            ip: "::ffff:10.1.2.3",
            forwardedFor: "::1",
            body: '{"enabled":true}'
          })
          expect(forged.status).toBe(403)
        }
      } finally {
        await limited.close()
        await trusting.close()
      }
    })

    it("a body not sent as JSON is a 415; the admin route answers no web page, even a CORS-allowed one", async () => {
      const before = await call("GET", "/admin/maintenance")
      expect(before.json).toEqual({ maintenance: false })
      const tx = `txid_loc1${"q".repeat(58)}`
      for (const [path, body] of [
        ["/admin/maintenance", JSON.stringify({ enabled: true })],
        [`/swap/${tx}`, JSON.stringify({ tx_hash: tx })]
      ] as const) {
        // What a cross-site page can send without a preflight: a form, or plain text.
        for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
          const r = await call("POST", path, body, { "content-type": type, origin: "https://evil.example" })
          expect([path, type, r.status, r.json]).toEqual([
            path,
            type,
            415,
            expect.objectContaining({ error: expect.any(String) })
          ])
        }
        const r = await call("POST", path, body, {})
        expect([path, "no type", r.status]).toEqual([path, "no type", 415])
      }
      expect((await call("GET", "/admin/maintenance")).json).toEqual({ maintenance: false })
      // A JSON one needs a preflight first, and the admin route's gives no CORS header, even to a configured origin.
      for (const origin of ["https://app.example", "https://evil.example"]) {
        const preflight = await call("OPTIONS", "/admin/maintenance", undefined, {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type"
        })
        expect([origin, preflight.headers.get("access-control-allow-origin")]).toEqual([origin, null])
        const get = await call("GET", "/admin/maintenance", undefined, { origin })
        expect([origin, get.headers.get("access-control-allow-origin")]).toEqual([origin, null])
      }
      // Declared JSON (with a charset too) is read; every answer says nosniff.
      const ok = await call("POST", "/admin/maintenance", JSON.stringify({ enabled: false }), {
        "content-type": "application/json; charset=utf-8"
      })
      expect([ok.status, ok.json]).toEqual([200, { maintenance: false }])
      expect(ok.headers.get("x-content-type-options")).toBe("nosniff")
      expect((await call("GET", "/nowhere")).headers.get("x-content-type-options")).toBe("nosniff")
    })

    it("what Node refuses before any handler (a malformed request line, oversized headers) is a JSON 4xx", async () => {
      const { port } = new URL(http.url)
      const rawRequest = (text: string) =>
        new Promise<string>((ok, fail) => {
          const socket = connect(Number(port), "127.0.0.1", () => socket.end(text))
          let answer = ""
          socket.on("data", (b: Buffer) => (answer += b.toString()))
          socket.on("close", () => ok(answer))
          socket.on("error", fail)
        })
      const malformed = await rawRequest("GARBAGE / HTTP/9.9\r\n\r\n")
      expect(malformed).toMatch(/^HTTP\/1\.1 400 /)
      expect(JSON.parse(malformed.slice(malformed.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: "Bad request" })
      const huge = await rawRequest(`GET /api/health HTTP/1.1\r\nhost: x\r\nx-junk: ${"a".repeat(40_000)}\r\n\r\n`)
      expect(huge).toMatch(/^HTTP\/1\.1 431 /)
      expect(JSON.parse(huge.slice(huge.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: "Request headers too large" })
      expect((await call("GET", "/health")).status).toBe(200)
    })

    it("CORS allows exactly the configured origins", async () => {
      const allowed = await call("GET", "/health", undefined, { origin: "https://app.example" })
      expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example")
      expect(allowed.headers.get("vary")).toMatch(/origin/i)
      for (const origin of ["https://evil.example", "https://app.example.evil.example", "null", "http://app.example"]) {
        const r = await call("GET", "/health", undefined, { origin })
        expect([origin, r.headers.get("access-control-allow-origin")]).toEqual([origin, null])
        const preflight = await call("OPTIONS", "/swap/x", undefined, {
          origin,
          "access-control-request-method": "POST"
        })
        expect([origin, preflight.headers.get("access-control-allow-origin")]).toEqual([origin, null])
      }
      const preflight = await call("OPTIONS", "/swap/x", undefined, {
        origin: "https://app.example",
        "access-control-request-method": "POST"
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example")
    })
  })
}

describe("withInlineScripts", () => {
  const csp = contentSecurityPolicy()
  const scriptSrc = (policy: string) => policy.split("; ").find((d) => d.startsWith("script-src"))

  it("adds each inline script's hash once, to script-src only", () => {
    const html = [
      '<script>console.log("hi")</script>',
      '<SCRIPT type="module">console.log("hi")</SCRIPT >',
      "<script>\n  a()\n</script>",
      '<script src="/assets/app.js"></script>',
      '<script defer src="/x.js">ignored()</script>',
      "<script></script>"
    ].join("\n")
    const a = `'sha256-${createHash("sha256").update("\n  a()\n").digest("base64")}'`
    const policy = withInlineScripts(csp, html)
    expect(scriptSrc(policy)).toBe(`script-src 'self' 'sha256-TMFma7PHrBUjZEUKY/MwBLuX3/HrQe2+A1FmjMS7ppA=' ${a}`)
    expect(policy.replace(/ 'sha256-[^']+'/g, "")).toBe(csp)
  })

  it("admits the first paint's script as the build writes it", () => {
    // The vector: printf '%s' "$(firstPaintScript)" | openssl dgst -sha256 -binary | base64
    expect(scriptSrc(withInlineScripts(csp, `<head><script>${firstPaintScript()}</script>`))).toBe(
      "script-src 'self' 'sha256-zziTokEpjLDEDe1tGq2Ilp3F/vcVd/lu8H7lVB8gbbc='"
    )
  })

  it("leaves a policy without inline scripts, or without script-src, as it is", () => {
    expect(withInlineScripts(csp, '<script src="/a.js"></script><p>no script</p>')).toBe(csp)
    expect(withInlineScripts("default-src 'self'", "<script>a()</script>")).toBe("default-src 'self'")
  })
})

describe("the static server", () => {
  let http: Server
  let base: string
  const tmp = tempDir()
  const root = join(tmp.dir, "dist")
  const csp = contentSecurityPolicy()

  beforeAll(async () => {
    mkdirSync(join(root, "assets"), { recursive: true })
    writeFileSync(join(root, "index.html"), "<!doctype html><title>app</title>")
    writeFileSync(join(root, "assets", "app.js"), "console.log(1)")
    writeFileSync(join(tmp.dir, "secret.txt"), "TOP-SECRET")
    writeFileSync(join(tmp.dir, "dist-secret.txt"), "TOP-SECRET")
    http = createServer((req, res) => void serveStatic({ root, csp }, req, res))
    await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok))
    const a = http.address()
    base = `http://127.0.0.1:${typeof a === "object" && a !== null ? a.port : 0}`
  })
  afterAll(() => {
    http.close()
    tmp.remove()
  })

  /** Sends the path as written (fetch would normalise dot segments itself). */
  const raw = (path: string, method = "GET") =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((ok, fail) => {
      const url = new URL(base)
      request({ host: url.hostname, port: url.port, path, method }, (res) => {
        let body = ""
        res.on("data", (c: Buffer) => (body += c.toString()))
        res.on("end", () => ok({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
        .on("error", fail)
        .end()
    })

  it("reads nothing outside its root, however the path is encoded", async () => {
    const attempts = [
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/secret.txt",
      "/..%2fsecret.txt",
      "/%2e%2e%2fsecret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/assets/%2e%2e/%2e%2e/secret.txt",
      "/..%5csecret.txt",
      "/%2e%2e%5csecret.txt",
      "/secret.txt%00.js",
      "/%00",
      "/..%252fsecret.txt",
      "//..//secret.txt",
      "/assets/../../dist-secret.txt",
      "/%2e%2e/dist-secret.txt"
    ]
    for (const path of attempts) {
      const r = await raw(path)
      expect([path, r.body.includes("TOP-SECRET")]).toEqual([path, false])
      expect([path, r.status]).toEqual([path, expect.toBeOneOf([200, 400, 404])])
    }
    expect((await raw("/assets/app.js")).body).toBe("console.log(1)")
  })

  it("gives a path that does not decode, or holds a NUL or a backslash, the app's page (its 404), not a bare error", async () => {
    const page = readFileSync(join(root, "index.html"), "utf8")
    for (const path of ["/%E0%A4%A", "/%00", "/swap%", "/a%5Cb", "/assets/app.js%00", "/%ZZ/x"]) {
      const r = await raw(path)
      expect([path, r.status, r.body]).toEqual([path, 200, page])
      expect([path, r.headers["content-type"]]).toEqual([path, "text/html; charset=utf-8"])
    }
  })

  it("sends its security headers on every response, errors included", async () => {
    for (const [path, method, status] of [
      ["/", "GET", 200],
      ["/some/route", "GET", 200],
      ["/assets/app.js", "GET", 200],
      ["/assets/missing.js", "GET", 404],
      ["/%E0%A4%A", "GET", 200],
      ["/%00", "GET", 200],
      ["/", "POST", 405],
      ["/", "DELETE", 405]
    ] as const) {
      const r = await raw(path, method)
      expect([path, method, r.status]).toEqual([path, method, status])
      expect(r.headers["content-security-policy"]).toBe(csp)
      expect(String(r.headers["content-security-policy"])).toContain("frame-ancestors 'none'")
      expect(r.headers["x-content-type-options"]).toBe("nosniff")
      expect(r.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin")
    }
  })

  it("admits index.html's own inline scripts by their SHA-256 on its pages, and nothing more anywhere", async () => {
    const page = [
      "<!doctype html><head>",
      '<script>console.log("hi")</script>',
      '<script type="module" src="/assets/app.js"></script>',
      "</head><title>app</title>"
    ].join("")
    const admitted = "'sha256-TMFma7PHrBUjZEUKY/MwBLuX3/HrQe2+A1FmjMS7ppA='" // openssl dgst -sha256 -binary | base64
    const plainIndex = readFileSync(join(root, "index.html"), "utf8")
    writeFileSync(join(root, "index.html"), page)
    try {
      for (const path of ["/", "/some/route", "/index.html"]) {
        const header = String((await raw(path)).headers["content-security-policy"])
        expect([path, header]).toEqual([path, csp.replace("script-src 'self'", `script-src 'self' ${admitted}`)])
      }
      // A file is not a document of the app: its policy stays as it is.
      expect((await raw("/assets/app.js")).headers["content-security-policy"]).toBe(csp)
    } finally {
      writeFileSync(join(root, "index.html"), plainIndex)
    }
    expect((await raw("/")).headers["content-security-policy"]).toBe(csp)
  })

  it("without index.html (a rebuild under way) a page is a 503 that says why, and the file serves again once back", async () => {
    renameSync(join(root, "index.html"), join(root, "index.html.away"))
    try {
      for (const path of ["/", "/swap"]) {
        const r = await raw(path)
        expect([path, r.status]).toEqual([path, 503])
        expect(r.body).toContain("The app is not built (no index.html)")
        expect(r.headers["retry-after"]).toBe("5")
        expect(r.headers["content-security-policy"]).toBe(csp)
      }
      expect((await raw("/assets/app.js")).status).toBe(200)
    } finally {
      renameSync(join(root, "index.html.away"), join(root, "index.html"))
    }
    expect((await raw("/")).status).toBe(200)
  })
})

describe("what Node refuses before any handler", () => {
  /** The answer a client gets when Node reports `code` on its connection (as its timers and parser do). */
  const answerTo = async (code: string) => {
    const http = createServer(() => undefined)
    clientErrorsAsJson(http)
    const serverSide = new Promise<import("node:net").Socket>((ok) => http.once("connection", ok))
    await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok))
    const a = http.address()
    const port = typeof a === "object" && a !== null ? a.port : 0
    try {
      return await new Promise<string>((ok, fail) => {
        const socket = connect(port, "127.0.0.1")
        let answer = ""
        socket.on("data", (b: Buffer) => (answer += b.toString()))
        socket.on("close", () => ok(answer))
        socket.on("error", fail)
        void serverSide.then((s) => http.emit("clientError", Object.assign(new Error(code), { code }), s))
      })
    } finally {
      http.close()
    }
  }

  it.each([
    ["ERR_HTTP_REQUEST_TIMEOUT", 408, "Request timeout"],
    ["HPE_REQUEST_TIMEOUT", 408, "Request timeout"],
    ["HPE_HEADER_OVERFLOW", 431, "Request headers too large"],
    ["HPE_INVALID_METHOD", 400, "Bad request"]
  ] as const)("%s is a JSON %i", async (code, status, message) => {
    const answer = await answerTo(code)
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `))
    expect(answer).toContain("connection: close")
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toEqual({ error: message, message })
  })
})
