/**
 * A `node:http` server as a scoped resource that leaves cleanly: closing its scope drains it. While it drains it
 * answers 503 on `/api/health` (a load balancer takes it out), takes in for a moment what is already on its way and
 * then accepts no connection, closes every keep-alive connection after its current response (`Connection: close`),
 * and waits for the requests in flight. Half-way through
 * the drain time it calls `onDrain` (the exchange server stops its settlements and releases their claims, so the
 * requests waiting on them answer); at the end of it, whatever is still open is cut off.
 */
import { Data, Deferred, Duration, Effect, Fiber, Option, Runtime, type Scope } from "effect"
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http"

export class ListenError extends Data.TaggedError("ListenError")<{ readonly message: string; readonly code: string }> {}

export interface DrainingServerOptions {
  readonly port: number
  readonly host: string
  /** Longest time a stop takes. */
  readonly drain: Duration.Duration
  readonly handle: (req: IncomingMessage, res: ServerResponse) => void
  /** Called when the requests in flight are not done half-way through the drain; they should answer soon after. */
  readonly onDrain?: Effect.Effect<void>
  /** Configures the server before it listens (timeouts, `clientError`). */
  readonly configure?: (server: Server) => void
}

export interface DrainingServer {
  readonly url: string
  readonly server: Server
  /** True once the stop began. */
  readonly draining: () => boolean
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "x-content-type-options": "nosniff",
    "retry-after": "1"
  })
  res.end(JSON.stringify(body))
}

/**
 * `effect` or, after `limit`, none. A stop runs as a finalizer, which cannot be interrupted, so `Effect.timeout` there
 * would wait for the effect whatever the limit: the effect and the timer run in fibers of their own instead.
 */
const atMost = <A>(effect: Effect.Effect<A>, limit: Duration.Duration): Effect.Effect<Option.Option<A>> =>
  Effect.gen(function* () {
    const first = yield* Deferred.make<Option.Option<A>>()
    const work = yield* Effect.forkDaemon(
      Effect.interruptible(Effect.flatMap(effect, (a) => Deferred.succeed(first, Option.some(a))))
    )
    const timer = yield* Effect.forkDaemon(
      Effect.interruptible(Effect.zipRight(Effect.sleep(limit), Deferred.succeed(first, Option.none())))
    )
    const result = yield* Deferred.await(first)
    yield* Fiber.interruptFork(work)
    yield* Fiber.interruptFork(timer)
    return result
  })

/** How long a stop keeps listening (answering 503 on health) before it refuses connections: 1 s, or a quarter of a shorter drain. */
export const leaveTime = (drain: Duration.Duration): Duration.Duration =>
  Duration.min(Duration.seconds(1), Duration.millis(Duration.toMillis(drain) / 4))

/** Event-loop turns a stop waits before it closes the listener: an accept, a read and a parse each take one. */
const TAKE_IN_TURNS = 4

/** Resumes after `n` turns of Node's event loop (each `setImmediate` runs after the loop has polled for I/O once). */
const eventLoopTurns = (n: number): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    const turn = (left: number): void => {
      if (left === 0) resume(Effect.void)
      else setImmediate(() => turn(left - 1))
    }
    turn(n)
  })

export const drainingServer = (
  options: DrainingServerOptions
): Effect.Effect<DrainingServer, ListenError, Scope.Scope> =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const inFlight = new Set<ServerResponse>()
    const idle = yield* Deferred.make<void>()
    let draining = false
    const server = createServer((req, res) => {
      inFlight.add(res)
      res.once("close", () => {
        inFlight.delete(res)
        if (draining && inFlight.size === 0) Runtime.runSync(runtime)(Deferred.succeed(idle, undefined))
      })
      if (draining) {
        res.shouldKeepAlive = false
        res.setHeader("connection", "close")
        const path = (req.url ?? "/").split("?")[0] ?? "/"
        if (path === "/api/health") {
          return json(res, 503, { error: "Service unavailable", message: "The server is stopping" })
        }
      }
      options.handle(req, res)
    })
    options.configure?.(server)

    const listen = Effect.async<void, ListenError>((resume) => {
      const onError = (e: NodeJS.ErrnoException) =>
        resume(Effect.fail(new ListenError({ message: e.message, code: e.code ?? "" })))
      server.once("error", onError)
      server.listen(options.port, options.host, () => {
        server.off("error", onError)
        resume(Effect.void)
      })
    })

    const closed = Effect.async<void>((resume) => {
      if (!server.listening) return resume(Effect.void)
      server.close(() => resume(Effect.void))
    })

    const drain = Effect.gen(function* () {
      draining = true
      for (const res of inFlight) {
        res.shouldKeepAlive = false
        if (!res.headersSent) res.setHeader("connection", "close")
      }
      // For a moment it still listens, and answers 503 on health: a load balancer takes it out before it refuses
      // connections. What already reached the machine is taken in meanwhile: connections waiting in the listener's
      // accept queue would be reset by closing it, and a connection whose request still sits unread in its socket
      // buffer counts as idle and would be closed with no answer (a busy process reads late). Those are answered
      // like the rest, with `Connection: close`.
      yield* Effect.sleep(leaveTime(options.drain))
      yield* eventLoopTurns(TAKE_IN_TURNS)
      // No new connections; idle keep-alive ones go now (`close` closes them), busy ones after their response.
      const serverClosed = yield* Effect.fork(closed)
      server.closeIdleConnections()
      if (inFlight.size === 0) yield* Deferred.succeed(idle, undefined)
      const half = Duration.millis(Duration.toMillis(options.drain) / 2)
      const done = yield* atMost(Deferred.await(idle), half)
      if (done._tag === "None") {
        if (options.onDrain !== undefined) yield* atMost(options.onDrain, half)
        yield* atMost(Deferred.await(idle), half)
      }
      if (inFlight.size > 0) {
        yield* Effect.logWarning(`drain time over: cutting off ${inFlight.size} request(s) still open`)
      }
      server.closeAllConnections()
      yield* Fiber.join(serverClosed)
    })

    yield* Effect.acquireRelease(listen, () => drain)
    const address = server.address()
    const port = typeof address === "object" && address !== null ? address.port : options.port
    return {
      url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}`,
      server,
      draining: () => draining
    }
  })
