/**
 * `npm start`: one Node process that serves the built app and, on the same origin, the local Radix stack mounted
 * under it (gateway emulator, relay, wallet emulator, exchange server, as their issues land).
 *
 *   tsx src/devnet/main.ts [--port 8080] [--host 127.0.0.1] [--dist dist] [--data-dir .devnet] [--reset]
 *
 * PORT and HOST work too. A port that is taken stops startup with a clear message.
 */
import { Config, Console, Duration, Effect, Layer, Option } from "effect"
import { existsSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { resolve } from "node:path"
import { parseArgs } from "node:util"
import { DevnetAddresses } from "../exchange/devnet-addresses"
import { drainingServer } from "../server/http"
import {
  clientErrorsAsJson,
  type ExchangeServerOptions,
  exchangeServerScoped,
  startExchangeServer
} from "../server/index"
import {
  atomicSwitch,
  DEFAULT_KEEP_ALIVE_SECONDS,
  keepConnectionsFor,
  configMessage,
  launch,
  wholeNumber
} from "../server/main"
import { devnetExchangeServerOptions } from "./exchange"
import { startDevnetGateway } from "./gateway/index"
import { contentSecurityPolicy, serveStatic } from "./static"
import { tradeMount } from "./trade/index"
import { startDevnetWallet } from "./wallet/index"

export interface DevnetOptions {
  readonly port: number
  readonly host: string
  readonly dist: string
  readonly dataDir: string
  readonly reset: boolean
}

/** A handler mounted under a path prefix; it answers every request that starts with the prefix. */
export interface Mount {
  readonly prefix: string
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>
}

export class StartupError extends Error {
  override readonly name = "StartupError"
}

export const parseOptions = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): DevnetOptions => {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: "string" },
      host: { type: "string" },
      dist: { type: "string" },
      "data-dir": { type: "string" },
      reset: { type: "boolean", default: false }
    },
    strict: true,
    allowPositionals: false
  })
  const rawPort = values.port ?? env.PORT ?? "8080"
  const port = Number(rawPort)
  if (!/^\d+$/.test(rawPort) || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new StartupError(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(rawPort)}`)
  return {
    port,
    host: values.host ?? env.HOST ?? "127.0.0.1",
    dist: resolve(values.dist ?? "dist"),
    dataDir: resolve(values["data-dir"] ?? ".devnet"),
    reset: values.reset ?? false
  }
}

const sendError = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
  // A client that closed its connection mid-request (its body cut off) left nobody to answer, and nothing failed
  // here: one quiet line, not an error with a stack.
  if (req.destroyed || res.destroyed) {
    console.debug(`request abandoned by the client: ${req.method ?? "?"} ${(req.url ?? "/").slice(0, 200)}`)
    return
  }
  console.error("request failed:", error)
  if (!res.headersSent) res.writeHead(500, { "content-type": "application/json; charset=utf-8" })
  res.end(JSON.stringify({ error: "Internal error" }))
}

/** Starts the HTTP server with the mounts first and the static app last. Resolves once it listens. */
export const startDevnet = async (
  options: DevnetOptions,
  mounts: ReadonlyArray<Mount> = [],
  transformIndex?: (html: string) => string
): Promise<{ readonly server: Server; readonly url: string; readonly close: () => Promise<void> }> => {
  if (!existsSync(resolve(options.dist, "index.html")))
    throw new StartupError(`no built app in ${options.dist}: run \`npm run build\` first (npm start does it for you)`)
  const site = {
    root: options.dist,
    csp: contentSecurityPolicy(),
    ...(transformIndex === undefined ? {} : { transformIndex })
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    const mount = mounts.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`))
    const work = mount ? mount.handle(req, res) : serveStatic(site, req, res)
    work.catch((e: unknown) => sendError(req, res, e))
  })
  keepConnectionsFor(DEFAULT_KEEP_ALIVE_SECONDS)(server)
  clientErrorsAsJson(server)
  await new Promise<void>((ok, fail) => {
    const onError = (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE")
        fail(
          new StartupError(
            `port ${options.port} on ${options.host} is already in use. Stop the other process, or choose another port with --port N (or PORT=N).`
          )
        )
      else if (e.code === "EACCES")
        fail(new StartupError(`no permission to listen on ${options.host}:${options.port}; choose a port above 1023`))
      else fail(e)
    }
    server.once("error", onError)
    server.listen(options.port, options.host, () => {
      server.off("error", onError)
      ok()
    })
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : options.port
  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`
  const close = () =>
    new Promise<void>((ok) => {
      server.close(() => ok())
      server.closeAllConnections()
    })
  return { server, url, close }
}

