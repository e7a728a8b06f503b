/**
 * The devnet's stand-in for the trading partner: a tiny self-contained page at `/devnet/trade` that the aggregator
 * page (`/swap`) embeds on `npm start`, so the iframe shows something real.
 *
 *   GET /devnet/trade?sell_resource=…&buy_resource=…   the read-only quote panel ('Devnet trading widget')
 *   GET /devnet/trade/widget.js                        its script
 *
 * The server decodes the two query parameters with Schema and writes them, escaped, into the page; the script then
 * asks the same-origin gateway emulator (POST {gateway}/state/entity/details) for each resource's symbol and name
 * and writes them with textContent only. No trades happen here: it is a preview of the route, nothing more.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Option, Schema } from "effect"
import { escapeHtml } from "../dashboard/dashboard"

export const TRADE_PREFIX = "/devnet/trade"

/** Same shape as `Mount` in src/devnet/main.ts. */
export interface TradeMount {
  readonly prefix: string
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
}

export interface TradeWidgetOptions {
  /** Where the gateway emulator is mounted on the same origin. */
  readonly gatewayPath?: string
}

/** A resource address as the query parameters may carry it (any network's HRP, bech32 characters). */
export const ResourceParam = Schema.String.pipe(
  Schema.maxLength(120),
  Schema.pattern(/^resource_[a-z0-9_]{1,20}1[02-9ac-hj-np-z]{6,}$/)
)

/** Reads one query parameter: the first value, decoded, or none. */
export const readResourceParam = (params: URLSearchParams, name: string): Option.Option<string> =>
  Option.flatMap(Option.fromNullable(params.get(name)), Schema.decodeUnknownOption(ResourceParam))

// The dashboard's escaper: element content and quoted attribute values.
export { escapeHtml }

/** The page's own policy: its script from our origin, fetches to our origin, framed only by our origin. */
export const TRADE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'"
].join("; ")

const short = (address: string) => (address.length > 22 ? `${address.slice(0, 14)}…${address.slice(-6)}` : address)

const side = (role: "sell" | "buy", label: string, address: Option.Option<string>, amount: string) => {
  const addr = Option.getOrElse(address, () => "")
  return `
      <div class="side" data-side="${role}">
        <div class="label">${escapeHtml(label)}</div>
        <div class="row">
          <span class="amount" aria-label="${escapeHtml(label)} amount">${escapeHtml(amount)}</span>
          <span class="token">
            <span class="symbol" data-symbol="${role}">${Option.isSome(address) ? "…" : "?"}</span>
            <span class="name" data-name="${role}">${Option.isSome(address) ? "Looking up…" : "No resource given"}</span>
          </span>
        </div>
        <div class="address" title="${escapeHtml(addr)}">${escapeHtml(addr === "" ? "—" : short(addr))}</div>
      </div>`
}

