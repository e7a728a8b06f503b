/**
 * Small `node:http` helpers shared by the devnet's relay, wallet and dashboard mounts: bounded body reading and
 * JSON/HTML answers.
 */
import type { IncomingMessage, ServerResponse } from "node:http"

/** The body as UTF-8 text, or `undefined` when it is larger than `limit` bytes (the rest is not read). */
export const readBody = (req: IncomingMessage, limit: number): Promise<string | undefined> =>
  new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0")
    if (Number.isFinite(declared) && declared > limit) {
      resolve(undefined)
      req.resume()
      return
    }
    const chunks: Array<Buffer> = []
    let size = 0
    let done = false
    req.on("data", (chunk: Buffer) => {
      if (done) return
      size += chunk.length
      if (size > limit) {
        done = true
        resolve(undefined)
        req.resume()
        return
      }
      chunks.push(chunk)
    })
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks).toString("utf8"))
    })
    req.on("error", reject)
  })

export const sendJson = (
  res: ServerResponse,
  status: number,
  json: unknown,
  headers: Readonly<Record<string, string>> = {}
): void => {
  const body = json === undefined ? "" : JSON.stringify(json)
  res.writeHead(status, {
    ...headers,
    ...(json === undefined ? {} : { "content-type": "application/json; charset=utf-8" }),
    "content-length": String(Buffer.byteLength(body)),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff"
  })
  res.end(body)
}

/** The path of a request without its query string. */
export const pathOf = (req: IncomingMessage): string => (req.url ?? "/").split("?")[0] ?? "/"
