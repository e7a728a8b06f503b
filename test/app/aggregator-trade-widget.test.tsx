// @vitest-environment jsdom
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { makeTradeMount, renderTradePage, TRADE_CSP, TRADE_PREFIX, WIDGET_SCRIPT } from "../../src/devnet/trade/index"
import { DevnetAddresses } from "../../src/exchange/devnet-addresses"

const R = DevnetAddresses.resources

let server: Server
let base = ""
beforeAll(async () => {
  const mount = makeTradeMount()
  server = createServer((req, res) => void mount.handle(req, res))
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()))
})

const page = (query: string) => fetch(`${base}${TRADE_PREFIX}${query}`)

describe("devnet trading widget mount", () => {
  it("is mounted at /devnet/trade", () => {
    expect(makeTradeMount().prefix).toBe("/devnet/trade")
  })

  it("serves the labelled page with the decoded resources and its own CSP", async () => {
    const res = await page(`?sell_resource=${R.XRD}&buy_resource=${R.hUSDC}`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(res.headers.get("content-security-policy")).toBe(TRADE_CSP)
    expect(TRADE_CSP).toContain("frame-ancestors 'self'")
    expect(TRADE_CSP).toContain("script-src 'self'")
    const html = await res.text()
    expect(html).toContain("<h1>Devnet trading widget</h1>")
    expect(html).toContain(`data-sell="${R.XRD}"`)
    expect(html).toContain(`data-buy="${R.hUSDC}"`)
    expect(html).toContain(`<script src="/devnet/trade/widget.js"></script>`)
    expect(html).not.toMatch(/<script>/)
  })

  it("drops parameters that are not resource addresses and escapes everything", async () => {
    const hostile = encodeURIComponent(`"><script>alert(1)</script>`)
    const res = await page(`/?sell_resource=${hostile}&buy_resource=resource_loc1${hostile}`)
    const html = await res.text()
    expect(html).not.toContain("<script>alert")
    expect(html).toContain('data-sell=""')
    expect(html).toContain('data-buy=""')
    expect(html).toContain("This route needs a valid sell_resource and buy_resource.")
    expect(renderTradePage(new URLSearchParams(), { gatewayPath: `/g"<x>` })).toContain(
      'data-gateway="/g&quot;&lt;x&gt;"'
    )
  })

  it("serves its script, 404 for anything else under the prefix, 405 for writes", async () => {
    const js = await fetch(`${base}${TRADE_PREFIX}/widget.js`)
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(await js.text()).toBe(WIDGET_SCRIPT)
    expect((await fetch(`${base}${TRADE_PREFIX}/other`)).status).toBe(404)
    const post = await fetch(`${base}${TRADE_PREFIX}`, { method: "POST", body: "x" })
    expect(post.status).toBe(405)
    expect(post.headers.get("allow")).toBe("GET, HEAD")
  })
})

describe("devnet trading widget script", () => {
  const load = (query: string) => {
    const doc = new DOMParser().parseFromString(renderTradePage(new URLSearchParams(query)), "text/html")
    const widget = doc.getElementById("widget")
    if (widget === null) throw new Error("no widget")
    document.body.replaceChildren(document.importNode(widget, true))
  }
  const meta = (symbol: string, name: string) => ({
    items: [
      { key: "symbol", value: { typed: { type: "String", value: symbol } } },
      { key: "name", value: { typed: { type: "String", value: name } } }
    ]
  })
  const text = (selector: string) => document.querySelector(selector)?.textContent

  it("looks up symbol and name of both resources at the same-origin gateway and writes them as text", async () => {
    load(`sell_resource=${R.XRD}&buy_resource=${R.hUSDC}`)
    const calls: Array<{ url: string; body: unknown }> = []
    vi.stubGlobal("fetch", (url: string, init: { body: string }) => {
      const body = JSON.parse(init.body) as { addresses: ReadonlyArray<string> }
      calls.push({ url, body })
      const address = body.addresses[0]
      const item =
        address === R.XRD
          ? { address, explicit_metadata: meta("XRD", "Radix") }
          : { address, explicit_metadata: meta("<b>hUSDC</b>", "Wrapped USDC") }
      return Promise.resolve(new Response(JSON.stringify({ items: [item] }), { status: 200 }))
    })
    try {
      new Function(WIDGET_SCRIPT)()
      await vi.waitFor(() => expect(text('[data-name="buy"]')).toBe("Wrapped USDC"))
    } finally {
      vi.unstubAllGlobals()
    }
    expect(calls.map((c) => c.url)).toEqual(["/gateway/state/entity/details", "/gateway/state/entity/details"])
    expect(calls[0]?.body).toEqual({ addresses: [R.XRD], opt_ins: { explicit_metadata: ["symbol", "name"] } })
    expect(text('[data-symbol="sell"]')).toBe("XRD")
    expect(text('[data-name="sell"]')).toBe("Radix")
    expect(text('[data-symbol="buy"]')).toBe("<b>hUSDC</b>")
    expect(document.querySelector("#widget b")).toBeNull()
    expect(text("[data-status]")).toBe("")
  })

  it("says so when the gateway does not know a resource", async () => {
    load(`sell_resource=${R.XRD}&buy_resource=${R.hUSDC}`)
    vi.stubGlobal("fetch", (_url: string, init: { body: string }) => {
      const address = (JSON.parse(init.body) as { addresses: ReadonlyArray<string> }).addresses[0]
      return Promise.resolve(
        address === R.XRD
          ? new Response(JSON.stringify({ items: [{ address, explicit_metadata: meta("XRD", "Radix") }] }))
          : new Response(JSON.stringify({ message: "not found" }), { status: 404 })
      )
    })
    try {
      new Function(WIDGET_SCRIPT)()
      await vi.waitFor(() =>
        expect(text("[data-status]")).toBe("The devnet gateway does not know one of these resources.")
      )
    } finally {
      vi.unstubAllGlobals()
    }
    expect(text('[data-name="buy"]')).toBe("Unknown resource on this devnet")
    expect(text('[data-symbol="sell"]')).toBe("XRD")
  })
})