/** The widget page for one pair of query parameters. Every interpolated value is escaped. */
export const renderTradePage = (params: URLSearchParams, options: TradeWidgetOptions = {}): string => {
  const sell = readResourceParam(params, "sell_resource")
  const buy = readResourceParam(params, "buy_resource")
  const gateway = options.gatewayPath ?? "/gateway"
  const complete = Option.isSome(sell) && Option.isSome(buy)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Devnet trading widget</title>
<style>
  :root { color-scheme: dark; font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  * { box-sizing: border-box; }
  body { margin: 0; background: #121a31; color: #e8ecf8; padding: 14px; }
  main { max-width: 440px; margin: 0 auto; }
  header { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin-bottom: 10px; }
  h1 { font-size: 15px; margin: 0; }
  .tag { flex: none; font-size: 10px; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: #f5a524; border: 1px solid #f5a52466; border-radius: 999px; padding: 2px 8px; }
  .side { background: #18223f; border: 1px solid #26325a; border-radius: 14px; padding: 10px 12px; }
  .label { font-size: 12px; color: #8e9ac0; }
  .row { display: flex; align-items: center; justify-content: space-between; gap: 12px; margin-top: 4px; }
  .amount { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
  .token { display: flex; flex-direction: column; align-items: flex-end; min-width: 0; }
  .symbol { font-weight: 700; }
  .name { font-size: 12px; color: #8e9ac0; max-width: 180px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .address { margin-top: 4px; font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; color: #8e9ac0; overflow-wrap: anywhere; }
  .arrow { text-align: center; color: #52e3c2; margin: 2px 0; font-size: 16px; line-height: 20px; }
  .quote { margin-top: 10px; font-size: 13px; color: #8e9ac0; display: flex; justify-content: space-between; gap: 8px; }
  .status { margin: 8px 0 0; font-size: 12px; }
  .status:empty { display: none; }
  .status[data-kind="error"] { color: #f05d6c; }
  button { width: 100%; margin-top: 10px; padding: 9px; border-radius: 12px; border: 0; background: #26325a; color: #8e9ac0; font-weight: 600; cursor: not-allowed; }
  .note { margin: 8px 0 0; font-size: 11px; color: #8e9ac0; line-height: 1.4; text-align: center; }
</style>
</head>
<body>
<main id="widget" data-gateway="${escapeHtml(gateway)}" data-sell="${escapeHtml(Option.getOrElse(sell, () => ""))}" data-buy="${escapeHtml(Option.getOrElse(buy, () => ""))}">
  <header>
    <h1>Devnet trading widget</h1>
    <span class="tag">Read-only</span>
  </header>${side("sell", "You sell", sell, "1")}
  <div class="arrow" aria-hidden="true">↓</div>${side("buy", "You receive", buy, "—")}
  <div class="quote"><span>Quote</span><span data-quote>No market on the devnet</span></div>
  <p class="status" role="status" data-status${complete ? "" : ' data-kind="error"'}>${
    complete ? "" : "This route needs a valid sell_resource and buy_resource."
  }</p>
  <button type="button" disabled>Trading is not available on the devnet</button>
  <p class="note">Stands in for the trading partner on the local devnet. Token names come from the devnet gateway; nothing is traded.</p>
</main>
<script src="${TRADE_PREFIX}/widget.js"></script>
</body>
</html>
`
}

/** The page's script: looks up each resource's symbol and name; text only, never markup. */
export const WIDGET_SCRIPT = `"use strict";
(function () {
  var root = document.getElementById("widget");
  if (!root) return;
  var gateway = root.getAttribute("data-gateway") || "/gateway";
  var status = root.querySelector("[data-status]");
  function text(selector, value) {
    var el = root.querySelector(selector);
    if (el) el.textContent = value;
  }
  function metadataValue(item, key) {
    var lists = [item && item.explicit_metadata, item && item.metadata];
    for (var i = 0; i < lists.length; i++) {
      var items = lists[i] && Array.isArray(lists[i].items) ? lists[i].items : [];
      for (var j = 0; j < items.length; j++) {
        var entry = items[j];
        if (!entry || entry.key !== key || !entry.value || !entry.value.typed) continue;
        var v = entry.value.typed.value;
        if (typeof v === "string" && v.length <= 200) return v;
      }
    }
    return undefined;
  }
  function lookup(address) {
    return fetch(gateway + "/state/entity/details", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ addresses: [address], opt_ins: { explicit_metadata: ["symbol", "name"] } })
    }).then(function (response) {
      if (!response.ok) throw new Error("gateway answered " + response.status);
      return response.json();
    }).then(function (body) {
      var items = body && Array.isArray(body.items) ? body.items : [];
      var item = null;
      for (var i = 0; i < items.length; i++) if (items[i] && items[i].address === address) item = items[i];
      if (!item) throw new Error("resource not found");
      return { symbol: metadataValue(item, "symbol"), name: metadataValue(item, "name") };
    });
  }
  var failed = 0;
  function fill(role) {
    var address = root.getAttribute("data-" + role) || "";
    if (address === "") return Promise.resolve();
    return lookup(address).then(function (info) {
      text('[data-symbol="' + role + '"]', info.symbol || "Unnamed");
      text('[data-name="' + role + '"]', info.name || "No name on the ledger");
    }, function () {
      failed += 1;
      text('[data-symbol="' + role + '"]', "?");
      text('[data-name="' + role + '"]', "Unknown resource on this devnet");
    });
  }
  Promise.all([fill("sell"), fill("buy")]).then(function () {
    if (failed > 0 && status) {
      status.setAttribute("data-kind", "error");
      status.textContent = "The devnet gateway does not know " + (failed === 1 ? "one of these resources." : "these resources.");
    }
  });
})();
`

const send = (res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}) => {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    ...extra
  })
  res.end(body)
}

/** The node:http mount for src/devnet/main.ts: `{ prefix: "/devnet/trade", handle }`. */
export const makeTradeMount = (options: TradeWidgetOptions = {}): TradeMount => ({
  prefix: TRADE_PREFIX,
  handle: async (req, res) => {
    const url = new URL(req.url ?? "/", "http://devnet.invalid")
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, "text/plain; charset=utf-8", "Method Not Allowed", { allow: "GET, HEAD" })
      return
    }
    const path = url.pathname.replace(/\/+$/, "")
    if (path === TRADE_PREFIX) {
      send(res, 200, "text/html; charset=utf-8", renderTradePage(url.searchParams, options), {
        "content-security-policy": TRADE_CSP
      })
      return
    }
    if (path === `${TRADE_PREFIX}/widget.js`) {
      send(res, 200, "text/javascript; charset=utf-8", WIDGET_SCRIPT)
      return
    }
    send(res, 404, "text/plain; charset=utf-8", "Not Found")
  }
})

export const tradeMount: TradeMount = makeTradeMount()
