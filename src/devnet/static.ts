import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import { stat } from "node:fs/promises"
import type { IncomingMessage, ServerResponse } from "node:http"
import { extname, join, normalize, sep } from "node:path"

const MIME: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".mp3": "audio/mpeg",
  ".txt": "text/plain; charset=utf-8"
}

/**
 * The Content-Security-Policy of the served app. Scripts and styles come from our origin only; the wallet dashboard
 * and the trading partner are the only frames; connections go to our origin and the configured gateway/relay hosts.
 */
export const contentSecurityPolicy = (
  extraConnect: ReadonlyArray<string> = [],
  extraFrames: ReadonlyArray<string> = []
) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${extraConnect.join(" ")}`.trim(),
    `frame-src 'self' ${extraFrames.join(" ")}`.trim(),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'"
  ].join("; ")

/** An inline script element (a `<script>` without `src`) and its text, up to its end tag. */
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi

/**
 * The policy for one HTML document: its `script-src` also admits the document's own inline scripts, each by the
 * SHA-256 of its text (CSP Level 2 hash sources). The build writes one into index.html, the first paint's choice of
 * copy, which must run before the body is parsed. Nothing else is relaxed: an inline script that is not in the
 * document as served (an injected one) does not run, nor do inline event handlers. A policy without `script-src`
 * is returned as it is.
 */
export const withInlineScripts = (csp: string, html: string): string => {
  const sources = new Set<string>()
  for (const [, text] of html.matchAll(INLINE_SCRIPT))
    if (text !== undefined && text !== "")
      sources.add(`'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`)
  if (sources.size === 0) return csp
  const added = [...sources].join(" ")
  return csp
    .split("; ")
    .map((d) => (d === "script-src" || d.startsWith("script-src ") ? `${d} ${added}` : d))
    .join("; ")
}

export interface StaticSite {
  readonly root: string
  /** Transforms index.html before it is served (the devnet injects its wallet emulator script here). */
  readonly transformIndex?: (html: string) => string
  readonly csp: string
}

/** On every response of the static server, errors included. */
export const securityHeaders = (csp: string) => ({
  "content-security-policy": csp,
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY"
})

/**
 * Serves the built single-page app: files under `root` as they are (hashed assets cached for a year), and
 * index.html for every other GET, so client-side routes and the 404 page work on reload.
 */
export const serveStatic = async (site: StaticSite, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const plain = (status: number, text: string, extra: Readonly<Record<string, string>> = {}) => {
    res
      .writeHead(status, { "content-type": "text/plain; charset=utf-8", ...extra, ...securityHeaders(site.csp) })
      .end(text)
  }
  if (req.method !== "GET" && req.method !== "HEAD") return plain(405, "Method Not Allowed", { allow: "GET, HEAD" })
  // A path that does not decode (a stray "%"), or holds a NUL or a backslash (a separator elsewhere), names no file
  // of the app: it never reaches the file system, and gets index.html like any other path the app does not have, so
  // the user sees the app's 404 page rather than a bare error.
  let pathname: string | undefined
  try {
    pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname)
  } catch {
    pathname = undefined
  }
  if (pathname !== undefined && (pathname.includes("\0") || pathname.includes("\\"))) pathname = undefined
  const candidate = pathname === undefined ? undefined : normalize(join(site.root, pathname))
  const inside =
    candidate !== undefined &&
    (candidate === site.root || candidate.startsWith(site.root.endsWith(sep) ? site.root : site.root + sep))
  if (inside && pathname !== undefined && pathname !== "/" && !pathname.endsWith("/index.html")) {
    const info = await stat(candidate).catch(() => undefined)
    if (info?.isFile() === true) {
      const hashed = pathname.startsWith("/assets/")
      res.writeHead(200, {
        "content-type": MIME[extname(candidate)] ?? "application/octet-stream",
        "content-length": info.size,
        "cache-control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
        ...securityHeaders(site.csp)
      })
      if (req.method === "HEAD") res.end()
      else createReadStream(candidate).pipe(res)
      return
    }
    if (pathname.startsWith("/assets/")) return plain(404, "Not Found")
  }
  const { readFile } = await import("node:fs/promises")
  // index.html can go while the server runs (a rebuild in progress, a cleaned dist): say so, never a bare 500.
  const raw = await readFile(join(site.root, "index.html"), "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "EISDIR") return undefined
    throw error
  })
  if (raw === undefined)
    return plain(503, "The app is not built (no index.html): run `npm run build`, or `npm start`, which builds it.", {
      "retry-after": "5"
    })
  const html = site.transformIndex ? site.transformIndex(raw) : raw
  res.writeHead(200, {
    "content-type": MIME[".html"] ?? "text/html",
    "cache-control": "no-cache",
    ...securityHeaders(withInlineScripts(site.csp, html))
  })
  res.end(req.method === "HEAD" ? undefined : html)
}
