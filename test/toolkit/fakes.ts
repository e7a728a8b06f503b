/**
 * Scripted fakes: a Connector extension on an EventTarget, and a relay with a mobile wallet behind it.
 */
import { eventType } from "../../src/toolkit/schemas.js"

export type Reply = "sync" | "async" | "none"

export interface FakeExtensionOptions {
  /** How the status probe is answered (default async). */
  readonly status?: Reply
  readonly isWalletLinked?: boolean
  readonly canHandleSessions?: boolean
  /** receivedByExtension inside the dispatch, as the real extension does (default true). */
  readonly ackSynchronously?: boolean
  /** Called for every walletInteraction (wrapped or legacy bare); may reply through `fake.reply`. */
  readonly onInteraction?: (message: Record<string, unknown>, fake: FakeExtension) => void
}

export interface FakeExtension {
  readonly target: EventTarget
  /** Everything the page dispatched, oldest first. */
  readonly received: Array<Record<string, unknown>>
  readonly reply: (detail: unknown) => void
  readonly replyLater: (detail: unknown) => Promise<void>
  readonly detach: () => void
}

export const fakeExtension = (
  options: FakeExtensionOptions = {},
  target: EventTarget = new EventTarget()
): FakeExtension => {
  const received: Array<Record<string, unknown>> = []
  const reply = (detail: unknown) => target.dispatchEvent(new CustomEvent(eventType.incomingMessage, { detail }))
  const replyLater = (detail: unknown) => Promise.resolve().then(() => void reply(detail))
  const fake: FakeExtension = {
    target,
    received,
    reply,
    replyLater,
    detach: () => target.removeEventListener(eventType.outgoingMessage, listener)
  }
  const statusEvent = () => ({
    eventType: "extensionStatus",
    isExtensionAvailable: true,
    isWalletLinked: options.isWalletLinked ?? true,
    canHandleSessions: options.canHandleSessions ?? true
  })
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<Record<string, unknown>>).detail
    received.push(detail)
    if (detail["discriminator"] === "extensionStatus") {
      const mode = options.status ?? "async"
      if (mode === "sync") reply(statusEvent())
      else if (mode === "async") void replyLater(statusEvent())
      return
    }
    if (typeof detail["interactionId"] === "string" && (options.ackSynchronously ?? true)) {
      reply({ eventType: "receivedByExtension", interactionId: detail["interactionId"] })
    }
    if (detail["discriminator"] === "walletInteraction" || "items" in detail) options.onInteraction?.(detail, fake)
  }
  target.addEventListener(eventType.outgoingMessage, listener)
  return fake
}

// ---------------------------------------------------------------------------------------------------------------
// A Radix Connect relay (synchronous HttpClient double) and a mobile wallet that answers deep links through it.
// ---------------------------------------------------------------------------------------------------------------

import { HttpClient, HttpClientError, HttpClientResponse } from "@effect/platform"
import { Clock, Effect } from "effect"

export type RelayMode = "ok" | "fetchError" | "status500" | "badJson"

export interface FakeRelay {
  readonly client: HttpClient.HttpClient
  /** Entries waiting per session; getResponses returns and deletes them (SMEMBERS + DEL). */
  readonly store: Map<string, Array<unknown>>
  /** Every call: the URL, the body, the content type and the (Test)Clock time. */
  readonly calls: Array<{
    readonly url: string
    readonly body: unknown
    readonly contentType: string | undefined
    readonly at: number
  }>
  mode: RelayMode
}

export const fakeRelay = (): FakeRelay => {
  const relay: FakeRelay = {
    store: new Map(),
    calls: [],
    mode: "ok",
    client: HttpClient.make((request) =>
      Effect.gen(function* () {
        const at = yield* Clock.currentTimeMillis
        const text = request.body._tag === "Uint8Array" ? new TextDecoder().decode(request.body.body) : ""
        const body: unknown = text ? JSON.parse(text) : undefined
        relay.calls.push({
          url: request.url,
          body,
          contentType: request.body._tag === "Uint8Array" ? request.body.contentType : undefined,
          at
        })
        if (relay.mode === "fetchError") {
          return yield* new HttpClientError.RequestError({ request, reason: "Transport", cause: new Error("offline") })
        }
        if (relay.mode === "status500")
          return HttpClientResponse.fromWeb(request, new Response("boom", { status: 500 }))
        if (relay.mode === "badJson") return HttpClientResponse.fromWeb(request, new Response("{", { status: 200 }))
        const b = body as { method?: string; sessionId?: string }
        if (b.method === "getResponses" && b.sessionId) {
          const entries = relay.store.get(b.sessionId) ?? []
          relay.store.delete(b.sessionId)
          return HttpClientResponse.fromWeb(request, new Response(JSON.stringify(entries), { status: 200 }))
        }
        return HttpClientResponse.fromWeb(
          request,
          new Response(JSON.stringify({ error: "unknown method" }), { status: 400 })
        )
      })
    )
  }
  return relay
}
