/**
 * The `/devnet` mount: the wallet script, the wallet API, the mobile-wallet deep-link endpoint and the dashboard.
 *
 *   GET  /devnet/wallet.js                 the in-page wallet (extension mode)
 *   GET  /devnet/wallet                    accounts and persona
 *   POST /devnet/wallet/review             {interaction} → Review
 *   POST /devnet/wallet/respond            {interaction, decision} → {response}  (signs, builds, submits)
 *   POST /devnet/mobile-wallet/deeplink    {url, decision?} → {interactionId, sessionId, response}; posts to the relay
 *   GET  /devnet/dashboard/…               HTML pages
 *
 * The wallet endpoints sign with the devnet keys, so they only take `application/json` from our own origin (a
 * cross-site page can neither send that without a preflight nor pass the Origin check).
 */
import { Effect, Either, Schema } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { DASHBOARD_CSP, type Dashboard } from "../dashboard/dashboard"
import { pathOf, readBody, sendJson } from "../relay/http"
import {
  DASHBOARD_PREFIX,
  type Decision,
  MOBILE_DEEPLINK_PATH,
  MobileDeepLinkBody,
  RespondBody,
  ReviewBody,
  WALLET_API_PREFIX,
  WALLET_SCRIPT_PATH
} from "./api"
import { answerDeepLink, type MobileAnswer } from "./mobile"
import type { WalletEmulatorApi } from "./WalletEmulator"

export const MAX_WALLET_BODY_BYTES = 1024 * 1024

export interface DevnetHandlerDeps {
  readonly wallet: WalletEmulatorApi
  readonly dashboard: Dashboard
  /** Runs an effect on the ledger's runtime. */
  readonly run: <A>(effect: Effect.Effect<A>) => Promise<A>
  /** The bundled in-page script. */
  readonly script: () => Promise<string>
  readonly mobileSecret: Uint8Array
  /** Posts an encrypted response to the relay emulator. */
  readonly relay: (entry: { sessionId: string; publicKey: string; data: string }) => Promise<void>
}

const JSON_ONLY = { error: "Send the body as application/json" }

const sameOrigin = (req: IncomingMessage): boolean => {
  const origin = req.headers.origin
  if (origin === undefined) return true
  const host = req.headers.host
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`)
}

const decodeBody = <A, I>(schema: Schema.Schema<A, I>, text: string): Either.Either<A, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Either.left("The body is not JSON")
  }
  return Either.mapLeft(Schema.decodeUnknownEither(schema, { errors: "first" })(json), (e) =>
    `Invalid request: ${e.message.split("\n").slice(0, 6).join(" ")}`.slice(0, 600)
  )
}

export const devnetNodeHandler =
  (deps: DevnetHandlerDeps) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = pathOf(req)
    const method = req.method ?? "GET"

    if (path === DASHBOARD_PREFIX || path.startsWith(`${DASHBOARD_PREFIX}/`)) {
      if (method !== "GET" && method !== "HEAD")
        return sendJson(res, 405, { error: "Method Not Allowed" }, { allow: "GET, HEAD" })
      const page = await deps.run(deps.dashboard.render(path.slice(DASHBOARD_PREFIX.length)))
      res.writeHead(page.status, {
        "content-type": "text/html; charset=utf-8",
        "content-length": String(Buffer.byteLength(page.html)),
        "cache-control": "no-store",
        "content-security-policy": DASHBOARD_CSP,
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer"
      })
      res.end(method === "HEAD" ? undefined : page.html)
      return
    }

    if (path === WALLET_SCRIPT_PATH) {
      if (method !== "GET" && method !== "HEAD")
        return sendJson(res, 405, { error: "Method Not Allowed" }, { allow: "GET, HEAD" })
      const script = await deps.script()
      res.writeHead(200, {
        "content-type": "text/javascript; charset=utf-8",
        "content-length": String(Buffer.byteLength(script)),
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff"
      })
      res.end(method === "HEAD" ? undefined : script)
      return
    }

    if (path === WALLET_API_PREFIX && method === "GET") {
      return sendJson(res, 200, { ...deps.wallet.info, dashboardUrl: DASHBOARD_PREFIX })
    }

    const routes: Record<string, true> = {
      [`${WALLET_API_PREFIX}/review`]: true,
      [`${WALLET_API_PREFIX}/respond`]: true,
      [MOBILE_DEEPLINK_PATH]: true
    }
    if (routes[path] !== true) return sendJson(res, 404, { error: `Not found: ${path}` })
    if (method !== "POST") return sendJson(res, 405, { error: "Method Not Allowed" }, { allow: "POST" })
    if (!sameOrigin(req)) return sendJson(res, 403, { error: "The devnet wallet answers its own origin only" })
    if (!(req.headers["content-type"] ?? "").toLowerCase().startsWith("application/json"))
      return sendJson(res, 415, JSON_ONLY)
    const text = await readBody(req, MAX_WALLET_BODY_BYTES)
    if (text === undefined) return sendJson(res, 413, { error: "Payload Too Large" })

    if (path === `${WALLET_API_PREFIX}/review`) {
      const body = decodeBody(ReviewBody, text)
      if (Either.isLeft(body)) return sendJson(res, 400, { error: body.left })
      return sendJson(res, 200, await deps.run(deps.wallet.review(body.right.interaction)))
    }
    if (path === `${WALLET_API_PREFIX}/respond`) {
      const body = decodeBody(RespondBody, text)
      if (Either.isLeft(body)) return sendJson(res, 400, { error: body.left })
      const response = await deps.run(deps.wallet.answer(body.right.interaction, body.right.decision))
      return sendJson(res, 200, { response })
    }
    const body = decodeBody(MobileDeepLinkBody, text)
    if (Either.isLeft(body)) return sendJson(res, 400, { error: body.left })
    const decision: Decision = body.right.decision ?? { approve: true }
    const answered = await deps.run(
      Effect.either(answerDeepLink(deps.wallet, deps.mobileSecret, body.right.url, decision))
    )
    if (Either.isLeft(answered)) return sendJson(res, 400, { error: answered.left.message })
    const a: MobileAnswer = answered.right
    const posted = await deps.relay({ sessionId: a.sessionId, publicKey: a.publicKey, data: a.data }).then(
      () => true,
      () => false
    )
    if (!posted) return sendJson(res, 503, { error: "The relay emulator did not take the response (too many waiting)" })
    return sendJson(res, 200, { interactionId: a.interactionId, sessionId: a.sessionId, response: a.response })
  }