export interface RunningStack {
  readonly url: string
  readonly close: () => Promise<void>
}

/**
 * Overrides for the exchange server of the stack: e2e tests turn the limiter off or start in maintenance; the stop
 * tests put its swaps in PostgreSQL, shorten or lengthen the claim lease and pause a settlement at a fault point.
 */
export type StackExchangeOptions = Partial<
  Pick<
    ExchangeServerOptions,
    "rateLimitPerMinute" | "maintenance" | "logLevel" | "atomic" | "databaseUrl" | "claimLeaseMs" | "faults"
  >
>

/**
 * The whole local stack on one origin: the ledger behind the gateway emulator at /gateway, the exchange server at
 * /api, the relay at /relay, the devnet trading widget, the wallet emulator and dashboard under /devnet, and the built
 * app with the wallet emulator's script injected. Closing stops the HTTP server first, then the parts.
 */
export const startStack = async (
  options: DevnetOptions,
  exchangeOptions: StackExchangeOptions = {}
): Promise<RunningStack> => {
  const gateway = await startDevnetGateway({ dataDir: options.dataDir, reset: options.reset })
  const stops: Array<() => Promise<void>> = [() => gateway.dispose()]
  const stopAll = async () => {
    for (const stop of stops) await stop().catch((e: unknown) => console.error("stopping failed:", e))
  }
  try {
    const exchange = await startExchangeServer({
      ...devnetExchangeServerOptions(options.dataDir, gateway, { reset: options.reset }),
      logLevel: "warning",
      ...exchangeOptions
    })
    stops.unshift(exchange.close)
    const wallet = await startDevnetWallet({ gateway })
    stops.unshift(wallet.close)
    // The trading widget's /devnet/trade goes before the wallet's /devnet, which answers 404 for paths it lacks.
    const devnet = await startDevnet(
      options,
      [gateway.mount, exchange.mount, tradeMount, ...wallet.mounts],
      wallet.transformIndex
    )
    return {
      url: devnet.url,
      close: async () => {
        await devnet.close()
        await stopAll()
      }
    }
  } catch (e) {
    await stopAll()
    throw e
  }
}

const fromPromise = <A>(start: () => Promise<A>) =>
  Effect.tryPromise({
    try: start,
    catch: (e) => new StartupError(e instanceof Error ? e.message : String(e))
  })

/**
 * `npm start` as one Layer: the ledger's gateway, the exchange server, the wallet and the HTTP server are resources
 * of one scope, released in reverse on a stop. The HTTP server drains first (HSWAP_DRAIN_SECONDS, default 10: no new
 * connections, in-flight requests answered, the exchange's claims released), then the parts close.
 */
