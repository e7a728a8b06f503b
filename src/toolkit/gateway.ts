/**
 * ToolkitGateway: the three Gateway calls the toolkit needs, and the polls built on them (spec §7, §9).
 *
 * The toolkit depends on this narrow service; `ToolkitGateway.fromGateway` adapts the real `Gateway` client, and
 * tests provide scripted doubles with `ToolkitGateway.make`.
 */
import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import type { GatewayError } from "../gateway/errors"
import { Gateway } from "../gateway/tag"
import { FailedToFetch, FailedToParseResponseToJson, FailedToPoll, RequestStatusNotOk } from "./transportErrors"

export type GatewayCallError = FailedToFetch | RequestStatusNotOk | FailedToParseResponseToJson

export interface ToolkitGatewayApi {
  /** POST /transaction/status {intent_hash}: the `status`. */
  readonly transactionStatus: (intentHash: string) => Effect.Effect<string, GatewayCallError>
  /** POST /transaction/subintent-status {subintent_hash}. */
  readonly subintentStatus: (
    subintentHash: string
  ) => Effect.Effect<
    { readonly subintentStatus: string; readonly transactionIntentHash: string | undefined },
    GatewayCallError
  >
  /** The dApp definition's `name` metadata, or 'Unnamed dApp'. */
  readonly dAppName: (dAppDefinitionAddress: string) => Effect.Effect<string, GatewayCallError>
}

const fromGatewayError = (e: GatewayError): GatewayCallError => {
  switch (e._tag) {
    case "GatewayTransportError":
    case "GatewayTimeoutError":
      return new FailedToFetch({ cause: e, message: e.message })
    case "GatewayResponseError":
      return new RequestStatusNotOk({ status: e.status, message: e.message })
    default:
      return new FailedToParseResponseToJson({ cause: e, message: e.message })
  }
}

export class ToolkitGateway extends Context.Tag("hswap/toolkit/ToolkitGateway")<ToolkitGateway, ToolkitGatewayApi>() {
  static readonly make = (api: ToolkitGatewayApi): Layer.Layer<ToolkitGateway> => Layer.succeed(ToolkitGateway, api)

  /** Over the real Gateway client. */
  static readonly fromGateway: Layer.Layer<ToolkitGateway, never, Gateway> = Layer.effect(
    ToolkitGateway,
    Effect.map(Gateway, (gateway) => ({
      transactionStatus: (intentHash) =>
        gateway.transaction.status(intentHash).pipe(
          Effect.map((r) => r.status as string),
          Effect.mapError(fromGatewayError)
        ),
      subintentStatus: (subintentHash) =>
        gateway.transaction.subintentStatus(subintentHash).pipe(
          Effect.map((r) => ({
            subintentStatus: r.subintent_status as string,
            transactionIntentHash: r.finalized_at_transaction_intent_hash
          })),
          Effect.mapError(fromGatewayError)
        ),
      dAppName: (address) => gateway.dAppName(address).pipe(Effect.mapError(fromGatewayError))
    }))
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Polling
// ---------------------------------------------------------------------------------------------------------------

/** 2 s × 2 per retry, each delay capped: 2, 4, 8, 10, 10 … s for transactions (cap 10 s), up to 60 s for subintents. */
export const pollBackoff = (cap: Duration.DurationInput) =>
  Schedule.exponential(Duration.seconds(2), 2).pipe(
    Schedule.modifyDelay((_, d) => Duration.min(d, Duration.decode(cap)))
  )

export const transactionPollSchedule = pollBackoff(Duration.seconds(10))
export const subintentPollSchedule = pollBackoff(Duration.seconds(60))

export const finalTransactionStatuses: ReadonlySet<string> = new Set([
  "CommittedSuccess",
  "CommittedFailure",
  "Rejected"
])

/** One poll: `Some` when done, `None` to go on. A fetch failure goes on; any other error is `failedToPoll`. */
const attempt = <A>(call: Effect.Effect<Option.Option<A>, GatewayCallError>) =>
  call.pipe(
    Effect.catchTag("FailedToFetch", () => Effect.succeed(Option.none<A>())),
    Effect.catchTags({
      RequestStatusNotOk: (cause) => new FailedToPoll({ cause }),
      FailedToParseResponseToJson: (cause) => new FailedToPoll({ cause })
    })
  )

const untilSome = <A, E, R>(
  poll: Effect.Effect<Option.Option<A>, E, R>,
  schedule: Schedule.Schedule<Duration.Duration>
) => {
  const cadence: Schedule.Schedule<unknown, Option.Option<A>> = schedule
  return poll.pipe(
    Effect.repeat({ schedule: Schedule.passthrough(cadence), until: (o: Option.Option<A>) => Option.isSome(o) }),
    Effect.flatMap((o) =>
      Option.isSome(o) ? Effect.succeed(o.value) : Effect.dieMessage("poll ended without a value")
    )
  )
}

/** Polls /transaction/status until CommittedSuccess, CommittedFailure or Rejected; returns that status. */
export const pollTransactionStatus = (intentHash: string) =>
  Effect.flatMap(ToolkitGateway, (gateway) =>
    untilSome(
      attempt(
        Effect.map(gateway.transactionStatus(intentHash), (status) =>
          finalTransactionStatuses.has(status) ? Option.some(status) : Option.none()
        )
      ),
      transactionPollSchedule
    )
  )

/**
 * Polls /transaction/subintent-status until CommittedSuccess and returns the parent transaction intent hash;
 * `None` once the expiration (Unix seconds) passes first.
 */
export const pollSubintentStatus = (subintentHash: string, expirationTimestampSeconds: number) =>
  Effect.gen(function* () {
    const gateway = yield* ToolkitGateway
    const now = yield* Effect.clockWith((c) => c.currentTimeMillis)
    const remaining = Math.max(0, expirationTimestampSeconds * 1000 - now)
    const poll = untilSome(
      attempt(
        Effect.map(gateway.subintentStatus(subintentHash), (r) =>
          r.subintentStatus === "CommittedSuccess" ? Option.some(r.transactionIntentHash ?? "") : Option.none()
        )
      ),
      subintentPollSchedule
    )
    return yield* Effect.timeout(poll, Duration.millis(remaining)).pipe(
      Effect.map(Option.some),
      Effect.catchTag("TimeoutException", () => Effect.succeed(Option.none<string>()))
    )
  })
