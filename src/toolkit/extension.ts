/**
 * Extension: the Connector-extension transport over window CustomEvents (wallet-protocol.md §1).
 *
 * The listener is attached when the layer is built and before anything is dispatched, so replies the extension
 * sends synchronously inside `dispatchEvent` (its `receivedByExtension`, or a status reply) are never lost. The status
 * probe is answered within 200 ms or the extension is taken as missing; a send with no extension fails with
 * `missingExtension` instead of hanging.
 */
import {
  Deferred,
  Duration,
  Effect,
  Either,
  Layer,
  Option,
  PubSub,
  Queue,
  Runtime,
  Stream,
  SubscriptionRef
} from "effect"
import type { Scope } from "effect"
import { timing } from "./config"
import { Crypto } from "./crypto"
import { Environment } from "./environment"
import { CanceledByUser, MissingExtension, WalletResponseValidation } from "./errors"
import {
  eventType,
  MessageLifeCycleEvent,
  MessageLifeCycleExtensionStatusEvent,
  type MessageLifeCycleEventType,
  type OutgoingExtensionMessage,
  type WalletInteraction,
  WalletInteractionResponse
} from "./schemas"
import { Storage } from "./storage"
import { decodeUntrusted, isJsonObject, readInteractionId, toPlainJson, untrustedLimits } from "./untrusted"

/** Larger incoming messages are refused (a wallet response is a few KB). */
export const MAX_MESSAGE_CHARS = 1_000_000

/** Outgoing messages kept for diagnostics: a long session sends thousands, each with its manifest. */
export const SENT_KEPT = 100

export interface ExtensionStatus {
  readonly isExtensionAvailable: boolean
  readonly isWalletLinked: boolean
  readonly canHandleSessions: boolean
}

export const noExtension: ExtensionStatus = {
  isExtensionAvailable: false,
  isWalletLinked: false,
  canHandleSessions: false
}

/** What arrives on `radix#chromeExtension#receive`, decoded. */
export type ExtensionIncoming =
  | { readonly _tag: "Status"; readonly status: ExtensionStatus }
  | { readonly _tag: "Event"; readonly eventType: MessageLifeCycleEventType; readonly interactionId: string }
  | { readonly _tag: "Response"; readonly response: WalletInteractionResponse }
  | { readonly _tag: "Invalid"; readonly interactionId: string | undefined; readonly error: WalletResponseValidation }

const decodeStatus = decodeUntrusted(MessageLifeCycleExtensionStatusEvent)
const decodeEvent = decodeUntrusted(MessageLifeCycleEvent)
const decodeResponse = decodeUntrusted(WalletInteractionResponse)

/** What `classifyIncoming` makes of one `detail`: a decoded message, or a reason to drop it. */
export type ExtensionClassified = ExtensionIncoming | { readonly _tag: "Dropped"; readonly reason: string }

const issuesText = (error: WalletResponseValidation) =>
  error.issues
    .slice(0, 3)
    .map((i) => (i.path === "" ? i.message : `${i.path.slice(0, 200)}: ${i.message}`))
    .join("; ")

/**
 * Classifies one incoming `detail` through the guarded entry (`decodeUntrusted`); never throws. A lifecycle event
 * (it has an `eventType`) that does not decode is dropped, never failing a request; anything else that does not
 * decode as a wallet response is `Invalid`, with its interactionId when one is readable.
 */
export const classifyIncoming = (detail: unknown): ExtensionClassified => {
  const plain = toPlainJson(detail, { ...untrustedLimits, maxChars: MAX_MESSAGE_CHARS })
  if (Either.isLeft(plain)) {
    const interactionId = readInteractionId(detail)
    return {
      _tag: "Invalid",
      interactionId,
      error: new WalletResponseValidation({ interactionId: interactionId ?? "", issues: [plain.left] })
    }
  }
  const json = plain.right
  if (!isJsonObject(json)) {
    return {
      _tag: "Dropped",
      reason: `not a message (${json === null ? "null" : Array.isArray(json) ? "array" : typeof json})`
    }
  }
  if (Object.prototype.hasOwnProperty.call(json, "eventType")) {
    if (json["eventType"] === "extensionStatus") {
      const status = decodeStatus(json)
      if (Either.isLeft(status))
        return { _tag: "Dropped", reason: `an extensionStatus event: ${issuesText(status.left)}` }
      return {
        _tag: "Status",
        status: {
          isExtensionAvailable: status.right.isExtensionAvailable,
          isWalletLinked: status.right.isWalletLinked,
          canHandleSessions: status.right.canHandleSessions ?? false
        }
      }
    }
    const event = decodeEvent(json)
    return Either.isRight(event)
      ? { _tag: "Event", eventType: event.right.eventType, interactionId: event.right.interactionId }
      : { _tag: "Dropped", reason: `a lifecycle event: ${issuesText(event.left)}` }
  }
  const response = decodeResponse(json)
  if (Either.isRight(response)) return { _tag: "Response", response: response.right }
  const interactionId = readInteractionId(json)
  return {
    _tag: "Invalid",
    interactionId,
    error: new WalletResponseValidation({ ...response.left, interactionId: interactionId ?? "" })
  }
}

