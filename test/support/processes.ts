/**
 * Test processes: waiting for a condition, a server started as a child process that says where it listens, and how
 * long it keeps an idle connection.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { Agent, get as httpGet } from "node:http"

export const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms))

/** Polls `probe` every 50 ms until it gives a value, or fails after `ms` naming `what`. */
export const until = async <A>(
  what: string,
  probe: () => A | undefined | Promise<A | undefined>,
  ms: number
): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await sleep(50)
  }
}

export interface Listening {
  readonly proc: ChildProcess
  readonly url: string
  readonly exited: Promise<number | null>
  readonly output: () => string
}

/**
 * Runs `script` with tsx in a child process (kept in `running` until it exits) and waits up to `ms` for its output to
 * match `listening`, whose first group is the URL. A process that exits first, or never says so, fails the wait.
 */
export const spawnListening = async (options: {
  readonly script: string
  readonly args?: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  readonly listening: RegExp
  readonly what: string
  readonly ms: number
  readonly running: Set<ChildProcess>
}): Promise<Listening> => {
  const proc = spawn(process.execPath, ["--import", "tsx", options.script, ...(options.args ?? [])], {
    cwd: process.cwd(),
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  options.running.add(proc)
  const exited = new Promise<number | null>((ok) =>
    proc.once("exit", (code) => {
      options.running.delete(proc)
      ok(code)
    })
  )
  let out = ""
  proc.stdout.on("data", (b: Buffer) => (out += b.toString()))
  proc.stderr.on("data", (b: Buffer) => (out += b.toString()))
  const url = await until(
    options.what,
    () => {
      if (proc.exitCode !== null) throw new Error(`${options.what}: the process exited ${proc.exitCode}:\n${out}`)
      return options.listening.exec(out)?.[1]
    },
    options.ms
  ).catch((e: unknown) => {
    proc.kill("SIGKILL")
    throw e
  })
  return { proc, url, exited, output: () => out }
}

/** The `Keep-Alive` header of a health answer from `url`: how long the server keeps an idle connection open. */
export const keepAliveOf = (url: string) =>
  new Promise<string | undefined>((ok, fail) => {
    const agent = new Agent({ keepAlive: true })
    httpGet(`${url}/api/health`, { agent }, (res) => {
      res.resume()
      res.on("end", () => {
        agent.destroy()
        ok(res.headers["keep-alive"]?.toString())
      })
      res.on("error", fail)
    }).on("error", fail)
  })
