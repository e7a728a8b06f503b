/**
 * The registering clients of `bench:server`'s replicated part, in a process of their own so that the bench process's
 * CPU is the devnet's alone (its ledger, its gateway) and the clients' is counted apart.
 *
 * Reads one JSON object on stdin: `{ gateway, replicas, deposits: [{ hex, hash }], clients }`. `clients` workers each
 * take the next deposit, submit it to the devnet's gateway (`POST /transaction/submit`, as a wallet does), then
 * register it with a replica (`POST /api/swap/{hash}`, round-robin) and wait for the answer. Writes one JSON line on
 * stdout when all are answered: `{ answered: [ms, …], cpuSeconds }` (submit + registration answered, per deposit; the
 * CPU this process spent on them), or exits 1 naming the first failure.
 */
import { Agent, request } from "node:http"

interface Job {
  readonly gateway: string
  readonly replicas: ReadonlyArray<string>
  readonly deposits: ReadonlyArray<{ readonly hex: string; readonly hash: string }>
  readonly clients: number
}

/**
 * Keep-alive connections are let go after 4 s idle, before the servers' own 5 s (Node's default `keepAliveTimeout`)
 * closes them: reusing a connection the server is closing at that moment resets the request (ECONNRESET).
 */
const agent = new Agent({ keepAlive: true, timeout: 4_000 })

/** POSTs `body` (JSON) to `url`; the status and the text of the answer. */
const post = (url: string, body: unknown) =>
  new Promise<{ readonly status: number; readonly text: string }>((ok, fail) => {
    const payload = JSON.stringify(body)
    const req = request(
      url,
      {
        method: "POST",
        agent,
        timeout: 120_000,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => ok({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
        res.on("error", fail)
      }
    )
    req.on("timeout", () => req.destroy(new Error(`no answer from ${url} in 120 s`)))
    req.on("error", fail)
    req.end(payload)
  })

const cpuSeconds = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

const run = async (job: Job) => {
  const cpu0 = cpuSeconds()
  const answered: Array<number> = []
  let next = 0
  const worker = async (w: number) => {
    for (;;) {
      const i = next++
      const deposit = job.deposits[i]
      if (deposit === undefined) return
      const t0 = performance.now()
      const submitted = await post(`${job.gateway}/transaction/submit`, { notarized_transaction_hex: deposit.hex })
      if (submitted.status !== 200) throw new Error(`submit of ${deposit.hash}: ${submitted.status} ${submitted.text}`)
      const replica = job.replicas[(i + w) % job.replicas.length]
      const registered = await post(`${replica}/api/swap/${deposit.hash}`, { tx_hash: deposit.hash })
      if (registered.status !== 200 && registered.status !== 202)
        throw new Error(`registration of ${deposit.hash}: ${registered.status} ${registered.text}`)
      answered.push(performance.now() - t0)
    }
  }
  await Promise.all(Array.from({ length: job.clients }, (_, w) => worker(w)))
  return { answered, cpuSeconds: cpuSeconds() - cpu0 }
}

let input = ""
process.stdin.setEncoding("utf8")
process.stdin.on("data", (chunk: string) => (input += chunk))
process.stdin.on("end", () => {
  run(JSON.parse(input) as Job).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`)
      agent.destroy()
    },
    (e: unknown) => {
      process.stderr.write(`clients: ${e instanceof Error ? e.message : String(e)}\n`)
      process.exit(1)
    }
  )
})