/** Classifies and decodes one incoming `detail`. `undefined` for messages that are not for us. Never throws. */
export const decodeIncoming = (detail: unknown): ExtensionIncoming | undefined => {
  const classified = classifyIncoming(detail)
  return classified._tag === "Dropped" ? undefined : classified
}

export interface SendHooks {
  /** Lifecycle events for this interaction (receivedByExtension, receivedByWallet, …). */
  readonly onLifecycleEvent?: (eventType: MessageLifeCycleEventType) => Effect.Effect<void>
}

const isFor = (interactionId: string) => (m: ExtensionIncoming) =>
  (m._tag === "Event" && m.interactionId === interactionId) ||
  (m._tag === "Response" && m.response.interactionId === interactionId) ||
  (m._tag === "Invalid" && m.interactionId === interactionId)

const takeMatching = (queue: Queue.Dequeue<ExtensionIncoming>, matches: (m: ExtensionIncoming) => boolean) =>
  Queue.take(queue).pipe(Effect.repeat({ until: matches }))

export class Extension extends Effect.Service<Extension>()("hswap/toolkit/Extension", {
  scoped: Effect.gen(function* () {
    const env = yield* Environment
    const crypto = yield* Crypto
    const storage = yield* Storage
    const runtime = yield* Effect.runtime<never>()
    const hub = yield* PubSub.unbounded<ExtensionIncoming>()
    const status = yield* SubscriptionRef.make<ExtensionStatus>(noExtension)
    const detected = yield* Deferred.make<void>()
    const sent = yield* SubscriptionRef.make<ReadonlyArray<OutgoingExtensionMessage>>([])

    const handle = (incoming: ExtensionClassified) =>
      Effect.gen(function* () {
        if (incoming._tag === "Dropped") {
          return yield* Effect.logWarning(`toolkit extension: a message was dropped: ${incoming.reason}`)
        }
        if (incoming._tag === "Invalid" && incoming.interactionId === undefined) {
          yield* Effect.logWarning(
            `toolkit extension: a message with no readable interactionId was dropped: ${issuesText(incoming.error)}`
          )
          return
        }
        if (incoming._tag === "Status") {
          yield* SubscriptionRef.set(status, incoming.status)
          yield* Deferred.succeed(detected, undefined)
        }
        yield* PubSub.publish(hub, incoming)
      })

    /** The window listener: whatever arrives, it returns normally and stays attached. */
    const onMessage = (event: Event) => {
      let detail: unknown
      try {
        detail = (event as CustomEvent<unknown>).detail
      } catch {
        detail = undefined
      }
      try {
        Runtime.runSync(runtime)(handle(classifyIncoming(detail)))
      } catch {
        // Unreachable by construction (classification never throws, handling is pure); kept so that a listener
        // can never throw into the page.
        Runtime.runFork(runtime)(Effect.logError("toolkit extension: an incoming message could not be handled"))
      }
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => env.events.addEventListener(eventType.incomingMessage, onMessage)),
      () => Effect.sync(() => env.events.removeEventListener(eventType.incomingMessage, onMessage))
    )

    const dispatch = (detail: OutgoingExtensionMessage) =>
      SubscriptionRef.update(sent, (all) => [...all.slice(-(SENT_KEPT - 1)), detail]).pipe(
        Effect.zipRight(
          Effect.sync(() => env.events.dispatchEvent(new CustomEvent(eventType.outgoingMessage, { detail })))
        )
      )

    // The status probe, answered within 200 ms or the extension is missing.
    const probeId = yield* crypto.randomUuid()
    yield* dispatch({ interactionId: probeId, discriminator: "extensionStatus" })
    yield* Effect.forkScoped(
      Effect.sleep(Duration.millis(timing.extensionDetection)).pipe(
        Effect.zipRight(Deferred.succeed(detected, undefined))
      )
    )

    /** Subscribes now; the returned queue sees everything dispatched after this call. */
    const subscribe: Effect.Effect<Queue.Dequeue<ExtensionIncoming>, never, Scope.Scope> = PubSub.subscribe(hub)

    const sessionIdFor = Effect.fn("Extension.sessionIdFor")(function* (interaction: WalletInteraction) {
      const stored = yield* storage.connectorExtension.get.pipe(
        Effect.map(Option.flatMap((s) => Option.fromNullable(s.sessionId))),
        Effect.orElseSucceed(() => Option.none<string>())
      )
      if (interaction.items.discriminator !== "authorizedRequest") return Option.getOrUndefined(stored)
      if (Option.isSome(stored)) return stored.value
      const created = yield* crypto.randomUuid()
      yield* storage.connectorExtension.set({ sessionId: created }).pipe(Effect.ignore)
      return created
    })

    const wrap = Effect.fn("Extension.wrap")(function* (interaction: WalletInteraction, canHandleSessions: boolean) {
      if (!canHandleSessions) return interaction satisfies OutgoingExtensionMessage
      const sessionId = yield* sessionIdFor(interaction)
      return {
        interactionId: interaction.interactionId,
        interaction,
        ...(sessionId !== undefined ? { sessionId } : {}),
        discriminator: "walletInteraction" as const
      } satisfies OutgoingExtensionMessage
    })

    /**
     * Sends the interaction and waits for its response. Fails with `missingExtension` when there is no extension,
     * or when nothing at all comes back for this interaction within 200 ms; with `canceledByUser` when a cancel
     * event for it arrives; with `walletResponseValidation` when its response does not decode.
     */
    const send = Effect.fn("Extension.send")(function* (interaction: WalletInteraction, hooks: SendHooks = {}) {
      const { interactionId } = interaction
      yield* Deferred.await(detected)
      const current = yield* SubscriptionRef.get(status)
      if (!current.isExtensionAvailable) return yield* new MissingExtension({ interactionId })
      return yield* Effect.scoped(
        Effect.gen(function* () {
          const queue = yield* subscribe
          yield* dispatch(yield* wrap(interaction, current.canHandleSessions))
          const next = takeMatching(queue, isFor(interactionId))
          let message = yield* next.pipe(
            Effect.timeoutFail({
              duration: Duration.millis(timing.extensionDetection),
              onTimeout: () => new MissingExtension({ interactionId })
            })
          )
          for (;;) {
            if (message._tag === "Response") return message.response
            if (message._tag === "Invalid") return yield* message.error
            if (message._tag === "Event") {
              if (message.eventType === "requestCancelSuccess" || message.eventType === "requestCancelFail") {
                return yield* new CanceledByUser({ interactionId })
              }
              if (hooks.onLifecycleEvent) yield* hooks.onLifecycleEvent(message.eventType)
            }
            message = yield* next
          }
        })
      )
    })

    /** Sends the cancel message (session or legacy form) and reports what the extension answered. */
    const cancel = Effect.fn("Extension.cancel")(function* (interaction: WalletInteraction) {
      const { interactionId, metadata } = interaction
      const { canHandleSessions } = yield* SubscriptionRef.get(status)
      return yield* Effect.scoped(
        Effect.gen(function* () {
          const queue = yield* subscribe
          yield* dispatch(
            canHandleSessions
              ? { interactionId, metadata, discriminator: "cancelWalletInteraction" }
              : { interactionId, metadata, items: { discriminator: "cancelRequest" } }
          )
          const answer = yield* takeMatching(
            queue,
            (m) =>
              (m._tag === "Event" &&
                m.interactionId === interactionId &&
                (m.eventType === "requestCancelSuccess" || m.eventType === "requestCancelFail")) ||
              (m._tag === "Response" && m.response.interactionId === interactionId)
          )
          return answer._tag === "Event" && answer.eventType === "requestCancelSuccess"
            ? ("requestCancelSuccess" as const)
            : ("requestCancelFail" as const)
        })
      )
    })

    return {
      /** Current status; unavailable until the probe is answered. */
      status: status.changes,
      getStatus: SubscriptionRef.get(status),
      /** Completes once the probe was answered or 200 ms passed. */
      detected: Deferred.await(detected),
      /** Every decoded incoming message, from the moment of subscription. */
      incoming: Stream.fromPubSub(hub),
      subscribe,
      /** What this service dispatched, the latest `SENT_KEPT` messages, oldest first (for diagnostics and tests). */
      sent: SubscriptionRef.get(sent),
      send,
      cancel,
      openPopup: dispatch({ discriminator: "openPopup" }),
      disconnect: storage.connectorExtension.clear.pipe(Effect.ignore)
    } as const
  })
}) {
  /** Over a scripted `EventTarget` instead of the window (a fake extension listens on it). */
  static readonly Test = (events: EventTarget): Layer.Layer<Extension, never, Crypto | Storage> =>
    Extension.Default.pipe(Layer.provide(Environment.Test({ events })))
}
