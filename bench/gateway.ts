/**
 * `npm run bench:gateway`: our Gateway client vs the official SDK (@radixdlt/babylon-gateway-api-sdk 1.10.1) loading
 * the vault-aggregated details of 2,000 accounts × 150 fungibles from a fake gateway on 127.0.0.1 (20 ms per request,
 * page size 100, so every account's fungible collection needs a second page). Prints figures, asserts nothing.
 */
import { FetchHttpClient } from "@effect/platform"
import { GatewayApiClient } from "@radixdlt/babylon-gateway-api-sdk"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Gateway, GatewayDefaults } from "../src/gateway/index.js"
import { accountAddress, makeFakeGateway } from "../test/gateway/fake-gateway.js"

const ACCOUNTS = 2000
const FUNGIBLES = 150
const LATENCY = "20 millis"

const fake = makeFakeGateway({ accounts: ACCOUNTS, fungiblesPerAccount: FUNGIBLES, pageSize: 100 })
const addresses = Array.from({ length: ACCOUNTS }, (_, i) => accountAddress(i))

const stats = { requests: 0, inFlight: 0, peak: 0, errors: 0 }
const resetStats = () => Object.assign(stats, { requests: 0, inFlight: 0, peak: 0, errors: 0 })

const server = createServer((req, res) => {
  stats.requests += 1
  stats.inFlight += 1
  stats.peak = Math.max(stats.peak, stats.inFlight)
  const chunks: Array<Buffer> = []
  req.on("data", (c: Buffer) => chunks.push(c))
  req.on("end", () => {
    const text = Buffer.concat(chunks).toString("utf8")
    void Effect.runPromise(Effect.sleep(LATENCY)).then(() => {
      let reply: { status: number; body: unknown }
      try {
        reply = fake.handle(req.url ?? "/", (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>)
      } catch (e) {
        reply = { status: 500, body: { message: String(e) } }
      }
      if (reply.status < 200 || reply.status > 299) stats.errors += 1
      stats.inFlight -= 1
      res.writeHead(reply.status, { "content-type": "application/json" })
      res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body))
    })
  })
})

interface Row {
  readonly client: string
  readonly requests: number
  readonly wallMs: number
  readonly peak: number
  readonly errors: number
  readonly entities: number
  readonly fungibles: number
}

type Loaded = ReadonlyArray<{ readonly fungible_resources: { readonly items: ReadonlyArray<unknown> } }>

const measure = async (client: string, load: () => Promise<Loaded>): Promise<Row> => {
  fake.reset()
  resetStats()
  const start = performance.now()
  let entities = 0
  let fungibles = 0
  let failed = 0
  try {
    const items = await load()
    entities = items.length
    fungibles = items.reduce((n, i) => n + i.fungible_resources.items.length, 0)
  } catch (e) {
    failed = 1
    console.error(`${client} failed:`, e instanceof Error ? e.message : e)
  }
  const wallMs = performance.now() - start
  return {
    client,
    requests: stats.requests,
    wallMs,
    peak: stats.peak,
    errors: stats.errors + failed,
    entities,
    fungibles
  }
}

const main = async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const basePath = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  console.log(
    `gateway bench: ${ACCOUNTS} accounts × ${FUNGIBLES} fungibles, page size 100, ${LATENCY} per request, fake gateway at ${basePath}`
  )

  const loadOurs = (concurrency: number) => () =>
    Effect.runPromise(
      Effect.flatMap(Gateway, (g) => g.state.getEntityDetailsVaultAggregated(addresses)).pipe(
        Effect.provide(
          Gateway.layer({ basePath, applicationName: "hswap-bench", concurrency }).pipe(
            Layer.provide(FetchHttpClient.layer)
          )
        )
      )
    )
  const concurrency = GatewayDefaults.concurrency
  const ours = await measure(`hswap Gateway (concurrency ${concurrency})`, loadOurs(concurrency))
  const sdkClient = GatewayApiClient.initialize({ basePath, applicationName: "hswap-bench" })
  const sdk = await measure("babylon-gateway-api-sdk 1.10.1", () =>
    sdkClient.state.getEntityDetailsVaultAggregated(addresses)
  )
  const rows = [ours, sdk]
  const pad = (s: string, n: number) => s.padEnd(n)
  const num = (n: number, d = 0) => n.toFixed(d).padStart(10)
  console.log()
  console.log(
    `${pad("client", 36)}${"requests".padStart(10)}${"wall ms".padStart(10)}${"peak".padStart(10)}${"errors".padStart(10)}${"entities".padStart(10)}${"fungibles".padStart(10)}`
  )
  for (const r of rows)
    console.log(
      `${pad(r.client, 36)}${num(r.requests)}${num(r.wallMs)}${num(r.peak)}${num(r.errors)}${num(r.entities)}${num(r.fungibles)}`
    )
  console.log()
  console.log(
    `ratio ours/sdk: requests ${(ours.requests / sdk.requests).toFixed(2)}, wall time ${(ours.wallMs / sdk.wallMs).toFixed(2)}, peak in flight ${(ours.peak / sdk.peak).toFixed(3)}`
  )
  console.log(
    `ours used concurrency ${concurrency} (at most ${concurrency} requests in flight, retries on 429/5xx); the SDK fires every chunk and page at once.`
  )
  const expected = ACCOUNTS * FUNGIBLES
  console.log(
    `complete: ours ${ours.fungibles === expected ? "yes" : "no"} (${ours.fungibles}/${expected}), sdk ${sdk.fungibles === expected ? "yes" : "no"} (${sdk.fungibles}/${expected})`
  )
}

main()
  .catch((e: unknown) => {
    console.error(e)
    process.exitCode = 1
  })
  .finally(() => {
    server.closeAllConnections()
    server.close()
  })