export const stackLayer = (
  options: DevnetOptions,
  exchangeOptions: StackExchangeOptions,
  drain: Duration.Duration,
  /** How long an idle keep-alive connection stays open (HSWAP_KEEP_ALIVE_SECONDS). */
  keepAliveSeconds: number = DEFAULT_KEEP_ALIVE_SECONDS
): Layer.Layer<never, StartupError> =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      if (!existsSync(resolve(options.dist, "index.html"))) {
        return yield* Effect.fail(
          new StartupError(`no built app in ${options.dist}: run \`npm run build\` first (npm start does it for you)`)
        )
      }
      const gateway = yield* Effect.acquireRelease(
        fromPromise(() => startDevnetGateway({ dataDir: options.dataDir, reset: options.reset })),
        (g) => Effect.promise(() => g.dispose())
      )
      const exchange = yield* exchangeServerScoped({
        ...devnetExchangeServerOptions(options.dataDir, gateway, { reset: options.reset }),
        logLevel: "warning",
        ...exchangeOptions
      }).pipe(Effect.mapError((e) => new StartupError(e.message)))
      const wallet = yield* Effect.acquireRelease(
        fromPromise(() => startDevnetWallet({ gateway })),
        (w) => Effect.promise(() => w.close())
      )
      const site = { root: options.dist, csp: contentSecurityPolicy(), transformIndex: wallet.transformIndex }
      // The trading widget's /devnet/trade goes before the wallet's /devnet, which answers 404 for paths it lacks.
      const mounts: ReadonlyArray<Mount> = [gateway.mount, exchange.mount, tradeMount, ...wallet.mounts]
      const http = yield* drainingServer({
        port: options.port,
        host: options.host,
        drain,
        handle: (req, res) => {
          const path = (req.url ?? "/").split("?")[0] ?? "/"
          const mount = mounts.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`))
          const work = mount ? mount.handle(req, res) : serveStatic(site, req, res)
          work.catch((e: unknown) => sendError(req, res, e))
        },
        onDrain: Effect.promise(() => exchange.stopSettling()),
        configure: (server) => {
          keepConnectionsFor(keepAliveSeconds)(server)
          clientErrorsAsJson(server)
        }
      }).pipe(
        Effect.mapError((e) =>
          e.code === "EADDRINUSE"
            ? new StartupError(
                `port ${options.port} on ${options.host} is already in use. Stop the other process, or choose another port with --port N (or PORT=N).`
              )
            : e.code === "EACCES"
              ? new StartupError(`no permission to listen on ${options.host}:${options.port}; choose a port above 1023`)
              : new StartupError(e.message)
        )
      )
      const url = http.url
      const lines = [
        `hSwap devnet is up: ${url}`,
        `  app         ${url}/`,
        `  gateway     ${url}/gateway  (network ${DevnetAddresses.networkId}, localnet)`,
        `  api         ${url}/api  (exchange server)`,
        `  relay       ${url}/relay/api/v1`,
        `  wallet      the Devnet Wallet panel in the app (auto-approve: ${url}/?devnetWallet=auto)`,
        `  dashboard   ${url}/devnet/dashboard/account/${DevnetAddresses.users[0]}`,
        `  data dir    ${options.dataDir}${options.reset ? " (reset)" : ""}`,
        `  exchange    ${DevnetAddresses.exchangeAccount}`,
        ...DevnetAddresses.users.map((u, i) => `  user ${i + 1}      ${u}`)
      ]
      yield* Console.log(lines.join("\n"))
      // Added last, so run first when the scope closes.
      yield* Effect.addFinalizer(() => Console.log("stopping…"))
    })
  )

/**
 * `npm start`'s stack from the command line and the environment (HSWAP_RATE_LIMIT, HSWAP_MAINTENANCE, HSWAP_ATOMIC,
 * HSWAP_DRAIN_SECONDS, HSWAP_KEEP_ALIVE_SECONDS); `overrides` go over what the environment says; `argv`, the
 * arguments after the script's name.
 */
export const devnetFromEnv = (
  overrides: StackExchangeOptions = {},
  argv: ReadonlyArray<string> = process.argv.slice(2)
) =>
  Effect.gen(function* () {
    const options = yield* Effect.try({
      try: () => parseOptions(argv, process.env),
      catch: (e) => new StartupError(e instanceof Error ? e.message : String(e))
    })
    const rawLimit = yield* Config.option(Config.string("HSWAP_RATE_LIMIT")).pipe(Config.map(Option.getOrUndefined))
    if (rawLimit !== undefined && !/^\d+$/.test(rawLimit)) {
      return yield* Effect.fail(
        new StartupError(
          `HSWAP_RATE_LIMIT must be a whole number of requests per minute (0 turns it off), got ${JSON.stringify(rawLimit)}`
        )
      )
    }
    const maintenance = yield* Config.option(Config.string("HSWAP_MAINTENANCE"))
    const atomic = yield* atomicSwitch
    const drain = yield* Config.option(Config.string("HSWAP_DRAIN_SECONDS")).pipe(Config.map(Option.getOrUndefined))
    if (drain !== undefined && (!/^\d+$/.test(drain) || Number(drain) > 3600)) {
      return yield* Effect.fail(
        new StartupError(`HSWAP_DRAIN_SECONDS must be a whole number from 0 to 3600, got ${JSON.stringify(drain)}`)
      )
    }
    const keepAlive = yield* wholeNumber("HSWAP_KEEP_ALIVE_SECONDS", 1, 3600)
    return stackLayer(
      options,
      {
        ...(rawLimit === undefined ? {} : { rateLimitPerMinute: Number(rawLimit) }),
        ...(Option.getOrUndefined(maintenance) === "1" ? { maintenance: true } : {}),
        ...(Option.isSome(atomic) ? { atomic: atomic.value } : {}),
        ...overrides
      },
      Duration.seconds(drain === undefined ? 10 : Number(drain)),
      Option.getOrElse(keepAlive, () => DEFAULT_KEEP_ALIVE_SECONDS)
    )
  }).pipe(Effect.mapError((e) => (e instanceof StartupError ? e : new StartupError(configMessage(e)))))

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("src/devnet/main.ts")) {
  launch(Layer.unwrapEffect(devnetFromEnv()))
}
